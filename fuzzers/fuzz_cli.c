/* fuzz_cli.c: libFuzzer target: any bytes as a command line (arguments split at NUL bytes), both option styles. */
#include "cli/args.h"
#include "common/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char *argv[MAX_ARGS + 1];
	int argc = 0;
	cli_request request;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = (char *)"rl-insight";
	for (char *arg = text; arg <= text + size && argc < MAX_ARGS; arg += strlen(arg) + 1)
		/* config_path= would read a file: the YAML is fuzz_config's, on memory. */
		if (strncmp(arg, "config_path=", 12) != 0)
			argv[argc++] = arg;
	argv[argc] = NULL;
	if (cli_parse_args(&request, argc, argv) == RLI_OK && request.action == CLI_RUN) {
		/* An accepted run names its input and no more outputs than there is room for. */
		if (!request.input_path || request.vis_count < 0 || request.vis_count > RLI_MAX_OUTPUTS)
			abort();
	}
	cli_request_dispose(&request);
	free(text);
	return 0;
}

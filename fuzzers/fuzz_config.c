/* fuzz_config.c: libFuzzer target: any bytes as a config_path= YAML file, its keys applied as the command line does. */
#include "cli/args.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cli_request request;
	cli_request_init(&request);
	cli_apply_config_text(&request, "fuzz/run.yaml", (const char *)data, size);
	cli_request_dispose(&request);
	return 0;
}

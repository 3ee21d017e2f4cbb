/* history_args.c: the history's options as the command line reads them, and the rules that tie them to the others. */
#include "history_args.h"
#include "common/error.h"
#include "history/history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cli_set_history(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a file: the run history (an SQLite database, created when missing)",
				     spelled);
	r->history_path = value;
	return RLI_OK;
}

int cli_set_run_label(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a label, such as a commit", spelled);
	if (strlen(value) > 200)
		return rli_error_set(RLI_EUSAGE, "%s: a label of at most 200 bytes, not %zu", spelled, strlen(value));
	r->run_label = value;
	return RLI_OK;
}

int cli_set_history_window(cli_request *r, const char *value, const char *spelled)
{
	char *end;
	long n;
	errno = 0;
	n = strtol(value, &end, 10);
	if (errno || end == value || *end || n < RLI_HISTORY_MIN_RUNS || n > 256)
		return rli_error_set(RLI_EUSAGE, "%s: '%s' is not a whole number from %d to 256 (the runs a verdict is made "
				     "against)", spelled, value, RLI_HISTORY_MIN_RUNS);
	r->history_window = (int)n;
	return RLI_OK;
}

int cli_history_check_request(const cli_request *r)
{
	if (!r->history_path && cli_wants(r, "trend"))
		return rli_error_set(RLI_EUSAGE, "--vis-type trend draws the runs of a history: give --history FILE");
	if (!r->history_path && r->run_label)
		return rli_error_set(RLI_EUSAGE, "--run-label names this run in the history: give --history FILE");
	if (!r->history_path && r->history_window)
		return rli_error_set(RLI_EUSAGE, "--history-window is the runs of the history a run is compared with: give "
				     "--history FILE");
	if (r->history_path && r->shard_count > 1)
		return rli_error_set(RLI_EUSAGE, "--shard parses part of the input: give --history to the run that merges "
				     "every shard's tables, which is the whole run");
	return RLI_OK;
}


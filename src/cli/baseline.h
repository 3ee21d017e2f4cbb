/* baseline.h: --baseline: the run to compare with, read on a thread of its own while the current run is parsed. */
#ifndef RLI_CLI_BASELINE_H
#define RLI_CLI_BASELINE_H

#include "args.h"
#include "common/task.h"
#include "compare/side.h"
#include "console.h"
#include "results.h"

typedef struct {
	console *c;
	const cli_request *request;
	rli_task task;              /* its result: a library code; RLI_EPARTIAL: some of its units were skipped */
	cli_results results;        /* what its parse left; none of it from a summary.json */
	rli_compare_side *side;
} cli_baseline;

/* Starts reading request->baseline: a profile tree, exported tables, or a summary.json. */
int cli_baseline_start(cli_baseline *b, console *c, const cli_request *request);
/* Waits for it; says what went wrong. RLI_OK, RLI_EPARTIAL, or the failure's code. */
int cli_baseline_join(cli_baseline *b);
void cli_baseline_dispose(cli_baseline *b);

#endif

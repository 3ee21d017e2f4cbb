/* analyses.h: the two analyses a run can make, each parsing its input and writing its outputs into the run's set. */
#ifndef RLI_CLI_ANALYSES_H
#define RLI_CLI_ANALYSES_H

#include "args.h"
#include "console.h"

/* What an analysis returns besides library codes: it was optional and the input holds none of it. */
#define CLI_SKIPPED 1

/*
 * The timeline: parse, export (rl_events.*), lay out, render. set is NULL for
 * a validation-only run. optional: an input without a timeline is said in a
 * notice and gives CLI_SKIPPED instead of failing the run.
 */
int cli_run_timeline(console *c, const cli_request *request, rli_output_set *set, int optional);

/* The memory analysis: parse, export (memory_events.*), the memory figure as PNG pages and a PDF. */
int cli_run_memory(console *c, const cli_request *request, rli_output_set *set);

/*
 * The report (rl_insight_report.pdf) from what the analyses kept; profiler
 * names the timeline's format on the cover.
 */
int cli_write_report(console *c, const cli_request *request, const rli_report_input *input, const char *profiler,
		     rli_output_set *set);

#endif

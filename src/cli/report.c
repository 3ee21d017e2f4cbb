/* report.c: the run report: lays out rl_insight_report.pdf from what the analyses kept and writes it into the run's set. */
#include "analyses.h"

#include <stdio.h>

int cli_write_report(console *c, const cli_request *request, const cli_results *results, rli_output_set *set)
{
	rli_report_input input = { results->timeline ? results->stats : NULL, results->timeline, results->memory,
				   results->memory_stats, results->comparison };
	rli_report_options options = request->report;
	rli_report *report = NULL;
	double t = cli_now_ms();
	int error;

	options.input_path = request->input_path;
	if (results->stats && results->profiler == RLI_PROFILER_TORCH && results->memory_stats)
		options.profiler = "torch, with its [memory] events"; /* auto read both from the same traces */
	else
		options.profiler = results->stats ? rli_profiler_name(results->profiler) :
				   request->memory_torch ? "torch_memory (PyTorch [memory] events)" : NULL;
	cli_show_status(c, "writing the report");
	if ((error = rli_report_layout(&report, &input, &options)) == RLI_OK)
		error = rli_render(rli_report_document(report), "pdf", request->output_path, set);
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: report %.1f ms, %zu pages", cli_now_ms() - t,
			rli_report_document(report)->page_count);
	rli_report_free(report);
	return error;
}

/* report.c: the run report: lays out rl_insight_report.pdf from each analysis's part and writes it into the run's set. */
#include "analyses.h"
#include "common/error.h"
#include "memory/memory_table.h"

#include <stdio.h>

int cli_write_report(cli_run *run)
{
	console *c = run->c;
	const cli_request *request = run->request;
	const cli_results *results = run->results;
	rli_report_input input = { .comparison = results->comparison, .trend = results->trend };
	rli_report_options options = request->report;
	rli_report *report = NULL;
	double t = cli_now_ms();
	int error, parts = 0;

	for (size_t i = 0; cli_analyses[i]; i++)
		parts += cli_analyses[i]->report_input ? cli_analyses[i]->report_input(&input, results) : 0;
	if (!parts)
		return CLI_SKIPPED;

	rli_profiler profiler = results->profiler;
	int memory_torch = request->memory_torch;
	char date_buf[32];

	options.date = cli_pdf_date(date_buf, sizeof(date_buf), request, cli_capture_start(results, NULL));
	options.input_path = request->input_path;
	/* Tables from shards: the whole run's input, and what read it (summary.json's names). */
	if (results->origin_path) {
		options.input_path = results->origin_path;
		if (rli_profiler_from_name(&profiler, results->origin_profiler) < 0)
			rli_error_clear(); /* "memory": no timeline format */
		memory_torch = results->memory && results->memory->shows_reserved;
	}
	if (results->stats && profiler == RLI_PROFILER_TORCH && results->memory_stats)
		options.profiler = "torch, with its [memory] events"; /* auto read both from the same traces */
	else
		options.profiler = results->stats ? rli_profiler_name(profiler) :
				   memory_torch ? "torch_memory (PyTorch [memory] events)" :
				   !results->memory_stats && results->gmm_stats ? "gmm (msprobe group_list.pt dumps)" : NULL;
	cli_show_status(c, "writing the report");
	if ((error = rli_report_layout(&report, &input, &options)) == RLI_OK)
		error = rli_render(rli_report_document(report), "pdf", request->output_path, run->set);
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: report %.1f ms, %zu pages", cli_now_ms() - t,
			rli_report_document(report)->page_count);
	rli_report_free(report);
	return error;
}

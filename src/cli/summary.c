/* summary.c: the run's one summary.json, from the timeline's and the memory's statistics, whichever the run parsed. */
#include "analyses.h"
#include "common/strutil.h"
#include "export/summary.h"

#include <stdlib.h>

int cli_write_summary(console *c, const cli_request *request, const cli_results *results, rli_output_set *set)
{
	rli_summary_info info = { request->input_path,
				  results->stats ? rli_profiler_name(results->profiler) : "memory", results->comparison };
	/* Tables from shards name the whole run's input, as one run over it would. */
	if (results->origin_path) {
		info.input_path = results->origin_path;
		info.profiler = results->origin_profiler;
	}
	char *path = rli_path_join(request->output_path, "summary.json");
	double t = cli_now_ms();
	int error = path ? rli_summary_write(results->stats, results->memory_stats, &info, path, set)
			 : rli_error_oom();

	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: summary.json %.1f ms", cli_now_ms() - t);
	free(path);
	return error;
}

void cli_results_dispose(cli_results *results)
{
	rli_comparison_free(results->comparison);
	rli_compare_side_free(results->current_side);
	rli_timeline_free(results->timeline);
	rli_stats_free(results->stats);
	rli_events_free(results->events);
	rli_memory_stats_free(results->memory_stats);
	rli_memory_free(results->memory);
	rli_gmm_free(results->gmm);
	free(results->origin_path);
	free(results->origin_profiler);
	*results = (cli_results){ 0 };
}

/* analyses.c: the list of analyses a run can make, one line each, and what the run reads of them all. */
#include "analyses.h"
#include "common/error.h"
#include "layout/memory_pages.h"

#include <math.h>
#include <stdlib.h>

const cli_analysis *const cli_analyses[] = {
	&cli_analysis_timeline,
	&cli_analysis_memory,
	&cli_analysis_gmm,
	NULL,
};

/* The memory pages are written before the timeline, whose rows link to them; the rest keep the list's order. */
const cli_analysis *const cli_analyses_drawn[] = {
	&cli_analysis_memory,
	&cli_analysis_timeline,
	&cli_analysis_gmm,
	NULL,
};

const char *cli_results_profiler(const cli_results *results)
{
	if (results->stats)
		return rli_profiler_name(results->profiler);
	return !results->memory_stats && results->gmm_stats ? "gmm" : "memory";
}

int cli_results_side(rli_compare_side **out, const cli_results *results, const char *path)
{
	rli_compare_side *side = rli_side_new(path, cli_results_profiler(results), RLI_SIDE_PROFILE);
	int error = RLI_OK;

	*out = NULL;
	if (!side)
		return rli_error_oom();
	for (size_t i = 0; cli_analyses[i] && error == RLI_OK; i++) {
		const void *statistics = cli_analyses[i]->statistics(results);
		if (statistics && cli_analyses[i]->compare_side)
			error = cli_analyses[i]->compare_side(side, statistics);
	}
	if (error == RLI_OK)
		error = rli_side_finish(side);
	if (error < 0) {
		rli_compare_side_free(side);
		return error;
	}
	*out = side;
	return RLI_OK;
}

void cli_results_init(cli_results *results)
{
	*results = (cli_results){ 0 };
	results->run.origin_ms = NAN;
}

void cli_results_saw_first(cli_results *results, double first_ms)
{
	if (isfinite(first_ms) && !(results->run.origin_ms <= first_ms))
		results->run.origin_ms = first_ms;
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
	rli_gmm_stats_free(results->gmm_stats);
	rli_gmm_matrix_free(results->gmm_matrix);
	rli_gmm_free(results->gmm);
	free(results->origin_path);
	free(results->origin_profiler);
	rli_trace_share_free(results->share);
	rli_run_devices_free(results->run_devices, results->run.device_count);
	*results = (cli_results){ 0 };
}

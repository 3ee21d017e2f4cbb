/* results.h: what a run's analyses leave for its summary, comparison and report (and what a baseline's parse leaves for its side). */
#ifndef RLI_CLI_RESULTS_H
#define RLI_CLI_RESULTS_H

#include "compare/compare.h"
#include "compare/side.h"
#include "layout/layout.h"
#include "stats/gmm_stats.h"
#include "stats/memory_stats.h"
#include "stats/stats.h"

/*
 * Filled by the analyses (NULL: not parsed) and read by the run-level steps: summary.json, the
 * comparison and the report, written once at the end with whichever parts exist. The
 * statistics refer to their tables, kept here as long as they are.
 */
typedef struct {
	rli_events *events;
	rli_stats *stats;
	rli_timeline *timeline;     /* laid out for a vector medium, when the report is asked for */
	rli_profiler profiler;      /* the format the timeline read */
	rli_memory *memory;
	rli_memory_stats *memory_stats;
	rli_gmm *gmm;               /* the MoE expert-load table */
	rli_gmm_matrix *gmm_matrix; /* its heatmap's matrix (actor_update's backward stages left out) */
	rli_gmm_stats *gmm_stats;
	int memory_from_traces;     /* the memory is the timeline's PyTorch traces' [memory] events */
	rli_compare_side *current_side; /* with --baseline: this run, as the comparison reads it */
	rli_comparison *comparison;
	/* tables as the input: the profiles they were parsed from (rli_table_origin), or NULL */
	char *origin_path, *origin_profiler;
	/* both analyses read Ascend captures: the timeline's reading of each trace keeps its call stacks */
	rli_trace_share *share;
	/* with --history and the report asked for: the trend laid out for it (run_history.c owns it), or NULL */
	const struct rli_trend_figure *trend;
	/*
	 * What the run's outputs know of each other: its t = 0 (the first event of every analysis,
	 * NAN until one is parsed), the home page, the timeline page, and the memory pages by device
	 * (run_devices, owned) for the timeline's rows to link to. Every figure is laid out with it.
	 */
	rli_run_context run;
	rli_run_device *run_devices;
} cli_results;

/* results before any analysis: nothing parsed, no t = 0 yet. */
void cli_results_init(cli_results *results);
void cli_results_dispose(cli_results *results);

/* An analysis's first event (absolute ms, not finite: none) taken as the run's t = 0 when it is the earliest. */
void cli_results_saw_first(cli_results *results, double first_ms);

/* The format summary.json and the comparison name the run by: the timeline's, else "memory", else "gmm" (the expert load alone). */
const char *cli_results_profiler(const cli_results *results);

/*
 * The side a comparison reads from a parsed run: each analysis that left statistics adds its
 * part (analyses.h). path names the run.
 */
int cli_results_side(rli_compare_side **out, const cli_results *results, const char *path);

#endif

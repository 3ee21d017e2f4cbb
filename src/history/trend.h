/* trend.h: a series of runs as the trend figure shows them: each run's statistics, its regressions against the runs before it, and a link to its outputs. */
#ifndef RLI_HISTORY_TREND_H
#define RLI_HISTORY_TREND_H

#include "history.h"

#include <stddef.h>
#include <stdint.h>

/* The trend shows at most this many runs: the last ones, this run last. */
#define RLI_TREND_MAX_RUNS 60

/* The runs of one input and label family, oldest first, with their statistics. */
typedef struct {
	rli_history_run *runs;
	rli_compare_side **sides;
	size_t count;
} rli_history_series;

/* The last `limit` runs the filter takes (rli_history_runs), each with its side. */
int rli_history_series_load(rli_history *history, const rli_history_filter *filter, rli_history_series *out);
void rli_history_series_dispose(rli_history_series *series);

/* One run of the trend. */
typedef struct {
	const rli_history_run *run;     /* id 0: this run, not yet in the history */
	const rli_compare_side *side;
	int judged;                     /* 1: it had RLI_HISTORY_MIN_RUNS runs before it to be compared with */
	uint8_t *regressed;             /* per phase of side (side->phases[i]): 1 slower beyond the noise */
	double *change;                 /* per phase: its ratio to the median of the runs before it; NAN none */
	char *link;                     /* its outputs, relative to the trend's folder; NULL when gone */
	const char *link_note;          /* why there is no link ("replaced by a later run's outputs"), or NULL */
} rli_trend_point;

typedef struct {
	size_t max_runs;          /* 0: RLI_TREND_MAX_RUNS */
	size_t window;            /* the runs a run is compared with; 0: RLI_HISTORY_DEFAULT_WINDOW */
	double threshold;         /* as --fail-on-regression's; 0: any slowdown beyond the noise */
	const char *out_dir;      /* where the trend is written (links are relative to it); NULL: no links */
	const char *current_link; /* this run's own outputs there ("rl_timeline.html"), or NULL */
} rli_trend_options;

void rli_trend_options_init(rli_trend_options *options);

typedef struct rli_trend {
	const char *history_path;
	const char *input, *family;
	size_t window;
	double threshold;
	size_t count;                /* points, oldest first */
	rli_trend_point *points;
	size_t current;              /* this run's point, or SIZE_MAX */
	size_t earlier;              /* runs of the series before the first point (judging it) */
} rli_trend;

/*
 * The trend of series (its last runs) and, when current_run is not NULL, this run after them.
 * The trend points into series and the current run: keep them while it lives.
 */
int rli_trend_build(rli_trend **out, const rli_history_series *series, const rli_history_run *current_run,
		    const rli_compare_side *current_side, const char *history_path, const rli_trend_options *options);
void rli_trend_free(rli_trend *trend);

#endif

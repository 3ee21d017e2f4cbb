/* history_bench.c: a run of 1,024 ranks x 6 roles appended to a history of 1,000 runs, and its trend drawn (trend.png and trend.html), timed as the command does them. Usage: history-bench [DIR [RUNS [INPUT]]]. */
#include "common/atomic_file.h"
#include "common/output_set.h"
#include "events/events.h"
#include "history/trend.h"
#include "layout/trend_figure.h"
#include "stats/stats.h"
#include "rl_insight.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const char *const roles[] = { "agent_loop_rollout_replica_0", "actor_compute_log_prob", "actor_update",
				     "ref_compute_log_prob", "critic_compute_values", "critic_update" };
#define ROLES 6

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what)
{
	fprintf(stderr, "history-bench: %s: %s\n", what, rli_error_last());
	exit(1);
}

/* One night: a bar per (role, rank, step), phases named after their roles as MSTX names them. */
static rli_events *night(int ranks, int steps, uint64_t seed)
{
	rli_events *events = NULL;
	char tid[16] = "1";
	if (rli_events_new(&events) < 0)
		die("events");
	for (int step = 0; step < steps; step++)
		for (int r = 0; r < ROLES; r++)
			for (int rank = 0; rank < ranks; rank++) {
				double base = 2000.0 * (r + 1), start = step * 60000.0 + r * 9000.0;
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				rli_event_in row = { .name = roles[r], .role = roles[r], .tid = tid, .rank_id = rank,
						     .start_ms = start + (double)(seed >> 54), .duration_ms = base * (0.9 + 0.2 * (double)(seed >> 11) / 9007199254740992.0) };
				if (rli_events_append(events, &row) < 0)
					die("events");
			}
	return events;
}

static long peak_rss_mb(void)
{
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_maxrss / 1024;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "history-bench";
	int history_runs = argc > 2 ? atoi(argv[2]) : 1000, ranks = 1024, steps = 5, repeat = 5;
	/* the runs' input: a real profile folder's path lets a command's run join the same series */
	const char *input = argc > 3 ? argv[3] : "/data/nightly/prof";
	char db_path[4096], out[4096];
	rli_events *events = night(ranks, steps, 1);
	rli_stats *stats = NULL;
	rli_compare_side *side = NULL;
	rli_history *h = NULL;
	double best[5] = { INFINITY, INFINITY, INFINITY, INFINITY, INFINITY };
	double t;

	if (rli_mkdir_p(dir) < 0)
		die(dir);
	snprintf(db_path, sizeof(db_path), "%s/history.db", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	if (rli_mkdir_p(out) < 0)
		die(out);
	remove(db_path);
	if (rli_stats_compute(&stats, events) < 0 ||
	    rli_compare_side_from_stats(&side, stats, NULL, input, "mstx") < 0)
		die("statistics");
	if (rli_history_open(&h, db_path, NULL) < 0)
		die("open");
	/* The history: 1,000 nights, each appended as a run appends itself (a transaction each). */
	t = now_ms();
	for (int k = 0; k < history_runs; k++) {
		rli_history_run run;
		char stamp[32];
		if (rli_history_run_from_side(&run, side, "nightly:bench") < 0)
			die("row");
		run.analysed_at = strdup(rli_history_timestamp(stamp, sizeof(stamp), 1.7e12 + k * 86400e3));
		run.source = strdup("run");
		if (rli_history_append(h, &run, side, NULL, 0) < 0)
			die("append");
		rli_history_run_dispose(&run);
	}
	fprintf(stderr, "history-bench: %d runs of %d ranks x %d roles appended in %.0f ms (%zu phases, %zu steps a run)\n",
		history_runs, ranks, ROLES, now_ms() - t, side->phase_count, side->step_count);
	rli_history_close(h);
	h = NULL;

	/* What a run with --history --vis-type trend does after its analysis, best of `repeat`. */
	for (int r = 0; r < repeat; r++) {
		rli_history_series series;
		rli_history_filter filter = { input, "nightly", RLI_HISTORY_DEFAULT_WINDOW + RLI_TREND_MAX_RUNS };
		rli_history_verdict *verdict = NULL;
		rli_history_run run;
		rli_trend_options options;
		rli_trend *trend = NULL;
		rli_trend_figure *figure = NULL;
		rli_timeline_options layout;
		rli_output_set *set = NULL;
		double t0 = now_ms(), t1, t2, t3, t4, t5;
		size_t window;
		if (rli_history_run_from_side(&run, side, "nightly:bench") < 0)
			die("row");
		run.analysed_at = strdup("2030-01-01T00:00:00.000Z");
		run.source = strdup("run");
		if (rli_history_open(&h, db_path, NULL) < 0 || rli_history_series_load(h, &filter, &series) < 0)
			die("read");
		window = series.count < RLI_HISTORY_DEFAULT_WINDOW ? series.count : RLI_HISTORY_DEFAULT_WINDOW;
		if (rli_history_compare(&verdict, series.sides + series.count - window, window, side, 0.05, "the last runs") < 0)
			die("verdict");
		t1 = now_ms();
		rli_trend_options_init(&options);
		options.out_dir = out;
		options.current_link = "rl_timeline.html";
		if (rli_trend_build(&trend, &series, &run, side, db_path, &options) < 0 || rli_output_set_new(&set) < 0)
			die("trend");
		rli_timeline_options_init(&layout);
		layout.medium = RLI_MEDIUM_RASTER;
		if (rli_trend_figure_layout(&figure, trend, &layout) < 0 ||
		    rli_render_with(rli_trend_figure_document(figure), "png", out, set, NULL) < 0)
			die("trend.png");
		rli_trend_figure_free(figure);
		t2 = now_ms();
		layout.medium = RLI_MEDIUM_VECTOR;
		layout.width = RLI_TREND_HTML_WIDTH;
		if (rli_trend_figure_layout(&figure, trend, &layout) < 0 || rli_trend_write_html(figure, NULL, out, set) < 0)
			die("trend.html");
		rli_trend_figure_free(figure);
		t3 = now_ms();
		if (rli_output_set_commit(set) < 0)
			die("commit");
		t4 = now_ms();
		if (rli_history_append(h, &run, side, NULL, 0) < 0)
			die("append");
		t5 = now_ms();
		best[0] = fmin(best[0], t1 - t0);
		best[1] = fmin(best[1], t2 - t1);
		best[2] = fmin(best[2], t3 - t2);
		best[3] = fmin(best[3], t5 - t4);
		best[4] = fmin(best[4], (t3 - t0) + (t5 - t4));
		rli_output_set_free(set);
		rli_trend_free(trend);
		rli_history_verdict_free(verdict);
		rli_history_series_dispose(&series);
		rli_history_run_dispose(&run);
		rli_history_close(h);
		h = NULL;
	}
	printf("history of %d runs, a run of %d ranks x %d roles x %d steps, best of %d:\n", history_runs, ranks, ROLES, steps,
	       repeat);
	printf("  open, read the last %d runs, judge against the last %d: %.1f ms\n",
	       RLI_HISTORY_DEFAULT_WINDOW + RLI_TREND_MAX_RUNS, RLI_HISTORY_DEFAULT_WINDOW, best[0]);
	printf("  trend.png (%d runs): %.1f ms\n", RLI_TREND_MAX_RUNS, best[1]);
	printf("  trend.html: %.1f ms\n", best[2]);
	printf("  append the run (one transaction, synced): %.1f ms\n", best[3]);
	printf("  in all: %.1f ms (target 500 ms); peak RSS %ld MB\n", best[4], peak_rss_mb());
	rli_compare_side_free(side);
	rli_stats_free(stats);
	rli_events_free(events);
	return 0;
}

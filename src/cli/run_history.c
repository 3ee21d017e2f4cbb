/* run_history.c: --history in a run: this run compared with the last runs of its input, its trend drawn, and once its outputs are written, appended. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "run_history.h"
#include "common/error.h"
#include "common/strutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static size_t window_of(const cli_request *request)
{
	return request->history_window ? (size_t)request->history_window : RLI_HISTORY_DEFAULT_WINDOW;
}

/* A failure of the history: said once, remembered for the exit status; the run goes on. */
static int history_failed(console *c, cli_history *h, int error)
{
	cli_say(c, -1, "error: ", "%s", rli_error_last());
	h->failed = 1;
	return error == RLI_ERROR ? RLI_ERROR : RLI_OK;
}

/* This run's own outputs, as the trend links them from the folder they share: the page a reader opens first. */
static const char *own_outputs(const cli_request *request, const cli_results *results)
{
	if (results->stats && cli_wants(request, "html"))
		return "rl_timeline.html";
	if (cli_wants(request, "pdf"))
		return "rl_insight_report.pdf";
	if (results->stats && cli_wants(request, "png"))
		return "rl_timeline.png";
	return "summary.json";
}

/* This run as the history keeps it: its side, and its row but for the summary's identity (known after the commit). */
static int this_run(cli_history *h, const cli_request *request, const cli_results *results)
{
	const char *input = results->origin_path ? results->origin_path : request->input_path;
	char stamp[32];
	struct timespec now;
	int error;
	/* Each analysis's part, as a comparison reads this run; tables from shards are the profiles' run. */
	if ((error = cli_results_side(&h->side, results, input)) < 0)
		return error;
	if (results->origin_path &&
	    !(h->side->profiler = rli_side_text(h->side, results->origin_profiler, strlen(results->origin_profiler))))
		return rli_error_oom();
	if ((error = rli_history_run_from_side(&h->run, h->side, request->run_label)) < 0)
		return error;
	/* The expert load's layers step by step, pointing into the statistics (which outlive the append). */
	if (results->gmm_stats && results->gmm_stats->layer_count) {
		const rli_gmm_stats *g = results->gmm_stats;
		if (!(h->experts = calloc(g->layer_count, sizeof(*h->experts))))
			return rli_error_oom();
		for (size_t i = 0; i < g->layer_count; i++)
			h->experts[i] = (rli_history_expert){ g->layers[i].step, g->layers[i].role, g->layers[i].layer,
							      g->layers[i].imbalance, g->layers[i].max, g->layers[i].mean,
							      g->layers[i].hottest };
		h->expert_count = g->layer_count;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	h->run.analysed_at = rli_strdup(rli_history_timestamp(stamp, sizeof(stamp),
							      (double)now.tv_sec * 1000 + (double)now.tv_nsec / 1e6));
	h->run.source = rli_strdup("run");
	h->run.output = realpath(request->output_path, NULL);
	return h->run.analysed_at && h->run.source ? RLI_OK : rli_error_oom();
}

/* The verdict against the last runs, said as --baseline says its own. */
static int judge(console *c, const cli_request *request, cli_history *h)
{
	size_t window = window_of(request), count = h->series.count < window ? h->series.count : window;
	int loud = request->fail_on_regression ? -1 : 0;
	char name[64];
	int error;
	snprintf(name, sizeof(name), "the last %zu runs", count);
	if ((error = rli_history_compare(&h->verdict, h->series.sides + h->series.count - count, count, h->side,
					 request->fail_on_regression ? request->regression_threshold : 0, name)) < 0)
		return error;
	if (!h->verdict) {
		cli_say(c, loud, "", "history %s holds %zu earlier run%s of %s%s%s%s: no verdict until it holds %d",
			request->history_path, h->series.count, h->series.count == 1 ? "" : "s", h->run.input,
			*h->run.family ? " (label family " : "", h->run.family, *h->run.family ? ")" : "", RLI_HISTORY_MIN_RUNS);
		return RLI_OK;
	}
	for (size_t i = 0; i < h->verdict->comparison->phase_count; i++)
		if (h->verdict->comparison->phases[i].verdict == RLI_VERDICT_REGRESSION)
			cli_say_change(c, loud, "regression: ", &h->verdict->comparison->phases[i]);
	cli_say(c, 0, "", "compared with the median of the last %zu runs in %s: %zu regression%s, %zu improvement%s",
		count, request->history_path, h->verdict->comparison->regressions,
		h->verdict->comparison->regressions == 1 ? "" : "s", h->verdict->comparison->improvements,
		h->verdict->comparison->improvements == 1 ? "" : "s");
	return RLI_OK;
}

/* trend.png and trend.html; the report's trend for the report to embed. */
static int draw_trend(console *c, const cli_request *request, cli_results *results, rli_output_set *set,
		      cli_history *h)
{
	rli_trend_options options;
	rli_timeline_options layout = request->timeline;
	rli_trend_figure *figure = NULL;
	rli_render_options render;
	double t = cli_now_ms();
	int error;

	rli_trend_options_init(&options);
	options.window = window_of(request);
	options.threshold = request->fail_on_regression ? request->regression_threshold : 0;
	options.out_dir = request->output_path;
	options.current_link = own_outputs(request, results);
	if ((error = rli_trend_build(&h->trend, &h->series, &h->run, h->side, request->history_path, &options)) < 0)
		return error;
	if (cli_wants(request, "trend")) {
		layout.medium = RLI_MEDIUM_RASTER;
		if ((error = rli_trend_figure_layout(&figure, h->trend, &layout)) == RLI_OK)
			error = rli_render_with(rli_trend_figure_document(figure), "png", request->output_path, set,
						cli_render_options(&render, request));
		rli_trend_figure_free(figure);
		figure = NULL;
		/* The page is laid out for a laptop's window, where its text reads at its own size; the script scales it. */
		layout.medium = RLI_MEDIUM_VECTOR;
		layout.width = layout.width < RLI_TREND_HTML_WIDTH ? layout.width : RLI_TREND_HTML_WIDTH;
		if (error == RLI_OK && (error = rli_trend_figure_layout(&figure, h->trend, &layout)) == RLI_OK)
			error = rli_trend_write_html(figure, results->run.home, request->output_path, set);
		rli_trend_figure_free(figure);
		if (error < 0)
			return error;
	}
	if (cli_wants(request, "pdf")) {
		rli_timeline_options_init(&layout);
		layout.width = 1400;
		layout.medium = RLI_MEDIUM_VECTOR;
		if ((error = rli_trend_figure_layout(&h->report_trend, h->trend, &layout)) < 0)
			return error;
		results->trend = h->report_trend;
	}
	cli_say(c, 1, "", "timing: trend %.1f ms, %zu runs", cli_now_ms() - t, h->trend->count);
	return RLI_OK;
}

int cli_history_before_commit(cli_run *run, cli_history *h)
{
	console *c = run->c;
	const cli_request *request = run->request;
	cli_results *results = run->results;
	rli_output_set *set = run->set;
	rli_history_open_options open;
	rli_history_filter filter = { 0 };
	double t = cli_now_ms();
	int error;

	if (!request->history_path || !set || (!results->stats && !results->memory_stats && !results->gmm_stats))
		return RLI_OK;
	if ((error = this_run(h, request, results)) < 0)
		return history_failed(c, h, error);
	rli_history_open_options_init(&open);
	open.journal = getenv("RLI_HISTORY_JOURNAL");
	if ((error = rli_history_open(&h->db, request->history_path, &open)) < 0) {
		if (cli_wants(request, "trend"))
			rli_error_append("; trend.png and trend.html were not drawn");
		return history_failed(c, h, error);
	}
	if (rli_history_found_version(h->db) && rli_history_found_version(h->db) < RLI_HISTORY_SCHEMA)
		cli_say(c, 0, "", "history %s: brought forward from schema version %d to %d", request->history_path,
			rli_history_found_version(h->db), RLI_HISTORY_SCHEMA);
	/* The runs of this input and label family: the window, and with a trend the runs it shows too. */
	filter.input = h->run.input;
	filter.family = h->run.family;
	filter.limit = window_of(request) + (cli_wants(request, "trend") || cli_wants(request, "pdf") ? RLI_TREND_MAX_RUNS : 0);
	if ((error = rli_history_series_load(h->db, &filter, &h->series)) < 0)
		return history_failed(c, h, error);
	cli_say(c, 1, "", "timing: history read %.1f ms, %zu earlier runs (journal %s)", cli_now_ms() - t,
		h->series.count, rli_history_journal_mode(h->db));
	if (!request->baseline && (error = judge(c, request, h)) < 0)
		return history_failed(c, h, error);
	if ((cli_wants(request, "trend") || cli_wants(request, "pdf")) && (error = draw_trend(c, request, results, set, h)) < 0) {
		/* An output of the set that failed (a full disk) fails the run, as any other output would. */
		if (error == RLI_EOUTPUT) {
			cli_say(c, -1, "error: ", "%s", rli_error_last());
			return error;
		}
		return history_failed(c, h, error);
	}
	return RLI_OK;
}

int cli_history_after_commit(cli_run *run, cli_history *h, int result)
{
	console *c = run->c;
	const cli_request *request = run->request;
	char *summary;
	struct stat st;
	double t = cli_now_ms();
	int error;

	if (!request->history_path)
		return result;
	/* A failed run says its own failure, and so does one that skipped units (5): neither is remembered. */
	if (result < 0 && result != RLI_EPARTIAL)
		return result;
	if (result == RLI_EPARTIAL) {
		if (h->db)
			cli_say(c, 0, "warning: ", "this run was not added to the history %s: some input units failed, so "
				"its statistics would not be the whole run's", request->history_path);
		return result;
	}
	if (!h->db)
		return h->failed ? CLI_HISTORY_FAILED : result;
	/* Its summary.json as written, so that a later trend can tell whether the folder still holds this run's outputs. */
	if (h->run.output && (summary = rli_path_join(h->run.output, "summary.json")) != NULL) {
		if (stat(summary, &st) == 0) {
			h->run.summary_bytes = (int64_t)st.st_size;
			h->run.summary_mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
		}
		free(summary);
	}
	if ((error = rli_history_append(h->db, &h->run, h->side, h->experts, h->expert_count)) < 0) {
		rli_error_append("; the run's other outputs are written");
		history_failed(c, h, error);
		return CLI_HISTORY_FAILED;
	}
	cli_say(c, 1, "", "timing: history: run #%lld added to %s in %.1f ms", (long long)h->run.id,
		request->history_path, cli_now_ms() - t);
	if (h->failed)
		return CLI_HISTORY_FAILED;
	if (request->fail_on_regression && h->verdict && h->verdict->comparison->regressions)
		return CLI_HISTORY_REGRESSED;
	return RLI_OK;
}

void cli_history_dispose(cli_history *h)
{
	rli_trend_figure_free(h->report_trend);
	rli_trend_free(h->trend);
	rli_history_verdict_free(h->verdict);
	rli_history_series_dispose(&h->series);
	rli_compare_side_free(h->side);
	free(h->experts);
	rli_history_run_dispose(&h->run);
	rli_history_close(h->db);
	*h = (cli_history){ 0 };
}

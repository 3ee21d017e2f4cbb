/* timeline.c: the timeline analysis: parse the profiles, export the table, lay out and render the figure. */
#include "analyses.h"
#include "common/bigmem.h"
#include "common/grow.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "common/task.h"
#include "export/summary.h"
#include "layout/layout.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The run's statistics, computed once: the summary and every figure read them. They are
 * computed on a thread of their own while the table is exported and the rows and bars laid
 * out, none of which reads them; what does waits for them (stats_wait).
 */
typedef struct {
	console *c;
	const rli_events *events;
	rli_task task;
	rli_stats *stats;
	double ms;
	double waited_ms; /* how long the main thread waited for them */
	int started, joined, result;
} stats_job;

static int stats_run(void *arg)
{
	stats_job *job = arg;
	double t = cli_now_ms();
	int error = rli_stats_compute(&job->stats, job->events);
	job->ms = cli_now_ms() - t;
	return error;
}

/* Starts the statistics; on this thread when --jobs 1 asks for one. */
static void stats_start(stats_job *job, console *c, const cli_request *request, const rli_events *events)
{
	job->c = c;
	job->events = events;
	job->started = 1;
	rli_task_start(&job->task, stats_run, job, request->jobs != 1);
}

/* The statistics, waited for: NULL when they failed (said, and the reason this thread's last error). */
static const rli_stats *stats_wait(void *arg)
{
	stats_job *job = arg;
	if (!job->joined) {
		double t = cli_now_ms();
		job->joined = 1;
		job->result = rli_task_join(&job->task);
		job->waited_ms = cli_now_ms() - t;
		if (job->result < 0)
			cli_say(job->c, -1, "error: ", "%s", rli_error_last());
		else
			cli_say(job->c, 1, "", "timing: statistics %.1f ms", job->ms);
	}
	return job->result < 0 ? NULL : job->stats;
}

/* Writes the exported table into the run's output set; returns a library code. */
static int write_export(console *c, const rli_events *events, rli_export_format format,
			const char *out_dir, const char *file_name, rli_output_set *set)
{
	char *path = rli_path_join(out_dir, file_name);
	double t = cli_now_ms();
	int error;
	if (!path)
		return rli_error_oom();
	error = rli_events_export(events, format, path, set);
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: export %s %.1f ms", format == RLI_EXPORT_CSV ? "csv" : "jsonl",
			cli_now_ms() - t);
	free(path);
	return error;
}

/* The back-end that writes a timeline output, or NULL for outputs that are not the timeline figure. */
static const char *figure_backend(const char *output)
{
	if (strcmp(output, "png") == 0 || strcmp(output, "html") == 0)
		return output;
	if (strcmp(output, "timeline_pdf") == 0)
		return "pdf";
	return NULL;
}

static int is_raster(const char *backend_name)
{
	return strcmp(backend_name, "png") == 0;
}

/*
 * Lays the timeline out for one medium. A PNG needs its own layout only when
 * the vector one is too tall for a raster; otherwise one layout serves all.
 */
static int lay_out(console *c, rli_timeline **out, const cli_request *request, const rli_run_context *run,
		   const rli_events *events, const rli_stats_source *stats, rli_medium medium, int all_rows, int aside,
		   int only_for_raster)
{
	rli_timeline_options options = request->timeline;
	double t = cli_now_ms();
	double waited_before = stats->get == stats_wait ? ((stats_job *)stats->ctx)->waited_ms : 0;
	int error;

	options.medium = medium;
	options.run = run; /* the run's t = 0 and the pages to link to */
	options.stats_aside = aside; /* only the HTML shows the statistics beside the figure */
	options.only_if_raster_fits = only_for_raster; /* else *out may stay NULL */
	/* The layout of every row serves the HTML and the report, which say the findings their own way. */
	if (all_rows) {
		options.overview = 0;
		options.caption = 0;
	}
	cli_show_status(c, "laying out");
	if ((error = rli_timeline_layout_from(out, events, stats, &options)) < 0) {
		/* Failed statistics were said where they were waited for. */
		if (!(stats->get == stats_wait && ((stats_job *)stats->ctx)->result < 0))
			cli_say(c, -1, "error: ", "%s", rli_error_last());
		return error;
	}
	{
		/* The statistics' own time is theirs: a layout that waited for them says how long apart. */
		double waited = stats->get == stats_wait ? ((stats_job *)stats->ctx)->waited_ms : 0;
		double before = waited_before;
		if (waited > before)
			cli_say(c, 1, "", "timing: layout %.1f ms (and %.1f ms waiting for the statistics)",
				cli_now_ms() - t - (waited - before), waited - before);
		else
			cli_say(c, 1, "", "timing: layout %.1f ms", cli_now_ms() - t);
	}
	return RLI_OK;
}

/* One line at the default verbosity when a static figure shows the overview instead of its rows. */
static void say_overview(console *c, const cli_request *request, const rli_timeline *timeline, int html)
{
	char rows[32], most[32];
	rli_fmt_thousands(rows, sizeof(rows), (double)timeline->panel.row_count, 0);
	rli_fmt_thousands(most, sizeof(most), (double)timeline->readable_rows, 0);
	cli_say(c, 0, "", "the timeline has %s rows, more than its %spage shows readably (%s): the PNG and PDF "
		"show each role's occupancy over time and the outlier ranks instead; --all-rows draws every row%s",
		rows, request->timeline.style == RLI_STYLE_DEFAULT ? "" : "paper ", most,
		html ? " (the HTML has them all)" : "");
}

/* Draws the figures asked for; a layout of every row is handed to *report when the report is asked for. */
static int render_all(console *c, const cli_request *request, const rli_run_context *run,
		      const rli_events *events,
		      const rli_stats_source *stats, rli_output_set *set, rli_timeline **report)
{
	/*
	 * vector: the single-figure PDF's layout, the overview past the readable
	 * rows; every_row: what scrolls (the HTML) and what the report pages
	 * through; raster: the PNG's when the vector one cannot serve it.
	 */
	rli_timeline *vector = NULL, *raster = NULL, *every_row = NULL;
	int wants_raster = 0, wants_figure_pdf = 0, wants_html = 0, wants_report = cli_wants(request, "pdf");
	int error = RLI_OK;
	double scale;
	char date_buf[32];
	const char *date = NULL;

	for (int i = 0; i < request->vis_count; i++) {
		const char *backend = figure_backend(request->vis_types[i]);
		if (backend && is_raster(backend))
			wants_raster = 1;
		wants_html |= strcmp(request->vis_types[i], "html") == 0;
		wants_figure_pdf |= strcmp(request->vis_types[i], "timeline_pdf") == 0;
	}
	/* The figure PDF's date is the capture's start: the one output here that waits for the statistics first. */
	if (wants_figure_pdf) {
		const rli_stats *ready = stats->get(stats->ctx);
		if (!ready) {
			error = RLI_ERROR;
			goto done;
		}
		date = cli_pdf_date(date_buf, sizeof(date_buf), request, ready->start_ms);
	}
	/*
	 * Where the vector layout serves the PNG alone, it is not made when its page is sure to be
	 * too tall for one (vector stays NULL): the PNG's own layout below is then the only one.
	 */
	if ((wants_figure_pdf || wants_raster) &&
	    (error = lay_out(c, &vector, request, run, events, stats, RLI_MEDIUM_VECTOR, 0, wants_html,
			     !wants_figure_pdf && !wants_html && !wants_report)) < 0)
		goto done;
	/* The page scrolls and zooms, and the report pages through the rows: both have every row. */
	if ((wants_html || wants_report) && (!vector || rli_timeline_shows_overview(vector) || request->timeline.caption) &&
	    (error = lay_out(c, &every_row, request, run, events, stats, RLI_MEDIUM_VECTOR, 1, wants_html, 0)) < 0)
		goto done;
	if (wants_raster && (!vector || rli_timeline_shows_overview(vector) ||
			     rli_document_raster_scale(rli_timeline_document(vector)) == 0.0) &&
	    (error = lay_out(c, &raster, request, run, events, stats, RLI_MEDIUM_RASTER, 0, 0, 0)) < 0)
		goto done;
	if (raster && rli_timeline_shows_overview(raster))
		say_overview(c, request, raster, wants_html);
	else if (wants_figure_pdf && rli_timeline_shows_overview(vector))
		say_overview(c, request, vector, wants_html);
	if (wants_raster) {
		scale = rli_document_raster_scale(rli_timeline_document(raster ? raster : vector));
		if (request->timeline.style == RLI_STYLE_DEFAULT && scale < request->timeline.scale)
			cli_say(c, 1, "", "the PNG is drawn at scale %g, not %d: a %d-px-wide page at scale %d "
			    "would pass the 32767-pixel limit of PNG images", scale, request->timeline.scale,
			    request->timeline.width, request->timeline.scale);
	}

	for (int i = 0; i < request->vis_count; i++) {
		const char *name = figure_backend(request->vis_types[i]);
		const rli_timeline *timeline;
		char what[64];
		rli_render_options render;
		rli_document dated;
		double t = cli_now_ms();

		if (!name)
			continue;
		timeline = is_raster(name) && raster ? raster : strcmp(name, "html") == 0 && every_row ? every_row : vector;
		snprintf(what, sizeof(what), "writing %s", name);
		cli_show_status(c, what);
		error = rli_render_with(cli_dated(&dated, rli_timeline_document(timeline), date), name,
					request->output_path, set, cli_render_options(&render, request));
		/* One failed output fails the run: the set is written whole or not at all. */
		if (error < 0) {
			cli_say(c, -1, "error: ", "%s", rli_error_last());
			goto done;
		}
		cli_say(c, 1, "", "timing: render %s %.1f ms", name, cli_now_ms() - t);
	}
	if (wants_report) {
		rli_timeline **kept = every_row ? &every_row : &vector;
		*report = *kept;
		*kept = NULL;
	}

done:
	rli_timeline_free(vector);
	rli_timeline_free(raster);
	rli_timeline_free(every_row);
	return error;
}

/*
 * An optional timeline's log lines wait until the parse says whether there
 * is a timeline at all: if not, one line says so instead of them.
 */
typedef struct {
	rli_log_level level;
	char *text;
} held_line;

typedef struct {
	console *c;
	held_line *lines;
	size_t count, capacity;
} held_log;

static void hold_line(void *ctx, rli_log_level level, const char *line)
{
	held_log *held = ctx;
	char *copy;

	/* Out of memory: the line is said now rather than lost. */
	if (RLI_GROW(&held->lines, &held->capacity, held->count + 1, 16) < 0 || !(copy = rli_strdup(line))) {
		cli_log_line(held->c, level, line);
		return;
	}
	held->lines[held->count].level = level;
	held->lines[held->count++].text = copy;
}

/* Says the held lines (or drops them), then frees them. */
static void release_lines(held_log *held, int say)
{
	for (size_t i = 0; i < held->count; i++) {
		if (say)
			cli_log_line(held->c, held->lines[i].level, held->lines[i].text);
		free(held->lines[i].text);
	}
	free(held->lines);
}

/* The profiles' bars into run->results (with no analysis named, the [memory] events of PyTorch traces too). */
static int parse(cli_run *run, int optional)
{
	console *c = run->c;
	const cli_request *request = run->request;
	cli_results *results = run->results;
	rli_parse_options options;
	rli_torch_memory_options memory;
	rli_events *events = NULL;
	rli_profiler detected = request->profiler;
	held_log held = { .c = c };
	int parse_result;
	double t = cli_now_ms();

	cli_parse_options(&options, &memory, request, optional ? hold_line : cli_log_line,
			  optional ? (void *)&held : (void *)c);
	options.share = results->share;

	cli_show_status(c, "parsing");
	if (request->analyses == 0) {
		/* Whatever the input holds: a PyTorch trace's [memory] events come from the same read. */
		parse_result = rli_parse_with_memory(&events, &results->memory, &detected, request->input_path,
						     &options, &memory);
	} else {
		parse_result = rli_parse(&events, &detected, request->input_path, &options);
	}
	release_lines(&held, !(optional && parse_result == RLI_EINVALID));
	if (parse_result == RLI_EINVALID && optional) {
		/* The first failure says why: "Data validation failed\n  - <why>". */
		const char *why = strstr(rli_error_last(), "\n  - ");
		cli_say(c, 0, "", "no timeline drawn: %s", why ? why + 5 : rli_error_last());
		rli_events_free(events);
		return CLI_SKIPPED;
	}
	if (parse_result < 0 && parse_result != RLI_EPARTIAL) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		rli_events_free(events);
		return parse_result;
	}
	if (optional && request->shard_count > 1 && rli_events_count(events) == 0) {
		/* A shard without bars, of an input that holds memory records: the timeline is another shard's. */
		cli_say(c, 1, "", "no timeline drawn: shard %u/%u holds no bars", request->shard_index, request->shard_count);
		rli_events_free(events);
		return CLI_SKIPPED;
	}
	cli_say(c, 1, "", "timing: parse %.1f ms, %zu events", cli_now_ms() - t, rli_events_count(events));
	rli_bigmem_trim(); /* the parsers' scratch, kept for the next unit, is done with */
	results->events = events;
	results->profiler = detected;
	if (run->set) {
		/* The run's t = 0 is its first event, a bar of the timeline or an allocation. */
		cli_results_saw_first(results, rli_timeline_first_ms(events));
		/* named now: the memory pages, made first, link to it */
		if (request->vis_count && cli_wants(request, "html"))
			results->run.timeline = "rl_timeline";
	}
	return parse_result;
}

/*
 * Statistics on a thread of their own while the table is exported and the figures laid out and
 * drawn (a layout waits for them only where it shows them); the statistics left for the summary.
 */
static int analyse(cli_run *run)
{
	const cli_request *request = run->request;
	cli_results *results = run->results;
	stats_job job = { 0 };
	rli_stats_source stats = { stats_wait, &job };
	int result = RLI_OK;

	stats_start(&job, run->c, request, results->events);
	if (request->export_csv)
		result = write_export(run->c, results->events, RLI_EXPORT_CSV, request->output_path, "rl_events.csv",
				      run->set);
	if (result == RLI_OK && request->export_jsonl)
		result = write_export(run->c, results->events, RLI_EXPORT_JSONL, request->output_path,
				      "rl_events.jsonl", run->set);
	if (result == RLI_OK && request->vis_count)
		result = render_all(run->c, request, &results->run, results->events, &stats, run->set, &results->timeline);
	/* The summary, written at the end of the run, reads them: waited for whatever came before. */
	if (!stats_wait(&job)) {
		if (result == RLI_OK)
			result = job.result;
	} else {
		results->stats = job.stats;
		job.stats = NULL;
	}
	rli_stats_free(job.stats);
	return result;
}

static const void *statistics(const cli_results *results)
{
	return results->stats;
}

static int summary(FILE *fp, const void *stats)
{
	return rli_summary_write_timeline(fp, stats);
}

static int compare_side(rli_compare_side *side, const void *stats)
{
	return rli_compare_side_add_timeline(side, stats);
}

/* compare.png (a comparison of timelines), then compare.html (of timelines, memory records, or both). */
static int compare_outputs(cli_run *run, const cli_baseline *baseline)
{
	int error = cli_draw_compare_png(run);
	return error < 0 ? error : cli_write_compare_html(run, baseline);
}

/* The report's timeline pages: laid out only when the report was asked for. */
static int report_input(rli_report_input *input, const cli_results *results)
{
	if (!results->timeline)
		return 0;
	input->stats = results->stats;
	input->timeline = results->timeline;
	return 1;
}

const cli_analysis cli_analysis_timeline = {
	.name = "timeline",
	.bit = CLI_TIMELINE,
	.always = 1,
	.parse = parse,
	.analyse = analyse,
	.statistics = statistics,
	.summary = summary,
	.compare_side = compare_side,
	.compare_outputs = compare_outputs,
	.report_input = report_input,
};

/* memory.c: the memory analysis: parse the Ascend memory records or PyTorch [memory] events, export the table, lay out and render the figure and the pages. */
#include "analyses.h"
#include "common/bigmem.h"
#include "common/strutil.h"
#include "common/task.h"
#include "export/summary.h"
#include "layout/memory_figure.h"
#include "layout/memory_pages.h"
#include "memory/memory_devices.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int export_table(console *c, const rli_memory *memory, rli_export_format format, const char *out_dir,
			const char *file_name, rli_output_set *set)
{
	char *path = rli_path_join(out_dir, file_name);
	int error;
	if (!path)
		return rli_error_oom();
	if ((error = rli_memory_export(memory, format, path, set)) < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	free(path);
	/* A device file's reserve (memory_record.csv) goes beside the rows, so that reading them back draws it too. */
	if (error == RLI_OK && rli_memory_has_reserve(memory)) {
		if (!(path = rli_path_join(out_dir, format == RLI_EXPORT_JSONL ? "memory_reserved.jsonl"
										: "memory_reserved.csv")))
			return rli_error_oom();
		if ((error = rli_memory_export_reserve(memory, format, path, set)) < 0)
			cli_say(c, -1, "error: ", "%s", rli_error_last());
		free(path);
	}
	return error;
}

/* The figure for one medium, drawn by one back-end: PNG pages from a raster layout, the PDF from a vector one (date: its metadata's, NULL the back-end's). */
static int draw(console *c, const cli_request *request, const rli_run_context *run, const rli_memory_devices *split,
		const char *backend, rli_medium medium, const char *date, rli_output_set *set)
{
	rli_timeline_options options = request->timeline;
	rli_memory_figure *figure = NULL;
	rli_render_options render;
	rli_document dated;
	double t = cli_now_ms();
	int error;

	options.medium = medium;
	options.run = run; /* the run's t = 0: the figure's times are the timeline's */
	cli_show_status(c, "drawing the memory figure");
	if ((error = rli_memory_figure_layout(&figure, split->devices, split->count, &options)) == RLI_OK)
		error = rli_render_with(cli_dated(&dated, rli_memory_figure_document(figure), date), backend,
					request->output_path, set, cli_render_options(&render, request));
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: memory %s %.1f ms", backend, cli_now_ms() - t);
	rli_memory_figure_free(figure);
	return error;
}

/*
 * The statistics, worked out beside the outputs (they read the table only), and how long they
 * took. Where the pages are drawn they start once the pages are laid out, with copies of the
 * curves the layout swept: a device's curve is not swept twice.
 */
typedef struct {
	const rli_memory *memory;
	const rli_memory_devices *split;
	rli_memory_summary *summaries;     /* the pages', one a device of the split; NULL: none */
	const rli_memory_summary **known;  /* into summaries, NULL where the pages have none */
	rli_memory_stats *stats;
	double ms;
	rli_task task;
	int started;
} stats_work;

static int compute_stats(void *arg)
{
	stats_work *work = arg;
	double t = cli_now_ms();
	int error = rli_memory_stats_compute_split(&work->stats, work->memory, work->split, work->known);
	work->ms = cli_now_ms() - t;
	return error;
}

/* On a second core unless --jobs 1: the outputs do not need them, the summary and report do. */
static void start_stats(stats_work *work, const cli_request *request)
{
	work->started = 1;
	rli_task_start(&work->task, compute_stats, work, request->jobs != 1);
}

/* The pages' curves for the statistics, then the statistics started; without room for the copy they sweep their own. */
static void start_stats_with(stats_work *work, const cli_request *request, const rli_memory_pages *pages)
{
	size_t count = work->split->count;
	work->summaries = malloc((count ? count : 1) * sizeof(*work->summaries));
	work->known = malloc((count ? count : 1) * sizeof(*work->known));
	if (work->summaries && work->known) {
		rli_memory_pages_summaries(pages, work->summaries, work->known, count);
	} else {
		free(work->known);
		work->known = NULL;
	}
	start_stats(work, request);
}

/*
 * The interactive pages: per device a page and a data file per segment (and the index with several
 * devices, unless the run has a home page to list them); the devices' pages left in results for the
 * timeline's rows to link to.
 */
static int draw_pages(console *c, const cli_request *request, const rli_memory *memory,
		      const rli_memory_devices *split, rli_output_set *set, stats_work *stats, cli_results *results)
{
	rli_timeline_options options = request->timeline;
	rli_memory_pages *pages = NULL;
	rli_render_options render;
	double t = cli_now_ms(), laid_out = t;
	int error;

	options.run = &results->run;
	cli_show_status(c, "writing the memory pages");
	if ((error = rli_memory_pages_layout_lazy(&pages, memory, split, &options)) == RLI_OK &&
	    (error = rli_memory_pages_run_devices(pages, &results->run_devices, &results->run.device_count)) == RLI_OK) {
		results->run.devices = results->run_devices;
		laid_out = cli_now_ms();
		if (!stats->started)
			start_stats_with(stats, request, pages);
		error = rli_render_with(rli_memory_pages_document(pages), "html", request->output_path, set,
					cli_render_options(&render, request));
	}
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: memory html %.1f ms (layout %.1f ms, writing %.1f ms)", cli_now_ms() - t,
			laid_out - t, cli_now_ms() - laid_out);
	rli_memory_pages_free(pages);
	return error;
}

/* The input is the tables --export wrote: named so, or (auto, --profiler-type memory) found so. */
static int reads_tables(const cli_request *request)
{
	if (request->profiler == RLI_PROFILER_TABLE)
		return 1;
	return request->profiler == RLI_PROFILER_AUTO && rli_memory_capture_count(request->input_path) == 0 &&
	       rli_memory_table_count(request->input_path, RLI_PROFILER_AUTO) > 0;
}

/*
 * With no analysis named: Ascend captures holding operator_memory.csv, else (the input is no
 * capture) the memory tables --export wrote. Then a tree without a timeline is no error.
 */
static int detect(cli_run *run)
{
	const cli_request *request = run->request;
	int captures = 0, tables = 0;

	if (request->profiler != RLI_PROFILER_TABLE && (captures = rli_memory_capture_count(request->input_path)) > 0) {
		cli_say(run->c, 0, "", "found memory records in %d Ascend capture%s under %s", captures,
			captures == 1 ? "" : "s", request->input_path);
		/* The timeline reads the same captures' trace_view.json first: its reading serves this one too. */
		if (rli_trace_share_new(&run->results->share) < 0) {
			cli_say(run->c, -1, "error: ", "%s", rli_error_last());
			return RLI_ERROR;
		}
		return 1;
	}
	if (captures == 0 && (tables = rli_memory_table_count(request->input_path, request->profiler)) > 0) {
		cli_say(run->c, 0, "", "found %d memory table%s in %s", tables, tables == 1 ? "" : "s", request->input_path);
		run->found_tables = 1;
		return 1;
	}
	if (captures < 0 || tables < 0) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return captures < 0 ? captures : tables;
	}
	return 0;
}

/* The PyTorch traces held [memory] events, read with the timeline's bars: the memory analysis draws them. */
static int detect_read(cli_run *run)
{
	rli_memory_match_counts counts;
	if (!run->results->memory)
		return 0;
	rli_memory_count_matches(&counts, run->results->memory);
	if (!counts.allocations) {
		cli_say(run->c, 1, "", "the PyTorch traces' [memory] events hold no allocation: no memory analysis");
		return 0;
	}
	cli_say(run->c, 0, "", "found %zu [memory] allocations in the PyTorch traces under %s", counts.allocations,
		run->request->input_path);
	return 1;
}

/* The memory records into run->results: Ascend's, PyTorch's [memory] events, or the exported tables. */
static int parse(cli_run *run, int optional)
{
	const cli_request *request = run->request;
	rli_torch_memory_options torch;
	rli_memory_parse_options options;
	rli_memory *memory = NULL;
	int parse_result;

	(void)optional; /* made only when named or found */
	if (run->results->memory) {
		run->results->memory_from_traces = 1; /* read with the timeline, from the same PyTorch traces */
		if (run->set)
			cli_results_saw_first(run->results, rli_memory_first_ms(run->results->memory));
		return RLI_OK;
	}
	cli_memory_options(&options, request, cli_log_line, run->c);
	options.share = run->results->share;
	cli_show_status(run->c, "parsing memory records");
	if (request->memory_torch) {
		rli_torch_memory_options_init(&torch);
		torch.common = options;
		torch.devices = request->memory_devices;
		parse_result = rli_torch_memory_parse(&memory, request->input_path, &torch);
	} else if (reads_tables(request)) {
		parse_result = rli_table_memory_parse(&memory, request->input_path, &options);
	} else {
		parse_result = rli_memory_parse(&memory, request->input_path, &options);
	}
	if (parse_result < 0 && parse_result != RLI_EPARTIAL) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return parse_result;
	}
	run->results->memory = memory;
	/* The run's t = 0 is its first event, a bar of the timeline or an allocation. */
	if (run->set)
		cli_results_saw_first(run->results, rli_memory_first_ms(memory));
	rli_bigmem_trim(); /* the parsers' scratch, kept for the next unit, is done with */
	return parse_result;
}

/*
 * Statistics, export (memory_events.*), the memory figure as PNG pages and a PDF, the pages.
 * The statistics are worked out on a second core beside the outputs (after the pages are laid
 * out, from their curves, when the pages are drawn) and joined at the end.
 */
static int analyse(cli_run *run)
{
	console *c = run->c;
	const cli_request *request = run->request;
	cli_results *results = run->results;
	rli_output_set *set = run->set;
	rli_memory *memory = results->memory;
	rli_memory_match_counts matches;
	rli_memory_devices split = { 0 };
	stats_work stats = { 0 };
	int result, stats_result, from_torch = request->memory_torch || results->memory_from_traces;
	char date_buf[32];

	/* The table split by device once: the statistics, the figure and the pages all read it. */
	if ((result = rli_memory_devices_split(&split, memory, request->jobs)) < 0) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		rli_memory_devices_dispose(&split);
		return result;
	}
	stats.memory = memory;
	stats.split = &split;
	if (!cli_wants(request, "html"))
		start_stats(&stats, request);
	rli_memory_count_matches(&matches, memory);
	if (from_torch)
		cli_say(c, 1, "", "memory: %zu allocations; an operator found around %zu, none around %zu",
			matches.allocations, matches.matched_inside, matches.unmatched);
	else
		cli_say(c, 1, "", "memory: %zu allocations; call stacks matched inside their op: %zu, only to an op "
			"that had ended: %zu (up to %.3f ms earlier), none: %zu", matches.allocations,
			matches.matched_inside, matches.matched_after_end, matches.max_gap_ms, matches.unmatched);
	if (request->export_csv)
		result = export_table(c, memory, RLI_EXPORT_CSV, request->output_path, "memory_events.csv", set);
	if (result == RLI_OK && request->export_jsonl)
		result = export_table(c, memory, RLI_EXPORT_JSONL, request->output_path, "memory_events.jsonl", set);
	if (result == RLI_OK && cli_wants(request, "png"))
		result = draw(c, request, &results->run, &split, "png", RLI_MEDIUM_RASTER, NULL, set);
	if (result == RLI_OK && cli_wants(request, "memory_pdf"))
		result = draw(c, request, &results->run, &split, "pdf", RLI_MEDIUM_VECTOR,
			      cli_pdf_date(date_buf, sizeof(date_buf), request, cli_capture_start(results, &split)), set);
	if (result == RLI_OK && cli_wants(request, "html"))
		result = draw_pages(c, request, memory, &split, set, &stats, results);
	/* An output failed before the pages were laid out: the statistics still go to the summary. */
	if (!stats.started)
		start_stats(&stats, request);
	stats_result = rli_task_join(&stats.task);
	free(stats.summaries);
	free(stats.known);
	if (stats_result < 0) {
		if (result == RLI_OK)
			cli_say(c, -1, "error: ", "%s", rli_error_last());
		rli_memory_stats_free(stats.stats);
		rli_memory_devices_dispose(&split);
		return result < 0 ? result : stats_result;
	}
	results->memory_stats = stats.stats;
	cli_say(c, 1, "", "timing: memory statistics %.1f ms", stats.ms);
	rli_memory_devices_dispose(&split);
	return result;
}

static const void *statistics(const cli_results *results)
{
	return results->memory_stats;
}

static int summary(FILE *fp, const void *memory_stats)
{
	return rli_summary_write_memory(fp, memory_stats);
}

static int compare_side(rli_compare_side *side, const void *memory_stats)
{
	return rli_compare_side_add_memory(side, memory_stats);
}

static int report_input(rli_report_input *input, const cli_results *results)
{
	if (!results->memory_stats)
		return 0;
	input->memory = results->memory;
	input->memory_stats = results->memory_stats;
	return 1;
}

const cli_analysis cli_analysis_memory = {
	.name = "memory",
	.bit = CLI_MEMORY,
	.detect = detect,
	.detect_read = detect_read,
	.parse = parse,
	.analyse = analyse,
	.statistics = statistics,
	.summary = summary,
	.compare_side = compare_side,
	.report_input = report_input,
};

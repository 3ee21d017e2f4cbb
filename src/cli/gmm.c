/* gmm.c: the MoE expert-load analysis: parse msprobe's group_list.pt dumps (or the tables --export wrote), the matrix and its statistics, export, the heatmap as PNG and PDF. */
#include "analyses.h"
#include "common/bigmem.h"
#include "common/strutil.h"
#include "export/summary.h"
#include "layout/gmm_figure.h"

#include <stdlib.h>

/* With no analysis named: the dumps, else (the input is no dump tree) the tables --export wrote of them. */
static int detect(cli_run *run)
{
	const cli_request *request = run->request;
	int dumps = 0, tables = 0;

	if (request->profiler != RLI_PROFILER_TABLE && (dumps = rli_gmm_dump_count(request->input_path)) > 0) {
		cli_say(run->c, 0, "", "found %d group_list.pt dump%s (MoE expert load) under %s", dumps,
			dumps == 1 ? "" : "s", request->input_path);
		return 1;
	}
	if (dumps == 0 && (tables = rli_gmm_table_count(request->input_path, request->profiler)) > 0) {
		cli_say(run->c, 0, "", "found %d GMM table%s in %s", tables, tables == 1 ? "" : "s", request->input_path);
		run->found_tables = 1;
		return 1;
	}
	if (dumps < 0 || tables < 0) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return dumps < 0 ? dumps : tables;
	}
	return 0;
}

/* The input is the tables --export wrote: named so, or found so where no dump is. */
static int reads_tables(const cli_request *request)
{
	if (request->profiler == RLI_PROFILER_TABLE)
		return 1;
	return rli_gmm_dump_count(request->input_path) == 0 &&
	       rli_gmm_table_count(request->input_path, RLI_PROFILER_AUTO) > 0;
}

static int parse(cli_run *run, int optional)
{
	const cli_request *request = run->request;
	rli_gmm_parse_options options;
	double t = cli_now_ms();
	int from_tables = reads_tables(request), result;

	(void)optional; /* made only when named or found */
	cli_gmm_options(&options, request, cli_log_line, run->c);
	cli_show_status(run->c, from_tables ? "reading GMM tables" : "parsing group_list.pt dumps");
	result = from_tables ? rli_table_gmm_parse(&run->results->gmm, request->input_path, &options)
			     : rli_gmm_parse(&run->results->gmm, request->input_path, &options);
	if (result < 0 && result != RLI_EPARTIAL) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return result;
	}
	rli_bigmem_trim(); /* the parse's scratch is done with */
	cli_say(run->c, 1, "", "timing: gmm parse %.1f ms, %zu rows", cli_now_ms() - t, rli_gmm_count(run->results->gmm));
	return result;
}

static int export_table(console *c, const rli_gmm *gmm, rli_export_format format, const char *out_dir,
			const char *file_name, rli_output_set *set)
{
	char *path = rli_path_join(out_dir, file_name);
	int error;
	if (!path)
		return rli_error_oom();
	if ((error = rli_gmm_export(gmm, format, path, set)) < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	free(path);
	return error;
}

/* gmm_heatmap.png (png or gmm_heatmap asked for) or gmm_heatmap.pdf (gmm_pdf). */
static int draw(cli_run *run, const char *backend, rli_medium medium)
{
	const cli_request *request = run->request;
	rli_gmm_figure_options options;
	rli_gmm_figure *figure = NULL;
	rli_render_options render;
	double t = cli_now_ms();
	int error;

	rli_gmm_figure_options_init(&options);
	options.dpi = request->gmm_dpi;
	options.cmap = request->gmm_cmap;
	options.medium = medium;
	options.overview = request->timeline.overview;
	options.caption = request->timeline.caption ? run->results->gmm_stats->finding : NULL;
	cli_show_status(run->c, "drawing the GMM heatmap");
	if ((error = rli_gmm_figure_layout(&figure, run->results->gmm_matrix, &options)) == RLI_OK) {
		if (rli_gmm_figure_merged(figure) && medium == RLI_MEDIUM_RASTER)
			cli_say(run->c, 0, "", "the heatmap has %zu snapshots, more than the figure shows apart: each row is a "
				"layer of a step and role, summed over the ranks; --all-rows draws every snapshot",
				run->results->gmm_matrix->rows);
		error = rli_render_with(rli_gmm_figure_document(figure), backend, request->output_path, run->set,
					cli_render_options(&render, request));
	}
	if (error < 0)
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(run->c, 1, "", "timing: gmm %s %.1f ms", backend, cli_now_ms() - t);
	rli_gmm_figure_free(figure);
	return error;
}

/* gmm_heatmap.html: every snapshot a row (the page zooms), hover, filters and profiles drawn by render/js/gmm.js. */
static int write_page(cli_run *run)
{
	rli_gmm_figure_options options;
	rli_gmm_figure *figure = NULL;
	double t = cli_now_ms();
	int error;

	rli_gmm_figure_options_init(&options);
	options.cmap = run->request->gmm_cmap;
	options.medium = RLI_MEDIUM_VECTOR;
	options.overview = 0;
	cli_show_status(run->c, "writing gmm_heatmap.html");
	if ((error = rli_gmm_figure_layout(&figure, run->results->gmm_matrix, &options)) == RLI_OK)
		error = rli_gmm_page_write_html(figure, run->results->gmm_matrix, run->results->run.home,
						run->request->output_path, run->set);
	if (error < 0)
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(run->c, 1, "", "timing: gmm html %.1f ms", cli_now_ms() - t);
	rli_gmm_figure_free(figure);
	return error;
}

/* The matrix (actor_update's backward stages left out), its statistics, the tables, the heatmap. */
static int analyse(cli_run *run)
{
	const cli_request *request = run->request;
	cli_results *results = run->results;
	double t = cli_now_ms();
	int result = rli_gmm_matrix_build(&results->gmm_matrix, results->gmm, request->gmm_per_layer, cli_log_line, run->c);

	if (result == RLI_OK)
		result = rli_gmm_stats_compute(&results->gmm_stats, results->gmm_matrix);
	if (result < 0) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return result;
	}
	if (results->gmm_matrix->dropped)
		cli_say(run->c, 1, "", "gmm: %zu actor_update stages of the backward pass left out (gmm_per_layer=%d)",
			results->gmm_matrix->dropped, request->gmm_per_layer);
	cli_say(run->c, 1, "", "expert load: %s", results->gmm_stats->finding);
	cli_say(run->c, 1, "", "timing: gmm statistics %.1f ms", cli_now_ms() - t);
	if (request->export_csv)
		result = export_table(run->c, results->gmm, RLI_EXPORT_CSV, request->output_path, "gmm_events.csv", run->set);
	if (result == RLI_OK && request->export_jsonl)
		result = export_table(run->c, results->gmm, RLI_EXPORT_JSONL, request->output_path, "gmm_events.jsonl",
				      run->set);
	if (result == RLI_OK && (cli_wants(request, "gmm_heatmap") || cli_wants(request, "png")))
		result = draw(run, "png", RLI_MEDIUM_RASTER);
	if (result == RLI_OK && cli_wants(request, "gmm_pdf"))
		result = draw(run, "pdf", RLI_MEDIUM_VECTOR);
	if (result == RLI_OK && cli_wants(request, "html"))
		result = write_page(run);
	return result;
}

static const void *statistics(const cli_results *results)
{
	return results->gmm_stats;
}

static int summary(FILE *fp, const void *stats)
{
	return rli_summary_write_gmm(fp, stats);
}

static int compare_side(rli_compare_side *side, const void *stats)
{
	return rli_compare_side_add_gmm(side, stats);
}

/*
 * --baseline: the layer whose expert imbalance changed most, in a line:
 * "expert imbalance compared with B: layer 1 of actor_update 2.10x -> 3.05x (the largest change of 8 layers)".
 */
static int compare_outputs(cli_run *run, const cli_baseline *baseline)
{
	const rli_comparison *c = run->results->comparison;
	size_t both = 0;
	(void)baseline;
	if (!c || !c->gmm)
		return RLI_OK;
	for (size_t i = 0; i < c->gmm_layer_count; i++)
		both += c->gmm_layers[i].presence == RLI_IN_BOTH;
	if (c->gmm_most_changed < c->gmm_layer_count) {
		const rli_gmm_change *g = &c->gmm_layers[c->gmm_most_changed];
		cli_say(run->c, 0, "", "expert imbalance compared with %s: layer %u of %s %.2fx -> %.2fx (the largest change "
			"of %zu layers in both runs)", run->request->baseline, g->layer, g->role, g->baseline_imbalance,
			g->current_imbalance, both);
	} else {
		cli_say(run->c, 0, "", "expert imbalance compared with %s: no layer in both runs", run->request->baseline);
	}
	return RLI_OK;
}

/* The report's expert-load section: the heatmap and the statistics' tables. */
static int report_input(rli_report_input *input, const cli_results *results)
{
	if (!results->gmm_stats)
		return 0;
	input->gmm_matrix = results->gmm_matrix;
	input->gmm_stats = results->gmm_stats;
	return 1;
}

const cli_analysis cli_analysis_gmm = {
	.name = "gmm",
	.bit = CLI_GMM,
	.detect = detect,
	.parse = parse,
	.analyse = analyse,
	.statistics = statistics,
	.summary = summary,
	.compare_side = compare_side,
	.compare_outputs = compare_outputs,
	.report_input = report_input,
};

/* html_compare.c: writes compare.html: both runs' timelines (model and bars, as the timeline page carries them), the table of changes, and the page's script. */
#include "common/error.h"
#include "common/json_write.h"
#include "common/output_set.h"
#include "common/strutil.h"
#include "html_bytes.h"
#include "html_page.h"
#include "html_timeline.h"
#include "layout/compare_figure.h"
#include "layout/compare_page.h"
#include "layout/theme.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

extern const char rli_asset_core_js[];
extern const char rli_asset_filter_js[];
extern const char rli_asset_timeline_js[];
extern const char rli_asset_timeline_paint_js[];
extern const char rli_asset_timeline_input_js[];
extern const char rli_asset_timeline_select_js[];
extern const char rli_asset_timeline_state_js[];
extern const char rli_asset_compare_sync_js[];
extern const char rli_asset_compare_memory_js[];
extern const char rli_asset_compare_js[];
extern const char rli_asset_timeline_css[];
extern const char rli_asset_compare_css[];

/* The timeline page's parts without its start (timeline_start.js): the compare page starts both itself. */
static const char *const page_scripts[] = {
	rli_asset_core_js, rli_asset_filter_js, rli_asset_timeline_js, rli_asset_timeline_paint_js, rli_asset_timeline_input_js,
	rli_asset_timeline_select_js, rli_asset_timeline_state_js, rli_asset_compare_sync_js, rli_asset_compare_memory_js, rli_asset_compare_js,
};
#define PAGE_SCRIPT_COUNT (sizeof(page_scripts) / sizeof(page_scripts[0]))
static const char *const page_styles[] = { rli_asset_timeline_css, rli_asset_compare_css };

static const char *const align_names[] = { "start", "middle", "end" };

static void write_string(FILE *fp, const char *text)
{
	rli_json_write_string(fp, text ? text : "", RLI_JSON_HTML_SAFE);
}

/* {"header","align","rows":[{"cells","keys","color","verdict","role","phase","rank"}]}; rank null: every rank. */
static void write_table(FILE *fp, const rli_compare_table *table)
{
	fputs("{\"header\":", fp);
	rli_html_strings(fp, table->header, RLI_COMPARE_COLUMNS);
	fputs(",\"align\":[", fp);
	for (int c = 0; c < RLI_COMPARE_COLUMNS; c++)
		fprintf(fp, "%s\"%s\"", c ? "," : "", align_names[table->align[c]]);
	fputs("],\"rows\":[", fp);
	for (size_t r = 0; r < table->row_count; r++) {
		const rli_compare_row *row = &table->rows[r];
		fputs(r ? ",{\"cells\":" : "{\"cells\":", fp);
		rli_html_strings(fp, (const char *const *)row->cells, RLI_COMPARE_COLUMNS);
		fputs(",\"keys\":[", fp);
		for (int c = 0; c < RLI_COMPARE_COLUMNS; c++) {
			if (c)
				putc(',', fp);
			rli_json_write_double(fp, row->keys[c]);
		}
		fputs("],\"color\":", fp);
		rli_html_color(fp, row->color);
		fputs(",\"verdict\":", fp);
		write_string(fp, rli_verdict_name(row->change->verdict));
		fputs(",\"role\":", fp);
		write_string(fp, row->change->role);
		fputs(",\"phase\":", fp);
		write_string(fp, row->change->name);
		/* a string, as the timeline's rows carry ranks */
		if (row->change->per_rank)
			fprintf(fp, ",\"rank\":\"%" PRId64 "\"}", row->change->rank);
		else
			fputs(",\"rank\":null}", fp);
	}
	fputs("]}", fp);
}

/* [baseline, current]; null on the side that lacks it. */
static void write_pair(FILE *fp, double baseline, double current, rli_presence presence)
{
	fputc('[', fp);
	if (presence == RLI_ADDED)
		fputs("null", fp);
	else
		rli_json_write_double(fp, baseline);
	fputc(',', fp);
	if (presence == RLI_REMOVED)
		fputs("null", fp);
	else
		rli_json_write_double(fp, current);
	fputc(']', fp);
}

/*
 * The memory side: {"devices":[{label, presence, peakMb, peakMs, neverFreedKb, allocatedKb}],
 * "sites":[{device, text, allocatedKb, liveKb, count}] (the most grown first), "siteCount",
 * "complete", "colors"}; every pair is [baseline, current].
 */
static void write_memory(FILE *fp, const rli_compare_memory *m)
{
	fputs("{\"devices\":[", fp);
	for (size_t d = 0; d < m->device_count; d++) {
		const rli_device_change *c = m->devices[d].change;
		fputs(d ? ",{\"label\":" : "{\"label\":", fp);
		write_string(fp, m->devices[d].label);
		fputs(",\"presence\":", fp);
		write_string(fp, rli_presence_name(c->presence));
		fputs(",\"peakMb\":", fp);
		write_pair(fp, c->baseline_peak_mb, c->current_peak_mb, c->presence);
		fputs(",\"peakMs\":", fp);
		write_pair(fp, c->baseline_peak_ms, c->current_peak_ms, c->presence);
		fputs(",\"neverFreedKb\":", fp);
		write_pair(fp, c->baseline_never_freed_kb, c->current_never_freed_kb, c->presence);
		fputs(",\"allocatedKb\":", fp);
		write_pair(fp, c->baseline_allocated_kb, c->current_allocated_kb, c->presence);
		fputc('}', fp);
	}
	fputs("],\"sites\":[", fp);
	for (size_t i = 0; i < m->sites_listed; i++) {
		const rli_site_change *s = m->sites[i].site;
		fprintf(fp, "%s{\"device\":%zu,\"text\":", i ? "," : "", m->sites[i].device);
		write_string(fp, s->text);
		fputs(",\"allocatedKb\":", fp);
		write_pair(fp, s->baseline_allocated_kb, s->current_allocated_kb, RLI_IN_BOTH);
		fputs(",\"liveKb\":", fp);
		write_pair(fp, s->baseline_live_kb, s->current_live_kb, RLI_IN_BOTH);
		fprintf(fp, ",\"count\":[%zu,%zu]}", s->baseline_count, s->current_count);
	}
	fprintf(fp, "],\"siteCount\":%zu,\"complete\":%s,\"colors\":{\"baseline\":", m->site_count,
		m->complete ? "true" : "false");
	rli_html_color(fp, RLI_COMPARE_BASELINE_COLOR);
	fputs(",\"current\":", fp);
	rli_html_color(fp, RLI_COMPARE_SAME_COLOR);
	fputs(",\"grew\":", fp);
	rli_html_color(fp, REGRESSION_COLOR);
	fputs(",\"shrank\":", fp);
	rli_html_color(fp, IMPROVEMENT_COLOR);
	fputs(",\"text\":", fp);
	rli_html_color(fp, TEXT_COLOR);
	fputs(",\"grid\":", fp);
	rli_html_color(fp, GRID_COLOR);
	fputs("}}", fp);
}

/* The page's own data: its title, each run's heading or note, the table, the memory side. */
static void write_spec(FILE *fp, const rli_compare_page *page, const char *font_family)
{
	static const char *const run_names[] = { "baseline", "current" };
	fputs("<script type=\"application/json\" id=\"rli-compare\">{\"version\":1,\"title\":", fp);
	write_string(fp, page->title);
	fputs(",\"fontFamily\":", fp);
	write_string(fp, font_family);
	fputs(",\"runs\":[", fp);
	for (int r = 0; r < 2; r++) {
		const rli_compare_run *run = &page->runs[r];
		fprintf(fp, "%s{\"name\":\"%s\",\"heading\":", r ? "," : "", run_names[r]);
		write_string(fp, run->heading);
		fputs(",\"note\":", fp);
		/* a run with neither (a comparison of memory only) has no panel */
		if (run->timeline || !run->note)
			fputs("null", fp);
		else
			write_string(fp, run->note);
		fprintf(fp, ",\"timeline\":%s}", run->timeline ? "true" : "false");
	}
	fputs("],\"table\":", fp);
	write_table(fp, page->table);
	fputs(",\"memory\":", fp);
	if (page->memory)
		write_memory(fp, page->memory);
	else
		fputs("null", fp);
	fputs("}</script>\n", fp);
}

/* A run's timeline as the timeline page carries it, under ids rli-model-<r> and rli-bars-<r>. */
static int write_run(FILE *fp, const rli_timeline *timeline, int r, rli_bytes *stream)
{
	rli_html_timeline t;
	int error;

	if (rli_timeline_shows_overview(timeline))
		return rli_error_set(RLI_ERROR, "html: the compare page scrolls every row: lay its timelines out "
				     "without options.overview");
	if ((error = rli_html_timeline_from_page(&t, &timeline->document, &timeline->page)) < 0)
		return error;
	fprintf(fp, "<script type=\"application/json\" id=\"rli-model-%d\">", r);
	if ((error = rli_html_write_timeline_model(fp, &t)) < 0)
		return error;
	fprintf(fp, "</script>\n<script type=\"application/json\" id=\"rli-bars-%d\">", r);
	if ((error = rli_html_write_timeline_bars(fp, t.panel, stream)) < 0)
		return error;
	fputs("</script>\n", fp);
	return RLI_OK;
}

typedef struct {
	const rli_compare_page *page;
	const char *home;
} compare_html;

static int write_page(FILE *fp, const void *ctx)
{
	const rli_compare_page *page = ((const compare_html *)ctx)->page;
	const char *font_family = "sans-serif";
	rli_bytes stream = { 0 };
	int error = RLI_OK;

	for (int r = 0; r < 2; r++)
		if (page->runs[r].timeline && page->runs[r].timeline->document.font_family)
			font_family = page->runs[r].timeline->document.font_family;
	rli_html_page_head(fp, page->title, page_styles, sizeof(page_styles) / sizeof(page_styles[0]));
	rli_html_page_home_link(fp, ((const compare_html *)ctx)->home);
	fputs("<noscript>These timelines and the table are drawn by JavaScript; enable it to see them.</noscript>\n", fp);
	write_spec(fp, page, font_family);
	for (int r = 0; r < 2 && error == RLI_OK; r++)
		if (page->runs[r].timeline)
			error = write_run(fp, page->runs[r].timeline, r, &stream);
	free(stream.bytes);
	if (error < 0)
		return error;
	rli_html_page_end(fp, page_scripts, PAGE_SCRIPT_COUNT);
	return RLI_OK;
}

int rli_compare_page_write_html(const rli_compare_page *page, const char *home, const char *out_dir,
				rli_output_set *set)
{
	compare_html html = { page, home };
	int error;
	if ((error = rli_html_check_assets(page_scripts, PAGE_SCRIPT_COUNT, rli_asset_timeline_css)) < 0 ||
	    (error = rli_html_check_assets(NULL, 0, rli_asset_compare_css)) < 0)
		return error;
	return rli_html_page_write(out_dir, "compare.html", set, write_page, &html);
}

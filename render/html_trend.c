/* html_trend.c: writes trend.html: the trend page's items as JSON (texts, panels with their lines, points and cells), what hovering a run shows, the table of runs with their links, and the page's script. */
#include "common/error.h"
#include "common/json_write.h"
#include "common/output_set.h"
#include "common/strutil.h"
#include "html_bytes.h"
#include "html_page.h"
#include "layout/trend_figure.h"

#include <stdlib.h>
#include <string.h>

extern const char rli_asset_core_js[];
extern const char rli_asset_trend_js[];
extern const char rli_asset_trend_css[];

static const char *const page_scripts[] = { rli_asset_core_js, rli_asset_trend_js };
#define PAGE_SCRIPT_COUNT (sizeof(page_scripts) / sizeof(page_scripts[0]))
static const char *const page_styles[] = { rli_asset_trend_css };

static void write_string(FILE *fp, const char *text)
{
	rli_json_write_string(fp, text ? text : "", RLI_JSON_HTML_SAFE);
}

static void write_numbers(FILE *fp, const double *values, size_t count)
{
	putc('[', fp);
	for (size_t i = 0; i < count; i++) {
		if (i)
			putc(',', fp);
		rli_json_write_double(fp, values[i]);
	}
	putc(']', fp);
}

static void write_lines(FILE *fp, const rli_panel *panel)
{
	fputs(",\"lines\":[", fp);
	for (size_t l = 0; l < panel->line_count; l++) {
		const rli_line_mark *line = &panel->lines[l];
		fputs(l ? ",{\"x\":" : "{\"x\":", fp);
		write_numbers(fp, line->x, line->count);
		fputs(",\"y\":", fp);
		write_numbers(fp, line->y, line->count);
		fputs(",\"yLow\":", fp);
		if (line->y_low)
			write_numbers(fp, line->y_low, line->count);
		else
			fputs("null", fp);
		fputs(",\"color\":", fp);
		rli_html_color(fp, line->color);
		putc(',', fp);
		rli_html_number(fp, "width", line->width);
		putc(',', fp);
		rli_html_number(fp, "fill", line->fill_alpha);
		putc('}', fp);
	}
	putc(']', fp);
}

/* A panel as placed: axes and grid, its lines and points, and for lanes their labels and cells. */
static void write_panel(FILE *fp, const rli_panel *panel)
{
	fputs("{\"plot\":", fp);
	rli_html_rect(fp, &panel->plot);
	fputc(',', fp);
	rli_html_number(fp, "xMin", panel->x_min);
	fputc(',', fp);
	rli_html_number(fp, "xMax", panel->x_max);
	fputc(',', fp);
	rli_html_number(fp, "yMin", panel->y_min);
	fputc(',', fp);
	rli_html_number(fp, "yMax", panel->y_max);
	fprintf(fp, ",\"values\":%s", panel->y_scale == RLI_Y_VALUES ? "true" : "false");
	rli_html_ticks(fp, "xticks", panel->xticks, panel->xtick_count);
	rli_html_ticks(fp, "yticks", panel->yticks, panel->ytick_count);
	fputs(",\"gridColor\":", fp);
	rli_html_color(fp, panel->grid_color);
	fputc(',', fp);
	rli_html_number(fp, "tickLabelSize", panel->tick_label_size);
	fputc(',', fp);
	rli_html_number(fp, "tickLabelGap", panel->tick_label_gap);
	fputc(',', fp);
	rli_html_number(fp, "rowPitch", panel->row_pitch);
	fputc(',', fp);
	rli_html_number(fp, "barThickness", panel->bar_thickness);
	fputs(",\"xTitle\":", fp);
	rli_html_text_item(fp, &panel->x_title);
	fputs(",\"rowLabels\":[", fp);
	for (size_t r = 0; panel->row_labels && r < panel->row_count; r++) {
		if (r)
			putc(',', fp);
		rli_html_text_item(fp, &panel->row_labels[r]);
	}
	fputs("],\"series\":[", fp);
	for (size_t s = 0; s < panel->series_count; s++) {
		if (s)
			putc(',', fp);
		rli_html_color(fp, panel->series[s].color);
	}
	/* Cells as flat quadruples: lane, series, start, end. */
	fputs("],\"bars\":[", fp);
	for (size_t b = 0; b < panel->bar_count; b++) {
		fprintf(fp, "%s%u,%u,", b ? "," : "", (unsigned)panel->bar_row[b], (unsigned)panel->bar_series[b]);
		rli_json_write_double(fp, panel->bar_start[b]);
		putc(',', fp);
		rli_json_write_double(fp, panel->bar_end[b]);
	}
	putc(']', fp);
	write_lines(fp, panel);
	fputs(",\"points\":", fp);
	rli_html_points(fp, panel->points, panel->point_count, 1);
	putc('}', fp);
}

static void write_model(FILE *fp, const rli_trend_figure *f)
{
	const rli_document *d = &f->document;
	const rli_page *page = &f->page;
	size_t texts = 0, panels = 0;
	fputs("<script type=\"application/json\" id=\"rli-trend\">{\"version\":1,\"title\":", fp);
	write_string(fp, d->title);
	fputs(",\"fontFamily\":", fp);
	write_string(fp, d->font_family);
	fputc(',', fp);
	rli_html_number(fp, "width", page->width);
	fputc(',', fp);
	rli_html_number(fp, "height", page->height);
	fputs(",\"textColor\":", fp);
	rli_html_color(fp, d->text_color);
	fputs(",\"texts\":[", fp);
	for (size_t i = 0; i < page->item_count; i++)
		if (page->items[i].kind == RLI_ITEM_TEXT) {
			if (texts++)
				putc(',', fp);
			rli_html_text_item(fp, page->items[i].u.text);
		}
	fputs("],\"panels\":[", fp);
	for (size_t i = 0; i < page->item_count; i++)
		if (page->items[i].kind == RLI_ITEM_PANEL) {
			if (panels++)
				putc(',', fp);
			write_panel(fp, page->items[i].u.panel);
		}
	fputs("],\"hover\":", fp);
	rli_html_strings(fp, (const char *const *)f->hover, f->point_count);
	fputs(",\"header\":", fp);
	rli_html_strings(fp, f->header, RLI_TREND_RUN_COLUMNS);
	fputs(",\"rows\":[", fp);
	for (size_t r = 0; r < f->point_count; r++) {
		const rli_trend_row *row = &f->rows[r];
		fputs(r ? ",{\"cells\":" : "{\"cells\":", fp);
		rli_html_strings(fp, (const char *const *)row->cells, RLI_TREND_RUN_COLUMNS);
		fputs(",\"href\":", fp);
		if (row->href)
			write_string(fp, row->href);
		else
			fputs("null", fp);
		fprintf(fp, ",\"point\":%zu,\"current\":%s,\"regressed\":%s}", row->point, row->current ? "true" : "false",
			row->regressed ? "true" : "false");
	}
	fputs("]}</script>\n", fp);
}

typedef struct {
	const rli_trend_figure *figure;
	const char *home;
} trend_page;

static int write_page(FILE *fp, const void *ctx)
{
	const trend_page *page = ctx;
	rli_html_page_head(fp, page->figure->document.title, page_styles, 1);
	rli_html_page_home_link(fp, page->home);
	fputs("<noscript>This trend is drawn by JavaScript; enable it to see the figure and the runs.</noscript>\n", fp);
	write_model(fp, page->figure);
	rli_html_page_end(fp, page_scripts, PAGE_SCRIPT_COUNT);
	return RLI_OK;
}

int rli_trend_write_html(const rli_trend_figure *figure, const char *home, const char *out_dir, rli_output_set *set)
{
	trend_page page = { figure, home };
	int error = rli_html_check_assets(page_scripts, PAGE_SCRIPT_COUNT, rli_asset_trend_css);
	return error < 0 ? error : rli_html_page_write(out_dir, "trend.html", set, write_page, &page);
}

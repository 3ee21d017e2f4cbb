/* html_backend.c: writes the page as <name>.html: its items as JSON, the bars compact, and the embedded canvas renderer. */
#include "backend.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/json_write.h"
#include "html_aside.h"
#include "html_bytes.h"
#include "html_pages.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern const char rli_asset_core_js[];
extern const char rli_asset_timeline_js[];
extern const char rli_asset_timeline_paint_js[];
extern const char rli_asset_timeline_input_js[];
extern const char rli_asset_timeline_aside_js[];
extern const char rli_asset_timeline_start_js[];
extern const char rli_asset_timeline_css[];

/* The page's script: the shared core first, then the timeline page's parts; the last one starts it. */
static const char *const page_scripts[] = {
	rli_asset_core_js, rli_asset_timeline_js, rli_asset_timeline_paint_js, rli_asset_timeline_input_js,
	rli_asset_timeline_aside_js, rli_asset_timeline_start_js,
};
#define PAGE_SCRIPT_COUNT (sizeof(page_scripts) / sizeof(page_scripts[0]))

/*
 * Bars travel as base64 of LEB128 varints. Times are relative milliseconds,
 * and real ones are sums of absolute doubles minus t0, so they sit on a
 * binary grid 2^-k ms: stored as integers n (value = n * 2^-k) they come back
 * bit-exact, which keeps the hover's 3-decimal figures identical to C's.
 * When no such grid keeps them below 2^51 the raw float64 pairs are sent.
 */
#define RLI_HTML_MAX_GRID_BITS 1074

/*
 * The page the script draws: the timeline's title, panel and legend, as the
 * items of the document's one page. The page's JSON is their serialisation.
 */
typedef struct {
	rli_output base;
	const rli_page *page;
	const rli_text *title;
	const rli_panel *panel;
	const rli_legend *legend;
	const rli_item **asides; /* the page's RLI_PLACE_ASIDE items, in order: the side panel */
	size_t aside_count, aside_capacity;
	rli_bytes stream; /* the encoded bar stream, before base64 */
	rli_html_pages *pages; /* a document drawn a file per page: the memory pages' writer */
} html_output;

/* The smallest k >= 0 with value * 2^k an integer (value finite). */
static int grid_bits(double value)
{
	int exponent;
	double fraction = frexp(fabs(value), &exponent);
	if (fraction == 0)
		return 0;
	uint64_t mantissa = (uint64_t)ldexp(fraction, 53);
	int trailing = 0;
	while (!(mantissa & 1)) {
		mantissa >>= 1;
		trailing++;
	}
	int bits = 53 - exponent - trailing;
	return bits < 0 ? 0 : bits;
}

/* The grid exponent that stores every bar time exactly, or -1 if none keeps them below 2^51. */
static int choose_grid(const rli_panel *panel)
{
	int bits = 0;
	double largest = 0;
	for (size_t i = 0; i < panel->bar_count; i++) {
		double times[2] = { panel->bar_start[i], panel->bar_end[i] };
		for (int j = 0; j < 2; j++) {
			if (!isfinite(times[j]))
				return -1;
			int needed = grid_bits(times[j]);
			if (needed > bits)
				bits = needed;
			if (fabs(times[j]) > largest)
				largest = fabs(times[j]);
		}
	}
	/*
	 * Below 2^51 every delta lies within +-2^52 and its zigzag code below
	 * 2^53, where JavaScript's numbers are still exact integers.
	 */
	if (bits > RLI_HTML_MAX_GRID_BITS || ldexp(largest, bits) >= 2251799813685248.0 /* 2^51 */)
		return -1;
	return bits;
}

static void write_texts(FILE *fp, const char *key, const rli_text *texts, size_t count)
{
	fprintf(fp, ",\"%s\":[", key);
	for (size_t i = 0; texts && i < count; i++) {
		if (i)
			putc(',', fp);
		rli_html_text_item(fp, &texts[i]);
	}
	putc(']', fp);
}

/* Everything but the bars: decorations as placed, rows, series, ticks, and the side panel's items. */
static int write_model(FILE *fp, const html_output *html)
{
	const rli_document *doc = html->base.document;
	const rli_page *page = html->page;
	const rli_panel *panel = html->panel;
	const rli_legend *legend = html->legend;
	const rli_text *title = html->title;
	int error;

	fputs("{\"version\":1,", fp);
	rli_html_number(fp, "width", page->width);
	putc(',', fp);
	rli_html_number(fp, "height", page->height);
	fprintf(fp, ",\"scale\":%d,\"background\":", doc->scale);
	rli_html_color(fp, doc->background);
	fputs(",\"textColor\":", fp);
	rli_html_color(fp, doc->text_color);
	fputs(",\"fontFamily\":", fp);
	rli_json_write_string(fp, doc->font_family ? doc->font_family : "sans-serif",
			      RLI_JSON_HTML_SAFE);
	putc(',', fp);
	rli_html_number(fp, "t0", doc->origin);
	fputs(",\"plot\":", fp);
	rli_html_rect(fp, &panel->plot);
	putc(',', fp);
	rli_html_number(fp, "xMin", panel->x_min);
	putc(',', fp);
	rli_html_number(fp, "xMax", panel->x_max);

	fputs(",\"rows\":[", fp);
	for (size_t r = 0; r < panel->row_count; r++) {
		const rli_row *row = &panel->rows[r];
		char rank[32];
		snprintf(rank, sizeof(rank), "%" PRId64, row->rank);
		if (r)
			putc(',', fp);
		fputs("{\"label\":", fp);
		rli_json_write_string(fp, row->label ? row->label : "", RLI_JSON_HTML_SAFE);
		fputs(",\"role\":", fp);
		rli_json_write_string(fp, row->role ? row->role : "", RLI_JSON_HTML_SAFE);
		/* a string, so ranks past 2^53 survive JavaScript's numbers */
		fprintf(fp, ",\"rank\":\"%s\"}", rank);
	}
	fputs("],\"orderByRole\":[", fp);
	for (size_t r = 0; r < panel->row_count; r++)
		fprintf(fp, "%s%" PRIu32, r ? "," : "",
			panel->order_by_role ? panel->order_by_role[r] : (uint32_t)r);
	fputs("],", fp);
	rli_html_number(fp, "rowPitch", panel->row_pitch);
	putc(',', fp);
	rli_html_number(fp, "barThickness", panel->bar_thickness);
	fputs(",\"barOutline\":", fp);
	rli_html_color(fp, panel->bar_outline);
	putc(',', fp);
	rli_html_number(fp, "barOutlineWidth", panel->bar_outline_width);
	putc(',', fp);
	rli_html_number(fp, "barOutlineMinSize", panel->bar_outline_min_size);

	fputs(",\"series\":[", fp);
	for (size_t s = 0; s < panel->series_count; s++) {
		if (s)
			putc(',', fp);
		fputs("{\"name\":", fp);
		rli_json_write_string(fp, panel->series[s].name ? panel->series[s].name : "",
				      RLI_JSON_HTML_SAFE);
		fputs(",\"color\":", fp);
		rli_html_color(fp, panel->series[s].color);
		putc('}', fp);
	}
	fputs("],\"xticks\":[", fp);
	for (size_t t = 0; t < panel->xtick_count; t++) {
		char label[sizeof(panel->xticks[t].label) + 1];
		memcpy(label, panel->xticks[t].label, sizeof(panel->xticks[t].label));
		label[sizeof(label) - 1] = '\0';
		if (t)
			putc(',', fp);
		fputs("{\"value\":", fp);
		rli_json_write_double(fp, panel->xticks[t].value);
		fputs(",\"label\":", fp);
		rli_json_write_string(fp, label, RLI_JSON_HTML_SAFE);
		putc('}', fp);
	}
	fputs("],\"gridColor\":", fp);
	rli_html_color(fp, panel->grid_color);
	putc(',', fp);
	rli_html_number(fp, "gridWidth", panel->grid_width);
	fprintf(fp, ",\"xtickTarget\":%d,\"xtickMax\":%d", panel->xtick_target, panel->xtick_max);
	putc(',', fp);
	rli_html_number(fp, "tickLabelSize", panel->tick_label_size);
	putc(',', fp);
	rli_html_number(fp, "tickLabelGap", panel->tick_label_gap);

	fputs(",\"title\":", fp);
	rli_html_text_item(fp, title);
	fputs(",\"xTitle\":", fp);
	rli_html_text_item(fp, &panel->x_title);
	fputs(",\"yTitle\":", fp);
	rli_html_text_item(fp, &panel->y_title);
	write_texts(fp, "rowLabels", panel->row_labels, panel->row_count);
	fputs(",\"legendTitle\":", fp);
	rli_html_text_item(fp, &legend->title);
	fputs(",\"legendSwatches\":[", fp);
	for (size_t s = 0; legend->swatches && s < panel->series_count; s++) {
		if (s)
			putc(',', fp);
		rli_html_rect(fp, &legend->swatches[s]);
	}
	putc(']', fp);
	write_texts(fp, "legendLabels", legend->labels, panel->series_count);
	error = rli_html_write_aside(fp, html->asides, html->aside_count);
	putc('}', fp);
	return error;
}

/*
 * Whether bar i continues bar i - 1's run: same row and series, and a start
 * no earlier, because the page's index (binary search, stop at the first
 * start past the view) needs each run sorted by start. The layout sorts bars
 * so; a model that did not would only cost more runs, never a wrong picture.
 */
static int continues_run(const rli_panel *panel, size_t i)
{
	return i > 0 && panel->bar_row[i] == panel->bar_row[i - 1] &&
	       panel->bar_series[i] == panel->bar_series[i - 1] &&
	       panel->bar_start[i] >= panel->bar_start[i - 1];
}

/*
 * Runs: (row, series, count) for each stretch of bars sharing both, in model
 * order. Bars: grid encoding = rli_zigzag(start - previous start in the run),
 * rli_zigzag(end - start); float64 encoding = start, end.
 */
static int encode_runs(html_output *html, const rli_panel *panel, size_t *run_count)
{
	size_t runs = 0;
	int error;
	for (size_t i = 0; i < panel->bar_count;) {
		size_t j = i + 1;
		while (j < panel->bar_count && continues_run(panel, j))
			j++;
		if ((error = rli_bytes_varint(&html->stream, panel->bar_row[i])) < 0 ||
		    (error = rli_bytes_varint(&html->stream, panel->bar_series[i])) < 0 ||
		    (error = rli_bytes_varint(&html->stream, j - i)) < 0)
			return error;
		runs++;
		i = j;
	}
	*run_count = runs;
	return RLI_OK;
}

static int encode_bars(html_output *html, const rli_panel *panel, int grid)
{
	int error;
	int64_t previous = 0;
	for (size_t i = 0; i < panel->bar_count; i++) {
		if (grid < 0) {
			if ((error = rli_bytes_float64_le(&html->stream, panel->bar_start[i])) < 0 ||
			    (error = rli_bytes_float64_le(&html->stream, panel->bar_end[i])) < 0)
				return error;
			continue;
		}
		int64_t start = (int64_t)ldexp(panel->bar_start[i], grid);
		int64_t end = (int64_t)ldexp(panel->bar_end[i], grid);
		if (!continues_run(panel, i))
			previous = 0;
		if ((error = rli_bytes_varint(&html->stream, rli_zigzag(start - previous))) < 0 ||
		    (error = rli_bytes_varint(&html->stream, rli_zigzag(end - start))) < 0)
			return error;
		previous = start;
	}
	return RLI_OK;
}

static int check_model(const html_output *html)
{
	const rli_panel *panel = html->panel;
	if (!panel || !html->title || !html->legend || (panel->row_count && !panel->rows) ||
	    (panel->series_count && !panel->series))
		return rli_error_set(RLI_ERROR, "html: the page needs a title, a panel and a legend (a timeline's "
				     "overview page has no rows to scroll: lay it out without options.overview)");
	for (size_t i = 0; i < panel->bar_count; i++)
		if (panel->bar_row[i] >= panel->row_count || panel->bar_series[i] >= panel->series_count)
			return rli_error_set(RLI_ERROR, "html: bar %zu names a missing row or series", i);
	return RLI_OK;
}

static int html_begin_document(rli_output *out, const rli_document *document)
{
	FILE *fp = out->file.fp;

	if (out->per_page)
		return rli_html_pages_new(&((html_output *)out)->pages);
	if (document->page_count != 1)
		return rli_error_set(RLI_EUSAGE, "html: the page shows one page of a document, not %zu",
				     document->page_count);
	/* Assets that could close their own element (or open a comment state) would break the page. */
	for (size_t i = 0; i < PAGE_SCRIPT_COUNT; i++)
		if (strstr(page_scripts[i], "</script") || strstr(page_scripts[i], "<!--") ||
		    strstr(page_scripts[i], "<script"))
			return rli_error_set(RLI_ERROR, "html: embedded renderer contains a closing tag");
	if (strstr(rli_asset_timeline_css, "</style"))
		return rli_error_set(RLI_ERROR, "html: embedded style sheet contains a closing tag");

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n"
	      "<meta name=\"generator\" content=\"rl-insight " RLI_VERSION "\">\n<title>", fp);
	rli_html_escape(fp, document->title ? document->title : "RL Timeline");
	fputs("</title>\n<style>\n", fp);
	fputs(rli_asset_timeline_css, fp);
	fputs("</style>\n</head>\n<body>\n"
	      "<noscript>This timeline is drawn by JavaScript; enable it to see the chart.</noscript>\n",
	      fp);
	return RLI_OK;
}

static int html_begin_page(rli_output *out, const rli_page *page)
{
	if (out->per_page)
		return rli_html_pages_begin_page(((html_output *)out)->pages, page);
	((html_output *)out)->page = page;
	return RLI_OK;
}

/* The script draws the whole page at once: items are gathered, then written by end_page. */
static int html_draw_item(rli_output *out, const rli_item *item)
{
	html_output *html = (html_output *)out;
	if (out->per_page)
		return rli_html_pages_item(html->pages, item);
	if (item->placement == RLI_PLACE_ASIDE) {
		if (item->kind != RLI_ITEM_TEXT && item->kind != RLI_ITEM_TABLE)
			return rli_error_set(RLI_EUSAGE, "html: an aside holds headings and tables, not item kind %d",
					     (int)item->kind);
		if (RLI_GROW(&html->asides, &html->aside_capacity, html->aside_count + 1, 16) < 0)
			return rli_error_oom();
		html->asides[html->aside_count++] = item;
		return RLI_OK;
	}
	switch (item->kind) {
	case RLI_ITEM_TEXT:
		html->title = item->u.text;
		return RLI_OK;
	case RLI_ITEM_PANEL:
		html->panel = item->u.panel;
		return RLI_OK;
	case RLI_ITEM_LEGEND:
		html->legend = item->u.legend;
		return RLI_OK;
	case RLI_ITEM_TABLE:
	case RLI_ITEM_NAV:
		return rli_error_set(RLI_EUSAGE, "html: the timeline page has no place for a table or links");
	case RLI_ITEM_FIGURE:
		return rli_error_set(RLI_EUSAGE, "html: a page cannot embed another figure's page");
	}
	return rli_error_set(RLI_ERROR, "html: unknown item kind %d", (int)item->kind);
}

static int html_end_page(rli_output *out)
{
	html_output *html = (html_output *)out;
	const rli_panel *panel = html->panel;
	FILE *fp = out->file.fp;
	size_t run_count = 0, runs_bytes;
	int grid, error;

	if (out->per_page)
		return rli_html_pages_end_page(html->pages, out);
	if ((error = check_model(html)) < 0)
		return error;
	grid = choose_grid(panel);
	fputs("<script type=\"application/json\" id=\"rli-model\">", fp);
	if ((error = write_model(fp, html)) < 0)
		return error;
	fputs("</script>\n", fp);

	html->stream.used = 0;
	if ((error = encode_runs(html, panel, &run_count)) < 0)
		return error;
	runs_bytes = html->stream.used;
	if ((error = encode_bars(html, panel, grid)) < 0)
		return error;

	fprintf(fp, "<script type=\"application/json\" id=\"rli-bars\">{\"count\":%zu,"
		"\"runCount\":%zu,\"encoding\":\"%s\",\"gridBits\":%d,\"runs\":\"",
		panel->bar_count, run_count, grid < 0 ? "float64" : "grid", grid < 0 ? 0 : grid);
	rli_write_base64(fp, html->stream.bytes, runs_bytes);
	fputs("\",\"data\":\"", fp);
	rli_write_base64(fp, html->stream.bytes + runs_bytes, html->stream.used - runs_bytes);
	fputs("\"}</script>\n", fp);
	return RLI_OK;
}

static int html_finish(rli_output *out)
{
	FILE *fp = out->file.fp;
	if (out->per_page)
		return RLI_OK;
	fputs("<script>\n", fp);
	for (size_t i = 0; i < PAGE_SCRIPT_COUNT; i++)
		fputs(page_scripts[i], fp);
	fputs("</script>\n</body>\n</html>\n", fp);
	if (fflush(fp) != 0 || ferror(fp)) /* errno is still the failed write's: say why, as a person would */
		return rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", out->file.path, strerror(errno ? errno : EIO));
	return RLI_OK;
}

static void html_destroy(rli_output *out)
{
	html_output *html = (html_output *)out;
	free(html->stream.bytes);
	html->stream.bytes = NULL;
	free(html->asides);
	html->asides = NULL;
	rli_html_pages_free(html->pages);
	html->pages = NULL;
}

const rli_backend rli_html_backend = {
	.name = "html",
	.extension = ".html",
	.file_per_page = 0,
	.output_size = sizeof(html_output),
	.begin_document = html_begin_document,
	.begin_page = html_begin_page,
	.draw_item = html_draw_item,
	.end_page = html_end_page,
	.finish = html_finish,
	.destroy = html_destroy,
};

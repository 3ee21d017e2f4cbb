/* html_timeline.c: a timeline page's model as JSON and its bars as compact runs: what the timeline page and the compare page embed. */
#include "html_timeline.h"
#include "common/error.h"
#include "common/json_write.h"
#include "html_aside.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Bars travel as base64 of LEB128 varints. Times are relative milliseconds,
 * and real ones are sums of absolute doubles minus t0, so they sit on a
 * binary grid 2^-k ms: stored as integers n (value = n * 2^-k) they come back
 * bit-exact, which keeps the hover's 3-decimal figures identical to C's.
 * When no such grid keeps them below 2^51 the raw float64 pairs are sent.
 */
#define RLI_HTML_MAX_GRID_BITS 1074

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

/* A file stem as a JSON string naming its page: "<stem>.html". */
static void write_page_name(FILE *fp, const char *stem)
{
	size_t length = strlen(stem);
	char *name = malloc(length + 6);
	if (!name) {
		fputs("null", fp); /* the caller's ferror check will not see this; the stems are short and ours */
		return;
	}
	memcpy(name, stem, length);
	memcpy(name + length, ".html", 6);
	rli_json_write_string(fp, name, RLI_JSON_HTML_SAFE);
	free(name);
}

/* ,"nav":{"up":"index.html","links":[{"label","target","xMin","xMax","row"}]}: the run's other pages. */
static void write_links(FILE *fp, const rli_nav *nav)
{
	fputs(",\"nav\":{\"up\":", fp);
	if (nav->up)
		write_page_name(fp, nav->up);
	else
		fputs("null", fp);
	fputs(",\"links\":[", fp);
	for (size_t i = 0; i < nav->link_count; i++) {
		const rli_link *link = &nav->links[i];
		fputs(i ? ",{\"label\":" : "{\"label\":", fp);
		rli_json_write_string(fp, link->label ? link->label : "", RLI_JSON_HTML_SAFE);
		fputs(",\"target\":", fp);
		if (link->target)
			write_page_name(fp, link->target);
		else
			fputs("null", fp);
		putc(',', fp);
		rli_html_number(fp, "xMin", link->x_min);
		putc(',', fp);
		rli_html_number(fp, "xMax", link->x_max);
		fprintf(fp, ",\"row\":%lld}", nav->link_row && nav->link_row[i] != UINT32_MAX ? (long long)nav->link_row[i] : -1LL);
	}
	fputs("]}", fp);
}

/* Everything but the bars: decorations as placed, rows, series, ticks, and the side panel's items. */
int rli_html_write_timeline_model(FILE *fp, const rli_html_timeline *t)
{
	const rli_document *doc = t->document;
	const rli_page *page = t->page;
	const rli_panel *panel = t->panel;
	const rli_legend *legend = t->legend;
	const rli_text *title = t->title;
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
	putc(']', fp);
	rli_html_ticks(fp, "xticks", panel->xticks, panel->xtick_count);
	fputs(",\"gridColor\":", fp);
	rli_html_color(fp, panel->grid_color);
	putc(',', fp);
	rli_html_number(fp, "gridWidth", panel->grid_width);
	fprintf(fp, ",\"xtickTarget\":%d,\"xtickMax\":%d", panel->xtick_target, panel->xtick_max);
	putc(',', fp);
	rli_html_number(fp, "tickLabelSize", panel->tick_label_size);
	putc(',', fp);
	rli_html_number(fp, "tickLabelGap", panel->tick_label_gap);

	rli_text page_title;
	if (title && title->text && doc->screen_title) {
		page_title = *title;
		page_title.text = (char *)doc->screen_title;
		title = &page_title;
	}
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
	if (t->nav)
		write_links(fp, t->nav);
	error = rli_html_write_aside(fp, t->asides, t->aside_count);
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
static int encode_runs(rli_bytes *stream, const rli_panel *panel, size_t *run_count)
{
	size_t runs = 0;
	int error;
	for (size_t i = 0; i < panel->bar_count;) {
		size_t j = i + 1;
		while (j < panel->bar_count && continues_run(panel, j))
			j++;
		if ((error = rli_bytes_varint(stream, panel->bar_row[i])) < 0 ||
		    (error = rli_bytes_varint(stream, panel->bar_series[i])) < 0 ||
		    (error = rli_bytes_varint(stream, j - i)) < 0)
			return error;
		runs++;
		i = j;
	}
	*run_count = runs;
	return RLI_OK;
}

static int encode_bars(rli_bytes *stream, const rli_panel *panel, int grid)
{
	int error;
	int64_t previous = 0;
	for (size_t i = 0; i < panel->bar_count; i++) {
		if (grid < 0) {
			if ((error = rli_bytes_float64_le(stream, panel->bar_start[i])) < 0 ||
			    (error = rli_bytes_float64_le(stream, panel->bar_end[i])) < 0)
				return error;
			continue;
		}
		int64_t start = (int64_t)ldexp(panel->bar_start[i], grid);
		int64_t end = (int64_t)ldexp(panel->bar_end[i], grid);
		if (!continues_run(panel, i))
			previous = 0;
		if ((error = rli_bytes_varint(stream, rli_zigzag(start - previous))) < 0 ||
		    (error = rli_bytes_varint(stream, rli_zigzag(end - start))) < 0)
			return error;
		previous = start;
	}
	return RLI_OK;
}

int rli_html_timeline_check(const rli_html_timeline *t)
{
	const rli_panel *panel = t->panel;
	if (!panel || !t->title || !t->legend || (panel->row_count && !panel->rows) ||
	    (panel->series_count && !panel->series))
		return rli_error_set(RLI_ERROR, "html: the page needs a title, a panel and a legend (a timeline's "
				     "overview page has no rows to scroll: lay it out without options.overview)");
	for (size_t i = 0; i < panel->bar_count; i++)
		if (panel->bar_row[i] >= panel->row_count || panel->bar_series[i] >= panel->series_count)
			return rli_error_set(RLI_ERROR, "html: bar %zu names a missing row or series", i);
	return RLI_OK;
}

int rli_html_write_timeline_bars(FILE *fp, const rli_panel *panel, rli_bytes *stream)
{
	size_t run_count = 0, runs_bytes;
	int grid = choose_grid(panel), error;

	stream->used = 0;
	if ((error = encode_runs(stream, panel, &run_count)) < 0)
		return error;
	runs_bytes = stream->used;
	if ((error = encode_bars(stream, panel, grid)) < 0)
		return error;
	fprintf(fp, "{\"count\":%zu,\"runCount\":%zu,\"encoding\":\"%s\",\"gridBits\":%d,\"runs\":\"",
		panel->bar_count, run_count, grid < 0 ? "float64" : "grid", grid < 0 ? 0 : grid);
	rli_write_base64(fp, stream->bytes, runs_bytes);
	fputs("\",\"data\":\"", fp);
	rli_write_base64(fp, stream->bytes + runs_bytes, stream->used - runs_bytes);
	fputs("\"}", fp);
	return RLI_OK;
}

int rli_html_timeline_from_page(rli_html_timeline *t, const rli_document *document, const rli_page *page)
{
	memset(t, 0, sizeof(*t));
	t->document = document;
	t->page = page;
	for (size_t i = 0; i < page->item_count; i++) {
		const rli_item *item = &page->items[i];
		if (item->placement == RLI_PLACE_ASIDE)
			continue;
		if (item->kind == RLI_ITEM_TEXT && !t->title)
			t->title = item->u.text;
		else if (item->kind == RLI_ITEM_PANEL)
			t->panel = item->u.panel;
		else if (item->kind == RLI_ITEM_LEGEND)
			t->legend = item->u.legend;
	}
	return rli_html_timeline_check(t);
}

/* html_backend.c: writes rl_timeline.html, the layout model plus compact bars plus the embedded canvas renderer. */
#include "backend.h"
#include "common/error.h"
#include "common/json_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern const char rli_asset_timeline_js[];
extern const char rli_asset_timeline_css[];

/*
 * Bars travel as base64 of LEB128 varints. Times are relative milliseconds,
 * and real ones are sums of absolute doubles minus t0, so they sit on a
 * binary grid 2^-k ms: stored as integers n (value = n * 2^-k) they come back
 * bit-exact, which keeps the hover's 3-decimal figures identical to C's.
 * When no such grid keeps them below 2^51 the raw float64 pairs are sent.
 */
#define RLI_HTML_MAX_GRID_BITS 1074

typedef struct {
	rli_output base;
	unsigned char *bytes; /* the encoded bar stream, before base64 */
	size_t used, capacity;
} html_output;

static int bytes_reserve(html_output *html, size_t extra)
{
	size_t wanted = html->used + extra;
	if (wanted <= html->capacity)
		return RLI_OK;
	size_t capacity = html->capacity ? html->capacity : 4096;
	while (capacity < wanted)
		capacity *= 2;
	unsigned char *grown = realloc(html->bytes, capacity);
	if (!grown)
		return rli_error_oom();
	html->bytes = grown;
	html->capacity = capacity;
	return RLI_OK;
}

static int put_varint(html_output *html, uint64_t value)
{
	int error;
	if ((error = bytes_reserve(html, 10)) < 0)
		return error;
	do {
		unsigned char byte = value & 0x7F;
		value >>= 7;
		html->bytes[html->used++] = byte | (value ? 0x80 : 0);
	} while (value);
	return RLI_OK;
}

static uint64_t zigzag(int64_t value)
{
	return value < 0 ? ((uint64_t)(-(value + 1)) << 1) | 1 : (uint64_t)value << 1;
}

static int put_float64_le(html_output *html, double value)
{
	uint64_t bits;
	int error;
	if ((error = bytes_reserve(html, 8)) < 0)
		return error;
	memcpy(&bits, &value, sizeof(bits));
	for (int i = 0; i < 8; i++)
		html->bytes[html->used++] = (unsigned char)(bits >> (8 * i));
	return RLI_OK;
}

static void write_base64(FILE *fp, const unsigned char *data, size_t length)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char line[4096];
	size_t filled = 0;
	for (size_t i = 0; i < length; i += 3) {
		uint32_t chunk = (uint32_t)data[i] << 16;
		size_t left = length - i;
		if (left > 1)
			chunk |= (uint32_t)data[i + 1] << 8;
		if (left > 2)
			chunk |= data[i + 2];
		line[filled++] = alphabet[(chunk >> 18) & 63];
		line[filled++] = alphabet[(chunk >> 12) & 63];
		line[filled++] = left > 1 ? alphabet[(chunk >> 6) & 63] : '=';
		line[filled++] = left > 2 ? alphabet[chunk & 63] : '=';
		if (filled + 4 > sizeof(line)) {
			fwrite(line, 1, filled, fp);
			filled = 0;
		}
	}
	fwrite(line, 1, filled, fp);
}

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
static int choose_grid(const rli_timeline *timeline)
{
	int bits = 0;
	double largest = 0;
	for (size_t i = 0; i < timeline->bar_count; i++) {
		double times[2] = { timeline->bar_start[i], timeline->bar_end[i] };
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

static void write_color(FILE *fp, rli_color color)
{
	fprintf(fp, "\"#%06" PRIx32 "\"", color & 0xFFFFFF);
}

static void write_number(FILE *fp, const char *key, double value)
{
	fprintf(fp, "\"%s\":", key);
	rli_json_write_double(fp, value);
}

static void write_rect(FILE *fp, const rli_rect *rect)
{
	putc('[', fp);
	rli_json_write_double(fp, rect->x);
	putc(',', fp);
	rli_json_write_double(fp, rect->y);
	putc(',', fp);
	rli_json_write_double(fp, rect->w);
	putc(',', fp);
	rli_json_write_double(fp, rect->h);
	putc(']', fp);
}

static void write_text(FILE *fp, const rli_text *text)
{
	fputs("{\"text\":", fp);
	rli_json_write_string(fp, text->text ? text->text : "", RLI_JSON_HTML_SAFE);
	putc(',', fp);
	write_number(fp, "x", text->x);
	putc(',', fp);
	write_number(fp, "y", text->y);
	putc(',', fp);
	write_number(fp, "size", text->size);
	fprintf(fp, ",\"bold\":%s,\"color\":", text->bold ? "true" : "false");
	write_color(fp, text->color);
	fprintf(fp, ",\"halign\":%d,\"valign\":%d,", (int)text->halign, (int)text->valign);
	write_number(fp, "angle", text->angle);
	putc(',', fp);
	write_number(fp, "maxWidth", text->max_width);
	putc('}', fp);
}

static void write_texts(FILE *fp, const char *key, const rli_text *texts, size_t count)
{
	fprintf(fp, ",\"%s\":[", key);
	for (size_t i = 0; texts && i < count; i++) {
		if (i)
			putc(',', fp);
		write_text(fp, &texts[i]);
	}
	putc(']', fp);
}

/* Everything but the bars: decorations as placed, rows, series, ticks. */
static void write_model(FILE *fp, const rli_timeline *timeline)
{
	fputs("{\"version\":1,", fp);
	write_number(fp, "width", timeline->width);
	putc(',', fp);
	write_number(fp, "height", timeline->height);
	fprintf(fp, ",\"scale\":%d,\"background\":", timeline->scale);
	write_color(fp, timeline->background);
	fputs(",\"textColor\":", fp);
	write_color(fp, timeline->text_color);
	fputs(",\"fontFamily\":", fp);
	rli_json_write_string(fp, timeline->font_family ? timeline->font_family : "sans-serif",
			      RLI_JSON_HTML_SAFE);
	putc(',', fp);
	write_number(fp, "t0", timeline->t0_ms);
	fputs(",\"plot\":", fp);
	write_rect(fp, &timeline->plot);
	putc(',', fp);
	write_number(fp, "xMin", timeline->x_min);
	putc(',', fp);
	write_number(fp, "xMax", timeline->x_max);

	fputs(",\"rows\":[", fp);
	for (size_t r = 0; r < timeline->row_count; r++) {
		const rli_row *row = &timeline->rows[r];
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
	for (size_t r = 0; r < timeline->row_count; r++)
		fprintf(fp, "%s%" PRIu32, r ? "," : "",
			timeline->order_by_role ? timeline->order_by_role[r] : (uint32_t)r);
	fputs("],", fp);
	write_number(fp, "rowPitch", timeline->row_pitch);
	putc(',', fp);
	write_number(fp, "barThickness", timeline->bar_thickness);
	fputs(",\"barOutline\":", fp);
	write_color(fp, timeline->bar_outline);
	putc(',', fp);
	write_number(fp, "barOutlineWidth", timeline->bar_outline_width);
	putc(',', fp);
	write_number(fp, "barOutlineMinSize", timeline->bar_outline_min_size);

	fputs(",\"series\":[", fp);
	for (size_t s = 0; s < timeline->series_count; s++) {
		if (s)
			putc(',', fp);
		fputs("{\"name\":", fp);
		rli_json_write_string(fp, timeline->series[s].name ? timeline->series[s].name : "",
				      RLI_JSON_HTML_SAFE);
		fputs(",\"color\":", fp);
		write_color(fp, timeline->series[s].color);
		putc('}', fp);
	}
	fputs("],\"xticks\":[", fp);
	for (size_t t = 0; t < timeline->xtick_count; t++) {
		char label[sizeof(timeline->xticks[t].label) + 1];
		memcpy(label, timeline->xticks[t].label, sizeof(timeline->xticks[t].label));
		label[sizeof(label) - 1] = '\0';
		if (t)
			putc(',', fp);
		fputs("{\"value\":", fp);
		rli_json_write_double(fp, timeline->xticks[t].value);
		fputs(",\"label\":", fp);
		rli_json_write_string(fp, label, RLI_JSON_HTML_SAFE);
		putc('}', fp);
	}
	fputs("],\"gridColor\":", fp);
	write_color(fp, timeline->grid_color);
	putc(',', fp);
	write_number(fp, "gridWidth", timeline->grid_width);
	fprintf(fp, ",\"xtickTarget\":%d,\"xtickMax\":%d", timeline->xtick_target, timeline->xtick_max);
	putc(',', fp);
	write_number(fp, "tickLabelSize", timeline->tick_label_size);
	putc(',', fp);
	write_number(fp, "tickLabelGap", timeline->tick_label_gap);

	fputs(",\"title\":", fp);
	write_text(fp, &timeline->title);
	fputs(",\"xTitle\":", fp);
	write_text(fp, &timeline->x_title);
	fputs(",\"yTitle\":", fp);
	write_text(fp, &timeline->y_title);
	write_texts(fp, "rowLabels", timeline->row_labels, timeline->row_count);
	fputs(",\"legendTitle\":", fp);
	write_text(fp, &timeline->legend_title);
	fputs(",\"legendSwatches\":[", fp);
	for (size_t s = 0; timeline->legend_swatches && s < timeline->series_count; s++) {
		if (s)
			putc(',', fp);
		write_rect(fp, &timeline->legend_swatches[s]);
	}
	putc(']', fp);
	write_texts(fp, "legendLabels", timeline->legend_labels, timeline->series_count);
	putc('}', fp);
}

/*
 * Whether bar i continues bar i - 1's run: same row and series, and a start
 * no earlier, because the page's index (binary search, stop at the first
 * start past the view) needs each run sorted by start. The layout sorts bars
 * so; a model that did not would only cost more runs, never a wrong picture.
 */
static int continues_run(const rli_timeline *timeline, size_t i)
{
	return i > 0 && timeline->bar_row[i] == timeline->bar_row[i - 1] &&
	       timeline->bar_series[i] == timeline->bar_series[i - 1] &&
	       timeline->bar_start[i] >= timeline->bar_start[i - 1];
}

/*
 * Runs: (row, series, count) for each stretch of bars sharing both, in model
 * order. Bars: grid encoding = zigzag(start - previous start in the run),
 * zigzag(end - start); float64 encoding = start, end.
 */
static int encode_runs(html_output *html, const rli_timeline *timeline, size_t *run_count)
{
	size_t runs = 0;
	int error;
	for (size_t i = 0; i < timeline->bar_count;) {
		size_t j = i + 1;
		while (j < timeline->bar_count && continues_run(timeline, j))
			j++;
		if ((error = put_varint(html, timeline->bar_row[i])) < 0 ||
		    (error = put_varint(html, timeline->bar_series[i])) < 0 ||
		    (error = put_varint(html, j - i)) < 0)
			return error;
		runs++;
		i = j;
	}
	*run_count = runs;
	return RLI_OK;
}

static int encode_bars(html_output *html, const rli_timeline *timeline, int grid)
{
	int error;
	int64_t previous = 0;
	for (size_t i = 0; i < timeline->bar_count; i++) {
		if (grid < 0) {
			if ((error = put_float64_le(html, timeline->bar_start[i])) < 0 ||
			    (error = put_float64_le(html, timeline->bar_end[i])) < 0)
				return error;
			continue;
		}
		int64_t start = (int64_t)ldexp(timeline->bar_start[i], grid);
		int64_t end = (int64_t)ldexp(timeline->bar_end[i], grid);
		if (!continues_run(timeline, i))
			previous = 0;
		if ((error = put_varint(html, zigzag(start - previous))) < 0 ||
		    (error = put_varint(html, zigzag(end - start))) < 0)
			return error;
		previous = start;
	}
	return RLI_OK;
}

static int check_model(const rli_timeline *timeline)
{
	if (!timeline || (timeline->row_count && !timeline->rows) ||
	    (timeline->series_count && !timeline->series))
		return rli_error_set(RLI_ERROR, "html: incomplete layout model");
	for (size_t i = 0; i < timeline->bar_count; i++)
		if (timeline->bar_row[i] >= timeline->row_count ||
		    timeline->bar_series[i] >= timeline->series_count)
			return rli_error_set(RLI_ERROR, "html: bar %zu names a missing row or series", i);
	return RLI_OK;
}

static void write_html_text(FILE *fp, const char *text)
{
	for (const char *c = text; c && *c; c++) {
		switch (*c) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default: putc(*c, fp);
		}
	}
}

static int html_begin(rli_output *out, const rli_timeline *timeline)
{
	FILE *fp = out->file.fp;
	int error;

	if ((error = check_model(timeline)) < 0)
		return error;
	/* Assets that could close their own element (or open a comment state) would break the page. */
	if (strstr(rli_asset_timeline_js, "</script") || strstr(rli_asset_timeline_js, "<!--") ||
	    strstr(rli_asset_timeline_js, "<script") || strstr(rli_asset_timeline_css, "</style"))
		return rli_error_set(RLI_ERROR, "html: embedded renderer contains a closing tag");

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n"
	      "<meta name=\"generator\" content=\"rl-insight " RLI_VERSION "\">\n<title>", fp);
	write_html_text(fp, timeline->title.text ? timeline->title.text : "RL Timeline");
	fputs("</title>\n<style>\n", fp);
	fputs(rli_asset_timeline_css, fp);
	fputs("</style>\n</head>\n<body>\n"
	      "<noscript>This timeline is drawn by JavaScript; enable it to see the chart.</noscript>\n",
	      fp);
	return RLI_OK;
}

static int html_draw_timeline(rli_output *out, const rli_timeline *timeline)
{
	html_output *html = (html_output *)out;
	FILE *fp = out->file.fp;
	size_t run_count = 0, runs_bytes;
	int grid = choose_grid(timeline);
	int error;

	fputs("<script type=\"application/json\" id=\"rli-model\">", fp);
	write_model(fp, timeline);
	fputs("</script>\n", fp);

	html->used = 0;
	if ((error = encode_runs(html, timeline, &run_count)) < 0)
		return error;
	runs_bytes = html->used;
	if ((error = encode_bars(html, timeline, grid)) < 0)
		return error;

	fprintf(fp, "<script type=\"application/json\" id=\"rli-bars\">{\"count\":%zu,"
		"\"runCount\":%zu,\"encoding\":\"%s\",\"gridBits\":%d,\"runs\":\"",
		timeline->bar_count, run_count, grid < 0 ? "float64" : "grid", grid < 0 ? 0 : grid);
	write_base64(fp, html->bytes, runs_bytes);
	fputs("\",\"data\":\"", fp);
	write_base64(fp, html->bytes + runs_bytes, html->used - runs_bytes);
	fputs("\"}</script>\n", fp);
	return RLI_OK;
}

static int html_finish(rli_output *out)
{
	FILE *fp = out->file.fp;
	fputs("<script>\n", fp);
	fputs(rli_asset_timeline_js, fp);
	fputs("</script>\n</body>\n</html>\n", fp);
	if (fflush(fp) != 0 || ferror(fp))
		return rli_error_set(RLI_EOUTPUT, "could not write %s", out->file.path);
	return RLI_OK;
}

static void html_destroy(rli_output *out)
{
	html_output *html = (html_output *)out;
	free(html->bytes);
	html->bytes = NULL;
}

const rli_backend rli_html_backend = {
	"html",
	"rl_timeline.html",
	sizeof(html_output),
	html_begin,
	html_draw_timeline,
	html_finish,
	html_destroy,
};

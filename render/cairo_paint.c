/* cairo_paint.c: draws a document's pages, item by item, onto any cairo context (PNG image, PDF page). */
#include "cairo_paint.h"
#include "text/text.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RADIANS_PER_DEGREE 0.017453292519943295
#define FULL_TURN 6.283185307179586

/* ---- painting --------------------------------------------------------- */

int rli_cairo_error(cairo_status_t status, const char *what)
{
	if (status == CAIRO_STATUS_NO_MEMORY)
		return rli_error_set(RLI_ERROR, "%s: out of memory", what);
	return rli_error_set(RLI_EOUTPUT, "%s: %s", what, cairo_status_to_string(status));
}

struct rli_cairo_painter {
	cairo_t *cr;
	const rli_document *document;
	double scale;
	double lod_per_unit;     /* columns per page unit */
	PangoContext *text;
	/* the panel being drawn */
	const rli_panel *panel;
	double units_per_ms;     /* page units per data unit on its x axis */
	double lod_origin;       /* first column, in columns from the page's left edge */
	rli_lod_columns lod;
};
typedef struct rli_cairo_painter painter;

static void set_color(cairo_t *cr, rli_color color, double alpha)
{
	cairo_set_source_rgba(cr, ((color >> 16) & 0xFF) / 255.0, ((color >> 8) & 0xFF) / 255.0,
			      (color & 0xFF) / 255.0, alpha);
}

static double page_x(const painter *p, double ms)
{
	return p->panel->plot.x + (ms - p->panel->x_min) * p->units_per_ms;
}

/* A value panel's y: y_min at the plot's bottom, y_max at its top. */
static double page_y(const painter *p, double value)
{
	const rli_panel *t = p->panel;
	double span = t->y_max > t->y_min ? t->y_max - t->y_min : 1.0;
	return t->plot.y + t->plot.h - (value - t->y_min) / span * t->plot.h;
}

/* Lines land on whole device pixels, so a 1-unit grid line is crisp, not a grey smear. */
static double snap(double device, double line_width)
{
	long pixels = lround(line_width);
	if (pixels % 2)
		return floor(device) + 0.5;
	return round(device);
}

static void draw_text(painter *p, const rli_text *text)
{
	cairo_t *cr = p->cr;
	PangoLayout *layout;
	PangoRectangle logical;
	double dx, dy, w, h;

	if (!text->text || !*text->text)
		return;
	if (text->angle == 0.0) {
		/* Level text lies within two sizes of its anchor: outside this PNG band, nothing to lay out. */
		double x0, top, x1, bottom;
		cairo_clip_extents(cr, &x0, &top, &x1, &bottom);
		if (text->y + 2 * text->size < top || text->y - 2 * text->size > bottom)
			return;
	}
	cairo_save(cr);
	cairo_translate(cr, text->x, text->y);
	if (text->angle != 0.0)
		cairo_rotate(cr, -text->angle * RADIANS_PER_DEGREE);
	pango_cairo_update_context(cr, p->text);
	layout = rli_text_layout_new(p->text, text->text, text->size, text->bold);
	if (text->max_width > 0.0) {
		pango_layout_set_width(layout, (int)(text->max_width * PANGO_SCALE));
		pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
	}
	pango_layout_get_extents(layout, NULL, &logical);
	w = (double)logical.width / PANGO_SCALE;
	h = (double)logical.height / PANGO_SCALE;
	dx = -(double)logical.x / PANGO_SCALE;
	dy = -(double)logical.y / PANGO_SCALE;
	if (text->halign == RLI_ALIGN_MIDDLE)
		dx -= w / 2;
	else if (text->halign == RLI_ALIGN_END)
		dx -= w;
	if (text->valign == RLI_ALIGN_MIDDLE)
		dy -= h / 2;
	else if (text->valign == RLI_ALIGN_END)
		dy -= h;
	set_color(cr, text->color, 1.0);
	cairo_move_to(cr, dx, dy);
	pango_cairo_show_layout(cr, layout);
	g_object_unref(layout);
	cairo_restore(cr);
}

static void draw_grid(painter *p)
{
	const rli_panel *t = p->panel;
	cairo_t *cr = p->cr;
	double width = t->grid_width * p->scale;
	double top = t->plot.y * p->scale, bottom = (t->plot.y + t->plot.h) * p->scale;

	set_color(cr, t->grid_color, 1.0);
	cairo_set_line_width(cr, width);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	for (size_t i = 0; i < t->xtick_count; i++) {
		double x = snap(page_x(p, t->xticks[i].value) * p->scale, width);
		cairo_move_to(cr, x, top);
		cairo_line_to(cr, x, bottom);
	}
	if (t->y_scale == RLI_Y_VALUES) {
		double left = t->plot.x * p->scale, right = (t->plot.x + t->plot.w) * p->scale;
		for (size_t i = 0; i < t->ytick_count; i++) {
			double y = snap(page_y(p, t->yticks[i].value) * p->scale, width);
			cairo_move_to(cr, left, y);
			cairo_line_to(cr, right, y);
		}
	}
	cairo_stroke(cr);
}

/* Whether trace_line draws the line as its per-column envelope: more than four points a device column. */
static int traced_as_envelope(const painter *p, const rli_line_mark *line)
{
	return line->count > 4 * (size_t)fmax(1.0, p->panel->plot.w * p->scale);
}

/*
 * A line with more points than device columns is drawn as its exact
 * per-column envelope: in each column, from the first point to the lowest,
 * the highest and the last, so no peak between pixels is lost (the level of
 * detail of lines, as the coverage strips are of bars).
 */
static void trace_line(painter *p, const rli_line_mark *line)
{
	cairo_t *cr = p->cr;
	double column_of = -1, lo = 0, hi = 0, last = 0;
	int started = 0, envelope = traced_as_envelope(p, line);

	for (size_t i = 0; i < line->count; i++) {
		double x = page_x(p, line->x[i]) * p->scale, y = page_y(p, line->y[i]) * p->scale;
		double column = floor(x);
		if (!envelope) {
			if (started)
				cairo_line_to(cr, x, y);
			else
				cairo_move_to(cr, x, y);
			started = 1;
			continue;
		}
		if (started && column == column_of) {
			lo = fmin(lo, y);
			hi = fmax(hi, y);
			last = y;
			continue;
		}
		if (started) {
			cairo_line_to(cr, column_of + 0.5, lo);
			cairo_line_to(cr, column_of + 0.5, hi);
			cairo_line_to(cr, column_of + 0.5, last);
			cairo_line_to(cr, x, y);
		} else {
			cairo_move_to(cr, x, y);
		}
		started = 1;
		column_of = column;
		lo = hi = last = y;
	}
	if (started && column_of >= 0) {
		cairo_line_to(cr, column_of + 0.5, lo);
		cairo_line_to(cr, column_of + 0.5, hi);
		cairo_line_to(cr, column_of + 0.5, last);
	}
}

/* Column c's span of heights, widened to y. */
static void widen(double *lo, double *hi, size_t c, double y)
{
	lo[c] = fmin(lo[c], y);
	hi[c] = fmax(hi[c], y);
}

/*
 * An envelope drawn on pixels as the band of ink its stroke would leave, column by column. The
 * stroke of the same path turns at every device column, four times, and cairo's stroker made and
 * filled a round join at each: a fifth of drawing 128 memory figures. Here each column's points,
 * and the heights where the segments between points cross its edges, give it a span; a column's
 * ink is the union of the spans within half the line's width of it (the stroke's breadth), half
 * the width beyond their extremes (its thickness): one box a column, a flat stretch as thick as
 * the stroke, a peak as high. Returns 0 when there is no room for the columns (then it is stroked).
 */
static int span_envelope(painter *p, const rli_line_mark *line)
{
	cairo_t *cr = p->cr;
	double half = line->width * p->scale / 2, first = INFINITY, end = -INFINITY, last_x = 0, last_y = 0;
	double previous = -1; /* the last point's column; none yet */
	double *lo = NULL, *hi = NULL;
	size_t columns, reach = (size_t)fmax(0.0, round(half - 0.5));

	/* The columns the points fall in (a point without a place on the page has none). */
	for (size_t i = 0; i < line->count; i++) {
		double column = floor(page_x(p, line->x[i]) * p->scale);
		if (isfinite(column)) {
			first = fmin(first, column);
			end = fmax(end, column);
		}
	}
	if (!(end >= first) || end - first >= (double)(1u << 20))
		return 0;
	columns = (size_t)(end - first) + 1;
	if (!(lo = malloc(columns * sizeof(*lo))) || !(hi = malloc(columns * sizeof(*hi)))) {
		free(lo);
		return 0;
	}
	for (size_t c = 0; c < columns; c++) {
		lo[c] = INFINITY;
		hi[c] = -INFINITY;
	}
	for (size_t i = 0; i < line->count; i++) {
		double x = page_x(p, line->x[i]) * p->scale, y = page_y(p, line->y[i]) * p->scale;
		double column = floor(x) - first; /* within 0..columns-1: first and end bound every finite one */
		if (!isfinite(column) || !isfinite(y))
			continue;
		if (previous >= 0 && column != previous) {
			/*
			 * The segment from the last point crosses the boundaries between: where it
			 * crosses one, both columns beside it hold that height (a long flat step crosses
			 * many columns that hold no point of their own).
			 */
			double from = fmin(previous, column) + 1, to = fmax(previous, column);
			for (double k = from; k <= to; k++) {
				double at = first + k, y_at = x == last_x ? y : last_y + (y - last_y) * (at - last_x) / (x - last_x);
				widen(lo, hi, (size_t)k - 1, y_at);
				widen(lo, hi, (size_t)k, y_at);
			}
		}
		widen(lo, hi, (size_t)column, y);
		previous = column;
		last_x = x;
		last_y = y;
	}
	cairo_new_path(cr);
	for (size_t c = 0; c < columns; c++) {
		double top = INFINITY, bottom = -INFINITY;
		size_t from = c > reach ? c - reach : 0, to = c + reach < columns ? c + reach : columns - 1;
		for (size_t k = from; k <= to; k++) {
			top = fmin(top, lo[k]);
			bottom = fmax(bottom, hi[k]);
		}
		if (top <= bottom)
			cairo_rectangle(cr, first + (double)c, top - half, 1.0, bottom - top + 2 * half);
	}
	cairo_fill(cr);
	free(lo);
	free(hi);
	return 1;
}

/* Whether the painter draws on pixels (a PNG's bands), where an envelope is drawn as spans. */
static int on_pixels(const painter *p)
{
	return cairo_surface_get_type(cairo_get_target(p->cr)) == CAIRO_SURFACE_TYPE_IMAGE;
}

static void draw_lines(painter *p)
{
	const rli_panel *t = p->panel;
	cairo_t *cr = p->cr;

	for (size_t l = 0; l < t->line_count; l++) {
		const rli_line_mark *line = &t->lines[l];
		double base = page_y(p, t->y_min) * p->scale;
		if (!line->count)
			continue;
		/*
		 * An envelope has a stroke over every device column: cairo's finest
		 * antialiasing sorts its many edges on each of 15 sub-rows a pixel,
		 * 19 ms of a 4000 x 3389 memory figure. Its fast one (4 sub-rows)
		 * draws the same band in a quarter of that; a jagged 2 px line shows
		 * no difference (edge pixels move by a few levels of 255).
		 */
		cairo_set_antialias(cr, traced_as_envelope(p, line) ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_DEFAULT);
		cairo_new_path(cr);
		if (line->fill_alpha > 0 && line->y_low) {
			/* A band: along the line, then back along its lower edge. */
			trace_line(p, line);
			for (size_t i = line->count; i-- > 0;)
				cairo_line_to(cr, page_x(p, line->x[i]) * p->scale, page_y(p, line->y_low[i]) * p->scale);
			cairo_close_path(cr);
			set_color(cr, line->color, line->fill_alpha);
			cairo_fill(cr);
		} else if (line->fill_alpha > 0) {
			trace_line(p, line);
			cairo_line_to(cr, page_x(p, line->x[line->count - 1]) * p->scale, base);
			cairo_line_to(cr, page_x(p, line->x[0]) * p->scale, base);
			cairo_close_path(cr);
			set_color(cr, line->color, line->fill_alpha);
			cairo_fill(cr);
		}
		if (line->width <= 0)
			continue;
		set_color(cr, line->color, 1.0);
		if (traced_as_envelope(p, line) && on_pixels(p) && span_envelope(p, line))
			continue;
		trace_line(p, line);
		cairo_set_line_width(cr, line->width * p->scale);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		cairo_stroke(cr);
	}
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
}

static void draw_points(painter *p)
{
	const rli_panel *t = p->panel;
	cairo_t *cr = p->cr;

	for (size_t i = 0; i < t->point_count; i++) {
		const rli_point_mark *point = &t->points[i];
		cairo_new_path(cr);
		cairo_arc(cr, page_x(p, point->x) * p->scale, page_y(p, point->y) * p->scale,
			  point->radius * p->scale, 0, FULL_TURN);
		set_color(cr, point->color, 1.0);
		cairo_fill(cr);
		cairo_save(cr);
		cairo_scale(cr, p->scale, p->scale);
		draw_text(p, &point->label);
		cairo_restore(cr);
	}
}

/*
 * cairo image surfaces stop at 32767 pixels a side, so a coverage row wider
 * than that (a 20,000-point PDF at 4 columns a point) is painted in pieces.
 */
#define STRIP_MAX_COLUMNS 32767

/*
 * Paints the columns [lo, hi) of the coverage as stretched strips of alpha =
 * coverage. Each strip is a new surface, painted once and released: a PDF
 * surface keeps a snapshot of every image it was given until the page ends,
 * and cairo forbids writing to an image while such a snapshot exists.
 */
static int draw_coverage(painter *p, rli_color color, double top, double height)
{
	rli_lod_columns *lod = &p->lod;
	size_t lo = lod->touched_lo, hi = lod->touched_hi;
	double column_width = p->scale / p->lod_per_unit;
	int error = RLI_OK;

	if (hi <= lo || !(height > 0.0)) {
		rli_lod_clear(lod);
		return RLI_OK;
	}
	for (size_t first = lo; first < hi && error == RLI_OK; first += STRIP_MAX_COLUMNS) {
		size_t count = hi - first < STRIP_MAX_COLUMNS ? hi - first : STRIP_MAX_COLUMNS;
		cairo_surface_t *strip = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)count, 1);
		uint32_t *pixels;

		if (cairo_surface_status(strip) != CAIRO_STATUS_SUCCESS) {
			error = rli_cairo_error(cairo_surface_status(strip), "cannot make a coverage strip");
			cairo_surface_destroy(strip);
			break;
		}
		pixels = (uint32_t *)(void *)cairo_image_surface_get_data(strip);
		for (size_t c = 0; c < count; c++) {
			double coverage = fmin(lod->coverage[first + c], 1.0);
			uint32_t a = (uint32_t)lround(coverage * 255.0);
			uint32_t r = (((color >> 16) & 0xFF) * a + 127) / 255;
			uint32_t g = (((color >> 8) & 0xFF) * a + 127) / 255;
			uint32_t b = ((color & 0xFF) * a + 127) / 255;
			pixels[c] = a << 24 | r << 16 | g << 8 | b;
		}
		cairo_surface_mark_dirty(strip);

		cairo_save(p->cr);
		cairo_translate(p->cr, (p->lod_origin + (double)first) * column_width, top);
		cairo_scale(p->cr, column_width, height);
		cairo_set_source_surface(p->cr, strip, 0, 0);
		cairo_pattern_set_filter(cairo_get_source(p->cr), CAIRO_FILTER_NEAREST);
		cairo_rectangle(p->cr, 0, 0, (double)count, 1);
		cairo_fill(p->cr);
		cairo_restore(p->cr);
		cairo_surface_destroy(strip);
		if (cairo_status(p->cr) != CAIRO_STATUS_SUCCESS)
			error = rli_cairo_error(cairo_status(p->cr), "drawing the timeline failed");
	}
	rli_lod_clear(lod);
	return error;
}

/*
 * Bar b the same as the one before it in the run (a table of one repeated row): its rectangle adds
 * nothing to the fill or the stroke of one path, and a million of them cost cairo half a minute.
 */
static int repeats_bar_before(const rli_panel *t, size_t first, size_t b)
{
	return b > first && t->bar_start[b] == t->bar_start[b - 1] && t->bar_end[b] == t->bar_end[b - 1];
}

/* One run: the bars of one series in one row, in start order. */
static int draw_run(painter *p, size_t first, size_t last, double top, double height)
{
	const rli_panel *t = p->panel;
	cairo_t *cr = p->cr;
	rli_color color = t->series[t->bar_series[first]].color;
	double outline = t->bar_outline_width * p->scale;
	double min_outlined = t->bar_outline_min_size * p->scale;
	int wide = 0, outlined = 0;

	cairo_new_path(cr);
	for (size_t b = first; b < last; b++) {
		double x0 = page_x(p, t->bar_start[b]) * p->lod_per_unit - p->lod_origin;
		double x1 = page_x(p, t->bar_end[b]) * p->lod_per_unit - p->lod_origin;
		if (repeats_bar_before(t, first, b))
			continue;
		if (x1 - x0 > 1.0) {
			double device_x = page_x(p, t->bar_start[b]) * p->scale;
			double device_w = (t->bar_end[b] - t->bar_start[b]) * p->units_per_ms * p->scale;
			cairo_rectangle(cr, device_x, top, device_w, height);
			wide = 1;
			if (device_w >= min_outlined)
				outlined = 1;
		} else {
			rli_lod_add(&p->lod, x0, x1);
		}
	}
	if (wide) {
		set_color(cr, color, 1.0);
		cairo_fill_preserve(cr);
		/* White edges tell touching bars apart (the reference's marker.line). */
		if (outlined && height >= min_outlined) {
			cairo_new_path(cr);
			for (size_t b = first; b < last; b++) {
				double device_x = page_x(p, t->bar_start[b]) * p->scale;
				if (repeats_bar_before(t, first, b))
					continue;
				double device_w = (t->bar_end[b] - t->bar_start[b]) * p->units_per_ms * p->scale;
				if (device_w >= min_outlined)
					cairo_rectangle(cr, device_x, top, device_w, height);
			}
			set_color(cr, t->bar_outline, 1.0);
			cairo_set_line_width(cr, outline);
			cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
			cairo_stroke(cr);
		}
		cairo_new_path(cr);
	}
	rli_lod_flush(&p->lod);
	return draw_coverage(p, color, top, height);
}

static int draw_bars(painter *p)
{
	const rli_panel *t = p->panel;
	cairo_t *cr = p->cr;
	double clip_x0, clip_top, clip_x1, clip_bottom, slack;
	int error = RLI_OK;

	cairo_save(cr);
	cairo_rectangle(cr, t->plot.x * p->scale, t->plot.y * p->scale, t->plot.w * p->scale,
			t->plot.h * p->scale);
	cairo_clip(cr);
	/* A PNG is drawn in bands: rows wholly outside this one (outline included) are not drawn at all. */
	cairo_clip_extents(cr, &clip_x0, &clip_top, &clip_x1, &clip_bottom);
	slack = t->bar_outline_width * p->scale + 1.0;
	for (size_t r = 0; r < t->row_count && error == RLI_OK; r++) {
		double centre = t->plot.y + ((double)r + 0.5) * t->row_pitch;
		double top = (centre - t->bar_thickness / 2) * p->scale;
		double height = t->bar_thickness * p->scale;
		size_t b = t->row_first_bar[r], end = t->row_first_bar[r + 1];
		if (top + height + slack < clip_top || top - slack > clip_bottom)
			continue;
		while (b < end && error == RLI_OK) {
			size_t run_end = b + 1;
			while (run_end < end && t->bar_series[run_end] == t->bar_series[b])
				run_end++;
			error = draw_run(p, b, run_end, top, height);
			b = run_end;
		}
	}
	cairo_restore(cr);
	return error;
}

/* The panel's axes and labels, in page units. */
static void draw_panel_text(painter *p)
{
	const rli_panel *t = p->panel;
	cairo_t *cr = p->cr;

	cairo_save(cr);
	cairo_scale(cr, p->scale, p->scale);
	for (size_t i = 0; i < t->xtick_count; i++) {
		rli_text tick = {
			.text = (char *)t->xticks[i].label,
			.x = page_x(p, t->xticks[i].value),
			.y = t->plot.y + t->plot.h + t->tick_label_gap,
			.size = t->tick_label_size,
			.color = p->document->text_color,
			.halign = RLI_ALIGN_MIDDLE,
			.valign = RLI_ALIGN_START,
		};
		draw_text(p, &tick);
	}
	for (size_t r = 0; r < t->row_count; r++)
		draw_text(p, &t->row_labels[r]);
	for (size_t i = 0; t->y_scale == RLI_Y_VALUES && i < t->ytick_count; i++) {
		rli_text tick = {
			.text = (char *)t->yticks[i].label,
			.x = t->plot.x - t->tick_label_gap,
			.y = page_y(p, t->yticks[i].value),
			.size = t->tick_label_size,
			.color = p->document->text_color,
			.halign = RLI_ALIGN_END,
			.valign = RLI_ALIGN_MIDDLE,
		};
		draw_text(p, &tick);
	}
	draw_text(p, &t->x_title);
	draw_text(p, &t->y_title);
	cairo_restore(cr);
}

/* Nothing drawn now could show: the clip leaves no area of the surface. */
static int clip_is_empty(cairo_t *cr)
{
	double x1, y1, x2, y2;
	cairo_clip_extents(cr, &x1, &y1, &x2, &y2);
	return !(x2 > x1 && y2 > y1);
}

/*
 * The panel's cells as an image of a pixel a cell, scaled onto the plot: cells a device pixel or
 * more are drawn sharp (nearest), smaller ones averaged into the pixel they share.
 */
static int draw_cells(painter *p, const rli_cell_grid *grid)
{
	const rli_panel *t = p->panel;
	cairo_surface_t *image;
	cairo_pattern_t *pattern;
	cairo_matrix_t matrix;
	unsigned char *data;
	int stride, error = RLI_OK;
	double sx, sy;

	if (!grid->columns || !grid->rows || grid->columns > 32767 || grid->rows > 32767)
		return RLI_OK;
	image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)grid->columns, (int)grid->rows);
	if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS) {
		error = rli_cairo_error(cairo_surface_status(image), "the heatmap's cells");
		cairo_surface_destroy(image);
		return error;
	}
	cairo_surface_flush(image);
	data = cairo_image_surface_get_data(image);
	stride = cairo_image_surface_get_stride(image);
	for (size_t r = 0; r < grid->rows; r++) {
		uint32_t *row = (uint32_t *)(void *)(data + r * (size_t)stride);
		for (size_t c = 0; c < grid->columns; c++) {
			size_t i = r * grid->columns + c;
			/* premultiplied ARGB: an absent cell is all zero, transparent */
			row[c] = grid->present && !grid->present[i] ? 0 : 0xFF000000u | grid->colors[i];
		}
	}
	cairo_surface_mark_dirty(image);
	pattern = cairo_pattern_create_for_surface(image);
	sx = t->plot.w * p->scale / (double)grid->columns;
	sy = t->plot.h * p->scale / (double)grid->rows;
	cairo_matrix_init_scale(&matrix, 1.0 / sx, 1.0 / sy);
	cairo_matrix_translate(&matrix, -t->plot.x * p->scale, -t->plot.y * p->scale);
	cairo_pattern_set_matrix(pattern, &matrix);
	cairo_pattern_set_filter(pattern, sx >= 1.0 && sy >= 1.0 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
	cairo_save(p->cr);
	cairo_rectangle(p->cr, t->plot.x * p->scale, t->plot.y * p->scale, t->plot.w * p->scale, t->plot.h * p->scale);
	cairo_clip(p->cr);
	cairo_set_source(p->cr, pattern);
	cairo_paint(p->cr);
	cairo_restore(p->cr);
	cairo_pattern_destroy(pattern);
	cairo_surface_destroy(image);
	return error;
}

static int draw_panel(painter *p, const rli_panel *panel)
{
	double right;
	size_t columns;
	int error;

	p->panel = panel;
	p->units_per_ms = panel->x_max > panel->x_min ? panel->plot.w / (panel->x_max - panel->x_min) : 0.0;
	p->lod_origin = floor(panel->plot.x * p->lod_per_unit);
	right = ceil((panel->plot.x + panel->plot.w) * p->lod_per_unit);
	columns = (size_t)(right - p->lod_origin) + 1;
	if ((error = rli_lod_init(&p->lod, columns)) < 0)
		return error;
	cairo_save(p->cr);
	cairo_set_antialias(p->cr, CAIRO_ANTIALIAS_DEFAULT);
	draw_grid(p);
	error = panel->cells ? draw_cells(p, panel->cells) : RLI_OK;
	if (error == RLI_OK)
		error = draw_bars(p);
	if (error == RLI_OK && (panel->line_count || panel->point_count)) {
		cairo_save(p->cr);
		cairo_rectangle(p->cr, panel->plot.x * p->scale, panel->plot.y * p->scale,
				panel->plot.w * p->scale, panel->plot.h * p->scale);
		cairo_clip(p->cr);
		/*
		 * A PNG band that does not reach the plot shows none of its lines: their paths are
		 * not built at all (a dense curve costs as much on a band it misses as on one it crosses).
		 */
		if (!clip_is_empty(p->cr))
			draw_lines(p);
		cairo_restore(p->cr);
		draw_points(p);
	}
	if (error == RLI_OK)
		draw_panel_text(p);
	cairo_restore(p->cr);
	rli_lod_dispose(&p->lod);
	p->panel = NULL;
	return error;
}

static void draw_legend(painter *p, const rli_legend *legend)
{
	cairo_t *cr = p->cr;

	cairo_save(cr);
	cairo_scale(cr, p->scale, p->scale);
	draw_text(p, &legend->title);
	for (size_t s = 0; s < legend->series_count; s++) {
		const rli_rect *swatch = &legend->swatches[s];
		if (swatch->w > 0 && swatch->h > 0) {
			set_color(cr, legend->series[s].color, 1.0);
			cairo_rectangle(cr, swatch->x, swatch->y, swatch->w, swatch->h);
			cairo_fill(cr);
		}
		draw_text(p, &legend->labels[s]);
	}
	cairo_restore(cr);
}

static void draw_table(painter *p, const rli_table *table)
{
	cairo_t *cr = p->cr;
	double right = 0;

	cairo_save(cr);
	cairo_scale(cr, p->scale, p->scale);
	for (size_t c = 0; c < table->column_count; c++)
		right = fmax(right, table->column_x[c] + table->column_width[c]);
	for (size_t r = 0; r <= table->row_count; r++) {
		double top = table->y + (double)r * table->row_height;
		for (size_t c = 0; c < table->column_count; c++) {
			rli_align align = table->align[c];
			rli_text cell = {
				.text = r ? table->cells[(r - 1) * table->column_count + c] : table->header[c],
				.x = table->column_x[c] + (align == RLI_ALIGN_END ? table->column_width[c] :
							   align == RLI_ALIGN_MIDDLE ? table->column_width[c] / 2 : 0),
				.y = top + table->row_height / 2,
				.size = table->font_size,
				.bold = r == 0,
				.color = table->text_color,
				.halign = align,
				.valign = RLI_ALIGN_MIDDLE,
				.max_width = table->column_width[c],
			};
			draw_text(p, &cell);
		}
		/* A rule under the header, and a faint one under every row. */
		set_color(cr, table->rule_color, r == 0 ? 1.0 : 0.5);
		cairo_set_line_width(cr, r == 0 ? 1.0 : 0.5);
		cairo_move_to(cr, table->x, top + table->row_height);
		cairo_line_to(cr, right, top + table->row_height);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

static void draw_text_item(painter *p, const rli_text *text)
{
	cairo_save(p->cr);
	cairo_scale(p->cr, p->scale, p->scale);
	draw_text(p, text);
	cairo_restore(p->cr);
}

int rli_cairo_painter_new(rli_cairo_painter **out, cairo_t *cr, const rli_document *document,
			  const rli_paint_options *options)
{
	painter *p = calloc(1, sizeof(*p));
	int error;

	*out = NULL;
	if (!p)
		return rli_error_oom();
	p->cr = cr;
	p->document = document;
	p->scale = options->scale;
	p->lod_per_unit = options->lod_columns_per_unit > 0 ? options->lod_columns_per_unit : options->scale;
	if ((error = rli_text_context_new(&p->text)) < 0) {
		free(p);
		return error;
	}
	*out = p;
	return RLI_OK;
}

void rli_cairo_painter_free(rli_cairo_painter *p)
{
	if (!p)
		return;
	g_object_unref(p->text);
	free(p);
}

/* After each item: a context in error stays in error, so one check says whether it all drew. */
static int context_status(painter *p)
{
	if (cairo_status(p->cr) != CAIRO_STATUS_SUCCESS)
		return rli_cairo_error(cairo_status(p->cr), "drawing the page failed");
	return RLI_OK;
}

int rli_cairo_draw_background(rli_cairo_painter *p)
{
	cairo_save(p->cr);
	set_color(p->cr, p->document->background, 1.0);
	cairo_paint(p->cr);
	cairo_restore(p->cr);
	return context_status(p);
}

static int draw_figure(painter *p, const rli_figure *figure)
{
	double outer_scale = p->scale, outer_lod = p->lod_per_unit;
	double f = figure->source.w > 0 ? figure->frame.w / figure->source.w : 0;
	int error = RLI_OK;

	if (!(f > 0) || !figure->page)
		return RLI_OK;
	cairo_save(p->cr);
	cairo_rectangle(p->cr, figure->frame.x * outer_scale, figure->frame.y * outer_scale,
			figure->frame.w * outer_scale, figure->frame.h * outer_scale);
	cairo_clip(p->cr);
	/* Every item draws in page units times p->scale from the origin: move the origin, scale the unit. */
	cairo_translate(p->cr, (figure->frame.x - figure->source.x * f) * outer_scale,
			(figure->frame.y - figure->source.y * f) * outer_scale);
	p->scale = outer_scale * f;
	p->lod_per_unit = outer_lod * f;
	for (size_t i = 0; i < figure->page->item_count && error == RLI_OK; i++) {
		/* A figure inside a figure would need a stack of scales; no layout makes one. */
		if (figure->page->items[i].kind == RLI_ITEM_FIGURE)
			continue;
		error = rli_cairo_draw_item(p, &figure->page->items[i]);
	}
	p->scale = outer_scale;
	p->lod_per_unit = outer_lod;
	cairo_restore(p->cr);
	return error;
}

int rli_cairo_draw_item(rli_cairo_painter *p, const rli_item *item)
{
	int error = RLI_OK;

	/* beside the page, for a reader to open: a picture has nowhere to put it */
	if (item->placement == RLI_PLACE_ASIDE)
		return RLI_OK;
	switch (item->kind) {
	case RLI_ITEM_TEXT:
		draw_text_item(p, item->u.text);
		break;
	case RLI_ITEM_PANEL:
		error = draw_panel(p, item->u.panel);
		break;
	case RLI_ITEM_LEGEND:
		draw_legend(p, item->u.legend);
		break;
	case RLI_ITEM_TABLE:
		draw_table(p, item->u.table);
		break;
	case RLI_ITEM_NAV:
		/* links between files: a picture has nowhere to follow them */
		break;
	case RLI_ITEM_FIGURE:
		error = draw_figure(p, item->u.figure);
		break;
	default:
		return rli_error_set(RLI_ERROR, "unknown item kind %d", (int)item->kind);
	}
	return error < 0 ? error : context_status(p);
}

int rli_cairo_paint_page(cairo_t *cr, const rli_document *document, const rli_page *page,
			 const rli_paint_options *options)
{
	rli_cairo_painter *p;
	int error = rli_cairo_painter_new(&p, cr, document, options);

	if (error < 0)
		return error;
	error = rli_cairo_draw_background(p);
	for (size_t i = 0; error == RLI_OK && i < page->item_count; i++)
		error = rli_cairo_draw_item(p, &page->items[i]);
	rli_cairo_painter_free(p);
	return error;
}

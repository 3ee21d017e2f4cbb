/* cairo_paint.c: draws a laid-out timeline onto any cairo context (PNG image, PDF page). */
#include "cairo_paint.h"
#include "text/text.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RADIANS_PER_DEGREE 0.017453292519943295

int rli_lod_init(rli_lod_columns *lod, size_t column_count)
{
	memset(lod, 0, sizeof(*lod));
	lod->coverage = calloc(column_count ? column_count : 1, sizeof(*lod->coverage));
	if (!lod->coverage)
		return rli_error_oom();
	lod->column_count = column_count;
	lod->touched_lo = column_count;
	lod->touched_hi = 0;
	return RLI_OK;
}

void rli_lod_dispose(rli_lod_columns *lod)
{
	free(lod->coverage);
	memset(lod, 0, sizeof(*lod));
}

static void settle(rli_lod_columns *lod, double x0, double x1)
{
	double limit = (double)lod->column_count;
	size_t first, last;

	if (x0 < 0.0)
		x0 = 0.0;
	if (x1 > limit)
		x1 = limit;
	if (!(x1 > x0))
		return;
	first = (size_t)floor(x0);
	last = (size_t)ceil(x1); /* exclusive */
	if (last > lod->column_count)
		last = lod->column_count;
	for (size_t c = first; c < last; c++) {
		double lo = fmax(x0, (double)c), hi = fmin(x1, (double)c + 1.0);
		if (hi > lo)
			lod->coverage[c] += hi - lo;
	}
	if (first < lod->touched_lo)
		lod->touched_lo = first;
	if (last > lod->touched_hi)
		lod->touched_hi = last;
}

/*
 * Intervals arrive in start order, so their union is built as one growing
 * run: an interval that starts inside the run extends it, one that starts
 * past it closes it. Each point is therefore counted once however many bars
 * cover it, and each column receives exactly the union's length inside it.
 */
void rli_lod_add(rli_lod_columns *lod, double x0, double x1)
{
	if (!(x1 > x0))
		return;
	if (lod->run_open && x0 <= lod->run_end) {
		if (x1 > lod->run_end)
			lod->run_end = x1;
		return;
	}
	if (lod->run_open)
		settle(lod, lod->run_start, lod->run_end);
	lod->run_start = x0;
	lod->run_end = x1;
	lod->run_open = 1;
}

void rli_lod_flush(rli_lod_columns *lod)
{
	if (lod->run_open)
		settle(lod, lod->run_start, lod->run_end);
	lod->run_open = 0;
}

void rli_lod_clear(rli_lod_columns *lod)
{
	if (lod->touched_hi > lod->touched_lo)
		memset(lod->coverage + lod->touched_lo, 0,
		       (lod->touched_hi - lod->touched_lo) * sizeof(*lod->coverage));
	lod->touched_lo = lod->column_count;
	lod->touched_hi = 0;
	lod->run_open = 0;
}

/* ---- painting --------------------------------------------------------- */

int rli_cairo_error(cairo_status_t status, const char *what)
{
	if (status == CAIRO_STATUS_NO_MEMORY)
		return rli_error_set(RLI_ERROR, "%s: out of memory", what);
	return rli_error_set(RLI_EOUTPUT, "%s: %s", what, cairo_status_to_string(status));
}

typedef struct {
	cairo_t *cr;
	const rli_timeline *timeline;
	double scale;
	double units_per_ms;     /* page units per ms on the x axis */
	double lod_per_unit;     /* columns per page unit */
	double lod_origin;       /* first column, in columns from the page's left edge */
	rli_lod_columns lod;
	PangoContext *text;
} painter;

static void set_color(cairo_t *cr, rli_color color, double alpha)
{
	cairo_set_source_rgba(cr, ((color >> 16) & 0xFF) / 255.0, ((color >> 8) & 0xFF) / 255.0,
			      (color & 0xFF) / 255.0, alpha);
}

static double page_x(const painter *p, double ms)
{
	return p->timeline->plot.x + (ms - p->timeline->x_min) * p->units_per_ms;
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
	const rli_timeline *t = p->timeline;
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
	cairo_stroke(cr);
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

/* One run: the bars of one series in one row, in start order. */
static int draw_run(painter *p, size_t first, size_t last, double top, double height)
{
	const rli_timeline *t = p->timeline;
	cairo_t *cr = p->cr;
	rli_color color = t->series[t->bar_series[first]].color;
	double outline = t->bar_outline_width * p->scale;
	double min_outlined = t->bar_outline_min_size * p->scale;
	int wide = 0, outlined = 0;

	cairo_new_path(cr);
	for (size_t b = first; b < last; b++) {
		double x0 = page_x(p, t->bar_start[b]) * p->lod_per_unit - p->lod_origin;
		double x1 = page_x(p, t->bar_end[b]) * p->lod_per_unit - p->lod_origin;
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
	const rli_timeline *t = p->timeline;
	cairo_t *cr = p->cr;
	int error = RLI_OK;

	cairo_save(cr);
	cairo_rectangle(cr, t->plot.x * p->scale, t->plot.y * p->scale, t->plot.w * p->scale,
			t->plot.h * p->scale);
	cairo_clip(cr);
	for (size_t r = 0; r < t->row_count && error == RLI_OK; r++) {
		double centre = t->plot.y + ((double)r + 0.5) * t->row_pitch;
		double top = (centre - t->bar_thickness / 2) * p->scale;
		double height = t->bar_thickness * p->scale;
		size_t b = t->row_first_bar[r], end = t->row_first_bar[r + 1];
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

static void draw_decorations(painter *p)
{
	const rli_timeline *t = p->timeline;
	cairo_t *cr = p->cr;

	cairo_save(cr);
	cairo_scale(cr, p->scale, p->scale);
	for (size_t i = 0; i < t->xtick_count; i++) {
		rli_text tick = {
			.text = (char *)t->xticks[i].label,
			.x = page_x(p, t->xticks[i].value),
			.y = t->plot.y + t->plot.h + t->tick_label_gap,
			.size = t->tick_label_size,
			.color = t->text_color,
			.halign = RLI_ALIGN_MIDDLE,
			.valign = RLI_ALIGN_START,
		};
		draw_text(p, &tick);
	}
	for (size_t r = 0; r < t->row_count; r++)
		draw_text(p, &t->row_labels[r]);
	draw_text(p, &t->title);
	draw_text(p, &t->x_title);
	draw_text(p, &t->y_title);
	draw_text(p, &t->legend_title);
	for (size_t s = 0; s < t->series_count; s++) {
		const rli_rect *swatch = &t->legend_swatches[s];
		if (swatch->w > 0 && swatch->h > 0) {
			set_color(cr, t->series[s].color, 1.0);
			cairo_rectangle(cr, swatch->x, swatch->y, swatch->w, swatch->h);
			cairo_fill(cr);
		}
		draw_text(p, &t->legend_labels[s]);
	}
	cairo_restore(cr);
}

int rli_cairo_paint(cairo_t *cr, const rli_timeline *timeline, const rli_paint_options *options)
{
	painter p = { 0 };
	double right;
	size_t columns;
	int error;

	p.cr = cr;
	p.timeline = timeline;
	p.scale = options->scale;
	p.lod_per_unit = options->lod_columns_per_unit > 0 ? options->lod_columns_per_unit : options->scale;
	p.units_per_ms = timeline->x_max > timeline->x_min ?
			 timeline->plot.w / (timeline->x_max - timeline->x_min) : 0.0;
	p.lod_origin = floor(timeline->plot.x * p.lod_per_unit);
	right = ceil((timeline->plot.x + timeline->plot.w) * p.lod_per_unit);
	columns = (size_t)(right - p.lod_origin) + 1;

	if ((error = rli_text_context_new(&p.text)) < 0)
		return error;
	if ((error = rli_lod_init(&p.lod, columns)) < 0)
		goto done;

	cairo_save(cr);
	set_color(cr, timeline->background, 1.0);
	cairo_paint(cr);
	cairo_restore(cr);

	cairo_save(cr);
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
	draw_grid(&p);
	error = draw_bars(&p);
	if (error == RLI_OK)
		draw_decorations(&p);
	cairo_restore(cr);

	if (error < 0)
		goto done;
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		error = rli_cairo_error(cairo_status(cr), "drawing the timeline failed");
	else
		error = RLI_OK;

done:
	rli_lod_dispose(&p.lod);
	g_object_unref(p.text);
	return error;
}

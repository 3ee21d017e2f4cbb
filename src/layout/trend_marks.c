/* trend_marks.c: the marks a trend panel owns (lines, points, their arrays), and the pieces every value panel shares: axes, series, rings, direct labels. */
#include "memory_parts.h"
#include "trend_parts.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/numfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAND_ALPHA 0.16
#define DOT 2.6
#define LABEL_PITCH 16.0     /* direct labels at least this far apart */
#define CURRENT_COLOR TEXT_COLOR

rli_line_mark *trend_line(trend_marks *m)
{
	if (RLI_GROW(&m->lines, &m->line_capacity, m->line_count + 1, 16) < 0)
		return NULL;
	m->lines[m->line_count] = (rli_line_mark){ 0 };
	return &m->lines[m->line_count++];
}

rli_point_mark *trend_point(trend_marks *m)
{
	if (RLI_GROW(&m->points, &m->point_capacity, m->point_count + 1, 64) < 0)
		return NULL;
	m->points[m->point_count] = (rli_point_mark){ 0 };
	return &m->points[m->point_count++];
}

double *trend_array(trend_marks *m, size_t n)
{
	double *array;
	if (RLI_GROW(&m->arrays, &m->array_capacity, m->array_count + 1, 16) < 0 ||
	    !(array = calloc(n ? n : 1, sizeof(*array))))
		return NULL;
	m->arrays[m->array_count++] = array;
	return array;
}

void trend_marks_dispose(trend_marks *m)
{
	for (size_t i = 0; i < m->point_count; i++)
		free(m->points[i].label.text);
	for (size_t i = 0; i < m->array_count; i++)
		free(m->arrays[i]);
	free(m->arrays);
	free(m->points);
	free(m->lines);
	free(m->series);
	*m = (trend_marks){ 0 };
}

static int by_y(const void *pa, const void *pb)
{
	const trend_label *a = pa, *b = pb;
	return (a->y > b->y) - (a->y < b->y);
}

/* A value panel at page->y + title room: the shared x axis, a value axis over [lo, hi] labelled in its unit. */
int trend_value_axes(trend_page *page, rli_panel *panel, double top, double lo, double hi)
{
	rli_tick ticks[MAX_TICKS];
	size_t count;
	int error;
	panel->plot = (rli_rect){ page->left, top, page->right - page->left, TREND_PLOT_HEIGHT };
	if ((error = rli_memory_panel_x_axis(panel, page->xticks, page->xtick_count, page->xtick_target, -0.5,
					     (double)page->trend->count - 0.5, 1)) < 0)
		return error;
	count = rli_nice_ticks(ticks, MAX_TICKS, lo, hi, 4);
	panel->y_scale = RLI_Y_VALUES;
	panel->y_min = lo;
	panel->y_max = hi;
	if (!(panel->yticks = calloc(count ? count : 1, sizeof(*panel->yticks))))
		return rli_error_oom();
	memcpy(panel->yticks, ticks, count * sizeof(*ticks));
	panel->ytick_count = count;
	/* Large values read with their thousands apart: 60,000 MB. */
	for (size_t i = 0; i < count; i++)
		if (fabs(ticks[i].value) >= 10000)
			rli_fmt_thousands(panel->yticks[i].label, sizeof(panel->yticks[i].label), ticks[i].value, 0);
	if ((error = rli_set_text(&panel->x_title, "", 0, 0, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)) < 0)
		return error;
	return rli_set_text(&panel->y_title, "", 0, 0, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE);
}

/* [lo, hi] around the values, padded, never flat. */
int trend_add_name(const char ***names, size_t *count, size_t *capacity, const char *name)
{
	size_t at = 0;
	while (at < *count && strcmp((*names)[at], name) != 0)
		at++;
	if (at < *count)
		return RLI_OK;
	if (RLI_GROW(names, capacity, *count + 1, 8) < 0)
		return rli_error_oom();
	/* in text order as they come */
	for (at = (*count)++; at > 0 && strcmp((*names)[at - 1], name) > 0; at--)
		(*names)[at] = (*names)[at - 1];
	(*names)[at] = name;
	return RLI_OK;
}

int trend_by_text(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

int trend_ascending(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

void trend_median_range(double *values, size_t n, double *median, double *low, double *high)
{
	if (n > 1)
		qsort(values, n, sizeof(*values), trend_ascending);
	*median = n ? (n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2) : NAN;
	*low = n ? values[0] : NAN;
	*high = n ? values[n - 1] : NAN;
}

int trend_panel_done(trend_page *page, rli_panel *panel, trend_marks *m, const char *x_title, int error)
{
	if (error == RLI_OK)
		error = trend_blank_labels(m);
	panel->lines = m->lines;
	panel->line_count = m->line_count;
	panel->points = m->points;
	panel->point_count = m->point_count;
	page->y = panel->plot.y + panel->plot.h + TICK_LABEL_GAP + TICK_LABEL_SIZE + TREND_SECTION_GAP;
	if (error == RLI_OK && x_title)
		error = trend_x_title(page, panel, x_title);
	return error;
}

double trend_page_y(const rli_panel *panel, double value)
{
	return panel->plot.y + panel->plot.h - (value - panel->y_min) / (panel->y_max - panel->y_min) * panel->plot.h;
}

void trend_padded(double *lo, double *hi)
{
	double span = *hi - *lo, floor_span = fmax(fabs(*hi) * 0.05, 1e-6);
	if (!(span > floor_span)) {
		double middle = (*lo + *hi) / 2;
		*lo = middle - floor_span / 2;
		*hi = middle + floor_span / 2;
		span = floor_span;
	}
	*lo -= 0.12 * span;
	*hi += 0.12 * span;
	if (*lo < 0 && *lo + 0.12 * span >= 0)
		*lo = 0; /* no axis below zero for values that never are */
}

/*
 * A series of values over the points (NAN where a point has none) as line marks: a segment a
 * stretch of points that have it, a band from low to high when given, a dot a point.
 */
int trend_series_marks(trend_marks *m, const double *value, const double *low, const double *high, size_t n,
			rli_color color, double width)
{
	for (size_t start = 0; start < n;) {
		size_t end = start;
		rli_line_mark *band = NULL, *line;
		double *x, *y, *y_low = NULL, *y_high = NULL;
		if (!isfinite(value[start])) {
			start++;
			continue;
		}
		while (end < n && isfinite(value[end]))
			end++;
		if (!(x = trend_array(m, end - start)) || !(y = trend_array(m, end - start)))
			return rli_error_oom();
		if (low && (!(y_low = trend_array(m, end - start)) || !(y_high = trend_array(m, end - start))))
			return rli_error_oom();
		for (size_t i = start; i < end; i++) {
			x[i - start] = (double)i;
			y[i - start] = value[i];
			if (low) {
				y_low[i - start] = isfinite(low[i]) ? low[i] : value[i];
				y_high[i - start] = isfinite(high[i]) ? high[i] : value[i];
			}
		}
		if (low) {
			if (!(band = trend_line(m)))
				return rli_error_oom();
			*band = (rli_line_mark){ .count = end - start, .x = x, .y = y_high, .y_low = y_low, .color = color,
						 .width = 0, .fill_alpha = BAND_ALPHA };
		}
		if (!(line = trend_line(m)))
			return rli_error_oom();
		*line = (rli_line_mark){ .count = end - start, .x = x, .y = y, .color = color, .width = width };
		start = end;
	}
	return RLI_OK;
}

/* A dot, and under it the rings that mark this run (dark) and a regression (red). */
int trend_mark_point(trend_marks *m, double x, double y, rli_color color, int current, int regressed)
{
	rli_point_mark *p;
	if (current || regressed) {
		/* A ring: a disc, a white one inside it, the dot on top; a regression's wider and red. */
		double outer = (current ? 8.0 : 6.5) + (regressed ? 1.5 : 0), ring = regressed ? 3.2 : 2.2;
		if (!(p = trend_point(m)))
			return rli_error_oom();
		*p = (rli_point_mark){ .x = x, .y = y, .color = regressed ? REGRESSION_COLOR : CURRENT_COLOR, .radius = outer };
		if (!(p = trend_point(m)))
			return rli_error_oom();
		*p = (rli_point_mark){ .x = x, .y = y, .color = WHITE, .radius = outer - ring };
	}
	if (!(p = trend_point(m)))
		return rli_error_oom();
	*p = (rli_point_mark){ .x = x, .y = y, .color = color, .radius = current ? DOT + 0.9 : DOT };
	return RLI_OK;
}

/* Every point's label empty: the back-ends draw a point's label, and these have none. */
int trend_blank_labels(trend_marks *m)
{
	for (size_t i = 0; i < m->point_count; i++)
		if (!m->points[i].label.text) {
			int error = rli_set_text(&m->points[i].label, "", 0, 0, TICK_LABEL_SIZE, RLI_ALIGN_START, RLI_ALIGN_MIDDLE);
			if (error < 0)
				return error;
		}
	return RLI_OK;
}

/* Names at the right of the plot, moved apart where they would overlap and kept within the plot. */
int trend_direct_labels(trend_page *page, const rli_panel *panel, trend_label *labels, size_t n)
{
	double top = panel->plot.y + 6, bottom = panel->plot.y + panel->plot.h - 6;
	qsort(labels, n, sizeof(*labels), by_y);
	for (size_t i = 0; i < n; i++) {
		if (labels[i].y < top)
			labels[i].y = top;
		if (i && labels[i].y < labels[i - 1].y + LABEL_PITCH)
			labels[i].y = labels[i - 1].y + LABEL_PITCH;
	}
	for (size_t i = n; i-- > 0;) {
		double limit = i + 1 < n ? labels[i + 1].y - LABEL_PITCH : bottom;
		if (labels[i].y > limit)
			labels[i].y = limit;
	}
	/* each label in its line's colour, darkened where that would not read on white */
	for (size_t i = 0; i < n; i++)
		if (!trend_text(page, labels[i].text, panel->plot.x + panel->plot.w + 10, labels[i].y, TREND_NOTE_SIZE, 0,
				rli_text_color_on_white(labels[i].color), RLI_ALIGN_START, RLI_ALIGN_MIDDLE, page->width - PAGE_PAD - panel->plot.x -
				panel->plot.w - 10))
			return RLI_ERROR;
	return RLI_OK;
}

int trend_x_title(trend_page *page, rli_panel *panel, const char *x_title)
{
	double y = panel->plot.y + panel->plot.h + TICK_LABEL_GAP + TICK_LABEL_SIZE + X_TITLE_GAP;
	double w = fmin(trend_text_width(page, x_title, AXIS_TITLE_SIZE, 0), page->width - 2 * PAGE_PAD);
	double x = fmin(fmax(page->left + (page->right - page->left) / 2, PAGE_PAD + w / 2), page->width - PAGE_PAD - w / 2);
	int error;
	free(panel->x_title.text);
	panel->x_title.text = NULL;
	if ((error = rli_set_text(&panel->x_title, x_title, x, y, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)) < 0)
		return error;
	panel->x_title.max_width = page->width - 2 * PAGE_PAD;
	page->y = y + AXIS_TITLE_SIZE + 8;
	return RLI_OK;
}

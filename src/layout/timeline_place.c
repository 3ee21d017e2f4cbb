/* timeline_place.c: where the timeline figure's parts go on its page, in a style's geometry. */
#include "timeline_place.h"
#include "medium.h"
#include "text_place.h"
#include "text/text.h"
#include "common/error.h"
#include "common/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The PDF's page limit (14,400 units a side): a vector page is no taller. */
#define VECTOR_MAX_PAGE 14400.0

/* A row label's height with both fonts in the sample, so a CJK label's taller line is allowed for. */
static double row_label_height(PangoContext *text, const timeline_theme *theme)
{
	double w, h;
	rli_text_measure(&w, &h, text, "Rank 0 \xe6\x9b\xb4", theme->row_label_size, 0);
	return h;
}

/* The page height the style and the medium allow: past it rows get closer than their labels. */
static double tallest_page(const timeline_theme *theme, double width, double scale, rli_medium medium)
{
	double height = medium == RLI_MEDIUM_RASTER ? INFINITY : VECTOR_MAX_PAGE, raster_scale;
	if (medium == RLI_MEDIUM_RASTER)
		rli_fit_medium(&height, &raster_scale, width, scale, medium);
	return theme->max_page_height > 0 ? fmin(height, theme->max_page_height) : height;
}

/* What the tick labels and the x title take under the plot, when the style does not fix it. */
static double bottom_margin(const timeline_theme *theme, double tick_height, double x_title_height)
{
	if (theme->margin_bottom > 0)
		return theme->margin_bottom;
	return theme->tick_label_gap + tick_height + theme->x_title_gap + x_title_height + theme->page_pad;
}

/* The heights a page's rows and what is under them are made of, measured once for all who size the page. */
typedef struct {
	double tick, x_title, row_label; /* a tick label's, the x title's, a row label's */
	double bottom;                   /* under the plot, with no legend there */
} page_measures;

static void measure_page(page_measures *m, PangoContext *text, const timeline_theme *theme)
{
	double w;
	rli_text_measure(&w, &m->x_title, text, "Time (ms)", theme->axis_title_size, 0);
	rli_text_measure(&w, &m->tick, text, "0123456789", theme->tick_label_size, 0);
	m->row_label = row_label_height(text, theme);
	m->bottom = bottom_margin(theme, m->tick, m->x_title);
}

int rli_timeline_readable_rows(size_t *out, const timeline_theme *theme, double width, double scale,
			       rli_medium medium)
{
	PangoContext *text = NULL;
	page_measures m;
	double room;
	int error;

	if ((error = rli_text_context_new(&text)) < 0)
		return error;
	measure_page(&m, text, theme);
	room = tallest_page(theme, width, scale, medium) - theme->margin_top - m.bottom;
	*out = room > 0 ? (size_t)floor(room / m.row_label) : 0;
	g_object_unref(text);
	return RLI_OK;
}

/* The page's height for the rows, between the style's floor and what the medium allows. */
static double page_height(const timeline_theme *theme, size_t rows, double label_height, double bottom)
{
	double pitch = theme->units_per_row > 0 ? theme->units_per_row : label_height + theme->row_text_pad;
	return fmax(theme->min_page_height, pitch * (double)rows + theme->margin_top + bottom);
}

int rli_timeline_least_height(double *out, const rli_timeline *timeline, const timeline_theme *theme)
{
	PangoContext *text = NULL;
	page_measures m;
	int error;

	if ((error = rli_text_context_new(&text)) < 0)
		return error;
	/* The measures rli_timeline_place takes, so the height is the one it would give. */
	measure_page(&m, text, theme);
	*out = page_height(theme, timeline->panel.row_count, m.row_label, m.bottom);
	g_object_unref(text);
	return RLI_OK;
}

double rli_timeline_set_page(rli_timeline *timeline, const timeline_theme *theme, double width, double height,
			     double scale, rli_medium medium)
{
	rli_fit_medium(&height, &timeline->document.raster_scale, width, scale, medium);
	timeline->page.width = width;
	timeline->page.height = height;
	timeline->document.scale = (int)ceil(scale);
	timeline->document.units_per_inch = theme->units_per_inch;
	timeline->document.background = WHITE;
	timeline->document.text_color = TEXT_COLOR;
	timeline->document.font_family = RLI_TEXT_FAMILY;
	return height;
}

/* The figure's title: an epoch clock's origin is a moment a reader can place; another clock's only a number. */
static void title_text(char *out, size_t size, double origin)
{
	char utc[64];
	if (rli_is_epoch_ms(origin))
		snprintf(out, size, "RL Timeline (t = 0 at %s)", rli_fmt_utc(utc, sizeof(utc), origin));
	else
		snprintf(out, size, "RL Timeline (Relative Time, Origin = %.3f ms)", origin);
}

int rli_timeline_place_title(rli_timeline *timeline, PangoContext *text, const timeline_theme *theme, double width)
{
	double title_width, h, title_size = theme->title_size;
	char title[128];
	int error;

	/* A title wider than the page gets a smaller font, down to a floor, then an ellipsis. */
	title_text(title, sizeof(title), timeline->document.origin);
	rli_text_measure(&title_width, &h, text, title, theme->title_size, 0);
	if (title_width > width - 2 * theme->page_pad)
		title_size = fmax(theme->min_title_size,
				  floor(theme->title_size * (width - 2 * theme->page_pad) / title_width));
	if ((error = rli_set_text(&timeline->title, title, width / 2, theme->margin_top / 2, title_size,
				  RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		return error;
	if (title_size < theme->title_size)
		timeline->title.max_width = width - 2 * theme->page_pad;
	/*
	 * On screen, a clock without an epoch is said in words: the page shows times from the run's
	 * first event, and a raw origin in ms means nothing to a reader there (print keeps the
	 * reference's title, timeline.md).
	 */
	timeline->document.screen_title =
		rli_is_epoch_ms(timeline->document.origin) ? NULL : "RL Timeline (t = 0 at the run\xe2\x80\x99s first event)";
	return RLI_OK;
}

/* The legend's entries, beside the plot (middle-anchored at its right edge) or under the x title. */
static int place_legend(rli_timeline *timeline, const timeline_theme *theme, const legend_plan *legend,
			double x_title_height)
{
	size_t series = timeline->series_count;
	double legend_x, legend_top;
	int error;

	if (legend->below) {
		/* Under the x title, from the page's left pad, entries in reading order. */
		legend_x = theme->page_pad;
		legend_top = timeline->panel.x_title.y + x_title_height + theme->legend_below_gap;
	} else {
		legend_x = timeline->panel.plot.x + timeline->panel.plot.w + theme->legend_gap;
		legend_top = timeline->panel.plot.y + timeline->panel.plot.h / 2 -
			     (theme->legend_line + theme->legend_line * (double)(legend->shown < legend->per_column ?
			      legend->shown : legend->per_column)) / 2;
		legend_top = fmax(theme->page_pad, legend_top);
	}
	if ((error = rli_set_text(&timeline->legend.title, legend->shown ? "Task Type" : "", legend_x,
				  legend_top + theme->legend_line / 2, theme->legend_size,
				  RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
		return error;
	timeline->legend.swatches = calloc(series ? series : 1, sizeof(*timeline->legend.swatches));
	timeline->legend.labels = calloc(series ? series : 1, sizeof(*timeline->legend.labels));
	if (!timeline->legend.swatches || !timeline->legend.labels)
		return rli_error_oom();
	for (size_t s = 0; s < series; s++) {
		/* Beside: down each column first; below: across each line first. */
		size_t column = legend->below ? s % legend->columns : s / legend->per_column;
		size_t line = legend->below ? s / legend->columns : s % legend->per_column;
		double x = legend_x + (double)column * (legend->entry_width + theme->legend_column_gap);
		double y = legend_top + theme->legend_line * (double)(line + 1) + theme->legend_line / 2;
		char more[64];
		const char *label = timeline->series[s].name;
		int has_swatch = 1;

		/* Entries past the room left are not shown: empty text, zero swatch. */
		if (s + 1 == legend->shown && legend->shown < series) {
			snprintf(more, sizeof(more), "\xe2\x80\xa6 %zu more", series - legend->shown + 1);
			label = more;
			has_swatch = 0;
		} else if (s >= legend->shown) {
			label = "";
			has_swatch = 0;
		}
		if (has_swatch) {
			timeline->legend.swatches[s].x = x;
			timeline->legend.swatches[s].y = y - theme->legend_swatch_h / 2;
			timeline->legend.swatches[s].w = theme->legend_swatch_w;
			timeline->legend.swatches[s].h = theme->legend_swatch_h;
		}
		if ((error = rli_set_text(&timeline->legend.labels[s], label,
					  x + theme->legend_swatch_w + theme->legend_text_gap, y, theme->legend_size,
					  RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
			return error;
		timeline->legend.labels[s].max_width = legend->max_text;
	}
	return RLI_OK;
}

/* Row labels, thinned to every k-th row where rows are closer than a label is tall. Sets *label_width. */
static int place_row_labels(rli_timeline *timeline, PangoContext *text, const timeline_theme *theme,
			    double max_label_width, double *label_width)
{
	size_t rows = timeline->panel.row_count, label_every = 1;
	double label_height = row_label_height(text, theme), w, h;
	int error;

	if (timeline->panel.row_pitch < label_height)
		label_every = (size_t)ceil(label_height / timeline->panel.row_pitch);
	timeline->panel.row_labels = calloc(rows ? rows : 1, sizeof(*timeline->panel.row_labels));
	if (!timeline->panel.row_labels)
		return rli_error_oom();
	*label_width = 0.0;
	for (size_t r = 0; r < rows; r++) {
		const char *label = r % label_every == 0 ? timeline->panel.rows[r].label : "";
		if ((error = rli_set_text(&timeline->panel.row_labels[r], label, 0, 0, theme->row_label_size,
					  RLI_ALIGN_END, RLI_ALIGN_MIDDLE)) < 0)
			return error;
		timeline->panel.row_labels[r].max_width = max_label_width;
		if (*label) {
			rli_text_measure(&w, &h, text, label, theme->row_label_size, 0);
			*label_width = fmax(*label_width, fmin(w, max_label_width));
		}
	}
	return RLI_OK;
}

/* The x axis: ticks in the unit the span needs, and the title naming it. */
static int place_x_axis(rli_timeline *timeline, const timeline_theme *theme, double tick_height)
{
	rli_panel *panel = &timeline->panel;
	rli_tick ticks[MAX_TICKS];
	rli_time_unit unit;
	char x_title[32];

	/* From the first bar (0 but where the run's t = 0 is earlier) to a little past the last. */
	panel->x_min = panel->bar_count ? INFINITY : 0.0;
	panel->x_max = 0.0;
	for (size_t i = 0; i < panel->bar_count; i++) {
		panel->x_min = fmin(panel->x_min, panel->bar_start[i]);
		panel->x_max = fmax(panel->x_max, panel->bar_end[i]);
	}
	if (panel->x_min < 0.0)
		panel->x_min = 0.0;
	panel->x_max = panel->x_min + (panel->x_max - panel->x_min) * X_RANGE_PAD;
	panel->xtick_target = (int)fmax(2.0, round(panel->plot.w / theme->tick_spacing));
	panel->xtick_max = MAX_TICKS;
	unit = rli_time_unit_for(panel->x_max - panel->x_min);
	panel->xtick_count = rli_time_ticks(ticks, MAX_TICKS, panel->x_min, panel->x_max, panel->xtick_target,
					    unit.ms);
	panel->xticks = calloc(panel->xtick_count ? panel->xtick_count : 1, sizeof(*panel->xticks));
	if (!panel->xticks)
		return rli_error_oom();
	memcpy(panel->xticks, ticks, panel->xtick_count * sizeof(*ticks));
	panel->grid_color = GRID_COLOR;
	panel->grid_width = theme->grid_width;
	panel->tick_label_size = theme->tick_label_size;
	panel->tick_label_gap = theme->tick_label_gap;
	snprintf(x_title, sizeof(x_title), "Time (%s)", unit.name);
	return rli_set_text(&panel->x_title, x_title, panel->plot.x + panel->plot.w / 2,
			    panel->plot.y + panel->plot.h + theme->tick_label_gap + tick_height + theme->x_title_gap,
			    theme->axis_title_size, RLI_ALIGN_MIDDLE, RLI_ALIGN_START);
}

int rli_timeline_place(rli_timeline *timeline, const timeline_theme *theme, double width, double scale,
		       rli_medium medium, int legend_shown)
{
	PangoContext *text = NULL;
	rli_panel *panel = &timeline->panel;
	size_t rows = panel->row_count, series = legend_shown ? timeline->series_count : 0;
	double height, bottom, label_width = 0.0, y_title_height;
	double max_label_width = theme->label_share * width, widest_any_label = 0.0;
	double legend_title_height, left, right, w, h;
	page_measures m;
	legend_plan legend = { 0 };
	int error;

	if ((error = rli_text_context_new(&text)) < 0)
		return error;

	y_title_height = 0.0;
	if (!theme->no_y_title)
		rli_text_measure(&w, &y_title_height, text, "Module - Rank", theme->axis_title_size, 0);
	measure_page(&m, text, theme);
	rli_text_measure(&legend.title_width, &legend_title_height, text, "Task Type", theme->legend_size, 0);
	for (size_t s = 0; s < series; s++) {
		rli_text_measure(&w, &h, text, timeline->series[s].name, theme->legend_size, 0);
		legend.widest_entry = fmax(legend.widest_entry, w);
	}
	for (size_t r = 0; r < rows; r++) {
		rli_text_measure(&w, &h, text, panel->rows[r].label, theme->row_label_size, 0);
		widest_any_label = fmax(widest_any_label, w);
	}

	/*
	 * The legend goes beside the plot, as the reference's does, unless the
	 * style puts it below or that would leave the plot less than
	 * MIN_PLOT_SHARE of a narrow page: then it goes below, where the names
	 * have the page's width. A legend left out takes no room at all.
	 */
	bottom = m.bottom;
	height = page_height(theme, rows, m.row_label, bottom);
	right = fmax(fmin(theme->margin_right, 0.05 * width), theme->page_pad);
	if (series)
		right = rli_plan_legend_beside(&legend, theme, series, width, height);
	left = theme->page_pad + y_title_height + theme->y_title_gap + fmin(widest_any_label, max_label_width) +
	       theme->row_label_gap;
	if (series && (theme->legend_below ||
		       width - fmax(fmin(theme->margin_left, 0.2 * width), left) - right < MIN_PLOT_SHARE * width)) {
		bottom += rli_plan_legend_below(&legend, theme, series, width);
		height = page_height(theme, rows, m.row_label, bottom);
		right = fmax(fmin(theme->margin_right, 0.05 * width), theme->page_pad);
	}

	/*
	 * A raster image cannot exceed 32767 device pixels a side. A wide page
	 * is drawn at a smaller scale; past that the page stops growing and the
	 * rows get closer. Labels are then thinned to every k-th row so that no
	 * two overlap (the bars all stay). A vector medium has no such limit.
	 */
	height = rli_timeline_set_page(timeline, theme, width, height, scale, medium);
	panel->plot.y = theme->margin_top;
	panel->plot.h = height - theme->margin_top - bottom;
	panel->row_pitch = panel->plot.h / (double)rows;
	panel->bar_thickness = BAR_FRACTION_OF_PITCH * panel->row_pitch;
	panel->bar_outline = WHITE;
	panel->bar_outline_width = theme->bar_outline_width;
	panel->bar_outline_min_size = OUTLINE_MIN_BAR_RATIO * theme->bar_outline_width;

	if ((error = place_row_labels(timeline, text, theme, max_label_width, &label_width)) < 0)
		goto done;
	/* The reference's margins at its 2000-unit width; narrower pages keep them in proportion. */
	left = fmax(fmin(theme->margin_left, 0.2 * width),
		    theme->page_pad + y_title_height + theme->y_title_gap + label_width + theme->row_label_gap);
	panel->plot.x = left;
	panel->plot.w = width - left - right;
	if (panel->plot.w < MIN_PLOT_SHARE * width) {
		error = rli_error_set(RLI_EUSAGE, "the page is too narrow (%g) for these labels", width);
		goto done;
	}
	for (size_t r = 0; r < rows; r++) {
		panel->row_labels[r].x = left - theme->row_label_gap;
		panel->row_labels[r].y = panel->plot.y + (r + 0.5) * panel->row_pitch;
	}

	if ((error = place_x_axis(timeline, theme, m.tick)) < 0 ||
	    (error = rli_timeline_place_title(timeline, text, theme, width)) < 0 ||
	    (error = rli_set_text(&panel->y_title, theme->no_y_title ? "" : "Module - Rank",
				  left - theme->row_label_gap - label_width - theme->y_title_gap - y_title_height / 2,
				  panel->plot.y + panel->plot.h / 2, theme->axis_title_size,
				  RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	panel->y_title.angle = 90.0;
	if (!series) {
		/* Left out: every entry empty, as entries past the room are. */
		legend.shown = 0;
		legend.columns = legend.per_column = 1;
	}
	error = place_legend(timeline, theme, &legend, m.x_title);

done:
	g_object_unref(text);
	return error;
}

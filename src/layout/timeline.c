/* timeline.c: the timeline figure: options, page geometry, and the layout entry point. */
#include "layout.h"
#include "theme.h"
#include "medium.h"
#include "text_place.h"
#include "timeline_bars.h"
#include "timeline_stats.h"
#include "events/events.h"
#include "text/text.h"
#include "common/error.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rli_timeline_options_init(rli_timeline_options *options)
{
	options->width = 2000;
	options->scale = 2;
	options->merge_short_ms = 0.0;
	options->medium = RLI_MEDIUM_RASTER;
}

double rli_document_raster_scale(const rli_document *document)
{
	return document->raster_scale;
}

const rli_document *rli_timeline_document(const rli_timeline *timeline)
{
	return &timeline->document;
}

/* The figure as a document: one page of the title, the panel and the legend, in reading order. */
static void assemble(rli_timeline *timeline)
{
	timeline->panel.series = timeline->series;
	timeline->panel.series_count = timeline->series_count;
	timeline->legend.series = timeline->series;
	timeline->legend.series_count = timeline->series_count;
	timeline->items[0].kind = RLI_ITEM_TEXT;
	timeline->items[0].u.text = &timeline->title;
	timeline->items[1].kind = RLI_ITEM_PANEL;
	timeline->items[1].u.panel = &timeline->panel;
	timeline->items[2].kind = RLI_ITEM_LEGEND;
	timeline->items[2].u.legend = &timeline->legend;
	timeline->page.items = timeline->items;
	timeline->page.item_count = sizeof(timeline->items) / sizeof(timeline->items[0]);
	timeline->document.name = "rl_timeline";
	timeline->document.title = timeline->title.text;
	timeline->document.pages = &timeline->page;
	timeline->document.page_count = 1;
}

/* ---- the model -------------------------------------------------------- */

void rli_timeline_free(rli_timeline *timeline)
{
	if (!timeline)
		return;
	rli_panel_dispose(&timeline->panel);
	rli_timeline_aside_free(timeline->aside);
	for (size_t s = 0; s < timeline->series_count; s++) {
		if (timeline->series)
			free(timeline->series[s].name);
		if (timeline->legend.labels)
			free(timeline->legend.labels[s].text);
	}
	free(timeline->series);
	free(timeline->title.text);
	free(timeline->legend.title.text);
	free(timeline->legend.swatches);
	free(timeline->legend.labels);
	free(timeline);
}

/*
 * Places everything a reader sees. Row labels and legend names are measured
 * with the bundled fonts so long names widen the margins instead of running
 * off the page.
 */
static int place(rli_timeline *timeline, double width, int scale, rli_medium medium)
{
	PangoContext *text = NULL;
	size_t rows = timeline->panel.row_count, series = timeline->series_count;
	double height, bottom, label_width = 0.0, label_height, y_title_height, tick_height;
	double x_title_height, max_label_width = 0.3 * width, widest_any_label = 0.0;
	double legend_title_height, left, right, legend_x, legend_top, w, h;
	double title_width, title_size = TITLE_SIZE;
	size_t label_every = 1;
	legend_plan legend = { 0 };
	rli_tick ticks[MAX_TICKS];
	char title[128];
	int error;

	if ((error = rli_text_context_new(&text)) < 0)
		return error;

	rli_text_measure(&w, &y_title_height, text, "Module - Rank", AXIS_TITLE_SIZE, 0);
	rli_text_measure(&w, &x_title_height, text, "Time (ms)", AXIS_TITLE_SIZE, 0);
	rli_text_measure(&legend.title_width, &legend_title_height, text, "Task Type", LEGEND_SIZE, 0);
	for (size_t s = 0; s < series; s++) {
		rli_text_measure(&w, &h, text, timeline->series[s].name, LEGEND_SIZE, 0);
		legend.widest_entry = fmax(legend.widest_entry, w);
	}
	for (size_t r = 0; r < rows; r++) {
		rli_text_measure(&w, &h, text, timeline->panel.rows[r].label, ROW_LABEL_SIZE, 0);
		widest_any_label = fmax(widest_any_label, w);
	}

	/*
	 * The legend goes beside the plot, as the reference's does, unless that
	 * would leave the plot less than MIN_PLOT_SHARE of a narrow page: then
	 * it goes below, where the names have the page's width.
	 */
	bottom = MARGIN_BOTTOM;
	height = fmax(MIN_PAGE_HEIGHT, PAGE_UNITS_PER_ROW * (double)rows + MARGIN_TOP + bottom);
	right = rli_plan_legend_beside(&legend, series, width, height);
	left = PAGE_PAD + y_title_height + Y_TITLE_GAP + fmin(widest_any_label, max_label_width) + ROW_LABEL_GAP;
	if (width - fmax(fmin(MARGIN_LEFT, 0.2 * width), left) - right < MIN_PLOT_SHARE * width) {
		bottom += rli_plan_legend_below(&legend, series, width);
		height = fmax(MIN_PAGE_HEIGHT, PAGE_UNITS_PER_ROW * (double)rows + MARGIN_TOP + bottom);
	}

	/*
	 * A raster image cannot exceed 32767 device pixels a side. A wide page
	 * is drawn at a smaller scale; past that the page stops growing and the
	 * rows get closer. Labels are then thinned to every k-th row so that no
	 * two overlap (the bars all stay). A vector medium has no such limit.
	 */
	rli_fit_medium(&height, &timeline->document.raster_scale, width, scale, medium);
	timeline->page.width = width;
	timeline->page.height = height;
	timeline->document.scale = scale;
	timeline->document.background = WHITE;
	timeline->document.text_color = TEXT_COLOR;
	timeline->document.font_family = RLI_TEXT_FAMILY;
	timeline->panel.plot.y = MARGIN_TOP;
	timeline->panel.plot.h = height - MARGIN_TOP - bottom;
	timeline->panel.row_pitch = timeline->panel.plot.h / (double)rows;
	timeline->panel.bar_thickness = BAR_FRACTION_OF_PITCH * timeline->panel.row_pitch;
	timeline->panel.bar_outline = WHITE;
	timeline->panel.bar_outline_width = BAR_OUTLINE_WIDTH;
	timeline->panel.bar_outline_min_size = OUTLINE_MIN_BAR_RATIO * BAR_OUTLINE_WIDTH;

	/* Both fonts in the sample, so a CJK label's taller line is allowed for. */
	rli_text_measure(&w, &label_height, text, "Rank 0 \xe6\x9b\xb4", ROW_LABEL_SIZE, 0);
	if (timeline->panel.row_pitch < label_height)
		label_every = (size_t)ceil(label_height / timeline->panel.row_pitch);
	timeline->panel.row_labels = calloc(rows, sizeof(*timeline->panel.row_labels));
	if (!timeline->panel.row_labels) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t r = 0; r < rows; r++) {
		const char *label = r % label_every == 0 ? timeline->panel.rows[r].label : "";
		if ((error = rli_set_text(&timeline->panel.row_labels[r], label, 0, 0, ROW_LABEL_SIZE,
				      RLI_ALIGN_END, RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		timeline->panel.row_labels[r].max_width = max_label_width;
		if (*label) {
			rli_text_measure(&w, &h, text, label, ROW_LABEL_SIZE, 0);
			label_width = fmax(label_width, fmin(w, max_label_width));
		}
	}
	/* The reference's margins at its 2000-unit width; narrower pages keep them in proportion. */
	left = fmax(fmin(MARGIN_LEFT, 0.2 * width),
		    PAGE_PAD + y_title_height + Y_TITLE_GAP + label_width + ROW_LABEL_GAP);
	if (legend.below)
		right = fmax(fmin(MARGIN_RIGHT, 0.05 * width), PAGE_PAD);

	timeline->panel.plot.x = left;
	timeline->panel.plot.w = width - left - right;
	if (timeline->panel.plot.w < MIN_PLOT_SHARE * width) {
		error = rli_error_set(RLI_EUSAGE, "the page is too narrow (%g) for these labels", width);
		goto done;
	}

	for (size_t r = 0; r < rows; r++) {
		timeline->panel.row_labels[r].x = left - ROW_LABEL_GAP;
		timeline->panel.row_labels[r].y = timeline->panel.plot.y + (r + 0.5) * timeline->panel.row_pitch;
	}

	/* Axes. */
	timeline->panel.x_min = 0.0;
	timeline->panel.x_max = 0.0;
	for (size_t i = 0; i < timeline->panel.bar_count; i++)
		timeline->panel.x_max = fmax(timeline->panel.x_max, timeline->panel.bar_end[i]);
	timeline->panel.x_max *= X_RANGE_PAD;
	timeline->panel.xtick_target = (int)fmax(2.0, round(timeline->panel.plot.w / TICK_SPACING));
	timeline->panel.xtick_max = MAX_TICKS;
	timeline->panel.xtick_count = rli_nice_ticks(ticks, MAX_TICKS, timeline->panel.x_min, timeline->panel.x_max,
					       timeline->panel.xtick_target);
	timeline->panel.xticks = calloc(timeline->panel.xtick_count ? timeline->panel.xtick_count : 1,
				  sizeof(*timeline->panel.xticks));
	if (!timeline->panel.xticks) {
		error = rli_error_oom();
		goto done;
	}
	memcpy(timeline->panel.xticks, ticks, timeline->panel.xtick_count * sizeof(*ticks));
	timeline->panel.grid_color = GRID_COLOR;
	timeline->panel.grid_width = 1.0;
	timeline->panel.tick_label_size = TICK_LABEL_SIZE;
	timeline->panel.tick_label_gap = TICK_LABEL_GAP;
	rli_text_measure(&w, &tick_height, text, "0123456789", TICK_LABEL_SIZE, 0);

	/* A title wider than the page gets a smaller font, down to a floor, then an ellipsis. */
	snprintf(title, sizeof(title), "RL Timeline (Relative Time, Origin = %.3f ms)", timeline->document.origin);
	rli_text_measure(&title_width, &h, text, title, TITLE_SIZE, 0);
	if (title_width > width - 2 * PAGE_PAD)
		title_size = fmax(MIN_TITLE_SIZE, floor(TITLE_SIZE * (width - 2 * PAGE_PAD) / title_width));
	if ((error = rli_set_text(&timeline->title, title, width / 2, MARGIN_TOP / 2, title_size,
			      RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	if (title_size < TITLE_SIZE)
		timeline->title.max_width = width - 2 * PAGE_PAD;
	if ((error = rli_set_text(&timeline->panel.x_title, "Time (ms)",
			      timeline->panel.plot.x + timeline->panel.plot.w / 2,
			      timeline->panel.plot.y + timeline->panel.plot.h + TICK_LABEL_GAP + tick_height + X_TITLE_GAP,
			      AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)) < 0)
		goto done;
	if ((error = rli_set_text(&timeline->panel.y_title, "Module - Rank",
			      left - ROW_LABEL_GAP - label_width - Y_TITLE_GAP - y_title_height / 2,
			      timeline->panel.plot.y + timeline->panel.plot.h / 2,
			      AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	timeline->panel.y_title.angle = 90.0;

	if (legend.below) {
		/* Under the x title, from the page's left pad, entries in reading order. */
		legend_x = PAGE_PAD;
		legend_top = timeline->panel.x_title.y + x_title_height + LEGEND_BELOW_GAP;
	} else {
		/* Middle-anchored at the plot's right edge. */
		legend_x = timeline->panel.plot.x + timeline->panel.plot.w + LEGEND_GAP;
		legend_top = timeline->panel.plot.y + timeline->panel.plot.h / 2 -
			     (LEGEND_LINE + LEGEND_LINE * (double)(legend.shown < legend.per_column ?
			      legend.shown : legend.per_column)) / 2;
		legend_top = fmax(PAGE_PAD, legend_top);
	}
	if ((error = rli_set_text(&timeline->legend.title, "Task Type", legend_x,
			      legend_top + LEGEND_LINE / 2, LEGEND_SIZE,
			      RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	timeline->legend.swatches = calloc(series, sizeof(*timeline->legend.swatches));
	timeline->legend.labels = calloc(series, sizeof(*timeline->legend.labels));
	if (!timeline->legend.swatches || !timeline->legend.labels) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t s = 0; s < series; s++) {
		/* Beside: down each column first; below: across each line first. */
		size_t column = legend.below ? s % legend.columns : s / legend.per_column;
		size_t line = legend.below ? s / legend.columns : s % legend.per_column;
		double x = legend_x + (double)column * (legend.entry_width + LEGEND_COLUMN_GAP);
		double y = legend_top + LEGEND_LINE * (double)(line + 1) + LEGEND_LINE / 2;
		char more[64];
		const char *label = timeline->series[s].name;
		int has_swatch = 1;

		/* Entries past the room left are not shown: empty text, zero swatch. */
		if (s + 1 == legend.shown && legend.shown < series) {
			snprintf(more, sizeof(more), "\xe2\x80\xa6 %zu more", series - legend.shown + 1);
			label = more;
			has_swatch = 0;
		} else if (s >= legend.shown) {
			label = "";
			has_swatch = 0;
		}
		if (has_swatch) {
			timeline->legend.swatches[s].x = x;
			timeline->legend.swatches[s].y = y - LEGEND_SWATCH_H / 2;
			timeline->legend.swatches[s].w = LEGEND_SWATCH_W;
			timeline->legend.swatches[s].h = LEGEND_SWATCH_H;
		}
		if ((error = rli_set_text(&timeline->legend.labels[s], label,
				      x + LEGEND_SWATCH_W + LEGEND_TEXT_GAP, y, LEGEND_SIZE,
				      RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		timeline->legend.labels[s].max_width = legend.max_text;
	}
	error = RLI_OK;

done:
	if (text)
		g_object_unref(text);
	return error;
}

static int check_options(const rli_timeline_options *options)
{
	if (options->width < RLI_TIMELINE_MIN_WIDTH || options->width > RLI_TIMELINE_MAX_WIDTH)
		return rli_error_set(RLI_EUSAGE, "timeline width %d is outside %d..%d", options->width,
				     RLI_TIMELINE_MIN_WIDTH, RLI_TIMELINE_MAX_WIDTH);
	if (options->scale < 1 || options->scale > RLI_TIMELINE_MAX_SCALE)
		return rli_error_set(RLI_EUSAGE, "timeline scale %d is outside 1..%d", options->scale,
				     RLI_TIMELINE_MAX_SCALE);
	if (options->medium != RLI_MEDIUM_RASTER && options->medium != RLI_MEDIUM_VECTOR)
		return rli_error_set(RLI_EUSAGE, "unknown layout medium %d", (int)options->medium);
	return RLI_OK;
}

int rli_timeline_layout(rli_timeline **out, const rli_events *events,
			const rli_timeline_options *options)
{
	return rli_timeline_layout_stats(out, events, NULL, options);
}

int rli_timeline_layout_stats(rli_timeline **out, const rli_events *events, const struct rli_stats *stats,
			      const rli_timeline_options *options)
{
	rli_timeline_options defaults;
	rli_timeline *timeline = NULL;
	row_index rows = { 0 };
	uint32_t *event_row = NULL, *row_of_provisional = NULL, *series_of_name = NULL;
	sort_bar *bars = NULL;
	size_t count = rli_events_count(events), kept = 0, name_ids;
	double t0 = INFINITY, previous_start = -INFINITY;
	int error, by_start = 1;

	*out = NULL;
	if (!options) {
		rli_timeline_options_init(&defaults);
		options = &defaults;
	}
	if ((error = check_options(options)) < 0)
		return error;

	for (size_t i = 0; i < count; i++)
		if (rli_drawable(events, i)) {
			kept++;
			if (events->start_ms[i] < t0)
				t0 = events->start_ms[i];
		}
	if (!kept && count)
		/* Name the first row, so the user can find what went wrong (a negative dur, say). */
		return rli_error_set(RLI_EINVALID, "nothing to draw: every row has end <= start (%zu row%s; the first: "
				     "role %s, rank %lld, start %.17g ms, duration %.17g ms)", count, count == 1 ? "" : "s",
				     rli_strpool_get(&events->strings, events->role[0]), (long long)events->rank_id[0],
				     events->start_ms[0], events->duration_ms[0]);
	if (!kept || kept > UINT32_MAX)
		return rli_error_set(RLI_EINVALID, kept ? "too many events to draw (%zu)" :
				     "nothing to draw: no event has end > start", kept);

	name_ids = events->strings.count;
	timeline = calloc(1, sizeof(*timeline));
	event_row = malloc(kept * sizeof(*event_row));
	series_of_name = malloc((name_ids ? name_ids : 1) * sizeof(*series_of_name));
	bars = malloc(kept * sizeof(*bars));
	if (!timeline || !event_row || !series_of_name || !bars) {
		error = rli_error_oom();
		goto done;
	}
	timeline->document.origin = t0;
	for (size_t id = 0; id < name_ids; id++)
		series_of_name[id] = UINT32_MAX;

	kept = 0;
	for (size_t i = 0; i < count; i++) {
		if (!rli_drawable(events, i))
			continue;
		if ((error = rli_row_index_get(&event_row[kept], &rows, events->role[i],
					   events->rank_id[i])) < 0)
			goto done;
		series_of_name[events->name[i]] = 0;
		kept++;
	}

	row_of_provisional = malloc(rows.row_count * sizeof(*row_of_provisional));
	if (!row_of_provisional) {
		error = rli_error_oom();
		goto done;
	}
	if ((error = rli_build_rows(timeline, row_of_provisional, events, &rows)) < 0 ||
	    (error = rli_build_series(timeline, series_of_name, name_ids, events)) < 0)
		goto done;

	kept = 0;
	for (size_t i = 0; i < count; i++) {
		double start = events->start_ms[i], end = rli_events_end_ms(events, i);
		if (!rli_drawable(events, i))
			continue;
		bars[kept].group = (uint64_t)row_of_provisional[event_row[kept]] << 32 |
				   series_of_name[events->name[i]];
		bars[kept].start = start - t0;
		bars[kept].end = end - t0;
		bars[kept].duration = end - start;
		bars[kept].order = (uint32_t)kept;
		if (start < previous_start)
			by_start = 0;
		previous_start = start;
		kept++;
	}
	if ((error = rli_sort_bars(&bars, kept, by_start, timeline->series_count,
			       timeline->panel.row_count * timeline->series_count)) < 0)
		goto done;
	/* No merging unless asked (decisions.md): every bar the profiler saw is drawn. */
	if (options->merge_short_ms > 0.0)
		kept = rli_merge_short_bars(bars, kept, options->merge_short_ms);

	if ((error = rli_build_bars(timeline, bars, kept)) < 0 ||
	    (error = place(timeline, (double)options->width, options->scale, options->medium)) < 0)
		goto done;
	assemble(timeline);
	/* The statistics go beside the figure, for the back-ends that show asides; the page itself is unchanged. */
	if (stats && (error = rli_timeline_add_stats_aside(timeline, stats)) < 0)
		goto done;

	*out = timeline;
	timeline = NULL;

done:
	rli_timeline_free(timeline);
	free(rows.slots);
	free(rows.rows);
	free(event_row);
	free(row_of_provisional);
	free(series_of_name);
	free(bars);
	return error;
}

/* timeline.c: the timeline figure: options, page geometry, and the layout entry point. */
#include "layout.h"
#include "common/bigmem.h"
#include "theme.h"
#include "medium.h"
#include "text_place.h"
#include "timeline_bars.h"
#include "timeline_place.h"
#include "timeline_caption.h"
#include "timeline_overview.h"
#include "stats/stats.h"
#include "timeline_stats.h"
#include "timeline_links.h"
#include "events/events.h"
#include "text/text.h"
#include "common/error.h"
#include "common/numfmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rli_timeline_options_init(rli_timeline_options *options)
{
	/* every field, the ones added later too, starts at zero before the defaults */
	memset(options, 0, sizeof(*options));
	options->width = 2000;
	options->scale = 2;
	options->merge_short_ms = 0.0;
	options->medium = RLI_MEDIUM_RASTER;
	options->style = RLI_STYLE_DEFAULT;
	options->overview = 0;
	options->caption = 0;
	options->threads = 0;
	options->max_height = 0;
	options->stats_aside = 1;
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
	if (timeline->overview) {
		timeline->page.items = timeline->page_items;
		timeline->page.item_count = timeline->page_item_count;
	}
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
	rli_timeline_overview_free(timeline->overview);
	free(timeline->page_items);
	rli_timeline_aside_free(timeline->aside);
	rli_timeline_links_free(timeline->links);
	free(timeline->caption.text);
	free(timeline->captioned_items);
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

int rli_timeline_legend_repeats_rows(const rli_timeline *timeline)
{
	const rli_panel *panel = &timeline->panel;
	for (size_t r = 0; r < panel->row_count; r++)
		for (size_t b = panel->row_first_bar[r]; b < panel->row_first_bar[r + 1]; b++)
			if (strcmp(timeline->series[panel->bar_series[b]].name, panel->rows[r].role) != 0)
				return 0;
	return 1;
}

int rli_timeline_shows_overview(const rli_timeline *timeline)
{
	return timeline->overview != NULL;
}

/* The overview's page height: room for a band per role and the outlier table, at least the style's floor. */
static double overview_height(const timeline_theme *theme, const rli_stats *stats)
{
	double line = theme->row_label_size * 1.25, bands = (double)stats->occupancy_count;
	double table = 1.5 * line * (double)(fmin((double)stats->slowest_count, 12.0) + 1);
	return fmax(theme->min_page_height, theme->margin_top + bands * 6.0 * line + table + 6.0 * line + theme->page_pad);
}

/*
 * Too many rows to read: the page shows each role's occupancy and the
 * outlier ranks (timeline_overview.h) under the title. Statistics not given
 * are computed here, and only for this.
 */
static int place_overview(rli_timeline *timeline, const rli_events *events, const rli_stats *stats,
			  const timeline_theme *theme, double width, double scale, rli_medium medium)
{
	rli_stats *own = NULL;
	PangoContext *text = NULL;
	const rli_item *items;
	size_t count;
	rli_rect area;
	double height;
	int error;

	if (!stats && (error = rli_stats_compute(&own, events)) < 0)
		return error;
	if (!stats)
		stats = own;
	height = rli_timeline_set_page(timeline, theme, width, overview_height(theme, stats), scale, medium);
	area = (rli_rect){ theme->page_pad, theme->margin_top, width - 2 * theme->page_pad,
			   height - theme->margin_top - theme->page_pad };
	if ((error = rli_text_context_new(&text)) < 0 ||
	    (error = rli_timeline_place_title(timeline, text, theme, width)) < 0 ||
	    (error = rli_timeline_overview_place(&timeline->overview, &items, &count, stats, timeline->document.origin,
						 area, theme)) < 0)
		goto done;
	timeline->page_items = calloc(count + 1, sizeof(*timeline->page_items));
	if (!timeline->page_items) {
		error = rli_error_oom();
		goto done;
	}
	timeline->page_items[0].kind = RLI_ITEM_TEXT;
	timeline->page_items[0].u.text = &timeline->title;
	memcpy(timeline->page_items + 1, items, count * sizeof(*items));
	timeline->page_item_count = count + 1;

done:
	if (text)
		g_object_unref(text);
	rli_stats_free(own);
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
	if (options->style != RLI_STYLE_DEFAULT && options->style != RLI_STYLE_PAPER &&
	    options->style != RLI_STYLE_PAPER_WIDE)
		return rli_error_set(RLI_EUSAGE, "unknown timeline style %d", (int)options->style);
	return RLI_OK;
}

double rli_timeline_first_ms(const rli_events *events)
{
	double first = INFINITY;
	for (size_t i = 0, count = rli_events_count(events); i < count; i++)
		if (rli_drawable(events, i) && events->start_ms[i] < first)
			first = events->start_ms[i];
	return first;
}

int rli_timeline_layout(rli_timeline **out, const rli_events *events,
			const rli_timeline_options *options)
{
	return rli_timeline_layout_from(out, events, NULL, options);
}

static const struct rli_stats *given_stats(void *ctx)
{
	return ctx;
}

int rli_timeline_layout_stats(rli_timeline **out, const rli_events *events, const struct rli_stats *stats,
			      const rli_timeline_options *options)
{
	rli_stats_source given = { given_stats, (void *)stats };
	return rli_timeline_layout_from(out, events, stats ? &given : NULL, options);
}

/* The statistics, waited for the first time a part needs them: 0, or an error (they failed). */
static int stats_of(const rli_stats **stats, const rli_stats_source *source)
{
	if (*stats || !source)
		return RLI_OK;
	if (!(*stats = source->get(source->ctx)))
		return RLI_ERROR;
	return RLI_OK;
}

int rli_timeline_layout_from(rli_timeline **out, const rli_events *events, const rli_stats_source *source,
			     const rli_timeline_options *options)
{
	const rli_stats *stats = NULL;
	rli_timeline_options defaults;
	const timeline_theme *theme;
	rli_timeline *timeline = NULL;
	row_index rows = { 0 };
	uint32_t *event_row = NULL, *row_of_provisional = NULL, *series_of_name = NULL, *role_of_name = NULL;
	sort_bar *bars = NULL;
	size_t count = rli_events_count(events), kept = 0, name_ids;
	double t0 = INFINITY, previous_start = -INFINITY;
	double width, scale;
	int error, by_start = 1;

	*out = NULL;
	if (!options) {
		rli_timeline_options_init(&defaults);
		options = &defaults;
	}
	if ((error = check_options(options)) < 0)
		return error;
	/* A paper style fixes the page (a journal column) and its resolution; the default takes the options'. */
	theme = rli_timeline_theme(options->style);
	width = theme->page_width > 0 ? theme->page_width : (double)options->width;
	scale = theme->raster_scale > 0 ? theme->raster_scale : (double)options->scale;

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
	role_of_name = malloc((name_ids ? name_ids : 1) * sizeof(*role_of_name));
	if (!timeline || !event_row || !series_of_name || !role_of_name) {
		error = rli_error_oom();
		goto done;
	}
	/* The run's t = 0 when it has one (its first event, perhaps another analysis'), else the first bar's. */
	if (options->run && isfinite(options->run->origin_ms) && options->run->origin_ms < t0)
		t0 = options->run->origin_ms;
	timeline->document.origin = t0;
	for (size_t id = 0; id < name_ids; id++)
		series_of_name[id] = role_of_name[id] = UINT32_MAX;

	kept = 0;
	for (size_t i = 0; i < count; i++) {
		if (!rli_drawable(events, i))
			continue;
		if ((error = rli_row_index_get(&event_row[kept], &rows, events->role[i],
					   events->rank_id[i])) < 0)
			goto done;
		series_of_name[events->name[i]] = 0;
		/* A name's role, for its colour past ten names: the first by text of its roles, whatever the rows' order. */
		{
			uint32_t *role = &role_of_name[events->name[i]];
			if (*role != events->role[i] && (*role == UINT32_MAX ||
			    strcmp(rli_events_str(events, events->role[i]), rli_events_str(events, *role)) < 0))
				*role = events->role[i];
		}
		kept++;
	}

	row_of_provisional = malloc(rows.row_count * sizeof(*row_of_provisional));
	if (!row_of_provisional) {
		error = rli_error_oom();
		goto done;
	}
	if ((error = rli_build_rows(timeline, row_of_provisional, events, &rows)) < 0 ||
	    (error = rli_build_series(timeline, series_of_name, role_of_name, name_ids, events)) < 0)
		goto done;

	if ((error = rli_timeline_readable_rows(&timeline->readable_rows, theme, width, scale, options->medium)) < 0)
		goto done;
	/*
	 * Too many rows to read: the page shows the overview, drawn from the statistics, and no bar.
	 * Nothing reads the bars of such a layout (what scrolls, the HTML and the report, has its own
	 * layout of every row), so they are neither sorted nor built: a million of them took as long
	 * as the rest of the run after the parse.
	 */
	if (options->overview && timeline->panel.row_count > timeline->readable_rows) {
		error = stats_of(&stats, source) < 0 ? RLI_ERROR
			: place_overview(timeline, events, stats, theme, width, scale, options->medium);
		goto placed;
	}
	/* Wanted only for a PNG, and too tall to give one: the PNG's own layout will serve it, no bar is built here. */
	if (options->only_if_raster_fits && options->medium == RLI_MEDIUM_VECTOR) {
		double least;
		if ((error = rli_timeline_least_height(&least, timeline, theme)) < 0)
			goto done;
		if (!rli_medium_raster_fits(width, least, scale))
			goto done; /* RLI_OK, *out NULL */
	}
	/* A bar a row, sorted into a copy: 80 bytes a bar, in 2 MiB pages (common/bigmem.h). */
	if (!(bars = rli_bigmem_array(kept, sizeof(*bars)))) {
		error = rli_error_oom();
		goto done;
	}
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

	if ((error = rli_build_bars(timeline, bars, kept)) < 0)
		goto done;
	error = rli_timeline_place(timeline, theme, width, scale, options->medium, !rli_timeline_legend_repeats_rows(timeline));
placed:
	if (error < 0)
		goto done;
	assemble(timeline);
	if ((options->caption || options->stats_aside) && (error = stats_of(&stats, source)) < 0)
		goto done;
	if (options->caption && stats && (error = rli_timeline_add_caption(timeline, stats, theme)) < 0)
		goto done;
	/* Links to the run's other pages, for the back-ends that follow links; the page itself is unchanged. */
	if (!timeline->overview && (error = rli_timeline_add_links(timeline, options->run)) < 0)
		goto done;
	/* The statistics go beside the figure, for the back-ends that show asides; the page itself is unchanged. */
	if (stats && options->stats_aside && (error = rli_timeline_add_stats_aside(timeline, stats)) < 0)
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
	free(role_of_name);
	rli_bigmem_free(bars);
	return error;
}

/* timeline_overview.c: a run with too many ranks to draw row by row, at a glance: each role's occupancy as a band over time, and the outlier ranks by name. */
#include "timeline_overview.h"
#include "text_place.h"
#include "text/text.h"
#include "common/error.h"
#include "common/numfmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_COLUMNS 4
#define MAX_BUCKETS 4000
#define BAND_GAP_SHARE 0.3   /* of a band's height, left blank above its plot */
#define TABLE_MAX_SHARE 0.4  /* of the area's height the outlier table may take */

struct rli_timeline_overview {
	rli_text heading;
	size_t band_count;
	rli_panel *bands;          /* one per role, sorted by name */
	rli_line_mark *lines;      /* the occupancy of each band */
	rli_text *band_labels;     /* the role's name left of its band */
	rli_table table;           /* the outlier ranks */
	rli_text note;             /* "no outlier" when the table is empty */
	size_t outliers;
	rli_item *items;
	size_t item_count;
};

static const char *const table_header[TABLE_COLUMNS] = { "Role", "Rank", "Slowest in", "Outlier in" };
static const double table_share[TABLE_COLUMNS] = { 0.4, 0.15, 0.2, 0.25 };

void rli_timeline_overview_free(rli_timeline_overview *o)
{
	if (!o)
		return;
	free(o->heading.text);
	free(o->note.text);
	for (size_t b = 0; b < o->band_count; b++) {
		if (o->bands)
			rli_panel_dispose(&o->bands[b]);
		if (o->lines) {
			free(o->lines[b].x);
			free(o->lines[b].y);
		}
		if (o->band_labels)
			free(o->band_labels[b].text);
	}
	free(o->bands);
	free(o->lines);
	free(o->band_labels);
	if (o->table.cells)
		for (size_t c = 0; c < o->table.row_count * TABLE_COLUMNS; c++)
			free(o->table.cells[c]);
	free(o->table.cells);
	free(o->table.header);
	free(o->table.column_x);
	free(o->table.column_width);
	free(o->table.align);
	free(o->items);
	free(o);
}

size_t rli_timeline_overview_outliers(const rli_timeline_overview *overview)
{
	return overview ? overview->outliers : 0;
}

/* The most ranks any step of the role had: the band's full height. */
static uint32_t role_ranks(const rli_stats *stats, uint32_t role, uint32_t peak)
{
	size_t most = peak;
	for (size_t s = 0; s < stats->step_count; s++)
		if (stats->steps[s].role == role && stats->steps[s].ranks > most)
			most = stats->steps[s].ranks;
	return most ? (uint32_t)most : 1;
}

/* One band: the panel, its occupancy as a filled step line, ticks on both axes. */
static int place_band(rli_timeline_overview *o, size_t index, const rli_stats *stats, const timeline_theme *theme,
		      rli_rect plot, double origin_ms, const rli_tick *xticks, size_t xtick_count, int last,
		      const char *x_title, double x_max)
{
	rli_panel *band = &o->bands[index];
	rli_line_mark *line = &o->lines[index];
	const rli_role_occupancy *role = &stats->occupancy[index];
	size_t n = (size_t)fmax(1.0, fmin(MAX_BUCKETS, round(plot.w)));
	uint32_t *most = malloc(n * sizeof(*most)), ranks;
	double span = stats->end_ms - stats->start_ms, offset = stats->start_ms - origin_ms;
	int error;

	band->plot = plot;
	band->x_min = 0.0;
	band->x_max = x_max;
	band->y_scale = RLI_Y_VALUES;
	band->y_min = 0.0;
	band->y_max = ranks = role_ranks(stats, role->role, role->peak_ranks);
	band->grid_color = GRID_COLOR;
	band->grid_width = theme->grid_width;
	band->tick_label_size = theme->tick_label_size;
	band->tick_label_gap = theme->tick_label_gap;
	band->xticks = calloc(xtick_count ? xtick_count : 1, sizeof(*band->xticks));
	band->yticks = calloc(2, sizeof(*band->yticks));
	line->x = malloc(2 * n * sizeof(*line->x));
	line->y = malloc(2 * n * sizeof(*line->y));
	if (!most || !band->xticks || !band->yticks || !line->x || !line->y) {
		free(most);
		return rli_error_oom();
	}
	/* The grid at every band's ticks; the labels only under the last. */
	band->xtick_count = xtick_count;
	for (size_t t = 0; t < xtick_count; t++) {
		band->xticks[t].value = xticks[t].value;
		if (last)
			memcpy(band->xticks[t].label, xticks[t].label, sizeof(xticks[t].label));
	}
	band->ytick_count = 2;
	band->yticks[1].value = ranks;
	snprintf(band->yticks[0].label, sizeof(band->yticks[0].label), "0");
	rli_fmt_thousands(band->yticks[1].label, sizeof(band->yticks[1].label), ranks, 0);

	/* A step line: each slice flat at its most ranks, so a short full occupancy still shows. */
	n = rli_stats_occupancy_buckets(most, n, stats, index);
	for (size_t i = 0; i < n; i++) {
		line->x[2 * i] = offset + span * (double)i / (double)n;
		line->x[2 * i + 1] = offset + span * (double)(i + 1) / (double)n;
		line->y[2 * i] = line->y[2 * i + 1] = most[i];
	}
	free(most);
	line->count = 2 * n;
	line->width = theme->bar_outline_width * 1.5;
	line->fill_alpha = 0.45;
	band->lines = line;
	band->line_count = 1;

	if ((error = rli_set_text(&band->x_title, last ? x_title : "", plot.x + plot.w / 2,
				  plot.y + plot.h + theme->tick_label_gap + 1.25 * theme->tick_label_size +
				  theme->x_title_gap, theme->axis_title_size, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)) < 0 ||
	    (error = rli_set_text(&band->y_title, "", 0, 0, theme->axis_title_size, RLI_ALIGN_MIDDLE,
				  RLI_ALIGN_MIDDLE)) < 0)
		return error;
	return RLI_OK;
}

typedef struct {
	const rli_rank_slowest *rank;
	size_t order;
} ranked;

/* Stragglers first, then the ranks that were outliers most often; the statistics' order among equals. */
static int compare_outliers(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->rank->straggler != y->rank->straggler)
		return x->rank->straggler ? -1 : 1;
	if (x->rank->outlier != y->rank->outlier)
		return x->rank->outlier > y->rank->outlier ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The outlier ranks as a table of at most `lines` rows under the header, the last "… N more" when cut. */
static int fill_table(rli_timeline_overview *o, const rli_stats *stats, rli_rect area, double row_height,
		      size_t lines, double size)
{
	rli_table *table = &o->table;
	ranked *list = calloc(stats->slowest_count ? stats->slowest_count : 1, sizeof(*list));
	size_t count = 0, shown;

	if (!list)
		return rli_error_oom();
	for (size_t i = 0; i < stats->slowest_count; i++)
		if (stats->slowest[i].outlier > 0) {
			list[count].rank = &stats->slowest[i];
			list[count].order = i;
			count++;
		}
	qsort(list, count, sizeof(*list), compare_outliers);
	o->outliers = count;
	shown = count <= lines ? count : lines;
	table->x = area.x;
	table->y = area.y;
	table->column_count = TABLE_COLUMNS;
	table->row_count = shown;
	table->font_size = size;
	table->row_height = row_height;
	table->text_color = TEXT_COLOR;
	table->rule_color = GRID_COLOR;
	table->header = calloc(TABLE_COLUMNS, sizeof(*table->header));
	table->cells = calloc((shown ? shown : 1) * TABLE_COLUMNS, sizeof(*table->cells));
	table->column_x = calloc(TABLE_COLUMNS, sizeof(*table->column_x));
	table->column_width = calloc(TABLE_COLUMNS, sizeof(*table->column_width));
	table->align = calloc(TABLE_COLUMNS, sizeof(*table->align));
	if (!table->header || !table->cells || !table->column_x || !table->column_width || !table->align) {
		free(list);
		return rli_error_oom();
	}
	for (size_t c = 0, x = 0; c < TABLE_COLUMNS; c++) {
		table->header[c] = (char *)table_header[c];
		table->column_x[c] = area.x + area.w * (double)x / 100.0;
		table->column_width[c] = area.w * table_share[c] - size;
		table->align[c] = c == 0 ? RLI_ALIGN_START : RLI_ALIGN_END;
		x += (size_t)round(table_share[c] * 100.0);
	}
	for (size_t r = 0; r < shown; r++) {
		const rli_rank_slowest *rank = list[r].rank;
		char text[4][96];
		if (r + 1 == shown && shown < count) {
			snprintf(text[0], sizeof(text[0]), "\xe2\x80\xa6 %zu more", count - shown + 1);
			text[1][0] = text[2][0] = text[3][0] = '\0';
		} else {
			snprintf(text[0], sizeof(text[0]), "%s", rli_events_str(stats->events, rank->role));
			snprintf(text[1], sizeof(text[1]), "%" PRId64, rank->rank);
			snprintf(text[2], sizeof(text[2]), "%zu of %zu steps", rank->slowest, rank->steps);
			snprintf(text[3], sizeof(text[3]), "%zu%s", rank->outlier, rank->straggler ? ", straggler" : "");
		}
		for (size_t c = 0; c < TABLE_COLUMNS; c++)
			if (!(table->cells[r * TABLE_COLUMNS + c] = rli_valid_utf8_copy(text[c]))) {
				free(list);
				return rli_error_oom();
			}
	}
	free(list);
	return RLI_OK;
}

/* The items in drawing order: heading, each band and its label, then the table or the note. */
static int collect_items(rli_timeline_overview *o)
{
	size_t n = 0;
	o->items = calloc(2 * o->band_count + 2, sizeof(*o->items));
	if (!o->items)
		return rli_error_oom();
	o->items[n].kind = RLI_ITEM_TEXT;
	o->items[n++].u.text = &o->heading;
	for (size_t b = 0; b < o->band_count; b++) {
		o->items[n].kind = RLI_ITEM_PANEL;
		o->items[n++].u.panel = &o->bands[b];
		o->items[n].kind = RLI_ITEM_TEXT;
		o->items[n++].u.text = &o->band_labels[b];
	}
	if (o->table.row_count) {
		o->items[n].kind = RLI_ITEM_TABLE;
		o->items[n++].u.table = &o->table;
	} else {
		o->items[n].kind = RLI_ITEM_TEXT;
		o->items[n++].u.text = &o->note;
	}
	o->item_count = n;
	return RLI_OK;
}

/* Role colours as the timeline colours a series of that name. */
static int role_colors(rli_timeline_overview *o, const rli_stats *stats)
{
	const char **names = calloc(o->band_count ? o->band_count : 1, sizeof(*names));
	rli_color *colors = calloc(o->band_count ? o->band_count : 1, sizeof(*colors));
	if (!names || !colors) {
		free(names);
		free(colors);
		return rli_error_oom();
	}
	for (size_t b = 0; b < o->band_count; b++)
		names[b] = rli_events_str(stats->events, stats->occupancy[b].role);
	int error = rli_palette_assign(colors, names, o->band_count);
	for (size_t b = 0; b < o->band_count && error == RLI_OK; b++)
		o->lines[b].color = colors[b];
	free(names);
	free(colors);
	return error;
}

int rli_timeline_overview_place(rli_timeline_overview **out, const rli_item **items, size_t *item_count,
				const rli_stats *stats, double origin_ms, rli_rect area,
				const timeline_theme *theme)
{
	rli_timeline_overview *o = NULL;
	PangoContext *text = NULL;
	rli_tick xticks[MAX_TICKS];
	rli_time_unit unit;
	double line_h, w, h, label_w = 0.0, tick_w, top, bottom, band_h, table_h, plot_x, plot_w, x_max;
	size_t table_lines, xtick_count;
	char heading[160], x_title[32], ranks[32];
	int error;

	*out = NULL;
	*items = NULL;
	*item_count = 0;
	if (!theme)
		theme = rli_timeline_theme(RLI_STYLE_DEFAULT);
	if (!(area.w >= 60 && area.h >= 40))
		return rli_error_set(RLI_EUSAGE, "the overview needs at least 60 x 40 units (given %g x %g)",
				     area.w, area.h);
	if ((error = rli_text_context_new(&text)) < 0)
		return error;
	o = calloc(1, sizeof(*o));
	if (!o) {
		error = rli_error_oom();
		goto done;
	}
	o->band_count = stats->occupancy_count;
	o->bands = calloc(o->band_count ? o->band_count : 1, sizeof(*o->bands));
	o->lines = calloc(o->band_count ? o->band_count : 1, sizeof(*o->lines));
	o->band_labels = calloc(o->band_count ? o->band_count : 1, sizeof(*o->band_labels));
	if (!o->bands || !o->lines || !o->band_labels) {
		error = rli_error_oom();
		goto done;
	}
	rli_text_measure(&w, &line_h, text, "Rank 0 \xe6\x9b\xb4", theme->row_label_size, 0);
	rli_text_measure(&tick_w, &h, text, "00000", theme->tick_label_size, 0);
	for (size_t b = 0; b < o->band_count; b++) {
		rli_text_measure(&w, &h, text, rli_events_str(stats->events, stats->occupancy[b].role),
				 theme->row_label_size, 0);
		label_w = fmax(label_w, fmin(w, 0.25 * area.w));
	}

	snprintf(heading, sizeof(heading), "Ranks inside each role over time (%s ranks, %zu roles)",
		 rli_fmt_thousands(ranks, sizeof(ranks), (double)stats->rank_count, 0), stats->role_count);
	if ((error = rli_set_text(&o->heading, heading, area.x, area.y + line_h * 0.75, theme->row_label_size * 1.15,
				  RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	o->heading.bold = 1;
	o->heading.max_width = area.w;

	/* The table under the bands: as many lines as TABLE_MAX_SHARE of the area holds. */
	table_lines = (size_t)fmax(1.0, floor(TABLE_MAX_SHARE * area.h / (1.5 * line_h)) - 1);
	if ((error = fill_table(o, stats, area, 1.5 * line_h, table_lines, theme->row_label_size)) < 0)
		goto done;
	table_h = 1.5 * line_h * (double)(o->table.row_count + 1);
	o->table.y = area.y + area.h - table_h;

	/* The bands between the heading and the table, the time axis's labels and title under the last. */
	top = area.y + 1.5 * line_h;
	bottom = area.y + area.h - (o->table.row_count ? table_h : 1.5 * line_h) - 2 * line_h -
		 theme->tick_label_gap - 1.25 * theme->tick_label_size - theme->x_title_gap -
		 1.25 * theme->axis_title_size;
	plot_x = area.x + label_w + theme->row_label_gap + tick_w + theme->tick_label_gap;
	plot_w = area.x + area.w - plot_x - theme->page_pad;
	band_h = o->band_count ? (bottom - top) / (double)o->band_count : 0.0;
	if (plot_w < 40 || (o->band_count && band_h * (1 - BAND_GAP_SHARE) < 4)) {
		error = rli_error_set(RLI_EUSAGE, "the overview's %zu bands do not fit %g x %g units", o->band_count,
				      area.w, area.h);
		goto done;
	}
	x_max = (stats->end_ms - origin_ms) * X_RANGE_PAD;
	unit = rli_time_unit_for(x_max);
	xtick_count = rli_time_ticks(xticks, MAX_TICKS, 0.0, x_max,
				     (int)fmax(2.0, round(plot_w / theme->tick_spacing)), unit.ms);
	snprintf(x_title, sizeof(x_title), "Time (%s)", unit.name);
	for (size_t b = 0; b < o->band_count; b++) {
		rli_rect plot = { plot_x, top + band_h * ((double)b + BAND_GAP_SHARE), plot_w,
				  band_h * (1 - BAND_GAP_SHARE) };
		if ((error = place_band(o, b, stats, theme, plot, origin_ms, xticks, xtick_count,
					b + 1 == o->band_count, x_title, x_max)) < 0 ||
		    (error = rli_set_text(&o->band_labels[b], rli_events_str(stats->events, stats->occupancy[b].role),
					  plot_x - theme->tick_label_gap - tick_w - theme->row_label_gap,
					  plot.y + plot.h / 2, theme->row_label_size, RLI_ALIGN_END, RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		o->band_labels[b].max_width = label_w;
	}
	if ((error = role_colors(o, stats)) < 0 ||
	    (error = rli_set_text(&o->note, "No outlier rank: no step's slowest rank has a modified z-score above 3.5",
				  area.x, area.y + area.h - 0.75 * line_h, theme->row_label_size,
				  RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0 ||
	    (error = collect_items(o)) < 0)
		goto done;
	o->note.max_width = area.w;

	*items = o->items;
	*item_count = o->item_count;
	*out = o;
	o = NULL;

done:
	rli_timeline_overview_free(o);
	if (text)
		g_object_unref(text);
	return error;
}

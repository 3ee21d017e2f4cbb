/* layout.c: the layout engine, from the event table to the placed timeline every back-end draws. */
#include "layout.h"
#include "events/events.h"
#include "text/text.h"
#include "common/error.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Geometry of the reference PNG (timeline.md §9), in page units. */
#define PAGE_UNITS_PER_ROW 50.0
#define MIN_PAGE_HEIGHT 900.0
#define MARGIN_LEFT 240.0
#define MARGIN_RIGHT 60.0
#define MARGIN_TOP 120.0
#define MARGIN_BOTTOM 80.0
#define BAR_FRACTION_OF_PITCH 0.42
#define BAR_OUTLINE_WIDTH 0.8
#define X_RANGE_PAD 1.05
#define MERGE_MAX_GAP_MS 2.0

#define TITLE_SIZE 24.0
#define AXIS_TITLE_SIZE 18.0
#define TICK_LABEL_SIZE 14.0
#define ROW_LABEL_SIZE 13.0
#define LEGEND_SIZE 12.0

#define PAGE_PAD 16.0           /* blank border kept around decorations */
#define ROW_LABEL_GAP 10.0      /* plot edge to the right end of row labels */
#define Y_TITLE_GAP 14.0        /* row labels to the rotated y title */
#define TICK_LABEL_GAP 6.0
#define X_TITLE_GAP 10.0
#define LEGEND_GAP 24.0         /* plot edge to the legend */
#define LEGEND_LINE 22.0        /* one legend entry */
#define LEGEND_SWATCH_W 20.0
#define LEGEND_SWATCH_H 12.0
#define LEGEND_TEXT_GAP 6.0
#define LEGEND_COLUMN_GAP 16.0
#define TICK_SPACING 110.0      /* page units per x tick, roughly */
#define MAX_TICKS 64
#define OUTLINE_MIN_BAR_RATIO 3.0 /* a bar gets its outline from this many outline widths */
#define MIN_PLOT_SHARE 0.2      /* of the page width: below it the legend moves under the plot */
#define LEGEND_BELOW_GAP 12.0   /* x title to a legend under the plot */
#define LEGEND_BELOW_MAX_LINES 8 /* lines of a legend under the plot; past them "… N more" */
#define MIN_TEXT_ROOM 12.0      /* page units: a label cut shorter would show nothing but "…" */
#define MIN_TITLE_SIZE 12.0     /* a long title on a narrow page shrinks down to this */

/* cairo's image surfaces, and most PNG viewers, stop at 32767 pixels a side. */
#define MAX_DEVICE_PIXELS 32767

#define TEXT_COLOR 0x2a3f5f
#define GRID_COLOR 0xEAEAEA
#define WHITE 0xFFFFFF

void rli_timeline_options_init(rli_timeline_options *options)
{
	options->width = 2000;
	options->scale = 2;
	options->merge_short_ms = 0.0;
	options->medium = RLI_MEDIUM_RASTER;
}

/*
 * The largest scale, at most `scale` and in thousandths, that keeps `size`
 * page units within the raster limit; 0 when not even a scale of 1 does.
 */
static double fit_scale(double size, int scale)
{
	double fit = floor((double)MAX_DEVICE_PIXELS * 1000.0 / size) / 1000.0;
	if (fit >= scale)
		return scale;
	return fit >= 1.0 ? fit : 0.0;
}

double rli_timeline_raster_scale(const rli_timeline *timeline)
{
	return timeline->raster_scale;
}

/*
 * The reference's ten colours, then ten more from the same family (Tableau
 * 20's remaining hues) so neighbours in the legend stay distinguishable.
 */
static const rli_color palette[] = {
	0x4e79a7, 0xf28e8b, 0x59a14f, 0xb07aa1, 0x9c755f,
	0x76b7b2, 0xedc948, 0xbab0ab, 0x8cd17d, 0xff9da7,
	0xf28e2b, 0xa0cbe8, 0x499894, 0xe15759, 0xb6992d,
	0xd37295, 0x86bcb6, 0xffbe7d, 0x79706e, 0xd4a6c8,
};

rli_color rli_palette_color(size_t index)
{
	return palette[index % (sizeof(palette) / sizeof(palette[0]))];
}

size_t rli_nice_ticks(rli_tick *out, size_t max, double lo, double hi, int target)
{
	static const double steps[] = { 1.0, 2.0, 5.0, 10.0 };
	double raw, magnitude, step = 0.0;
	long long first, last;
	int decimals = 0;
	size_t count = 0;

	if (!max || !isfinite(lo) || !isfinite(hi) || hi < lo)
		return 0;
	if (target < 1)
		target = 1;
	if (hi == lo) {
		out[0].value = lo;
		snprintf(out[0].label, sizeof(out[0].label), "%g", lo);
		return 1;
	}
	raw = (hi - lo) / target;
	magnitude = pow(10.0, floor(log10(raw)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i] * magnitude;
		if (step >= raw * (1.0 - 1e-9))
			break;
	}
	if (step < 1.0) {
		decimals = (int)ceil(-log10(step) - 1e-9);
		if (decimals > 15)
			decimals = 15;
	}
	first = (long long)ceil(lo / step - 1e-9);
	last = (long long)floor(hi / step + 1e-9);
	for (long long i = first; i <= last && count < max; i++) {
		double value = (double)i * step;
		if (value == 0.0)
			value = 0.0; /* never print "-0" */
		out[count].value = value;
		snprintf(out[count].label, sizeof(out[count].label), "%.*f", decimals, value);
		count++;
	}
	return count;
}

/* ---- rows: distinct (role, rank) pairs -------------------------------- */

typedef struct {
	uint32_t role;
	int64_t rank;
	uint32_t row; /* provisional id, in order of first appearance */
} row_slot;

typedef struct {
	row_slot *slots; /* open addressing; row == UINT32_MAX marks empty */
	size_t slot_count, used;
	row_slot *rows;  /* provisional id -> key */
	size_t row_count, row_capacity;
} row_index;

static uint64_t row_hash(uint32_t role, int64_t rank)
{
	uint64_t h = ((uint64_t)role * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)rank + 0x632BE59BD9B4E019ull);
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return h;
}

static int row_index_grow(row_index *index)
{
	size_t count = index->slot_count ? index->slot_count * 2 : 64;
	row_slot *slots = malloc(count * sizeof(*slots));
	if (!slots)
		return rli_error_oom();
	for (size_t i = 0; i < count; i++)
		slots[i].row = UINT32_MAX;
	for (size_t i = 0; i < index->row_count; i++) {
		size_t at = row_hash(index->rows[i].role, index->rows[i].rank) & (count - 1);
		while (slots[at].row != UINT32_MAX)
			at = (at + 1) & (count - 1);
		slots[at] = index->rows[i];
	}
	free(index->slots);
	index->slots = slots;
	index->slot_count = count;
	return RLI_OK;
}

static int row_index_get(uint32_t *out, row_index *index, uint32_t role, int64_t rank)
{
	size_t at;
	int error;

	if ((index->row_count + 1) * 2 > index->slot_count &&
	    (error = row_index_grow(index)) < 0)
		return error;
	at = row_hash(role, rank) & (index->slot_count - 1);
	while (index->slots[at].row != UINT32_MAX) {
		if (index->slots[at].role == role && index->slots[at].rank == rank) {
			*out = index->slots[at].row;
			return RLI_OK;
		}
		at = (at + 1) & (index->slot_count - 1);
	}
	if (index->row_count == index->row_capacity) {
		size_t capacity = index->row_capacity ? index->row_capacity * 2 : 64;
		row_slot *rows = realloc(index->rows, capacity * sizeof(*rows));
		if (!rows)
			return rli_error_oom();
		index->rows = rows;
		index->row_capacity = capacity;
	}
	index->slots[at].role = role;
	index->slots[at].rank = rank;
	index->slots[at].row = (uint32_t)index->row_count;
	index->rows[index->row_count] = index->slots[at];
	*out = (uint32_t)index->row_count++;
	return RLI_OK;
}

/* ---- sorting helpers -------------------------------------------------- */

typedef struct {
	int64_t rank;
	const char *text; /* label, or role for the by-role order */
	uint32_t id;
} keyed_row;

static int compare_rank_then_text(const void *a, const void *b)
{
	const keyed_row *x = a, *y = b;
	int c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((c = strcmp(x->text, y->text)) != 0)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int compare_text_then_rank(const void *a, const void *b)
{
	const keyed_row *x = a, *y = b;
	int c = strcmp(x->text, y->text);
	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

typedef struct {
	const char *name;
	uint32_t id;
} keyed_name;

static int compare_names(const void *a, const void *b)
{
	const keyed_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

typedef struct {
	uint64_t group;     /* row << 32 | series */
	double start, end;  /* ms relative to t0 */
	double duration;    /* end - start as the reference computes it, from absolute times */
	uint32_t order;     /* input position, so equal keys keep their order */
} sort_bar;

static int compare_bars(const void *a, const void *b)
{
	const sort_bar *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Parsers hand over rows in start order, so a stable counting sort by group
 * gives the (group, start, input position) order in two passes; qsort is
 * the fallback for unsorted input or more groups than bars.
 */
static int sort_bars(sort_bar **bars, size_t count, int by_start, size_t groups_per_row,
		     size_t groups)
{
	sort_bar *sorted;
	size_t *first;

	if (!by_start || groups > 4 * count + 1024) {
		qsort(*bars, count, sizeof(**bars), compare_bars);
		return RLI_OK;
	}
	sorted = malloc((count ? count : 1) * sizeof(*sorted));
	first = calloc(groups + 1, sizeof(*first));
	if (!sorted || !first) {
		free(sorted);
		free(first);
		return rli_error_oom();
	}
	for (size_t i = 0; i < count; i++) {
		sort_bar *bar = &(*bars)[i];
		first[(bar->group >> 32) * groups_per_row + (bar->group & 0xFFFFFFFFu) + 1]++;
	}
	for (size_t g = 0; g < groups; g++)
		first[g + 1] += first[g];
	for (size_t i = 0; i < count; i++) {
		sort_bar *bar = &(*bars)[i];
		sorted[first[(bar->group >> 32) * groups_per_row + (bar->group & 0xFFFFFFFFu)]++] = *bar;
	}
	free(first);
	free(*bars);
	*bars = sorted;
	return RLI_OK;
}

/*
 * The reference PNG's chain merge (timeline.md §9 step 3): within one
 * (row, series) group in start order, a bar joins the open chain when it
 * lasts at most threshold and starts at most 2 ms after the previous bar of
 * the chain ends (overlaps count); a chain becomes one bar spanning it.
 */
static size_t merge_short_bars(sort_bar *bars, size_t count, double threshold)
{
	size_t kept = 0, i = 0;
	while (i < count) {
		size_t group_end = i;
		while (group_end < count && bars[group_end].group == bars[i].group)
			group_end++;
		sort_bar chain = bars[i];
		double previous_end = bars[i].end;
		/* `j < count` is implied by group_end <= count; saying it lets gcc -O3 see the bound. */
		for (size_t j = i + 1; j < group_end && j < count; j++) {
			if (bars[j].duration <= threshold &&
			    bars[j].start - previous_end <= MERGE_MAX_GAP_MS) {
				if (bars[j].end > chain.end)
					chain.end = bars[j].end;
				previous_end = bars[j].end;
				continue;
			}
			bars[kept++] = chain;
			chain = bars[j];
			previous_end = bars[j].end;
		}
		bars[kept++] = chain;
		i = group_end;
	}
	return kept;
}

/* Drawable: finite, and end > start strictly, as the reference keeps rows. */
static int drawable(const rli_events *events, size_t i)
{
	double start = events->start_ms[i], end = rli_events_end_ms(events, i);
	return isfinite(start) && isfinite(end) && end > start;
}

/* ---- the model -------------------------------------------------------- */

void rli_timeline_free(rli_timeline *timeline)
{
	if (!timeline)
		return;
	for (size_t r = 0; r < timeline->row_count; r++) {
		if (timeline->rows) {
			free(timeline->rows[r].label);
			free(timeline->rows[r].role);
		}
		if (timeline->row_labels)
			free(timeline->row_labels[r].text);
	}
	for (size_t s = 0; s < timeline->series_count; s++) {
		if (timeline->series)
			free(timeline->series[s].name);
		if (timeline->legend_labels)
			free(timeline->legend_labels[s].text);
	}
	free(timeline->rows);
	free(timeline->order_by_role);
	free(timeline->series);
	free(timeline->bar_row);
	free(timeline->bar_series);
	free(timeline->bar_start);
	free(timeline->bar_end);
	free(timeline->row_first_bar);
	free(timeline->xticks);
	free(timeline->title.text);
	free(timeline->x_title.text);
	free(timeline->y_title.text);
	free(timeline->row_labels);
	free(timeline->legend_title.text);
	free(timeline->legend_swatches);
	free(timeline->legend_labels);
	free(timeline);
}

/* A copy that is valid UTF-8 whatever the trace held, so text never fails to shape. */
static char *valid_utf8_copy(const char *text)
{
	gchar *valid = g_utf8_make_valid(text ? text : "", -1);
	char *copy = valid ? strdup(valid) : NULL;
	g_free(valid);
	return copy;
}

static int set_text(rli_text *out, const char *text, double x, double y, double size,
		    rli_align halign, rli_align valign)
{
	out->text = strdup(text);
	if (!out->text)
		return rli_error_oom();
	out->x = x;
	out->y = y;
	out->size = size;
	out->bold = 0;
	out->color = TEXT_COLOR;
	out->halign = halign;
	out->valign = valign;
	out->angle = 0.0;
	out->max_width = 0.0;
	return RLI_OK;
}

static int build_rows(rli_timeline *timeline, uint32_t *row_of_provisional,
		      const rli_events *events, const row_index *index)
{
	size_t n = index->row_count;
	keyed_row *keys = calloc(n ? n : 1, sizeof(*keys));
	char **labels = calloc(n ? n : 1, sizeof(*labels));
	int error = RLI_OK;

	timeline->rows = calloc(n, sizeof(*timeline->rows));
	timeline->order_by_role = calloc(n, sizeof(*timeline->order_by_role));
	if (!keys || !labels || !timeline->rows || !timeline->order_by_role) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t p = 0; p < n; p++) {
		char *role = valid_utf8_copy(rli_events_str(events, index->rows[p].role));
		size_t length;
		if (!role) {
			error = rli_error_oom();
			goto done;
		}
		length = strlen(role) + 48;
		labels[p] = malloc(length);
		if (!labels[p]) {
			free(role);
			error = rli_error_oom();
			goto done;
		}
		snprintf(labels[p], length, "%s - Rank %" PRId64, role, index->rows[p].rank);
		free(role);
		keys[p].rank = index->rows[p].rank;
		keys[p].text = labels[p];
		keys[p].id = (uint32_t)p;
	}
	/* The reference PNG's order: by rank, then by label. */
	qsort(keys, n, sizeof(*keys), compare_rank_then_text);
	timeline->row_count = n;
	for (size_t r = 0; r < n; r++) {
		uint32_t p = keys[r].id;
		rli_row *row = &timeline->rows[r];
		row_of_provisional[p] = (uint32_t)r;
		row->label = labels[p];
		labels[p] = NULL;
		row->rank = index->rows[p].rank;
		row->role = valid_utf8_copy(rli_events_str(events, index->rows[p].role));
		if (!row->role) {
			error = rli_error_oom();
			goto done;
		}
	}
	/* The reference HTML's default order: by role, then by rank. */
	for (size_t r = 0; r < n; r++) {
		keys[r].rank = timeline->rows[r].rank;
		keys[r].text = timeline->rows[r].role;
		keys[r].id = (uint32_t)r;
	}
	qsort(keys, n, sizeof(*keys), compare_text_then_rank);
	for (size_t r = 0; r < n; r++)
		timeline->order_by_role[r] = keys[r].id;

done:
	if (labels)
		for (size_t p = 0; p < n; p++)
			free(labels[p]);
	free(labels);
	free(keys);
	return error;
}

static int build_series(rli_timeline *timeline, uint32_t *series_of_name, size_t name_ids,
			const rli_events *events)
{
	keyed_name *names;
	size_t count = 0;

	for (size_t id = 0; id < name_ids; id++)
		if (series_of_name[id] != UINT32_MAX)
			count++;
	names = calloc(count ? count : 1, sizeof(*names));
	timeline->series = calloc(count ? count : 1, sizeof(*timeline->series));
	if (!names || !timeline->series) {
		free(names);
		return rli_error_oom();
	}
	count = 0;
	for (size_t id = 0; id < name_ids; id++) {
		if (series_of_name[id] == UINT32_MAX)
			continue;
		names[count].name = rli_events_str(events, (uint32_t)id);
		names[count].id = (uint32_t)id;
		count++;
	}
	/* Sorted by name, as the reference PNG's traces are: the colour follows the name. */
	qsort(names, count, sizeof(*names), compare_names);
	timeline->series_count = count;
	for (size_t s = 0; s < count; s++) {
		series_of_name[names[s].id] = (uint32_t)s;
		timeline->series[s].color = rli_palette_color(s);
		timeline->series[s].name = valid_utf8_copy(names[s].name);
		if (!timeline->series[s].name) {
			free(names);
			return rli_error_oom();
		}
	}
	free(names);
	return RLI_OK;
}

static int build_bars(rli_timeline *timeline, sort_bar *bars, size_t count)
{
	size_t rows = timeline->row_count;

	timeline->bar_row = malloc((count ? count : 1) * sizeof(*timeline->bar_row));
	timeline->bar_series = malloc((count ? count : 1) * sizeof(*timeline->bar_series));
	timeline->bar_start = malloc((count ? count : 1) * sizeof(*timeline->bar_start));
	timeline->bar_end = malloc((count ? count : 1) * sizeof(*timeline->bar_end));
	timeline->row_first_bar = calloc(rows + 1, sizeof(*timeline->row_first_bar));
	if (!timeline->bar_row || !timeline->bar_series || !timeline->bar_start ||
	    !timeline->bar_end || !timeline->row_first_bar)
		return rli_error_oom();
	timeline->bar_count = count;
	for (size_t i = 0; i < count; i++) {
		uint32_t row = (uint32_t)(bars[i].group >> 32);
		timeline->bar_row[i] = row;
		timeline->bar_series[i] = (uint32_t)(bars[i].group & 0xFFFFFFFFu);
		timeline->bar_start[i] = bars[i].start;
		timeline->bar_end[i] = bars[i].end;
		timeline->row_first_bar[row + 1]++;
	}
	for (size_t r = 0; r < rows; r++)
		timeline->row_first_bar[r + 1] += timeline->row_first_bar[r];
	return RLI_OK;
}

/* What the legend needs: its text measured, and where it goes. */
typedef struct {
	double title_width, widest_entry; /* text widths, page units */
	double entry_width;   /* swatch, gap and (ellipsized) text of one entry */
	double max_text;      /* an entry's text is ellipsized past this */
	int below;            /* under the plot, in rows across the page (narrow pages) */
	size_t per_column;    /* beside the plot: entries a column; below: entries a line */
	size_t lines;         /* below: lines of entries */
	size_t columns;       /* beside: columns; below: entries a line */
	size_t shown;         /* entries shown; the last one reads "… N more" when < series */
} legend_plan;

/* Beside the plot: one column while it fits the page height, more beside it if not. */
static double plan_legend_beside(legend_plan *legend, size_t series, double width, double height)
{
	legend->below = 0;
	legend->max_text = 0.15 * width;
	legend->entry_width = fmin(legend->widest_entry, legend->max_text) + LEGEND_SWATCH_W + LEGEND_TEXT_GAP;
	legend->per_column = (size_t)fmax(1.0, floor((height - 2 * PAGE_PAD - LEGEND_LINE) / LEGEND_LINE));
	legend->columns = (series + legend->per_column - 1) / legend->per_column;
	/* More names than fit in a third of the page: the last entry says how many are left out. */
	while (legend->columns > 1 && legend->columns * (legend->entry_width + LEGEND_COLUMN_GAP) > 0.3 * width)
		legend->columns--;
	legend->shown = series < legend->columns * legend->per_column ? series :
			legend->columns * legend->per_column;
	/* The right margin it takes. */
	return fmax(fmin(MARGIN_RIGHT, 0.05 * width),
		    LEGEND_GAP + fmax(legend->title_width, legend->columns * (legend->entry_width +
		    LEGEND_COLUMN_GAP) - LEGEND_COLUMN_GAP) + PAGE_PAD);
}

/* Below the plot, as many entries a line as the page holds. Returns the height it adds. */
static double plan_legend_below(legend_plan *legend, size_t series, double width)
{
	double room = width - 2 * PAGE_PAD;

	legend->below = 1;
	legend->max_text = fmax(MIN_TEXT_ROOM, room - LEGEND_SWATCH_W - LEGEND_TEXT_GAP);
	legend->entry_width = fmin(legend->widest_entry, legend->max_text) + LEGEND_SWATCH_W + LEGEND_TEXT_GAP;
	legend->columns = (size_t)fmax(1.0, floor((room + LEGEND_COLUMN_GAP) /
						  (legend->entry_width + LEGEND_COLUMN_GAP)));
	legend->lines = (series + legend->columns - 1) / legend->columns;
	if (legend->lines > LEGEND_BELOW_MAX_LINES)
		legend->lines = LEGEND_BELOW_MAX_LINES;
	legend->per_column = legend->columns;
	legend->shown = series < legend->columns * legend->lines ? series : legend->columns * legend->lines;
	return LEGEND_BELOW_GAP + LEGEND_LINE * (double)(legend->lines + 1);
}

/*
 * Places everything a reader sees. Row labels and legend names are measured
 * with the bundled fonts so long names widen the margins instead of running
 * off the page.
 */
static int place(rli_timeline *timeline, double width, int scale, rli_medium medium)
{
	PangoContext *text = NULL;
	size_t rows = timeline->row_count, series = timeline->series_count;
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
		rli_text_measure(&w, &h, text, timeline->rows[r].label, ROW_LABEL_SIZE, 0);
		widest_any_label = fmax(widest_any_label, w);
	}

	/*
	 * The legend goes beside the plot, as the reference's does, unless that
	 * would leave the plot less than MIN_PLOT_SHARE of a narrow page: then
	 * it goes below, where the names have the page's width.
	 */
	bottom = MARGIN_BOTTOM;
	height = fmax(MIN_PAGE_HEIGHT, PAGE_UNITS_PER_ROW * (double)rows + MARGIN_TOP + bottom);
	right = plan_legend_beside(&legend, series, width, height);
	left = PAGE_PAD + y_title_height + Y_TITLE_GAP + fmin(widest_any_label, max_label_width) + ROW_LABEL_GAP;
	if (width - fmax(fmin(MARGIN_LEFT, 0.2 * width), left) - right < MIN_PLOT_SHARE * width) {
		bottom += plan_legend_below(&legend, series, width);
		height = fmax(MIN_PAGE_HEIGHT, PAGE_UNITS_PER_ROW * (double)rows + MARGIN_TOP + bottom);
	}

	/*
	 * A raster image cannot exceed 32767 device pixels a side. A wide page
	 * is drawn at a smaller scale; past that the page stops growing and the
	 * rows get closer. Labels are then thinned to every k-th row so that no
	 * two overlap (the bars all stay). A vector medium has no such limit.
	 */
	timeline->raster_scale = fit_scale(width, scale);
	if (medium == RLI_MEDIUM_RASTER && height * timeline->raster_scale > MAX_DEVICE_PIXELS)
		height = floor((double)MAX_DEVICE_PIXELS / timeline->raster_scale);
	if (height * timeline->raster_scale > MAX_DEVICE_PIXELS)
		timeline->raster_scale = 0.0;
	timeline->width = width;
	timeline->height = height;
	timeline->scale = scale;
	timeline->background = WHITE;
	timeline->text_color = TEXT_COLOR;
	timeline->font_family = RLI_TEXT_FAMILY;
	timeline->plot.y = MARGIN_TOP;
	timeline->plot.h = height - MARGIN_TOP - bottom;
	timeline->row_pitch = timeline->plot.h / (double)rows;
	timeline->bar_thickness = BAR_FRACTION_OF_PITCH * timeline->row_pitch;
	timeline->bar_outline = WHITE;
	timeline->bar_outline_width = BAR_OUTLINE_WIDTH;
	timeline->bar_outline_min_size = OUTLINE_MIN_BAR_RATIO * BAR_OUTLINE_WIDTH;

	/* Both fonts in the sample, so a CJK label's taller line is allowed for. */
	rli_text_measure(&w, &label_height, text, "Rank 0 \xe6\x9b\xb4", ROW_LABEL_SIZE, 0);
	if (timeline->row_pitch < label_height)
		label_every = (size_t)ceil(label_height / timeline->row_pitch);
	timeline->row_labels = calloc(rows, sizeof(*timeline->row_labels));
	if (!timeline->row_labels) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t r = 0; r < rows; r++) {
		const char *label = r % label_every == 0 ? timeline->rows[r].label : "";
		if ((error = set_text(&timeline->row_labels[r], label, 0, 0, ROW_LABEL_SIZE,
				      RLI_ALIGN_END, RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		timeline->row_labels[r].max_width = max_label_width;
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

	timeline->plot.x = left;
	timeline->plot.w = width - left - right;
	if (timeline->plot.w < MIN_PLOT_SHARE * width) {
		error = rli_error_set(RLI_EUSAGE, "the page is too narrow (%g) for these labels", width);
		goto done;
	}

	for (size_t r = 0; r < rows; r++) {
		timeline->row_labels[r].x = left - ROW_LABEL_GAP;
		timeline->row_labels[r].y = timeline->plot.y + (r + 0.5) * timeline->row_pitch;
	}

	/* Axes. */
	timeline->x_min = 0.0;
	timeline->x_max = 0.0;
	for (size_t i = 0; i < timeline->bar_count; i++)
		timeline->x_max = fmax(timeline->x_max, timeline->bar_end[i]);
	timeline->x_max *= X_RANGE_PAD;
	timeline->xtick_target = (int)fmax(2.0, round(timeline->plot.w / TICK_SPACING));
	timeline->xtick_max = MAX_TICKS;
	timeline->xtick_count = rli_nice_ticks(ticks, MAX_TICKS, timeline->x_min, timeline->x_max,
					       timeline->xtick_target);
	timeline->xticks = calloc(timeline->xtick_count ? timeline->xtick_count : 1,
				  sizeof(*timeline->xticks));
	if (!timeline->xticks) {
		error = rli_error_oom();
		goto done;
	}
	memcpy(timeline->xticks, ticks, timeline->xtick_count * sizeof(*ticks));
	timeline->grid_color = GRID_COLOR;
	timeline->grid_width = 1.0;
	timeline->tick_label_size = TICK_LABEL_SIZE;
	timeline->tick_label_gap = TICK_LABEL_GAP;
	rli_text_measure(&w, &tick_height, text, "0123456789", TICK_LABEL_SIZE, 0);

	/* A title wider than the page gets a smaller font, down to a floor, then an ellipsis. */
	snprintf(title, sizeof(title), "RL Timeline (Relative Time, Origin = %.3f ms)", timeline->t0_ms);
	rli_text_measure(&title_width, &h, text, title, TITLE_SIZE, 0);
	if (title_width > width - 2 * PAGE_PAD)
		title_size = fmax(MIN_TITLE_SIZE, floor(TITLE_SIZE * (width - 2 * PAGE_PAD) / title_width));
	if ((error = set_text(&timeline->title, title, width / 2, MARGIN_TOP / 2, title_size,
			      RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	if (title_size < TITLE_SIZE)
		timeline->title.max_width = width - 2 * PAGE_PAD;
	if ((error = set_text(&timeline->x_title, "Time (ms)",
			      timeline->plot.x + timeline->plot.w / 2,
			      timeline->plot.y + timeline->plot.h + TICK_LABEL_GAP + tick_height + X_TITLE_GAP,
			      AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)) < 0)
		goto done;
	if ((error = set_text(&timeline->y_title, "Module - Rank",
			      left - ROW_LABEL_GAP - label_width - Y_TITLE_GAP - y_title_height / 2,
			      timeline->plot.y + timeline->plot.h / 2,
			      AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	timeline->y_title.angle = 90.0;

	if (legend.below) {
		/* Under the x title, from the page's left pad, entries in reading order. */
		legend_x = PAGE_PAD;
		legend_top = timeline->x_title.y + x_title_height + LEGEND_BELOW_GAP;
	} else {
		/* Middle-anchored at the plot's right edge. */
		legend_x = timeline->plot.x + timeline->plot.w + LEGEND_GAP;
		legend_top = timeline->plot.y + timeline->plot.h / 2 -
			     (LEGEND_LINE + LEGEND_LINE * (double)(legend.shown < legend.per_column ?
			      legend.shown : legend.per_column)) / 2;
		legend_top = fmax(PAGE_PAD, legend_top);
	}
	if ((error = set_text(&timeline->legend_title, "Task Type", legend_x,
			      legend_top + LEGEND_LINE / 2, LEGEND_SIZE,
			      RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	timeline->legend_swatches = calloc(series, sizeof(*timeline->legend_swatches));
	timeline->legend_labels = calloc(series, sizeof(*timeline->legend_labels));
	if (!timeline->legend_swatches || !timeline->legend_labels) {
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
			timeline->legend_swatches[s].x = x;
			timeline->legend_swatches[s].y = y - LEGEND_SWATCH_H / 2;
			timeline->legend_swatches[s].w = LEGEND_SWATCH_W;
			timeline->legend_swatches[s].h = LEGEND_SWATCH_H;
		}
		if ((error = set_text(&timeline->legend_labels[s], label,
				      x + LEGEND_SWATCH_W + LEGEND_TEXT_GAP, y, LEGEND_SIZE,
				      RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		timeline->legend_labels[s].max_width = legend.max_text;
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
		if (drawable(events, i)) {
			kept++;
			if (events->start_ms[i] < t0)
				t0 = events->start_ms[i];
		}
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
	timeline->t0_ms = t0;
	for (size_t id = 0; id < name_ids; id++)
		series_of_name[id] = UINT32_MAX;

	kept = 0;
	for (size_t i = 0; i < count; i++) {
		if (!drawable(events, i))
			continue;
		if ((error = row_index_get(&event_row[kept], &rows, events->role[i],
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
	if ((error = build_rows(timeline, row_of_provisional, events, &rows)) < 0 ||
	    (error = build_series(timeline, series_of_name, name_ids, events)) < 0)
		goto done;

	kept = 0;
	for (size_t i = 0; i < count; i++) {
		double start = events->start_ms[i], end = rli_events_end_ms(events, i);
		if (!drawable(events, i))
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
	if ((error = sort_bars(&bars, kept, by_start, timeline->series_count,
			       timeline->row_count * timeline->series_count)) < 0)
		goto done;
	/* No merging unless asked (decisions.md): every bar the profiler saw is drawn. */
	if (options->merge_short_ms > 0.0)
		kept = merge_short_bars(bars, kept, options->merge_short_ms);

	if ((error = build_bars(timeline, bars, kept)) < 0 ||
	    (error = place(timeline, (double)options->width, options->scale, options->medium)) < 0)
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

/* timeline_bars.c: from the event table to the timeline's rows, series and sorted bars. */
#include "timeline_bars.h"
#include "text_place.h"
#include "theme.h"
#include "common/bigmem.h"
#include "common/error.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rows: distinct (role, rank) pairs -------------------------------- */

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

int rli_row_index_get(uint32_t *out, row_index *index, uint32_t role, int64_t rank)
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
int rli_sort_bars(sort_bar **bars, size_t count, int by_start, size_t groups_per_row,
		     size_t groups)
{
	sort_bar *sorted;
	size_t *first;

	if (!by_start || groups > 4 * count + 1024) {
		qsort(*bars, count, sizeof(**bars), compare_bars);
		return RLI_OK;
	}
	{
		/* Grouped already (one row, or rows one after another): the order is the input's. */
		size_t i = 1;
		while (i < count && (*bars)[i].group >= (*bars)[i - 1].group)
			i++;
		if (i >= count)
			return RLI_OK;
	}
	sorted = rli_bigmem_array(count, sizeof(*sorted));
	first = calloc(groups + 1, sizeof(*first));
	if (!sorted || !first) {
		rli_bigmem_free(sorted);
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
	rli_bigmem_free(*bars);
	*bars = sorted;
	return RLI_OK;
}

/*
 * The reference PNG's chain merge (timeline.md §9 step 3): within one
 * (row, series) group in start order, a bar joins the open chain when it
 * lasts at most threshold and starts at most 2 ms after the previous bar of
 * the chain ends (overlaps count); a chain becomes one bar spanning it.
 */
size_t rli_merge_short_bars(sort_bar *bars, size_t count, double threshold)
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
int rli_drawable(const rli_events *events, size_t i)
{
	double start = events->start_ms[i], end = rli_events_end_ms(events, i);
	return isfinite(start) && isfinite(end) && end > start;
}

int rli_build_rows(rli_timeline *timeline, uint32_t *row_of_provisional,
		      const rli_events *events, const row_index *index)
{
	size_t n = index->row_count;
	keyed_row *keys = calloc(n ? n : 1, sizeof(*keys));
	char **labels = calloc(n ? n : 1, sizeof(*labels));
	int error = RLI_OK;

	timeline->panel.rows = calloc(n, sizeof(*timeline->panel.rows));
	timeline->panel.order_by_role = calloc(n, sizeof(*timeline->panel.order_by_role));
	if (!keys || !labels || !timeline->panel.rows || !timeline->panel.order_by_role) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t p = 0; p < n; p++) {
		char *role = rli_valid_utf8_copy(rli_events_str(events, index->rows[p].role));
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
	timeline->panel.row_count = n;
	for (size_t r = 0; r < n; r++) {
		uint32_t p = keys[r].id;
		rli_row *row = &timeline->panel.rows[r];
		row_of_provisional[p] = (uint32_t)r;
		row->label = labels[p];
		labels[p] = NULL;
		row->rank = index->rows[p].rank;
		row->role = rli_valid_utf8_copy(rli_events_str(events, index->rows[p].role));
		if (!row->role) {
			error = rli_error_oom();
			goto done;
		}
	}
	/* The reference HTML's default order: by role, then by rank. */
	for (size_t r = 0; r < n; r++) {
		keys[r].rank = timeline->panel.rows[r].rank;
		keys[r].text = timeline->panel.rows[r].role;
		keys[r].id = (uint32_t)r;
	}
	qsort(keys, n, sizeof(*keys), compare_text_then_rank);
	for (size_t r = 0; r < n; r++)
		timeline->panel.order_by_role[r] = keys[r].id;

done:
	if (labels)
		for (size_t p = 0; p < n; p++)
			free(labels[p]);
	free(labels);
	free(keys);
	return error;
}

/* Colours by name among the names drawn, stable across runs; past ten a role's names share its colour's family. */
static int assign_colors(rli_timeline *timeline, const char *const *roles)
{
	size_t count = timeline->series_count;
	const char **names = malloc((count ? count : 1) * sizeof(*names));
	rli_color *colors = malloc((count ? count : 1) * sizeof(*colors));
	int error;

	if (!names || !colors) {
		free(names);
		free(colors);
		return rli_error_oom();
	}
	for (size_t s = 0; s < count; s++)
		names[s] = timeline->series[s].name;
	error = rli_palette_assign_grouped(colors, names, roles, count);
	for (size_t s = 0; s < count && error == RLI_OK; s++)
		timeline->series[s].color = colors[s];
	free(names);
	free(colors);
	return error;
}

int rli_build_series(rli_timeline *timeline, uint32_t *series_of_name, const uint32_t *role_of_name,
		     size_t name_ids, const rli_events *events)
{
	const char **roles;
	uint32_t *names;
	size_t count = 0;
	int error;

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
	for (size_t id = 0; id < name_ids; id++)
		if (series_of_name[id] != UINT32_MAX)
			names[count++] = (uint32_t)id;
	/* Sorted by name, as the reference PNG's traces are: the colour follows the name. */
	if ((error = rli_strpool_sort_ids(&events->strings, names, count)) < 0) {
		free(names);
		return error;
	}
	timeline->series_count = count;
	for (size_t s = 0; s < count; s++) {
		series_of_name[names[s]] = (uint32_t)s;
		timeline->series[s].name = rli_valid_utf8_copy(rli_events_str(events, names[s]));
		if (!timeline->series[s].name) {
			free(names);
			return rli_error_oom();
		}
	}
	roles = malloc((count ? count : 1) * sizeof(*roles));
	if (!roles) {
		free(names);
		return rli_error_oom();
	}
	for (size_t s = 0; s < count; s++)
		roles[s] = role_of_name[names[s]] == UINT32_MAX ? "" : rli_events_str(events, role_of_name[names[s]]);
	free(names);
	error = assign_colors(timeline, roles);
	free(roles);
	return error;
}

int rli_build_bars(rli_timeline *timeline, sort_bar *bars, size_t count)
{
	size_t rows = timeline->panel.row_count;

	timeline->panel.bar_row = malloc((count ? count : 1) * sizeof(*timeline->panel.bar_row));
	timeline->panel.bar_series = malloc((count ? count : 1) * sizeof(*timeline->panel.bar_series));
	timeline->panel.bar_start = malloc((count ? count : 1) * sizeof(*timeline->panel.bar_start));
	timeline->panel.bar_end = malloc((count ? count : 1) * sizeof(*timeline->panel.bar_end));
	timeline->panel.row_first_bar = calloc(rows + 1, sizeof(*timeline->panel.row_first_bar));
	if (!timeline->panel.bar_row || !timeline->panel.bar_series || !timeline->panel.bar_start ||
	    !timeline->panel.bar_end || !timeline->panel.row_first_bar)
		return rli_error_oom();
	timeline->panel.bar_count = count;
	for (size_t i = 0; i < count; i++) {
		uint32_t row = (uint32_t)(bars[i].group >> 32);
		timeline->panel.bar_row[i] = row;
		timeline->panel.bar_series[i] = (uint32_t)(bars[i].group & 0xFFFFFFFFu);
		timeline->panel.bar_start[i] = bars[i].start;
		timeline->panel.bar_end[i] = bars[i].end;
		timeline->panel.row_first_bar[row + 1]++;
	}
	for (size_t r = 0; r < rows; r++)
		timeline->panel.row_first_bar[r + 1] += timeline->panel.row_first_bar[r];
	return RLI_OK;
}

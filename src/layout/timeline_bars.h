/* timeline_bars.h: from the event table to the timeline's rows, series and sorted bars. */
#ifndef RLI_LAYOUT_TIMELINE_BARS_H
#define RLI_LAYOUT_TIMELINE_BARS_H

#include "layout.h"
#include "events/events.h"

#include <stddef.h>
#include <stdint.h>

/* Distinct (role, rank) pairs in order of first appearance: an open-addressed hash. */
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

/* One bar on its way into the model. */
typedef struct {
	uint64_t group;     /* row << 32 | series */
	double start, end;  /* ms relative to t0 */
	double duration;    /* end - start as the reference computes it, from absolute times */
	uint32_t order;     /* input position, so equal keys keep their order */
} sort_bar;

/* The row of (role, rank), added if new. */
int rli_row_index_get(uint32_t *out, row_index *index, uint32_t role, int64_t rank);
/* Drawable: finite, and end > start strictly, as the reference keeps rows. */
int rli_drawable(const rli_events *events, size_t i);
/* Sorts bars by (row, series, start, input order); by_start: the input is in start order. *bars is an rli_bigmem_array, and its replacement too. */
int rli_sort_bars(sort_bar **bars, size_t count, int by_start, size_t groups_per_row, size_t groups);
/* --merge-short-ms: chain-merges short bars of one group; returns the new count. */
size_t rli_merge_short_bars(sort_bar *bars, size_t count, double threshold);
/* The model's rows in the PNG's order, and row_of_provisional mapping index rows to them. */
int rli_build_rows(rli_timeline *timeline, uint32_t *row_of_provisional, const rli_events *events,
		   const row_index *index);
/*
 * One series per distinct name, sorted by name, coloured by a hash of the name among the names drawn
 * (rli_palette_assign_grouped, role_of_name[name id] the name's role: its colour family past ten names).
 */
int rli_build_series(rli_timeline *timeline, uint32_t *series_of_name, const uint32_t *role_of_name,
		     size_t name_ids, const rli_events *events);
/* The sorted bars into the model's columns, with each row's first bar. */
int rli_build_bars(rli_timeline *timeline, sort_bar *bars, size_t count);

#endif

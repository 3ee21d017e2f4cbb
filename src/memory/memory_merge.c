/* memory_merge.c: tables already in start order merged into one, as appending them in turn and sorting stably would order them, on up to two threads. */
#include "memory_table.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/sort.h"
#include "common/task.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most threads a merge takes: two halves of the rows by start. More would not pay for the cut. */
#define MERGE_THREADS 2
/* One start in this many rows of each table is sampled to find where to cut the rows in two. */
#define SAMPLE_EVERY 64

int rli_memory_in_start_order(const rli_memory *memory)
{
	const double *start = memory->start_ms;
	for (size_t i = 0; i < memory->count; i++)
		if (!(start[i] == start[i]) || (i && !(start[i] >= start[i - 1])))
			return 0; /* out of order, or a NaN, which no order places */
	return 1;
}

/*
 * A part of the merged rows: rows from[t]..to[t]-1 of each table t, which go to the merged
 * table's rows from `first` on.
 */
typedef struct {
	size_t first;
	size_t *from, *to;
} merge_part;

typedef struct {
	rli_memory *dst;
	rli_memory *const *tables;
	size_t count;
	uint32_t **remap;     /* per table: its string ids in dst */
	merge_part part[MERGE_THREADS];
	size_t parts;
} merge_work;

/* The first row of table t whose start is at least `key`: tables are in start order. */
static size_t lower_bound(const rli_memory *table, double key)
{
	size_t lo = 0, hi = table->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (table->start_ms[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Heap of tables by their next row's start, then table index: the order a stable sort of the concatenation gives. */
typedef struct {
	const merge_work *w;
	size_t *at;   /* per table: its next row in this part */
	size_t *heap; /* table indices */
	size_t size;
} merge_heap;

static int before(const merge_heap *h, size_t a, size_t b)
{
	double x = h->w->tables[a]->start_ms[h->at[a]], y = h->w->tables[b]->start_ms[h->at[b]];
	return x < y || (x == y && a < b);
}

static void sift_down(merge_heap *h, size_t i)
{
	for (;;) {
		size_t least = i, l = 2 * i + 1, r = l + 1;
		if (l < h->size && before(h, h->heap[l], h->heap[least]))
			least = l;
		if (r < h->size && before(h, h->heap[r], h->heap[least]))
			least = r;
		if (least == i)
			return;
		size_t held = h->heap[i];
		h->heap[i] = h->heap[least];
		h->heap[least] = held;
		i = least;
	}
}

/* Merges one part into its rows of dst. */
static int merge_part_rows(merge_work *w, const merge_part *part)
{
	merge_heap h = { w, calloc(w->count, sizeof(size_t)), calloc(w->count, sizeof(size_t)), 0 };
	rli_memory *dst = w->dst;
	size_t row = part->first;
	if (!h.at || !h.heap) {
		free(h.at);
		free(h.heap);
		return rli_error_oom();
	}
	for (size_t t = 0; t < w->count; t++) {
		h.at[t] = part->from[t];
		if (part->from[t] < part->to[t])
			h.heap[h.size++] = t;
	}
	for (size_t i = h.size; i-- > 0;)
		sift_down(&h, i);
	while (h.size) {
		size_t t = h.heap[0], i = h.at[t];
		rli_memory_copy_row(dst, row++, w->tables[t], i, w->remap[t]);
		if (++h.at[t] == part->to[t])
			h.heap[0] = h.heap[--h.size];
		sift_down(&h, 0);
	}
	free(h.at);
	free(h.heap);
	return RLI_OK;
}

static int merge_parts(void *arg, size_t p)
{
	merge_work *w = arg;
	return merge_part_rows(w, &w->part[p]);
}

/*
 * Where to cut the rows in two: a start near the middle of them all, from a sample of every
 * table's. Rows before it make the first part, the rest the second; NAN when there is no cut
 * worth making (too few rows).
 */
static double middle_start(rli_memory *const *tables, size_t count, size_t total)
{
	size_t samples = 0, n = 0;
	double *sample, middle;
	if (total < 4 * SAMPLE_EVERY)
		return NAN;
	for (size_t t = 0; t < count; t++)
		samples += (tables[t]->count + SAMPLE_EVERY - 1) / SAMPLE_EVERY;
	if (!(sample = malloc(samples * sizeof(*sample))))
		return NAN;
	for (size_t t = 0; t < count; t++)
		for (size_t i = 0; i < tables[t]->count; i += SAMPLE_EVERY)
			sample[n++] = tables[t]->start_ms[i];
	{
		size_t *order = rli_sorted_rows(sample, n);
		middle = order ? sample[order[n / 2]] : NAN;
		rli_bigmem_free(order);
	}
	free(sample);
	return middle;
}

int rli_memory_merge_sorted(rli_memory *dst, rli_memory *const *tables, size_t count, unsigned threads)
{
	merge_work w = { dst, tables, count, NULL, { { 0, NULL, NULL } }, 1 };
	size_t total = 0, *cuts = NULL;
	double middle;
	int error = RLI_OK;

	for (size_t t = 0; t < count; t++)
		total += tables[t]->count;
	if (dst->count != 0)
		return rli_error_set(RLI_EUSAGE, "a merge goes into an empty table");
	if ((error = rli_memory_reserve(dst, total)) < 0)
		return error;
	/* The strings in the order appending would intern them: the first table's ids stay as they are. */
	if (!(w.remap = calloc(count ? count : 1, sizeof(*w.remap))))
		return rli_error_oom();
	for (size_t t = 0, rows = 0; t < count; rows += tables[t++]->count) {
		dst->shows_reserved |= tables[t]->shows_reserved;
		rli_memory_join_totals(dst, tables[t], rows);
		if (!(w.remap[t] = rli_memory_intern_all(dst, tables[t])) ||
		    rli_memory_append_reserve(dst, tables[t], w.remap[t]) < 0) {
			error = RLI_ERROR;
			goto done;
		}
	}
	/* Each part a slice of every table; two parts when there are two threads and rows enough. */
	if (!(cuts = malloc((MERGE_THREADS + 1) * (count ? count : 1) * sizeof(*cuts)))) {
		error = rli_error_oom();
		goto done;
	}
	middle = threads > 1 ? middle_start(tables, count, total) : NAN;
	w.parts = isnan(middle) ? 1 : 2;
	for (size_t t = 0; t < count; t++) {
		cuts[t] = 0;
		if (w.parts == 2)
			cuts[count + t] = lower_bound(tables[t], middle);
		cuts[w.parts * count + t] = tables[t]->count;
	}
	for (size_t p = 0; p < w.parts; p++) {
		w.part[p].from = cuts + p * count;
		w.part[p].to = cuts + (p + 1) * count;
		w.part[p].first = 0;
		for (size_t q = 0; q < p; q++)
			for (size_t t = 0; t < count; t++)
				w.part[p].first += w.part[q].to[t] - w.part[q].from[t];
	}
	if ((error = rli_task_each(w.parts, w.parts, merge_parts, &w)) == RLI_OK)
		dst->count = total;
done:
	for (size_t t = 0; t < count && w.remap; t++)
		free(w.remap[t]);
	free(w.remap);
	free(cuts);
	return error;
}

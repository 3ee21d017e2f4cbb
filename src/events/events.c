/* events.c: the columnar event table that parsers fill and everything else reads. */
#include "events.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/sort.h"

#include <stdlib.h>
#include <string.h>

int rli_events_new(rli_events **out)
{
	rli_events *events = calloc(1, sizeof(*events));
	*out = NULL;
	if (!events)
		return rli_error_oom();
	rli_strpool_init(&events->strings);
	*out = events;
	return RLI_OK;
}

void rli_events_free(rli_events *events)
{
	if (!events)
		return;
	rli_strpool_dispose(&events->strings);
	rli_bigmem_free(events->name);
	rli_bigmem_free(events->role);
	rli_bigmem_free(events->domain);
	rli_bigmem_free(events->tid);
	rli_bigmem_free(events->tid_is_text);
	rli_bigmem_free(events->rank_id);
	rli_bigmem_free(events->start_ms);
	rli_bigmem_free(events->duration_ms);
	free(events);
}

size_t rli_events_count(const rli_events *events)
{
	return events ? events->count : 0;
}

void rli_events_get(rli_event *out, const rli_events *events, size_t i)
{
	out->name = rli_events_str(events, events->name[i]);
	out->role = rli_events_str(events, events->role[i]);
	out->domain = rli_events_str(events, events->domain[i]);
	out->tid = rli_events_str(events, events->tid[i]);
	out->tid_is_text = events->tid_is_text[i];
	out->rank_id = events->rank_id[i];
	out->start_ms = events->start_ms[i];
	out->duration_ms = events->duration_ms[i];
	out->end_ms = rli_events_end_ms(events, i);
}

#define GROW_COLUMN(col)                                                        \
	do {                                                                    \
		void *p = rli_bigmem_resize(events->col, capacity * sizeof(*events->col)); \
		if (!p)                                                         \
			return rli_error_oom();                                 \
		events->col = p;                                                \
	} while (0)

/*
 * Room for `wanted` rows: at least double the capacity, so appends stay linear, but no more than
 * asked when that is more (an empty table reserved for n > 256 rows gets exactly n).
 */
static int reserve(rli_events *events, size_t wanted)
{
	size_t capacity;
	if (wanted <= events->capacity)
		return RLI_OK;
	if (wanted > SIZE_MAX / sizeof(double))
		return rli_error_oom();
	capacity = events->capacity < 128 ? 256 : events->capacity * 2;
	if (capacity < wanted || capacity > SIZE_MAX / sizeof(double))
		capacity = wanted;
	GROW_COLUMN(name);
	GROW_COLUMN(role);
	GROW_COLUMN(domain);
	GROW_COLUMN(tid);
	GROW_COLUMN(tid_is_text);
	GROW_COLUMN(rank_id);
	GROW_COLUMN(start_ms);
	GROW_COLUMN(duration_ms);
	events->capacity = capacity;
	return RLI_OK;
}

int rli_events_reserve(rli_events *events, size_t rows)
{
	if (rows > SIZE_MAX - events->count)
		return rli_error_oom();
	return reserve(events, events->count + rows);
}

static uint32_t intern(rli_events *events, const char *text)
{
	return rli_strpool_intern(&events->strings, text, strlen(text));
}

/* Parsers append runs of rows that share a domain and a tid: the row before's id, without hashing. */
static uint32_t intern_as_before(rli_events *events, const uint32_t *column, const char *text)
{
	size_t length = strlen(text), i = events->count;
	if (i > 0 && rli_strpool_length(&events->strings, column[i - 1]) == length &&
	    memcmp(rli_strpool_get(&events->strings, column[i - 1]), text, length) == 0)
		return column[i - 1];
	return rli_strpool_intern(&events->strings, text, length);
}

int rli_events_append(rli_events *events, const rli_event_in *row)
{
	size_t i = events->count;
	uint32_t name, role, domain, tid;
	if (reserve(events, i + 1) < 0)
		return RLI_ERROR;
	name = intern(events, row->name);
	role = row->role == row->name ? name : intern(events, row->role);
	domain = intern_as_before(events, events->domain, row->domain ? row->domain : "default");
	tid = intern_as_before(events, events->tid, row->tid);
	if (name == RLI_STRPOOL_NONE || role == RLI_STRPOOL_NONE ||
	    domain == RLI_STRPOOL_NONE || tid == RLI_STRPOOL_NONE)
		return rli_error_oom();
	events->name[i] = name;
	events->role[i] = role;
	events->domain[i] = domain;
	events->tid[i] = tid;
	events->tid_is_text[i] = row->tid_is_text ? 1 : 0;
	events->rank_id[i] = row->rank_id;
	events->start_ms[i] = row->start_ms;
	events->duration_ms[i] = row->duration_ms;
	events->count = i + 1;
	return RLI_OK;
}

int rli_events_append_like(rli_events *events, size_t like, double start_ms, double duration_ms)
{
	size_t i = events->count;
	if (like >= i)
		return rli_error_set(RLI_ERROR, "no row %zu to copy (the table has %zu)", like, i);
	if (reserve(events, i + 1) < 0)
		return RLI_ERROR;
	events->name[i] = events->name[like];
	events->role[i] = events->role[like];
	events->domain[i] = events->domain[like];
	events->tid[i] = events->tid[like];
	events->tid_is_text[i] = events->tid_is_text[like];
	events->rank_id[i] = events->rank_id[like];
	events->start_ms[i] = start_ms;
	events->duration_ms[i] = duration_ms;
	events->count = i + 1;
	return RLI_OK;
}

/* src's string id in dst, interned at its first use: dst's ids come in the order rows use them. */
static inline uint32_t remap_id(rli_events *dst, const rli_events *src, uint32_t *remap, uint32_t id)
{
	if (remap[id] == RLI_STRPOOL_NONE)
		remap[id] = rli_strpool_intern(&dst->strings, rli_strpool_get(&src->strings, id),
					       rli_strpool_length(&src->strings, id));
	return remap[id];
}

int rli_events_append_range(rli_events *dst, const rli_events *src, size_t begin, size_t end)
{
	uint32_t *remap;
	size_t base = dst->count, n = end - begin, strings = src->strings.count;
	if (begin > end || end > src->count)
		return rli_error_set(RLI_ERROR, "no rows %zu-%zu to copy (the table has %zu)", begin, end,
				     src->count);
	if (n == 0)
		return RLI_OK; /* an empty table may have no columns at all */
	if (rli_events_reserve(dst, n) < 0)
		return RLI_ERROR;
	/* Each distinct string is interned once, not once per row. */
	remap = malloc((strings ? strings : 1) * sizeof(*remap));
	if (!remap)
		return rli_error_oom();
	for (size_t id = 0; id < strings; id++)
		remap[id] = RLI_STRPOOL_NONE;
	for (size_t i = 0; i < n; i++) {
		size_t from = begin + i, to = base + i;
		dst->name[to] = remap_id(dst, src, remap, src->name[from]);
		dst->role[to] = remap_id(dst, src, remap, src->role[from]);
		dst->domain[to] = remap_id(dst, src, remap, src->domain[from]);
		dst->tid[to] = remap_id(dst, src, remap, src->tid[from]);
		if (dst->name[to] == RLI_STRPOOL_NONE || dst->role[to] == RLI_STRPOOL_NONE ||
		    dst->domain[to] == RLI_STRPOOL_NONE || dst->tid[to] == RLI_STRPOOL_NONE) {
			free(remap);
			return rli_error_oom();
		}
	}
	memcpy(dst->tid_is_text + base, src->tid_is_text + begin, n * sizeof(*src->tid_is_text));
	memcpy(dst->rank_id + base, src->rank_id + begin, n * sizeof(*src->rank_id));
	memcpy(dst->start_ms + base, src->start_ms + begin, n * sizeof(*src->start_ms));
	memcpy(dst->duration_ms + base, src->duration_ms + begin, n * sizeof(*src->duration_ms));
	dst->count += n;
	free(remap);
	return RLI_OK;
}

int rli_events_append_all(rli_events *dst, const rli_events *src)
{
	return rli_events_append_range(dst, src, 0, src->count);
}

void rli_events_truncate(rli_events *events, size_t count)
{
	if (count < events->count)
		events->count = count;
}

/* Where the ascending run that starts at lo ends. */
static size_t run_end(const double *key, size_t lo, size_t n)
{
	size_t i = lo + 1;
	while (i < n && !(key[i] < key[i - 1]))
		i++;
	return i;
}

/*
 * Merge sort by start: stable, O(n log n), no recursion. It merges the ascending runs already
 * there (each parsed unit is mostly one), so a table of a few hundred sorted units takes a few
 * passes, not log2(rows). The keys move with the row numbers, so every pass reads and writes in
 * order instead of looking each key up at random. key[0] holds the keys and order[0] is NULL
 * (row i is at i) on entry; on return key[0] and order[0] hold the result, key[1] the other
 * buffer.
 */
static void sort_runs(double *key[2], uint32_t *order[3], size_t n)
{
	uint32_t *next = order[1];
	for (;;) {
		const double *from_key = key[0];
		uint32_t *from = order[0];
		double *to_key = key[1];
		uint32_t *to = next;
		size_t lo = 0, merges = 0;
		while (lo < n) {
			size_t mid = run_end(from_key, lo, n);
			size_t hi = mid < n ? run_end(from_key, mid, n) : n;
			size_t a = lo, b = mid, k = lo;
			while (a < mid && b < hi) {
				if (from_key[b] < from_key[a]) {
					to_key[k] = from_key[b];
					to[k++] = from ? from[b] : (uint32_t)b;
					b++;
				} else {
					to_key[k] = from_key[a];
					to[k++] = from ? from[a] : (uint32_t)a;
					a++;
				}
			}
			for (; a < mid; a++, k++) {
				to_key[k] = from_key[a];
				to[k] = from ? from[a] : (uint32_t)a;
			}
			for (; b < hi; b++, k++) {
				to_key[k] = from_key[b];
				to[k] = from ? from[b] : (uint32_t)b;
			}
			lo = hi;
			merges++;
		}
		key[1] = key[0];
		key[0] = to_key;
		next = from ? from : order[2];
		order[0] = to;
		if (merges <= 1)
			return;
	}
}

/*
 * A column in sorted order: gathered into the spare block, which then becomes the column, while
 * the column's old block becomes the spare for the next one. The spare must hold n values of
 * the column's type: columns go from the widest to the narrowest.
 */
#define GATHER_COLUMN(col)                                                              \
	do {                                                                            \
		__typeof__(events->col) gathered = (__typeof__(events->col))spare;      \
		for (size_t k = 0; k < n; k++)                                          \
			gathered[k] = events->col[sorted[k]];                           \
		spare = events->col;                                                    \
		events->col = gathered;                                                 \
	} while (0)

int rli_events_sort_by_start(rli_events *events)
{
	size_t n = events->count;
	double *key[2];
	uint32_t *order[3], *sorted;
	void *spare;
	int sorted_already = 1;
	for (size_t i = 1; i < n && sorted_already; i++)
		sorted_already = events->start_ms[i - 1] <= events->start_ms[i];
	if (sorted_already)
		return RLI_OK;
	if (n > UINT32_MAX)
		return rli_error_set(RLI_ERROR, "too many rows to sort (%zu)", n);
	/*
	 * The passes go back and forth between start_ms itself and one buffer as large: whichever
	 * ends with the sorted keys is start_ms, the other the first spare column for the gathering
	 * below. Every megabyte less of fresh memory counts (see common/bigmem.c), and no column is
	 * copied back: blocks change columns instead.
	 */
	key[0] = events->start_ms;
	key[1] = rli_bigmem_resize(NULL, events->capacity * sizeof(double));
	order[0] = NULL;
	order[1] = rli_bigmem_resize(NULL, n * sizeof(uint32_t));
	order[2] = rli_bigmem_resize(NULL, n * sizeof(uint32_t));
	if (!key[1] || !order[1] || !order[2]) {
		rli_bigmem_free(key[1]);
		rli_bigmem_free(order[1]);
		rli_bigmem_free(order[2]);
		return rli_error_oom();
	}
	sort_runs(key, order, n);
	sorted = order[0];
	events->start_ms = key[0];
	spare = key[1];
	GATHER_COLUMN(duration_ms);
	GATHER_COLUMN(rank_id);
	GATHER_COLUMN(name);
	GATHER_COLUMN(role);
	GATHER_COLUMN(domain);
	GATHER_COLUMN(tid);
	GATHER_COLUMN(tid_is_text);
	rli_bigmem_free(spare);
	rli_bigmem_free(order[1]);
	rli_bigmem_free(order[2]);
	return RLI_OK;
}

void rli_events_filter(rli_events *events, const uint8_t *keep)
{
	size_t out = 0;
	for (size_t i = 0; i < events->count; i++) {
		if (!keep[i])
			continue;
		events->name[out] = events->name[i];
		events->role[out] = events->role[i];
		events->domain[out] = events->domain[i];
		events->tid[out] = events->tid[i];
		events->tid_is_text[out] = events->tid_is_text[i];
		events->rank_id[out] = events->rank_id[i];
		events->start_ms[out] = events->start_ms[i];
		events->duration_ms[out] = events->duration_ms[i];
		out++;
	}
	events->count = out;
}

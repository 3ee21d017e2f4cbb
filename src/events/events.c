/* events.c: the columnar event table that parsers fill and everything else reads. */
#include "events.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/sort.h"

#include <math.h>
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
 * The runs being merged: where each one is and ends, and the start of its next row (+inf once
 * spent). rank breaks ties: the earlier run first (the sort is stable), spent runs after all.
 */
typedef struct {
	uint32_t *at, *end, *rank;
	double *head;
} run_heads;

static inline int goes_before(const run_heads *h, uint32_t a, uint32_t b)
{
	return h->head[a] < h->head[b] || (!(h->head[b] < h->head[a]) && h->rank[a] < h->rank[b]);
}

/*
 * Stable sort by start as one merge of the ascending runs already there (each parsed unit is
 * mostly one): a tournament tree of the k runs' next rows hands out the rows in order, log2(k)
 * comparisons each, reading every run front to back. order[] receives the rows' old positions
 * and sorted_key[] their starts. k is at least 2. 0, or -1 when out of memory.
 */
/* merge_runs for the runs [0, mid) and [mid, n). */
static void merge_two(uint32_t *order, double *sorted_key, const double *key, size_t n, size_t mid)
{
	size_t a = 0, b = mid, out = 0;
	while (a < mid && b < n) {
		size_t row = key[b] < key[a] ? b++ : a++;
		order[out] = (uint32_t)row;
		sorted_key[out++] = key[row];
	}
	for (; a < mid; a++, out++) {
		order[out] = (uint32_t)a;
		sorted_key[out] = key[a];
	}
	for (; b < n; b++, out++) {
		order[out] = (uint32_t)b;
		sorted_key[out] = key[b];
	}
}

static int merge_runs(uint32_t *order, double *sorted_key, const double *key, size_t n, size_t k)
{
	run_heads h;
	uint32_t *loser, *won, winner;
	int result = -1;
	if (k == 2) {
		/* Two runs (two ranks' captures, say) need no tree. */
		merge_two(order, sorted_key, key, n, run_end(key, 0, n));
		return 0;
	}
	loser = malloc(k * sizeof(*loser));
	won = malloc(2 * k * sizeof(*won));
	h.at = malloc(k * sizeof(*h.at));
	h.end = malloc(k * sizeof(*h.end));
	h.rank = malloc(k * sizeof(*h.rank));
	h.head = malloc(k * sizeof(*h.head));
	if (!loser || !won || !h.at || !h.end || !h.rank || !h.head)
		goto done;
	for (size_t r = 0, lo = 0; r < k; r++) {
		size_t hi = run_end(key, lo, n);
		h.at[r] = (uint32_t)lo;
		h.end[r] = (uint32_t)hi;
		h.rank[r] = (uint32_t)r;
		h.head[r] = key[lo];
		lo = hi;
	}
	/* Leaves k..2k-1 are the runs, nodes 1..k-1 keep the loser of the match below them. */
	for (size_t r = 0; r < k; r++)
		won[k + r] = (uint32_t)r;
	for (size_t node = k - 1; node >= 1; node--) {
		uint32_t a = won[2 * node], b = won[2 * node + 1];
		int a_first = goes_before(&h, a, b);
		won[node] = a_first ? a : b;
		loser[node] = a_first ? b : a;
	}
	winner = won[1];
	for (size_t out = 0; out < n; out++) {
		uint32_t row = h.at[winner]++;
		order[out] = row;
		sorted_key[out] = key[row];
		if (h.at[winner] < h.end[winner]) {
			h.head[winner] = key[h.at[winner]];
		} else {
			h.head[winner] = INFINITY;
			h.rank[winner] = (uint32_t)k + winner;
		}
		/* The winner's run plays its next row up the tree again. */
		for (size_t node = (winner + k) / 2; node >= 1; node /= 2) {
			if (goes_before(&h, loser[node], winner)) {
				uint32_t swap = loser[node];
				loser[node] = winner;
				winner = swap;
			}
		}
	}
	result = 0;
done:
	free(h.at);
	free(h.end);
	free(h.rank);
	free(h.head);
	free(loser);
	free(won);
	return result;
}

/*
 * A column in sorted order: gathered into the spare block, which then becomes the column, while
 * the column's old block becomes the spare for the next one. The spare must hold n values of
 * the column's type: columns go from the widest to the narrowest. A column that holds one value
 * throughout, bit for bit (the domain, often the tid and rank), is in order as it is: a read
 * instead of a gather, the sort's dearest part, as it goes through memory out of order.
 */
#define GATHER_COLUMN(col)                                                              \
	do {                                                                            \
		__typeof__(events->col) gathered = (__typeof__(events->col))spare;      \
		size_t same = 1;                                                        \
		while (same < n && memcmp(&events->col[same], &events->col[0],          \
					  sizeof(events->col[0])) == 0)                 \
			same++;                                                         \
		if (same == n)                                                          \
			break;                                                          \
		for (size_t k = 0; k < n; k++)                                          \
			gathered[k] = events->col[sorted[k]];                           \
		spare = events->col;                                                    \
		events->col = gathered;                                                 \
	} while (0)

/*
 * The tie rule: rows that start together go by role, then rank, then thread; one thread's keep
 * the order they came in (its file's). It depends on the rows alone, not on which unit or file
 * held them, so tables merged from shards that each parsed part of the input come out as one
 * run over all of it does.
 */
static int tie_before(const void *table, size_t a, size_t b)
{
	const rli_events *events = table;
	int c;
	if (events->role[a] != events->role[b] &&
	    (c = strcmp(rli_events_str(events, events->role[a]), rli_events_str(events, events->role[b]))) != 0)
		return c < 0;
	if (events->rank_id[a] != events->rank_id[b])
		return events->rank_id[a] < events->rank_id[b];
	if (events->tid_is_text[a] != events->tid_is_text[b])
		return events->tid_is_text[a] < events->tid_is_text[b];
	return events->tid[a] != events->tid[b] &&
	       strcmp(rli_events_str(events, events->tid[a]), rli_events_str(events, events->tid[b])) < 0;
}

#define PLACE_COLUMN(col)                                                       \
	do {                                                                    \
		__typeof__(events->col) moved = scratch;                        \
		for (size_t k = 0; k < n; k++)                                  \
			moved[k] = events->col[order[k]];                       \
		memcpy(&events->col[lo], moved, n * sizeof(*moved));            \
	} while (0)

static void tie_place(void *table, size_t lo, const size_t *order, size_t n, void *scratch)
{
	rli_events *events = table;
	PLACE_COLUMN(name);
	PLACE_COLUMN(role);
	PLACE_COLUMN(domain);
	PLACE_COLUMN(tid);
	PLACE_COLUMN(tid_is_text);
	PLACE_COLUMN(rank_id);
	PLACE_COLUMN(start_ms);
	PLACE_COLUMN(duration_ms);
}
#undef PLACE_COLUMN

static int order_ties(rli_events *events)
{
	if (rli_order_ties(events->start_ms, events->count, tie_before, tie_place, events) < 0)
		return rli_error_oom();
	return RLI_OK;
}

int rli_events_sort_by_start(rli_events *events)
{
	size_t n = events->count, runs = 1;
	double *sorted_key;
	uint32_t *sorted;
	void *spare;
	for (size_t i = 1; i < n; i++)
		runs += events->start_ms[i] < events->start_ms[i - 1];
	if (runs == 1)
		return order_ties(events);
	if (n > UINT32_MAX)
		return rli_error_set(RLI_ERROR, "too many rows to sort (%zu)", n);
	/*
	 * 12 bytes a row besides the table, as every megabyte less of fresh memory counts (see
	 * common/bigmem.c): the starts in order, in a block as large as a column that becomes
	 * start_ms, and the rows' old positions, by which the other columns are gathered.
	 */
	sorted_key = rli_bigmem_resize(NULL, events->capacity * sizeof(double));
	sorted = rli_bigmem_resize(NULL, n * sizeof(uint32_t));
	if (!sorted_key || !sorted || merge_runs(sorted, sorted_key, events->start_ms, n, runs) < 0) {
		rli_bigmem_free(sorted_key);
		rli_bigmem_free(sorted);
		return rli_error_oom();
	}
	spare = events->start_ms;
	events->start_ms = sorted_key;
	/* No column is copied back: blocks change columns instead. */
	GATHER_COLUMN(duration_ms);
	GATHER_COLUMN(rank_id);
	GATHER_COLUMN(name);
	GATHER_COLUMN(role);
	GATHER_COLUMN(domain);
	GATHER_COLUMN(tid);
	GATHER_COLUMN(tid_is_text);
	rli_bigmem_free(spare);
	rli_bigmem_free(sorted);
	return order_ties(events);
}

void rli_events_filter(rli_events *events, const uint8_t *keep)
{
	size_t out = 0;
	for (size_t i = 0; i < events->count; i++) {
		if (keep[i])
			rli_events_move_row(events, out++, i);
	}
	events->count = out;
}

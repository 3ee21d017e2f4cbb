/* memory_table.c: the columnar memory table (one row per operator_memory.csv row) that the memory parser fills. */
#include "memory_table.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/prefault.h"
#include "common/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int rli_memory_new(rli_memory **out)
{
	rli_memory *memory = calloc(1, sizeof(*memory));
	*out = NULL;
	if (!memory)
		return rli_error_oom();
	rli_strpool_init(&memory->strings);
	memory->empty = rli_strpool_intern(&memory->strings, "", 0);
	if (memory->empty == RLI_STRPOOL_NONE) {
		rli_memory_free(memory);
		return rli_error_oom();
	}
	*out = memory;
	return RLI_OK;
}

#define COUNT_COLUMN(col) +1
enum { COLUMN_COUNT = 0 RLI_MEMORY_COLUMNS(COUNT_COLUMN) };
#undef COUNT_COLUMN

/* The bytes a row takes in the block, every column's. */
static size_t row_bytes(const rli_memory *memory)
{
	size_t bytes = 0;
#define ROW_BYTES(col) bytes += sizeof(*memory->col);
	RLI_MEMORY_COLUMNS(ROW_BYTES)
#undef ROW_BYTES
	return bytes;
}

void rli_memory_free(rli_memory *memory)
{
	if (!memory)
		return;
	rli_strpool_dispose(&memory->strings);
	rli_bigmem_free(memory->columns);
	free(memory->reserve.items);
	free(memory);
}

int rli_memory_add_reserve(rli_memory *memory, uint32_t role, int64_t rank, uint32_t device_type, double ms,
			   double mb)
{
	if (RLI_GROW(&memory->reserve.items, &memory->reserve.capacity, memory->reserve.count + 1, 256) < 0)
		return rli_error_oom();
	memory->reserve.items[memory->reserve.count++] = (rli_memory_sample){ role, device_type, rank, ms, mb };
	return RLI_OK;
}

int rli_memory_append_reserve(rli_memory *dst, const rli_memory *src, const uint32_t *remap)
{
	for (size_t i = 0; i < src->reserve.count; i++) {
		const rli_memory_sample *k = &src->reserve.items[i];
		if (rli_memory_add_reserve(dst, remap[k->role], k->rank, remap[k->device_type], k->ms, k->mb) < 0)
			return RLI_ERROR;
	}
	return RLI_OK;
}

size_t rli_memory_count(const rli_memory *memory)
{
	return memory ? memory->count : 0;
}

int rli_memory_get(rli_memory_row *out, const rli_memory *memory, size_t i)
{
	const rli_strpool *strings;
	if (!memory || i >= memory->count)
		return rli_error_set(RLI_EUSAGE, "no memory row %zu (the table has %zu)", i,
				     rli_memory_count(memory));
	strings = &memory->strings;
	out->name = rli_strpool_get(strings, memory->name[i]);
	out->role = rli_strpool_get(strings, memory->role[i]);
	out->rank_id = memory->rank_id[i];
	out->call_stack = rli_strpool_get(strings, memory->call_stack[i]);
	out->call_stack_top = rli_strpool_get(strings, memory->call_stack_top[i]);
	out->size_kb = memory->size_kb[i];
	out->start_time_ms = memory->start_ms[i];
	out->duration_ms = memory->duration_ms[i];
	out->total_allocated_mb = memory->allocated_mb[i];
	out->total_reserved_mb = memory->reserved_mb[i];
	out->total_active_mb = memory->active_mb[i];
	out->device_type = rli_strpool_get(strings, memory->device_type[i]);
	out->released = memory->flags[i] & RLI_MEMORY_RELEASED;
	out->match = rli_memory_match_of(memory, i);
	out->match_gap_ms = memory->gap_ms[i];
	out->release_total_allocated_mb = memory->release_allocated_mb[i];
	out->second_pool = (memory->flags[i] & RLI_MEMORY_SECOND_POOL) != 0;
	return RLI_OK;
}

void rli_memory_count_matches(rli_memory_match_counts *out, const rli_memory *memory)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < rli_memory_count(memory); i++)
		rli_memory_count_row(out, memory->size_kb[i], rli_memory_match_of(memory, i), memory->gap_ms[i]);
}

/*
 * Every column in one block, one after the other, `capacity` rows each (a multiple of 256, so
 * each column starts aligned for any of them). Why one block: a million rows are 90 MB written
 * once, and first touches are most of their cost; a block that large is mapped in 2 MiB pages
 * (common/bigmem.h), where fourteen columns of a capture of some 60,000 rows, each under 2 MiB,
 * would each fault in 4 KiB at a time. Growing remaps the block (nothing copied) and moves the
 * columns out to their new places, last first, so none overwrites one not yet moved.
 */
int rli_memory_reserve(rli_memory *memory, size_t wanted)
{
	struct {
		char *from, *to;
		size_t bytes;
	} moves[COLUMN_COUNT];
	size_t capacity, bytes = row_bytes(memory), old_offset = 0, new_offset = 0, n = 0;
	char *block;
	if (wanted <= memory->capacity)
		return RLI_OK;
	capacity = memory->capacity ? memory->capacity : 256;
	while (capacity < wanted) {
		if (capacity > SIZE_MAX / 2 / sizeof(double))
			return rli_error_oom();
		capacity *= 2;
	}
	if (!(block = memory->columns ? rli_bigmem_resize(memory->columns, capacity * bytes)
				      : rli_bigmem_array(capacity, bytes)))
		return rli_error_oom();
	memory->columns = block;
	/* Each column's old and new place, in the list's order... */
#define PLACE_COLUMN(col)                                                                           \
	{                                                                                           \
		moves[n].from = block + old_offset;                                                 \
		moves[n].to = block + new_offset;                                                   \
		moves[n++].bytes = memory->count * sizeof(*memory->col);                            \
		memory->col = (void *)(block + new_offset);                                         \
		old_offset += memory->capacity * sizeof(*memory->col);                              \
		new_offset += capacity * sizeof(*memory->col);                                      \
	}
	RLI_MEMORY_COLUMNS(PLACE_COLUMN)
#undef PLACE_COLUMN
	/* ...then moved last first: a column moves up, onto room its successors have left. */
	while (n-- > 0)
		memmove(moves[n].to, moves[n].from, moves[n].bytes);
	memory->capacity = capacity;
	return RLI_OK;
}

void rli_memory_release_room(rli_memory *memory)
{
	char *block = memory->columns, *end = block;
	if (!block)
		return;
	/* Each column's room past its rows, up to where the next one starts; the last's, to the block's end. */
#define RELEASE_COLUMN(col)                                                                          \
	if ((char *)memory->col > end)                                                               \
		rli_bigmem_release(block, (size_t)(end - block), (size_t)((char *)memory->col - end)); \
	end = (char *)(memory->col + memory->count);
	RLI_MEMORY_COLUMNS(RELEASE_COLUMN)
#undef RELEASE_COLUMN
	rli_bigmem_release(block, (size_t)(end - block), memory->capacity * row_bytes(memory) - (size_t)(end - block));
}

int rli_memory_append(rli_memory *memory, const rli_memory_in *row)
{
	size_t i = memory->count;
	if (i == memory->capacity && rli_memory_reserve(memory, i + 1) < 0)
		return RLI_ERROR;
	memory->name[i] = row->name;
	memory->role[i] = row->role;
	memory->device_type[i] = row->device_type;
	memory->call_stack[i] = row->call_stack;
	memory->call_stack_top[i] = row->call_stack_top;
	memory->rank_id[i] = row->rank_id;
	memory->size_kb[i] = row->size_kb;
	memory->start_ms[i] = row->start_ms;
	memory->duration_ms[i] = row->duration_ms;
	memory->allocated_mb[i] = row->allocated_mb;
	memory->reserved_mb[i] = row->reserved_mb;
	memory->active_mb[i] = row->active_mb;
	memory->release_allocated_mb[i] = row->release_allocated_mb;
	memory->gap_ms[i] = row->gap_ms;
	memory->flags[i] = (uint8_t)((row->released ? RLI_MEMORY_RELEASED : 0u) |
				     ((unsigned)row->match << RLI_MEMORY_MATCH_SHIFT) |
				     (row->second_pool ? RLI_MEMORY_SECOND_POOL : 0u));
	memory->count = i + 1;
	return RLI_OK;
}

void rli_memory_prefault(rli_memory *memory, size_t from, size_t to)
{
	if (to > memory->capacity)
		to = memory->capacity;
	if (from >= to)
		return;
#define PREFAULT_COLUMN(col) rli_prefault(memory->col + from, (to - from) * sizeof(*memory->col));
	RLI_MEMORY_COLUMNS(PREFAULT_COLUMN)
#undef PREFAULT_COLUMN
}

uint32_t *rli_memory_intern_all(rli_memory *dst, const rli_memory *src)
{
	return rli_strpool_intern_all(&dst->strings, &src->strings);
}

int rli_memory_append_begin(rli_memory *dst, const rli_memory *src, uint32_t **remap, size_t *base)
{
	size_t n = src->count;
	*remap = NULL;
	*base = dst->count;
	dst->shows_reserved |= src->shows_reserved;
	rli_memory_join_totals(dst, src, *base);
	if (n == 0 && src->reserve.count == 0)
		return RLI_OK; /* and its columns may not exist yet: nothing to copy */
	if ((n && rli_memory_reserve(dst, *base + n) < 0) || !(*remap = rli_memory_intern_all(dst, src)))
		return RLI_ERROR;
	if (rli_memory_append_reserve(dst, src, *remap) < 0) {
		free(*remap);
		*remap = NULL;
		return RLI_ERROR;
	}
	dst->count += n;
	return RLI_OK;
}

void rli_memory_append_rows(rli_memory *dst, const rli_memory *src, size_t base, const uint32_t *remap)
{
	size_t n = src->count;
	if (n == 0)
		return;
#define COPY_STRINGS(col)                          \
	for (size_t i = 0; i < n; i++)             \
		dst->col[base + i] = remap[src->col[i]];
#define COPY_VALUES(col) memcpy(dst->col + base, src->col, n * sizeof(*src->col));
	RLI_MEMORY_STRING_COLUMNS(COPY_STRINGS)
	RLI_MEMORY_VALUE_COLUMNS(COPY_VALUES)
#undef COPY_STRINGS
#undef COPY_VALUES
}

int rli_memory_append_all(rli_memory *dst, const rli_memory *src)
{
	uint32_t *remap;
	size_t base;
	if (rli_memory_append_begin(dst, src, &remap, &base) < 0)
		return RLI_ERROR;
	rli_memory_append_rows(dst, src, base, remap);
	free(remap);
	return RLI_OK;
}

/* Swaps two rows in every column. */
static void swap_rows(rli_memory *memory, size_t a, size_t b)
{
#define SWAP_COLUMN(col)                                                           \
	{                                                                          \
		__typeof__(*memory->col) held = memory->col[a];                    \
		memory->col[a] = memory->col[b];                                   \
		memory->col[b] = held;                                             \
	}
	RLI_MEMORY_COLUMNS(SWAP_COLUMN)
#undef SWAP_COLUMN
}

/*
 * The tie rule, as the event table's (events.c): rows that start together go by role, rank and
 * device; one device's keep their order, its CSV's. It depends on the rows alone, so tables
 * merged from shards come out as one run over the whole input.
 */
static int tie_before(const void *table, size_t a, size_t b)
{
	const rli_memory *memory = table;
	int c;
	if (memory->role[a] != memory->role[b] &&
	    (c = strcmp(rli_strpool_get(&memory->strings, memory->role[a]),
			rli_strpool_get(&memory->strings, memory->role[b]))) != 0)
		return c < 0;
	if (memory->rank_id[a] != memory->rank_id[b])
		return memory->rank_id[a] < memory->rank_id[b];
	return memory->device_type[a] != memory->device_type[b] &&
	       strcmp(rli_strpool_get(&memory->strings, memory->device_type[a]),
		      rli_strpool_get(&memory->strings, memory->device_type[b])) < 0;
}

static void tie_place(void *table, size_t lo, const size_t *order, size_t n, void *scratch)
{
	rli_memory *memory = table;
#define PLACE_COLUMN(col)                                                       \
	{                                                                       \
		__typeof__(memory->col) moved = scratch;                        \
		for (size_t k = 0; k < n; k++)                                  \
			moved[k] = memory->col[order[k]];                       \
		memcpy(&memory->col[lo], moved, n * sizeof(*moved));            \
	}
	RLI_MEMORY_COLUMNS(PLACE_COLUMN)
#undef PLACE_COLUMN
}

static int order_ties(rli_memory *memory)
{
	if (rli_order_ties(memory->start_ms, memory->count, tie_before, tie_place, memory) < 0)
		return rli_error_oom();
	return RLI_OK;
}

int rli_memory_sort_by_start(rli_memory *memory)
{
	size_t n = memory->count, moves = 0, budget = n / 16 + 64;
	size_t *sorted;
	void *scratch;
	/*
	 * A capture's CSV lists allocations in time order, now and then one a little late: moving
	 * those rows back is cheaper than any sort. Only rows with a smaller start move, so ties
	 * keep their order; past the budget, the sort below finishes from where this stopped.
	 */
	for (size_t i = 1; i < n && moves < budget; i++)
		for (size_t j = i; j > 0 && memory->start_ms[j] < memory->start_ms[j - 1] && moves < budget; j--, moves++)
			swap_rows(memory, j, j - 1);
	if (moves < budget)
		return order_ties(memory);
	sorted = rli_sorted_rows(memory->start_ms, n);
	scratch = rli_bigmem_array(n, sizeof(double));
	if (!sorted || !scratch) {
		rli_bigmem_free(sorted);
		rli_bigmem_free(scratch);
		return rli_error_oom();
	}
	/* scratch holds n doubles, enough for any column. */
#define PERMUTE_COLUMN(col)                                                         \
	{                                                                           \
		__typeof__(memory->col) out = scratch;                              \
		for (size_t k = 0; k < n; k++)                                      \
			out[k] = memory->col[sorted[k]];                            \
		memcpy(memory->col, out, n * sizeof(*memory->col));                 \
	}
	RLI_MEMORY_COLUMNS(PERMUTE_COLUMN)
#undef PERMUTE_COLUMN
	rli_bigmem_free(sorted);
	rli_bigmem_free(scratch);
	return order_ties(memory);
}

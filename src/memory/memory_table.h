/* memory_table.h: the columnar memory table (one row per operator_memory.csv row) that the memory parser fills. */
#ifndef RLI_MEMORY_TABLE_H
#define RLI_MEMORY_TABLE_H

#include "rl_insight.h"
#include "common/strpool.h"

#include <stdint.h>

/*
 * What the rows say of the allocator's own count of the device's memory, which the curve follows
 * (decisions.md, Memory): nothing (the curve is the running sum of the blocks, from 0), the total
 * after each event (PyTorch's Total Allocated: allocated_mb of every row, allocations and the
 * frees of blocks from before the capture), or the total after each allocation and after each
 * release (Ascend's Allocation and Release Total Allocated: allocated_mb, release_allocated_mb).
 */
typedef enum {
	RLI_MEMORY_TOTALS_NONE = 0,
	RLI_MEMORY_TOTALS_EVENTS,
	RLI_MEMORY_TOTALS_ROWS
} rli_memory_totals;

/* One reserve sample of a device file (memory_record.csv): strings are the table's ids. */
typedef struct {
	uint32_t role, device_type;
	int64_t rank;
	double ms, mb;
} rli_memory_sample;

/* flags: bit 0 released, bits 1-2 the rli_memory_match. */
#define RLI_MEMORY_RELEASED 1u
#define RLI_MEMORY_MATCH_SHIFT 1
/*
 * bit 3: counted by the device's second allocator, whose Total Allocated runs apart from the
 * first's: on Ascend, a row without a Stream Ptr (the graph engine's workspace, GE, beside the
 * PyTorch adapter's caching allocator, PTA; memory_record.csv's PTA+GE is their sum).
 */
#define RLI_MEMORY_SECOND_POOL 8u

/*
 * Columns, not structs, as in the event table: a million rows cost ~90 bytes each, and the
 * figure's passes over one column stay in cache. Strings (names, roles, devices, call stacks
 * and their first frames) are interned: stacks repeat across thousands of rows.
 */
struct rli_memory {
	rli_strpool strings;
	uint32_t empty; /* the id of "" */
	size_t count, capacity;
	void *columns;  /* one block (rli_bigmem) holding every column below, `capacity` rows each */
	uint32_t *name;
	uint32_t *role;
	uint32_t *device_type;
	uint32_t *call_stack;
	uint32_t *call_stack_top;
	int64_t *rank_id;
	double *size_kb;
	double *start_ms;
	double *duration_ms;
	double *allocated_mb;
	double *reserved_mb;
	double *active_mb;
	double *release_allocated_mb; /* NaN: not known (not released, or the rows do not carry it) */
	double *gap_ms;
	uint8_t *flags;
	/*
	 * 1: reserved_mb is a caching allocator's reserve worth a line of its own on the
	 * curve (PyTorch traces' Total Reserved); Ascend's curve, as the reference's, has none.
	 */
	int shows_reserved;
	rli_memory_totals totals;
	/*
	 * The devices' reserve as a device file gives it apart from the rows (Ascend's memory_record.csv:
	 * PTA+GE Total Reserved), for a table whose rows do not show one: (role, rank, device type,
	 * absolute ms, MB), each device's samples in time order. Drawn as the curve's Reserved line.
	 */
	struct {
		size_t count, capacity;
		rli_memory_sample *items;
	} reserve;
};

/*
 * Applies a macro to every column, so growing, copying and sorting never miss one: the string
 * columns (ids in the table's strings), then the values.
 */
#define RLI_MEMORY_STRING_COLUMNS(X) X(name) X(role) X(device_type) X(call_stack) X(call_stack_top)
#define RLI_MEMORY_VALUE_COLUMNS(X)                                                              \
	X(rank_id) X(size_kb) X(start_ms) X(duration_ms) X(allocated_mb) X(reserved_mb) X(active_mb) \
	X(release_allocated_mb) X(gap_ms) X(flags)
#define RLI_MEMORY_COLUMNS(X) RLI_MEMORY_STRING_COLUMNS(X) RLI_MEMORY_VALUE_COLUMNS(X)

/* A row as the parser hands it over: strings already interned in the table. */
typedef struct {
	uint32_t name, role, device_type, call_stack, call_stack_top;
	int64_t rank_id;
	double size_kb, start_ms, duration_ms;
	double allocated_mb, reserved_mb, active_mb;
	double gap_ms;
	int released;
	rli_memory_match match;
	double release_allocated_mb; /* NaN when not known */
	int second_pool;             /* RLI_MEMORY_SECOND_POOL */
} rli_memory_in;

int rli_memory_new(rli_memory **out);
/* The id of text in the table's pool, adding it if new; RLI_STRPOOL_NONE when out of memory. */
static inline uint32_t rli_memory_intern(rli_memory *memory, const char *text, size_t length)
{
	return rli_strpool_intern(&memory->strings, text, length);
}
/* Room for wanted rows in every column, so a parser that can estimate its rows never copies them. */
int rli_memory_reserve(rli_memory *memory, size_t wanted);
int rli_memory_append(rli_memory *memory, const rli_memory_in *row);
/*
 * Asks the helper thread (common/prefault.h) to fault in rows from..to-1 of every column (as far as
 * the capacity goes): rows the caller is about to append.
 */
void rli_memory_prefault(rli_memory *memory, size_t from, size_t to);
/*
 * Gives back to the system the pages of the room made for rows the table does not hold: for a
 * table that is done growing (a parser's, row by row, kept some 40 MB of a million rows' room
 * and of the places its columns moved out of). The room is still there: a row appended later
 * faults its pages in anew. Growing does not do this itself, as the rows that come next fill
 * that room.
 */
void rli_memory_release_room(rli_memory *memory);
/*
 * Interns every string of src in dst, in src's id order (the order appending src gives them): a
 * new array of src's ids' ids in dst (free it), or NULL, out of memory, the error set.
 */
uint32_t *rli_memory_intern_all(rli_memory *dst, const rli_memory *src);
/* Row `from` of src copied to row `to` of dst (room made), its strings through remap (rli_memory_intern_all). */
static inline void rli_memory_copy_row(rli_memory *dst, size_t to, const rli_memory *src, size_t from,
				       const uint32_t *remap)
{
#define RLI_COPY_STRING(col) dst->col[to] = remap[src->col[from]];
#define RLI_COPY_VALUE(col) dst->col[to] = src->col[from];
	RLI_MEMORY_STRING_COLUMNS(RLI_COPY_STRING)
	RLI_MEMORY_VALUE_COLUMNS(RLI_COPY_VALUE)
#undef RLI_COPY_STRING
#undef RLI_COPY_VALUE
}
/* Appends a reserve sample (strings interned in the table): RLI_OK or RLI_ERROR, out of memory. */
int rli_memory_add_reserve(rli_memory *memory, uint32_t role, int64_t rank, uint32_t device_type, double ms,
			   double mb);
/* Appends src's reserve samples to dst, their strings through remap (rli_memory_intern_all). */
int rli_memory_append_reserve(rli_memory *dst, const rli_memory *src, const uint32_t *remap);
/* Appends every row of src (in order) to dst, re-interning each distinct string once. */
int rli_memory_append_all(rli_memory *dst, const rli_memory *src);
/*
 * rli_memory_append_all in two steps, so that the copies of several tables into one may run on
 * threads of their own: rli_memory_append_begin, one table after another, makes dst the rows
 * (counted, not yet written) from *base on, takes src's reserve and interns its strings in
 * src's id order, as appending them would (*remap: free it; NULL with nothing to copy);
 * rli_memory_append_rows then writes the rows. dst must not grow between the two (make its
 * room for them all first), and its rows from *base are not read before they are written.
 */
int rli_memory_append_begin(rli_memory *dst, const rli_memory *src, uint32_t **remap, size_t *base);
void rli_memory_append_rows(rli_memory *dst, const rli_memory *src, size_t base, const uint32_t *remap);
/*
 * What dst's totals become once src's rows join rows of its own: a table without rows takes the
 * other's, and rows that count in two ways count in neither (the running sum serves them both).
 */
static inline void rli_memory_join_totals(rli_memory *dst, const rli_memory *src, size_t dst_rows)
{
	if (src->count == 0)
		return;
	dst->totals = dst_rows == 0 ? src->totals : dst->totals == src->totals ? dst->totals : RLI_MEMORY_TOTALS_NONE;
}
/* Whether the rows are in start order, ties in any order, and no start is NaN. */
int rli_memory_in_start_order(const rli_memory *memory);
/*
 * The rows of tables[0..count), each in start order (rli_memory_in_start_order), into dst, which
 * is empty: in start order, ties in table order, the strings interned table by table. What
 * appending them in turn and sorting stably by start gives, without the sort; on two threads
 * when `threads` allows (memory_merge.c). RLI_OK, or RLI_ERROR when out of memory (dst then holds no row).
 */
int rli_memory_merge_sorted(rli_memory *dst, rli_memory *const *tables, size_t count, unsigned threads);
/*
 * Sort by start_ms; rows that start together by role, rank and device, and one device's keep
 * their current order (the reference keeps its workers' finishing order, memory.md §1.4).
 */
int rli_memory_sort_by_start(rli_memory *memory);

/* Counts one row into *counts (only allocations, size_kb > 0, count). */
static inline void rli_memory_count_row(rli_memory_match_counts *counts, double size_kb, rli_memory_match match,
					double gap_ms)
{
	if (!(size_kb > 0))
		return;
	counts->allocations++;
	if (match == RLI_MEMORY_INSIDE) {
		counts->matched_inside++;
	} else if (match == RLI_MEMORY_AFTER_END) {
		counts->matched_after_end++;
		if (gap_ms > counts->max_gap_ms)
			counts->max_gap_ms = gap_ms;
	} else {
		counts->unmatched++;
	}
}

static inline rli_memory_match rli_memory_match_of(const rli_memory *memory, size_t i)
{
	return (rli_memory_match)((memory->flags[i] >> RLI_MEMORY_MATCH_SHIFT) & 3u);
}

#endif

/* test_memory_table.c: the memory table grown row by row keeps every row, and gives back the room it holds no row in once done; tables in start order merge as appending and sorting would order them. */
#define _DEFAULT_SOURCE /* mincore */
#include "harness.h"
#include "memory/memory_table.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ROWS ((size_t)1 << 17) /* a power of two: the table is full, the next row grows it */

static void row_of(rli_memory_in *row, size_t i)
{
	memset(row, 0, sizeof(*row));
	row->name = row->role = row->device_type = row->call_stack = row->call_stack_top = (uint32_t)(i % 7);
	row->rank_id = (int64_t)i;
	row->size_kb = (double)i;
	row->start_ms = (double)i + 0.5;
	row->duration_ms = (double)i * 2;
	row->allocated_mb = row->reserved_mb = row->active_mb = row->gap_ms = (double)i / 4;
	row->released = (int)(i & 1);
}

static int row_kept(const rli_memory *m, size_t i)
{
	return m->name[i] == i % 7 && m->role[i] == i % 7 && m->device_type[i] == i % 7 && m->call_stack[i] == i % 7 &&
	       m->call_stack_top[i] == i % 7 && m->rank_id[i] == (int64_t)i && m->size_kb[i] == (double)i &&
	       m->start_ms[i] == (double)i + 0.5 && m->duration_ms[i] == (double)i * 2 &&
	       m->allocated_mb[i] == (double)i / 4 && m->reserved_mb[i] == (double)i / 4 &&
	       m->active_mb[i] == (double)i / 4 && m->gap_ms[i] == (double)i / 4 &&
	       (m->flags[i] & RLI_MEMORY_RELEASED) == ((i & 1) ? RLI_MEMORY_RELEASED : 0);
}

/* Pages wholly inside [from, to) that are in memory; -1 when mincore cannot say. */
static long resident(const char *from, const char *to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)from + page - 1) & ~(page - 1), b = (uintptr_t)to & ~(page - 1);
	static unsigned char in[1 << 16];
	long count = 0;
	if (b <= a)
		return 0;
	if ((b - a) / page > sizeof(in) || mincore((void *)a, b - a, in) != 0)
		return -1;
	for (size_t i = 0; i < (b - a) / page; i++)
		count += in[i] & 1;
	return count;
}

static uint64_t state = 0x2545F4914F6CDD1Dull;


/* A table of n rows in start order, with repeated starts (ties within it and with the others), strings of its own. */
static rli_memory *sorted_table(size_t n, unsigned t)
{
	rli_memory *m = NULL;
	char text[32];
	double start = (double)(rli_test_random(&state) % 50);
	CHECK(rli_memory_new(&m) == RLI_OK);
	for (size_t i = 0; m && i < n; i++) {
		rli_memory_in row;
		int length;
		row_of(&row, i);
		start += (double)(rli_test_random(&state) % 3) * 0.5; /* a third of the rows tie with the one before */
		row.start_ms = start;
		length = snprintf(text, sizeof(text), "role%u", (unsigned)(rli_test_random(&state) % 4));
		row.role = rli_memory_intern(m, text, (size_t)length);
		length = snprintf(text, sizeof(text), "CUDA:%u", t % 3);
		row.device_type = rli_memory_intern(m, text, (size_t)length);
		length = snprintf(text, sizeof(text), "stack %u/%u", t, (unsigned)(rli_test_random(&state) % 20));
		row.call_stack = rli_memory_intern(m, text, (size_t)length);
		row.name = row.call_stack_top = m->empty;
		row.rank_id = (int64_t)(rli_test_random(&state) % 3);
		CHECK(rli_memory_append(m, &row) == RLI_OK);
	}
	return m;
}

static int same_tables(const rli_memory *a, const rli_memory *b)
{
	if (a->count != b->count || a->strings.count != b->strings.count || a->shows_reserved != b->shows_reserved)
		return 0;
	for (uint32_t id = 0; id < a->strings.count; id++)
		if (strcmp(rli_strpool_get(&a->strings, id), rli_strpool_get(&b->strings, id)) != 0)
			return 0; /* the same strings under the same ids */
	for (size_t i = 0; i < a->count; i++)
		if (a->name[i] != b->name[i] || a->role[i] != b->role[i] || a->device_type[i] != b->device_type[i] ||
		    a->call_stack[i] != b->call_stack[i] || a->call_stack_top[i] != b->call_stack_top[i] ||
		    a->rank_id[i] != b->rank_id[i] || a->size_kb[i] != b->size_kb[i] || a->start_ms[i] != b->start_ms[i] ||
		    a->duration_ms[i] != b->duration_ms[i] || a->allocated_mb[i] != b->allocated_mb[i] ||
		    a->reserved_mb[i] != b->reserved_mb[i] || a->active_mb[i] != b->active_mb[i] ||
		    a->gap_ms[i] != b->gap_ms[i] || a->flags[i] != b->flags[i]) {
			fprintf(stderr, "row %zu differs\n", i);
			return 0;
		}
	return 1;
}

/* `count` tables of the sizes given merged on 1 and 2 threads, against appending them in turn and sorting. */
static void check_merge(const size_t *sizes, size_t count)
{
	rli_memory *tables[8], *appended = NULL;
	for (size_t t = 0; t < count; t++) {
		tables[t] = sorted_table(sizes[t], (unsigned)t);
		CHECK(tables[t] && rli_memory_in_start_order(tables[t]));
	}
	tables[count - 1]->shows_reserved = 1;
	CHECK(rli_memory_new(&appended) == RLI_OK);
	for (size_t t = 0; t < count; t++)
		CHECK(rli_memory_append_all(appended, tables[t]) == RLI_OK);
	CHECK(rli_memory_sort_by_start(appended) == RLI_OK);
	for (unsigned threads = 1; threads <= 2; threads++) {
		rli_memory *merged = NULL;
		CHECK(rli_memory_new(&merged) == RLI_OK);
		CHECK(rli_memory_merge_sorted(merged, tables, count, threads) == RLI_OK);
		CHECK(rli_memory_sort_by_start(merged) == RLI_OK);
		if (!same_tables(appended, merged)) {
			fprintf(stderr, "%zu tables on %u thread(s): the merge differs from appending and sorting\n", count, threads);
			rli_test_failures++;
		}
		rli_memory_free(merged);
	}
	rli_memory_free(appended);
	for (size_t t = 0; t < count; t++)
		rli_memory_free(tables[t]);
}

static void check_merges(void)
{
	const size_t many[] = {20000, 1, 15000, 0, 30000, 7000, 12345, 2};
	const size_t few[] = {3, 0, 5};
	rli_memory *m = NULL;
	rli_memory_in row;
	check_merge(many, 8);
	check_merge(few, 3); /* too few rows to cut in two */
	/* Out of order, or a NaN start: not in start order. */
	CHECK(rli_memory_new(&m) == RLI_OK);
	CHECK(rli_memory_in_start_order(m));
	row_of(&row, 5);
	CHECK(rli_memory_append(m, &row) == RLI_OK);
	row_of(&row, 4);
	CHECK(rli_memory_append(m, &row) == RLI_OK);
	CHECK(!rli_memory_in_start_order(m));
	m->start_ms[1] = 0.0 / 0.0;
	CHECK(!rli_memory_in_start_order(m));
	m->start_ms[0] = 0.0 / 0.0;
	m->start_ms[1] = 1;
	CHECK(!rli_memory_in_start_order(m));
	rli_memory_free(m);
}

int main(void)
{
	check_merges();
	rli_memory *m = NULL;
	rli_memory_in row;
	size_t old_extent;
	size_t checked = 0;
	int kept = 1;

	CHECK(rli_memory_new(&m) == RLI_OK);
	if (!m)
		TEST_DONE();
	for (size_t i = 0; i < ROWS; i++) {
		row_of(&row, i);
		CHECK(rli_memory_append(m, &row) == RLI_OK);
	}
	CHECK(m->count == ROWS && m->capacity == ROWS);
	/* flags is the last column, a byte a row: where the full table's block ends (the block may move). */
	old_extent = (size_t)((const char *)m->flags - (const char *)m->columns) + m->capacity;
	CHECK(rli_memory_reserve(m, ROWS + 1) == RLI_OK);
	CHECK(m->capacity == 2 * ROWS);
	for (size_t i = 0; i < ROWS; i++)
		kept &= row_kept(m, i);
	CHECK(kept);
	/*
	 * Each column now has room for twice the rows: between its rows and the next column lie
	 * places the columns held before they moved, still in memory until the room is given back.
	 */
	rli_memory_release_room(m);
	kept = 1;
	for (size_t i = 0; i < ROWS; i++)
		kept &= row_kept(m, i);
	CHECK(kept);
	{
		const char *col[] = {
			(const char *)m->name, (const char *)m->role, (const char *)m->device_type,
			(const char *)m->call_stack, (const char *)m->call_stack_top, (const char *)m->rank_id,
			(const char *)m->size_kb, (const char *)m->start_ms, (const char *)m->duration_ms,
			(const char *)m->allocated_mb, (const char *)m->reserved_mb, (const char *)m->active_mb,
			(const char *)m->release_allocated_mb, (const char *)m->gap_ms, (const char *)m->flags,
		};
		const size_t size[] = {4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 1};
		const size_t columns = sizeof(col) / sizeof(*col);
		const char *old_end = (const char *)m->columns + old_extent;
		for (size_t k = 0; k < columns; k++) {
			const char *end = col[k] + ROWS * size[k];
			const char *next = k + 1 < columns ? col[k + 1] : col[k] + m->capacity * size[k];
			CHECK(resident(end, next) == 0);
			checked += end < old_end; /* room the old block had written */
		}
	}
	CHECK(checked >= 3);
	/* The table still grows and keeps its rows. */
	for (size_t i = ROWS; i < 3 * ROWS; i++) {
		row_of(&row, i);
		CHECK(rli_memory_append(m, &row) == RLI_OK);
	}
	kept = 1;
	for (size_t i = 0; i < 3 * ROWS; i++)
		kept &= row_kept(m, i);
	CHECK(kept);
	rli_memory_free(m);
	TEST_DONE();
}

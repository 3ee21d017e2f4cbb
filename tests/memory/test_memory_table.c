/* test_memory_table.c: the memory table grown row by row keeps every row, and gives back the places its columns moved out of. */
#define _DEFAULT_SOURCE /* mincore */
#include "harness.h"
#include "memory/memory_table.h"

#include <stdint.h>
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

int main(void)
{
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
	 * places the columns held before they moved, which must have left memory.
	 */
	{
		const char *col[] = {
			(const char *)m->name, (const char *)m->role, (const char *)m->device_type,
			(const char *)m->call_stack, (const char *)m->call_stack_top, (const char *)m->rank_id,
			(const char *)m->size_kb, (const char *)m->start_ms, (const char *)m->duration_ms,
			(const char *)m->allocated_mb, (const char *)m->reserved_mb, (const char *)m->active_mb,
			(const char *)m->gap_ms, (const char *)m->flags,
		};
		const size_t size[] = {4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 1};
		const char *old_end = (const char *)m->columns + old_extent;
		for (size_t k = 0; k + 1 < sizeof(col) / sizeof(*col); k++) {
			const char *end = col[k] + ROWS * size[k], *next = col[k + 1] < old_end ? col[k + 1] : old_end;
			if (end >= next)
				continue;
			CHECK(resident(end, next) == 0);
			checked++;
		}
	}
	CHECK(checked >= 3); /* the old block reached past several columns' new rooms */
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

/* test_memory_devices.c: the table split by device on two threads is the split on one, row for row, reserved points too. */
#include "harness.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROWS 200000

static uint64_t state = 0x9E3779B97F4A7C15ull;


/*
 * Rows on eight device types over two roles and two ranks (sixteen devices), in start order: two devices only in the first
 * half, two only in the second, the rest throughout; a fifth of them frees (negative sizes, on
 * the reserved line of a device that has allocations, or of none), some reserved values NaN.
 */
static rli_memory *table(int shows_reserved)
{
	rli_memory *m = NULL;
	char text[32];
	CHECK(rli_memory_new(&m) == RLI_OK);
	m->shows_reserved = shows_reserved;
	for (size_t i = 0; m && i < ROWS; i++) {
		rli_memory_in row;
		uint64_t r = rli_test_random(&state);
		unsigned device = (unsigned)(r % 6);
		int length;
		if (device == 4)
			device = i < ROWS / 2 ? 4 : 6;
		else if (device == 5)
			device = i < ROWS / 2 ? 5 : 7;
		memset(&row, 0, sizeof(row));
		length = snprintf(text, sizeof(text), "role%u", device % 2);
		row.role = rli_memory_intern(m, text, (size_t)length);
		length = snprintf(text, sizeof(text), "CUDA:%u", device);
		row.device_type = rli_memory_intern(m, text, (size_t)length);
		length = snprintf(text, sizeof(text), "op%u", (unsigned)(r >> 20) % 50);
		row.name = rli_memory_intern(m, text, (size_t)length);
		row.call_stack = row.call_stack_top = m->empty;
		row.rank_id = (int64_t)((r >> 8) % 2);
		row.start_ms = (double)i * 0.01;
		row.size_kb = (r >> 30) % 5 == 0 ? -(double)((r >> 40) % 1000 + 1) : (double)((r >> 40) % 1000 + 1);
		row.duration_ms = (double)((r >> 12) % 100);
		row.released = (int)((r >> 50) & 1);
		row.reserved_mb = (r >> 52) % 97 == 0 ? NAN : (double)(i / 7);
		CHECK(rli_memory_append(m, &row) == RLI_OK);
	}
	return m;
}

static int same_split(const rli_memory_devices *a, const rli_memory_devices *b)
{
	if (a->count != b->count)
		return 0;
	for (size_t d = 0; d < a->count; d++) {
		const rli_memory_device *x = &a->devices[d], *y = &b->devices[d];
		if (strcmp(x->role, y->role) || x->rank != y->rank || strcmp(x->device_type, y->device_type) ||
		    x->count != y->count || x->reserved_count != y->reserved_count || a->first[d] != b->first[d] ||
		    x->shares_rank != y->shares_rank)
			return 0;
		for (size_t i = 0; i < x->count; i++)
			if (a->row[a->first[d] + i] != b->row[b->first[d] + i] || x->start_ms[i] != y->start_ms[i] ||
			    x->duration_ms[i] != y->duration_ms[i] || x->size_kb[i] != y->size_kb[i] ||
			    x->op_name[i] != y->op_name[i] || x->call_stack_top[i] != y->call_stack_top[i])
				return 0;
		for (size_t i = 0; i < x->reserved_count; i++)
			if (x->reserved_ms[i] != y->reserved_ms[i] || x->reserved_mb[i] != y->reserved_mb[i])
				return 0;
	}
	return 1;
}

/* Every allocation of the table is in its device's run once, in table order. */
static int complete(const rli_memory *m, const rli_memory_devices *split)
{
	size_t allocations = 0, placed = 0;
	for (size_t i = 0; i < m->count; i++)
		allocations += m->size_kb[i] > 0;
	for (size_t d = 0; d < split->count; d++) {
		for (size_t i = 0; i < split->devices[d].count; i++) {
			size_t row = split->row[split->first[d] + i];
			if (m->size_kb[row] <= 0 || (i && row <= split->row[split->first[d] + i - 1]))
				return 0;
			placed++;
		}
	}
	return placed == allocations;
}

int main(void)
{
	for (int shows_reserved = 0; shows_reserved <= 1; shows_reserved++) {
		rli_memory *m = table(shows_reserved);
		rli_memory_devices one, two;
		CHECK_INT(rli_memory_devices_split(&one, m, 1), RLI_OK);
		CHECK_INT(rli_memory_devices_split(&two, m, 2), RLI_OK);
		CHECK_INT(one.count, 16); /* two ranks of each */
		CHECK(complete(m, &one));
		CHECK(same_split(&one, &two));
		CHECK(shows_reserved ? one.devices[0].reserved_count > 0 : one.devices[0].reserved_count == 0);
		rli_memory_devices_dispose(&one);
		rli_memory_devices_dispose(&two);
		rli_memory_free(m);
	}
	TEST_DONE();
}

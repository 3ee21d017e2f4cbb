/* memory_layout.c: from the memory table to the figure's devices: allocations grouped by (role, rank). */
#include "memory_figure.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "memory/memory_table.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	uint32_t role;  /* string id in the table */
	const char *role_name;
	int64_t rank;
	size_t count;   /* allocations */
	size_t next;    /* where its next row goes in the grouped columns */
} device_key;

/* Devices in ascending (role, rank) order, as the reference groups them. */
static int compare_device(const void *a, const void *b)
{
	const device_key *x = a, *y = b;
	int c = strcmp(x->role_name, y->role_name);
	if (c)
		return c;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * The device of each allocation, by an open-addressed table of (role id,
 * rank): a capture has one device, a run a few hundred at most, and the
 * rows of many devices come interleaved in start order.
 */
typedef struct {
	device_key *keys;
	size_t count, capacity;
	uint32_t *slots; /* index + 1 into keys; 0 empty; capacity * 2 slots */
} device_set;

static size_t slot_of(const device_set *set, uint32_t role, int64_t rank)
{
	size_t mask = set->capacity * 2 - 1;
	size_t h = ((size_t)role * 0x9E3779B1u) ^ ((size_t)(uint64_t)rank * 0x85EBCA77u);
	for (h &= mask;; h = (h + 1) & mask) {
		uint32_t at = set->slots[h];
		if (!at || (set->keys[at - 1].role == role && set->keys[at - 1].rank == rank))
			return h;
	}
}

/* The device's index, added when new; SIZE_MAX when out of memory. */
static size_t device_of(device_set *set, const rli_memory *memory, uint32_t role, int64_t rank)
{
	size_t h;
	if (set->count == set->capacity) {
		size_t grown = set->capacity ? set->capacity * 2 : 16;
		device_key *keys = realloc(set->keys, grown * sizeof(*keys));
		uint32_t *slots = calloc(grown * 2, sizeof(*slots));
		if (!keys || !slots) {
			free(slots);
			if (keys)
				set->keys = keys;
			return SIZE_MAX;
		}
		set->keys = keys;
		free(set->slots);
		set->slots = slots;
		set->capacity = grown;
		for (size_t i = 0; i < set->count; i++)
			set->slots[slot_of(set, keys[i].role, keys[i].rank)] = (uint32_t)(i + 1);
	}
	h = slot_of(set, role, rank);
	if (set->slots[h])
		return set->slots[h] - 1;
	set->keys[set->count] = (device_key){ role, rli_strpool_get(&memory->strings, role), rank, 0, 0 };
	set->slots[h] = (uint32_t)(set->count + 1);
	return set->count++;
}

/*
 * Straight from the table's columns: each allocation's device is found once,
 * then the rows are placed device by device in table order (a counting
 * sort), so a million rows cost two passes and 44 bytes each, not a sort;
 * the columns in 2 MiB pages, since most of their cost is first touches.
 */
int rli_memory_layout(rli_memory_figure **out, const rli_memory *memory, const rli_timeline_options *options)
{
	size_t total = rli_memory_count(memory);
	uint32_t *device_index = rli_bigmem_resize(NULL, (total ? total : 1) * sizeof(*device_index));
	size_t *rank_of_device = NULL;
	double *start = rli_bigmem_resize(NULL, (total ? total : 1) * sizeof(double));
	double *duration = rli_bigmem_resize(NULL, (total ? total : 1) * sizeof(double));
	double *size = rli_bigmem_resize(NULL, (total ? total : 1) * sizeof(double));
	const char **op = rli_bigmem_resize(NULL, (total ? total : 1) * sizeof(char *));
	const char **stack = rli_bigmem_resize(NULL, (total ? total : 1) * sizeof(char *));
	rli_memory_device *device = NULL;
	device_set set = { 0 };
	int error;

	*out = NULL;
	if (!device_index || !start || !duration || !size || !op || !stack) {
		error = rli_error_oom();
		goto done;
	}
	/* Frees (size <= 0) are not blocks: the curve is built from allocations and their durations. */
	for (size_t i = 0; i < total; i++) {
		size_t d;
		if (!(memory->size_kb[i] > 0))
			continue;
		if ((d = device_of(&set, memory, memory->role[i], memory->rank_id[i])) == SIZE_MAX) {
			error = rli_error_oom();
			goto done;
		}
		device_index[i] = (uint32_t)d;
		set.keys[d].count++;
	}
	/* The devices in (role, rank) order; each one's rows in a run of the columns, in table order. */
	rank_of_device = malloc((set.count ? set.count : 1) * sizeof(*rank_of_device));
	device = malloc((set.count ? set.count : 1) * sizeof(*device));
	if (!rank_of_device || !device) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t d = 0; d < set.count; d++)
		set.keys[d].next = d; /* remembers the discovery index through the sort */
	qsort(set.keys, set.count, sizeof(*set.keys), compare_device);
	for (size_t d = 0, at = 0; d < set.count; d++) {
		device_key *k = &set.keys[d];
		rank_of_device[k->next] = d;
		device[d] = (rli_memory_device){ k->role_name, k->rank, k->count,
						 start + at, duration + at, size + at, op + at, stack + at };
		k->next = at;
		at += k->count;
	}
	for (size_t i = 0; i < total; i++) {
		size_t at;
		if (!(memory->size_kb[i] > 0))
			continue;
		at = set.keys[rank_of_device[device_index[i]]].next++;
		start[at] = memory->start_ms[i];
		duration[at] = memory->flags[i] & RLI_MEMORY_RELEASED ? memory->duration_ms[i] : 0;
		size[at] = memory->size_kb[i];
		op[at] = rli_strpool_get(&memory->strings, memory->name[i]);
		stack[at] = rli_strpool_get(&memory->strings, memory->call_stack_top[i]);
	}
	error = rli_memory_figure_layout(out, device, set.count, options);
done:
	rli_bigmem_free(device_index);
	free(rank_of_device);
	rli_bigmem_free(start);
	rli_bigmem_free(duration);
	rli_bigmem_free(size);
	rli_bigmem_free(op);
	rli_bigmem_free(stack);
	free(device);
	free(set.keys);
	free(set.slots);
	return error;
}

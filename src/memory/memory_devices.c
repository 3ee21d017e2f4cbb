/* memory_devices.c: the memory table's allocations grouped by device, that is by (role, rank, device type), by a counting sort. */
#include "memory_devices.h"
#include "memory_table.h"
#include "common/bigmem.h"
#include "common/prefault.h"
#include "common/error.h"
#include "common/task.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	uint32_t role, type; /* string ids in the table */
	const char *role_name, *type_name;
	int64_t rank;
	size_t count;        /* allocations */
	size_t next;         /* where its next row goes in the grouped columns */
	size_t reserved;     /* rows on its reserved line; then where the next one goes */
	size_t count_before, reserved_before; /* of those, in the table's first part (see fill) */
} device_key;

/* Devices in ascending (role, rank) order, as the reference groups them, then by device type. */
static int compare_device(const void *a, const void *b)
{
	const device_key *x = a, *y = b;
	int c = strcmp(x->role_name, y->role_name);
	if (c)
		return c;
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return strcmp(x->type_name, y->type_name);
}

/*
 * The device of each allocation, by an open-addressed table of (role id,
 * rank, device type id): a capture has one device (a PyTorch rank a few), a
 * run a few hundred at most, and the rows of many devices come interleaved
 * in start order.
 */
typedef struct {
	device_key *keys;
	size_t count, capacity;
	uint32_t *slots; /* index + 1 into keys; 0 empty; capacity * 2 slots */
} device_set;

static size_t slot_of(const device_set *set, uint32_t role, int64_t rank, uint32_t type)
{
	size_t mask = set->capacity * 2 - 1;
	size_t h = ((size_t)role * 0x9E3779B1u) ^ ((size_t)(uint64_t)rank * 0x85EBCA77u) ^ ((size_t)type * 0xC2B2AE3Du);
	for (h &= mask;; h = (h + 1) & mask) {
		uint32_t at = set->slots[h];
		if (!at || (set->keys[at - 1].role == role && set->keys[at - 1].rank == rank &&
			    set->keys[at - 1].type == type))
			return h;
	}
}

/* The index of row i's device, or SIZE_MAX when none of the allocations is on it. */
static size_t known_device(const device_set *set, const rli_memory *memory, size_t i)
{
	uint32_t at;
	if (!set->count)
		return SIZE_MAX;
	at = set->slots[slot_of(set, memory->role[i], memory->rank_id[i], memory->device_type[i])];
	return at ? at - 1 : SIZE_MAX;
}

/* Row `row`'s device, added when new; SIZE_MAX when out of memory. */
static size_t device_of(device_set *set, const rli_memory *memory, size_t row)
{
	uint32_t role = memory->role[row], type = memory->device_type[row];
	int64_t rank = memory->rank_id[row];
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
			set->slots[slot_of(set, keys[i].role, keys[i].rank, keys[i].type)] = (uint32_t)(i + 1);
	}
	h = slot_of(set, role, rank, type);
	if (set->slots[h])
		return set->slots[h] - 1;
	set->keys[set->count] = (device_key){ role, type, rli_strpool_get(&memory->strings, role),
					      rli_strpool_get(&memory->strings, type), rank, 0, 0, 0, 0, 0 };
	set->slots[h] = (uint32_t)(set->count + 1);
	return set->count++;
}

/* Row i is on its device's reserved line: a table that shows one, a finite start and value. */
static int on_reserved_line(const rli_memory *memory, size_t i)
{
	return memory->shows_reserved && isfinite(memory->start_ms[i]) && isfinite(memory->reserved_mb[i]);
}

/* Rows of a table split on two threads: each fills the rows of one part, from where the part before left each device. */
#define FILL_PARTS 2
/* Fewer rows than this are filled on one thread: a second would not pay for itself. */
#define FILL_PARTS_FROM 65536

typedef struct {
	rli_memory_devices *out;
	const rli_memory *memory;
	const uint32_t *device_index; /* per row: its device's discovery index, UINT32_MAX for none */
	const size_t *rank_of_device; /* discovery index to place in out->devices */
	size_t rows[FILL_PARTS + 1];  /* part p fills rows rows[p]..rows[p + 1]-1 */
	size_t *next[FILL_PARTS];     /* per part and device (its place): where its next row goes */
	size_t *reserved[FILL_PARTS]; /* and its next reserved point */
} fill_work;

/* Places the rows of one part in their devices' runs: the rows of a device keep their table order. */
static int fill(void *arg, size_t part)
{
	const fill_work *w = arg;
	const rli_memory *memory = w->memory;
	rli_memory_devices *out = w->out;
	size_t *next = w->next[part], *reserved = w->reserved[part];
	for (size_t i = w->rows[part]; i < w->rows[part + 1]; i++) {
		size_t d, at;
		if (w->device_index[i] == UINT32_MAX)
			continue;
		d = w->rank_of_device[w->device_index[i]];
		if (on_reserved_line(memory, i)) {
			at = reserved[d]++;
			out->reserved_ms[at] = memory->start_ms[i];
			out->reserved_mb[at] = memory->reserved_mb[i];
			out->reserved_kb[at] = memory->size_kb[i];
		}
		if (!(memory->size_kb[i] > 0))
			continue;
		at = next[d]++;
		out->row[at] = (uint32_t)i;
		out->start_ms[at] = memory->start_ms[i];
		out->duration_ms[at] = memory->flags[i] & RLI_MEMORY_RELEASED ? memory->duration_ms[i] : 0;
		out->size_kb[at] = memory->size_kb[i];
		out->allocated_mb[at] = memory->allocated_mb[i];
		out->release_allocated_mb[at] = memory->release_allocated_mb[i];
		out->second_pool[at] = (memory->flags[i] & RLI_MEMORY_SECOND_POOL) != 0;
		out->op_name[at] = rli_strpool_get(&memory->strings, memory->name[i]);
		out->call_stack_top[at] = rli_strpool_get(&memory->strings, memory->call_stack_top[i]);
	}
	return RLI_OK;
}

/* Notes how many of each device's rows the passes have counted so far: those of the first part. */
static void count_first_part(device_set *set, int reserved)
{
	for (size_t d = 0; d < set->count; d++) {
		if (reserved)
			set->keys[d].reserved_before = set->keys[d].reserved;
		else
			set->keys[d].count_before = set->keys[d].count;
	}
}

/*
 * The devices' reserved runs from the table's reserve samples (Ascend's memory_record.csv) rather
 * than its rows: each device's in the samples' order, which is its time order. A sample of a
 * device without an allocation is no line.
 */
static int reserve_of_devices(rli_memory_devices *out, const rli_memory *memory, uint32_t *device,
			      const size_t *rank_of_device)
{
	size_t n = memory->reserve.count, *at = calloc(out->count ? out->count : 1, sizeof(*at));
	int error = RLI_OK;

	rli_bigmem_free(out->reserved_ms);
	rli_bigmem_free(out->reserved_mb);
	rli_bigmem_free(out->reserved_kb);
	out->reserved_ms = rli_bigmem_array(n, sizeof(double));
	out->reserved_mb = rli_bigmem_array(n, sizeof(double));
	out->reserved_kb = rli_bigmem_array(n, sizeof(double)); /* no sizes: zeroed */
	if (!at || !out->reserved_ms || !out->reserved_mb || !out->reserved_kb) {
		error = rli_error_oom();
		goto done;
	}
	/* from each sample's device as discovered to its place in the split */
	for (size_t i = 0; i < n; i++) {
		if (device[i] != UINT32_MAX)
			device[i] = (uint32_t)rank_of_device[device[i]];
		if (device[i] != UINT32_MAX)
			out->devices[device[i]].reserved_count++;
	}
	for (size_t d = 0, first = 0; d < out->count; first += out->devices[d++].reserved_count) {
		at[d] = first;
		out->devices[d].reserved_ms = out->reserved_ms + first;
		out->devices[d].reserved_mb = out->reserved_mb + first;
		out->devices[d].reserved_kb = out->reserved_kb + first;
	}
	for (size_t i = 0; i < n; i++) {
		if (device[i] == UINT32_MAX)
			continue;
		out->reserved_ms[at[device[i]]] = memory->reserve.items[i].ms;
		out->reserved_mb[at[device[i]]++] = memory->reserve.items[i].mb;
	}
done:
	free(at);
	return error;
}

/* Each reserve sample's device as discovered (the set's index), UINT32_MAX for none: before the devices are sorted. */
static uint32_t *devices_of_samples(const rli_memory *memory, const device_set *set)
{
	uint32_t *device = malloc((memory->reserve.count ? memory->reserve.count : 1) * sizeof(*device));
	for (size_t i = 0; device && i < memory->reserve.count; i++) {
		uint32_t slot = set->slots[slot_of(set, memory->reserve.items[i].role, memory->reserve.items[i].rank,
						   memory->reserve.items[i].device_type)];
		device[i] = slot && isfinite(memory->reserve.items[i].ms) && isfinite(memory->reserve.items[i].mb) ? slot - 1
												      : UINT32_MAX;
	}
	return device;
}

/*
 * Straight from the table's columns: each allocation's device is found once,
 * then the rows are placed device by device in table order (a counting
 * sort), so a million rows cost two passes, not a sort. The placing, which
 * writes every byte of the split, is shared out: the table's first and second
 * halves each fill their devices' runs from where the half before left them.
 */
int rli_memory_devices_split(rli_memory_devices *out, const rli_memory *memory, unsigned threads)
{
	size_t total = rli_memory_count(memory);
	size_t parts = total >= FILL_PARTS_FROM ? rli_task_threads(threads, FILL_PARTS, FILL_PARTS) : 1;
	size_t mid = parts > 1 ? total / 2 : total;
	size_t *cursors = NULL;
	fill_work work;
	uint32_t *device_index = rli_bigmem_array(total, sizeof(*device_index)), *sample_device = NULL;
	size_t *rank_of_device = NULL;
	device_set set = { 0 };
	int error = RLI_OK;

	memset(out, 0, sizeof(*out));
	out->row = rli_bigmem_array(total, sizeof(*out->row));
	out->start_ms = rli_bigmem_array(total, sizeof(double));
	out->duration_ms = rli_bigmem_array(total, sizeof(double));
	out->size_kb = rli_bigmem_array(total, sizeof(double));
	out->op_name = rli_bigmem_array(total, sizeof(char *));
	out->call_stack_top = rli_bigmem_array(total, sizeof(char *));
	/*
	 * The reserved line's room for every row it could take, mapped now: mapping it later, while the
	 * helper below faults pages in, waited for the helper (the kernel's lock on the process's
	 * mappings), 55-80 ms on 32 devices' million rows. Rows not taken are never touched.
	 */
	out->reserved_ms = rli_bigmem_array(memory->shows_reserved ? total : 0, sizeof(double));
	out->reserved_mb = rli_bigmem_array(memory->shows_reserved ? total : 0, sizeof(double));
	out->reserved_kb = rli_bigmem_array(memory->shows_reserved ? total : 0, sizeof(double));
	out->allocated_mb = rli_bigmem_array(total, sizeof(double));
	out->release_allocated_mb = rli_bigmem_array(total, sizeof(double));
	out->second_pool = rli_bigmem_array(total, 1);
	if (!device_index || !out->row || !out->start_ms || !out->duration_ms || !out->size_kb || !out->op_name ||
	    !out->call_stack_top || !out->reserved_ms || !out->reserved_mb || !out->reserved_kb || !out->allocated_mb ||
	    !out->release_allocated_mb || !out->second_pool) {
		error = rli_error_oom();
		goto done;
	}
	/* The columns filled last, faulted in on a spare core while the devices are found (48 MB a million rows). */
	rli_prefault(out->row, total * sizeof(*out->row));
	rli_prefault(out->start_ms, total * sizeof(double));
	rli_prefault(out->duration_ms, total * sizeof(double));
	rli_prefault(out->size_kb, total * sizeof(double));
	rli_prefault(out->allocated_mb, total * sizeof(double));
	rli_prefault(out->release_allocated_mb, total * sizeof(double));
	rli_prefault(out->op_name, total * sizeof(char *));
	rli_prefault(out->call_stack_top, total * sizeof(char *));
	for (size_t i = 0; i < total; i++) {
		size_t d;
		if (i == mid)
			count_first_part(&set, 0);
		device_index[i] = UINT32_MAX;
		if (!(memory->size_kb[i] > 0))
			continue;
		if ((d = device_of(&set, memory, i)) == SIZE_MAX) {
			error = rli_error_oom();
			goto done;
		}
		device_index[i] = (uint32_t)d;
		set.keys[d].count++;
	}
	/* The reserved line takes the frees too, of the devices the allocations made. */
	for (size_t i = 0; memory->shows_reserved && i < total; i++) {
		size_t d = device_index[i] != UINT32_MAX ? device_index[i] : known_device(&set, memory, i);
		if (i == mid)
			count_first_part(&set, 1);
		device_index[i] = d == SIZE_MAX ? UINT32_MAX : (uint32_t)d;
		if (d != SIZE_MAX && on_reserved_line(memory, i))
			set.keys[d].reserved++;
	}
	/* A device file's reserve, where the rows show none: its samples' devices found while the set can look them up. */
	if (!memory->shows_reserved && memory->reserve.count && set.count &&
	    !(sample_device = devices_of_samples(memory, &set))) {
		error = rli_error_oom();
		goto done;
	}
	/* The devices in (role, rank, type) order; each one's rows in a run of the columns, in table order. */
	rank_of_device = malloc((set.count ? set.count : 1) * sizeof(*rank_of_device));
	out->devices = calloc(set.count ? set.count : 1, sizeof(*out->devices));
	out->first = malloc((set.count ? set.count : 1) * sizeof(*out->first));
	out->device_type = calloc(set.count ? set.count : 1, sizeof(*out->device_type));
	cursors = malloc((set.count ? set.count : 1) * 2 * parts * sizeof(*cursors));
	if (!rank_of_device || !out->devices || !out->first || !out->device_type || !cursors) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t d = 0; d < set.count; d++)
		set.keys[d].next = d; /* remembers the discovery index through the sort */
	if (set.count) /* keys is NULL for a table without an allocation */
		qsort(set.keys, set.count, sizeof(*set.keys), compare_device);
	for (size_t d = 0, at = 0, reserved_at = 0; d < set.count; d++) {
		device_key *k = &set.keys[d];
		rank_of_device[k->next] = d;
		out->devices[d] = (rli_memory_device){ k->role_name, k->rank, k->count, out->start_ms + at,
						       out->duration_ms + at, out->size_kb + at, out->op_name + at,
						       out->call_stack_top + at, k->reserved, out->reserved_ms + reserved_at,
						       out->reserved_mb + reserved_at, k->type_name, 0, memory->totals,
						       out->allocated_mb + at, out->release_allocated_mb + at,
						       out->reserved_kb + reserved_at, out->second_pool + at };
		/* Neighbours in this order share (role, rank): both are named by their type. */
		if (d > 0 && set.keys[d - 1].rank == k->rank && strcmp(set.keys[d - 1].role_name, k->role_name) == 0)
			out->devices[d - 1].shares_rank = out->devices[d].shares_rank = 1;
		out->device_type[d] = k->type_name;
		out->first[d] = at;
		k->next = at;
		at += k->count;
		k->reserved = reserved_at;
		reserved_at += out->devices[d].reserved_count;
	}
	out->count = set.count;
	work = (fill_work){ out, memory, device_index, rank_of_device, { 0 }, { NULL }, { NULL } };
	for (size_t p = 0; p < parts; p++) {
		work.rows[p + 1] = p + 1 < parts ? mid : total;
		work.next[p] = cursors + 2 * p * set.count;
		work.reserved[p] = work.next[p] + set.count;
		for (size_t d = 0; d < set.count; d++) {
			work.next[p][d] = set.keys[d].next + (p ? set.keys[d].count_before : 0);
			work.reserved[p][d] = set.keys[d].reserved + (p ? set.keys[d].reserved_before : 0);
		}
	}
	error = rli_task_each(parts, (unsigned)parts, fill, &work);
	if (error == RLI_OK && sample_device)
		error = reserve_of_devices(out, memory, sample_device, rank_of_device);
done:
	free(sample_device);
	rli_bigmem_free(device_index);
	free(cursors);
	free(rank_of_device);
	free(set.keys);
	free(set.slots);
	return error;
}

void rli_memory_devices_dispose(rli_memory_devices *devices)
{
	rli_bigmem_free(devices->row);
	rli_bigmem_free(devices->start_ms);
	rli_bigmem_free(devices->duration_ms);
	rli_bigmem_free(devices->size_kb);
	rli_bigmem_free(devices->op_name);
	rli_bigmem_free(devices->call_stack_top);
	rli_bigmem_free(devices->reserved_ms);
	rli_bigmem_free(devices->reserved_mb);
	rli_bigmem_free(devices->reserved_kb);
	rli_bigmem_free(devices->allocated_mb);
	rli_bigmem_free(devices->release_allocated_mb);
	rli_bigmem_free(devices->second_pool);
	free(devices->devices);
	free(devices->first);
	free((void *)devices->device_type);
	memset(devices, 0, sizeof(*devices));
}

double rli_memory_first_ms(const rli_memory *memory)
{
	double first = INFINITY;
	for (size_t i = 0; i < memory->count; i++)
		if (memory->size_kb[i] > 0 && isfinite(memory->start_ms[i]) && memory->start_ms[i] < first)
			first = memory->start_ms[i];
	return first;
}

/* torch_memory.c: [memory] instant events to memory rows: gathered in the read, put in time order, allocations paired with their frees by (Addr, device). */
#include "torch_memory.h"
#include "json_stream.h"
#include "common/bigmem.h"
#include "common/grow.h"
#include "common/prefault.h"
#include "common/sort.h"
#include "memory/memory_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TM_NO_ROW UINT32_MAX
#define TM_FIRST_SLOTS 1024
#define PREFAULT_ROWS 32768 /* the table's rows asked for at a time, ahead of the pairing */
#define PAIR_AHEAD 16        /* events between a slot's prefetch and its use */

/* The profiler's Device Type values (c10::DeviceType): 0 CPU, 1 CUDA. */
enum { TM_DEVICE_CPU = 0, TM_DEVICE_CUDA = 1 };

void torch_memory_init(torch_memory *tm, unsigned devices, const char *role)
{
	memset(tm, 0, sizeof(*tm));
	tm->arg = -1;
	tm->span_kind = -1;
	tm->last_tid = RLI_STRPOOL_NONE;
	tm->devices = devices;
	tm->role = role;
	rli_strpool_init(&tm->names);
	rli_strpool_init(&tm->tids);
}

void torch_memory_dispose(torch_memory *tm)
{
	rli_bigmem_free(tm->events);
	rli_bigmem_free(tm->spans);
	free(tm->name.data);
	free(tm->tid.data);
	rli_strpool_dispose(&tm->names);
	rli_strpool_dispose(&tm->tids);
	memset(tm, 0, sizeof(*tm));
}

void torch_memory_event_reset(torch_memory *tm)
{
	tm->is_memory = 0;
	tm->span_kind = -1;
	tm->arg = -1;
	tm->have = 0;
	tm->cat_seen = 0;
	tm->name.set = tm->tid.set = 0;
}

/* Whether the event read so far may be ours: a [memory] event, a span, or one whose cat is still to come. */
static int may_matter(const torch_memory *tm)
{
	return tm->is_memory || tm->span_kind >= 0 || !tm->cat_seen;
}

static int keep_text(torch_memory_text *text, const char *data, size_t length)
{
	if (RLI_GROW(&text->data, &text->capacity, length + 1, 64) < 0)
		return RLI_ERROR;
	memcpy(text->data, data, length);
	text->data[length] = '\0';
	text->length = length;
	text->set = 1;
	return RLI_OK;
}

int torch_memory_name(torch_memory *tm, const char *text, size_t length)
{
	if (!tm->devices)
		return RLI_OK;
	tm->is_memory = length == 8 && memcmp(text, "[memory]", 8) == 0;
	/* Kineto writes cat before name: a kernel's or a runtime call's name is not kept. */
	return may_matter(tm) ? keep_text(&tm->name, text, length) : RLI_OK;
}

void torch_memory_cat(torch_memory *tm, const char *text, size_t length)
{
	if (!tm->devices)
		return;
	tm->cat_seen = 1;
	if (length == 6 && memcmp(text, "cpu_op", 6) == 0)
		tm->span_kind = TM_SPAN_OP;
	else if (length == 15 && memcmp(text, "python_function", 15) == 0)
		tm->span_kind = TM_SPAN_FRAME;
	else
		tm->span_kind = -1;
}

int torch_memory_tid(torch_memory *tm, const char *text, size_t length)
{
	return tm->devices && may_matter(tm) ? keep_text(&tm->tid, text, length) : RLI_OK;
}

void torch_memory_arg_key(torch_memory *tm, const unsigned char *key, size_t length)
{
	/*
	 * The six keys have six lengths: one comparison a key, of a length known here, which the
	 * compiler makes a few word compares (memcmp through the PLT was 60 ms on 1.7M events).
	 */
	tm->arg = -1;
	if (!tm->devices || !tm->is_memory)
		return;
	switch (length) {
	case 4:
		tm->arg = memcmp(key, "Addr", 4) == 0 ? TM_ADDR : -1;
		break;
	case 5:
		tm->arg = memcmp(key, "Bytes", 5) == 0 ? TM_BYTES : -1;
		break;
	case 9:
		tm->arg = memcmp(key, "Device Id", 9) == 0 ? TM_DEVICE_ID : -1;
		break;
	case 11:
		tm->arg = memcmp(key, "Device Type", 11) == 0 ? TM_DEVICE_TYPE : -1;
		break;
	case 14:
		tm->arg = memcmp(key, "Total Reserved", 14) == 0 ? TM_TOTAL_RESERVED : -1;
		break;
	case 15:
		tm->arg = memcmp(key, "Total Allocated", 15) == 0 ? TM_TOTAL_ALLOCATED : -1;
		break;
	default:
		break;
	}
}

void torch_memory_arg_value(torch_memory *tm, const char *text, size_t length, int kind)
{
	char digits[32];
	char *end;
	int64_t integer;
	if (tm->arg < 0 || kind != 'n')
		return;
	if (tm->arg == TM_ADDR) {
		/* Addresses pass 2^53: read exactly, not through a double. */
		if (length >= sizeof(digits) || text[0] == '-')
			return;
		if (length <= 18 && rli_text_to_int64(&integer, text, length) == 0) {
			tm->addr = (uint64_t)integer;
		} else {
			memcpy(digits, text, length);
			digits[length] = '\0';
			errno = 0;
			tm->addr = strtoull(digits, &end, 10);
			if (*end || errno)
				return;
		}
	} else if (length <= 15 && rli_text_to_int64(&integer, text, length) == 0 && (integer || text[0] != '-')) {
		/* Sizes and ids are integers, exact in a double up to 15 digits ("-0" is the double -0). */
		tm->value[tm->arg] = (double)integer;
	} else if (rli_text_to_double(&tm->value[tm->arg], text, length) < 0) {
		return;
	}
	tm->have |= 1u << tm->arg;
}

static int wanted_device(const torch_memory *tm, int type)
{
	if (type == TM_DEVICE_CUDA)
		return (tm->devices & RLI_MEMORY_DEVICE_CUDA) != 0;
	if (type == TM_DEVICE_CPU)
		return (tm->devices & RLI_MEMORY_DEVICE_CPU) != 0;
	return 0;
}

/* The event's thread; an event without a tid shares the thread "" with the others that lack one. */
static uint32_t thread_of(torch_memory *tm)
{
	const char *text = tm->tid.set ? tm->tid.data : "";
	size_t length = tm->tid.set ? tm->tid.length : 0;
	/* Events come in runs on one thread: the last one's id, without hashing, most of the time. */
	if (tm->last_tid != RLI_STRPOOL_NONE && rli_strpool_length(&tm->tids, tm->last_tid) == length &&
	    memcmp(rli_strpool_get(&tm->tids, tm->last_tid), text, length) == 0)
		return tm->last_tid;
	return tm->last_tid = rli_strpool_intern(&tm->tids, text, length);
}

static int keep_memory_event(torch_memory *tm, double ts_us)
{
	const unsigned needed = 1u << TM_BYTES | 1u << TM_ADDR | 1u << TM_DEVICE_TYPE | 1u << TM_DEVICE_ID;
	torch_memory_event *event;
	uint32_t tid;
	int type;

	if ((tm->have & needed) != needed || !(tm->value[TM_DEVICE_ID] > -1e9 && tm->value[TM_DEVICE_ID] < 1e9)) {
		tm->bad++;
		return RLI_OK;
	}
	type = tm->value[TM_DEVICE_TYPE] == TM_DEVICE_CUDA ? TM_DEVICE_CUDA
	       : tm->value[TM_DEVICE_TYPE] == TM_DEVICE_CPU ? TM_DEVICE_CPU
							    : -1;
	if (!wanted_device(tm, type) || tm->value[TM_BYTES] == 0)
		return RLI_OK;
	/* Millions of events: in pages that grow in place, not copied. */
	if (RLI_GROW_BIG(&tm->events, &tm->event_capacity, tm->event_count + 1, 4096) < 0)
		return RLI_ERROR;
	event = &tm->events[tm->event_count];
	if (tm->event_count && ts_us < event[-1].ts_us)
		tm->out_of_order++;
	event->ts_us = ts_us;
	event->bytes = tm->value[TM_BYTES];
	event->allocated = tm->value[TM_TOTAL_ALLOCATED];
	event->reserved = tm->value[TM_TOTAL_RESERVED];
	event->has_allocated = (tm->have >> TM_TOTAL_ALLOCATED) & 1;
	event->has_reserved = (tm->have >> TM_TOTAL_RESERVED) & 1;
	event->addr = tm->addr;
	event->device_id = (int32_t)tm->value[TM_DEVICE_ID];
	event->type = type == TM_DEVICE_CUDA;
	if ((tid = thread_of(tm)) == RLI_STRPOOL_NONE)
		return rli_error_oom();
	if (tid >= TM_MAX_THREADS || tm->event_count >= UINT32_MAX - 1)
		return rli_error_set(RLI_ERROR, "more [memory] events or threads in one trace than rl-insight pairs "
				     "(%u threads, %u events)", (unsigned)TM_MAX_THREADS, (unsigned)UINT32_MAX - 1);
	event->tid = tid;
	tm->event_count++;
	tm->allocations += event->bytes > 0;
	return RLI_OK;
}

/*
 * The span's name in tm->names. Names repeat (a model's operators and Python frames, millions of
 * spans in a trace taken with_stack): one seen before is found by a key of its length and its
 * first and last eight bytes and one comparison, where interning hashes the whole text. On 128
 * traces of 93,000 spans each, hashing names was a tenth of the memory analysis.
 */
static uint32_t name_of(torch_memory *tm, const char *text, size_t length)
{
	uint64_t head = 0, tail = 0;
	size_t slot;
	uint32_t id;
	memcpy(&head, text, length < 8 ? length : 8);
	if (length > 8)
		memcpy(&tail, text + length - 8, 8);
	slot = (size_t)((((head ^ (tail * UINT64_C(0x9E3779B97F4A7C15))) + length) * UINT64_C(0xff51afd7ed558ccd)) >>
			56) & (TM_NAME_SLOTS - 1);
	id = tm->name_seen[slot];
	if (id && rli_strpool_length(&tm->names, id - 1) == length &&
	    memcmp(rli_strpool_get(&tm->names, id - 1), text, length) == 0)
		return id - 1;
	id = rli_strpool_intern(&tm->names, text, length);
	if (id != RLI_STRPOOL_NONE)
		tm->name_seen[slot] = id + 1;
	return id;
}

/* A cpu_op or python_function with a time and a length: where later [memory] events may lie. */
static int keep_span(torch_memory *tm, double ts_us, double dur_us)
{
	torch_memory_span *span;
	if (!tm->name.set || !(dur_us >= 0) || !(ts_us + dur_us >= ts_us))
		return RLI_OK;
	if (RLI_GROW_BIG(&tm->spans, &tm->span_capacity, tm->span_count + 1, 4096) < 0)
		return RLI_ERROR;
	span = &tm->spans[tm->span_count];
	span->start_us = ts_us;
	span->end_us = ts_us + dur_us;
	span->kind = (uint32_t)tm->span_kind;
	span->order = (uint32_t)tm->span_count;
	span->name = name_of(tm, tm->name.data, tm->name.length);
	span->tid = thread_of(tm);
	if (span->name == RLI_STRPOOL_NONE || span->tid == RLI_STRPOOL_NONE)
		return rli_error_oom();
	tm->span_count++;
	return RLI_OK;
}

int torch_memory_event_done(torch_memory *tm, int has_ts, double ts_us, int has_dur, double dur_us)
{
	if (!tm->devices || !has_ts)
		return RLI_OK;
	if (tm->is_memory)
		return keep_memory_event(tm, ts_us);
	if (tm->span_kind >= 0 && has_dur && tm->span_count < UINT32_MAX)
		return keep_span(tm, ts_us, dur_us);
	return RLI_OK;
}

/* ---- pairing ------------------------------------------------------------ */

/* The event's device as the map keys it: the type in the top bit, the id (within +-1e9 < 2^30) offset by 2^30 below. */
static uint32_t device_of(const torch_memory_event *event)
{
	return (uint32_t)event->type << 31 | (uint32_t)(event->device_id + ((int32_t)1 << 30));
}

/* A pending allocation: the open-addressing map's slot, keyed by (Addr, device); 16 bytes. */
typedef struct {
	uint64_t addr;
	uint32_t device; /* device_of; the slot is free when row is TM_NO_ROW */
	uint32_t row;
} pending_slot;

typedef struct {
	pending_slot *slots;
	size_t count, used;
} pending_map;

static size_t slot_of(const pending_map *map, uint64_t addr, uint32_t device)
{
	uint64_t h = (addr ^ ((uint64_t)device * 0x9E3779B97F4A7C15ull)) * 0xff51afd7ed558ccdull;
	return (size_t)(h >> 17) & (map->count - 1);
}

/* The slot holding (addr, device), or the empty one where it would go. */
static pending_slot *find_slot(pending_map *map, uint64_t addr, uint32_t device)
{
	size_t i = slot_of(map, addr, device);
	while (map->slots[i].row != TM_NO_ROW && (map->slots[i].addr != addr || map->slots[i].device != device))
		i = (i + 1) & (map->count - 1);
	return &map->slots[i];
}

/* Keeps the map at most half full, so probes stay short. */
static int make_room(pending_map *map)
{
	pending_slot *old = map->slots;
	size_t old_count = map->count, count = old_count ? old_count * 2 : TM_FIRST_SLOTS;
	if (map->used + 1 <= old_count / 2)
		return RLI_OK;
	if (!(map->slots = rli_bigmem_array(count, sizeof(*old)))) {
		map->slots = old;
		return rli_error_oom();
	}
	map->count = count;
	for (size_t i = 0; i < count; i++)
		map->slots[i].row = TM_NO_ROW;
	for (size_t i = 0; i < old_count; i++)
		if (old[i].row != TM_NO_ROW)
			*find_slot(map, old[i].addr, old[i].device) = old[i];
	rli_bigmem_free(old);
	return RLI_OK;
}

/* Empties a slot, moving later ones of its probe run back so every lookup still finds them. */
static void remove_slot(pending_map *map, pending_slot *slot)
{
	size_t mask = map->count - 1, hole = (size_t)(slot - map->slots), i = hole;
	map->slots[hole].row = TM_NO_ROW;
	map->used--;
	for (;;) {
		size_t home;
		i = (i + 1) & mask;
		if (map->slots[i].row == TM_NO_ROW)
			return;
		home = slot_of(map, map->slots[i].addr, map->slots[i].device);
		/* The entry may fill the hole when the hole lies on its way from home to i. */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			map->slots[hole] = map->slots[i];
			map->slots[i].row = TM_NO_ROW;
			hole = i;
		}
	}
}

#define KNOWN_DEVICES 16

/*
 * The strings every row of a file shares, interned once, and the names of the first devices seen
 * (a file's events alternate between its few devices: a name made per row cost a tenth of the pairing).
 */
typedef struct {
	uint32_t role, name;
	size_t devices;
	uint32_t device_key[KNOWN_DEVICES];
	uint32_t device[KNOWN_DEVICES];
} row_strings;

/* The device's name ("CUDA:0") in the table's strings; RLI_STRPOOL_NONE when out of memory. */
static uint32_t device_name(rli_memory *memory, row_strings *strings, uint32_t device_key, const torch_memory_event *event)
{
	char text[48];
	int length;
	uint32_t id;
	for (size_t i = 0; i < strings->devices; i++)
		if (strings->device_key[i] == device_key)
			return strings->device[i];
	length = snprintf(text, sizeof(text), "%s:%lld", event->type == TM_DEVICE_CUDA ? "CUDA" : "CPU",
			  (long long)event->device_id);
	id = rli_memory_intern(memory, text, (size_t)length);
	if (id != RLI_STRPOOL_NONE && strings->devices < KNOWN_DEVICES) {
		strings->device_key[strings->devices] = device_key;
		strings->device[strings->devices++] = id;
	}
	return id;
}

static int append_row(rli_memory *memory, row_strings *strings, uint32_t device_key, const torch_memory_event *event)
{
	rli_memory_in row;
	memset(&row, 0, sizeof(row));
	row.name = strings->name;
	row.role = strings->role;
	if ((row.device_type = device_name(memory, strings, device_key, event)) == RLI_STRPOOL_NONE)
		return rli_error_oom();
	row.call_stack = row.call_stack_top = memory->empty;
	row.size_kb = event->bytes / 1024;
	row.start_ms = event->ts_us / 1000;
	row.allocated_mb = event->has_allocated ? event->allocated / 1048576 : 0;
	row.reserved_mb = event->has_reserved ? event->reserved / 1048576 : 0;
	row.match = RLI_MEMORY_UNMATCHED;
	return rli_memory_append(memory, &row);
}

/*
 * The events in time order (ties in file order), each allocation a row that its free closes;
 * row_ts[row] and row_tid[row] the time (µs, as written) and thread of the row's event.
 */
static int pair_events(torch_memory *tm, rli_memory *memory, uint32_t role, double *row_ts, uint32_t *row_tid)
{
	pending_map map = {NULL, 0, 0};
	row_strings strings = {.role = role, .name = rli_memory_intern(memory, "[memory]", 8)};
	size_t *order = NULL, asked = 0; /* the helper has been asked for rows 0..asked-1 */
	int error = RLI_OK;

	if (strings.name == RLI_STRPOOL_NONE)
		return rli_error_oom();
	if (tm->out_of_order) {
		double *ts = rli_bigmem_array(tm->event_count, sizeof(*ts));
		if (!ts)
			return rli_error_oom();
		for (size_t i = 0; i < tm->event_count; i++)
			ts[i] = tm->events[i].ts_us;
		order = rli_sorted_rows(ts, tm->event_count);
		rli_bigmem_free(ts);
		if (!order)
			return rli_error_oom();
	}
	for (size_t k = 0; k < tm->event_count; k++) {
		const torch_memory_event *event = &tm->events[order ? order[k] : k];
		uint32_t device = device_of(event);
		pending_slot *slot;
		/*
		 * The table's pages are faulted in a run of rows ahead, on another core where there is
		 * one: first writes are most of this loop's cost. No further than the allocations, which
		 * are the rows but for the frees of blocks from before the capture.
		 */
		if (asked < tm->allocations && memory->count + PREFAULT_ROWS >= asked) {
			size_t to = tm->allocations - asked > 2 * PREFAULT_ROWS ? asked + 2 * PREFAULT_ROWS : tm->allocations;
			rli_memory_prefault(memory, asked, to);
			rli_prefault(row_ts + asked, (to - asked) * sizeof(*row_ts));
			rli_prefault(row_tid + asked, (to - asked) * sizeof(*row_tid));
			asked = to;
		}
		if ((error = make_room(&map)) < 0)
			goto done;
		/* The map outgrows the caches: the slot of an event a few ahead is fetched while this one is paired. */
		if (k + PAIR_AHEAD < tm->event_count) {
			const torch_memory_event *ahead = &tm->events[order ? order[k + PAIR_AHEAD] : k + PAIR_AHEAD];
			__builtin_prefetch(&map.slots[slot_of(&map, ahead->addr, device_of(ahead))]);
		}
		slot = find_slot(&map, event->addr, device);
		if (event->bytes < 0 && slot->row != TM_NO_ROW) {
			uint32_t row = slot->row;
			/* In µs first, as written: 1300 - 1000 is 300 exactly, 1.3 - 1.0 is not 0.3. */
			memory->duration_ms[row] = (event->ts_us - row_ts[row]) / 1000;
			memory->flags[row] |= RLI_MEMORY_RELEASED;
			remove_slot(&map, slot);
			continue;
		}
		/* A free of a block allocated before the capture stays a row of its own, negative, as Ascend's do. */
		row_ts[memory->count] = event->ts_us;
		row_tid[memory->count] = event->tid;
		if ((error = append_row(memory, &strings, device, event)) < 0)
			goto done;
		if (event->bytes < 0) {
			tm->orphan_frees++;
			continue;
		}
		/* A second allocation at a pending address replaces the first, which then lives to the end. */
		if (slot->row == TM_NO_ROW) {
			slot->addr = event->addr;
			slot->device = device;
			map.used++;
		} else {
			tm->reallocated++;
		}
		slot->row = (uint32_t)(memory->count - 1);
	}
done:
	rli_bigmem_free(map.slots);
	rli_bigmem_free(order);
	return error;
}

int torch_memory_finish(torch_memory *tm, int64_t rank, rli_memory **out)
{
	rli_memory *memory = NULL;
	uint32_t *row_tid = NULL, role;
	double *row_ts = NULL;
	int error;

	*out = NULL;
	if (!tm->devices || tm->event_count == 0)
		return RLI_OK; /* a trace taken without profile_memory: no table to carry around */
	if ((error = rli_memory_new(&memory)) < 0)
		return error;
	role = rli_memory_intern(memory, tm->role ? tm->role : "", tm->role ? strlen(tm->role) : 0);
	/* Every event is at most a row: room for all of them at once. */
	if (role == RLI_STRPOOL_NONE || (error = rli_memory_reserve(memory, tm->event_count)) < 0 ||
	    !(row_tid = rli_bigmem_array(tm->event_count, sizeof(*row_tid))) ||
	    !(row_ts = rli_bigmem_array(tm->event_count, sizeof(*row_ts)))) {
		error = rli_error_oom();
		goto done;
	}
	if ((error = pair_events(tm, memory, role, row_ts, row_tid)) < 0 ||
	    (error = torch_memory_attribute(tm, memory, row_ts, row_tid)) < 0)
		goto done;
	for (size_t i = 0; i < memory->count; i++)
		memory->rank_id[i] = rank;
	memory->shows_reserved = 1;
	tm->rows = memory->count;
	*out = memory;
	memory = NULL;
done:
	rli_bigmem_free(row_tid);
	rli_bigmem_free(row_ts);
	rli_memory_free(memory);
	return error;
}

void torch_memory_notes(const torch_memory *tm, rli_unit *unit)
{
	if (tm->bad)
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: %llu [memory] event(s) without a number in "
			      "'Bytes', 'Addr', 'Device Type' or 'Device Id' left out",
			      unit->path, (unsigned long long)tm->bad);
	if (tm->reallocated)
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: %llu [memory] allocation(s) at an address whose block "
			      "was not freed; the earlier block is taken as live to the end of the capture",
			      unit->path, (unsigned long long)tm->reallocated);
	if (tm->out_of_order)
		rli_notes_add(&unit->log, RLI_LOG_INFO, "%s: %llu [memory] event(s) written out of time order; "
			      "paired in time order", unit->path, (unsigned long long)tm->out_of_order);
	if (tm->orphan_frees)
		rli_notes_add(&unit->log, RLI_LOG_INFO, "%s: %llu free(s) of blocks allocated before the capture "
			      "kept as negative rows", unit->path, (unsigned long long)tm->orphan_frees);
	if (tm->rows)
		rli_notes_add(&unit->log, RLI_LOG_INFO, "%s: %llu memory row(s); an operator found for %llu, "
			      "a Python stack for %llu", unit->path, (unsigned long long)tm->rows,
			      (unsigned long long)tm->with_op, (unsigned long long)tm->with_stack);
}

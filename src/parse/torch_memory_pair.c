/* torch_memory_pair.c: [memory] events to memory rows, each allocation paired with its free by (Addr, device): after the read, or alongside it on a spare core. */
#include "torch_memory.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/prefault.h"
#include "common/sort.h"
#include "common/task.h"
#include "memory/memory_table.h"

#include <pthread.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NO_ROW UINT32_MAX
#define FIRST_SLOTS 1024
#define PREFAULT_ROWS 32768 /* the table's rows asked for at a time, ahead of the pairing */
#define PAIR_AHEAD 16        /* events between a slot's prefetch and its use */

/*
 * The event's device as the map keys it: the kind in the top two bits, the id (within
 * +-TM_MAX_DEVICE_ID < 2^28) offset by 2^28 below them.
 */
static uint32_t device_of(const torch_memory_event *event)
{
	return (uint32_t)event->type << 30 | (uint32_t)(event->device_id + ((int32_t)1 << 28));
}

/* A pending allocation: the open-addressing map's slot, keyed by (Addr, device); 16 bytes. */
typedef struct {
	uint64_t addr;
	uint32_t device; /* device_of; the slot is free when row is NO_ROW */
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
	while (map->slots[i].row != NO_ROW && (map->slots[i].addr != addr || map->slots[i].device != device))
		i = (i + 1) & (map->count - 1);
	return &map->slots[i];
}

/* Keeps the map at most half full, so probes stay short. */
static int make_room(pending_map *map)
{
	pending_slot *old = map->slots;
	size_t old_count = map->count, count = old_count ? old_count * 2 : FIRST_SLOTS;
	if (map->used + 1 <= old_count / 2)
		return RLI_OK;
	if (!(map->slots = rli_bigmem_array(count, sizeof(*old)))) {
		map->slots = old;
		return rli_error_oom();
	}
	map->count = count;
	for (size_t i = 0; i < count; i++)
		map->slots[i].row = NO_ROW;
	for (size_t i = 0; i < old_count; i++)
		if (old[i].row != NO_ROW)
			*find_slot(map, old[i].addr, old[i].device) = old[i];
	rli_bigmem_free(old);
	return RLI_OK;
}

/* Empties a slot, moving later ones of its probe run back so every lookup still finds them. */
static void remove_slot(pending_map *map, pending_slot *slot)
{
	size_t mask = map->count - 1, hole = (size_t)(slot - map->slots), i = hole;
	map->slots[hole].row = NO_ROW;
	map->used--;
	for (;;) {
		size_t home;
		i = (i + 1) & mask;
		if (map->slots[i].row == NO_ROW)
			return;
		home = slot_of(map, map->slots[i].addr, map->slots[i].device);
		/* The entry may fill the hole when the hole lies on its way from home to i. */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			map->slots[hole] = map->slots[i];
			map->slots[i].row = NO_ROW;
			hole = i;
		}
	}
}

#define KNOWN_DEVICES 16

/*
 * A pairing: the rows made so far and the allocations still open. After the read it pairs every
 * event at once; alongside the read, on a thread of its own, the events handed over so far, in
 * turns, while the read appends the next ones to chunks this side never writes.
 */
struct tm_pairing {
	const torch_memory *tm; /* alongside the read, only its chunks (below published) are read here */
	tm_rows rows;
	size_t row_capacity;    /* of rows.row_ts and rows.row_tid, and at most the table's */
	size_t rows_known;      /* rows there will be at most, when known ahead (after the read); else 0 */
	size_t asked;           /* rows asked of the prefault helper */
	pending_map map;
	/* the strings every row shares, interned once, and the names of the first devices seen (a
	   file's events alternate between its few devices: a name made per row cost a tenth of the pairing) */
	uint32_t role, name;
	size_t devices;
	uint32_t device_key[KNOWN_DEVICES];
	uint32_t device[KNOWN_DEVICES];
	size_t paired;          /* events paired */
	uint64_t orphan_frees, reallocated;
	/* alongside the read */
	pthread_mutex_t lock;
	pthread_cond_t more;
	size_t published;       /* under lock: events the read has handed over */
	int finished;           /* under lock: the read is over, every event handed over */
	int abandoned;          /* under lock: stop, the rows will not be used */
	rli_task task;
};

void tm_rows_dispose(tm_rows *rows)
{
	rli_memory_free(rows->memory);
	rli_bigmem_free(rows->row_ts);
	rli_bigmem_free(rows->row_tid);
	memset(rows, 0, sizeof(*rows));
}

static void pairing_free(tm_pairing *p)
{
	if (!p)
		return;
	tm_rows_dispose(&p->rows);
	rli_bigmem_free(p->map.slots);
	free(p);
}

/* A pairing of tm's events into a table of their own, room made for `rows` rows. NULL when out of memory. */
static tm_pairing *pairing_new(const torch_memory *tm, size_t rows, size_t known)
{
	tm_pairing *p = calloc(1, sizeof(*p));
	const char *role = tm->role ? tm->role : "";
	if (!p)
		return NULL;
	p->tm = tm;
	p->rows_known = known;
	if (rli_memory_new(&p->rows.memory) < 0 ||
	    (p->role = rli_memory_intern(p->rows.memory, role, strlen(role))) == RLI_STRPOOL_NONE ||
	    (p->name = rli_memory_intern(p->rows.memory, "[memory]", 8)) == RLI_STRPOOL_NONE ||
	    rli_memory_reserve(p->rows.memory, rows) < 0 || !(p->rows.row_ts = rli_bigmem_array(rows, sizeof(double))) ||
	    !(p->rows.row_tid = rli_bigmem_array(rows, sizeof(uint32_t)))) {
		pairing_free(p);
		return NULL;
	}
	p->row_capacity = rows;
	return p;
}

/* Room for one more row: the table and the rows' times and threads grown together, doubled. */
static int room_for_row(tm_pairing *p)
{
	size_t capacity = p->row_capacity * 2;
	double *ts;
	uint32_t *tid;
	if (p->rows.memory->count < p->row_capacity)
		return RLI_OK;
	if (rli_memory_reserve(p->rows.memory, capacity) < 0)
		return RLI_ERROR;
	if (!(ts = rli_bigmem_resize(p->rows.row_ts, capacity * sizeof(*ts))))
		return rli_error_oom();
	p->rows.row_ts = ts;
	if (!(tid = rli_bigmem_resize(p->rows.row_tid, capacity * sizeof(*tid))))
		return rli_error_oom();
	p->rows.row_tid = tid;
	p->row_capacity = capacity;
	p->asked = p->rows.memory->count; /* the columns moved: what was asked ahead is elsewhere now */
	return RLI_OK;
}

/* The device's name ("CUDA:0", "HIP:0", "NPU:1", "CPU:-1") in the table's strings; RLI_STRPOOL_NONE when out of memory. */
static uint32_t device_name(tm_pairing *p, uint32_t device_key, const torch_memory_event *event)
{
	static const char *const kinds[RLI_TORCH_KINDS] = { "CPU", "CUDA", "HIP", "NPU" };
	char text[48];
	int length;
	uint32_t id;
	for (size_t i = 0; i < p->devices; i++)
		if (p->device_key[i] == device_key)
			return p->device[i];
	length = snprintf(text, sizeof(text), "%s:%lld", kinds[event->type], (long long)event->device_id);
	id = rli_memory_intern(p->rows.memory, text, (size_t)length);
	if (id != RLI_STRPOOL_NONE && p->devices < KNOWN_DEVICES) {
		p->device_key[p->devices] = device_key;
		p->device[p->devices++] = id;
	}
	return id;
}

static int append_row(tm_pairing *p, uint32_t device_key, const torch_memory_event *event)
{
	rli_memory *memory = p->rows.memory;
	rli_memory_in row;
	memset(&row, 0, sizeof(row));
	row.name = p->name;
	row.role = p->role;
	if ((row.device_type = device_name(p, device_key, event)) == RLI_STRPOOL_NONE)
		return rli_error_oom();
	row.call_stack = row.call_stack_top = memory->empty;
	row.size_kb = event->bytes / 1024;
	row.start_ms = event->ts_us / 1000;
	row.allocated_mb = event->has_allocated ? event->allocated / 1048576 : 0;
	row.reserved_mb = event->has_reserved ? event->reserved / 1048576 : 0;
	row.release_allocated_mb = NAN; /* set by the free that closes the block, if one does */
	row.match = RLI_MEMORY_UNMATCHED;
	p->rows.row_ts[memory->count] = event->ts_us;
	p->rows.row_tid[memory->count] = event->tid;
	return rli_memory_append(memory, &row);
}

/*
 * The table's next rows faulted in a run ahead, on another core where there is one: first
 * writes are most of the pairing's cost. No further than the rows there will be when that is
 * known, else than the room made.
 */
static void prefault_rows(tm_pairing *p)
{
	size_t limit = p->rows_known ? p->rows_known : p->row_capacity, count = p->rows.memory->count, to;
	if (p->asked >= limit || count + PREFAULT_ROWS < p->asked)
		return;
	to = limit - p->asked > 2 * PREFAULT_ROWS ? p->asked + 2 * PREFAULT_ROWS : limit;
	rli_memory_prefault(p->rows.memory, p->asked, to);
	rli_prefault(p->rows.row_ts + p->asked, (to - p->asked) * sizeof(*p->rows.row_ts));
	rli_prefault(p->rows.row_tid + p->asked, (to - p->asked) * sizeof(*p->rows.row_tid));
	p->asked = to;
}

/*
 * Pairs the events p->paired..to-1, taken in `order` (file order when NULL): each allocation
 * a row that its free closes.
 */
static int pair_events(tm_pairing *p, size_t to, const size_t *order)
{
	const torch_memory *tm = p->tm;
	rli_memory *memory = p->rows.memory;
	int error;

	for (size_t k = p->paired; k < to; k++) {
		const torch_memory_event *event = torch_memory_event_at(tm, order ? order[k] : k);
		uint32_t device = device_of(event);
		pending_slot *slot;
		prefault_rows(p);
		if ((error = make_room(&p->map)) < 0)
			return error;
		/* The map outgrows the caches: the slot of an event a few ahead is fetched while this one
		   is paired (never past `to`: alongside the read, what lies there may not be written yet). */
		if (k + PAIR_AHEAD < to) {
			const torch_memory_event *ahead = torch_memory_event_at(tm, order ? order[k + PAIR_AHEAD] : k + PAIR_AHEAD);
			__builtin_prefetch(&p->map.slots[slot_of(&p->map, ahead->addr, device_of(ahead))]);
		}
		slot = find_slot(&p->map, event->addr, device);
		if (event->bytes < 0 && slot->row != NO_ROW) {
			uint32_t row = slot->row;
			/* In µs first, as written: 1300 - 1000 is 300 exactly, 1.3 - 1.0 is not 0.3. */
			memory->duration_ms[row] = (event->ts_us - p->rows.row_ts[row]) / 1000;
			memory->flags[row] |= RLI_MEMORY_RELEASED;
			/* the free's own Total Allocated: not what the curve is drawn from (EVENTS), what it is checked by */
			memory->release_allocated_mb[row] = event->has_allocated ? event->allocated / 1048576 : NAN;
			remove_slot(&p->map, slot);
			continue;
		}
		/* A free of a block allocated before the capture stays a row of its own, negative, as Ascend's do. */
		if ((error = room_for_row(p)) < 0 || (error = append_row(p, device, event)) < 0)
			return error;
		if (event->bytes < 0) {
			p->orphan_frees++;
			continue;
		}
		/* A second allocation at a pending address replaces the first, which then lives to the end. */
		if (slot->row == NO_ROW) {
			slot->addr = event->addr;
			slot->device = device;
			p->map.used++;
		} else {
			p->reallocated++;
		}
		slot->row = (uint32_t)(memory->count - 1);
	}
	p->paired = to;
	return RLI_OK;
}

/* Every event of tm, after the read: in time order, ties in file order. NULL (error set) when out of memory. */
static tm_pairing *pair_all(const torch_memory *tm, int *error)
{
	/* Every event is at most a row; the rows are the allocations but for the frees of blocks from before the capture. */
	tm_pairing *p = pairing_new(tm, tm->event_count, tm->allocations);
	size_t *order = NULL;
	*error = RLI_OK;
	if (!p) {
		*error = rli_error_oom();
		return NULL;
	}
	if (tm->out_of_order) {
		double *ts = rli_bigmem_array(tm->event_count, sizeof(*ts));
		if (!ts) {
			*error = rli_error_oom();
			goto failed;
		}
		for (size_t i = 0; i < tm->event_count; i++)
			ts[i] = torch_memory_event_at(tm, i)->ts_us;
		order = rli_sorted_rows(ts, tm->event_count);
		rli_bigmem_free(ts);
		if (!order) {
			*error = rli_error_oom();
			goto failed;
		}
	}
	*error = pair_events(p, tm->event_count, order);
	rli_bigmem_free(order);
	if (*error == RLI_OK)
		return p;
failed:
	pairing_free(p);
	return NULL;
}

/* ---- alongside the read ---------------------------------------------------- */

/* The helper: the events handed over, a turn at a time, until the read is over or the rows are not wanted. */
static int pair_alongside(void *arg)
{
	tm_pairing *p = arg;
	for (;;) {
		size_t to;
		int finished, abandoned, error;
		pthread_mutex_lock(&p->lock);
		while (p->published == p->paired && !p->finished && !p->abandoned)
			pthread_cond_wait(&p->more, &p->lock);
		to = p->published;
		finished = p->finished;
		abandoned = p->abandoned;
		pthread_mutex_unlock(&p->lock);
		if (abandoned)
			return RLI_OK;
		if ((error = pair_events(p, to, NULL)) < 0)
			return error;
		if (finished)
			return RLI_OK;
	}
}

void torch_memory_pair_start(torch_memory *tm)
{
	/* Room for two chunks' rows to begin with: the table grows as the events come. */
	tm_pairing *p = pairing_new(tm, 2 * TM_CHUNK_EVENTS, 0);
	if (!p) {
		rli_error_clear(); /* a hint: the events are paired after the read */
		return;
	}
	if (pthread_mutex_init(&p->lock, NULL) != 0) {
		pairing_free(p);
		return;
	}
	if (pthread_cond_init(&p->more, NULL) != 0) {
		pthread_mutex_destroy(&p->lock);
		pairing_free(p);
		return;
	}
	p->published = tm->event_count;
	if (rli_task_spawn(&p->task, pair_alongside, p) < 0) {
		pthread_cond_destroy(&p->more);
		pthread_mutex_destroy(&p->lock);
		pairing_free(p);
		return;
	}
	tm->alongside = p;
}

void torch_memory_pair_publish(torch_memory *tm)
{
	tm_pairing *p = tm->alongside;
	pthread_mutex_lock(&p->lock);
	p->published = tm->event_count;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->lock);
}

/* Tells the helper the read is over (every event handed over) or its rows are not wanted; waits for it. */
static int stop(tm_pairing *p, size_t events, int abandon)
{
	int error;
	pthread_mutex_lock(&p->lock);
	p->published = events;
	p->finished = 1;
	p->abandoned |= abandon;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->lock);
	error = rli_task_join(&p->task);
	pthread_cond_destroy(&p->more);
	pthread_mutex_destroy(&p->lock);
	return error;
}

void torch_memory_pair_abandon(torch_memory *tm)
{
	tm_pairing *p = tm->alongside;
	pthread_mutex_lock(&p->lock);
	p->abandoned = 1;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->lock);
}

void torch_memory_pair_dispose(torch_memory *tm)
{
	if (!tm->alongside)
		return;
	if (stop(tm->alongside, tm->event_count, 1) < 0)
		rli_error_clear();
	pairing_free(tm->alongside);
	tm->alongside = NULL;
}

int torch_memory_pair_finish(torch_memory *tm, tm_rows *rows)
{
	tm_pairing *p = tm->alongside;
	int error = RLI_OK;

	memset(rows, 0, sizeof(*rows));
	tm->alongside = NULL;
	/* The helper's rows are the answer unless an event came out of time order. */
	if (p && ((error = stop(p, tm->event_count, tm->out_of_order != 0)) < 0 || tm->out_of_order)) {
		pairing_free(p);
		p = NULL;
		if (error < 0)
			return error;
	}
	if (p)
		tm->paired_alongside = p->paired;
	else if (!(p = pair_all(tm, &error)))
		return error;
	tm->orphan_frees += p->orphan_frees;
	tm->reallocated += p->reallocated;
	*rows = p->rows;
	memset(&p->rows, 0, sizeof(p->rows));
	pairing_free(p);
	return RLI_OK;
}

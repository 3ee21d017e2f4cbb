/* torch_memory.c: [memory] instant events to memory rows: allocations paired with their frees by (Addr, device). */
#include "torch_memory.h"
#include "json_stream.h"
#include "memory/memory_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TM_NO_ROW SIZE_MAX
#define TM_FIRST_SLOTS 1024

/* The profiler's Device Type values (c10::DeviceType): 0 CPU, 1 CUDA. */
enum { TM_DEVICE_CPU = 0, TM_DEVICE_CUDA = 1 };

int torch_memory_init(torch_memory *tm, unsigned devices, const char *role)
{
	memset(tm, 0, sizeof(*tm));
	tm->arg = -1;
	tm->devices = devices;
	if (!devices)
		return RLI_OK;
	if (rli_memory_new(&tm->memory) < 0)
		return RLI_ERROR;
	tm->role = rli_memory_intern(tm->memory, role, strlen(role));
	return tm->role == RLI_STRPOOL_NONE ? rli_error_oom() : RLI_OK;
}

void torch_memory_dispose(torch_memory *tm)
{
	rli_memory_free(tm->memory);
	free(tm->slots);
	memset(tm, 0, sizeof(*tm));
}

void torch_memory_event_reset(torch_memory *tm)
{
	tm->is_memory = 0;
	tm->arg = -1;
	tm->have = 0;
}

void torch_memory_name(torch_memory *tm, const char *text, size_t length)
{
	tm->is_memory = tm->devices && length == 8 && memcmp(text, "[memory]", 8) == 0;
}

void torch_memory_arg_key(torch_memory *tm, const unsigned char *key, size_t length)
{
	static const char *const names[TM_ARG_COUNT] = {"Bytes", "Addr", "Device Type", "Device Id",
							 "Total Allocated", "Total Reserved"};
	tm->arg = -1;
	if (!tm->devices || length < 4 || length > 15)
		return;
	for (int i = 0; i < TM_ARG_COUNT; i++)
		if (strlen(names[i]) == length && memcmp(names[i], key, length) == 0)
			tm->arg = i;
}

void torch_memory_arg_value(torch_memory *tm, const char *text, size_t length, int kind)
{
	char digits[32];
	char *end;
	if (tm->arg < 0 || kind != 'n')
		return;
	if (rli_text_to_double(&tm->value[tm->arg], text, length) < 0)
		return;
	if (tm->arg == TM_ADDR) {
		/* Addresses pass 2^53: read exactly, not through a double. */
		if (length >= sizeof(digits) || text[0] == '-')
			return;
		memcpy(digits, text, length);
		digits[length] = '\0';
		tm->addr = strtoull(digits, &end, 10);
		if (*end)
			return;
	}
	tm->have |= 1u << tm->arg;
}

static size_t slot_of(const torch_memory *tm, uint64_t addr, int64_t device)
{
	uint64_t h = (addr ^ ((uint64_t)device * 0x9E3779B97F4A7C15ull)) * 0xff51afd7ed558ccdull;
	return (size_t)(h >> 17) & (tm->slot_count - 1);
}

/* The slot holding (addr, device), or the empty one where it would go. */
static torch_memory_slot *find_slot(torch_memory *tm, uint64_t addr, int64_t device)
{
	size_t i = slot_of(tm, addr, device);
	while (tm->slots[i].row != TM_NO_ROW && (tm->slots[i].addr != addr || tm->slots[i].device != device))
		i = (i + 1) & (tm->slot_count - 1);
	return &tm->slots[i];
}

/* Keeps the map at most half full, so probes stay short. */
static int make_room(torch_memory *tm)
{
	torch_memory_slot *old = tm->slots;
	size_t old_count = tm->slot_count, count = old_count ? old_count * 2 : TM_FIRST_SLOTS;
	if (tm->pending + 1 <= old_count / 2)
		return RLI_OK;
	if (count > SIZE_MAX / sizeof(*old) || !(tm->slots = malloc(count * sizeof(*old)))) {
		tm->slots = old;
		return rli_error_oom();
	}
	tm->slot_count = count;
	for (size_t i = 0; i < count; i++)
		tm->slots[i].row = TM_NO_ROW;
	for (size_t i = 0; i < old_count; i++)
		if (old[i].row != TM_NO_ROW)
			*find_slot(tm, old[i].addr, old[i].device) = old[i];
	free(old);
	return RLI_OK;
}

/* Empties a slot, moving later ones of its probe run back so every lookup still finds them. */
static void remove_slot(torch_memory *tm, torch_memory_slot *slot)
{
	size_t mask = tm->slot_count - 1, hole = (size_t)(slot - tm->slots), i = hole;
	tm->slots[hole].row = TM_NO_ROW;
	tm->pending--;
	for (;;) {
		size_t home;
		i = (i + 1) & mask;
		if (tm->slots[i].row == TM_NO_ROW)
			return;
		home = slot_of(tm, tm->slots[i].addr, tm->slots[i].device);
		/* The entry may fill the hole when the hole lies on its way from home to i. */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			tm->slots[hole] = tm->slots[i];
			tm->slots[i].row = TM_NO_ROW;
			hole = i;
		}
	}
}

static int wanted_device(const torch_memory *tm, int type)
{
	if (type == TM_DEVICE_CUDA)
		return (tm->devices & RLI_MEMORY_DEVICE_CUDA) != 0;
	if (type == TM_DEVICE_CPU)
		return (tm->devices & RLI_MEMORY_DEVICE_CPU) != 0;
	return 0;
}

static int append_row(torch_memory *tm, double ts_us, int type, int64_t id)
{
	char device[48];
	rli_memory_in row;
	int length = snprintf(device, sizeof(device), "%s:%lld", type == TM_DEVICE_CUDA ? "CUDA" : "CPU", (long long)id);
	memset(&row, 0, sizeof(row));
	row.name = rli_memory_intern(tm->memory, "[memory]", 8);
	row.role = tm->role;
	row.device_type = rli_memory_intern(tm->memory, device, (size_t)length);
	row.call_stack = row.call_stack_top = tm->memory->empty;
	row.size_kb = tm->value[TM_BYTES] / 1024;
	row.start_ms = ts_us / 1000;
	row.allocated_mb = tm->have & (1u << TM_TOTAL_ALLOCATED) ? tm->value[TM_TOTAL_ALLOCATED] / 1048576 : 0;
	row.reserved_mb = tm->have & (1u << TM_TOTAL_RESERVED) ? tm->value[TM_TOTAL_RESERVED] / 1048576 : 0;
	row.match = RLI_MEMORY_UNMATCHED;
	if (row.name == RLI_STRPOOL_NONE || row.device_type == RLI_STRPOOL_NONE)
		return rli_error_oom();
	return rli_memory_append(tm->memory, &row);
}

int torch_memory_event_done(torch_memory *tm, double ts_us)
{
	const unsigned needed = 1u << TM_BYTES | 1u << TM_ADDR | 1u << TM_DEVICE_TYPE | 1u << TM_DEVICE_ID;
	double bytes = tm->value[TM_BYTES];
	int type = (int)tm->value[TM_DEVICE_TYPE];
	int64_t id, device;
	torch_memory_slot *slot;
	int error;

	if (!tm->is_memory)
		return RLI_OK;
	if ((tm->have & needed) != needed || !(tm->value[TM_DEVICE_ID] > -1e9 && tm->value[TM_DEVICE_ID] < 1e9)) {
		tm->bad++;
		return RLI_OK;
	}
	if (!wanted_device(tm, type) || bytes == 0)
		return RLI_OK;
	id = (int64_t)tm->value[TM_DEVICE_ID];
	device = (int64_t)type * ((int64_t)1 << 32) + id;
	if ((error = make_room(tm)) < 0)
		return error;
	slot = find_slot(tm, tm->addr, device);
	if (bytes < 0 && slot->row != TM_NO_ROW) {
		size_t row = slot->row;
		tm->memory->duration_ms[row] = ts_us / 1000 - tm->memory->start_ms[row];
		tm->memory->flags[row] |= RLI_MEMORY_RELEASED;
		remove_slot(tm, slot);
		return RLI_OK;
	}
	/* A free of a block allocated before the capture stays a row of its own, negative, as Ascend's do. */
	if ((error = append_row(tm, ts_us, type, id)) < 0)
		return error;
	if (bytes > 0) {
		/* A second allocation at a pending address replaces the first, which then lives to the end. */
		if (slot->row == TM_NO_ROW) {
			slot->addr = tm->addr;
			slot->device = device;
			tm->pending++;
		}
		slot->row = tm->memory->count - 1;
	}
	return RLI_OK;
}

void torch_memory_finish(torch_memory *tm, int64_t rank, rli_memory **out)
{
	*out = NULL;
	if (!tm->memory)
		return;
	for (size_t i = 0; i < tm->memory->count; i++)
		tm->memory->rank_id[i] = rank;
	tm->memory->shows_reserved = 1;
	*out = tm->memory;
	tm->memory = NULL;
}

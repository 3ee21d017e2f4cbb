/* torch_memory.c: [memory] instant events and the operator and frame spans around them, gathered in the read of a PyTorch trace. */
#include "torch_memory.h"
#include "json_stream.h"
#include "common/bigmem.h"
#include "common/grow.h"
#include "common/prefault.h"
#include "common/shortest_double.h"
#include "common/sort.h"
#include "memory/memory_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void torch_memory_init(torch_memory *tm, unsigned devices, const char *role, unsigned spare)
{
	memset(tm, 0, sizeof(*tm));
	tm->spare = spare;
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
	/* The helper first: it reads the chunks. */
	torch_memory_pair_dispose(tm);
	for (size_t c = 0; c < TM_MAX_CHUNKS; c++)
		rli_bigmem_free(tm->chunk[c]);
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
	tm->have = tm->keys = 0;
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
	/* Every span's name and thread come here, millions of them: no call while the room suffices. */
	if (length + 1 > text->capacity && RLI_GROW(&text->data, &text->capacity, length + 1, 64) < 0)
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
	if (tm->arg >= 0)
		tm->keys |= 1u << tm->arg;
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

/* The kind (RLI_TORCH_*) of a Device Type value, or -1 for one rl-insight does not draw. */
static int device_kind(double type)
{
	return type == TM_DEVICE_CUDA		? RLI_TORCH_CUDA
	       : type == TM_DEVICE_CPU		? RLI_TORCH_CPU
	       : type == TM_DEVICE_HIP		? RLI_TORCH_HIP
	       : type == TM_DEVICE_PRIVATEUSE1 ? RLI_TORCH_NPU
					       : -1;
}

static int wanted_kind(const torch_memory *tm, int kind)
{
	static const unsigned bits[RLI_TORCH_KINDS] = { RLI_MEMORY_DEVICE_CPU, RLI_MEMORY_DEVICE_CUDA,
							RLI_MEMORY_DEVICE_HIP, RLI_MEMORY_DEVICE_NPU };
	return (tm->devices & bits[kind]) != 0;
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

static int too_many(void)
{
	return rli_error_set(RLI_ERROR, "more [memory] events or threads in one trace than rl-insight pairs "
			     "(%u threads, %u events)", (unsigned)TM_MAX_THREADS, (unsigned)UINT32_MAX - 1);
}

/*
 * Room for the next event, in its chunk: a chunk is made once the one before it is half full,
 * and the helper of common/prefault.h asked to fault in its first pages, so that the read does
 * not wait for the kernel to clear them (millions of events, every byte of them fresh memory).
 * NULL when out of memory.
 */
static torch_memory_event *next_event(torch_memory *tm)
{
	const size_t size = sizeof(torch_memory_event);
	size_t at, c = torch_memory_chunk_of(tm->event_count, &at), events = TM_CHUNK_EVENTS << c;
	if (!tm->chunk[c] && !(tm->chunk[c] = rli_bigmem_array(events, size)))
		return NULL;
	if (at == events / 2 && c + 1 < TM_MAX_CHUNKS && !tm->chunk[c + 1] &&
	    (tm->chunk[c + 1] = rli_bigmem_array(2 * events, size)))
		rli_prefault(tm->chunk[c + 1], RLI_PREFAULT_WINDOW);
	rli_prefault_ahead(tm->chunk[c], at * size, (at + 1) * size, events * size);
	return &tm->chunk[c][at];
}

static int keep_memory_event(torch_memory *tm, double ts_us)
{
	const unsigned device = 1u << TM_DEVICE_TYPE | 1u << TM_DEVICE_ID;
	const unsigned needed = 1u << TM_BYTES | 1u << TM_ADDR | device;
	torch_memory_event *event;
	uint32_t tid;
	int kind = -1;

	/*
	 * The older profilers' form first, Bytes without an Addr key: its frees name no block, so
	 * no device's events of it could be drawn, whatever --memory-device says. Then the device:
	 * an event of one not chosen is left out for that, so that "--memory-device all keeps
	 * them" is true. Both are counted apart from events whose numbers are missing or are not
	 * numbers, which are broken.
	 */
	if ((tm->have & (needed & ~(1u << TM_ADDR))) == (needed & ~(1u << TM_ADDR)) && !(tm->keys & 1u << TM_ADDR)) {
		tm->left.no_addr++;
		return RLI_OK;
	}
	if ((tm->have & device) == device && (kind = device_kind(tm->value[TM_DEVICE_TYPE])) >= 0 &&
	    !wanted_kind(tm, kind)) {
		tm->left.kind[kind]++;
		return RLI_OK;
	}
	if ((tm->have & device) == device && kind < 0) {
		if (tm->left.other_type++ == 0)
			tm->left.first_other_type = tm->value[TM_DEVICE_TYPE];
		return RLI_OK;
	}
	if ((tm->have & needed) != needed ||
	    !(tm->value[TM_DEVICE_ID] >= -TM_MAX_DEVICE_ID && tm->value[TM_DEVICE_ID] <= TM_MAX_DEVICE_ID)) {
		tm->bad++;
		return RLI_OK;
	}
	if (tm->value[TM_BYTES] == 0)
		return RLI_OK;
	if (tm->event_count >= UINT32_MAX - 1)
		return too_many();
	if (!(event = next_event(tm)))
		return rli_error_oom();
	if (tm->event_count && ts_us < tm->last_ts_us && tm->out_of_order++ == 0 && tm->alongside)
		torch_memory_pair_abandon(tm);
	tm->last_ts_us = ts_us;
	event->ts_us = ts_us;
	event->bytes = tm->value[TM_BYTES];
	event->allocated = tm->value[TM_TOTAL_ALLOCATED];
	event->reserved = tm->value[TM_TOTAL_RESERVED];
	event->has_allocated = (tm->have >> TM_TOTAL_ALLOCATED) & 1;
	/* No allocator counts below 0 bytes: such a total is no count, and the curve must not follow it. */
	if (event->has_allocated && event->allocated < 0) {
		if (tm->negative_total++ == 0) {
			tm->first_negative_ts_us = ts_us;
			tm->first_negative_total = event->allocated;
		}
		event->has_allocated = 0;
		event->allocated = 0;
	}
	event->has_reserved = (tm->have >> TM_TOTAL_RESERVED) & 1;
	event->addr = tm->addr;
	event->device_id = (int32_t)tm->value[TM_DEVICE_ID];
	event->type = (uint32_t)kind;
	if ((tid = thread_of(tm)) == RLI_STRPOOL_NONE)
		return rli_error_oom();
	if (tid >= TM_MAX_THREADS)
		return too_many();
	event->tid = tid;
	tm->event_count++;
	tm->allocations += event->bytes > 0;
	if (tm->alongside) {
		if (tm->event_count % TM_PUBLISH_EVENTS == 0)
			torch_memory_pair_publish(tm);
	} else if (tm->spare && tm->event_count == TM_ALONGSIDE_FROM && !tm->out_of_order) {
		torch_memory_pair_start(tm);
	}
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

int torch_memory_finish(torch_memory *tm, int64_t rank, rli_memory **out)
{
	tm_rows rows = { NULL, NULL, NULL };
	int error;

	*out = NULL;
	if (!tm->devices || tm->event_count == 0)
		return RLI_OK; /* a trace taken without profile_memory: no table to carry around */
	if ((error = torch_memory_pair_finish(tm, &rows)) < 0 ||
	    (error = torch_memory_attribute(tm, rows.memory, rows.row_ts, rows.row_tid)) < 0)
		goto done;
	for (size_t i = 0; i < rows.memory->count; i++)
		rows.memory->rank_id[i] = rank;
	rows.memory->shows_reserved = 1;
	/* Total Allocated after each event, where the trace writes it (the 2021 form has only Bytes). */
	for (size_t i = 0; i < rows.memory->count && rows.memory->totals == RLI_MEMORY_TOTALS_NONE; i++)
		if (rows.memory->size_kb[i] > 0 && rows.memory->allocated_mb[i] > 0)
			rows.memory->totals = RLI_MEMORY_TOTALS_EVENTS;
	tm->rows = rows.memory->count;
	*out = rows.memory;
	rows.memory = NULL;
done:
	tm_rows_dispose(&rows);
	return error;
}

void torch_memory_notes(const torch_memory *tm, rli_unit *unit)
{
	/* What was left out for its device or its form is said once for the run (torch_notes.c). */
	unit->memory_left = tm->left;
	if (tm->bad)
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: %llu [memory] event(s) without a number in "
			      "'Bytes', 'Addr', 'Device Type' or 'Device Id' left out",
			      unit->path, (unsigned long long)tm->bad);
	if (tm->negative_total) {
		char ts[RLI_DOUBLE_BUFSIZE], total[RLI_DOUBLE_BUFSIZE];
		rli_format_double(ts, tm->first_negative_ts_us);
		rli_format_double(total, tm->first_negative_total);
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: %llu [memory] event(s) with a negative 'Total Allocated' "
			      "(the first at ts %s: %s), taken as unknown", unit->path,
			      (unsigned long long)tm->negative_total, ts, total);
	}
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

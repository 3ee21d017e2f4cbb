/* torch_memory.h: the PyTorch profiler's [memory] instant events, gathered by the torch parser's one pass into memory rows. */
#ifndef RLI_TORCH_MEMORY_H
#define RLI_TORCH_MEMORY_H

#include "parse_internal.h"
#include "common/strpool.h"

#include <stddef.h>
#include <stdint.h>

/* The args of one trace event that a [memory] event carries (the profiler's spelling, issue 10 §1). */
enum { TM_BYTES = 0, TM_ADDR, TM_DEVICE_TYPE, TM_DEVICE_ID, TM_TOTAL_ALLOCATED, TM_TOTAL_RESERVED, TM_ARG_COUNT };

/*
 * The profiler's Device Type values (c10::DeviceType): 0 CPU, 1 CUDA, 6 HIP (ROCm builds), 20
 * PrivateUse1 (torch_npu's Ascend NPU). An event keeps its kind (RLI_TORCH_*) in two bits.
 */
enum { TM_DEVICE_CPU = 0, TM_DEVICE_CUDA = 1, TM_DEVICE_HIP = 6, TM_DEVICE_PRIVATEUSE1 = 20 };

/* Slots of the spans' name lookup (a power of two). */
#define TM_NAME_SLOTS 256

/* What an event is to the memory analysis, from its name and "cat". */
enum { TM_SPAN_OP = 0, TM_SPAN_FRAME = 1 };

/* Threads a file may have: an event's thread id shares its word with its device kind and two flags. */
#define TM_MAX_THREADS ((uint32_t)1 << 28)
/* Device ids kept: within +-2^28, so that the pairing keys (kind, id) in 32 bits. */
#define TM_MAX_DEVICE_ID 268435455

/*
 * One [memory] event as read: paired with the others once the whole file is in. 48 bytes: a
 * trace holds millions, all kept until they are paired (every byte of them first written
 * here, which costs more than the pairing on a machine that charges for fresh pages).
 */
typedef struct {
	double ts_us, bytes, allocated, reserved;
	uint64_t addr;
	int32_t device_id;       /* within +-TM_MAX_DEVICE_ID (keep_memory_event) */
	uint32_t tid : 28;       /* in torch_memory.tids */
	uint32_t type : 2;       /* RLI_TORCH_CPU, _CUDA, _HIP or _NPU */
	uint32_t has_allocated : 1, has_reserved : 1;
} torch_memory_event;
_Static_assert(sizeof(torch_memory_event) == 48, "a [memory] event is kept in 48 bytes");

/*
 * The events are kept in chunks that never move once made, so that a helper thread can pair the
 * first ones while the read appends the next (torch_memory_pair.c). Chunk c holds
 * TM_CHUNK_EVENTS << c events: each twice the one before, so that a trace of millions of events
 * maps a few (mapping waits for the kernel's lock, which the prefault helper holds while it
 * faults pages in: twenty chunks of one size cost the read 66-70 ms). The first fills a 4 MiB
 * mapping (common/bigmem.h: two 2 MiB pages, less its header), and each after it a multiple.
 */
#define TM_CHUNK_EVENTS ((((size_t)4 << 20) - 64) / sizeof(torch_memory_event))
/* Chunks for the most events a trace may hold (UINT32_MAX - 1). */
#define TM_MAX_CHUNKS 16
_Static_assert((TM_CHUNK_EVENTS << TM_MAX_CHUNKS) - TM_CHUNK_EVENTS >= UINT32_MAX, "chunks for every event");

/* Pairing alongside the read (torch_memory_pair.c): events handed over this many at a time. */
#define TM_PUBLISH_EVENTS 4096
/* and started once a trace holds this many, with a core to spare: fewer are paired in no time after the read. */
#define TM_ALONGSIDE_FROM 65536

typedef struct tm_pairing tm_pairing;

/* A cpu_op (an operator) or a python_function (a Python frame), which a [memory] event on its thread may lie in. */
typedef struct {
	double start_us, end_us;
	uint32_t tid;  /* in torch_memory.tids */
	uint32_t name; /* in torch_memory.names */
	uint32_t kind; /* TM_SPAN_* */
	uint32_t order; /* its place in the file, the last tie rule */
} torch_memory_span;

/* A text of the event being read, kept until the event ends. */
typedef struct {
	char *data;
	size_t length, capacity;
	int set;
} torch_memory_text;

typedef struct {
	unsigned devices;   /* RLI_MEMORY_DEVICE_* bits; 0: memory events are not gathered */
	const char *role;
	unsigned spare;     /* threads the trace may start beside its reader: cores the parse leaves idle */
	/* gathered in the read */
	torch_memory_event *chunk[TM_MAX_CHUNKS]; /* made as the events come; NULL before */
	size_t event_count;
	double last_ts_us;  /* the last event's time */
	size_t allocations; /* events with Bytes > 0 */
	tm_pairing *alongside; /* the helper pairing the events as they come; NULL when none */
	torch_memory_span *spans;
	size_t span_count, span_capacity;
	rli_strpool names, tids;
	uint32_t last_tid;  /* the last thread looked up */
	uint32_t name_seen[TM_NAME_SLOTS]; /* names' ids + 1 by a cheap key of their text (0: none yet) */
	/* the event being read */
	int is_memory;
	int span_kind;      /* TM_SPAN_*, or -1: neither a cpu_op nor a python_function */
	int cat_seen;       /* the event's cat was read (Kineto writes it before name and tid) */
	int arg;            /* TM_* of the args key just read, or -1 */
	unsigned have;      /* bit per TM_* seen with a number */
	unsigned keys;      /* bit per TM_* whose key was seen, a number or not */
	double value[TM_ARG_COUNT];
	uint64_t addr;
	torch_memory_text name, tid;
	/* what the file held that a reader should hear of */
	uint64_t bad;            /* [memory] events left out: an arg missing or not a number */
	rli_memory_left left;    /* [memory] events left out for their device or their form (no Addr) */
	uint64_t out_of_order;   /* [memory] events written before an earlier one */
	uint64_t reallocated;    /* allocations at an address already allocated and not freed */
	uint64_t negative_total; /* [memory] events whose Total Allocated is below 0: taken as unknown */
	double first_negative_ts_us, first_negative_total; /* the first of them: its ts and its value */
	uint64_t orphan_frees;   /* frees of blocks allocated before the capture */
	uint64_t with_op, with_stack, rows;
	uint64_t paired_alongside; /* events the helper paired (all of them, or 0: paired after the read) */
} torch_memory;

/* The chunk event i lies in, and its place there: chunks 0..c-1 hold TM_CHUNK_EVENTS * (2^c - 1) events. */
static inline size_t torch_memory_chunk_of(size_t i, size_t *at)
{
	size_t c = (size_t)(63 - __builtin_clzll((unsigned long long)(i / TM_CHUNK_EVENTS + 1)));
	*at = i - TM_CHUNK_EVENTS * (((size_t)1 << c) - 1);
	return c;
}

static inline const torch_memory_event *torch_memory_event_at(const torch_memory *tm, size_t i)
{
	size_t at, c = torch_memory_chunk_of(i, &at);
	return &tm->chunk[c][at];
}

/* devices 0: off, every other call then does nothing. spare: threads it may start (torch_memory.spare). */
void torch_memory_init(torch_memory *tm, unsigned devices, const char *role, unsigned spare);
void torch_memory_dispose(torch_memory *tm);
void torch_memory_event_reset(torch_memory *tm);
/* The event's name and cat (strings), and its tid (a number or a string, as text). */
int torch_memory_name(torch_memory *tm, const char *text, size_t length);
void torch_memory_cat(torch_memory *tm, const char *text, size_t length);
int torch_memory_tid(torch_memory *tm, const char *text, size_t length);
/* A key of the event's args object, then its value (kind 'n' for a number). */
void torch_memory_arg_key(torch_memory *tm, const unsigned char *key, size_t length);
void torch_memory_arg_value(torch_memory *tm, const char *text, size_t length, int kind);
/* The event ended (ts and dur in µs, each when it had a number): it is kept when it is ours. RLI_OK or RLI_ERROR. */
int torch_memory_event_done(torch_memory *tm, int has_ts, double ts_us, int has_dur, double dur_us);
/*
 * The file is read: the events in time order, each allocation paired with its free by (Addr,
 * device), each row given its operator and Python stack; every row gets the file's rank.
 * *out receives the table (NULL when off). RLI_OK or RLI_ERROR.
 */
int torch_memory_finish(torch_memory *tm, int64_t rank, rli_memory **out);
/* What the reader should hear of the file's memory events, into the unit's log. */
void torch_memory_notes(const torch_memory *tm, rli_unit *unit);

/* torch_memory_pair.c: the events to rows, after the read or alongside it. */

/* The rows the events make, with each row's event's time (µs, as written) and thread. */
typedef struct {
	rli_memory *memory;
	double *row_ts;
	uint32_t *row_tid;
} tm_rows;

/*
 * Starts a helper thread that pairs the events as the read hands them over (tm->alongside). A
 * hint: without a thread or the memory for one, the events are paired after the read.
 */
void torch_memory_pair_start(torch_memory *tm);
/* The read hands over every event so far. */
void torch_memory_pair_publish(torch_memory *tm);
/* An event came out of time order: the helper stops, and the events are paired in order after the read. */
void torch_memory_pair_abandon(torch_memory *tm);
/*
 * The file is read: the rows, from the helper, or from pairing every event now in time order
 * (ties in file order). RLI_OK or RLI_ERROR; *rows then owns what it holds (tm_rows_dispose).
 */
int torch_memory_pair_finish(torch_memory *tm, tm_rows *rows);
/* Stops and joins the helper, if any, and frees what it made (a read that failed: no finish). */
void torch_memory_pair_dispose(torch_memory *tm);
void tm_rows_dispose(tm_rows *rows);

/* torch_memory_attribute.c: each row's innermost operator and its Python frames, on the event's thread. */
int torch_memory_attribute(torch_memory *tm, rli_memory *memory, const double *row_ts_us, const uint32_t *row_tid);
/*
 * tm->spans in the order the attribution sweeps them: by thread (tm->tids' ids), then start, then
 * the longer first, then the file's order (span.order). 0, or -1 when out of memory.
 */
int torch_memory_sort_spans(torch_memory *tm);

#endif

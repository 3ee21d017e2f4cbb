/* torch_memory.h: the PyTorch profiler's [memory] instant events, gathered by the torch parser's one pass into memory rows. */
#ifndef RLI_TORCH_MEMORY_H
#define RLI_TORCH_MEMORY_H

#include "parse_internal.h"

#include <stddef.h>
#include <stdint.h>

/* The args of one trace event that a [memory] event carries (the profiler's spelling, issue 10 §1). */
enum { TM_BYTES = 0, TM_ADDR, TM_DEVICE_TYPE, TM_DEVICE_ID, TM_TOTAL_ALLOCATED, TM_TOTAL_RESERVED, TM_ARG_COUNT };

/* A pending allocation: the open-addressing map's slot, keyed by (Addr, device). */
typedef struct {
	uint64_t addr;
	int64_t device; /* device type * 2^32 + id; the slot is free when row is SIZE_MAX */
	size_t row;
} torch_memory_slot;

typedef struct {
	unsigned devices;   /* RLI_MEMORY_DEVICE_* bits; 0: memory events are not gathered */
	rli_memory *memory; /* the rows so far, in event order */
	uint32_t role;
	torch_memory_slot *slots;
	size_t slot_count, pending;
	/* the event being read */
	int is_memory;
	int arg;            /* TM_* of the args key just read, or -1 */
	unsigned have;      /* bit per TM_* seen with a number */
	double value[TM_ARG_COUNT];
	uint64_t addr;
	uint64_t bad;       /* [memory] events left out: an arg missing or not a number */
} torch_memory;

/* devices 0: off, every other call then does nothing. RLI_OK or RLI_ERROR. */
int torch_memory_init(torch_memory *tm, unsigned devices, const char *role);
void torch_memory_dispose(torch_memory *tm);
void torch_memory_event_reset(torch_memory *tm);
/* The event's name: is it "[memory]"? */
void torch_memory_name(torch_memory *tm, const char *text, size_t length);
/* A key of the event's args object, then its value (kind 'n' for a number). */
void torch_memory_arg_key(torch_memory *tm, const unsigned char *key, size_t length);
void torch_memory_arg_value(torch_memory *tm, const char *text, size_t length, int kind);
/* The event ended at ts_us: a [memory] event becomes a row, or closes its allocation's. RLI_OK or RLI_ERROR. */
int torch_memory_event_done(torch_memory *tm, double ts_us);
/* Every row gets the file's rank; the table moves to *out (NULL when off). */
void torch_memory_finish(torch_memory *tm, int64_t rank, rli_memory **out);

#endif

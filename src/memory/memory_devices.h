/* memory_devices.h: the memory table's allocations split by device, that is by (role, rank, device type): what the figure, the pages and the statistics read. */
#ifndef RLI_MEMORY_DEVICES_H
#define RLI_MEMORY_DEVICES_H

#include "rl_insight.h"
#include "memory_table.h"

#include <stddef.h>
#include <stdint.h>

/*
 * One device's allocations (rows of size_kb > 0; frees are not blocks), in
 * table (start) order, as columns: what the figure draws (its tests build
 * them by hand).
 */
typedef struct {
	const char *role;
	int64_t rank;
	size_t count;
	const double *start_ms;             /* absolute */
	const double *duration_ms;          /* <= 0: never freed in the capture, live to its end */
	const double *size_kb;
	const char *const *op_name;
	const char *const *call_stack_top;  /* "" when unknown */
	/*
	 * With a table that shows_reserved: every row of the device (frees too)
	 * with a finite start and Total Reserved, in table (start) order, as
	 * (absolute start, reserved MB); reserved_count 0 otherwise.
	 */
	size_t reserved_count;
	const double *reserved_ms;
	const double *reserved_mb;
	/* last, so a device built by hand (the tests) may leave them out: NULL reads as "" */
	const char *device_type;            /* "CUDA:1", "NPU:0"; "" when the CSV had none */
	/*
	 * 1: its (role, rank) holds other devices too (a PyTorch rank's CUDA:0 and
	 * CUDA:1), so its names carry device_type; 0 keeps the (role, rank) names.
	 */
	int shares_rank;
	/*
	 * What the curve follows (memory_table.h): RLI_MEMORY_TOTALS_NONE, the running sum of the
	 * blocks; EVENTS, the allocator's total after each event (allocated_mb per allocation, and the
	 * frees of blocks from before the capture: reserved-run rows of a negative reserved_kb);
	 * ROWS, its totals after each allocation (allocated_mb) and release (release_allocated_mb).
	 */
	rli_memory_totals totals;
	const double *allocated_mb;         /* per allocation; with totals */
	const double *release_allocated_mb; /* per allocation, NaN where unknown; with ROWS */
	const double *reserved_kb;          /* per reserved-run row, its size (a free's negative) */
	const uint8_t *second_pool;         /* per allocation, 1 where RLI_MEMORY_SECOND_POOL; with ROWS */
} rli_memory_device;

/*
 * Every device of a table, and the columns they point into. Device d's
 * allocation i is the table's row row[first[d] + i] (rli_memory_device_rows).
 */
typedef struct {
	rli_memory_device *devices; /* in ascending (role by strcmp, rank, device type by strcmp) order */
	size_t count;
	size_t *first;              /* per device: where its run starts in the columns */
	const char **device_type;   /* per device: its devices[d].device_type */
	uint32_t *row;
	double *start_ms, *duration_ms, *size_kb;
	const char **op_name, **call_stack_top;
	double *reserved_ms, *reserved_mb; /* the devices' reserved runs, one after another */
	double *reserved_kb;
	double *allocated_mb, *release_allocated_mb;
	uint8_t *second_pool;
} rli_memory_devices;

/*
 * Splits the table's allocations by (role, rank, device type); a free
 * joins the reserved line of its device when that has an allocation. A block never released
 * (Duration empty) has duration_ms 0 here whatever the table holds. The
 * strings are the table's: free the split before the table. An empty table
 * gives no device. Dispose with rli_memory_devices_dispose, also after a failure.
 * On up to `threads` threads (0: one a CPU; two at most): the same split however many.
 */
int rli_memory_devices_split(rli_memory_devices *out, const rli_memory *memory, unsigned threads);
void rli_memory_devices_dispose(rli_memory_devices *devices);

/* The first start (absolute ms) of the allocations the split keeps (a size above 0), INFINITY without one. */
double rli_memory_first_ms(const rli_memory *memory);

/* Device d's table rows, one per allocation in its order. */
static inline const uint32_t *rli_memory_device_rows(const rli_memory_devices *devices, size_t d)
{
	return devices->row + devices->first[d];
}

/* What names the device beside its role and rank: " CUDA:1" as (space, type) when it shares them, else ("", ""). */
static inline const char *rli_memory_device_space(const rli_memory_device *device)
{
	return device->shares_rank && device->device_type ? " " : "";
}

static inline const char *rli_memory_device_tag(const rli_memory_device *device)
{
	return device->shares_rank && device->device_type ? device->device_type : "";
}

#endif

/* memory_devices.h: the memory table's allocations split by device, that is by (role, rank): what the figure, the pages and the statistics read. */
#ifndef RLI_MEMORY_DEVICES_H
#define RLI_MEMORY_DEVICES_H

#include "rl_insight.h"

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
} rli_memory_device;

/*
 * Every device of a table, and the columns they point into. Device d's
 * allocation i is the table's row row[first[d] + i] (rli_memory_device_rows).
 */
typedef struct {
	rli_memory_device *devices; /* in ascending (role by strcmp, rank) order, as the reference groups them */
	size_t count;
	size_t *first;              /* per device: where its run starts in the columns */
	const char **device_type;   /* per device: its first allocation's ("NPU:0"; "" when the CSV had none) */
	uint32_t *row;
	double *start_ms, *duration_ms, *size_kb;
	const char **op_name, **call_stack_top;
} rli_memory_devices;

/*
 * Splits the table's allocations by (role, rank). A block never released
 * (Duration empty) has duration_ms 0 here whatever the table holds. The
 * strings are the table's: free the split before the table. An empty table
 * gives no device. Dispose with rli_memory_devices_dispose, also after a failure.
 */
int rli_memory_devices_split(rli_memory_devices *out, const rli_memory *memory);
void rli_memory_devices_dispose(rli_memory_devices *devices);

/* Device d's table rows, one per allocation in its order. */
static inline const uint32_t *rli_memory_device_rows(const rli_memory_devices *devices, size_t d)
{
	return devices->row + devices->first[d];
}

#endif

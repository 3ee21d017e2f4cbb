/* memory_stats.h: the memory statistics of a run, per device: the curve's peak, what is live there, what is never freed, the call sites and stacks, how the stacks matched. */
#ifndef RLI_STATS_MEMORY_STATS_H
#define RLI_STATS_MEMORY_STATS_H

#include "rl_insight.h"
#include "memory/memory_curve.h"
#include "memory/memory_devices.h"

#include <stddef.h>
#include <stdint.h>

/* Lists that rank (the blocks live at the peak, the call sites) keep at most this many. */
#define RLI_MEMORY_STATS_TOP 10

/*
 * The rules, every one:
 * - A device is a (role, rank); its allocations are the table's rows with
 *   size_kb > 0 (frees are not blocks), in table (start) order; devices in
 *   ascending (role by strcmp, rank) order. A row with a non-finite start
 *   is counted (allocations, sites, stacks, matches) but is not on the curve.
 * - The curve is the figure's (src/memory/memory_curve.h): a block lives
 *   [start, start + duration); one without a positive duration (never
 *   released, or of zero length) lives to the device's last moment (the end
 *   of its last block) and is "never freed". The changes at one moment are
 *   summed before the curve is read, so a block freed as another is
 *   allocated is not counted twice.
 * - The peak is the curve's greatest value and the FIRST moment it is reached
 *   (later equal values do not move it); 0 MB at 0 ms without a block.
 * - Live at the peak: start <= peak < end (a block ending at the peak moment
 *   is gone, one starting there counts), so their sizes sum to the peak.
 * - Call sites are call_stack_top texts, "" (no stack matched) one site of
 *   its own. Stacks are the whole call_stack text, "" likewise; its frames
 *   are separated by ";\r\n" (memory.md §3.3), the first frame being
 *   call_stack_top.
 * - Matches: rli_memory_count_row over the device's allocations; the run's
 *   overall counts as rli_memory_count_matches.
 * Every string is the memory table's: free the statistics before the table.
 */

/* One block live at the peak. */
typedef struct {
	const char *op_name;
	double size_kb;
	double start_ms;       /* relative to the device's first allocation */
	double duration_ms;    /* end - start on the curve: to the device's last moment when never freed */
	int never_freed;
	const char *call_stack_top;
	uint32_t row;          /* in the table */
} rli_memory_live_block;

/* A call site (call_stack_top) or a whole call stack. */
typedef struct {
	const char *text;      /* "" = unknown */
	size_t count;          /* allocations */
	double allocated_kb;   /* all of them */
	size_t live_count;     /* live at the peak */
	double live_kb;
	double peak_share;     /* live_kb over the peak, 0..1; 0 when the peak is 0 */
} rli_memory_site;

typedef struct {
	const char *role;
	int64_t rank;
	const char *device_type;   /* its allocations' ("NPU:0", "CUDA:1"), "" when unknown */
	int shares_rank;           /* 1: its (role, rank) has other devices, which its name tells apart by type */
	size_t allocations;
	double allocated_kb;
	double first_ms;           /* absolute: its first allocation (x = 0) */
	double last_ms;            /* absolute: the end of its last block */
	double peak_mb;            /* the curve's greatest value: the allocator's count where the rows carry it */
	int allocator_count;       /* 1: the curve is the allocator's own count (rli_memory_summary's totals) */
	double before_mb;          /* with it: allocated before the capture began */
	double peak_ms;            /* relative to first_ms */
	double peak_abs_ms;        /* first_ms + peak_ms */
	size_t live_at_peak;       /* blocks live at the peak */
	rli_memory_live_block top_live[RLI_MEMORY_STATS_TOP]; /* largest first, then earlier, then table order */
	size_t top_live_count;
	size_t never_freed;
	double never_freed_kb;
	/*
	 * Every call site, by bytes allocated (largest first, then more
	 * allocations, then by text); sites_by_live: indices into it of the sites
	 * live at the peak (live_kb > 0), by live bytes, then by text, at most
	 * RLI_MEMORY_STATS_TOP.
	 */
	rli_memory_site *sites;
	size_t site_count;
	size_t sites_by_live[RLI_MEMORY_STATS_TOP];
	size_t sites_by_live_count;
	/* Every distinct whole stack, for the icicle chart: sorted by text (strcmp), so frames share prefixes. */
	rli_memory_site *stacks;
	size_t stack_count;
	rli_memory_match_counts matches;
} rli_memory_device_stats;

typedef struct {
	rli_memory_device_stats *devices;
	size_t device_count;
	rli_memory_match_counts matches; /* the whole run */
	size_t rows;                     /* the table's, frees included */
} rli_memory_stats;

/* Computes the statistics of every device once. RLI_OK (an empty table gives no device) or out of memory. */
int rli_memory_stats_compute(rli_memory_stats **out, const rli_memory *memory);
/*
 * The same from the table already split by device (rli_memory_devices_split), which it only reads.
 * known: NULL, or a summary per device of the split where one was worked out already (the pages'
 * layout sweeps each curve for its drawing): a device's entry not NULL is taken as its curve's,
 * and that curve is not swept again.
 */
int rli_memory_stats_compute_split(rli_memory_stats **out, const rli_memory *memory, const rli_memory_devices *split,
				   const rli_memory_summary *const *known);
void rli_memory_stats_free(rli_memory_stats *stats);

#endif

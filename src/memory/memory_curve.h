/* memory_curve.h: a device's memory curve: its blocks (never freed ones live to the capture's end), the running sum of the live ones, its peak and what is live there. */
#ifndef RLI_MEMORY_CURVE_H
#define RLI_MEMORY_CURVE_H

#include "memory_devices.h"

#include <stddef.h>
#include <stdint.h>

/* A block: one allocation of a device, as the curve sees it. */
typedef struct {
	double start, end; /* relative to the device's first allocation, ms */
	double size_kb;
	uint32_t op;       /* free for the caller (the figure numbers operators here) */
	uint32_t index;    /* in the device's arrays (a table's rows are counted in 32 bits): 32 bytes a block, not 40 */
} rli_memory_block;

/* What a device's curve comes to: the figure prints it, the statistics quote it. */
typedef struct {
	double t_min_ms;    /* absolute time of the first allocation: x = 0 */
	double t_max_ms;    /* absolute end of the last block */
	double peak_mb;     /* the curve's greatest value; 0 with no block */
	double peak_ms;     /* relative to t_min_ms, the first moment the peak is reached */
	size_t never_freed; /* blocks without a positive duration: live to the capture's end */
	double never_freed_kb;
	/*
	 * What the curve shows (set by rli_memory_curve): RLI_MEMORY_TOTALS_NONE, the running sum of
	 * the blocks from 0; else the allocator's own count. before_mb: what that count held before
	 * the device's first event, memory allocated before the capture began (0 without totals);
	 * start_mb: the curve's value at x = 0, before the first allocation.
	 */
	rli_memory_totals totals;
	double before_mb;
	double start_mb;
} rli_memory_summary;

/*
 * The device's blocks, in its order: every allocation with a finite start,
 * [start, start + duration) relative to the first allocation; one whose
 * duration is not positive (never released, or a zero length) lives to the
 * end of the capture, the last moment any block is seen, and counts as never
 * freed. blocks must hold device->count; returns how many were written, and
 * fills every field of *summary but the peak (zeroed; see rli_memory_curve).
 */
size_t rli_memory_blocks(rli_memory_block *blocks, rli_memory_summary *summary, const rli_memory_device *device);

/*
 * The curve over the blocks of device (rli_memory_blocks), as the allocator
 * counts the device's memory where its rows say (device->totals):
 * - none (or device NULL): the running sum of the sizes of the blocks alive,
 *   from 0, +size at a block's start, -size at its end;
 * - EVENTS (PyTorch): the same sum on the allocator's count before the first
 *   allocation (its Total Allocated less its size), less each free of a block
 *   from before the capture, so the curve after each event is its Total
 *   Allocated;
 * - ROWS (Ascend): the allocator's totals themselves, after each allocation
 *   and each release whose total is known, from the first allocation's total
 *   less its size; a moment's value is its last change's.
 * A block never freed (a duration not positive) stays on the curve to its
 * end, held when the capture ends (with device NULL, which says no
 * durations, every block leaves at its end). The changes at one moment are
 * taken together (in block order, a block's
 * start before its end), so a block freed as another is allocated is not
 * counted twice; a running sum that cancels out within 1e-9 KB is 0. Sets
 * summary's peak (MB, and the first moment it is reached), totals, before_mb
 * and start_mb. With x and y not NULL, also the curve drawn as steps, from
 * (0, start), two points a moment (the value before, then after), in MB: *x
 * and *y from rli_bigmem_resize (free with rli_bigmem_free), *points set.
 */
int rli_memory_curve(rli_memory_summary *summary, double **x, double **y, size_t *points,
		     const rli_memory_device *device, const rli_memory_block *blocks, size_t count);

/*
 * The same, each point handed to point(ctx, x, y) as it comes instead of
 * kept (point may be NULL): a caller that reduces the curve (the pages'
 * per-column envelope) need not hold millions of points.
 */
typedef void (*rli_memory_point_fn)(void *ctx, double x, double y);
int rli_memory_curve_each(rli_memory_summary *summary, const rli_memory_device *device,
			  const rli_memory_block *blocks, size_t count, rli_memory_point_fn point, void *ctx);

/* The allocators' totals' events (ROWS) as two streams, the releases sorted by end (memory_curve.c's). */
typedef struct {
	const rli_memory_device *device;
	const rli_memory_block *blocks;
	size_t count;
	double *end_key;      /* the sort's, freed once it is done, as is the one of order and tmp not ends */
	size_t *order, *tmp;
	const size_t *ends;   /* order or tmp: the blocks with a release's total, by end */
	size_t end_count;
	double width;         /* how close two times are to be one moment */
	int has_events[2];    /* whether each allocator has an event at all */
} rli_memory_streams;

/* Blocks a curve has at least for its sweep to be shared by two threads; allocations tried for a cut near the middle. */
#define RLI_MEMORY_HALVES_FROM 65536
#define RLI_MEMORY_HALVES_TRIES 4096

/*
 * A curve's sweep cut in two at a moment near the middle of its blocks, the halves swept at
 * once: where it is the allocators' totals (ROWS) over blocks in start order (what a table's
 * devices hold), and RLI_MEMORY_HALVES_FROM blocks or more.
 */
typedef struct {
	rli_memory_streams streams;
	rli_memory_summary summary;  /* as rli_memory_curve_each starts it */
	double pool_start_kb[2];
	size_t start_cut, end_cut;   /* the second half's first allocation (block) and release (in streams.ends) */
	double cut_kb[2];            /* each allocator's count where the second half begins */
	size_t first_moments;        /* the most moments the first half holds (its blocks and releases) */
	int halved;                  /* 0: no cut near the middle, the first half is all of it */
} rli_memory_halves;

/*
 * Cuts the curve of the blocks (as rli_memory_curve_each would sweep it) in two: 1 (h->halved
 * 0 where no moment near the middle stands apart: the first half is the whole), or 0 where it
 * is not to be cut (rli_memory_curve_each sweeps it then), RLI_ERROR out of memory. Sets
 * summary as rli_memory_curve_each does before its sweep either way; dispose of h after a 1.
 */
int rli_memory_halves_cut(rli_memory_halves *h, rli_memory_summary *summary, const rli_memory_device *device,
			  const rli_memory_block *blocks, size_t count);
/*
 * Sweeps the halves at once, the second on a thread of its own: the first half's points to
 * point(first), here, as rli_memory_curve_each hands them up to the cut; the second's to
 * point(second): every point after those, that is the value before its first moment (the
 * first half's last value) and after, two a moment. The first half makes at most
 * 1 + 2 h->first_moments points. Sets summary's peak as one sweep would. Not halved, every
 * point goes to point(first), on this thread.
 */
int rli_memory_halves_sweep(rli_memory_halves *h, rli_memory_summary *summary, rli_memory_point_fn point, void *first,
			    void *second);
void rli_memory_halves_dispose(rli_memory_halves *h);

/*
 * The device's Total Reserved (a caching allocator's, as rows carry it) as
 * a step line relative to summary's t_min_ms over [0, summary's t_max_ms -
 * t_min_ms]: its value holds from one row to the next, and changes at the
 * row's start (two points: the value before, then after); rows before x = 0
 * give only the value the line starts with, rows after the end nothing, and
 * rows that do not change it no point. The line ends at the
 * end with its last value. *max_mb: the greatest value drawn (0 without
 * one). No point (*points 0, *x and *y NULL) when the device has no reserved
 * row, or none above 0 (a CPU device: no allocator cache); else *x and *y
 * from rli_bigmem_array (free with rli_bigmem_free).
 */
int rli_memory_reserved_line(double **x, double **y, size_t *points, double *max_mb,
			     const rli_memory_summary *summary, const rli_memory_device *device);

/*
 * The blocks live at moment t (start <= t < end: one ending at t is gone, one
 * starting at t is there, as on the curve after t's changes) as indices into
 * blocks, the largest first, then the earlier, then in block order. *live is
 * from rli_bigmem_array (free it with rli_bigmem_free); *live_count set.
 */
int rli_memory_live_at(size_t **live, size_t *live_count, const rli_memory_block *blocks, size_t count, double t);
/*
 * The same from the device's rows, as rli_memory_blocks makes them under summary (its t_min_ms
 * and t_max_ms), without the blocks of them all: the live blocks themselves, in that order.
 * *live from rli_bigmem (free with rli_bigmem_free; NULL with none); *live_count set.
 */
int rli_memory_live_blocks(rli_memory_block **live, size_t *live_count, const rli_memory_device *device,
			   const rli_memory_summary *summary, double t);

#endif

/* memory_curve.c: a device's blocks, the running sum of the live ones (the memory curve), its peak, and the blocks live there. */
#include "memory_curve.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/sort.h"
#include "common/task.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int freed(double duration)
{
	return duration > 0 && isfinite(duration);
}

/* Row i of the device as a block, relative to t_min, one never freed ending at t_end; 0 when the row makes none. */
static int block_of(rli_memory_block *block, const rli_memory_device *device, size_t i, double t_min, double t_end)
{
	double start = device->start_ms[i], duration = device->duration_ms[i];
	if (!isfinite(start) || !(device->size_kb[i] > 0))
		return 0;
	block->start = start - t_min;
	block->end = (freed(duration) ? start + duration : t_end) - t_min;
	block->size_kb = device->size_kb[i];
	block->op = 0;
	block->index = (uint32_t)i;
	return 1;
}

size_t rli_memory_blocks(rli_memory_block *blocks, rli_memory_summary *summary, const rli_memory_device *device)
{
	double t_min = INFINITY, t_end = -INFINITY;
	size_t count = 0;

	memset(summary, 0, sizeof(*summary));
	for (size_t i = 0; i < device->count; i++) {
		double start = device->start_ms[i], duration = device->duration_ms[i];
		if (!isfinite(start) || !(device->size_kb[i] > 0))
			continue;
		t_min = fmin(t_min, start);
		t_end = fmax(t_end, start + (freed(duration) ? duration : 0));
	}
	for (size_t i = 0; i < device->count; i++) {
		if (!block_of(&blocks[count], device, i, t_min, t_end))
			continue;
		if (!freed(device->duration_ms[i])) {
			summary->never_freed++;
			summary->never_freed_kb += device->size_kb[i];
		}
		count++;
	}
	summary->t_min_ms = t_min;
	summary->t_max_ms = t_end;
	return count;
}

/*
 * An allocation's total after it is at least its size, so above 0: the parsers keep 0 for a total
 * they do not know (none written, or a negative one, warned of), and the curve passes it over.
 */
static int known_total(double mb)
{
	return mb > 0 && isfinite(mb);
}

/* What the curve can follow on this device: the totals its rows carry, where every array they need is there. */
static rli_memory_totals totals_of(const rli_memory_device *device, size_t count)
{
	size_t known = 0;
	if (!device || count == 0 || !device->allocated_mb)
		return RLI_MEMORY_TOTALS_NONE;
	/* A device none of whose totals is known draws the blocks' own sum, whatever the other devices have. */
	for (size_t i = 0; i < device->count && !known; i++)
		known = known_total(device->allocated_mb[i]);
	if (!known)
		return RLI_MEMORY_TOTALS_NONE;
	if (device->totals == RLI_MEMORY_TOTALS_ROWS && device->release_allocated_mb)
		return RLI_MEMORY_TOTALS_ROWS;
	if (device->totals == RLI_MEMORY_TOTALS_EVENTS && (device->reserved_kb || device->reserved_count == 0))
		return RLI_MEMORY_TOTALS_EVENTS;
	return RLI_MEMORY_TOTALS_NONE;
}

/* Where the reserved run's frees of blocks from before the capture start to count: after its first allocation. */
static size_t first_allocation_in_run(const rli_memory_device *device, double *freed_before_kb)
{
	size_t k = 0;
	*freed_before_kb = 0;
	for (; k < device->reserved_count && !(device->reserved_kb[k] > 0); k++)
		if (device->reserved_kb[k] < 0)
			*freed_before_kb -= device->reserved_kb[k];
	return k + 1;
}

/*
 * How close two of the device's times are to be one moment. The rows hold absolute ms, whose last
 * bit at an epoch's 1.7e12 ms is 0.24 us: a block's end (start + duration, rounded twice) may fall
 * a bit to either side of an event of the same microsecond, and the curve would spike between
 * them, a free counted after the allocation it made room for. Nothing closer is told apart.
 */
static double moment_width(const rli_memory_summary *summary)
{
	return 2 * DBL_EPSILON * fmax(fabs(summary->t_min_ms), fabs(summary->t_max_ms));
}

/* One moment of the curve: its points and whether it is the peak. */
static void moment(rli_memory_summary *summary, double t, double before_kb, double value_kb,
		   rli_memory_point_fn point, void *ctx)
{
	if (point) {
		point(ctx, t, before_kb / 1024.0);
		point(ctx, t, value_kb / 1024.0);
	}
	if (value_kb / 1024.0 > summary->peak_mb) {
		summary->peak_mb = value_kb / 1024.0;
		summary->peak_ms = t;
	}
}

/* Block b's allocator: 0, or 1 for the device's second (memory_table.h, RLI_MEMORY_SECOND_POOL). */
static int pool_of(const rli_memory_device *device, const rli_memory_block *block)
{
	return device->second_pool && device->second_pool[block->index];
}

/*
 * ROWS: the allocators' totals after each allocation and release, in time order (ties in block
 * order, a block's start before its end); a moment takes the last total each allocator wrote at
 * it, and the curve is their sum, each allocator from its count before its first allocation.
 * This one sorts every event; sweep_totals below does the same with the blocks in start order.
 */
static int sort_totals(rli_memory_summary *summary, const rli_memory_device *device,
			   const rli_memory_block *blocks, size_t count, const double *pool_start_kb,
			   rli_memory_point_fn point, void *ctx)
{
	double *key = rli_bigmem_array(2 * count, sizeof(double)), *value = rli_bigmem_array(2 * count, sizeof(double));
	size_t *order = rli_bigmem_array(2 * count, sizeof(size_t)), *tmp = rli_bigmem_array(2 * count, sizeof(size_t));
	uint8_t *pool = rli_bigmem_array(2 * count, 1);
	size_t n = 0, *sorted;
	double current[2] = { pool_start_kb[0], pool_start_kb[1] }, width = moment_width(summary);
	int error = RLI_OK;

	if (!key || !value || !order || !tmp || !pool) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t b = 0; b < count; b++) {
		size_t i = blocks[b].index;
		double released = device->release_allocated_mb[i];
		if (known_total(device->allocated_mb[i])) {
			key[n] = blocks[b].start;
			value[n] = device->allocated_mb[i] * 1024;
			pool[n] = (uint8_t)pool_of(device, &blocks[b]);
			order[n] = n;
			n++;
		}
		if (freed(device->duration_ms[i]) && isfinite(released)) {
			key[n] = blocks[b].end;
			value[n] = released * 1024;
			pool[n] = (uint8_t)pool_of(device, &blocks[b]);
			order[n] = n;
			n++;
		}
	}
	sorted = rli_stable_order(order, tmp, key, n);
	if (point)
		point(ctx, 0, (current[0] + current[1]) / 1024.0);
	for (size_t k = 0; k < n;) {
		double t = key[sorted[k]], before = current[0] + current[1];
		for (; k < n && key[sorted[k]] <= t + width; k++)
			current[pool[sorted[k]]] = value[sorted[k]];
		moment(summary, t, before, current[0] + current[1], point, ctx);
	}
done:
	rli_bigmem_free(key);
	rli_bigmem_free(value);
	rli_bigmem_free(order);
	rli_bigmem_free(tmp);
	rli_bigmem_free(pool);
	return error;
}

/*
 * The running sum: the starts and the ends are each put in time order (the
 * starts usually are already) and merged, with EVENTS the frees of blocks from
 * before the capture a third stream; at one moment the changes are summed in
 * block order, a block's start before its end, the order a stable sort of
 * (start 0, end 0, start 1, end 1, ...) would give, then the frees.
 */
static int running_sum(rli_memory_summary *summary, const rli_memory_device *device, const rli_memory_block *blocks,
		       size_t count, size_t free_from, rli_memory_point_fn point, void *ctx)
{
	double *key = rli_bigmem_array(count, sizeof(double));
	size_t *order = rli_bigmem_array(count, sizeof(size_t)), *tmp = rli_bigmem_array(count, sizeof(size_t));
	size_t *by_start = NULL, *start_order = NULL, *start_tmp = NULL, *by_end, s = 0, e = 0;
	/* the frees' run: device->reserved_*[f..frees), the allocations in it passed over */
	size_t f = free_from, frees = summary->totals == RLI_MEMORY_TOTALS_EVENTS ? device->reserved_count : 0;
	double value = summary->start_mb * 1024, t_min = summary->t_min_ms, width = moment_width(summary);
	int sorted = 1, error = RLI_OK;

	if (!key || !order || !tmp) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 1; i < count && sorted; i++)
		sorted = blocks[i - 1].start <= blocks[i].start;
	if (!sorted) {
		start_order = rli_bigmem_array(count, sizeof(size_t));
		start_tmp = rli_bigmem_array(count, sizeof(size_t));
		if (!start_order || !start_tmp) {
			error = rli_error_oom();
			goto done;
		}
		for (size_t i = 0; i < count; i++) {
			key[i] = blocks[i].start;
			start_order[i] = i;
		}
		by_start = rli_stable_order(start_order, start_tmp, key, count);
	}
	for (size_t i = 0; i < count; i++) {
		/* A block never freed is still held when the capture ends: it never leaves the curve. */
		int held = device && !freed(device->duration_ms[blocks[i].index]);
		key[i] = held ? INFINITY : blocks[i].end;
		order[i] = i;
	}
	by_end = rli_stable_order(order, tmp, key, count);
	if (point)
		point(ctx, 0, value / 1024.0);
	for (;;) {
		size_t si = s < count ? (by_start ? by_start[s] : s) : 0, ei = e < count ? by_end[e] : 0;
		double t = INFINITY, before = value, until;
		while (f < frees && !(device->reserved_kb[f] < 0))
			f++;
		if (s < count)
			t = blocks[si].start;
		if (e < count && key[ei] < t)
			t = key[ei];
		if (f < frees && device->reserved_ms[f] - t_min < t)
			t = device->reserved_ms[f] - t_min;
		if (t == INFINITY)
			break;
		until = t + width;
		for (;;) {
			int start_here = s < count && blocks[si].start <= until, end_here = e < count && key[ei] <= until;
			if (start_here && (!end_here || si <= ei)) {
				value += blocks[si].size_kb;
				s++;
				si = s < count ? (by_start ? by_start[s] : s) : 0;
			} else if (end_here) {
				value += -blocks[ei].size_kb;
				e++;
				ei = e < count ? by_end[e] : 0;
			} else {
				break;
			}
		}
		for (; f < frees && (!(device->reserved_kb[f] < 0) || device->reserved_ms[f] - t_min <= until); f++)
			if (device->reserved_kb[f] < 0)
				value += device->reserved_kb[f];
		/* A sum of sizes that cancels out exactly is 0, not a rounding residue. */
		if (fabs(value) < 1e-9)
			value = 0;
		moment(summary, t, before, value, point, ctx);
	}
done:
	rli_bigmem_free(key);
	rli_bigmem_free(order);
	rli_bigmem_free(tmp);
	rli_bigmem_free(start_order);
	rli_bigmem_free(start_tmp);
	return error;
}

/*
 * ROWS events in the order sort_totals sorts them into, from blocks in start order: the
 * allocations are in time order already, so only the releases are sorted (by end, ties in block
 * order), and the two streams merged, at one time block b's allocation before block c's release
 * where b <= c. A stable sort of (start 0, end 0, start 1, end 1, ...) orders them just so.
 */
typedef struct {
	const rli_memory_device *device;
	const rli_memory_block *blocks;
	size_t count, start;  /* the next block whose allocation's total may be an event; blocks up to count */
	const size_t *ends;   /* the blocks with a release's total, by end */
	size_t end_count, end;
} totals_events;

static void skip_unknown_starts(totals_events *ev)
{
	while (ev->start < ev->count && !known_total(ev->device->allocated_mb[ev->blocks[ev->start].index]))
		ev->start++;
}

/* Whether block b's allocation comes before block c's release, both at their times. */
static int start_before_end(const rli_memory_block *blocks, size_t b, size_t c)
{
	double start = blocks[b].start, end = blocks[c].end;
	return start < end || (start == end && b <= c);
}

/* Whether the next event is an allocation (1), a release (0), or there is none (-1); *t its time. */
static int next_event(const totals_events *ev, double *t)
{
	int has_start = ev->start < ev->count, has_end = ev->end < ev->end_count;
	if (has_start && (!has_end || start_before_end(ev->blocks, ev->start, ev->ends[ev->end]))) {
		*t = ev->blocks[ev->start].start;
		return 1;
	}
	if (has_end) {
		*t = ev->blocks[ev->ends[ev->end]].end;
		return 0;
	}
	return -1;
}

/* The total an allocation (is_start) or a release of block b sets its allocator's count to, KB. */
static double event_kb(const rli_memory_device *device, const rli_memory_block *block, int is_start)
{
	return (is_start ? device->allocated_mb : device->release_allocated_mb)[block->index] * 1024;
}

/* The next event taken: its allocator's total, set in current. */
static void take_event(totals_events *ev, int is_start, double *current)
{
	const rli_memory_device *device = ev->device;
	const rli_memory_block *block = &ev->blocks[is_start ? ev->start++ : ev->ends[ev->end++]];
	current[pool_of(device, block)] = event_kb(device, block, is_start);
	if (is_start)
		skip_unknown_starts(ev);
}

static void streams_dispose(rli_memory_streams *ts)
{
	rli_bigmem_free(ts->end_key);
	rli_bigmem_free(ts->order);
	rli_bigmem_free(ts->tmp);
	memset(ts, 0, sizeof(*ts));
}

/*
 * The streams of the blocks' events: 1, or 0 when the blocks are not in start order or a time
 * is no number to order by (sort_totals then sorts), RLI_ERROR out of memory.
 */
static int streams_make(rli_memory_streams *ts, const rli_memory_summary *summary, const rli_memory_device *device,
			const rli_memory_block *blocks, size_t count)
{
	memset(ts, 0, sizeof(*ts));
	for (size_t b = 0; b < count; b++)
		if (isnan(blocks[b].start) || isnan(blocks[b].end) || (b && !(blocks[b - 1].start <= blocks[b].start)))
			return 0;
	*ts = (rli_memory_streams){ .device = device, .blocks = blocks, .count = count, .width = moment_width(summary) };
	ts->end_key = rli_bigmem_array(count, sizeof(double));
	ts->order = rli_bigmem_array(count, sizeof(size_t));
	ts->tmp = rli_bigmem_array(count, sizeof(size_t));
	if (!ts->end_key || !ts->order || !ts->tmp) {
		streams_dispose(ts);
		return rli_error_oom();
	}
	for (size_t b = 0; b < count; b++) {
		size_t i = blocks[b].index;
		int released = freed(device->duration_ms[i]) && isfinite(device->release_allocated_mb[i]);
		if (released) {
			ts->end_key[b] = blocks[b].end;
			ts->order[ts->end_count++] = b;
		}
		if (released || known_total(device->allocated_mb[i]))
			ts->has_events[pool_of(device, &blocks[b])] = 1;
	}
	ts->ends = rli_stable_order(ts->order, ts->tmp, ts->end_key, ts->end_count);
	/* The keys and the other order are the sort's only: freed now, for what comes next to reuse. */
	rli_bigmem_free(ts->end_key);
	ts->end_key = NULL;
	if (ts->ends == ts->order) {
		rli_bigmem_free(ts->tmp);
		ts->tmp = NULL;
	} else {
		rli_bigmem_free(ts->order);
		ts->order = NULL;
	}
	return 1;
}

/*
 * The moments of the events from allocation `start` and release `end` on, up to allocation
 * start_to and release end_to, the allocators' counts starting at current: each moment's two
 * points to point(ctx), the peak into summary.
 */
static void sweep_range(const rli_memory_streams *ts, size_t start, size_t start_to, size_t end, size_t end_to,
			double *current, rli_memory_summary *summary, rli_memory_point_fn point, void *ctx)
{
	totals_events ev = { ts->device, ts->blocks, start_to, start, ts->ends, end_to, end };
	int kind;
	skip_unknown_starts(&ev);
	for (double t, at; (kind = next_event(&ev, &t)) >= 0;) {
		double before = current[0] + current[1];
		take_event(&ev, kind, current);
		while ((kind = next_event(&ev, &at)) >= 0 && at <= t + ts->width)
			take_event(&ev, kind, current);
		moment(summary, t, before, current[0] + current[1], point, ctx);
	}
}

/*
 * sort_totals' curve, its events merged rather than sorted: a third of the memory (a million
 * blocks' two million events took some 90 MB of keys, values, orders and the radix sort's
 * scratch, every page of it faulted in fresh) and no sort of the allocations. 0 when the
 * blocks are not in start order, or a time is no number to order by: then sort_totals sorts.
 */
static int sweep_totals(rli_memory_summary *summary, const rli_memory_device *device, const rli_memory_block *blocks,
			size_t count, const double *pool_start_kb, rli_memory_point_fn point, void *ctx)
{
	double current[2] = { pool_start_kb[0], pool_start_kb[1] };
	rli_memory_streams ts;
	int made = streams_make(&ts, summary, device, blocks, count);
	if (made <= 0)
		return made;
	if (point)
		point(ctx, 0, (current[0] + current[1]) / 1024.0);
	sweep_range(&ts, 0, count, 0, ts.end_count, current, summary, point, ctx);
	streams_dispose(&ts);
	return 1;
}

/* ROWS: sweep_totals where the blocks allow it, else sort_totals. */
static int curve_of_totals(rli_memory_summary *summary, const rli_memory_device *device,
			   const rli_memory_block *blocks, size_t count, const double *pool_start_kb,
			   rli_memory_point_fn point, void *ctx)
{
	int swept = sweep_totals(summary, device, blocks, count, pool_start_kb, point, ctx);
	if (swept != 0)
		return swept < 0 ? swept : RLI_OK;
	return sort_totals(summary, device, blocks, count, pool_start_kb, point, ctx);
}

/*
 * What the curve starts from: the summary's totals, start and before (its peak at the start),
 * each allocator's count before its first allocation, and (EVENTS) where the frees of blocks
 * from before the capture start to count.
 */
static void curve_begin(rli_memory_summary *summary, const rli_memory_device *device, const rli_memory_block *blocks,
			size_t count, double *pool_start_kb, size_t *free_from_out)
{
	size_t free_from = 0;
	double freed_before_kb = 0;

	pool_start_kb[0] = pool_start_kb[1] = 0;
	summary->peak_mb = 0;
	summary->peak_ms = 0;
	summary->totals = totals_of(device, count);
	summary->before_mb = summary->start_mb = 0;
	if (summary->totals != RLI_MEMORY_TOTALS_NONE) {
		/* Each allocator's count before its first allocation: that one's own total less its size. */
		size_t first[2] = { SIZE_MAX, SIZE_MAX };
		for (size_t b = 0; b < count; b++) {
			int p = summary->totals == RLI_MEMORY_TOTALS_ROWS && pool_of(device, &blocks[b]);
			if (first[p] == SIZE_MAX || blocks[b].start < blocks[first[p]].start)
				first[p] = b;
		}
		for (int p = 0; p < 2; p++) {
			size_t i = first[p] != SIZE_MAX ? blocks[first[p]].index : 0;
			if (first[p] != SIZE_MAX && known_total(device->allocated_mb[i]))
				pool_start_kb[p] = device->allocated_mb[i] * 1024 - device->size_kb[i];
		}
		summary->start_mb = (pool_start_kb[0] + pool_start_kb[1]) / 1024.0;
		if (summary->totals == RLI_MEMORY_TOTALS_EVENTS)
			free_from = first_allocation_in_run(device, &freed_before_kb);
		summary->before_mb = summary->start_mb + freed_before_kb / 1024.0;
		summary->peak_mb = summary->start_mb;
	}
	*free_from_out = free_from;
}

int rli_memory_curve_each(rli_memory_summary *summary, const rli_memory_device *device,
			  const rli_memory_block *blocks, size_t count, rli_memory_point_fn point, void *ctx)
{
	size_t free_from;
	double pool_start_kb[2];

	curve_begin(summary, device, blocks, count, pool_start_kb, &free_from);
	if (summary->totals == RLI_MEMORY_TOTALS_ROWS)
		return curve_of_totals(summary, device, blocks, count, pool_start_kb, point, ctx);
	return running_sum(summary, device, blocks, count, free_from, point, ctx);
}

/* ---- the sweep in two halves at once ---- */

/* The last event of allocator `pool` before allocation start_cut and release end_cut: its total, or `none`. */
static double last_total_before(const rli_memory_streams *ts, size_t start_cut, size_t end_cut, int pool, double none)
{
	const rli_memory_device *device = ts->device;
	const rli_memory_block *blocks = ts->blocks;
	size_t s = start_cut, e = end_cut;
	int has_start = 0, has_end = 0;

	if (!ts->has_events[pool])
		return none; /* an allocator without events (most devices have one) is not looked for row by row */
	while (s-- > 0)
		if (known_total(device->allocated_mb[blocks[s].index]) && pool_of(device, &blocks[s]) == pool) {
			has_start = 1;
			break;
		}
	while (e-- > 0)
		if (pool_of(device, &blocks[ts->ends[e]]) == pool) {
			has_end = 1;
			break;
		}
	/* Of the two, the later: the release unless the allocation comes after it. */
	if (has_start && (!has_end || !start_before_end(blocks, s, ts->ends[e])))
		return event_kb(device, &blocks[s], 1);
	if (has_end)
		return event_kb(device, &blocks[ts->ends[e]], 0);
	return none;
}

/*
 * Where the halves part: an allocation near the middle that begins a moment of its own, the
 * last event before it more than a moment's width earlier (so no moment straddles the cut);
 * *start_cut and *end_cut the second half's first allocation and release. 0 when none is
 * found close enough to the middle (the events there too dense).
 */
static int find_cut(const rli_memory_streams *ts, size_t *start_cut, size_t *end_cut)
{
	const rli_memory_block *blocks = ts->blocks;
	for (size_t s = ts->count / 2, tries = 0; s < ts->count && tries < RLI_MEMORY_HALVES_TRIES; s++, tries++) {
		size_t low = 0, high = ts->end_count;
		double before;
		if (!known_total(ts->device->allocated_mb[blocks[s].index]))
			continue;
		/* The releases before allocation s: the ends are in merged order among themselves. */
		while (low < high) {
			size_t mid = low + (high - low) / 2;
			if (start_before_end(blocks, s, ts->ends[mid]))
				high = mid;
			else
				low = mid + 1;
		}
		/* Block s - 1's start, whatever its total: at least as late as the last allocation before s. */
		before = blocks[s - 1].start;
		if (low > 0 && blocks[ts->ends[low - 1]].end > before)
			before = blocks[ts->ends[low - 1]].end;
		if (blocks[s].start > before + ts->width) {
			*start_cut = s;
			*end_cut = low;
			return 1;
		}
	}
	return 0;
}

int rli_memory_halves_cut(rli_memory_halves *h, rli_memory_summary *summary, const rli_memory_device *device,
			  const rli_memory_block *blocks, size_t count)
{
	size_t free_from;
	int made;

	memset(h, 0, sizeof(*h));
	curve_begin(summary, device, blocks, count, h->pool_start_kb, &free_from);
	h->summary = *summary;
	if (summary->totals != RLI_MEMORY_TOTALS_ROWS || count < RLI_MEMORY_HALVES_FROM)
		return 0;
	if ((made = streams_make(&h->streams, summary, device, blocks, count)) <= 0)
		return made;
	/* No cut near the middle: one sweep of the streams made, all of it the first half's. */
	if (!(h->halved = find_cut(&h->streams, &h->start_cut, &h->end_cut))) {
		h->start_cut = count;
		h->end_cut = h->streams.end_count;
		return 1;
	}
	for (int p = 0; p < 2; p++)
		h->cut_kb[p] = last_total_before(&h->streams, h->start_cut, h->end_cut, p, h->pool_start_kb[p]);
	/* Every block before the cut, its total known or not: the first half's events are no more. */
	h->first_moments = h->start_cut + h->end_cut;
	return 1;
}

/* The second half, on a thread of its own. */
typedef struct {
	const rli_memory_halves *h;
	rli_memory_summary summary;
	rli_memory_point_fn point;
	void *ctx;
} second_half;

static int sweep_second(void *arg)
{
	second_half *w = arg;
	const rli_memory_streams *ts = &w->h->streams;
	double current[2] = { w->h->cut_kb[0], w->h->cut_kb[1] };
	sweep_range(ts, w->h->start_cut, ts->count, w->h->end_cut, ts->end_count, current, &w->summary, w->point,
		    w->ctx);
	return RLI_OK;
}

int rli_memory_halves_sweep(rli_memory_halves *h, rli_memory_summary *summary, rli_memory_point_fn point, void *first,
			    void *second)
{
	double current[2] = { h->pool_start_kb[0], h->pool_start_kb[1] };
	second_half w = { h, h->summary, point, second };
	rli_task task;
	int error;

	*summary = h->summary;
	if (h->halved)
		rli_task_start(&task, sweep_second, &w, 1);
	if (point)
		point(first, 0, (current[0] + current[1]) / 1024.0);
	sweep_range(&h->streams, 0, h->start_cut, 0, h->end_cut, current, summary, point, first);
	if (!h->halved)
		return RLI_OK;
	if ((error = rli_task_join(&task)) < 0)
		return error;
	/* The peak: the first moment of the greatest value, so the second half's only if greater. */
	if (w.summary.peak_mb > summary->peak_mb) {
		summary->peak_mb = w.summary.peak_mb;
		summary->peak_ms = w.summary.peak_ms;
	}
	return RLI_OK;
}

void rli_memory_halves_dispose(rli_memory_halves *h)
{
	streams_dispose(&h->streams);
}

/* rli_memory_curve's points, kept: at most two a moment and the start, so 4 count + 1, and 2 a free from before the capture. */
typedef struct {
	double *x, *y;
	size_t points;
} kept_points;

static void keep_point(void *ctx, double x, double y)
{
	kept_points *k = ctx;
	k->x[k->points] = x;
	k->y[k->points++] = y;
}

int rli_memory_curve(rli_memory_summary *summary, double **x_out, double **y_out, size_t *points_out,
		     const rli_memory_device *device, const rli_memory_block *blocks, size_t count)
{
	kept_points kept = { NULL, NULL, 0 };
	size_t room;
	int error;
	if (!x_out || !y_out)
		return rli_memory_curve_each(summary, device, blocks, count, NULL, NULL);
	room = 4 * count + 1 + (device && device->totals == RLI_MEMORY_TOTALS_EVENTS ? 2 * device->reserved_count : 0);
	kept.x = rli_bigmem_array(room, sizeof(double));
	kept.y = rli_bigmem_array(room, sizeof(double));
	if (!kept.x || !kept.y)
		error = rli_error_oom();
	else
		error = rli_memory_curve_each(summary, device, blocks, count, keep_point, &kept);
	if (error < 0) {
		rli_bigmem_free(kept.x);
		rli_bigmem_free(kept.y);
		return error;
	}
	*x_out = kept.x;
	*y_out = kept.y;
	*points_out = kept.points;
	return RLI_OK;
}

typedef struct {
	double size_kb, start;
	size_t index;
} live_block;

/* At a moment: larger blocks first, then earlier ones, then in block order (no tie is left to qsort). */
static int compare_live(const void *a, const void *b)
{
	const live_block *x = a, *y = b;
	if (x->size_kb != y->size_kb)
		return x->size_kb > y->size_kb ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

int rli_memory_live_blocks(rli_memory_block **live_out, size_t *live_count, const rli_memory_device *device,
			   const rli_memory_summary *summary, double t)
{
	live_block *keys = NULL;
	rli_memory_block *live = NULL, block;
	size_t alive = 0, capacity = 0;

	*live_out = NULL;
	*live_count = 0;
	for (size_t i = 0; i < device->count; i++) {
		if (!block_of(&block, device, i, summary->t_min_ms, summary->t_max_ms) || !(block.start <= t && block.end > t))
			continue;
		if (RLI_GROW_BIG(&keys, &capacity, alive + 1, 1024) < 0) {
			rli_bigmem_free(keys);
			return rli_error_oom();
		}
		keys[alive++] = (live_block){ block.size_kb, block.start, i };
	}
	/* Device order is block order: the same order as rli_memory_live_at's, then the blocks made again. */
	if (alive) /* none may be live at a peak the allocator's count reached before the capture */
		qsort(keys, alive, sizeof(*keys), compare_live);
	if (alive && !(live = rli_bigmem_array(alive, sizeof(*live)))) {
		rli_bigmem_free(keys);
		return rli_error_oom();
	}
	for (size_t k = 0; k < alive; k++)
		block_of(&live[k], device, keys[k].index, summary->t_min_ms, summary->t_max_ms);
	rli_bigmem_free(keys);
	*live_out = live;
	*live_count = alive;
	return RLI_OK;
}

int rli_memory_live_at(size_t **live_out, size_t *live_count, const rli_memory_block *blocks, size_t count, double t)
{
	live_block *live = rli_bigmem_array(count, sizeof(*live));
	size_t *indices = NULL, alive = 0;

	*live_out = NULL;
	*live_count = 0;
	if (!live)
		return rli_error_oom();
	for (size_t i = 0; i < count; i++)
		if (blocks[i].start <= t && blocks[i].end > t)
			live[alive++] = (live_block){ blocks[i].size_kb, blocks[i].start, i };
	qsort(live, alive, sizeof(*live), compare_live);
	if (!(indices = rli_bigmem_array(alive, sizeof(*indices)))) {
		rli_bigmem_free(live);
		return rli_error_oom();
	}
	for (size_t i = 0; i < alive; i++)
		indices[i] = live[i].index;
	rli_bigmem_free(live);
	*live_out = indices;
	*live_count = alive;
	return RLI_OK;
}

int rli_memory_reserved_line(double **x, double **y, size_t *points, double *max_mb,
			     const rli_memory_summary *summary, const rli_memory_device *device)
{
	const double end = summary->t_max_ms - summary->t_min_ms;
	size_t n = 0;
	double value = 0;

	*x = *y = NULL;
	*points = 0;
	*max_mb = 0;
	if (!device->reserved_count || !(end >= 0))
		return RLI_OK;
	/* at most two points a row, and the end */
	*x = rli_bigmem_array(2 * device->reserved_count + 1, sizeof(double));
	*y = rli_bigmem_array(2 * device->reserved_count + 1, sizeof(double));
	if (!*x || !*y) {
		rli_bigmem_free(*x);
		rli_bigmem_free(*y);
		*x = *y = NULL;
		return rli_error_oom();
	}
	for (size_t i = 0; i < device->reserved_count; i++) {
		double t = fmax(device->reserved_ms[i] - summary->t_min_ms, 0), v = device->reserved_mb[i];
		if (t > end)
			break; /* rows are in time order: past the last block, nothing left to draw */
		if (n && v == value)
			continue;
		/* Before the first allocation: the value the line starts at 0 with, not a step of its own. */
		if (n && t == 0 && (*x)[n - 1] == 0) {
			(*y)[n - 1] = v;
		} else {
			if (n) {
				(*x)[n] = t;
				(*y)[n++] = value;
			}
			(*x)[n] = t;
			(*y)[n++] = v;
		}
		value = v;
	}
	/* Held to the end of the capture; the first value counts only once it is drawn, which it now is. */
	(*x)[n] = end;
	(*y)[n++] = value;
	for (size_t i = 0; i < n; i++)
		*max_mb = fmax(*max_mb, (*y)[i]);
	/* Nothing reserved throughout (a CPU device's events): no allocator cache to draw. */
	if (!(*max_mb > 0)) {
		rli_bigmem_free(*x);
		rli_bigmem_free(*y);
		*x = *y = NULL;
		*max_mb = 0;
		return RLI_OK;
	}
	*points = n;
	return RLI_OK;
}

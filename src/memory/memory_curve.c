/* memory_curve.c: a device's blocks, the running sum of the live ones (the memory curve), its peak, and the blocks live there. */
#include "memory_curve.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/sort.h"

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
	block->index = i;
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
 * The starts and the ends are each put in time order (the starts usually are
 * already) and merged; at one moment the changes are summed in block order,
 * a block's start before its end, the order a stable sort of
 * (start 0, end 0, start 1, end 1, ...) would give.
 */
int rli_memory_curve_each(rli_memory_summary *summary, const rli_memory_block *blocks, size_t count,
			  rli_memory_point_fn point, void *ctx)
{
	double *key = rli_bigmem_array(count, sizeof(double));
	size_t *order = rli_bigmem_array(count, sizeof(size_t)), *tmp = rli_bigmem_array(count, sizeof(size_t));
	size_t *by_start = NULL, *start_order = NULL, *start_tmp = NULL, *by_end, s = 0, e = 0;
	double value = 0;
	int sorted = 1, error = RLI_OK;

	summary->peak_mb = 0;
	summary->peak_ms = 0;
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
		key[i] = blocks[i].end;
		order[i] = i;
	}
	by_end = rli_stable_order(order, tmp, key, count);
	if (point)
		point(ctx, 0, 0);
	while (s < count || e < count) {
		size_t si = s < count ? (by_start ? by_start[s] : s) : 0, ei = e < count ? by_end[e] : 0;
		double t = s < count && (e == count || blocks[si].start <= blocks[ei].end) ? blocks[si].start
											: blocks[ei].end;
		double before = value;
		for (;;) {
			int start_here = s < count && blocks[si].start == t, end_here = e < count && blocks[ei].end == t;
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
		/* A sum of sizes that cancels out exactly is 0, not a rounding residue. */
		if (fabs(value) < 1e-9)
			value = 0;
		if (point) {
			point(ctx, t, before / 1024.0);
			point(ctx, t, value / 1024.0);
		}
		if (value / 1024.0 > summary->peak_mb) {
			summary->peak_mb = value / 1024.0;
			summary->peak_ms = t;
		}
	}
done:
	rli_bigmem_free(key);
	rli_bigmem_free(order);
	rli_bigmem_free(tmp);
	rli_bigmem_free(start_order);
	rli_bigmem_free(start_tmp);
	return error;
}

/* rli_memory_curve's points, kept: at most two a moment and (0, 0), so 4 count + 1. */
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
		     const rli_memory_block *blocks, size_t count)
{
	kept_points kept = { NULL, NULL, 0 };
	int error;
	if (!x_out || !y_out)
		return rli_memory_curve_each(summary, blocks, count, NULL, NULL);
	kept.x = rli_bigmem_array(4 * count + 1, sizeof(double));
	kept.y = rli_bigmem_array(4 * count + 1, sizeof(double));
	if (!kept.x || !kept.y)
		error = rli_error_oom();
	else
		error = rli_memory_curve_each(summary, blocks, count, keep_point, &kept);
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

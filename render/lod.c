/* lod.c: level of detail: the exact per-column union of intervals thinner than a column. */
#include "lod.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rli_lod_init(rli_lod_columns *lod, size_t column_count)
{
	memset(lod, 0, sizeof(*lod));
	lod->coverage = calloc(column_count ? column_count : 1, sizeof(*lod->coverage));
	if (!lod->coverage)
		return rli_error_oom();
	lod->column_count = column_count;
	lod->touched_lo = column_count;
	lod->touched_hi = 0;
	return RLI_OK;
}

void rli_lod_dispose(rli_lod_columns *lod)
{
	free(lod->coverage);
	memset(lod, 0, sizeof(*lod));
}

static void settle(rli_lod_columns *lod, double x0, double x1)
{
	double limit = (double)lod->column_count;
	size_t first, last;

	if (x0 < 0.0)
		x0 = 0.0;
	if (x1 > limit)
		x1 = limit;
	if (!(x1 > x0))
		return;
	first = (size_t)floor(x0);
	last = (size_t)ceil(x1); /* exclusive */
	if (last > lod->column_count)
		last = lod->column_count;
	for (size_t c = first; c < last; c++) {
		double lo = fmax(x0, (double)c), hi = fmin(x1, (double)c + 1.0);
		if (hi > lo)
			lod->coverage[c] += hi - lo;
	}
	if (first < lod->touched_lo)
		lod->touched_lo = first;
	if (last > lod->touched_hi)
		lod->touched_hi = last;
}

/*
 * Intervals arrive in start order, so their union is built as one growing
 * run: an interval that starts inside the run extends it, one that starts
 * past it closes it. Each point is therefore counted once however many bars
 * cover it, and each column receives exactly the union's length inside it.
 */
void rli_lod_add(rli_lod_columns *lod, double x0, double x1)
{
	if (!(x1 > x0))
		return;
	if (lod->run_open && x0 <= lod->run_end) {
		if (x1 > lod->run_end)
			lod->run_end = x1;
		return;
	}
	if (lod->run_open)
		settle(lod, lod->run_start, lod->run_end);
	lod->run_start = x0;
	lod->run_end = x1;
	lod->run_open = 1;
}

void rli_lod_flush(rli_lod_columns *lod)
{
	if (lod->run_open)
		settle(lod, lod->run_start, lod->run_end);
	lod->run_open = 0;
}

void rli_lod_clear(rli_lod_columns *lod)
{
	if (lod->touched_hi > lod->touched_lo)
		memset(lod->coverage + lod->touched_lo, 0,
		       (lod->touched_hi - lod->touched_lo) * sizeof(*lod->coverage));
	lod->touched_lo = lod->column_count;
	lod->touched_hi = 0;
	lod->run_open = 0;
}

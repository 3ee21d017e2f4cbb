/* memory_segments.c: how a device's allocations split into the memory pages' time segments (memory.md §4.6, fixed). */
#include "memory_segments.h"

#include <math.h>

size_t rli_memory_segment_count(size_t bars, double span)
{
	size_t n = (bars + RLI_MEMORY_BARS_PER_SEGMENT - 1) / RLI_MEMORY_BARS_PER_SEGMENT;
	if (!(span > 0) || n < 1)
		return 1;
	return n > RLI_MEMORY_MAX_SEGMENTS ? RLI_MEMORY_MAX_SEGMENTS : n;
}

void rli_memory_segment_bounds(double *bounds, size_t n, double span)
{
	/* i * span / n, not a running sum, so no error piles up and the last is span itself */
	for (size_t i = 0; i < n; i++)
		bounds[i] = span * (double)i / (double)n;
	bounds[n] = span;
}

/* The segment whose half-open span holds t; the last one for t at or past its start. */
static size_t segment_of(const double *bounds, size_t n, double t)
{
	size_t lo = 0, hi = n - 1;
	/* the largest i with bounds[i] <= t (bounds[0] = 0 <= t) */
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		if (bounds[mid] <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

void rli_memory_segment_span(const double *bounds, size_t n, double start, double end, size_t *first,
			     size_t *last)
{
	*first = segment_of(bounds, n, start);
	if (!(end > start)) {
		*last = *first;
		return;
	}
	/* The last segment starting before the end: a bar ending on bounds[i] stays out of segment i. */
	*last = segment_of(bounds, n, end);
	if (*last > *first && !(bounds[*last] < end))
		(*last)--;
}

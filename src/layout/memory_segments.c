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

/*
 * The segment whose half-open span holds t; the last one for t at or past its start: the largest
 * i < n with bounds[i] <= t, else 0. The slices are equal, so t's place in the span is the answer
 * or next to it, and a step or two makes it exact: a search of the bounds, called four times a
 * block, was 4% of laying out and writing a million blocks' pages.
 */
static size_t segment_of(const double *bounds, size_t n, double t)
{
	double span = bounds[n];
	size_t i = 0;
	if (span > 0 && t > 0) {
		double guess = t / span * (double)n;
		i = guess >= (double)(n - 1) ? n - 1 : (size_t)guess;
	}
	while (i > 0 && !(bounds[i] <= t))
		i--;
	while (i + 1 < n && bounds[i + 1] <= t)
		i++;
	return i;
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

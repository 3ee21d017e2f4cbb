/* memory_segments.h: how a device's allocations split into the memory pages' time segments (memory.md §4.6, fixed). */
#ifndef RLI_LAYOUT_MEMORY_SEGMENTS_H
#define RLI_LAYOUT_MEMORY_SEGMENTS_H

#include <stddef.h>

#define RLI_MEMORY_MAX_SEGMENTS 20
#define RLI_MEMORY_BARS_PER_SEGMENT 5000

/*
 * max(1, min(20, ceil(bars / 5000))): about 5,000 bars a segment, never more
 * than 20 segments (bigger ones past 100,000 bars). One segment when the
 * span is empty, where equal slices would all be the same instant.
 */
size_t rli_memory_segment_count(size_t bars, double span);

/*
 * bounds[0..n]: n equal slices of [0, span], bounds[n] = span exactly.
 * Segment i is [bounds[i], bounds[i + 1]), the last one closed at span.
 */
void rli_memory_segment_bounds(double *bounds, size_t n, double span);

/*
 * The segments a bar [start, end] (0 <= start <= end <= span) belongs to,
 * first..last inclusive. A bar with length belongs to every segment it
 * overlaps by more than a point (a bar ending on a boundary is not in the
 * next one); a zero-length bar belongs to exactly the one segment whose
 * half-open span holds it, the last one for a bar at span itself.
 */
void rli_memory_segment_span(const double *bounds, size_t n, double start, double end, size_t *first,
			     size_t *last);

#endif

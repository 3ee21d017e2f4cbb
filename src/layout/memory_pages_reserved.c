/* memory_pages_reserved.c: a PyTorch device's Total Reserved on the memory pages: the figure's step line on the pages' x, thinned to a few points a column. */
#include "memory_pages.h"
#include "memory/memory_curve.h"
#include "memory_parts.h"

#include <math.h>
#include <stddef.h>

/*
 * A line of more than four points a slice kept as at most four in each of
 * `slices` equal slices of [0, span]: the slice's first, least, greatest and
 * last, in order, so its steps keep their extremes. A line the allocator
 * changed at every event would otherwise fill every segment's data file.
 */
static void thin_line(rli_line_mark *line, double span, size_t slices)
{
	size_t kept = 0;
	if (line->count <= 4 * slices || !(span > 0))
		return;
	for (size_t first = 0, next; first < line->count; first = next) {
		size_t slice = (size_t)fmin((double)slices - 1, fmax(0, line->x[first] / span * (double)slices));
		size_t low = first, high = first, keep[4];
		for (next = first + 1; next < line->count; next++) {
			if ((size_t)fmin((double)slices - 1, fmax(0, line->x[next] / span * (double)slices)) != slice)
				break;
			low = line->y[next] < line->y[low] ? next : low;
			high = line->y[next] > line->y[high] ? next : high;
		}
		keep[0] = first;
		keep[1] = low < high ? low : high;
		keep[2] = low < high ? high : low;
		keep[3] = next - 1;
		for (int k = 0; k < 4; k++)
			if (k == 0 || keep[k] != keep[k - 1]) {
				line->x[kept] = line->x[keep[k]];
				line->y[kept++] = line->y[keep[k]];
			}
	}
	line->count = kept;
}

/* The device's Total Reserved as the figure draws it, on the pages' x, named with the curve in a legend. */
int mp_reserved_line(mp_device *d, const rli_memory_summary *summary, const rli_memory_device *device,
		     size_t columns)
{
	rli_line_mark *line = &d->envelope[2];
	int error = rli_memory_reserved_line(&line->x, &line->y, &line->count, &d->reserved_mb, summary, device);
	if (error < 0 || !line->count)
		return error;
	/* a slice a sixteenth of a column: exact to the eye when zoomed into one segment */
	thin_line(line, d->span, columns * MP_RESERVED_SLICES);
	for (size_t i = 0; i < line->count; i++)
		line->x[i] += d->shift;
	line->color = RLI_MEMORY_RESERVED_COLOR;
	line->width = 1.5;
	line->name = RLI_MEMORY_RESERVED_NAME;
	d->envelope[0].name = RLI_MEMORY_CURVE_NAME(summary->totals);
	return RLI_OK;
}
/* cairo_paint.h: draws a laid-out timeline onto any cairo context (PNG image, PDF page). */
#ifndef RLI_RENDER_CAIRO_PAINT_H
#define RLI_RENDER_CAIRO_PAINT_H

#include "layout/layout.h"

#include <cairo.h>
#include <stddef.h>

typedef struct {
	/* Device units per page unit: the painter applies it (PNG: the timeline's scale; PDF: 1). */
	double scale;
	/*
	 * Level-of-detail columns per page unit. Bars narrower than one column
	 * are drawn as their exact per-column union; PNG: = scale (one device
	 * pixel), PDF: a finer grid than any printer shows.
	 */
	double lod_columns_per_unit;
} rli_paint_options;

/* Paints background, grid, bars, axes, titles and legend; a cairo failure is rli_cairo_error's. */
int rli_cairo_paint(cairo_t *cr, const rli_timeline *timeline, const rli_paint_options *options);

/*
 * A cairo failure as our message, "<what>: <cause>": out of memory is an
 * internal error (RLI_ERROR), anything else means the output could not be
 * made (RLI_EOUTPUT).
 */
int rli_cairo_error(cairo_status_t status, const char *what);

/*
 * Per-column coverage of a set of intervals, for bars thinner than a column:
 * column c covers [c, c + 1) in column units and receives the length of the
 * union of the intervals inside it (overlaps counted once), so 0..1.
 */
typedef struct {
	double *coverage;        /* column_count entries, 0 outside touched columns */
	size_t column_count;
	size_t touched_lo, touched_hi; /* columns [lo, hi) may be non-zero */
	double run_start, run_end;     /* the union interval being grown */
	int run_open;
} rli_lod_columns;

int rli_lod_init(rli_lod_columns *lod, size_t column_count);
void rli_lod_dispose(rli_lod_columns *lod);
/* Adds [x0, x1) (column units); calls must come in non-decreasing x0. */
void rli_lod_add(rli_lod_columns *lod, double x0, double x1);
/* Settles the open interval into coverage; call before reading coverage. */
void rli_lod_flush(rli_lod_columns *lod);
/* Zeroes the touched columns for the next row or series. */
void rli_lod_clear(rli_lod_columns *lod);

#endif

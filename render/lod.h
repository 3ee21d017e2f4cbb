/* lod.h: level of detail: the exact per-column union of intervals thinner than a column. */
#ifndef RLI_RENDER_LOD_H
#define RLI_RENDER_LOD_H

#include <stddef.h>

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

/* render_cases.h: event tables the render tests draw, and a PNG reader for comparing what they drew. */
#ifndef RLI_TESTS_RENDER_CASES_H
#define RLI_TESTS_RENDER_CASES_H

#include "events/events.h"
#include "layout/layout.h"

#include <png.h>

/* Appends one row; aborts the test on failure (a test fixture, not code under test). */
void case_add(rli_events *events, const char *name, const char *role, int64_t rank,
	      double start_ms, double duration_ms);

/* Four rows, three names, a CJK role, touching and overlapping bars. */
rli_events *case_few_rows(void);
/* 240 ranks of three roles, one to three bars each. */
rli_events *case_many_ranks(void);
/* 13 names over three roles, two ranks each: the palette's colour families by role past ten names. */
rli_events *case_many_names(void);
/* 100,000 bars thinner than a pixel in 4 rows, plus a few wide ones. */
rli_events *case_subpixel(void);
/* `rows` ranks of one role; the last one holds a 1 ms bar in a run of `span_ms`. */
rli_events *case_short_bar(size_t rows, double span_ms);

/*
 * Renders the timeline with a back-end to exactly `path`: the document names
 * its file (rl_timeline.<ext>) in path's folder, which is then renamed.
 */
int case_render(const rli_timeline *timeline, const char *backend, const char *path);
/* The same for any one-file document (one page, or a PDF). */
int case_render_document(const rli_document *document, const char *backend, const char *path);
/* 0 when the PNGs match within a small tolerance; says what differs otherwise. */
int case_compare_png(const char *name, const char *golden_path, const char *actual_path);

/*
 * The bars of every lane of a panel agree between a PNG (a) and the
 * rasterised PDF of the same model (b), both png's size, drawn at scale s.
 * Returns how many lanes differ, each said on stderr.
 */
int case_compare_lanes(const char *what, const rli_panel *panel, double s, const png_image *png, const png_byte *a,
		       const png_byte *b);

/* Reads a PNG as 8-bit RGB into *pixels (free it); -1 when it cannot. */
int case_read_png(png_image *image, png_bytep *pixels, const char *path);

/*
 * A golden test's command line, GOLDEN_DIR ACTUAL_DIR (the second created),
 * and whether RLI_UPDATE_GOLDEN=1 asks to rewrite the golden images: 0, or 2
 * after printing the usage.
 */
int case_golden_args(int argc, char **argv, int *updating);


#endif

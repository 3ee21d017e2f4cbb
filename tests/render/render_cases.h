/* render_cases.h: event tables the render tests draw, and a PNG writer through the back-end table. */
#ifndef RLI_TESTS_RENDER_CASES_H
#define RLI_TESTS_RENDER_CASES_H

#include "events/events.h"
#include "layout/layout.h"

/* Appends one row; aborts the test on failure (a test fixture, not code under test). */
void case_add(rli_events *events, const char *name, const char *role, int64_t rank,
	      double start_ms, double duration_ms);

/* Four rows, three names, a CJK role, touching and overlapping bars. */
rli_events *case_few_rows(void);
/* 240 ranks of three roles, one to three bars each. */
rli_events *case_many_ranks(void);
/* 100,000 bars thinner than a pixel in 4 rows, plus a few wide ones. */
rli_events *case_subpixel(void);

/* Renders with one back-end's table to path, as rli_render does (the registry is not linked). */
struct rli_backend;
int case_render(const struct rli_backend *backend, const rli_timeline *timeline, const char *path);
int case_render_png(const rli_timeline *timeline, const char *path);

#endif

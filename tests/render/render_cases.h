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


#endif

/* stats_rows.h: what the statistics tests build their tables with: a row appended, a name's string id. */
#ifndef RLI_TESTS_STATS_ROWS_H
#define RLI_TESTS_STATS_ROWS_H

#include "harness.h"
#include "events/events.h"

#include <stdint.h>
#include <string.h>

/* One bar of `name` for (role, rank), thread "1", not a marker. */
static inline void add(rli_events *ev, const char *role, const char *name, int64_t rank, double start, double duration)
{
	rli_event_in row = { name, role, NULL, "1", 0, rank, start, duration };
	CHECK_INT(rli_events_append(ev, &row), 0);
}

static inline uint32_t id_of(const rli_events *ev, const char *text)
{
	return rli_strpool_find(&ev->strings, text, strlen(text));
}

#endif

/* timeline_stats.h: the timeline's statistics aside: per role its phases and steps, and the ranks to look at, as tables linked to the rows. */
#ifndef RLI_LAYOUT_TIMELINE_STATS_H
#define RLI_LAYOUT_TIMELINE_STATS_H

#include "layout.h"
#include "stats/stats.h"

typedef struct rli_timeline_aside rli_timeline_aside;

/*
 * Appends the statistics to the timeline's page as RLI_PLACE_ASIDE items
 * (after the page's own, which it keeps): a heading and two tables (phases,
 * steps) per role, then the slowest ranks, the most idle ranks, the waits
 * between roles and the overlaps. Every table is bounded (rows and roles), so
 * the aside does not grow with the run. Rows that name a rank link to its
 * lane. Call once, after the page is assembled.
 */
int rli_timeline_add_stats_aside(rli_timeline *timeline, const rli_stats *stats);
void rli_timeline_aside_free(rli_timeline_aside *aside);

#endif

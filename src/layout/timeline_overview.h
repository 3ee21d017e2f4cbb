/* timeline_overview.h: a run with too many ranks to draw row by row, at a glance: each role's occupancy as a band over time, and the outlier ranks by name. */
#ifndef RLI_LAYOUT_TIMELINE_OVERVIEW_H
#define RLI_LAYOUT_TIMELINE_OVERVIEW_H

#include "layout.h"
#include "theme.h"
#include "stats/stats.h"

#include <stddef.h>

/* What the overview placed: its items and everything they point to. Opaque. */
typedef struct rli_timeline_overview rli_timeline_overview;

/*
 * Places the overview of a run into the rectangle `area` (page units) of a
 * page, in the sizes of `theme` (NULL: the default style's):
 *  - a heading line;
 *  - one band per role (sorted by name, coloured by the role's name as the
 *    timeline colours a series of that name): a panel whose y axis counts
 *    the role's ranks (0 .. the most ranks any of its steps had) and whose
 *    filled line is, per slice of the run, the most ranks inside the role
 *    at any moment of the slice (rli_stats_occupancy_buckets, one slice
 *    per unit of the band's width); the bands share one time axis, in
 *    ms from origin_ms (the figure's t = 0), in the unit rli_time_unit_for
 *    gives, labelled under the last band;
 *  - a table of the outlier ranks by name under the bands: per role and
 *    rank that was the slowest of a step and an outlier there (rli_stats'
 *    slowest list), in how many steps, and "straggler" when rli_stats names
 *    it so; as many as the area holds, the last line then "… N more". When
 *    no rank is an outlier, one line says so.
 * *items receives item_count items to draw in order, after the page's own;
 * they and what they point to live until rli_timeline_overview_free. Every
 * item lies inside area. RLI_EUSAGE when the area is too small to hold a
 * band (under 60 x 40 units); RLI_ERROR when out of memory.
 */
int rli_timeline_overview_place(rli_timeline_overview **out, const rli_item **items, size_t *item_count,
				const rli_stats *stats, double origin_ms, rli_rect area,
				const timeline_theme *theme);

/* The ranks the table names (outliers of at least one step), for the caller's own line; 0 when NULL. */
size_t rli_timeline_overview_outliers(const rli_timeline_overview *overview);

void rli_timeline_overview_free(rli_timeline_overview *overview);

#endif

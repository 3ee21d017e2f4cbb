/* report_timeline.h: the timeline across the report's pages: the same time axis on every page, legend repeated, "continued" marks. */
#ifndef RLI_REPORT_TIMELINE_H
#define RLI_REPORT_TIMELINE_H

#include "report_book.h"
#include "stats/stats.h"

/*
 * When the rows need more than a page and stats are given, first the
 * overview (timeline_overview.h: each role's occupancy as a band, the
 * outlier ranks by name) on a page of its own, bookmarked "Overview", then
 * the rows, bookmarked "Every rank". Sets the rows of a laid-out timeline
 * figure (every row) on as many pages as they need
 * at a pitch that keeps every label readable, each page with the figure's
 * whole time axis (its unit chosen for the span, origin named), the legend
 * when the colours need one, and marks where the rows go on or came from.
 * The pages point into the figure's rows and bars: it must outlive the book.
 */
int rli_report_timeline(rli_book *book, const rli_timeline *timeline, const rli_stats *stats);

#endif

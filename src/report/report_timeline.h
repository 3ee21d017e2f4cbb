/* report_timeline.h: the timeline across the report's pages: the same time axis on every page, legend repeated, "continued" marks. */
#ifndef RLI_REPORT_TIMELINE_H
#define RLI_REPORT_TIMELINE_H

#include "report_book.h"

/*
 * Sets the rows of a laid-out timeline figure on as many pages as they need
 * at a pitch that keeps every label readable, each page with the figure's
 * whole time axis (its unit chosen for the span, origin named), the legend
 * when the colours need one, and marks where the rows go on or came from.
 * The pages point into the figure's rows and bars: it must outlive the book.
 */
int rli_report_timeline(rli_book *book, const rli_timeline *timeline);

#endif

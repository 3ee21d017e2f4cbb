/* timeline_links.h: the timeline page's links to the run's other pages: its home page, each row's device memory pages. */
#ifndef RLI_LAYOUT_TIMELINE_LINKS_H
#define RLI_LAYOUT_TIMELINE_LINKS_H

#include "layout.h"

/*
 * With a run that has a home page or memory pages (options.run), one RLI_ITEM_NAV after the
 * page's items: up is the home page, and a link per memory page of a device whose (role, rank)
 * is a row of the figure, with that row (rli_nav.link_row) and the span of the run's time it
 * shows, so a reader goes from a row to its device's memory at the same time. Back-ends without
 * links skip it; the page is unchanged. Call after the page is assembled.
 */
int rli_timeline_add_links(rli_timeline *timeline, const rli_run_context *run);
void rli_timeline_links_free(struct rli_timeline_links *links);

#endif

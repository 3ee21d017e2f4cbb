/* timeline_links.c: the timeline page's links to the run's other pages: its home page, each row's device memory pages. */
#include "timeline_links.h"
#include "common/error.h"
#include "common/strutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct rli_timeline_links {
	rli_nav nav;
	rli_link *links;
	uint32_t *link_row;
	rli_item *items;  /* the page's items, then the nav */
};

void rli_timeline_links_free(struct rli_timeline_links *l)
{
	if (!l)
		return;
	for (size_t i = 0; l->links && i < l->nav.link_count; i++)
		free(l->links[i].label);
	free(l->links);
	free(l->link_row);
	free(l->items);
	free(l);
}

/* The figure's row of (role, rank), or UINT32_MAX. */
static uint32_t row_of(const rli_panel *panel, const char *role, int64_t rank)
{
	for (size_t r = 0; r < panel->row_count; r++)
		if (panel->rows[r].rank == rank && panel->rows[r].role && role && strcmp(panel->rows[r].role, role) == 0)
			return (uint32_t)r;
	return UINT32_MAX;
}

int rli_timeline_add_links(rli_timeline *timeline, const rli_run_context *run)
{
	struct rli_timeline_links *l;
	rli_page *page = &timeline->page;
	size_t count = 0;

	if (!run || (!run->home && !run->device_count))
		return RLI_OK;
	for (size_t d = 0; d < run->device_count; d++)
		for (size_t s = 0; s < run->devices[d].segment_count; s++)
			count += run->devices[d].segment_pages[s] != NULL;
	if (!(l = timeline->links = calloc(1, sizeof(*l))) ||
	    !(l->links = calloc(count ? count : 1, sizeof(*l->links))) ||
	    !(l->link_row = calloc(count ? count : 1, sizeof(*l->link_row))) ||
	    !(l->items = calloc(page->item_count + 1, sizeof(*l->items))))
		return rli_error_oom();
	for (size_t d = 0; d < run->device_count; d++) {
		const rli_run_device *device = &run->devices[d];
		uint32_t row = row_of(&timeline->panel, device->role, device->rank);
		for (size_t s = 0; s < device->segment_count; s++) {
			rli_link *link;
			if (!device->segment_pages[s])
				continue;
			link = &l->links[l->nav.link_count];
			if (!(link->label = rli_strfmt("%s, memory segment %zu of %zu", device->label ? device->label : "",
						       s + 1, device->segment_count)))
				return rli_error_oom();
			link->target = device->segment_pages[s];
			link->x_min = device->segment_min[s];
			link->x_max = device->segment_max[s];
			l->link_row[l->nav.link_count++] = row;
		}
	}
	l->nav.links = l->links;
	l->nav.link_row = l->link_row;
	l->nav.current = l->nav.previous = l->nav.next = SIZE_MAX;
	l->nav.up = run->home;
	l->nav.timeline = NULL;
	memcpy(l->items, page->items, page->item_count * sizeof(*page->items));
	l->items[page->item_count] = (rli_item){ .kind = RLI_ITEM_NAV, .u.nav = &l->nav };
	page->items = l->items;
	page->item_count++;
	return RLI_OK;
}

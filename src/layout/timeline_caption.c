/* timeline_caption.c: the run's headline finding as a caption under the timeline figure (--caption). */
#include "timeline_caption.h"
#include "text_place.h"
#include "common/error.h"
#include "stats/findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rli_timeline_add_caption(rli_timeline *timeline, const rli_stats *stats, const timeline_theme *theme)
{
	rli_page *page = &timeline->page;
	rli_findings findings = { 0 };
	double size = theme->tick_label_size, top = page->height;
	int error;

	if ((error = rli_findings_timeline(&findings, stats)) < 0 || !findings.count)
		goto done;
	if (!(timeline->captioned_items = calloc(page->item_count + 1, sizeof(*timeline->captioned_items)))) {
		error = rli_error_oom();
		goto done;
	}
	if ((error = rli_set_text(&timeline->caption, findings.lines[findings.headline], theme->page_pad, top, size, RLI_ALIGN_START,
				  RLI_ALIGN_START)) < 0)
		goto done;
	timeline->caption.max_width = page->width - 2 * theme->page_pad;
	memcpy(timeline->captioned_items, page->items, page->item_count * sizeof(*page->items));
	timeline->captioned_items[page->item_count] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &timeline->caption };
	page->items = timeline->captioned_items;
	page->item_count++;
	page->height = top + size * 1.4 + theme->page_pad;
	/* A raster page this tall may no longer fit at the scale it had: thousandths down until it does. */
	if (timeline->document.raster_scale > 0 && page->height * timeline->document.raster_scale > MAX_DEVICE_PIXELS)
		timeline->document.raster_scale = floor(MAX_DEVICE_PIXELS / page->height * 1000.0) / 1000.0;
done:
	rli_findings_free(&findings);
	return error;
}

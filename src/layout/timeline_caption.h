/* timeline_caption.h: the run's headline finding as a caption under the timeline figure (--caption). */
#ifndef RLI_LAYOUT_TIMELINE_CAPTION_H
#define RLI_LAYOUT_TIMELINE_CAPTION_H

#include "layout.h"
#include "theme.h"
#include "stats/stats.h"

/*
 * Puts the headline of rli_findings_timeline (a straggler first) under everything on the
 * figure's page: the page grows by a line of the theme's tick-label size
 * (ellipsized to the width), and a raster's scale comes down if that line
 * would take the page past the raster limit. No finding: no caption.
 * Call after the page is assembled and before items are appended beside it.
 */
int rli_timeline_add_caption(rli_timeline *timeline, const rli_stats *stats, const timeline_theme *theme);

#endif

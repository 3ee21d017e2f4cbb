/* timeline_place.h: where the timeline figure's parts go on its page, in a style's geometry. */
#ifndef RLI_LAYOUT_TIMELINE_PLACE_H
#define RLI_LAYOUT_TIMELINE_PLACE_H

#include "layout.h"
#include "theme.h"
#include "text/text.h"

#include <stddef.h>

/*
 * Places the title, the panel's rows, axes and labels, and the legend of a
 * timeline whose rows, series and bars are built, on a page `width` units wide
 * drawn at `scale` device pixels a unit in a raster. legend_shown 0: the
 * legend is left out (its entries empty) and takes no room.
 */
int rli_timeline_place(rli_timeline *timeline, const timeline_theme *theme, double width, double scale,
		       rli_medium medium, int legend_shown);

/*
 * The page and the document's drawing settings for a page `height` units
 * tall, brought within what the medium allows (rli_fit_medium); returns the
 * height it got.
 */
double rli_timeline_set_page(rli_timeline *timeline, const timeline_theme *theme, double width, double height,
			     double scale, rli_medium medium);

/* The figure's title, centred in the style's top margin; an epoch origin is told as UTC. */
int rli_timeline_place_title(rli_timeline *timeline, PangoContext *text, const timeline_theme *theme, double width);

/*
 * How many rows a page of this style and medium shows readably: each row at
 * least as tall as its label (the row label's line height: 16 units in the
 * default style, 8.5 pt in the paper ones) within the tallest page allowed
 * (32,767 device pixels for a raster, 14,400 units for a vector page, and a
 * 9 in page for the paper styles), less the margins.
 */
int rli_timeline_readable_rows(size_t *out, const timeline_theme *theme, double width, double scale,
			       rli_medium medium);

/*
 * The least height rli_timeline_place can give the timeline's rows: its page with no legend
 * under them (a legend there only adds to it). Known before any bar is built.
 */
int rli_timeline_least_height(double *out, const rli_timeline *timeline, const timeline_theme *theme);

#endif

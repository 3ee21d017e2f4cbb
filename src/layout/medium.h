/* medium.h: what a medium allows a page: a raster stops at 32767 device pixels a side, a vector page does not. */
#ifndef RLI_LAYOUT_MEDIUM_H
#define RLI_LAYOUT_MEDIUM_H

#include "rl_insight.h"

/*
 * For a page `width` units wide that would be *height tall at `scale`:
 * *raster_scale becomes the largest scale, at most `scale` and in
 * thousandths, that keeps the width within the raster limit. A raster medium
 * then caps *height to what that scale allows (the figure sets its rows
 * closer); on a vector medium the height stays, and *raster_scale is 0 when
 * no raster could hold the page.
 */
void rli_fit_medium(double *height, double *raster_scale, double width, double scale, rli_medium medium);

/* 1 when a vector page `width` by `height` units can be drawn as a raster at some scale up to `scale`. */
int rli_medium_raster_fits(double width, double height, double scale);

#endif

/* colormap.h: the perceptually uniform colour maps a heatmap may use (viridis, magma, inferno, plasma, cividis), value to colour. */
#ifndef RLI_LAYOUT_COLORMAP_H
#define RLI_LAYOUT_COLORMAP_H

#include "layout.h"

typedef enum { RLI_CMAP_VIRIDIS = 0, RLI_CMAP_MAGMA, RLI_CMAP_INFERNO, RLI_CMAP_PLASMA, RLI_CMAP_CIVIDIS } rli_colormap;

/* "viridis", ... (any case); RLI_EUSAGE naming the maps for another name. */
int rli_colormap_from_name(rli_colormap *out, const char *name);
const char *rli_colormap_name(rli_colormap map);
/* The map's colour at t in [0, 1] (clamped), as one of 256 steps, as matplotlib indexes its tables. */
rli_color rli_colormap_color(rli_colormap map, double t);

#endif

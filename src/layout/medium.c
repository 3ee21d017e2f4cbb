/* medium.c: what a medium allows a page: a raster stops at 32767 device pixels a side, a vector page does not. */
#include "medium.h"
#include "theme.h"

#include <math.h>

/* The largest scale, at most `scale` and in thousandths, that keeps `size` within the limit; 0: none >= 1. */
static double fit_scale(double size, double scale)
{
	double fit = floor((double)MAX_DEVICE_PIXELS * 1000.0 / size) / 1000.0;
	if (fit >= scale)
		return scale;
	return fit >= 1.0 ? fit : 0.0;
}

void rli_fit_medium(double *height, double *raster_scale, double width, double scale, rli_medium medium)
{
	*raster_scale = fit_scale(width, scale);
	if (medium == RLI_MEDIUM_RASTER && *height * *raster_scale > MAX_DEVICE_PIXELS)
		*height = floor((double)MAX_DEVICE_PIXELS / *raster_scale);
	if (*height * *raster_scale > MAX_DEVICE_PIXELS)
		*raster_scale = 0.0;
}

int rli_medium_raster_fits(double width, double height, double scale)
{
	double raster_scale;
	rli_fit_medium(&height, &raster_scale, width, scale, RLI_MEDIUM_VECTOR);
	return raster_scale > 0.0;
}

/* png_backend.c: the PNG back-end, the cairo painter on an image surface. */
#include "backend.h"
#include "cairo_paint.h"
#include "common/error.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>

typedef struct {
	rli_output base;
	cairo_surface_t *surface;
} png_output;

static int png_begin(rli_output *out, const rli_timeline *timeline)
{
	png_output *png = (png_output *)out;
	double width = timeline->width * timeline->scale, height = timeline->height * timeline->scale;

	/* The layout keeps pages within cairo's limit; a hand-made model may not. */
	if (width < 1 || height < 1 || width > 32767 || height > 32767)
		return rli_error_set(RLI_EUSAGE, "a %.0f x %.0f pixel image is outside 1..32767 a side",
				     width, height);
	png->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(width), (int)ceil(height));
	if (cairo_surface_status(png->surface) != CAIRO_STATUS_SUCCESS)
		return rli_error_set(RLI_ERROR, "cannot allocate a %.0f x %.0f image: %s", width, height,
				     cairo_status_to_string(cairo_surface_status(png->surface)));
	return RLI_OK;
}

static int png_draw_timeline(rli_output *out, const rli_timeline *timeline)
{
	png_output *png = (png_output *)out;
	rli_paint_options options = {
		.scale = timeline->scale,
		.lod_columns_per_unit = timeline->scale,
	};
	cairo_t *cr = cairo_create(png->surface);
	int error = rli_cairo_paint(cr, timeline, &options);
	cairo_destroy(cr);
	return error;
}

static cairo_status_t write_to_file(void *closure, const unsigned char *data, unsigned int length)
{
	FILE *fp = closure;
	return fwrite(data, 1, length, fp) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int png_finish(rli_output *out)
{
	png_output *png = (png_output *)out;
	cairo_status_t status;

	cairo_surface_flush(png->surface);
	status = cairo_surface_write_to_png_stream(png->surface, write_to_file, out->file.fp);
	if (status == CAIRO_STATUS_WRITE_ERROR)
		return rli_error_set(RLI_EOUTPUT, "cannot write %s", out->file.path ? out->file.path : "the PNG");
	if (status != CAIRO_STATUS_SUCCESS)
		return rli_error_set(RLI_ERROR, "encoding the PNG failed: %s", cairo_status_to_string(status));
	return RLI_OK;
}

static void png_destroy(rli_output *out)
{
	png_output *png = (png_output *)out;
	if (png->surface)
		cairo_surface_destroy(png->surface);
	png->surface = NULL;
}

const rli_backend rli_png_backend = {
	.name = "png",
	.file_name = "rl_timeline.png",
	.output_size = sizeof(png_output),
	.begin = png_begin,
	.draw_timeline = png_draw_timeline,
	.finish = png_finish,
	.destroy = png_destroy,
};

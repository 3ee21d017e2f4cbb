/* png_backend.c: the PNG back-end: each page through the cairo painter onto an image, encoded with libpng. */
#include "backend.h"
#include "cairo_paint.h"
#include "common/bigmem.h"
#include "common/error.h"

#include <cairo.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	rli_output base;
	double scale;
	cairo_surface_t *surface;    /* the page being drawn, on pixels */
	unsigned char *pixels;       /* from rli_bigmem_resize, kept from page to page */
	size_t pixels_size;
	cairo_t *cr;
	rli_cairo_painter *painter;
} png_output;

static int png_begin_document(rli_output *out, const rli_document *document)
{
	png_output *png = (png_output *)out;

	png->scale = document->raster_scale;
	if (!(png->scale > 0))
		return rli_error_set(RLI_EUSAGE, "a page too tall for a raster cannot be a PNG: lay it out "
				     "for a raster medium");
	return RLI_OK;
}

static void release_page(png_output *png)
{
	rli_cairo_painter_free(png->painter);
	png->painter = NULL;
	if (png->cr)
		cairo_destroy(png->cr);
	png->cr = NULL;
	if (png->surface)
		cairo_surface_destroy(png->surface);
	png->surface = NULL;
}

static int png_begin_page(rli_output *out, const rli_page *page)
{
	png_output *png = (png_output *)out;
	double width = ceil(page->width * png->scale), height = ceil(page->height * png->scale);
	rli_paint_options options = {
		.scale = png->scale,
		.lod_columns_per_unit = png->scale,
	};
	int error, stride;

	/* The layout keeps pages within cairo's limit; a hand-made model may not. */
	if (width < 1 || height < 1 || width > 32767 || height > 32767)
		return rli_error_set(RLI_EUSAGE, "a %.0f x %.0f pixel image is outside 1..32767 a side",
				     width, height);
	/*
	 * The pixels in 2 MiB pages, reused by the next page: a 4000 x 2300 page is 37 MB that a
	 * fresh surface would fault in 4 KiB at a time, page after page (16 devices: 16 times).
	 * The background is painted opaque over all of it, so what a page held before never shows.
	 */
	stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, (int)width);
	if (stride < 0)
		return rli_error_set(RLI_EUSAGE, "a %.0f pixel wide image has no stride", width);
	if ((size_t)stride * (size_t)height > png->pixels_size) {
		unsigned char *grown = rli_bigmem_resize(png->pixels, (size_t)stride * (size_t)height);
		if (!grown)
			return rli_error_oom();
		png->pixels = grown;
		png->pixels_size = (size_t)stride * (size_t)height;
	}
	png->surface = cairo_image_surface_create_for_data(png->pixels, CAIRO_FORMAT_RGB24, (int)width, (int)height,
							   stride);
	if (cairo_surface_status(png->surface) != CAIRO_STATUS_SUCCESS)
		return rli_cairo_error(cairo_surface_status(png->surface), "cannot make the PNG's image");
	png->cr = cairo_create(png->surface);
	if ((error = rli_cairo_painter_new(&png->painter, png->cr, out->document, &options)) < 0)
		return error;
	return rli_cairo_draw_background(png->painter);
}

static int png_draw_item(rli_output *out, const rli_item *item)
{
	return rli_cairo_draw_item(((png_output *)out)->painter, item);
}

static void write_bytes(png_structp writer, png_bytep data, png_size_t length)
{
	FILE *fp = png_get_io_ptr(writer);
	if (fwrite(data, 1, length, fp) != length)
		png_error(writer, "write failed");
}

static void flush_bytes(png_structp writer)
{
	fflush(png_get_io_ptr(writer));
}

/*
 * Encodes the RGB24 surface. cairo's own writer always uses zlib's default
 * level, which made encoding most of the time of a large chart; charts are
 * flat colour, so the fastest level with the Sub filter costs little in size.
 * The physical size says 96 CSS px per inch, so a scale-2 image prints at the
 * page size the chart was laid out for.
 */
static int encode_png(FILE *fp, cairo_surface_t *surface, double scale)
{
	int width = cairo_image_surface_get_width(surface);
	int height = cairo_image_surface_get_height(surface);
	int stride = cairo_image_surface_get_stride(surface);
	const unsigned char *pixels = cairo_image_surface_get_data(surface);
	png_structp writer = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = writer ? png_create_info_struct(writer) : NULL;
	unsigned char *volatile row = NULL;
	volatile int error = RLI_OK;

	if (!writer || !info) {
		error = rli_error_oom();
		goto done;
	}
	if (!(row = malloc((size_t)width * 3))) {
		error = rli_error_oom();
		goto done;
	}
	if (setjmp(png_jmpbuf(writer))) {
		error = rli_error_set(RLI_EOUTPUT, "cannot write the PNG: %s",
				      ferror(fp) ? "write failed" : "encoder error");
		goto done;
	}
	png_set_write_fn(writer, fp, write_bytes, flush_bytes);
	png_set_IHDR(writer, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_pHYs(writer, info, (png_uint_32)lround(96.0 * scale / 0.0254),
		     (png_uint_32)lround(96.0 * scale / 0.0254), PNG_RESOLUTION_METER);
	png_set_compression_level(writer, 1);
	png_set_filter(writer, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
	png_write_info(writer, info);
	for (int y = 0; y < height; y++) {
		const uint32_t *src = (const uint32_t *)(pixels + (size_t)y * (size_t)stride);
		for (int x = 0; x < width; x++) {
			row[3 * x] = (unsigned char)(src[x] >> 16);
			row[3 * x + 1] = (unsigned char)(src[x] >> 8);
			row[3 * x + 2] = (unsigned char)src[x];
		}
		png_write_row(writer, row);
	}
	png_write_end(writer, info);
done:
	png_destroy_write_struct(writer ? &writer : NULL, info ? &info : NULL);
	free(row);
	return error;
}

/* Each page is its own file: encoded as soon as it is drawn. */
static int png_end_page(rli_output *out)
{
	png_output *png = (png_output *)out;
	int error;

	cairo_surface_flush(png->surface);
	error = encode_png(out->file.fp, png->surface, png->scale);
	release_page(png);
	return error;
}

static int png_finish(rli_output *out)
{
	return RLI_OK;
}

static void png_destroy(rli_output *out)
{
	png_output *png = (png_output *)out;
	release_page(png);
	rli_bigmem_free(png->pixels);
	png->pixels = NULL;
}

const rli_backend rli_png_backend = {
	.name = "png",
	.extension = ".png",
	.file_per_page = 1,
	.output_size = sizeof(png_output),
	.begin_document = png_begin_document,
	.begin_page = png_begin_page,
	.draw_item = png_draw_item,
	.end_page = png_end_page,
	.finish = png_finish,
	.destroy = png_destroy,
};

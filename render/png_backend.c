/* png_backend.c: the PNG back-end: each page through the cairo painter onto an image, encoded with libpng. */
#include "backend.h"
#include "cairo_paint.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/grow.h"
#include "png_deflate.h"

#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * How many bytes of image a band may hold. A page is drawn and encoded in horizontal bands of at
 * most this much, so memory does not grow with the picture's height: a 4000 x 32766 picture would
 * otherwise be 500 MB of pixels. Every item is drawn again on each band, but a panel's lines only
 * on the bands their plot reaches (cairo_paint.c), so a 4000 x 3389 memory figure costs as much in
 * four bands as in two, and two threads' bands (14 MB each) stay within a 32 MB cache where 32 MiB
 * bands did not: the sparsest memory bench (128 such figures) peaked 30-40 MB lower, no slower.
 */
#define PNG_BAND_BYTES (16u << 20)
#define PNG_BAND_MIN_ROWS 16

/* Where libpng writes, and what went wrong: its words are kept for our message, never printed. */
typedef struct {
	FILE *fp;
	int write_errno;     /* errno of the failed write, 0 while all is well */
	char reason[128];    /* libpng's own account of an encoder failure */
} png_sink;

typedef struct {
	rli_output base;
	double scale;
	double units_per_inch;       /* the document's: 96 CSS px, or 72 points for a paper figure */
	const rli_page *page;        /* the page being drawn */
	int width, height;           /* its size in pixels */
	const rli_item **items;      /* its items, drawn band by band at end_page */
	size_t item_count, item_capacity;
	cairo_surface_t *surface;    /* the band being drawn, on pixels */
	unsigned char *pixels;       /* from rli_bigmem_resize, kept from band to band and page to page */
	size_t pixels_size;
	cairo_t *cr;
	rli_cairo_painter *painter;
	png_sink sink;               /* in the heap: encode_png reads it after a longjmp */
} png_output;

static int png_begin_document(rli_output *out, const rli_document *document)
{
	png_output *png = (png_output *)out;

	png->scale = document->raster_scale;
	png->units_per_inch = document->units_per_inch > 0 ? document->units_per_inch : 96.0;
	if (!(png->scale > 0))
		return rli_error_set(RLI_EUSAGE, "a page too tall for a raster cannot be a PNG: lay it out "
				     "for a raster medium");
	return RLI_OK;
}

static void release_band(png_output *png)
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

	/* The layout keeps pages within cairo's limit; a hand-made model may not. */
	if (width < 1 || height < 1 || width > 32767 || height > 32767)
		return rli_error_set(RLI_EUSAGE, "a %.0f x %.0f pixel image is outside 1..32767 a side",
				     width, height);
	png->page = page;
	png->width = (int)width;
	png->height = (int)height;
	png->item_count = 0;
	return RLI_OK;
}

/* Items are kept until end_page, which draws them once for every band. */
static int png_draw_item(rli_output *out, const rli_item *item)
{
	png_output *png = (png_output *)out;
	if (RLI_GROW(&png->items, &png->item_capacity, png->item_count + 1, 16) < 0)
		return RLI_ERROR;
	png->items[png->item_count++] = item;
	return RLI_OK;
}

/* Draws the page's rows [top, top + rows) onto a band of its own: the page shifted up by top pixels. */
static int paint_band(png_output *png, int top, int rows)
{
	rli_paint_options options = {
		.scale = png->scale,
		.lod_columns_per_unit = png->scale,
	};
	int error, stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, png->width);

	/*
	 * The pixels in 2 MiB pages, reused by the next band and the next page: a fresh 37 MB
	 * surface would fault in 4 KiB at a time, page after page (16 devices: 16 times). The
	 * background is painted opaque over all of it, so what a band held before never shows.
	 */
	if (stride < 0)
		return rli_error_set(RLI_EUSAGE, "a %d pixel wide image has no stride", png->width);
	if ((size_t)stride * (size_t)rows > png->pixels_size) {
		unsigned char *grown = rli_bigmem_resize(png->pixels, (size_t)stride * (size_t)rows);
		if (!grown)
			return rli_error_oom();
		png->pixels = grown;
		png->pixels_size = (size_t)stride * (size_t)rows;
	}
	png->surface = cairo_image_surface_create_for_data(png->pixels, CAIRO_FORMAT_RGB24, png->width, rows, stride);
	if (cairo_surface_status(png->surface) != CAIRO_STATUS_SUCCESS)
		return rli_cairo_error(cairo_surface_status(png->surface), "cannot make the PNG's image");
	png->cr = cairo_create(png->surface);
	cairo_translate(png->cr, 0, -(double)top);
	if ((error = rli_cairo_painter_new(&png->painter, png->cr, png->base.document, &options)) < 0)
		return error;
	if ((error = rli_cairo_draw_background(png->painter)) < 0)
		return error;
	for (size_t i = 0; i < png->item_count && error == RLI_OK; i++)
		error = rli_cairo_draw_item(png->painter, png->items[i]);
	cairo_surface_flush(png->surface);
	return error;
}


static void write_bytes(png_structp writer, png_bytep data, png_size_t length)
{
	png_sink *sink = png_get_io_ptr(writer);
	if (fwrite(data, 1, length, sink->fp) != length) {
		sink->write_errno = errno ? errno : EIO;
		png_error(writer, "write failed");
	}
}

static void flush_bytes(png_structp writer)
{
	png_sink *sink = png_get_io_ptr(writer);
	fflush(sink->fp);
}

/* libpng prints to stderr unless told otherwise; we keep the text and jump back to encode_png. */
static void on_png_error(png_structp writer, png_const_charp message)
{
	png_sink *sink = png_get_error_ptr(writer);
	snprintf(sink->reason, sizeof(sink->reason), "%s", message);
	png_longjmp(writer, 1);
}

static void on_png_warning(png_structp writer, png_const_charp message)
{
	(void)writer;
	(void)message;
}

/* Our deflate stream's pieces, each an IDAT chunk framed by libpng (a write failure jumps back to encode_png). */
static int write_idat(void *context, const unsigned char *bytes, size_t length)
{
	png_structp writer = context;
	png_write_chunk(writer, (png_const_bytep) "IDAT", bytes, length);
	return 0;
}

/*
 * Converts a band row of cairo's RGB24 (0x00RRGGBB words) into PNG's RGB
 * bytes. Four pixels at a time make three words: a pixel byte-swapped and
 * shifted is its R, G, B in memory order, and its neighbours' bytes fill the
 * rest (a byte at a time took as long as the compression).
 */
static void pack_rgb(unsigned char *rgb, const uint32_t *pixels, int width)
{
	int x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; x + 4 <= width; x += 4) {
		uint32_t p0 = __builtin_bswap32(pixels[x]) >> 8, p1 = __builtin_bswap32(pixels[x + 1]) >> 8;
		uint32_t p2 = __builtin_bswap32(pixels[x + 2]) >> 8, p3 = __builtin_bswap32(pixels[x + 3]) >> 8;
		/* Stored from registers: a word array read back eight bytes at a time stalls store forwarding. */
		uint64_t first = (uint64_t)(p0 | p1 << 24) | (uint64_t)(p1 >> 8 | p2 << 16) << 32;
		uint32_t last = p2 >> 16 | p3 << 8;
		memcpy(rgb + 3 * x, &first, sizeof(first));
		memcpy(rgb + 3 * x + 8, &last, sizeof(last));
	}
#endif
	for (; x < width; x++) {
		rgb[3 * x] = (unsigned char)(pixels[x] >> 16);
		rgb[3 * x + 1] = (unsigned char)(pixels[x] >> 8);
		rgb[3 * x + 2] = (unsigned char)pixels[x];
	}
}

/*
 * Encodes the RGB24 surface band by band. libpng writes the header and frames
 * the chunks; the image data is our own deflate stream (png_deflate.c), which
 * looks for a chart's repeats where they are instead of everywhere, as zlib
 * does: a quarter of the time of zlib's fastest level, and no more bytes.
 * The physical size says 96 CSS px per inch (72 points for a paper figure),
 * so a scale-2 image prints at the page size the chart was laid out for, and
 * a paper figure at its column width and 300 dpi.
 */
static int encode_png(png_output *png, const rli_atomic_file *file)
{
	png_sink *sink = &png->sink;
	int width = png->width, height = png->height;
	int band_rows = (int)(PNG_BAND_BYTES / ((size_t)width * 4u));
	double scale = png->scale;
	png_structp writer = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, on_png_error, on_png_warning);
	png_infop info = writer ? png_create_info_struct(writer) : NULL;
	rli_png_deflate *volatile stream = NULL;
	volatile int error = RLI_OK;

	sink->fp = file->fp;
	sink->write_errno = 0;
	sink->reason[0] = '\0';
	if (!writer || !info) {
		error = rli_error_oom();
		goto done;
	}
	if (setjmp(png_jmpbuf(writer))) {
		if (sink->write_errno)
			error = rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", file->path, strerror(sink->write_errno));
		else
			error = rli_error_set(RLI_EOUTPUT, "cannot encode %s as PNG: %s", file->path, sink->reason);
		goto done;
	}
	png_set_write_fn(writer, sink, write_bytes, flush_bytes);
	png_set_IHDR(writer, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_pHYs(writer, info, (png_uint_32)lround(png->units_per_inch * scale / 0.0254),
		     (png_uint_32)lround(png->units_per_inch * scale / 0.0254), PNG_RESOLUTION_METER);
	png_write_info(writer, info);
	{
		rli_png_deflate *made;
		if ((error = rli_png_deflate_new(&made, (size_t)width * 3, write_idat, writer)) < 0)
			goto done;
		stream = made;
	}
	if (band_rows < PNG_BAND_MIN_ROWS)
		band_rows = PNG_BAND_MIN_ROWS;
	/*
	 * As many bands as the cap asks for, all of a height: a 3389-row figure is two bands of 1695
	 * rows (27 MB of pixels) rather than 2097 and 1292 (33.5 MB), for the same drawing.
	 */
	{
		int bands = (height + band_rows - 1) / band_rows;
		band_rows = (height + bands - 1) / bands;
	}
	for (int top = 0; top < height; top += band_rows) {
		int rows = height - top < band_rows ? height - top : band_rows;
		const unsigned char *pixels;
		int stride;

		if ((error = paint_band(png, top, rows)) < 0)
			goto done;
		pixels = cairo_image_surface_get_data(png->surface);
		stride = cairo_image_surface_get_stride(png->surface);
		for (int y = 0; y < rows; y++) {
			const unsigned char *row = pixels + (size_t)y * (size_t)stride;
			/*
			 * A row the same as the one above in the band (a chart's lanes and gaps are mostly
			 * such rows) is not packed again: comparing cairo's pixels costs less than packing
			 * them, and the stream compresses it as it would have.
			 */
			if (y > 0 && memcmp(row, row - stride, (size_t)width * 4) == 0) {
				rli_png_deflate_repeat(stream);
				continue;
			}
			pack_rgb(rli_png_deflate_row(stream), (const uint32_t *)(const void *)row, width);
			rli_png_deflate_commit(stream);
		}
		release_band(png);
	}
	rli_png_deflate_finish(stream);
	png_write_chunk(writer, (png_const_bytep) "IEND", NULL, 0);
done:
	release_band(png);
	rli_png_deflate_free(stream);
	png_destroy_write_struct(writer ? &writer : NULL, info ? &info : NULL);
	return error;
}

/* Each page is its own file: drawn band by band and encoded as the bands come. */
static int png_end_page(rli_output *out)
{
	png_output *png = (png_output *)out;
	return encode_png(png, &out->file);
}

static int png_finish(rli_output *out)
{
	return RLI_OK;
}

static void png_destroy(rli_output *out)
{
	png_output *png = (png_output *)out;
	release_band(png);
	free(png->items);
	png->items = NULL;
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

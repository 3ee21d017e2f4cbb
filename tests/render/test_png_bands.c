/* test_png_bands.c: a PNG taller than one band is drawn band by band, pixel for pixel as one whole image would be. */
#include "harness.h"
#include "render_cases.h"
#include "cairo_paint.h"

#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The page painted whole onto one image, as the PNG back-end did before it drew in bands. */
static cairo_surface_t *paint_whole(const rli_document *document)
{
	const rli_page *page = &document->pages[0];
	double scale = document->raster_scale;
	rli_paint_options options = { .scale = scale, .lod_columns_per_unit = scale };
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(page->width * scale),
							      (int)ceil(page->height * scale));
	cairo_t *cr = cairo_create(surface);
	CHECK_INT(rli_cairo_paint_page(cr, document, page, &options), RLI_OK);
	cairo_destroy(cr);
	cairo_surface_flush(surface);
	return surface;
}

/* Rows (of `height`) where the written PNG and the whole image differ in any pixel. */
static int differing_rows(const png_image *png, const png_byte *written, cairo_surface_t *whole)
{
	const unsigned char *pixels = cairo_image_surface_get_data(whole);
	int stride = cairo_image_surface_get_stride(whole), rows = 0;
	for (png_uint_32 y = 0; y < png->height; y++) {
		const uint32_t *src = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
		const png_byte *got = written + (size_t)y * png->width * 3;
		for (png_uint_32 x = 0; x < png->width; x++) {
			if (got[3 * x] != (png_byte)(src[x] >> 16) || got[3 * x + 1] != (png_byte)(src[x] >> 8) ||
			    got[3 * x + 2] != (png_byte)src[x]) {
				if (rows++ < 5)
					fprintf(stderr, "  row %u differs first at x %u\n", (unsigned)y, (unsigned)x);
				break;
			}
		}
	}
	return rows;
}

static void check_case(const char *name, rli_events *events, int width, const char *dir)
{
	rli_timeline_options options;
	rli_timeline *t = NULL;
	png_image png;
	png_bytep written = NULL;
	char path[4096];

	rli_timeline_options_init(&options);
	options.width = width;
	CHECK_INT(rli_timeline_layout(&t, events, &options), RLI_OK);
	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	CHECK_INT(case_render(t, "png", path), RLI_OK);
	if (case_read_png(&png, &written, path) == 0) {
		cairo_surface_t *whole = paint_whole(rli_timeline_document(t));
		int rows = differing_rows(&png, written, whole);
		/* more than one band: 32 MiB of RGB24 at this width */
		CHECK(png.height > (32u << 20) / (png.width * 4u));
		if (rows) {
			fprintf(stderr, "%s: %d of %u rows differ from the whole image\n", name, rows, (unsigned)png.height);
			rli_test_failures++;
		}
		cairo_surface_destroy(whole);
		free(written);
	} else {
		fprintf(stderr, "%s: cannot read %s\n", name, path);
		rli_test_failures++;
	}
	rli_timeline_free(t);
	rli_events_free(events);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	mkdir(dir, 0777); /* made here: ctest starts from a clean build tree */
	/* 400 rows, 32,767 pixels tall: about a dozen bands; rows of sub-pixel bars across band edges. */
	check_case("bands_tall", case_short_bar(400, 16000.0), 2000, dir);
	check_case("bands_ranks", case_many_ranks(), 4000, dir);
	check_case("bands_subpixel", case_subpixel(), 20000, dir);
	TEST_DONE();
}

/* test_widths.c: every width from 300 to 20,000 gives a PNG and a PDF of the same bars (the PDF through pdftoppm). */
#include "harness.h"
#include "render_cases.h"
#include "common/atomic_file.h"
#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const int widths[] = { 300, 400, 600, 700, 2000, 10000, 20000 };

/* The PDF's page size from pdfinfo, in points. */
static int pdf_page_size(double *w, double *h, const char *pdf)
{
	char command[4200], line[256];
	FILE *pipe;
	int found = 0;

	snprintf(command, sizeof(command), "pdfinfo '%s'", pdf);
	if (!(pipe = popen(command, "r")))
		return -1;
	while (fgets(line, sizeof(line), pipe))
		if (sscanf(line, "Page size: %lf x %lf", w, h) == 2)
			found = 1;
	pclose(pipe);
	return found ? 0 : -1;
}

static void check_width(const char *name, const rli_events *events, int width, const char *dir)
{
	rli_timeline_options options;
	rli_timeline *t = NULL;
	char png_path[4096], pdf_path[4096], raster_base[4096], raster_path[4200], command[9000], what[256];
	png_image png, raster;
	png_bytep a = NULL, b = NULL;
	double page_w, page_h;

	snprintf(what, sizeof(what), "%s at width %d", name, width);
	rli_timeline_options_init(&options);
	options.width = width;
	/* Scale 1 keeps a 20,000-px page quick to rasterise; the vector layout serves both outputs. */
	options.scale = 1;
	options.medium = RLI_MEDIUM_VECTOR;
	CHECK_INT(rli_timeline_layout(&t, events, &options), RLI_OK);
	if (!t) {
		fprintf(stderr, "%s: %s\n", what, rli_error_last());
		return;
	}
	CHECK(t->document.raster_scale == 1.0);
	snprintf(png_path, sizeof(png_path), "%s/%s-%d.png", dir, name, width);
	snprintf(pdf_path, sizeof(pdf_path), "%s/%s-%d.pdf", dir, name, width);
	snprintf(raster_base, sizeof(raster_base), "%s/%s-%d.pdf-raster", dir, name, width);
	snprintf(raster_path, sizeof(raster_path), "%s.png", raster_base);
	CHECK_INT(case_render(t, "png", png_path), RLI_OK);
	CHECK_INT(case_render(t, "pdf", pdf_path), RLI_OK);

	/* Every page within the readers' 14,400-point limit, in the model's proportions. */
	if (pdf_page_size(&page_w, &page_h, pdf_path) == 0) {
		CHECK(page_w <= 14400.5 && page_h <= 14400.5);
		CHECK_NEAR(page_w / page_h, t->page.width / t->page.height, 1e-3);
	} else {
		fprintf(stderr, "%s: pdfinfo cannot read %s\n", what, pdf_path);
		rli_test_failures++;
	}

	if (case_read_png(&png, &a, png_path) < 0) {
		fprintf(stderr, "%s: cannot read %s\n", what, png_path);
		rli_test_failures++;
		goto done;
	}
	CHECK_INT((int)png.width, (int)ceil(t->page.width));
	snprintf(command, sizeof(command), "pdftoppm -png -singlefile -scale-to-x %u -scale-to-y %u '%s' '%s'",
		 png.width, png.height, pdf_path, raster_base);
	if (system(command) != 0 || case_read_png(&raster, &b, raster_path) < 0) {
		fprintf(stderr, "%s: pdftoppm could not rasterise %s\n", what, pdf_path);
		rli_test_failures++;
		goto done;
	}
	if (raster.width != png.width || raster.height != png.height) {
		fprintf(stderr, "%s: PDF rasterised to %ux%u, PNG is %ux%u\n", what, raster.width, raster.height,
			png.width, png.height);
		rli_test_failures++;
		goto done;
	}
	if (case_compare_lanes(what, &t->panel, t->document.raster_scale, &png, a, b))
		rli_test_failures++;
	remove(png_path);
	remove(pdf_path);
	remove(raster_path);
done:
	free(a);
	free(b);
	rli_timeline_free(t);
}

/* Loads an input by name: a shared sample folder, or the 1 ms bar in a long run. */
static int load(rli_events **out, const char *name, const char *samples)
{
	char path[4096];
	rli_parse_options options = { 0 };

	if (strcmp(name, "short_bar") == 0) {
		*out = case_short_bar(3, 16000.0);
		return RLI_OK;
	}
	if (strcmp(name, "short_bar_tall") == 0) {
		*out = case_short_bar(400, 16000.0); /* 20,200 units tall: the PDF page scales down */
		return RLI_OK;
	}
	snprintf(path, sizeof(path), "%s/%s", samples, name);
	return rli_parse(out, NULL, path, &options);
}

int main(int argc, char **argv)
{
	rli_events *events = NULL;
	struct stat st;

	if (argc != 4) {
		fprintf(stderr, "usage: %s INPUT SAMPLES_DIR WORK_DIR\n", argv[0]);
		return 2;
	}
	if (system("command -v pdftoppm >/dev/null 2>&1 && command -v pdfinfo >/dev/null 2>&1") != 0) {
		fprintf(stderr, "skipped: pdftoppm and pdfinfo (poppler-utils) are needed\n");
		return RLI_TEST_SKIP;
	}
	if (strncmp(argv[1], "short_bar", 9) != 0) {
		char probe_path[4096];
		snprintf(probe_path, sizeof(probe_path), "%s/%s", argv[2], argv[1]);
		if (stat(probe_path, &st) != 0) {
			fprintf(stderr, "skipped: %s is absent (the shared samples live beside the project)\n",
				probe_path);
			return RLI_TEST_SKIP;
		}
	}
	if (rli_mkdir_p(argv[3]) < 0 || load(&events, argv[1], argv[2]) < 0) {
		fprintf(stderr, "%s\n", rli_error_last());
		return 1;
	}
	/* The tall case is about the page height: its widest pages would only cost time. */
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (strcmp(argv[1], "short_bar_tall") != 0 || widths[i] <= 2000)
			check_width(argv[1], events, widths[i], argv[3]);
	rli_events_free(events);
	TEST_DONE();
}

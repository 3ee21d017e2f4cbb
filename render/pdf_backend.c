/* pdf_backend.c: the PDF back-end, the cairo painter on one vector page, scaled to fit 14,400 points. */
#include "backend.h"
#include "cairo_paint.h"
#include "common/error.h"

#include <cairo-pdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Sub-pixel bars merge on a grid finer than print: 4 columns per point is 288 per inch. */
#define PDF_LOD_COLUMNS_PER_POINT 4.0
/* Acrobat and most readers refuse a page side longer than 200 inches. */
#define PDF_MAX_PAGE_POINTS 14400.0

typedef struct {
	rli_output base;
	cairo_surface_t *surface;
	double scale; /* points per page unit: 1, or less for a page past the limit */
} pdf_output;

static cairo_status_t write_to_file(void *closure, const unsigned char *data, unsigned int length)
{
	FILE *fp = closure;
	return fwrite(data, 1, length, fp) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/*
 * The document's dates: SOURCE_DATE_EPOCH when the caller sets it (the
 * reproducible-builds convention), else a fixed date, so the same input gives
 * the same bytes. cairo would otherwise stamp the current time.
 */
static void document_date(char *out, size_t size)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t seconds = 946684800; /* 2000-01-01T00:00:00Z */
	struct tm utc;
	char *end;

	if (epoch && *epoch) {
		long long value = strtoll(epoch, &end, 10);
		if (*end == '\0' && value >= 0)
			seconds = (time_t)value;
	}
	if (!gmtime_r(&seconds, &utc) || !strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &utc))
		snprintf(out, size, "2000-01-01T00:00:00Z");
}

/* A cairo failure while writing: the path when the bytes did not reach the file. */
static int pdf_error(const rli_output *out, cairo_status_t status)
{
	if (status == CAIRO_STATUS_WRITE_ERROR)
		return rli_error_set(RLI_EOUTPUT, "cannot write %s", out->file.path ? out->file.path : "the PDF");
	return rli_cairo_error(status, "cannot make the PDF");
}

static int pdf_begin(rli_output *out, const rli_timeline *timeline)
{
	pdf_output *pdf = (pdf_output *)out;
	char date[32];

	/* One page unit is one point until the page would pass the readers' limit. */
	pdf->scale = fmin(1.0, PDF_MAX_PAGE_POINTS / fmax(timeline->width, timeline->height));
	pdf->surface = cairo_pdf_surface_create_for_stream(write_to_file, out->file.fp,
							   timeline->width * pdf->scale,
							   timeline->height * pdf->scale);
	if (cairo_surface_status(pdf->surface) != CAIRO_STATUS_SUCCESS)
		return pdf_error(out, cairo_surface_status(pdf->surface));
	document_date(date, sizeof(date));
	cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
	cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_MOD_DATE, date);
	cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATOR, "rl-insight " RLI_VERSION);
	if (timeline->title.text)
		cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_TITLE, timeline->title.text);
	return RLI_OK;
}

static int pdf_draw_timeline(rli_output *out, const rli_timeline *timeline)
{
	pdf_output *pdf = (pdf_output *)out;
	rli_paint_options options = {
		.scale = pdf->scale,
		.lod_columns_per_unit = PDF_LOD_COLUMNS_PER_POINT * pdf->scale,
	};
	cairo_t *cr = cairo_create(pdf->surface);
	int error = rli_cairo_paint(cr, timeline, &options);
	if (error == RLI_OK) {
		cairo_show_page(cr);
		if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
			error = pdf_error(out, cairo_status(cr));
	}
	cairo_destroy(cr);
	return error;
}

static int pdf_finish(rli_output *out)
{
	pdf_output *pdf = (pdf_output *)out;

	/* The PDF's trailer and fonts are written when the surface finishes. */
	cairo_surface_finish(pdf->surface);
	if (cairo_surface_status(pdf->surface) != CAIRO_STATUS_SUCCESS)
		return pdf_error(out, cairo_surface_status(pdf->surface));
	return RLI_OK;
}

static void pdf_destroy(rli_output *out)
{
	pdf_output *pdf = (pdf_output *)out;
	if (pdf->surface)
		cairo_surface_destroy(pdf->surface);
	pdf->surface = NULL;
}

const rli_backend rli_pdf_backend = {
	.name = "pdf",
	.file_name = "rl_timeline.pdf",
	.output_size = sizeof(pdf_output),
	.begin = pdf_begin,
	.draw_timeline = pdf_draw_timeline,
	.finish = pdf_finish,
	.destroy = pdf_destroy,
};

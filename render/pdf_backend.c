/* pdf_backend.c: the PDF back-end: each page through the cairo painter onto a vector page within 14,400 points, with the document's outline. */
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

/*
 * cairo's PDF surface is paginated: it records each page as it is drawn and
 * replays it into the file at cairo_show_page, so a page is drawn once and no
 * recording of our own is needed.
 */
typedef struct {
	rli_output base;
	cairo_surface_t *surface;
	cairo_t *cr;
	rli_cairo_painter *painter;
	double scale; /* points per page unit for the page being drawn: 1, or less past the limit */
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

/* One page unit is one point until a side would pass the readers' limit. */
static double page_scale(const rli_page *page)
{
	return fmin(1.0, PDF_MAX_PAGE_POINTS / fmax(page->width, page->height));
}

/* A PDF surface writing into out->file, its first page the size of `first`, the document's metadata set. */
static int open_surface(rli_output *out, const rli_page *first)
{
	pdf_output *pdf = (pdf_output *)out;
	const rli_document *document = out->document;
	char date[32];

	pdf->surface = cairo_pdf_surface_create_for_stream(write_to_file, out->file.fp,
							   first->width * page_scale(first),
							   first->height * page_scale(first));
	if (cairo_surface_status(pdf->surface) != CAIRO_STATUS_SUCCESS)
		return pdf_error(out, cairo_surface_status(pdf->surface));
	if (document->date)
		snprintf(date, sizeof(date), "%s", document->date);
	else
		document_date(date, sizeof(date));
	cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
	cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_MOD_DATE, date);
	cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATOR, "rl-insight " RLI_VERSION);
	if (document->title)
		cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_TITLE, document->title);
	pdf->cr = cairo_create(pdf->surface);
	return RLI_OK;
}

/* The PDF's trailer and fonts, written as the surface finishes; then the surface goes. */
static int close_surface(rli_output *out)
{
	pdf_output *pdf = (pdf_output *)out;
	cairo_status_t status;

	cairo_destroy(pdf->cr);
	pdf->cr = NULL;
	cairo_surface_finish(pdf->surface);
	status = cairo_surface_status(pdf->surface);
	cairo_surface_destroy(pdf->surface);
	pdf->surface = NULL;
	return status == CAIRO_STATUS_SUCCESS ? RLI_OK : pdf_error(out, status);
}

/* A document of a file a page (the memory pages) is a PDF a page: its surface is made with the page. */
static int pdf_begin_document(rli_output *out, const rli_document *document)
{
	return out->per_page ? RLI_OK : open_surface(out, &document->pages[0]);
}

static int pdf_begin_page(rli_output *out, const rli_page *page)
{
	pdf_output *pdf = (pdf_output *)out;
	rli_paint_options options;
	int error;

	if (out->per_page && (error = open_surface(out, page)) < 0)
		return error;
	pdf->scale = page_scale(page);
	options.scale = pdf->scale;
	options.lod_columns_per_unit = PDF_LOD_COLUMNS_PER_POINT * pdf->scale;
	/* Pages may differ in size; cairo takes the size for the page about to begin. */
	cairo_pdf_surface_set_size(pdf->surface, page->width * pdf->scale, page->height * pdf->scale);
	if ((error = rli_cairo_painter_new(&pdf->painter, pdf->cr, out->document, &options)) < 0)
		return error;
	return rli_cairo_draw_background(pdf->painter);
}

static int pdf_draw_item(rli_output *out, const rli_item *item)
{
	return rli_cairo_draw_item(((pdf_output *)out)->painter, item);
}

static int pdf_end_page(rli_output *out)
{
	pdf_output *pdf = (pdf_output *)out;

	rli_cairo_painter_free(pdf->painter);
	pdf->painter = NULL;
	cairo_show_page(pdf->cr);
	if (cairo_status(pdf->cr) != CAIRO_STATUS_SUCCESS)
		return pdf_error(out, cairo_status(pdf->cr));
	return out->per_page ? close_surface(out) : RLI_OK;
}

/* The bookmarks, each to its page and height; a level-1 entry under the last level-0 one. */
static int add_outline(pdf_output *pdf, const rli_document *document)
{
	int section = CAIRO_PDF_OUTLINE_ROOT;

	for (size_t i = 0; i < document->outline_count; i++) {
		const rli_outline_entry *e = &document->outline[i];
		char link[96];
		int id;
		if (e->page >= document->page_count)
			return rli_error_set(RLI_ERROR, "pdf: a bookmark points past the last page (%zu)", e->page + 1);
		snprintf(link, sizeof(link), "page=%zu pos=[0 %.2f]", e->page + 1,
			 e->y * page_scale(&document->pages[e->page]));
		id = cairo_pdf_surface_add_outline(pdf->surface, e->level > 0 ? section : CAIRO_PDF_OUTLINE_ROOT,
						   e->title ? e->title : "", link,
						   e->level > 0 ? 0 : CAIRO_PDF_OUTLINE_FLAG_OPEN);
		if (e->level <= 0)
			section = id;
	}
	return RLI_OK;
}

static int pdf_finish(rli_output *out)
{
	int error;

	if (out->per_page)
		return RLI_OK; /* each page's file is whole: a bookmark would point into another file */
	if ((error = add_outline((pdf_output *)out, out->document)) < 0)
		return error;
	return close_surface(out);
}

static void pdf_destroy(rli_output *out)
{
	pdf_output *pdf = (pdf_output *)out;
	rli_cairo_painter_free(pdf->painter);
	pdf->painter = NULL;
	if (pdf->cr)
		cairo_destroy(pdf->cr);
	pdf->cr = NULL;
	if (pdf->surface)
		cairo_surface_destroy(pdf->surface);
	pdf->surface = NULL;
}

const rli_backend rli_pdf_backend = {
	.name = "pdf",
	.extension = ".pdf",
	.file_per_page = 0,
	.output_size = sizeof(pdf_output),
	.begin_document = pdf_begin_document,
	.begin_page = pdf_begin_page,
	.draw_item = pdf_draw_item,
	.end_page = pdf_end_page,
	.finish = pdf_finish,
	.destroy = pdf_destroy,
};

/* cairo_paint.h: draws a document's pages, item by item, onto any cairo context (PNG image, PDF page). */
#ifndef RLI_RENDER_CAIRO_PAINT_H
#define RLI_RENDER_CAIRO_PAINT_H

#include "layout/layout.h"
#include "lod.h"

#include <cairo.h>
#include <stddef.h>

typedef struct {
	/* Device units per page unit: the painter applies it (PNG: the raster scale; PDF: the page's fit). */
	double scale;
	/*
	 * Level-of-detail columns per page unit. Bars narrower than one column
	 * are drawn as their exact per-column union; PNG: = scale (one device
	 * pixel), PDF: a finer grid than any printer shows.
	 */
	double lod_columns_per_unit;
} rli_paint_options;

/* Draws items onto one cairo context. Opaque. */
typedef struct rli_cairo_painter rli_cairo_painter;

int rli_cairo_painter_new(rli_cairo_painter **out, cairo_t *cr, const rli_document *document,
			  const rli_paint_options *options);
void rli_cairo_painter_free(rli_cairo_painter *painter);
/* Fills the page with the document's background. */
int rli_cairo_draw_background(rli_cairo_painter *painter);
/* Draws one item; a cairo failure is rli_cairo_error's. */
int rli_cairo_draw_item(rli_cairo_painter *painter, const rli_item *item);

/* The background and every item of a page, in order. */
int rli_cairo_paint_page(cairo_t *cr, const rli_document *document, const rli_page *page,
			 const rli_paint_options *options);

/*
 * A cairo failure as our message, "<what>: <cause>": out of memory is an
 * internal error (RLI_ERROR), anything else means the output could not be
 * made (RLI_EOUTPUT).
 */
int rli_cairo_error(cairo_status_t status, const char *what);

#endif

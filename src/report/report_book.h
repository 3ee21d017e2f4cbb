/* report_book.h: the report's pages as they are composed: a frame per page, items added in order, running header and page numbers, the outline. */
#ifndef RLI_REPORT_BOOK_H
#define RLI_REPORT_BOOK_H

#include "common/error.h"
#include "layout/layout.h"

#include <pango/pango.h>
#include <stddef.h>

/* The report's look, in points (page units are points). */
#define BOOK_MARGIN 36.0          /* half an inch all round */
#define BOOK_HEADER_SIZE 7.5      /* running header and page number */
#define BOOK_BODY_SIZE 9.0
#define BOOK_SMALL_SIZE 7.5
#define BOOK_HEADING_SIZE 14.0
#define BOOK_SUBHEADING_SIZE 11.0
#define BOOK_TABLE_SIZE 7.5
#define BOOK_TABLE_ROW 12.0
#define BOOK_RULE_COLOR 0x9aa5b1
#define BOOK_MUTED_COLOR 0x5b6b7b
#define BOOK_TEXT_COLOR 0x1f2933

typedef struct book_page book_page;

/*
 * A document under construction. Every string and item it is given a
 * pointer to belongs to it (book_keep), so freeing the book frees the
 * document. Content goes between top and bottom of the current page; y is
 * where the next item goes.
 */
typedef struct {
	rli_document document;
	rli_page *pages;
	book_page *content;
	size_t page_count, page_capacity;
	rli_outline_entry *outline;
	size_t outline_count, outline_capacity;
	void **owned;
	size_t owned_count, owned_capacity;
	/* structures with a dispose of their own (the statistics' tables), disposed with the book */
	struct book_disposal *disposals;
	size_t disposal_count, disposal_capacity;
	PangoContext *text;
	double width, height;   /* every page's size */
	double left, right;     /* content edges */
	double top, bottom;     /* content area of a page */
	double y;               /* where the next item goes on the current page */
	const char *running;    /* the running header's text (left), the section's (right) */
	const char *section;
} rli_book;

int rli_book_init(rli_book *book, double width, double height, const char *running);
void rli_book_dispose(rli_book *book);

/* Takes ownership of an allocation (freed with the book); returns it, or NULL after freeing it when out of memory. */
void *rli_book_keep(rli_book *book, void *allocation);
/* Keeps a structure allocated with calloc/malloc that dispose frees the insides of; the book then frees it. */
int rli_book_keep_disposable(rli_book *book, void *structure, void (*dispose)(void *));
/* calloc kept by the book. */
void *rli_book_alloc(rli_book *book, size_t count, size_t size);
/* A copy of text (made valid UTF-8) kept by the book. */
char *rli_book_strdup(rli_book *book, const char *text);
char *rli_book_printf(rli_book *book, const char *format, ...) RLI_PRINTF(2, 3);

/* Starts a page (its section named in the running header); y goes to its top. */
int rli_book_new_page(rli_book *book);
/* Room left on the current page below y; a new page when less than `needed` is left. */
int rli_book_need(rli_book *book, double needed);
int rli_book_add(rli_book *book, rli_item_kind kind, const void *item);
/* An item another figure placed (its placement kept), on the current page. */
int rli_book_add_item(rli_book *book, const rli_item *item);

/*
 * The part of another figure's page between y = top and y = bottom (its page units), scaled to
 * the content width or to the room left on the page, whichever is less, at y; y then moves past
 * it. A new page first when less than min_room is left. The page must outlive the book.
 */
int rli_book_figure(rli_book *book, const rli_page *page, double top, double bottom, double min_room);

/* A text item at (x, y) kept by the book; *out (may be NULL) receives it. */
int rli_book_text(rli_book *book, rli_text **out, const char *text, double x, double y, double size, int bold,
		  rli_align halign, rli_align valign);
/*
 * A paragraph wrapped to the content width at y, y advanced past it; lines
 * that would pass the page's bottom go on to the next page.
 */
int rli_book_paragraph(rli_book *book, const char *text, double size, int bold, rli_color color);
/* A bookmark at the current page and y (title kept by the caller, or the book's). */
int rli_book_bookmark(rli_book *book, const char *title, int level);
/* A heading, bookmarked at `level` (0: a section, which the running header then names). */
int rli_book_heading(rli_book *book, const char *text, int level);

/* Adds the running header and "Page n of N" to every page and sets the document's pages and outline. */
int rli_book_finish(rli_book *book, const char *name, const char *title);

#endif

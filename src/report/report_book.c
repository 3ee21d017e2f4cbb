/* report_book.c: the report's pages as they are composed: a frame per page, items added in order, running header and page numbers, the outline. */
#include "report_book.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/strutil.h"
#include "layout/text_place.h"
#include "text/text.h"

#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The items of one page, grown as content is added. */
struct book_page {
	rli_item *items;
	size_t count, capacity;
	const char *section;
};

struct book_disposal {
	void *structure;
	void (*dispose)(void *);
};

int rli_book_init(rli_book *book, double width, double height, const char *running)
{
	memset(book, 0, sizeof(*book));
	book->width = width;
	book->height = height;
	book->left = BOOK_MARGIN;
	book->right = width - BOOK_MARGIN;
	/* The running header sits in the top margin's lower half; the page number likewise at the bottom. */
	book->top = BOOK_MARGIN + 14.0;
	book->bottom = height - BOOK_MARGIN - 10.0;
	book->running = running;
	return rli_text_context_new(&book->text);
}

void rli_book_dispose(rli_book *book)
{
	for (size_t i = 0; i < book->page_count; i++)
		free(book->content[i].items);
	for (size_t i = 0; i < book->disposal_count; i++) {
		book->disposals[i].dispose(book->disposals[i].structure);
		free(book->disposals[i].structure);
	}
	free(book->disposals);
	for (size_t i = 0; i < book->owned_count; i++)
		free(book->owned[i]);
	free(book->owned);
	free(book->content);
	free(book->pages);
	free(book->outline);
	if (book->text)
		g_object_unref(book->text);
	memset(book, 0, sizeof(*book));
}

void *rli_book_keep(rli_book *book, void *allocation)
{
	if (!allocation)
		return NULL;
	if (RLI_GROW(&book->owned, &book->owned_capacity, book->owned_count + 1, 64) < 0) {
		free(allocation);
		return NULL;
	}
	book->owned[book->owned_count++] = allocation;
	return allocation;
}

int rli_book_keep_disposable(rli_book *book, void *structure, void (*dispose)(void *))
{
	if (RLI_GROW(&book->disposals, &book->disposal_capacity, book->disposal_count + 1, 16) < 0) {
		dispose(structure);
		free(structure);
		return rli_error_oom();
	}
	book->disposals[book->disposal_count++] = (struct book_disposal){ structure, dispose };
	return RLI_OK;
}

void *rli_book_alloc(rli_book *book, size_t count, size_t size)
{
	return rli_book_keep(book, calloc(count ? count : 1, size));
}

char *rli_book_strdup(rli_book *book, const char *text)
{
	return rli_book_keep(book, rli_valid_utf8_copy(text));
}

char *rli_book_printf(rli_book *book, const char *format, ...)
{
	va_list ap;
	char *text, *valid;
	va_start(ap, format);
	text = rli_vstrfmt(format, ap);
	va_end(ap);
	if (!text)
		return NULL;
	valid = rli_valid_utf8_copy(text);
	free(text);
	return rli_book_keep(book, valid);
}

int rli_book_new_page(rli_book *book)
{
	if (RLI_GROW(&book->content, &book->page_capacity, book->page_count + 1, 16) < 0)
		return rli_error_oom();
	memset(&book->content[book->page_count], 0, sizeof(*book->content));
	book->content[book->page_count].section = book->section;
	book->page_count++;
	book->y = book->top;
	return RLI_OK;
}

int rli_book_need(rli_book *book, double needed)
{
	if (book->page_count && book->y + needed <= book->bottom)
		return RLI_OK;
	return rli_book_new_page(book);
}

int rli_book_add(rli_book *book, rli_item_kind kind, const void *item)
{
	rli_item added = { .kind = kind };
	switch (kind) {
	case RLI_ITEM_TEXT: added.u.text = item; break;
	case RLI_ITEM_PANEL: added.u.panel = item; break;
	case RLI_ITEM_LEGEND: added.u.legend = item; break;
	case RLI_ITEM_TABLE: added.u.table = item; break;
	case RLI_ITEM_NAV: added.u.nav = item; break;
	case RLI_ITEM_FIGURE: added.u.figure = item; break;
	}
	return rli_book_add_item(book, &added);
}

int rli_book_add_item(rli_book *book, const rli_item *item)
{
	book_page *page;
	if (!book->page_count) {
		int error = rli_book_new_page(book);
		if (error < 0)
			return error;
	}
	page = &book->content[book->page_count - 1];
	if (RLI_GROW(&page->items, &page->capacity, page->count + 1, 16) < 0)
		return rli_error_oom();
	page->items[page->count++] = *item;
	return RLI_OK;
}

int rli_book_text(rli_book *book, rli_text **out, const char *text, double x, double y, double size, int bold,
		  rli_align halign, rli_align valign)
{
	rli_text *t = rli_book_alloc(book, 1, sizeof(*t));
	int error;
	if (!t || !(t->text = rli_book_strdup(book, text)))
		return rli_error_oom();
	t->x = x;
	t->y = y;
	t->size = size;
	t->bold = bold;
	t->color = BOOK_TEXT_COLOR;
	t->halign = halign;
	t->valign = valign;
	if ((error = rli_book_add(book, RLI_ITEM_TEXT, t)) < 0)
		return error;
	if (out)
		*out = t;
	return RLI_OK;
}

int rli_book_paragraph(rli_book *book, const char *text, double size, int bold, rli_color color)
{
	PangoLayout *layout = rli_text_layout_new(book->text, text, size, bold);
	int lines, error = RLI_OK;
	double line_height = size * 1.35;

	if (!layout)
		return rli_error_oom();
	pango_layout_set_width(layout, (int)((book->right - book->left) * PANGO_SCALE));
	pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
	lines = pango_layout_get_line_count(layout);
	for (int i = 0; i < lines && error == RLI_OK; i++) {
		PangoLayoutLine *line = pango_layout_get_line_readonly(layout, i);
		const char *all = pango_layout_get_text(layout);
		char *piece;
		rli_text *t = NULL;
		if ((error = rli_book_need(book, line_height)) < 0)
			break;
		if (!(piece = rli_book_keep(book, strndup(all + line->start_index, (size_t)line->length)))) {
			error = rli_error_oom();
			break;
		}
		if ((error = rli_book_text(book, &t, piece, book->left, book->y, size, bold, RLI_ALIGN_START,
					   RLI_ALIGN_START)) < 0)
			break;
		t->color = color;
		book->y += line_height;
	}
	g_object_unref(layout);
	return error;
}

int rli_book_bookmark(rli_book *book, const char *title, int level)
{
	if (RLI_GROW(&book->outline, &book->outline_capacity, book->outline_count + 1, 16) < 0)
		return rli_error_oom();
	book->outline[book->outline_count++] = (rli_outline_entry){ title, book->page_count - 1, book->y, level };
	return RLI_OK;
}

int rli_book_figure(rli_book *book, const rli_page *page, double top, double bottom, double min_room)
{
	rli_figure *item;
	double f;
	int error;

	if ((error = rli_book_need(book, min_room)) < 0 || !(item = rli_book_alloc(book, 1, sizeof(*item))))
		return error < 0 ? error : rli_error_oom();
	f = fmin((book->right - book->left) / page->width, (book->bottom - book->y) / (bottom - top));
	*item = (rli_figure){ page, { 0, top, page->width, bottom - top },
			      { book->left, book->y, page->width * f, (bottom - top) * f } };
	if ((error = rli_book_add(book, RLI_ITEM_FIGURE, item)) < 0)
		return error;
	book->y += item->frame.h + BOOK_BODY_SIZE;
	return RLI_OK;
}

int rli_book_heading(rli_book *book, const char *text, int level)
{
	double size = level == 0 ? BOOK_HEADING_SIZE : BOOK_SUBHEADING_SIZE;
	char *kept = rli_book_strdup(book, text);
	int error;

	if (!kept)
		return rli_error_oom();
	if (level == 0) {
		/* A section opens a page, so the running header names it from there on. */
		book->section = kept;
		if ((error = rli_book_new_page(book)) < 0)
			return error;
	} else if ((error = rli_book_need(book, size * 1.6 + 4 * BOOK_TABLE_ROW)) < 0) {
		/* a subheading keeps a few rows of what follows with it */
		return error;
	}
	if ((error = rli_book_bookmark(book, kept, level)) < 0 ||
	    (error = rli_book_text(book, NULL, kept, book->left, book->y, size, 1, RLI_ALIGN_START,
				   RLI_ALIGN_START)) < 0)
		return error;
	book->y += size * 1.6;
	return RLI_OK;
}

int rli_book_finish(rli_book *book, const char *name, const char *title)
{
	int error;

	book->pages = calloc(book->page_count ? book->page_count : 1, sizeof(*book->pages));
	if (!book->pages)
		return rli_error_oom();
	for (size_t p = 0; p < book->page_count; p++) {
		book_page *content = &book->content[p];
		rli_text *left = NULL, *middle = NULL, *number = NULL;
		double y = BOOK_MARGIN;
		/* The header is added last to each page's items, which only changes their drawing order. */
		size_t keep = book->page_count;
		book->page_count = p + 1; /* rli_book_add appends to the last page */
		error = rli_book_text(book, &left, book->running ? book->running : "", book->left, y, BOOK_HEADER_SIZE,
				      0, RLI_ALIGN_START, RLI_ALIGN_END);
		if (error == RLI_OK)
			error = rli_book_text(book, &middle, content->section ? content->section : "", book->right, y,
					      BOOK_HEADER_SIZE, 0, RLI_ALIGN_END, RLI_ALIGN_END);
		if (error == RLI_OK) {
			char *text = rli_book_printf(book, "Page %zu of %zu", p + 1, keep);
			error = text ? rli_book_text(book, &number, text, book->width / 2, book->height - BOOK_MARGIN,
						     BOOK_HEADER_SIZE, 0, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)
				     : rli_error_oom();
		}
		book->page_count = keep;
		if (error < 0)
			return error;
		left->color = middle->color = number->color = BOOK_MUTED_COLOR;
		left->max_width = (book->right - book->left) * 0.55;
		middle->max_width = (book->right - book->left) * 0.4;
		book->pages[p] = (rli_page){ book->width, book->height, NULL, NULL, content->count, content->items };
	}
	book->document.name = name;
	book->document.title = title;
	book->document.scale = 1;
	book->document.raster_scale = 1;
	book->document.background = 0xFFFFFF;
	book->document.text_color = BOOK_TEXT_COLOR;
	book->document.font_family = RLI_TEXT_FAMILY;
	book->document.pages = book->pages;
	book->document.page_count = book->page_count;
	book->document.outline = book->outline;
	book->document.outline_count = book->outline_count;
	return RLI_OK;
}

/* report_table.h: a table of text set across the report's pages: columns fitted to their contents, the header repeated on every page. */
#ifndef RLI_REPORT_TABLE_H
#define RLI_REPORT_TABLE_H

#include "report_book.h"

/* A table of text as the statistics give it; the strings must outlive the book (or be kept by it). */
typedef struct {
	const char *title;           /* set above the table; "(continued)" after it on later pages */
	size_t column_count, row_count;
	char *const *header;         /* column_count */
	char *const *cells;          /* row_count * column_count, row by row */
	const rli_align *align;      /* column_count */
	const double *weight;        /* column_count or NULL: how much of a shortfall of width a column gives up */
} rli_text_table;

/*
 * Sets the table at the book's y, on as many pages as its rows need: each
 * column as wide as its widest cell (header included) or, when they do not
 * fit the content width together, narrower by its weight and ellipsized.
 * A table with no rows gets its title and a line saying so.
 */
int rli_book_table(rli_book *book, const rli_text_table *table);

#endif

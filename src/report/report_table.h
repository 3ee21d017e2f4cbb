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
 * A table of `rows` empty cells under the given header, every string and
 * array the book's; fill it with rli_text_table_set. RLI_ERROR out of memory.
 */
int rli_text_table_new(rli_book *book, rli_text_table *table, const char *title, size_t columns, size_t rows,
		       const char *const *header, const rli_align *align, const double *weight);
/* Cell (row, column) as printf writes it, kept by the book. */
int rli_text_table_set(rli_book *book, rli_text_table *table, size_t row, size_t column, const char *format, ...)
	RLI_PRINTF(5, 6);

/*
 * Sets the table at the book's y, on as many pages as its rows need: each
 * column as wide as its widest cell (header included) or, when they do not
 * fit the content width together, narrower by its weight and ellipsized.
 * A table with no rows gets its title and a line saying so.
 */
int rli_book_table(rli_book *book, const rli_text_table *table);

#endif

/* report_table.c: a table of text set across the report's pages: columns fitted to their contents, the header repeated on every page. */
#include "report_table.h"
#include "common/error.h"
#include "common/strutil.h"
#include "layout/text_place.h"
#include "text/text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#define CELL_PAD 8.0         /* between columns */
#define MEASURED_ROWS 2000
#define SHORT_TABLE 15       /* rows: a table this short is not broken across pages when a page can hold it */
#define MIN_ROWS_APART 3   /* rows measured for widths: enough for any table the statistics bound */

int rli_text_table_new(rli_book *book, rli_text_table *table, const char *title, size_t columns, size_t rows,
		       const char *const *header, const rli_align *align, const double *weight)
{
	char **head = rli_book_alloc(book, columns, sizeof(char *));
	char **cells = rli_book_alloc(book, columns * rows, sizeof(char *));
	if (!head || !cells)
		return rli_error_oom();
	for (size_t c = 0; c < columns; c++)
		head[c] = (char *)header[c];
	for (size_t i = 0; i < columns * rows; i++)
		cells[i] = "";
	*table = (rli_text_table){ title, columns, rows, head, cells, align, weight };
	return RLI_OK;
}

int rli_text_table_set(rli_book *book, rli_text_table *table, size_t row, size_t column, const char *format, ...)
{
	va_list ap;
	char *text, *valid;
	va_start(ap, format);
	text = rli_vstrfmt(format, ap);
	va_end(ap);
	valid = text ? rli_valid_utf8_copy(text) : NULL;
	free(text);
	if (!valid || !rli_book_keep(book, valid))
		return rli_error_oom();
	((char **)table->cells)[row * table->column_count + column] = valid;
	return RLI_OK;
}

/* The widths: natural, then cut by weight until the columns fit the width. */
static void fit_columns(double *width, const rli_text_table *table, double room)
{
	double total = 0, weights = 0;
	for (size_t c = 0; c < table->column_count; c++) {
		total += width[c] + CELL_PAD;
		weights += table->weight ? table->weight[c] * width[c] : width[c];
	}
	if (total <= room || weights <= 0)
		return;
	/* Each column gives up a share of the shortfall in proportion to weight x width, never below a sliver. */
	{
		double shortfall = total - room;
		for (size_t c = 0; c < table->column_count; c++) {
			double share = (table->weight ? table->weight[c] : 1.0) * width[c] / weights;
			width[c] = fmax(12.0, width[c] - shortfall * share);
		}
	}
}

int rli_book_table(rli_book *book, const rli_text_table *table)
{
	size_t cols = table->column_count, done = 0;
	double *width = rli_book_alloc(book, cols, sizeof(double));
	double *column_x = rli_book_alloc(book, cols, sizeof(double));
	rli_align *align = rli_book_alloc(book, cols, sizeof(rli_align));
	int error;

	if (!width || !column_x || !align)
		return rli_error_oom();
	for (size_t c = 0; c < cols; c++) {
		double w, h;
		rli_text_measure(&w, &h, book->text, table->header[c], BOOK_TABLE_SIZE, 1);
		width[c] = w;
		for (size_t r = 0; r < table->row_count && r < MEASURED_ROWS; r++) {
			rli_text_measure(&w, &h, book->text, table->cells[r * cols + c], BOOK_TABLE_SIZE, 0);
			width[c] = fmax(width[c], w);
		}
		align[c] = table->align ? table->align[c] : RLI_ALIGN_START;
	}
	fit_columns(width, table, book->right - book->left);
	{
		double x = book->left;
		for (size_t c = 0; c < cols; c++) {
			column_x[c] = x;
			x += width[c] + CELL_PAD;
		}
	}
	/*
	 * The title keeps the header and two rows with it; a short table that
	 * would break goes whole to the next page instead.
	 */
	if ((error = rli_book_need(book, BOOK_BODY_SIZE * 1.6 + (double)(table->row_count <= SHORT_TABLE ?
					table->row_count + 1 : 3) * BOOK_TABLE_ROW)) < 0)
		return error;
	do {
		rli_table *t;
		size_t fit, rows;
		const char *title = done ? rli_book_printf(book, "%s (continued)", table->title) : table->title;
		if (!title)
			return rli_error_oom();
		if ((error = rli_book_text(book, NULL, title, book->left, book->y, BOOK_BODY_SIZE, 1, RLI_ALIGN_START,
					   RLI_ALIGN_START)) < 0)
			return error;
		book->y += BOOK_BODY_SIZE * 1.6;
		if (!table->row_count) {
			error = rli_book_paragraph(book, "(none)", BOOK_SMALL_SIZE, 0, BOOK_MUTED_COLOR);
			book->y += BOOK_TABLE_ROW;
			return error;
		}
		fit = (size_t)fmax(1.0, floor((book->bottom - book->y) / BOOK_TABLE_ROW) - 1.0);
		/* No page gets fewer than MIN_ROWS_APART rows of a table that breaks: the break moves up. */
		if (table->row_count - done > fit && table->row_count - done - fit < MIN_ROWS_APART &&
		    fit >= 2 * MIN_ROWS_APART)
			fit = table->row_count - done - MIN_ROWS_APART;
		rows = table->row_count - done < fit ? table->row_count - done : fit;
		if (!(t = rli_book_alloc(book, 1, sizeof(*t))))
			return rli_error_oom();
		*t = (rli_table){
			.x = book->left, .y = book->y, .column_count = cols, .row_count = rows,
			.header = (char **)table->header, .cells = (char **)table->cells + done * cols,
			.column_x = column_x, .column_width = width, .align = align,
			.font_size = BOOK_TABLE_SIZE, .row_height = BOOK_TABLE_ROW,
			.text_color = BOOK_TEXT_COLOR, .rule_color = BOOK_RULE_COLOR,
		};
		if ((error = rli_book_add(book, RLI_ITEM_TABLE, t)) < 0)
			return error;
		done += rows;
		book->y += (double)(rows + 1) * BOOK_TABLE_ROW + BOOK_TABLE_ROW;
		if (done < table->row_count && (error = rli_book_new_page(book)) < 0)
			return error;
	} while (done < table->row_count);
	return RLI_OK;
}

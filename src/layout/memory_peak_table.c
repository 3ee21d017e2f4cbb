/* memory_peak_table.c: the table of the largest blocks live at the peak, its columns fitted to the page. */
#include "memory_parts.h"
#include "text_place.h"
#include "theme.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEM_TABLE_SIZE 12.0
#define MEM_RULE_COLOR 0xBBBBBB
#define MEM_COLUMN_GAP 12.0
#define MEM_FLEX_MIN (7 * MEM_TABLE_SIZE) /* an ellipsized column keeps room for about ten characters */

enum { OPERATOR, SIZE, START, DURATION, STACK, COLUMNS };

static const char *const headers[COLUMNS] = { "Operator", "Size", "Start (ms)", "Duration (ms)",
					      "Call stack (top)" };
static const double shares[COLUMNS] = { 0.24, 0.10, 0.12, 0.12, 0.42 };
static const rli_align aligns[COLUMNS] = { RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_START };
/* Names and stacks read well enough cut short; a number cut short is wrong, so numbers keep their width. */
static const int flexible[COLUMNS] = { 1, 0, 0, 0, 1 };
/*
 * Left out, in this order, when even the shortened columns do not fit: at the
 * peak what matters is which operator holds how much, and from which line of
 * Python; when it started and how long it lived matter least.
 */
static const int drop_order[] = { DURATION, START, STACK };

static void format_mb(char *out, size_t size, double kb)
{
	if (kb >= 1024.0)
		snprintf(out, size, "%.1f MB", kb / 1024.0);
	else
		snprintf(out, size, "%.1f KB", kb);
}

/*
 * Where the kept columns go: the fixed shares while each holds its widest
 * text (natural); otherwise each column its natural width, names and stacks
 * at least MEM_FLEX_MIN, columns dropped in drop_order until that fits, the
 * room left given to the call stack (or the operator) up to its natural
 * width and then beyond, so the table spans the page.
 */
static void fit_columns(int *kept, double *column_x, double *column_width, const double *natural, double x,
			double width)
{
	double need[COLUMNS], total, spare;
	int shares_hold = 1, grow[2] = { STACK, OPERATOR };
	size_t dropped = 0;

	for (int c = 0; c < COLUMNS; c++) {
		kept[c] = 1;
		shares_hold = shares_hold && shares[c] * width - MEM_COLUMN_GAP >= natural[c];
	}
	if (shares_hold) {
		for (int c = 0; c < COLUMNS; c++) {
			column_x[c] = x;
			column_width[c] = shares[c] * width - MEM_COLUMN_GAP;
			x += shares[c] * width;
		}
		return;
	}
	for (;;) {
		total = -MEM_COLUMN_GAP;
		for (int c = 0; c < COLUMNS; c++) {
			need[c] = flexible[c] ? fmin(natural[c], MEM_FLEX_MIN) : natural[c];
			if (kept[c])
				total += need[c] + MEM_COLUMN_GAP;
		}
		if (total <= width || dropped == sizeof(drop_order) / sizeof(drop_order[0]))
			break;
		kept[drop_order[dropped++]] = 0;
	}
	spare = width - total;
	for (int g = 0; g < 2 && spare > 0; g++) {
		double add = kept[grow[g]] ? fmin(spare, natural[grow[g]] - need[grow[g]]) : 0;
		need[grow[g]] += add;
		spare -= add;
	}
	/* Still room: the last flexible column takes it. Short of room (operator and size alone): the operator gives. */
	if (spare > 0)
		need[kept[STACK] ? STACK : OPERATOR] += spare;
	else if (spare < 0)
		need[OPERATOR] = fmax(MIN_TEXT_ROOM, need[OPERATOR] + spare);
	for (int c = 0; c < COLUMNS; c++) {
		column_x[c] = x;
		column_width[c] = need[c];
		if (kept[c])
			x += need[c] + MEM_COLUMN_GAP;
	}
}

int rli_memory_peak_table(rli_table *t, const rli_memory_device *device, const rli_memory_block *blocks,
			  size_t count, double peak_ms, double shift, double x, double y, double width, PangoContext *text)
{
	char *all[(MEM_TABLE_ROWS + 1) * COLUMNS] = { 0 }; /* the header, then the rows, every column */
	size_t *live = NULL;
	double natural[COLUMNS] = { 0 }, column_x[COLUMNS], column_width[COLUMNS], w, h;
	int kept[COLUMNS];
	size_t alive = 0, columns = 0;
	int error = RLI_OK;

	if ((error = rli_memory_live_at(&live, &alive, blocks, count, peak_ms)) < 0)
		goto done;
	if (alive > MEM_TABLE_ROWS)
		alive = MEM_TABLE_ROWS;

	for (int c = 0; c < COLUMNS; c++)
		all[c] = rli_strdup(headers[c]);
	for (size_t r = 0; r < alive; r++) {
		const rli_memory_block *b = &blocks[live[r]];
		char size[32], start[32], duration[32];
		const char *stack = device->call_stack_top ? device->call_stack_top[b->index] : "";
		char **row = &all[(r + 1) * COLUMNS];
		format_mb(size, sizeof(size), b->size_kb);
		rli_fmt_thousands(start, sizeof(start), shift + b->start, 3);
		rli_fmt_thousands(duration, sizeof(duration), b->end - b->start, 3);
		row[OPERATOR] = rli_valid_utf8_copy(device->op_name[b->index]);
		row[SIZE] = rli_strdup(size);
		row[START] = rli_strdup(start);
		row[DURATION] = rli_strdup(duration);
		row[STACK] = rli_valid_utf8_copy(stack && *stack ? stack : "(no call stack)");
	}
	for (size_t i = 0; i < (alive + 1) * COLUMNS; i++) {
		if (!all[i]) {
			error = rli_error_oom();
			goto done;
		}
		rli_text_measure(&w, &h, text, all[i], MEM_TABLE_SIZE, i < COLUMNS);
		natural[i % COLUMNS] = fmax(natural[i % COLUMNS], w);
	}
	fit_columns(kept, column_x, column_width, natural, x, width);
	for (int c = 0; c < COLUMNS; c++)
		columns += (size_t)kept[c];

	t->x = x;
	t->y = y;
	t->font_size = MEM_TABLE_SIZE;
	t->row_height = MEM_TABLE_ROW;
	t->text_color = TEXT_COLOR;
	t->rule_color = MEM_RULE_COLOR;
	t->header = calloc(columns, sizeof(*t->header));
	t->cells = calloc((alive ? alive : 1) * columns, sizeof(*t->cells));
	t->column_x = calloc(columns, sizeof(*t->column_x));
	t->column_width = calloc(columns, sizeof(*t->column_width));
	t->align = calloc(columns, sizeof(*t->align));
	if (!t->header || !t->cells || !t->column_x || !t->column_width || !t->align) {
		error = rli_error_oom();
		goto done;
	}
	/* The kept columns' texts move into the table; the dropped ones are freed below. */
	t->column_count = columns;
	t->row_count = alive;
	for (int c = 0, k = 0; c < COLUMNS; c++) {
		if (!kept[c])
			continue;
		t->column_x[k] = column_x[c];
		t->column_width[k] = column_width[c];
		t->align[k] = aligns[c];
		t->header[k] = all[c];
		all[c] = NULL;
		for (size_t r = 0; r < alive; r++) {
			t->cells[r * columns + (size_t)k] = all[(r + 1) * COLUMNS + (size_t)c];
			all[(r + 1) * COLUMNS + (size_t)c] = NULL;
		}
		k++;
	}
done:
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]);
	rli_bigmem_free(live);
	return error;
}

void rli_memory_table_dispose(rli_table *t)
{
	for (size_t c = 0; t->header && c < t->column_count; c++)
		free(t->header[c]);
	for (size_t i = 0; t->cells && i < t->row_count * t->column_count; i++)
		free(t->cells[i]);
	free(t->header);
	free(t->cells);
	free(t->column_x);
	free(t->column_width);
	free(t->align);
}

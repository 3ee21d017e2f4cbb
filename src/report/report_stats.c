/* report_stats.c: the report's statistics section: per role its phases and steps, then the slowest ranks, the waits, the overlaps and the idle time. */
#include "report_stats.h"
#include "report_table.h"
#include "common/error.h"
#include "events/events.h"
#include "layout/stats_tables.h"

#include <stdlib.h>

/* A role's steps past this many are left to summary.json: a report of 25 pages of steps is read by nobody. */
#define REPORT_MAX_STEPS 60
#define REPORT_MAX_IDLE_RANKS 40

static void dispose_table(void *table)
{
	rli_stats_table_dispose(table);
}

/* Sets one statistics table (made by `make`) under the current heading; the book keeps it. */
static int set_table(rli_book *book, rli_stats_table *table, size_t max_rows)
{
	rli_text_table text;
	int error;

	if (max_rows)
		rli_stats_table_truncate(table, max_rows);
	text = (rli_text_table){ table->title, table->column_count, table->row_count, table->header, table->cells,
				 table->align, table->weight };
	if ((error = rli_book_table(book, &text)) < 0)
		return error;
	if (table->rows_left_out) {
		char *note = rli_book_printf(book, "%zu more row%s left out here (see summary.json).", table->rows_left_out,
					     table->rows_left_out == 1 ? "" : "s");
		if (!note)
			return rli_error_oom();
		if ((error = rli_book_paragraph(book, note, BOOK_SMALL_SIZE, 0, BOOK_MUTED_COLOR)) < 0)
			return error;
		book->y += BOOK_TABLE_ROW;
	}
	return RLI_OK;
}

/*
 * Keeps a table made by one of the statistics' makers (made: what it
 * returned) in the book; on a failure frees it and returns the failure.
 */
static int keep_made(rli_book *book, rli_stats_table *table, int made)
{
	if (made < 0) {
		rli_stats_table_dispose(table);
		free(table);
		return made;
	}
	return rli_book_keep_disposable(book, table, dispose_table);
}

/* A heading and its tables; the heading goes to the next page unless the first table's start fits under it. */
static int section(rli_book *book, const char *heading, rli_stats_table *const *tables, const size_t *max_rows,
		   size_t count)
{
	size_t rows = tables[0]->row_count < 12 ? tables[0]->row_count : 12;
	int error = rli_book_need(book, BOOK_SUBHEADING_SIZE * 1.6 + BOOK_BODY_SIZE * 1.6 +
					    (double)(rows + 2) * BOOK_TABLE_ROW);
	if (error < 0 || (error = rli_book_heading(book, heading, 1)) < 0)
		return error;
	for (size_t i = 0; i < count; i++)
		if ((error = set_table(book, tables[i], max_rows[i])) < 0)
			return error;
	return RLI_OK;
}

/* calloc for a table the book will keep. */
#define NEW_TABLE(t) (((t) = calloc(1, sizeof(rli_stats_table))) != NULL)

static const char rules[] =
	"Durations are across ranks and steps. Step k of a role is the k-th bar of each of its ranks in time "
	"order. The slowest rank of a step is an outlier when its modified z-score, 0.6745 (x - median) / MAD, "
	"is above 3.5 (Iglewicz and Hoaglin; with no spread in the MAD the mean absolute deviation stands in, and "
	"fewer than 3 ranks name no outlier). A rank is a role's straggler when it was the slowest, and an "
	"outlier, in more than half of the role's steps.";

int rli_report_stats(rli_book *book, const rli_stats *stats)
{
	static const size_t role_limits[2] = { 0, REPORT_MAX_STEPS }, one_limit[1] = { 0 },
			    idle_limit[1] = { REPORT_MAX_IDLE_RANKS };
	rli_stats_table *t[2];
	int error;

	if ((error = rli_book_heading(book, "Statistics", 0)) < 0 ||
	    (error = rli_book_paragraph(book, rules, BOOK_BODY_SIZE, 0, BOOK_TEXT_COLOR)) < 0)
		return error;
	book->y += BOOK_BODY_SIZE;
	for (size_t r = 0; r < stats->role_count; r++) {
		uint32_t role = rli_stats_role(stats, r);
		if (!NEW_TABLE(t[0]) || (error = keep_made(book, t[0], rli_stats_table_phases(t[0], stats, role))) < 0 ||
		    !NEW_TABLE(t[1]) || (error = keep_made(book, t[1], rli_stats_table_steps(t[1], stats, role, REPORT_MAX_STEPS))) < 0)
			return error < 0 ? error : rli_error_oom();
		if ((error = section(book, rli_events_str(stats->events, role), t, role_limits, 2)) < 0)
			return error;
	}
	if (!NEW_TABLE(t[0]) || (error = keep_made(book, t[0], rli_stats_table_slowest(t[0], stats))) < 0 ||
	    (error = section(book, "Slowest ranks", t, one_limit, 1)) < 0)
		return error < 0 ? error : rli_error_oom();
	if (!NEW_TABLE(t[0]) || (error = keep_made(book, t[0], rli_stats_table_transitions(t[0], stats))) < 0 ||
	    (error = section(book, "Waits between roles", t, one_limit, 1)) < 0)
		return error < 0 ? error : rli_error_oom();
	if (!NEW_TABLE(t[0]) || (error = keep_made(book, t[0], rli_stats_table_overlaps(t[0], stats))) < 0 ||
	    (error = section(book, "Roles running together", t, one_limit, 1)) < 0)
		return error < 0 ? error : rli_error_oom();
	if (!NEW_TABLE(t[0]) || (error = keep_made(book, t[0], rli_stats_table_bubbles(t[0], stats, 0))) < 0 ||
	    (error = section(book, "Idle time", t, idle_limit, 1)) < 0)
		return error < 0 ? error : rli_error_oom();
	return RLI_OK;
}

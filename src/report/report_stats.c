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
		char *note = rli_book_printf(book, "%zu more row%s in summary.json.", table->rows_left_out,
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
 * A table made by one of the statistics' makers (made: what it returned),
 * kept by the book whether or not it could be set.
 */
static int set_made(rli_book *book, rli_stats_table *table, int made, size_t max_rows)
{
	int error;
	if (made < 0) {
		rli_stats_table_dispose(table);
		free(table);
		return made;
	}
	if ((error = rli_book_keep_disposable(book, table, dispose_table)) < 0)
		return error;
	return set_table(book, table, max_rows);
}

static const char rules[] =
	"Durations are across ranks and steps. Step k of a role is the k-th bar of each of its ranks in time "
	"order. The slowest rank of a step is an outlier when its modified z-score, 0.6745 (x - median) / MAD, "
	"is above 3.5 (Iglewicz and Hoaglin; with no spread in the MAD the mean absolute deviation stands in, and "
	"fewer than 3 ranks name no outlier). A rank is a role's straggler when it was the slowest, and an "
	"outlier, in more than half of the role's steps.";

int rli_report_stats(rli_book *book, const rli_stats *stats)
{
	uint32_t last = UINT32_MAX;
	rli_stats_table *t;
	int error;

	if ((error = rli_book_heading(book, "Statistics", 0)) < 0 ||
	    (error = rli_book_paragraph(book, rules, BOOK_BODY_SIZE, 0, BOOK_TEXT_COLOR)) < 0)
		return error;
	book->y += BOOK_BODY_SIZE;
	for (size_t i = 0; i < stats->phase_count; i++) {
		uint32_t role = stats->phases[i].role;
		if (role == last)
			continue;
		last = role;
		if ((error = rli_book_heading(book, rli_strpool_get(&stats->events->strings, role), 1)) < 0)
			return error;
		if (!(t = calloc(1, sizeof(*t))) ||
		    (error = set_made(book, t, rli_stats_table_phases(t, stats, role), 0)) < 0)
			return t ? error : rli_error_oom();
		if (!(t = calloc(1, sizeof(*t))) ||
		    (error = set_made(book, t, rli_stats_table_steps(t, stats, role), REPORT_MAX_STEPS)) < 0)
			return t ? error : rli_error_oom();
	}
	if ((error = rli_book_heading(book, "Slowest ranks", 1)) < 0)
		return error;
	if (!(t = calloc(1, sizeof(*t))) ||
	    (error = set_made(book, t, rli_stats_table_slowest(t, stats), 0)) < 0)
		return t ? error : rli_error_oom();
	if ((error = rli_book_heading(book, "Waits between roles", 1)) < 0)
		return error;
	if (!(t = calloc(1, sizeof(*t))) ||
	    (error = set_made(book, t, rli_stats_table_transitions(t, stats), 0)) < 0)
		return t ? error : rli_error_oom();
	if ((error = rli_book_heading(book, "Roles running together", 1)) < 0)
		return error;
	if (!(t = calloc(1, sizeof(*t))) ||
	    (error = set_made(book, t, rli_stats_table_overlaps(t, stats), 0)) < 0)
		return t ? error : rli_error_oom();
	if ((error = rli_book_heading(book, "Idle time", 1)) < 0)
		return error;
	if (!(t = calloc(1, sizeof(*t))) ||
	    (error = set_made(book, t, rli_stats_table_bubbles(t, stats, REPORT_MAX_IDLE_RANKS), 0)) < 0)
		return t ? error : rli_error_oom();
	return RLI_OK;
}

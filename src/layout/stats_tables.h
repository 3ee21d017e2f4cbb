/* stats_tables.h: the run's statistics as tables of text (title, header, cells), before any placement. */
#ifndef RLI_LAYOUT_STATS_TABLES_H
#define RLI_LAYOUT_STATS_TABLES_H

#include "layout.h"
#include "stats/stats.h"

#include <stddef.h>
#include <stdint.h>

/*
 * One table as a reader sees it, for any placement (a PDF page, the HTML
 * side panel) to lay out. Every string is owned by the table.
 *
 * Durations: each table writes all of its durations in one unit, the one its
 * longest single duration (a bar, a gap, a wait; not a sum) reads best in
 * (rli_time_unit_for: ms below 10 s, s below 10 min, min beyond), named in
 * the column's header ("Median (ms)"), and with one number of decimals, the
 * one that gives that longest duration four significant digits
 * (rli_fmt_decimals), thousands separated: "8,000", "5,030" in a table of
 * seconds-long bars written in ms; "12.35" in one in s. Percentages have one
 * decimal and say "(%)" in the header. A value that cannot be computed reads
 * "n/a".
 */
typedef struct {
	char *title;            /* "actor_update: phases across ranks" */
	size_t column_count, row_count;
	char **header;          /* column_count */
	char **cells;           /* row_count * column_count, row by row */
	rli_align *align;       /* column_count: numbers RLI_ALIGN_END */
	double *weight;         /* column_count: relative widths a placement may use (text columns wider) */
	int64_t *row_rank;      /* row_count: the rank a row names (a link target), INT64_MIN: none */
	uint32_t *row_role;     /* row_count: the role (string id) of that rank's row, UINT32_MAX: any of its rows */
	size_t rank_column;     /* the column that writes row_rank (the link's text), SIZE_MAX: rows name no rank */
	uint8_t *row_finding;   /* row_count: 1 for a row that is a finding (an outlier step, a straggler): emphasise it */
	size_t rows_left_out;   /* rows the table had but does not hold (max_rows, rli_stats_table_truncate) */
} rli_stats_table;

/* Every phase of the role (string id), the most total time first (ties by name): count, total, mean, median, min, max, std dev, Q1, Q3, the ranks at min and max, dispersion; in the longest bar's unit. */
int rli_stats_table_phases(rli_stats_table *out, const rli_stats *stats, uint32_t role);
/*
 * The role's steps: step, ranks, slowest rank, slowdown (%), outlier, modified z, slowest, median
 * (the finding first). Rows name the slowest rank. Every step in order when they are max_rows or
 * fewer (0: no bound); else only the max_rows slowed most, outliers first, and the title says
 * so ("the 30 steps slowed most of 1,000,000"): no table of a million rows is made to be cut.
 */
int rli_stats_table_steps(rli_stats_table *out, const rli_stats *stats, uint32_t role, size_t max_rows);
/* Ranks that were the slowest in a step: role, rank, slowest in N of M steps, outlier in, straggler; by role, then the most often slowest. */
int rli_stats_table_slowest(rli_stats_table *out, const rli_stats *stats);
/* The most idle ranks first (at most max_rows; 0: all): rank, gaps, idle, idle share of the run, longest gap and the phases either side; in the longest gap's unit. */
int rli_stats_table_bubbles(rli_stats_table *out, const rli_stats *stats, size_t max_rows);
/* Waits between roles: from, to, waits, mean, median, max, the rank that waited longest. */
int rli_stats_table_transitions(rli_stats_table *out, const rli_stats *stats);
/* Pairs of roles that ran at the same time: role, role, overlap, share of the run. */
int rli_stats_table_overlaps(rli_stats_table *out, const rli_stats *stats);

/* Keeps the first max_rows rows, counting the rest in rows_left_out. */
void rli_stats_table_truncate(rli_stats_table *table, size_t max_rows);
void rli_stats_table_dispose(rli_stats_table *table);

#endif

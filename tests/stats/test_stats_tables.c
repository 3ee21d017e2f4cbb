/* test_stats_tables.c: the statistics as tables of text, every cell worked out by hand (the sums are in the comments). */
#include "harness.h"
#include "stats_rows.h"
#include "layout/stats_tables.h"
#include "stats/stats.h"

#include <stdint.h>

static const char *cell(const rli_stats_table *t, size_t row, size_t column)
{
	if (row >= t->row_count || column >= t->column_count)
		return "(outside the table)";
	return t->cells[row * t->column_count + column];
}

/* The row's cells joined with '|', to compare a whole row at once. */
static const char *row_text(const rli_stats_table *t, size_t row)
{
	static char text[1024];
	size_t at = 0;
	text[0] = '\0';
	for (size_t c = 0; c < t->column_count; c++)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s", c ? "|" : "", cell(t, row, c));
	return text;
}

static const char *header_text(const rli_stats_table *t)
{
	static char text[1024];
	size_t at = 0;
	text[0] = '\0';
	for (size_t c = 0; c < t->column_count; c++)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s", c ? "|" : "", t->header[c]);
	return text;
}

/*
 * Two ranks, two roles:
 *   rank 0: actor/update [0, 10]   ref/log [40, 45]   actor/update [100, 120]
 *   rank 1: actor/update [0, 30]   ref/log [40, 45]   actor/update [100, 120]
 *   rank 0: actor/warmup [200, 201] (a second phase of actor, its third step)
 */
static rli_events *two_ranks(void)
{
	rli_events *ev = NULL;
	CHECK_INT(rli_events_new(&ev), 0);
	add(ev, "actor", "update", 0, 0, 10);
	add(ev, "actor", "update", 1, 0, 30);
	add(ev, "ref", "log", 0, 40, 5);
	add(ev, "ref", "log", 1, 40, 5);
	add(ev, "actor", "update", 0, 100, 20);
	add(ev, "actor", "update", 1, 100, 20);
	add(ev, "actor", "warmup", 0, 200, 1);
	return ev;
}

static void test_phases(const rli_stats *s, const rli_events *ev)
{
	rli_stats_table t;
	CHECK_INT(rli_stats_table_phases(&t, s, id_of(ev, "actor")), 0);
	CHECK_STR(t.title, "actor: phases across ranks");
	/* the longest bar is 30 ms: the table is in ms, with two decimals (four significant digits of 30) */
	CHECK_STR(header_text(&t), "Phase|Count|Total (ms)|Mean (ms)|Median (ms)|Min (ms)|Max (ms)|Std dev (ms)|Q1 (ms)|"
		  "Q3 (ms)|Min rank|Max rank|Dispersion");
	CHECK_INT(t.row_count, 2);
	/*
	 * update: 10 20 20 30 (rank 0 then 1 by step); total 80, mean 20, median 20, min 10 on rank 0,
	 * max 30 on rank 1, deviations -10 0 0 10: sqrt(200 / 3) = 8.16497; Q1 at 0.75 between 10 and 20
	 * = 17.5, Q3 at 2.25 between 20 and 30 = 22.5; dispersion (30 - 10) / 20 = 1. The most total first.
	 */
	CHECK_STR(row_text(&t, 0), "update|4|80.00|20.00|20.00|10.00|30.00|8.16|17.50|22.50|0|1|1.00");
	/* warmup: one bar of 1 ms on rank 0: no spread */
	CHECK_STR(row_text(&t, 1), "warmup|1|1.00|1.00|1.00|1.00|1.00|0.00|1.00|1.00|0|0|0.00");
	CHECK_INT(t.align[0], RLI_ALIGN_START);
	CHECK_INT(t.align[1], RLI_ALIGN_END);
	CHECK(t.weight[0] > t.weight[1]);
	CHECK(t.row_rank[0] == INT64_MIN);
	CHECK(t.rank_column == SIZE_MAX);
	rli_stats_table_dispose(&t);
}

static void test_steps(const rli_stats *s, const rli_events *ev)
{
	rli_stats_table t;
	CHECK_INT(rli_stats_table_steps(&t, s, id_of(ev, "actor"), 0), 0);
	CHECK_STR(header_text(&t), "Step|Ranks|Slowest rank|Slowdown (%)|Outlier|Modified z|Slowest (ms)|Median (ms)");
	CHECK_INT(t.row_count, 3);
	/* step 1: 10 and 30, median 20, rank 1 is 30 / 20 - 1 = 50% over; two ranks: no z-score */
	CHECK_STR(row_text(&t, 0), "1|2|1|50.0|no|n/a|30.00|20.00");
	/* step 2: 20 and 20, the lowest rank named among equals, 0% over */
	CHECK_STR(row_text(&t, 1), "2|2|0|0.0|no|n/a|20.00|20.00");
	/* step 3: rank 0's warmup alone */
	CHECK_STR(row_text(&t, 2), "3|1|0|0.0|no|n/a|1.00|1.00");
	CHECK_INT(t.row_rank[0], 1);
	CHECK_INT(t.row_role[0], id_of(ev, "actor"));
	CHECK_INT(t.row_rank[1], 0);
	CHECK_STR(t.header[t.rank_column], "Slowest rank");
	CHECK_INT(t.row_finding[0], 0); /* no outlier with two ranks */
	rli_stats_table_dispose(&t);
	/* Capped at 3, the table is whole, as it was. */
	CHECK_INT(rli_stats_table_steps(&t, s, id_of(ev, "actor"), 3), 0);
	CHECK_INT(t.row_count, 3);
	CHECK_STR(t.title, "actor: steps (step k is each rank's k-th bar)");
	CHECK_STR(row_text(&t, 1), "2|2|0|0.0|no|n/a|20.00|20.00");
	rli_stats_table_dispose(&t);
	/* Capped at 2: the steps slowed most (step 1's 50%, then the earlier of the two at 0%), and the title says so. */
	CHECK_INT(rli_stats_table_steps(&t, s, id_of(ev, "actor"), 2), 0);
	CHECK_INT(t.row_count, 2);
	CHECK_STR(t.title, "actor: the 2 steps slowed most of 3, outliers first (step k is each rank's k-th bar)");
	CHECK_STR(row_text(&t, 0), "1|2|1|50.0|no|n/a|30.00|20.00");
	CHECK_STR(row_text(&t, 1), "2|2|0|0.0|no|n/a|20.00|20.00");
	CHECK_INT(t.rows_left_out, 0);
	rli_stats_table_dispose(&t);
}

/* A million steps of one role: a capped table of the outliers first, then the most slowed, made without the rest. */
static void test_steps_capped(void)
{
	enum { STEPS = 200000 };
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	rli_stats_table t;
	CHECK_INT(rli_events_new(&ev), 0);
	for (size_t k = 0; k < STEPS; k++)
		for (int64_t rank = 0; rank < 4; rank++) {
			/* step 1,001 is an outlier on rank 3 (4x), step 8 on rank 2 (1.2x); the rest spread by a microsecond */
			double dur = k == 1000 && rank == 3 ? 40 : k == 7 && rank == 2 ? 12 : 10 + 0.001 * (double)rank;
			rli_event_in row = { "step", "actor", NULL, "1", 0, rank, (double)k * 100, dur };
			CHECK_INT(rli_events_append(ev, &row), 0);
		}
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK_INT(rli_stats_table_steps(&t, s, id_of(ev, "actor"), 30), 0);
	CHECK_INT(t.row_count, 30);
	CHECK_STR(t.title, "actor: the 30 steps slowed most of 200,000, outliers first (step k is each rank's k-th bar)");
	/* the outliers, the larger slowdown first: step 1,001 (4x), step 8 (1.2x); then the rest's equal slowdowns, earliest first */
	CHECK(strncmp(row_text(&t, 0), "1,001|4|3|299.9|yes|", 20) == 0);
	CHECK_INT(t.row_finding[0], 1);
	CHECK(strncmp(row_text(&t, 1), "8|4|2|20.0|yes|", 15) == 0);
	CHECK_INT(t.row_finding[1], 1);
	CHECK(strncmp(row_text(&t, 2), "1|4|3|0.0|no|", 13) == 0);
	CHECK(strncmp(row_text(&t, 29), "29|4|3|0.0|no|", 14) == 0);
	rli_stats_table_dispose(&t);
	rli_stats_free(s);
	rli_events_free(ev);
}

static void test_slowest(const rli_stats *s, const rli_events *ev)
{
	rli_stats_table t;
	CHECK_INT(rli_stats_table_slowest(&t, s), 0);
	CHECK_STR(header_text(&t), "Role|Rank|Slowest in (steps)|Outlier in (steps)|Straggler");
	/* actor: rank 0 slowest in steps 2 and 3, rank 1 in step 1; ref: rank 0 (a tie at 5 ms) */
	CHECK_INT(t.row_count, 3);
	CHECK_STR(row_text(&t, 0), "actor|0|2 of 3|0|no");
	CHECK_STR(row_text(&t, 1), "actor|1|1 of 3|0|no");
	CHECK_STR(row_text(&t, 2), "ref|0|1 of 1|0|no");
	CHECK_INT(t.row_rank[1], 1);
	CHECK_INT(t.row_role[2], id_of(ev, "ref"));
	CHECK_STR(t.header[t.rank_column], "Rank");
	rli_stats_table_dispose(&t);
}

static void test_bubbles(const rli_stats *s)
{
	rli_stats_table t;
	CHECK_INT(rli_stats_table_bubbles(&t, s, 0), 0);
	CHECK_STR(header_text(&t), "Rank|Gaps|Idle (ms)|Idle (% of run)|Longest gap (ms)|Between");
	/* in the longest gap's unit and precision (80 ms: ms, two decimals), not the idle sums' */
	CHECK_INT(t.row_count, 2);
	/*
	 * The run spans 0..201 ms. Rank 0: gaps 10..40, 45..100, 120..200: 30 + 55 + 80 = 165 ms,
	 * 165 / 201 = 82.09%; the longest, 80 ms, from update to warmup. Rank 1: 30..40, 45..100:
	 * 10 + 55 = 65 ms, 32.34%; the longest 55 ms from log to update. The most idle first.
	 */
	CHECK_STR(row_text(&t, 0), "0|3|165.00|82.1|80.00|update \xe2\x86\x92 warmup");
	CHECK_STR(row_text(&t, 1), "1|2|65.00|32.3|55.00|log \xe2\x86\x92 update");
	CHECK_INT(t.row_rank[0], 0);
	CHECK_INT(t.row_role[0], UINT32_MAX);
	CHECK_STR(t.header[t.rank_column], "Rank");
	rli_stats_table_dispose(&t);

	CHECK_INT(rli_stats_table_bubbles(&t, s, 1), 0);
	CHECK_INT(t.row_count, 1);
	CHECK_INT(t.rows_left_out, 1);
	CHECK_STR(cell(&t, 0, 0), "0");
	rli_stats_table_dispose(&t);
}

static void test_transitions_overlaps(const rli_stats *s, const rli_events *ev)
{
	rli_stats_table t;
	CHECK_INT(rli_stats_table_transitions(&t, s), 0);
	CHECK_STR(header_text(&t), "From|To|Waits|Mean (ms)|Median (ms)|Max (ms)|Longest wait rank");
	CHECK_INT(t.row_count, 2);
	/* actor -> ref: rank 0 waits 40 - 10 = 30, rank 1 40 - 30 = 10: mean and median 20, max 30 on rank 0 */
	CHECK_STR(row_text(&t, 0), "actor|ref|2|20.00|20.00|30.00|0");
	/* ref -> actor: both wait 100 - 45 = 55, the lowest rank named */
	CHECK_STR(row_text(&t, 1), "ref|actor|2|55.00|55.00|55.00|0");
	CHECK_INT(t.row_rank[0], 0);
	CHECK_INT(t.row_role[0], id_of(ev, "ref"));
	CHECK_STR(t.header[t.rank_column], "Longest wait rank");
	rli_stats_table_dispose(&t);

	CHECK_INT(rli_stats_table_overlaps(&t, s), 0);
	CHECK_STR(header_text(&t), "Role|With role|Overlap (ms)|Overlap (% of run)");
	/* actor [0, 30] [100, 120] [200, 201] and ref [40, 45] never meet: 0 ms, the longest, has no decimals */
	CHECK_INT(t.row_count, 1);
	CHECK_STR(row_text(&t, 0), "actor|ref|0|0.0");
	rli_stats_table_dispose(&t);
}

/* A 12,345.6 ms bar: past 10 s the table is in seconds, two decimals (12.35: four significant digits). */
static void test_units(void)
{
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	rli_stats_table t;
	CHECK_INT(rli_events_new(&ev), 0);
	add(ev, "train", "step", 0, 0, 12345.6);
	add(ev, "train", "step", 1, 0, 2000);
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK_INT(rli_stats_table_phases(&t, s, id_of(ev, "train")), 0);
	CHECK_STR(t.header[2], "Total (s)");
	/* total 14,345.6 ms, mean 7,172.8 ms, min 2 s on rank 1; dispersion 10,345.6 / 7,172.8 = 1.44 */
	CHECK_STR(row_text(&t, 0), "step|2|14.35|7.17|7.17|2.00|12.35|7.32|4.59|9.76|1|0|1.44");
	rli_stats_table_truncate(&t, 0);
	CHECK_INT(t.row_count, 0);
	CHECK_INT(t.rows_left_out, 1);
	rli_stats_table_dispose(&t);
	rli_stats_free(s);
	rli_events_free(ev);
}

int main(void)
{
	rli_events *ev = two_ranks();
	rli_stats *s = NULL;
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	if (s) {
		test_phases(s, ev);
		test_steps(s, ev);
		test_steps_capped();
		test_slowest(s, ev);
		test_bubbles(s);
		test_transitions_overlaps(s, ev);
	}
	rli_stats_free(s);
	rli_events_free(ev);
	test_units();
	return rli_test_failures ? 1 : 0;
}

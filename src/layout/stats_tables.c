/* stats_tables.c: the run's statistics as tables of text: one unit and one precision per table for durations, numbers right-aligned. */
#include "stats_tables.h"
#include "text_place.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A column: its header, whether it holds durations (then the table's unit is
 * added to the header), and whether it writes the rank its row names.
 */
typedef struct {
	const char *header;
	rli_align align;
	double weight;
	int duration, row_rank;
} column_def;

#define TEXT_COLUMN(h) { h, RLI_ALIGN_START, 2.0, 0, 0 }
#define NUMBER_COLUMN(h) { h, RLI_ALIGN_END, 1.0, 0, 0 }
#define DURATION_COLUMN(h) { h, RLI_ALIGN_END, 1.0, 1, 0 }
#define ROW_RANK_COLUMN(h) { h, RLI_ALIGN_END, 1.0, 0, 1 }
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Significant digits of a table's longest duration; the others get as many decimals. */
#define DURATION_DIGITS 4
#define PERCENT_DECIMALS 1

/* A table being filled: the next cell to write, the unit and the decimals its durations are written in. */
typedef struct {
	rli_stats_table *t;
	size_t at;
	rli_time_unit unit;
	int decimals;
} filler;

/* A role's or a phase's name. */
static const char *pool_str(const rli_stats *stats, uint32_t id)
{
	return rli_events_str(stats->events, id);
}

/*
 * Allocates the table's arrays for rows x the columns, writes the headers
 * (durations in the unit the longest single duration reads best in), and
 * takes the title. Rows name no rank until told.
 */
static int table_begin(filler *f, rli_stats_table *t, const column_def *columns, size_t column_count, size_t rows,
		       double longest_ms, char *title)
{
	rli_time_unit unit = rli_time_unit_for(longest_ms);
	memset(t, 0, sizeof(*t));
	f->t = t;
	f->at = 0;
	f->unit = unit;
	f->decimals = rli_fmt_decimals(longest_ms / unit.ms, DURATION_DIGITS);
	t->title = title;
	t->rank_column = SIZE_MAX;
	t->column_count = column_count;
	t->row_count = rows;
	t->header = calloc(column_count, sizeof(*t->header));
	t->cells = calloc(rows * column_count + 1, sizeof(*t->cells));
	t->align = calloc(column_count, sizeof(*t->align));
	t->weight = calloc(column_count, sizeof(*t->weight));
	t->row_rank = calloc(rows + 1, sizeof(*t->row_rank));
	t->row_role = calloc(rows + 1, sizeof(*t->row_role));
	t->row_finding = calloc(rows + 1, sizeof(*t->row_finding));
	if (!title || !t->header || !t->cells || !t->align || !t->weight || !t->row_rank || !t->row_role ||
	    !t->row_finding)
		return rli_error_oom();
	for (size_t c = 0; c < column_count; c++) {
		t->header[c] = columns[c].duration ? rli_strfmt("%s (%s)", columns[c].header, unit.name) :
			       rli_strdup(columns[c].header);
		if (!t->header[c])
			return rli_error_oom();
		t->align[c] = columns[c].align;
		t->weight[c] = columns[c].weight;
		if (columns[c].row_rank)
			t->rank_column = c;
	}
	for (size_t r = 0; r < rows; r++) {
		t->row_rank[r] = INT64_MIN;
		t->row_role[r] = UINT32_MAX;
	}
	return RLI_OK;
}

/* The next cell, a copy of text made valid UTF-8 (names come from traces). A failed copy is found by table_end. */
static void put_text(filler *f, const char *text)
{
	f->t->cells[f->at++] = rli_valid_utf8_copy(text ? text : "");
}

static void put_format(filler *f, const char *fmt, ...) RLI_PRINTF(2, 3);
static void put_format(filler *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	f->t->cells[f->at++] = rli_vstrfmt(fmt, ap);
	va_end(ap);
}

static void put_count(filler *f, double count)
{
	char text[64];
	put_text(f, rli_fmt_thousands(text, sizeof(text), count, 0));
}

static void put_number(filler *f, double value, int decimals)
{
	char text[64];
	put_text(f, rli_fmt_thousands(text, sizeof(text), value, decimals));
}

static void put_duration(filler *f, double ms)
{
	put_number(f, ms / f->unit.ms, f->decimals);
}

static void put_rank(filler *f, int64_t rank)
{
	put_format(f, "%lld", (long long)rank);
}

/* Every cell written: RLI_OK, or out of memory when a copy failed. */
static int table_end(filler *f)
{
	for (size_t i = 0; i < f->t->row_count * f->t->column_count; i++)
		if (!f->t->cells[i])
			return rli_error_oom();
	return RLI_OK;
}

/* ---- per role: phases and steps ---------------------------------------- */

/*
 * The sorts below order pointers into one of the statistics' arrays, so a tie
 * falls back on the pointers themselves: the statistics' own order.
 */
#define SAME_ARRAY_ORDER(x, y) (((x) > (y)) - ((x) < (y)))

/* Phases by total time, the largest first; ties keep the statistics' order (by name). */
static int compare_phase_total(const void *a, const void *b)
{
	const rli_phase_stats *x = *(const rli_phase_stats *const *)a, *y = *(const rli_phase_stats *const *)b;
	if (x->duration.total != y->duration.total)
		return x->duration.total > y->duration.total ? -1 : 1;
	return SAME_ARRAY_ORDER(x, y);
}

int rli_stats_table_phases(rli_stats_table *out, const rli_stats *stats, uint32_t role)
{
	static const column_def columns[] = {
		TEXT_COLUMN("Phase"), NUMBER_COLUMN("Count"), DURATION_COLUMN("Total"), DURATION_COLUMN("Mean"),
		DURATION_COLUMN("Median"), DURATION_COLUMN("Min"), DURATION_COLUMN("Max"),
		DURATION_COLUMN("Std dev"), DURATION_COLUMN("Q1"), DURATION_COLUMN("Q3"),
		NUMBER_COLUMN("Min rank"), NUMBER_COLUMN("Max rank"), NUMBER_COLUMN("Dispersion"),
	};
	const rli_phase_stats **order;
	size_t rows = 0;
	double longest = 0;
	filler f;
	int error;

	order = malloc((stats->phase_count + 1) * sizeof(*order));
	if (!order) {
		memset(out, 0, sizeof(*out));
		return rli_error_oom();
	}
	for (size_t i = 0; i < stats->phase_count; i++)
		if (stats->phases[i].role == role) {
			order[rows++] = &stats->phases[i];
			longest = fmax(longest, stats->phases[i].duration.max);
		}
	qsort(order, rows, sizeof(*order), compare_phase_total);
	error = table_begin(&f, out, columns, COUNT_OF(columns), rows, longest,
			    rli_strfmt("%s: phases across ranks", pool_str(stats, role)));
	for (size_t r = 0; error == RLI_OK && r < rows; r++) {
		const rli_phase_stats *p = order[r];
		const rli_distribution *d = &p->duration;
		put_text(&f, pool_str(stats, p->name));
		put_count(&f, (double)d->count);
		put_duration(&f, d->total);
		put_duration(&f, d->mean);
		put_duration(&f, d->median);
		put_duration(&f, d->min);
		put_duration(&f, d->max);
		put_duration(&f, d->stddev);
		put_duration(&f, d->q1);
		put_duration(&f, d->q3);
		put_rank(&f, d->min_rank);
		put_rank(&f, d->max_rank);
		put_number(&f, d->dispersion, 2);
	}
	free(order);
	return error < 0 ? error : table_end(&f);
}

/* Which of two steps a capped table shows first: an outlier, then the larger slowdown, then the earlier step. */
static int step_before(const rli_step_stats *a, const rli_step_stats *b)
{
	if ((a->outlier != 0) != (b->outlier != 0))
		return a->outlier != 0;
	if (a->slowdown != b->slowdown)
		return a->slowdown > b->slowdown;
	return a->step < b->step;
}

/*
 * The role's steps to show when they are more than max_rows: the max_rows it shows first
 * (step_before), found in one pass that keeps them in order (few pass the last one kept).
 * Their indices into stats->steps go to keep; returns how many.
 */
static size_t pick_steps(size_t *keep, size_t max_rows, const rli_stats *stats, uint32_t role)
{
	size_t kept = 0;
	for (size_t i = 0; i < stats->step_count; i++) {
		const rli_step_stats *s = &stats->steps[i];
		size_t at;
		if (s->role != role || (kept == max_rows && !step_before(s, &stats->steps[keep[kept - 1]])))
			continue;
		at = kept < max_rows ? kept++ : kept - 1;
		while (at > 0 && step_before(s, &stats->steps[keep[at - 1]])) {
			keep[at] = keep[at - 1];
			at--;
		}
		keep[at] = i;
	}
	return kept;
}

int rli_stats_table_steps(rli_stats_table *out, const rli_stats *stats, uint32_t role, size_t max_rows)
{
	static const column_def columns[] = {
		NUMBER_COLUMN("Step"), NUMBER_COLUMN("Ranks"), ROW_RANK_COLUMN("Slowest rank"),
		NUMBER_COLUMN("Slowdown (%)"), TEXT_COLUMN("Outlier"), NUMBER_COLUMN("Modified z"),
		DURATION_COLUMN("Slowest"), DURATION_COLUMN("Median"),
	};
	size_t rows = 0, r = 0, *keep = NULL;
	double longest = 0;
	char *title;
	filler f;
	int error;

	for (size_t i = 0; i < stats->step_count; i++)
		if (stats->steps[i].role == role)
			rows++;
	if (max_rows && rows > max_rows) {
		/* A reader stops long before a million steps: those to look at, and the table says so. */
		char all[32];
		if (!(keep = malloc(max_rows * sizeof(*keep))))
			return rli_error_oom();
		rli_fmt_thousands(all, sizeof(all), (double)rows, 0);
		title = rli_strfmt("%s: the %zu steps slowed most of %s, outliers first (step k is each rank's k-th bar)",
				   pool_str(stats, role), max_rows, all);
		rows = pick_steps(keep, max_rows, stats, role);
	} else {
		title = rli_strfmt("%s: steps (step k is each rank's k-th bar)", pool_str(stats, role));
	}
	for (size_t k = 0, i = 0; k < rows; i++) {
		const rli_step_stats *s = &stats->steps[keep ? keep[k] : i];
		if (s->role != role)
			continue;
		longest = fmax(longest, s->slowest_ms);
		k++;
	}
	error = table_begin(&f, out, columns, COUNT_OF(columns), rows, longest, title);
	for (size_t k = 0, i = 0; error == RLI_OK && k < rows; i++) {
		const rli_step_stats *s = &stats->steps[keep ? keep[k] : i];
		if (s->role != role)
			continue;
		k++;
		put_count(&f, (double)s->step);
		put_count(&f, (double)s->ranks);
		put_rank(&f, s->slowest_rank);
		put_number(&f, 100 * s->slowdown, PERCENT_DECIMALS);
		put_text(&f, s->outlier ? "yes" : "no");
		put_number(&f, s->modified_z, 2);
		put_duration(&f, s->slowest_ms);
		put_duration(&f, s->median_ms);
		out->row_rank[r] = s->slowest_rank;
		out->row_finding[r] = (uint8_t)(s->outlier != 0);
		out->row_role[r++] = role;
	}
	free(keep);
	return error < 0 ? error : table_end(&f);
}

/* ---- across roles ------------------------------------------------------- */

/* By role (the statistics' order), then the most often slowest, then the lowest rank. */
static int compare_slowest(const void *a, const void *b)
{
	const rli_rank_slowest *x = *(const rli_rank_slowest *const *)a, *y = *(const rli_rank_slowest *const *)b;
	if (x->role != y->role)
		return SAME_ARRAY_ORDER(x, y);
	if (x->slowest != y->slowest)
		return x->slowest > y->slowest ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

int rli_stats_table_slowest(rli_stats_table *out, const rli_stats *stats)
{
	static const column_def columns[] = {
		TEXT_COLUMN("Role"), ROW_RANK_COLUMN("Rank"), NUMBER_COLUMN("Slowest in (steps)"),
		NUMBER_COLUMN("Outlier in (steps)"), TEXT_COLUMN("Straggler"),
	};
	const rli_rank_slowest **order = malloc((stats->slowest_count + 1) * sizeof(*order));
	filler f;
	int error;

	if (!order) {
		memset(out, 0, sizeof(*out));
		return rli_error_oom();
	}
	for (size_t i = 0; i < stats->slowest_count; i++)
		order[i] = &stats->slowest[i];
	qsort(order, stats->slowest_count, sizeof(*order), compare_slowest);
	error = table_begin(&f, out, columns, COUNT_OF(columns), stats->slowest_count, 0,
			    rli_strdup("Ranks that were the slowest of a step"));
	for (size_t r = 0; error == RLI_OK && r < stats->slowest_count; r++) {
		const rli_rank_slowest *s = order[r];
		put_text(&f, pool_str(stats, s->role));
		put_rank(&f, s->rank);
		put_format(&f, "%zu of %zu", s->slowest, s->steps);
		put_count(&f, (double)s->outlier);
		put_text(&f, s->straggler ? "yes" : "no");
		out->row_rank[r] = s->rank;
		out->row_role[r] = s->role;
		out->row_finding[r] = (uint8_t)(s->straggler != 0);
	}
	free(order);
	return error < 0 ? error : table_end(&f);
}

/* The most idle first, then the lowest rank. */
static int compare_idle(const void *a, const void *b)
{
	const rli_rank_bubbles *x = *(const rli_rank_bubbles *const *)a, *y = *(const rli_rank_bubbles *const *)b;
	if (x->idle_ms != y->idle_ms)
		return x->idle_ms > y->idle_ms ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Percent of the run's span, or NAN when the run has none. */
static double share_of_run(const rli_stats *stats, double ms)
{
	double span = stats->end_ms - stats->start_ms;
	return span > 0 ? 100 * ms / span : NAN;
}

int rli_stats_table_bubbles(rli_stats_table *out, const rli_stats *stats, size_t max_rows)
{
	static const column_def columns[] = {
		ROW_RANK_COLUMN("Rank"), NUMBER_COLUMN("Gaps"), DURATION_COLUMN("Idle"), NUMBER_COLUMN("Idle (% of run)"),
		DURATION_COLUMN("Longest gap"), TEXT_COLUMN("Between"),
	};
	const rli_rank_bubbles **order = malloc((stats->bubble_count + 1) * sizeof(*order));
	size_t rows = stats->bubble_count;
	double longest = 0;
	filler f;
	int error;

	if (!order) {
		memset(out, 0, sizeof(*out));
		return rli_error_oom();
	}
	for (size_t i = 0; i < stats->bubble_count; i++) {
		order[i] = &stats->bubbles[i];
		if (stats->bubbles[i].longest_count)
			longest = fmax(longest, stats->bubbles[i].longest[0].duration_ms);
	}
	qsort(order, rows, sizeof(*order), compare_idle);
	if (max_rows && rows > max_rows)
		rows = max_rows;
	error = table_begin(&f, out, columns, COUNT_OF(columns), rows, longest,
			    rli_strdup("Idle gaps per rank, the most idle first"));
	out->rows_left_out = stats->bubble_count - rows;
	for (size_t r = 0; error == RLI_OK && r < rows; r++) {
		const rli_rank_bubbles *b = order[r];
		put_rank(&f, b->rank);
		put_count(&f, (double)b->gaps);
		put_duration(&f, b->idle_ms);
		put_number(&f, share_of_run(stats, b->idle_ms), PERCENT_DECIMALS);
		if (b->longest_count) {
			put_duration(&f, b->longest[0].duration_ms);
			put_format(&f, "%s \xe2\x86\x92 %s", pool_str(stats, b->longest[0].before),
				   pool_str(stats, b->longest[0].after));
		} else {
			put_text(&f, "");
			put_text(&f, "");
		}
		out->row_rank[r] = b->rank;
	}
	free(order);
	return error < 0 ? error : table_end(&f);
}

int rli_stats_table_transitions(rli_stats_table *out, const rli_stats *stats)
{
	static const column_def columns[] = {
		TEXT_COLUMN("From"), TEXT_COLUMN("To"), NUMBER_COLUMN("Waits"), DURATION_COLUMN("Mean"),
		DURATION_COLUMN("Median"), DURATION_COLUMN("Max"), ROW_RANK_COLUMN("Longest wait rank"),
	};
	double longest = 0;
	filler f;
	int error;

	for (size_t i = 0; i < stats->transition_count; i++)
		longest = fmax(longest, stats->transitions[i].wait.max);
	error = table_begin(&f, out, columns, COUNT_OF(columns), stats->transition_count, longest,
			    rli_strdup("Waits between roles (from a rank's end of one role to its next start of another)"));
	for (size_t r = 0; error == RLI_OK && r < stats->transition_count; r++) {
		const rli_transition_stats *t = &stats->transitions[r];
		put_text(&f, pool_str(stats, t->from_role));
		put_text(&f, pool_str(stats, t->to_role));
		put_count(&f, (double)t->wait.count);
		put_duration(&f, t->wait.mean);
		put_duration(&f, t->wait.median);
		put_duration(&f, t->wait.max);
		put_rank(&f, t->wait.max_rank);
		/* the rank waited before its bar of to_role: that row shows the gap */
		out->row_rank[r] = t->wait.max_rank;
		out->row_role[r] = t->to_role;
	}
	return error < 0 ? error : table_end(&f);
}

int rli_stats_table_overlaps(rli_stats_table *out, const rli_stats *stats)
{
	static const column_def columns[] = {
		TEXT_COLUMN("Role"), TEXT_COLUMN("With role"), DURATION_COLUMN("Overlap"),
		NUMBER_COLUMN("Overlap (% of run)"),
	};
	double longest = 0;
	filler f;
	int error;

	for (size_t i = 0; i < stats->overlap_count; i++)
		longest = fmax(longest, stats->overlaps[i].overlap_ms);
	error = table_begin(&f, out, columns, COUNT_OF(columns), stats->overlap_count, longest,
			    rli_strdup("Roles running at the same time"));
	for (size_t r = 0; error == RLI_OK && r < stats->overlap_count; r++) {
		const rli_role_overlap *o = &stats->overlaps[r];
		put_text(&f, pool_str(stats, o->role_a));
		put_text(&f, pool_str(stats, o->role_b));
		put_duration(&f, o->overlap_ms);
		put_number(&f, share_of_run(stats, o->overlap_ms), PERCENT_DECIMALS);
	}
	return error < 0 ? error : table_end(&f);
}

/* ---- both ends ---------------------------------------------------------- */

void rli_stats_table_truncate(rli_stats_table *table, size_t max_rows)
{
	if (table->row_count <= max_rows)
		return;
	for (size_t i = max_rows * table->column_count; table->cells && i < table->row_count * table->column_count; i++) {
		free(table->cells[i]);
		table->cells[i] = NULL;
	}
	table->rows_left_out += table->row_count - max_rows;
	table->row_count = max_rows;
}

void rli_stats_table_dispose(rli_stats_table *table)
{
	if (!table)
		return;
	for (size_t c = 0; table->header && c < table->column_count; c++)
		free(table->header[c]);
	for (size_t i = 0; table->cells && i < table->row_count * table->column_count; i++)
		free(table->cells[i]);
	free(table->title);
	free(table->header);
	free(table->cells);
	free(table->align);
	free(table->weight);
	free(table->row_rank);
	free(table->row_role);
	free(table->row_finding);
	memset(table, 0, sizeof(*table));
}

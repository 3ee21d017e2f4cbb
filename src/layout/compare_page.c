/* compare_page.c: the compare page's content: both runs' timelines laid out, and the phase changes as a table a reader sorts. */
#include "compare_page.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "theme.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISSING "\xe2\x80\x94" /* an em dash: the run lacks the phase */

enum { COL_ROLE, COL_PHASE, COL_RANK, COL_BASELINE, COL_CURRENT, COL_CHANGE, COL_RATIO, COL_NOISE, COL_VERDICT };

static const char *const headers[RLI_COMPARE_COLUMNS] = {
	"Role", "Phase", "Rank", "Baseline median", "Current median", "Change", "Ratio", "Noise", "Verdict",
};
static const rli_align aligns[RLI_COMPARE_COLUMNS] = {
	RLI_ALIGN_START, RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END,
	RLI_ALIGN_END, RLI_ALIGN_START, RLI_ALIGN_START,
};

/* Where a verdict's rows go by default: what a reader must see first, first. */
static int verdict_group(rli_verdict verdict)
{
	switch (verdict) {
	case RLI_VERDICT_REGRESSION: return 0;
	case RLI_VERDICT_IMPROVEMENT: return 1;
	case RLI_VERDICT_ONE_SIDE: return 2;
	case RLI_VERDICT_SAME: break;
	}
	return 3;
}

/* A ratio to sort by: NAN (a baseline median of 0) as the change's sign, beyond any finite ratio. */
static double ratio_key(const rli_phase_change *p)
{
	if (!isnan(p->ratio))
		return p->ratio;
	return p->change_ms > 0 ? INFINITY : p->change_ms < 0 ? -INFINITY : 0;
}

static int compare_rows(const void *a, const void *b)
{
	const rli_phase_change *x = ((const rli_compare_row *)a)->change, *y = ((const rli_compare_row *)b)->change;
	int gx = verdict_group(x->verdict), gy = verdict_group(y->verdict), order;

	if (gx != gy)
		return gx - gy;
	if (gx <= 1) {
		/* the largest slowdown first among regressions, the largest gain first among improvements */
		double rx = ratio_key(x), ry = ratio_key(y);
		if (rx != ry)
			return (gx == 0 ? rx < ry : rx > ry) ? 1 : -1;
	}
	if ((order = strcmp(x->role, y->role)) != 0 || (order = strcmp(x->name, y->name)) != 0)
		return order;
	if (x->per_rank != y->per_rank)
		return x->per_rank - y->per_rank;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static char *signed_duration(double ms)
{
	char text[48];
	return rli_strdup(rli_fmt_duration_change(text, sizeof(text), ms));
}

static char *median_cell(const rli_side_sample *sample, int present)
{
	char text[48];
	if (!present)
		return rli_strdup(MISSING);
	return rli_strdup(rli_fmt_duration(text, sizeof(text), sample->median_ms));
}

/* The cells and keys of one phase change. */
static int fill_row(rli_compare_row *row, const rli_phase_change *p, const rli_compare_table *table)
{
	int both = p->presence == RLI_IN_BOTH;
	int has_baseline = p->presence != RLI_ADDED, has_current = p->presence != RLI_REMOVED;
	char ratio[32];

	row->change = p;
	for (int c = 0; c < RLI_COMPARE_COLUMNS; c++)
		row->keys[c] = NAN;
	row->cells[COL_ROLE] = rli_strdup(p->role);
	row->cells[COL_PHASE] = rli_strdup(p->name);
	row->cells[COL_RANK] = p->per_rank ? rli_strfmt("%" PRId64, p->rank) : rli_strdup("all");
	/* "all" before every rank */
	row->keys[COL_RANK] = p->per_rank ? (double)p->rank : -1.0;
	row->cells[COL_BASELINE] = median_cell(&p->baseline, has_baseline);
	row->cells[COL_CURRENT] = median_cell(&p->current, has_current);
	if (has_baseline)
		row->keys[COL_BASELINE] = p->baseline.median_ms;
	if (has_current)
		row->keys[COL_CURRENT] = p->current.median_ms;
	if (both) {
		row->cells[COL_CHANGE] = signed_duration(p->change_ms);
		row->keys[COL_CHANGE] = p->change_ms;
		row->cells[COL_RATIO] = isnan(p->ratio) ? rli_strdup(MISSING) : rli_strdup(rli_fmt_change(ratio, sizeof(ratio), p->ratio));
		row->keys[COL_RATIO] = isnan(p->ratio) ? NAN : p->ratio;
		row->cells[COL_NOISE] = rli_strdup(rli_noise_name(p->noise));
	} else {
		row->cells[COL_CHANGE] = rli_strdup(MISSING);
		row->cells[COL_RATIO] = rli_strdup(MISSING);
		row->cells[COL_NOISE] = rli_strdup(MISSING);
	}
	row->cells[COL_VERDICT] = rli_strdup(p->verdict == RLI_VERDICT_ONE_SIDE ? rli_presence_name(p->presence) :
					     rli_verdict_name(p->verdict));
	row->color = p->verdict == RLI_VERDICT_REGRESSION ? table->regression_color :
		     p->verdict == RLI_VERDICT_IMPROVEMENT ? table->improvement_color : table->text_color;
	for (int c = 0; c < RLI_COMPARE_COLUMNS; c++)
		if (!row->cells[c])
			return rli_error_oom();
	return RLI_OK;
}

int rli_compare_table_build(rli_compare_table **out, const rli_comparison *comparison)
{
	rli_compare_table *table = calloc(1, sizeof(*table));
	size_t count = comparison->phase_count + comparison->rank_phase_count;
	int error = RLI_OK;

	*out = NULL;
	if (!table || !(table->rows = calloc(count ? count : 1, sizeof(*table->rows)))) {
		error = rli_error_oom();
		goto done;
	}
	memcpy(table->header, headers, sizeof(headers));
	memcpy(table->align, aligns, sizeof(aligns));
	table->regression_color = REGRESSION_COLOR;
	table->improvement_color = IMPROVEMENT_COLOR;
	table->text_color = TEXT_COLOR;
	for (size_t i = 0; i < count && error == RLI_OK; i++) {
		const rli_phase_change *p = i < comparison->phase_count ? &comparison->phases[i] :
					    &comparison->rank_phases[i - comparison->phase_count];
		table->row_count++;
		error = fill_row(&table->rows[i], p, table);
	}
	if (error == RLI_OK)
		qsort(table->rows, table->row_count, sizeof(*table->rows), compare_rows);
done:
	if (error == RLI_OK)
		*out = table;
	else
		rli_compare_table_free(table);
	return error;
}

void rli_compare_table_free(rli_compare_table *table)
{
	if (!table)
		return;
	for (size_t i = 0; i < table->row_count; i++)
		for (int c = 0; c < RLI_COMPARE_COLUMNS; c++)
			free(table->rows[i].cells[c]);
	free(table->rows);
	free(table);
}

/* Why a run has no bars to draw. */
static const char *const SUMMARY_NOTE = "the baseline is a summary.json: statistics only, no bars to draw";

static int lay_out_run(rli_compare_run *run, const char *what, const rli_compare_side *side, const rli_events *events,
		       const struct rli_stats *stats, const rli_timeline_options *options)
{
	if (!(run->heading = rli_strfmt("%s: %s", what, side->path)))
		return rli_error_oom();
	if (!events) {
		run->note = side->source == RLI_SIDE_SUMMARY ? SUMMARY_NOTE : "this run has no timeline";
		return RLI_OK;
	}
	return rli_timeline_layout_stats(&run->timeline, events, stats, options);
}

int rli_compare_page_layout(rli_compare_page **out, const rli_comparison *comparison,
			    const rli_events *baseline_events, const struct rli_stats *baseline_stats,
			    const rli_events *current_events, const struct rli_stats *current_stats,
			    const rli_timeline_options *options)
{
	rli_timeline_options every_row = *options;
	rli_compare_page *page = calloc(1, sizeof(*page));
	int error;

	*out = NULL;
	if (!page)
		return rli_error_oom();
	/* The page scrolls its rows and shows the findings in its table: every row, no caption. */
	every_row.overview = 0;
	every_row.caption = 0;
	if (!(page->title = rli_strfmt("Comparison: %s against %s", comparison->current->path,
				       comparison->baseline->path))) {
		error = rli_error_oom();
		goto done;
	}
	if (comparison->timeline &&
	    ((error = lay_out_run(&page->runs[0], "Baseline", comparison->baseline, baseline_events, baseline_stats,
				  &every_row)) < 0 ||
	     (error = lay_out_run(&page->runs[1], "Current", comparison->current, current_events, current_stats,
				  &every_row)) < 0))
		goto done;
	if ((error = rli_compare_table_build(&page->table, comparison)) < 0)
		goto done;
	if (comparison->memory)
		error = rli_compare_memory_build(&page->memory, comparison);
done:
	if (error == RLI_OK)
		*out = page;
	else
		rli_compare_page_free(page);
	return error;
}

void rli_compare_page_free(rli_compare_page *page)
{
	if (!page)
		return;
	free(page->title);
	for (int r = 0; r < 2; r++) {
		free(page->runs[r].heading);
		rli_timeline_free(page->runs[r].timeline);
	}
	rli_compare_table_free(page->table);
	rli_compare_memory_free(page->memory);
	free(page);
}

/* compare_figure.c: compare.png laid out: a lane pair per phase (baseline above, this run below) on an axis of percent of the baseline's median. */
#include "compare_figure.h"
#include "medium.h"
#include "memory_parts.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMP_TITLE_Y 40.0
#define CMP_SUBTITLE_Y 74.0
#define CMP_SUBTITLE_SIZE 14.0
#define CMP_LEGEND_Y 108.0
#define CMP_PLOT_TOP 136.0
#define CMP_LANE_PITCH 17.0
#define CMP_LANES_PER_PHASE 3      /* baseline, this run, a blank lane between pairs */
#define CMP_VALUE_GAP 14.0         /* plot edge to the written values */
#define CMP_CHANGE_COLUMN 86.0     /* the change's column, before the medians */
#define CMP_NOTE_SIZE 13.0
#define CMP_NOTE_LINE 20.0
#define CMP_MEDIAN_COLOR 0x2a3f5f
#define CMP_ZERO_COLOR 0x555555
#define CMP_AXIS_LIMIT 400.0       /* percent: a spread past this is cut at the plot's edge */

enum { SERIES_BASELINE, SERIES_REGRESSION, SERIES_IMPROVEMENT, SERIES_SAME, SERIES_COUNT };

struct rli_compare_figure {
	rli_document document;
	rli_page page;
	rli_item *items;
	size_t item_count;
	rli_text title, subtitle;
	rli_text *notes;            /* per phase its change and medians, then what one run has alone */
	size_t note_count;
	rli_panel panel;
	rli_series series[SERIES_COUNT];
	rli_legend legend;
	rli_series legend_series[SERIES_COUNT];
	rli_line_mark zero;
	double zero_x[2], zero_y[2];
	rli_point_mark *medians;
	size_t median_count;
};

char *rli_compare_phase_label(char *out, size_t size, const rli_phase_change *p)
{
	char rank[48] = "";
	if (p->per_rank)
		snprintf(rank, sizeof(rank), " on rank %lld", (long long)p->rank);
	if (strcmp(p->role, p->name) == 0)
		snprintf(out, size, "%s%s", p->name, rank);
	else
		snprintf(out, size, "%s / %s%s", p->role, p->name, rank);
	return out;
}

/* Regressions first (the largest first), then improvements (the largest first), then the largest changes. */
static int drawn_order(const void *pa, const void *pb)
{
	const rli_phase_change *a = *(const rli_phase_change *const *)pa, *b = *(const rli_phase_change *const *)pb;
	static const int rank_of[] = { [RLI_VERDICT_REGRESSION] = 0, [RLI_VERDICT_IMPROVEMENT] = 1,
				       [RLI_VERDICT_SAME] = 2, [RLI_VERDICT_ONE_SIDE] = 3 };
	double x = fabs(a->ratio), y = fabs(b->ratio);
	if (rank_of[a->verdict] != rank_of[b->verdict])
		return rank_of[a->verdict] - rank_of[b->verdict];
	if (a->per_rank != b->per_rank)
		return a->per_rank - b->per_rank;
	if (x != y)
		return x > y ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The phases drawn: over all ranks in both runs, and the ranks whose phase changed beyond the noise. */
static size_t pick(const rli_phase_change **out, const rli_comparison *c, size_t *left_out)
{
	size_t n = 0, all = 0;
	for (size_t i = 0; i < c->phase_count; i++)
		if (c->phases[i].presence == RLI_IN_BOTH && isfinite(c->phases[i].ratio))
			out[n++] = &c->phases[i];
	for (size_t i = 0; i < c->rank_phase_count; i++)
		if (c->rank_phases[i].verdict == RLI_VERDICT_REGRESSION || c->rank_phases[i].verdict == RLI_VERDICT_IMPROVEMENT)
			out[n++] = &c->rank_phases[i];
	all = n;
	qsort(out, n, sizeof(*out), drawn_order);
	if (n > RLI_COMPARE_FIGURE_MAX_PHASES)
		n = RLI_COMPARE_FIGURE_MAX_PHASES;
	*left_out = all - n;
	return n;
}

static double percent(double value, double base)
{
	double p = (value / base - 1) * 100;
	return fmax(-CMP_AXIS_LIMIT, fmin(CMP_AXIS_LIMIT, p));
}

static int series_of(const rli_phase_change *p)
{
	return p->verdict == RLI_VERDICT_REGRESSION ? SERIES_REGRESSION :
	       p->verdict == RLI_VERDICT_IMPROVEMENT ? SERIES_IMPROVEMENT : SERIES_SAME;
}

static int add_note(rli_compare_figure *f, const char *text, double x, double y, double size, int bold,
		    rli_color color, double max_width)
{
	rli_text *note = &f->notes[f->note_count];
	int error = rli_set_text(note, text, x, y, size, RLI_ALIGN_START, RLI_ALIGN_MIDDLE);
	if (error < 0)
		return error;
	note->bold = bold;
	note->color = color;
	note->max_width = max_width;
	f->note_count++;
	return RLI_OK;
}

/* "Only in this run: ...", "Only in the baseline: ..." for phases and roles one run has alone. */
static char *one_side_list(const rli_comparison *c, rli_presence which)
{
	char *list = rli_strdup(""), label[512];
	size_t count = 0;
	for (size_t i = 0; list && i < c->role_count; i++)
		if (c->roles[i].presence == which) {
			char *longer = rli_strfmt("%s%srole %s", list, count++ ? ", " : "", c->roles[i].role);
			free(list);
			list = longer;
		}
	for (size_t i = 0; list && i < c->phase_count; i++)
		if (c->phases[i].presence == which) {
			char *longer = rli_strfmt("%s%s%s", list, count++ ? ", " : "",
						  rli_compare_phase_label(label, sizeof(label), &c->phases[i]));
			free(list);
			list = longer;
		}
	if (list && count == 0) {
		free(list);
		return rli_strdup("");
	}
	return list;
}

/* The x axis: percent of the baseline's median, "+20%" labels, zero always in range. */
static int x_axis(rli_panel *panel, double lo, double hi)
{
	rli_tick ticks[MAX_TICKS];
	int target = (int)fmin(MAX_TICKS - 1, fmax(2.0, round(panel->plot.w / TICK_SPACING)));
	size_t count = rli_nice_ticks(ticks, MAX_TICKS, lo, hi, target);
	for (size_t i = 0; i < count; i++) {
		double v = fabs(ticks[i].value) < 1e-9 ? 0 : ticks[i].value;
		snprintf(ticks[i].label, sizeof(ticks[i].label), v == 0 ? "0%%" : "%+g%%", v);
	}
	return rli_memory_panel_x_axis(panel, ticks, count, target, lo, hi, 1);
}

static int lay_out(rli_compare_figure *f, const rli_comparison *c, const rli_timeline_options *options,
		   PangoContext *text)
{
	/* calloc: no slot of it is ever read unset, even with nothing drawn */
	const rli_phase_change **drawn = calloc(c->phase_count + c->rank_phase_count + 1, sizeof(*drawn));
	rli_panel *panel = &f->panel;
	size_t left_out = 0, n, lanes;
	double width = fmax(300.0, (double)options->width), label_width = 0, value_width = 0, w, h, lo = 0, hi = 0;
	double left, right, plot_top, plot_bottom, y, height, raster_scale = options->scale;
	static const char *const names[SERIES_COUNT] = { "Baseline", "Slower (regression)", "Faster (improvement)",
							 "Unchanged (within noise, or below the threshold)" };
	static const rli_color colors[SERIES_COUNT] = { RLI_COMPARE_BASELINE_COLOR, REGRESSION_COLOR,
							IMPROVEMENT_COLOR, RLI_COMPARE_SAME_COLOR };
	rli_line_mark named[SERIES_COUNT];
	size_t legend_rows;
	char label[512], values[256], *only_current = NULL, *only_baseline = NULL, *line = NULL;
	int error = RLI_OK;

	if (!drawn)
		return rli_error_oom();
	n = pick(drawn, c, &left_out);
	lanes = n ? n * CMP_LANES_PER_PHASE - 1 : 1;

	/* What is written beside the lanes decides the plot's width. */
	for (size_t i = 0; i < n; i++) {
		char before[32], after[32];
		rli_text_measure(&w, &h, text, rli_compare_phase_label(label, sizeof(label), drawn[i]), ROW_LABEL_SIZE, 0);
		label_width = fmax(label_width, w);
		snprintf(values, sizeof(values), "%s \xe2\x86\x92 %s, %s",
			 rli_fmt_duration(before, sizeof(before), drawn[i]->baseline.median_ms),
			 rli_fmt_duration(after, sizeof(after), drawn[i]->current.median_ms), rli_noise_name(drawn[i]->noise));
		rli_text_measure(&w, &h, text, values, ROW_LABEL_SIZE, 0);
		value_width = fmax(value_width, w);
		lo = fmin(lo, fmin(percent(drawn[i]->baseline.q1_ms, drawn[i]->baseline.median_ms),
				   percent(drawn[i]->current.q1_ms, drawn[i]->baseline.median_ms)));
		hi = fmax(hi, fmax(percent(drawn[i]->baseline.q3_ms, drawn[i]->baseline.median_ms),
				   percent(drawn[i]->current.q3_ms, drawn[i]->baseline.median_ms)));
		lo = fmin(lo, percent(drawn[i]->current.median_ms, drawn[i]->baseline.median_ms));
		hi = fmax(hi, percent(drawn[i]->current.median_ms, drawn[i]->baseline.median_ms));
	}
	label_width = fmin(label_width, 0.3 * width);
	value_width = fmin(value_width, 0.3 * width);
	if (hi - lo < 10) {
		lo = fmin(lo, -5);
		hi = fmax(hi, 5);
	}
	{
		double pad = 0.06 * (hi - lo);
		lo -= pad;
		hi += pad;
	}
	/* A narrow page keeps the change beside each pair and drops the medians written out, when they would
	 * leave the plot less than 40% of the width; then labels give way down to the smallest plot. */
	if (width - 2 * PAGE_PAD - label_width - ROW_LABEL_GAP - CMP_CHANGE_COLUMN - CMP_VALUE_GAP - value_width <
	    0.4 * width)
		value_width = 0;
	left = PAGE_PAD + label_width + ROW_LABEL_GAP;
	right = width - PAGE_PAD - value_width - CMP_CHANGE_COLUMN - CMP_VALUE_GAP;
	if (right - left < MIN_PLOT_SHARE * width) {
		left = fmax(PAGE_PAD + MIN_TEXT_ROOM + ROW_LABEL_GAP, right - MIN_PLOT_SHARE * width);
		label_width = left - PAGE_PAD - ROW_LABEL_GAP;
	}
	/* The legend takes as many rows as the width needs, the plot below it. */
	for (int s = 0; s < SERIES_COUNT; s++) {
		f->series[s] = (rli_series){ (char *)names[s], colors[s] };
		named[s] = (rli_line_mark){ .color = colors[s], .name = names[s] };
	}
	legend_rows = rli_memory_legend_rows(named, SERIES_COUNT, width, text);
	plot_top = CMP_PLOT_TOP + (double)(legend_rows > 1 ? legend_rows - 1 : 0) * LEGEND_LINE;
	plot_bottom = plot_top + CMP_LANE_PITCH * (double)lanes;

	/* Text: the verdict as the title, the rule and the runs under it. */
	{
		char *title = rli_strfmt("Compared with the baseline: %zu regression%s, %zu improvement%s", c->regressions,
					 c->regressions == 1 ? "" : "s", c->improvements, c->improvements == 1 ? "" : "s");
		char threshold[48] = "";
		char *subtitle;
		if (c->options.threshold > 0)
			snprintf(threshold, sizeof(threshold), ", by more than %g%%", c->options.threshold * 100);
		subtitle = rli_strfmt("Baseline %s; this run %s. A change counts when both runs have at least %d samples "
				      "and the medians differ by more than either inter-quartile range%s",
				      c->baseline->path, c->current->path, RLI_COMPARE_MIN_SAMPLES, threshold);
		if (!title || !subtitle ||
		    (error = rli_set_text(&f->title, title, PAGE_PAD, CMP_TITLE_Y, TITLE_SIZE, RLI_ALIGN_START,
					  RLI_ALIGN_MIDDLE)) < 0 ||
		    (error = rli_set_text(&f->subtitle, subtitle, PAGE_PAD, CMP_SUBTITLE_Y, CMP_SUBTITLE_SIZE,
					  RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0) {
			free(title);
			free(subtitle);
			error = error < 0 ? error : rli_error_oom();
			goto done;
		}
		free(title);
		free(subtitle);
		f->title.bold = 1;
		f->title.color = c->regressions ? REGRESSION_COLOR : TEXT_COLOR;
		f->title.max_width = width - 2 * PAGE_PAD;
		f->subtitle.max_width = width - 2 * PAGE_PAD;
	}

	/* The legend: the four colours over the plot, its first row at CMP_LEGEND_Y (it is placed by its last). */
	if ((error = rli_memory_line_legend(&f->legend, f->legend_series, named, SERIES_COUNT, left,
					    plot_top - (CMP_PLOT_TOP - CMP_LEGEND_Y), width, text)) < 0)
		goto done;

	/* The panel: a lane pair per phase, bars from q1 to q3, medians as dots, zero as a line. */
	panel->plot = (rli_rect){ left, plot_top, right - left, plot_bottom - plot_top };
	if ((error = x_axis(panel, lo, hi)) < 0)
		goto done;
	panel->series = f->series;
	panel->series_count = SERIES_COUNT;
	panel->row_count = lanes;
	panel->row_pitch = CMP_LANE_PITCH;
	panel->bar_thickness = 0.75 * CMP_LANE_PITCH;
	panel->bar_outline = WHITE;
	panel->y_scale = RLI_Y_LANES;
	panel->y_min = 0; /* points and lines: lane r's middle is y = lanes - r - 0.5 */
	panel->y_max = (double)lanes;
	panel->rows = calloc(lanes, sizeof(*panel->rows));
	panel->row_labels = calloc(lanes, sizeof(*panel->row_labels));
	panel->row_first_bar = calloc(lanes + 1, sizeof(*panel->row_first_bar));
	panel->bar_row = calloc(2 * n + 1, sizeof(*panel->bar_row));
	panel->bar_series = calloc(2 * n + 1, sizeof(*panel->bar_series));
	panel->bar_start = calloc(2 * n + 1, sizeof(*panel->bar_start));
	panel->bar_end = calloc(2 * n + 1, sizeof(*panel->bar_end));
	f->medians = calloc(2 * n + 1, sizeof(*f->medians));
	f->median_count = f->medians ? 2 * n : 0;
	f->notes = calloc(2 * n + 4, sizeof(*f->notes));
	if (!panel->rows || !panel->row_labels || !panel->row_first_bar || !panel->bar_row || !panel->bar_series ||
	    !panel->bar_start || !panel->bar_end || !f->medians || !f->notes) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t r = 0; r < lanes; r++) {
		/* With nothing drawn (no phase in both runs with a median to measure against) the one lane is
		 * blank: there is no phase change to name it by. */
		const char *lane_label = n ? rli_compare_phase_label(label, sizeof(label), drawn[r / CMP_LANES_PER_PHASE]) : "";
		if (!(panel->rows[r].label = rli_strdup(lane_label)) || !(panel->rows[r].role = rli_strdup("")) ||
		    (error = rli_set_text(&panel->row_labels[r], "", left - ROW_LABEL_GAP, 0, ROW_LABEL_SIZE, RLI_ALIGN_END,
					  RLI_ALIGN_MIDDLE)) < 0) {
			error = error < 0 ? error : rli_error_oom();
			goto done;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const rli_phase_change *p = drawn[i];
		size_t top = i * CMP_LANES_PER_PHASE;
		double base = p->baseline.median_ms, middle = plot_top + CMP_LANE_PITCH * (double)(top + 1);
		char before[32], after[32], change[32];
		rli_color color = f->series[series_of(p)].color;
		/* The label sits between its two lanes. */
		free(panel->row_labels[top].text);
		if ((error = rli_set_text(&panel->row_labels[top], rli_compare_phase_label(label, sizeof(label), p),
					  left - ROW_LABEL_GAP, middle, ROW_LABEL_SIZE, RLI_ALIGN_END, RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		panel->row_labels[top].max_width = label_width;
		for (int side = 0; side < 2; side++) {
			const rli_side_sample *s = side ? &p->current : &p->baseline;
			size_t bar = 2 * i + (size_t)side, lane = top + (size_t)side;
			panel->bar_row[bar] = (uint32_t)lane;
			panel->bar_series[bar] = side ? (uint32_t)series_of(p) : SERIES_BASELINE;
			panel->bar_start[bar] = percent(s->q1_ms, base);
			panel->bar_end[bar] = percent(s->q3_ms, base);
			panel->row_first_bar[lane + 1] = 1;
			f->medians[bar] = (rli_point_mark){ .x = percent(s->median_ms, base),
							    .y = (double)lanes - (double)lane - 0.5, .color = CMP_MEDIAN_COLOR,
							    .radius = 3.5 };
			if ((error = rli_set_text(&f->medians[bar].label, "", 0, 0, ROW_LABEL_SIZE, RLI_ALIGN_START,
						  RLI_ALIGN_MIDDLE)) < 0)
				goto done;
		}
		rli_fmt_change(change, sizeof(change), p->ratio);
		snprintf(values, sizeof(values), "%s \xe2\x86\x92 %s, %s",
			 rli_fmt_duration(before, sizeof(before), p->baseline.median_ms),
			 rli_fmt_duration(after, sizeof(after), p->current.median_ms), rli_noise_name(p->noise));
		if ((error = add_note(f, change, right + CMP_VALUE_GAP, middle, ROW_LABEL_SIZE, 1,
				      p->verdict == RLI_VERDICT_SAME ? TEXT_COLOR : color, CMP_CHANGE_COLUMN)) < 0 ||
		    (value_width > 0 &&
		     (error = add_note(f, values, right + CMP_VALUE_GAP + CMP_CHANGE_COLUMN, middle, ROW_LABEL_SIZE, 0,
				       TEXT_COLOR, value_width)) < 0))
			goto done;
	}
	for (size_t r = 0; r < lanes; r++)
		panel->row_first_bar[r + 1] += panel->row_first_bar[r];
	panel->bar_count = 2 * n;
	f->zero_x[0] = f->zero_x[1] = 0;
	f->zero_y[0] = 0;
	f->zero_y[1] = (double)lanes;
	f->zero = (rli_line_mark){ .count = 2, .x = f->zero_x, .y = f->zero_y, .color = CMP_ZERO_COLOR, .width = 1.2 };
	panel->lines = &f->zero;
	panel->line_count = 1;
	panel->points = f->medians;
	panel->point_count = 2 * n;
	rli_text_measure(&w, &h, text, "+0%", TICK_LABEL_SIZE, 0);
	y = plot_bottom + TICK_LABEL_GAP + h + X_TITLE_GAP;
	{
		/* Under the plot's middle, moved in so it stays on the page when it is wider than the plot. */
		static const char x_title[] = "Median (dot) and inter-quartile range (bar), relative to the baseline's median";
		double half;
		rli_text_measure(&w, &h, text, x_title, AXIS_TITLE_SIZE, 0);
		half = fmin(w, width - 2 * PAGE_PAD) / 2;
		error = rli_set_text(&panel->x_title, x_title,
				     fmax(PAGE_PAD + half, fmin(left + (right - left) / 2, width - PAGE_PAD - half)), y,
				     AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_START);
	}
	if (error < 0 ||
	    (error = rli_set_text(&panel->y_title, "", 0, 0, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	panel->x_title.max_width = width - 2 * PAGE_PAD;
	y += AXIS_TITLE_SIZE + CMP_NOTE_LINE;

	/* Under the plot: what was left out, and what one run has alone. */
	only_current = one_side_list(c, RLI_ADDED);
	only_baseline = one_side_list(c, RLI_REMOVED);
	if (!only_current || !only_baseline) {
		error = rli_error_oom();
		goto done;
	}
	if (left_out) {
		if (!(line = rli_strfmt("%zu more phase%s not drawn (unchanged, the smallest changes)", left_out,
					left_out == 1 ? "" : "s")) ||
		    (error = add_note(f, line, PAGE_PAD, y, CMP_NOTE_SIZE, 0, TEXT_COLOR, width - 2 * PAGE_PAD)) < 0)
			goto done;
		free(line);
		line = NULL;
		y += CMP_NOTE_LINE;
	}
	if (n == 0) {
		/* Phases in both runs whose baseline median is 0 have no percent to be drawn at: say so, not that none matched. */
		size_t both = 0;
		for (size_t i = 0; i < c->phase_count; i++)
			both += c->phases[i].presence == RLI_IN_BOTH;
		if ((error = add_note(f, both ? "No phase in both runs has a baseline median to measure a change against"
					      : "No phase is in both runs: nothing to set side by side",
				      left, plot_top + 8, CMP_NOTE_SIZE, 0, TEXT_COLOR, right - left)) < 0)
			goto done;
	}
	if (*only_current) {
		if (!(line = rli_strfmt("Only in this run: %s", only_current)) ||
		    (error = add_note(f, line, PAGE_PAD, y, CMP_NOTE_SIZE, 0, TEXT_COLOR, width - 2 * PAGE_PAD)) < 0)
			goto done;
		free(line);
		line = NULL;
		y += CMP_NOTE_LINE;
	}
	if (*only_baseline) {
		if (!(line = rli_strfmt("Only in the baseline: %s", only_baseline)) ||
		    (error = add_note(f, line, PAGE_PAD, y, CMP_NOTE_SIZE, 0, TEXT_COLOR, width - 2 * PAGE_PAD)) < 0)
			goto done;
		free(line);
		line = NULL;
		y += CMP_NOTE_LINE;
	}
	height = y + PAGE_PAD;
	rli_fit_medium(&height, &raster_scale, width, options->scale, options->medium);

	/* The page: title, subtitle, legend, panel, then the notes. */
	f->item_count = 0;
	if (!(f->items = calloc(4 + f->note_count, sizeof(*f->items)))) {
		error = rli_error_oom();
		goto done;
	}
	f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &f->title };
	f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &f->subtitle };
	f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_LEGEND, .u.legend = &f->legend };
	f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = panel };
	for (size_t i = 0; i < f->note_count; i++)
		f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &f->notes[i] };
	f->page = (rli_page){ .width = width, .height = height, .item_count = f->item_count, .items = f->items };
	f->document = (rli_document){ .name = "compare", .title = f->title.text, .scale = options->scale,
				      .raster_scale = raster_scale, .background = WHITE, .text_color = TEXT_COLOR,
				      .font_family = RLI_TEXT_FAMILY, .page_count = 1, .pages = &f->page };
done:
	free(line);
	free(only_current);
	free(only_baseline);
	free(drawn);
	return error;
}

int rli_compare_figure_layout(rli_compare_figure **out, const rli_comparison *comparison,
			      const rli_timeline_options *options)
{
	rli_compare_figure *f;
	PangoContext *text = NULL;
	int error;

	*out = NULL;
	if (!comparison->timeline)
		return rli_error_set(RLI_EINVALID, "the comparison has no timeline to draw (a side holds memory records only)");
	if (!(f = calloc(1, sizeof(*f))))
		return rli_error_oom();
	if ((error = rli_text_context_new(&text)) == RLI_OK)
		error = lay_out(f, comparison, options, text);
	if (text)
		g_object_unref(text);
	if (error < 0) {
		rli_compare_figure_free(f);
		return error;
	}
	*out = f;
	return RLI_OK;
}

const rli_document *rli_compare_figure_document(const rli_compare_figure *figure)
{
	return &figure->document;
}

void rli_compare_figure_free(rli_compare_figure *f)
{
	if (!f)
		return;
	rli_panel_dispose(&f->panel);
	for (size_t i = 0; i < f->median_count; i++)
		free(f->medians[i].label.text);
	free(f->medians);
	for (size_t i = 0; i < f->note_count; i++)
		free(f->notes[i].text);
	free(f->notes);
	rli_memory_legend_dispose(&f->legend);
	free(f->title.text);
	free(f->subtitle.text);
	free(f->items);
	free(f);
}

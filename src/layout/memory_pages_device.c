/* memory_pages_device.c: one device's memory pages: its operators, curve envelope, segments, and a page per segment that holds any. */
#include "memory_pages.h"
#include "memory/memory_curve.h"
#include "memory_parts.h"
#include "memory_segments.h"
#include "text_place.h"
#include "theme.h"
#include "common/bigmem.h"
#include "common/numfmt.h"
#include "common/error.h"
#include "common/strutil.h"
#include "common/task.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A block is the shared curve's; its index is the allocation's place in the device's columns. */
typedef rli_memory_block block;

/*
 * The curve (sizes of the blocks alive, changes at one moment summed first)
 * kept as its least and greatest value in each of `columns` equal slices of
 * the device's span, so no peak is lost however many blocks there are (the
 * peak itself is the shared curve's, exact). A page computes the exact curve of its own
 * segment from its bars (every block alive in a segment is one of its bars);
 * the envelope shows the rest of the device. Built as the curve's points come
 * (rli_memory_curve_each): a device of a million blocks has some four million.
 */
typedef struct {
	mp_device *d;
	size_t columns, column; /* columns before `column` are done */
	double lo, hi, last;    /* the extremes of the column being filled; the last point's value */
	rli_line_mark *steps;   /* the value after each moment kept too, on the panels' x (mp_device.steps); NULL: not kept */
	size_t points;          /* the curve's points so far */
	double at_x;            /* the last point's x, and its column: a moment's two points share them */
	size_t at;
	int begun;              /* 0: the curve's second half (rli_memory_halves) before its first point */
	size_t first_column;    /* the second half's: where its first point is */
} envelope;

static int envelope_begin(envelope *env, mp_device *d, size_t columns)
{
	*env = (envelope){ d, columns, 0, 0, 0, 0, NULL, 0, NAN, 0, 1, 0 };
	for (int e = 0; e < 2; e++) {
		d->envelope[e].x = rli_bigmem_array(columns, sizeof(double));
		d->envelope[e].y = rli_bigmem_array(columns, sizeof(double));
		d->envelope[e].count = columns;
		d->envelope[e].color = MP_CURVE_COLOR;
		d->envelope[e].width = 1.5;
		if (!d->envelope[e].x || !d->envelope[e].y)
			return rli_error_oom();
	}
	d->envelope[0].fill_alpha = 0.18;
	for (size_t c = 0; c < columns; c++)
		d->envelope[0].x[c] = d->envelope[1].x[c] = d->shift + d->span * (double)c / (double)columns;
	return RLI_OK;
}

/*
 * fmin and fmax inline, as glibc's give them (of two equal values the second; a NaN passed
 * over): the envelope takes both for each of millions of points, a call each.
 */
static inline double lower(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a < b ? a : b;
}

static inline double higher(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

/* The curve's points, two a moment (the value before, then after): each column's extremes. */
static void envelope_point(void *ctx, double x, double y)
{
	envelope *env = ctx;
	/* The start, then two points a moment: the value after each (the even ones) is kept. */
	if (env->steps && env->points++ % 2 == 0) {
		env->steps->x[env->steps->count] = env->d->shift + x;
		env->steps->y[env->steps->count++] = y;
	}
	mp_device *d = env->d;
	size_t at = env->at;
	if (x != env->at_x) {
		at = d->span > 0 ? (size_t)(x / d->span * (double)env->columns) : 0;
		if (at >= env->columns)
			at = env->columns - 1;
		env->at_x = x;
		env->at = at;
	}
	/* The second half's first column: begun empty, its first half's extremes there joined after (envelope_join). */
	if (!env->begun) {
		env->column = env->first_column = at;
		env->lo = INFINITY;
		env->hi = -INFINITY;
		env->begun = 1;
	}
	/* columns the curve crossed without a change hold the value it carried */
	for (; env->column < at; env->column++) {
		d->envelope[0].y[env->column] = env->hi;
		d->envelope[1].y[env->column] = env->lo;
		env->lo = env->hi = y;
	}
	env->lo = lower(env->lo, y);
	env->hi = higher(env->hi, y);
	env->last = y;
}

/*
 * The curve's second half's envelope (second) after its first's (first): the columns between
 * them as one pass over the points leaves them, and second's steps moved down onto the end of
 * first's. Then second goes on as the whole's (envelope_end).
 */
static void envelope_join(envelope *first, envelope *second)
{
	mp_device *d = first->d;
	size_t c0 = second->first_column;
	if (!second->begun) { /* no point in the second half: the first is the whole */
		*second = *first;
		return;
	}
	if (first->column < c0) {
		/* first's column done, the ones up to the second's first held at first's last value */
		d->envelope[0].y[first->column] = first->hi;
		d->envelope[1].y[first->column] = first->lo;
		for (size_t c = first->column + 1; c < c0; c++) {
			d->envelope[0].y[c] = first->last;
			d->envelope[1].y[c] = first->last;
		}
	} else if (second->column > c0) { /* one column shared, the second half already past it */
		d->envelope[0].y[c0] = fmax(first->hi, d->envelope[0].y[c0]);
		d->envelope[1].y[c0] = fmin(first->lo, d->envelope[1].y[c0]);
	} else { /* one column shared, the second half still in it */
		second->hi = fmax(first->hi, second->hi);
		second->lo = fmin(first->lo, second->lo);
	}
	if (first->steps && second->steps) {
		memmove(first->steps->x + first->steps->count, second->steps->x, second->steps->count * sizeof(double));
		memmove(first->steps->y + first->steps->count, second->steps->y, second->steps->count * sizeof(double));
		first->steps->count += second->steps->count;
		second->steps = first->steps;
	}
}

/*
 * On the allocator's count a page cannot sum its bars into the curve: every moment is kept for
 * the pages' slices (at most one a change: 2 a block, 1 a free from before the capture, and
 * the start), in d->steps. None kept otherwise.
 */
static int steps_begin(envelope *env, mp_device *d, const rli_memory_device *device, size_t count)
{
	size_t room = 2 * count + 1 + device->reserved_count;
	if (device->totals == RLI_MEMORY_TOTALS_NONE || !device->allocated_mb)
		return RLI_OK;
	d->steps.x = rli_bigmem_array(room, sizeof(double));
	d->steps.y = rli_bigmem_array(room, sizeof(double));
	if (!d->steps.x || !d->steps.y)
		return rli_error_oom();
	env->steps = &d->steps;
	return RLI_OK;
}

/*
 * The device's curve swept into the envelope (and steps): on two threads at once where the
 * device may have them and the curve can be cut (rli_memory_halves), else in one sweep.
 * Either way the same points reach the envelope, in the same columns. The steps are made once
 * the cut is: the sort's scratch, freed by then, serves them (common/bigmem.h's spares).
 */
static int sweep_curve(rli_memory_summary *summary, envelope *env, mp_device *d, const rli_memory_device *device,
		       const block *blocks, size_t count, unsigned threads)
{
	rli_memory_halves halves;
	rli_line_mark second_steps = { 0 };
	envelope second;
	int cut, error;

	if (threads == 1 || (cut = rli_memory_halves_cut(&halves, summary, device, blocks, count)) == 0) {
		if ((error = steps_begin(env, d, device, count)) < 0)
			return error;
		return rli_memory_curve_each(summary, device, blocks, count, envelope_point, env);
	}
	if (cut < 0)
		return cut;
	if ((error = steps_begin(env, d, device, count)) < 0) {
		rli_memory_halves_dispose(&halves);
		return error;
	}
	/* The second half's points: the value before its first moment first, an odd point of the whole. */
	second = *env;
	second.begun = 0;
	second.points = 1;
	if (env->steps) {
		second_steps.x = env->steps->x + 1 + halves.first_moments;
		second_steps.y = env->steps->y + 1 + halves.first_moments;
		second.steps = &second_steps;
	}
	error = rli_memory_halves_sweep(&halves, summary, envelope_point, env, &second);
	rli_memory_halves_dispose(&halves);
	if (error < 0)
		return error;
	if (halves.halved) {
		envelope_join(env, &second);
		*env = second;
	}
	return RLI_OK;
}

static void envelope_end(envelope *env)
{
	mp_device *d = env->d;
	for (; env->column < env->columns; env->column++) {
		d->envelope[0].y[env->column] = env->hi;
		d->envelope[1].y[env->column] = env->lo;
		env->lo = env->hi = env->last;
	}
}

void mp_bars_free(mp_bars *b)
{
	rli_bigmem_free(b->row);
	rli_bigmem_free(b->series);
	rli_bigmem_free(b->stack);
	rli_bigmem_free(b->start);
	rli_bigmem_free(b->end);
	rli_bigmem_free(b->size_kb);
	rli_bigmem_free(b->total_mb);
	rli_bigmem_free(b->gap_ms);
	rli_bigmem_free(b->match);
	rli_bigmem_free(b->open_ended);
	rli_bigmem_free(b->carried);
	rli_bigmem_free(b->exact_x);
	rli_bigmem_free(b->exact_y);
	memset(b, 0, sizeof(*b));
}

/* Column c of b grown to count items, or `fail` run; what it held stays (it need not: it is rewritten). */
#define GROW_COLUMN(b, c, count, fail)                                                                     \
	do {                                                                                               \
		void *grown_ = (count) <= SIZE_MAX / sizeof(*(b)->c)                                       \
				       ? rli_bigmem_resize((b)->c, (count) * sizeof(*(b)->c))               \
				       : NULL;                                                              \
		if (!grown_)                                                                               \
			fail;                                                                              \
		(b)->c = grown_;                                                                           \
	} while (0)

/* Room for `count` bars in every column; on failure the columns stay valid, their capacity unchanged. */
static int bars_reserve(mp_bars *b, size_t count)
{
	if (!count)
		count = 1;
	if (count <= b->capacity)
		return RLI_OK;
	GROW_COLUMN(b, row, count, return rli_error_oom());
	GROW_COLUMN(b, series, count, return rli_error_oom());
	GROW_COLUMN(b, stack, count, return rli_error_oom());
	GROW_COLUMN(b, start, count, return rli_error_oom());
	GROW_COLUMN(b, end, count, return rli_error_oom());
	GROW_COLUMN(b, size_kb, count, return rli_error_oom());
	GROW_COLUMN(b, total_mb, count, return rli_error_oom());
	GROW_COLUMN(b, gap_ms, count, return rli_error_oom());
	GROW_COLUMN(b, match, count, return rli_error_oom());
	GROW_COLUMN(b, open_ended, count, return rli_error_oom());
	GROW_COLUMN(b, carried, count, return rli_error_oom());
	b->capacity = count;
	return RLI_OK;
}

/* Room for `count` exact points, as bars_reserve. */
static int exact_reserve(mp_bars *b, size_t count)
{
	if (!count)
		count = 1;
	if (count <= b->exact_capacity)
		return RLI_OK;
	GROW_COLUMN(b, exact_x, count, return rli_error_oom());
	GROW_COLUMN(b, exact_y, count, return rli_error_oom());
	b->exact_capacity = count;
	return RLI_OK;
}

/* "_<role>_rank<r>[_<type>]" with anything but letters, digits, '-', '.', '_' made '_': a file-safe part of a name. */
static char *file_suffix(const char *role, int64_t rank, const char *tag)
{
	char *suffix = rli_strfmt("_%s_rank%lld%s%s", role, (long long)rank, *tag ? "_" : "", tag);
	for (char *c = suffix; c && *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
		      *c == '.' || *c == '_'))
			*c = '_';
	return suffix;
}

/* The first of x[0..n) (ascending) past t, or at t too when not `past`: n when none is. */
static size_t first_after(const double *x, size_t n, double t, int past)
{
	size_t low = 0, high = n;
	while (low < high) {
		size_t mid = low + (high - low) / 2;
		if (past ? x[mid] <= t : x[mid] < t)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

/*
 * The first of the device's curve points (its steps drawn out: the start, then the value before
 * and after each moment, point p at steps x[(p + 1) / 2]) past t, or at t too when not `past`.
 */
static size_t first_point_after(const rli_line_mark *steps, double t, int past)
{
	size_t step = first_after(steps->x, steps->count, t, past);
	return step ? 2 * step - 1 : 0;
}

/*
 * The page's exact curve: the device's points over its segment [x_min, x_max], from the last one
 * before it (the value it opens with) to its last, drawn out of the steps into the page's bars.
 */
static int exact_points(mp_page *m, const mp_device *d, const rli_link *link)
{
	const rli_line_mark *steps = &d->steps;
	size_t from = first_point_after(steps, link->x_min, 0), to = first_point_after(steps, link->x_max, 1);
	mp_bars *bars = &m->bars;
	int error;

	from = from ? from - 1 : 0;
	if ((error = exact_reserve(bars, to - from)) < 0)
		return error;
	/* Point p: the value after moment p / 2 (the start at 0), at the time of moment (p + 1) / 2. */
	for (size_t p = from; p < to; p++) {
		bars->exact_x[p - from] = steps->x[(p + 1) / 2];
		bars->exact_y[p - from] = steps->y[p / 2];
	}
	m->exact = (rli_line_mark){ .count = to - from, .x = bars->exact_x, .y = bars->exact_y };
	m->curve.exact = &m->exact;
	return RLI_OK;
}

/*
 * A panel's x axis over [lo, hi] (ms from the run's t = 0): ticks at the layout's density in the
 * unit the span reads best in, labelled, and its title naming the unit.
 */
static int set_x_axis(rli_panel *panel, double lo, double hi, double title_y)
{
	rli_tick ticks[MAX_TICKS];
	int target = (int)fmax(2.0, round(panel->plot.w / TICK_SPACING)), error;
	rli_time_unit unit = rli_time_unit_for(hi - lo);
	size_t count = rli_time_ticks(ticks, MAX_TICKS, lo, hi, target, unit.ms);
	char title[32];

	if ((error = rli_memory_panel_x_axis(panel, ticks, count, target, lo, hi, 1)) < 0)
		return error;
	snprintf(title, sizeof(title), "Time (%s)", unit.name);
	return rli_set_text(&panel->x_title, title, panel->plot.x + panel->plot.w / 2, title_y, AXIS_TITLE_SIZE,
			    RLI_ALIGN_MIDDLE, RLI_ALIGN_START);
}

/*
 * The segment's page: the curve panel over the Gantt of its bars (the segment's members, block
 * indices in start order), whose columns it fills in m->bars, room for them made.
 */
static int lay_out_segment(mp_page *m, rli_page *page, const mp_device *d, size_t segment)
{
	const rli_memory *memory = d->memory;
	const block *blocks = d->blocks;
	const uint8_t *first_segment = d->first_segment;
	const uint32_t *members = d->members + d->offset[segment];
	const size_t count = d->links[segment].count;
	const double width = d->width;
	mp_bars *bars = &m->bars;
	const double left = PAGE_PAD + AXIS_TITLE_SIZE * 1.2 + Y_TITLE_GAP + d->label_width + ROW_LABEL_GAP;
	const double plot_w = fmax(MIN_PLOT_SHARE * width, width - left - MP_RIGHT);
	const rli_link *link = &d->links[segment];
	uint32_t *lane_of_op = malloc((d->series_count ? d->series_count : 1) * sizeof(*lane_of_op));
	size_t lanes = 0, *next = NULL;
	double gantt_top = MP_CURVE_TOP + MP_CURVE_HEIGHT + MP_PANEL_GAP, gantt_h;
	char *title = NULL, y_title[48], origin[96];
	double axis_title_y;
	int error = RLI_OK;

	if (!lane_of_op)
		return rli_error_oom();
	if ((error = bars_reserve(bars, count)) < 0)
		goto done;
	/* Lanes: the operators the segment holds, in the device's order of first appearance (as the colours). */
	for (size_t op = 0; op < d->series_count; op++)
		lane_of_op[op] = UINT32_MAX;
	for (size_t i = 0; i < count; i++)
		lane_of_op[blocks[members[i]].op] = 0;
	for (size_t op = 0; op < d->series_count; op++)
		if (lane_of_op[op] != UINT32_MAX)
			lane_of_op[op] = (uint32_t)lanes++;
	gantt_h = fmax(MP_MIN_GANTT, MP_LANE_PITCH * (double)lanes);

	m->curve.plot = (rli_rect){ left, MP_CURVE_TOP, plot_w, MP_CURVE_HEIGHT };
	m->gantt.plot = (rli_rect){ left, gantt_top, plot_w, gantt_h };
	page->width = width;
	page->height = gantt_top + gantt_h + TICK_LABEL_GAP + TICK_LABEL_SIZE * 1.3 + X_TITLE_GAP + AXIS_TITLE_SIZE * 1.3 +
		       PAGE_PAD;
	axis_title_y = gantt_top + gantt_h + TICK_LABEL_GAP + TICK_LABEL_SIZE * 1.3 + X_TITLE_GAP;
	if ((error = set_x_axis(&m->curve, link->x_min, link->x_max, MP_CURVE_TOP + MP_CURVE_HEIGHT + TICK_LABEL_GAP +
				TICK_LABEL_SIZE * 1.3)) < 0 ||
	    (error = set_x_axis(&m->gantt, link->x_min, link->x_max, axis_title_y)) < 0 ||
	    (error = rli_memory_y_ticks(&m->curve, fmax(d->peak_mb, d->reserved_mb), d->envelope[2].count != 0, y_title,
					 sizeof(y_title))) < 0)
		goto done;

	m->curve.lines = (rli_line_mark *)d->envelope;
	m->curve.line_count = d->envelope[2].count ? 3 : 2;
	if (d->steps.count && (error = exact_points(m, d, link)) < 0)
		goto done;
	m->peak.x = d->shift + d->peak_ms;
	m->peak.y = d->peak_mb;
	m->peak.color = MP_PEAK_COLOR;
	m->peak.radius = 4;
	{
		char label[128], brief[64];
		rli_memory_peak_texts(label, sizeof(label), brief, sizeof(brief), d->peak_mb, d->shift + d->peak_ms,
				      m->curve.y_max, link->x_max - link->x_min);
		if ((error = rli_set_text(&m->peak.label, label, 0, 0, LEGEND_SIZE, RLI_ALIGN_START, RLI_ALIGN_END)) < 0)
			goto done;
		m->peak.label.color = MP_PEAK_COLOR;
	}
	m->curve.points = &m->peak;
	m->curve.point_count = 1;
	m->curve.series = d->series;
	m->curve.series_count = d->series_count;
	if ((error = rli_set_text(&m->curve.y_title, y_title, PAGE_PAD,
				  MP_CURVE_TOP + MP_CURVE_HEIGHT / 2, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE,
				  RLI_ALIGN_MIDDLE)) < 0 ||
	    (error = rli_set_text(&m->gantt.y_title, "Operator", PAGE_PAD, gantt_top + gantt_h / 2, AXIS_TITLE_SIZE,
				  RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	m->curve.y_title.angle = m->gantt.y_title.angle = 90.0;

	/* The Gantt: a lane per operator, its bars by lane then start, what a click shows beside each. */
	m->gantt.series = d->series;
	m->gantt.series_count = d->series_count;
	m->gantt.row_count = lanes;
	m->gantt.row_pitch = MP_LANE_PITCH;
	m->gantt.bar_thickness = 0.7 * MP_LANE_PITCH;
	m->gantt.bar_outline = WHITE;
	m->gantt.bar_outline_width = BAR_OUTLINE_WIDTH;
	m->gantt.bar_outline_min_size = OUTLINE_MIN_BAR_RATIO * BAR_OUTLINE_WIDTH;
	m->gantt.rows = calloc(lanes ? lanes : 1, sizeof(*m->gantt.rows));
	m->gantt.row_labels = calloc(lanes ? lanes : 1, sizeof(*m->gantt.row_labels));
	m->gantt.row_first_bar = calloc(lanes + 1, sizeof(*m->gantt.row_first_bar));
	m->gantt.bar_row = bars->row;
	m->gantt.bar_series = bars->series;
	m->gantt.bar_start = bars->start;
	m->gantt.bar_end = bars->end;
	next = malloc((lanes ? lanes : 1) * sizeof(*next));
	if (!m->gantt.rows || !m->gantt.row_labels || !m->gantt.row_first_bar || !next) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t op = 0; op < d->series_count; op++) {
		uint32_t l = lane_of_op[op];
		if (l == UINT32_MAX)
			continue;
		m->gantt.rows[l].rank = d->rank;
		if (!(m->gantt.rows[l].label = rli_strdup(d->series[op].name)) ||
		    !(m->gantt.rows[l].role = rli_strdup(d->series[op].name))) {
			error = rli_error_oom();
			goto done;
		}
		if ((error = rli_set_text(&m->gantt.row_labels[l], d->series[op].name, left - ROW_LABEL_GAP,
					  gantt_top + ((double)l + 0.5) * MP_LANE_PITCH, ROW_LABEL_SIZE, RLI_ALIGN_END,
					  RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		m->gantt.row_labels[l].max_width = d->label_width;
	}
	/* A counting pass places each lane's run; members are in start order, so each run is too. */
	for (size_t i = 0; i < count; i++)
		m->gantt.row_first_bar[lane_of_op[blocks[members[i]].op] + 1]++;
	for (size_t l = 0; l < lanes; l++)
		m->gantt.row_first_bar[l + 1] += m->gantt.row_first_bar[l];
	memcpy(next, m->gantt.row_first_bar, lanes * sizeof(*next));
	{
		/*
		 * Every column and what is read, in locals: a byte column's store may alias anything,
		 * and the compiler read every pointer again after each (a million bars and more a device).
		 */
		uint32_t *const bar_row = bars->row, *const bar_series = bars->series, *const bar_stack = bars->stack;
		double *const bar_start = bars->start, *const bar_end = bars->end, *const bar_size = bars->size_kb;
		double *const bar_total = bars->total_mb, *const bar_gap = bars->gap_ms;
		uint8_t *const bar_match = bars->match, *const bar_open = bars->open_ended, *const bar_carried = bars->carried;
		const uint32_t *const device_row = d->row, *const call_stack = memory->call_stack;
		const double *const allocated = memory->allocated_mb, *const gap = memory->gap_ms;
		const uint8_t *const flags = memory->flags;
		const uint32_t empty = memory->empty;
		const double shift = d->shift;
		for (size_t i = 0; i < count; i++) {
			const block *b = &blocks[members[i]];
			uint32_t lane = lane_of_op[b->op];
			size_t at = next[lane]++;
			uint32_t row = device_row[b->index], stack = call_stack[row];
			bar_row[at] = lane;
			bar_series[at] = b->op;
			bar_start[at] = shift + b->start;
			bar_end[at] = shift + b->end;
			bar_size[at] = b->size_kb;
			bar_total[at] = allocated[row];
			bar_stack[at] = stack == empty ? UINT32_MAX : stack;
			bar_match[at] = (uint8_t)((flags[row] >> RLI_MEMORY_MATCH_SHIFT) & 3u); /* rli_memory_match_of */
			bar_gap[at] = gap[row];
			bar_open[at] = !(flags[row] & RLI_MEMORY_RELEASED);
			/* started in an earlier segment: that page holds its details (bars by start, so first in the lane) */
			bar_carried[at] = first_segment[members[i]] < segment;
		}
	}
	m->gantt.bar_count = count;
	m->details = (rli_bar_details){ bars->size_kb, bars->total_mb, bars->stack, bars->match, bars->gap_ms,
					bars->open_ended, bars->carried, 0, NULL };
	m->gantt.details = &m->details;

	if (!(title = rli_strfmt("Device memory: %s, segment %zu of %zu (%s)", d->label, segment + 1,
				 d->segment_count, link->label))) {
		error = rli_error_oom();
		goto done;
	}
	if ((error = rli_set_text(&m->title, title, width / 2, MP_TITLE_Y, TITLE_SIZE * 0.8, RLI_ALIGN_MIDDLE,
				  RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	m->title.bold = 1;
	m->title.max_width = width - 2 * PAGE_PAD;
	/* Where t = 0 is, said once on the page: every time on it counts from there. */
	rli_memory_origin_text(origin, sizeof(origin), d->origin);
	if ((error = rli_set_text(&m->origin, origin, PAGE_PAD, MP_TITLE_Y + TITLE_SIZE, LEGEND_SIZE, RLI_ALIGN_START,
				  RLI_ALIGN_START)) < 0)
		goto done;

	/* Links: the device's segments; back and on step over the empty ones. */
	m->nav.links = d->links;
	m->nav.link_count = d->segment_count;
	m->nav.current = segment;
	m->nav.previous = m->nav.next = SIZE_MAX;
	for (size_t s = segment; s-- > 0;)
		if (d->links[s].target) {
			m->nav.previous = s;
			break;
		}
	for (size_t s = segment + 1; s < d->segment_count; s++)
		if (d->links[s].target) {
			m->nav.next = s;
			break;
		}
	m->nav.total = d->bars;
	if (d->summary.totals != RLI_MEMORY_TOTALS_NONE) {
		/* what the curve counts, as the figure says under its title */
		char before[48], note[160];
		rli_fmt_thousands(before, sizeof(before), d->summary.before_mb, 2);
		snprintf(note, sizeof(note), "Total Allocated as the allocator counts it: %s MB already allocated when "
			 "the capture began", before);
		if ((error = rli_set_text(&m->nav.note, note, 0, 0, LEGEND_SIZE, RLI_ALIGN_START, RLI_ALIGN_START)) < 0)
			goto done;
	}
	if ((error = rli_set_text(&m->nav.title, d->label, 0, 0, LEGEND_SIZE, RLI_ALIGN_START, RLI_ALIGN_START)) < 0)
		goto done;

	m->items[0] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &m->title };
	m->items[1] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = &m->curve };
	m->items[2] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = &m->gantt };
	m->items[3] = (rli_item){ .kind = RLI_ITEM_NAV, .u.nav = &m->nav };
	m->items[4] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &m->origin };
	page->items = m->items;
	page->item_count = 5;
	page->name = m->name;
	page->data_name = m->data_name;
done:
	free(title);
	free(next);
	free(lane_of_op);
	return error;
}

int mp_make_page(mp_device *d, size_t j, rli_page *page, mp_bars *bars)
{
	mp_page *m = &d->seg[j];

	m->bars = *bars;
	memset(bars, 0, sizeof(*bars));
	m->made = 1; /* from here on mp_unmake_page frees what the layout made, failed half-way or not */
	return lay_out_segment(m, page, d, d->segment_of_page[j]);
}

/* What the layout of page m made, freed; names and bars kept. */
static void page_parts_free(mp_page *m)
{
	/* the bars' columns are the page's bars, not the panel's */
	m->gantt.bar_row = m->gantt.bar_series = NULL;
	m->gantt.bar_start = m->gantt.bar_end = NULL;
	rli_panel_dispose(&m->curve);
	rli_panel_dispose(&m->gantt);
	free(m->peak.label.text);
	free(m->title.text);
	free(m->origin.text);
	free(m->nav.title.text);
	free(m->nav.note.text);
}

void mp_unmake_page(mp_device *d, size_t j, rli_page *page, mp_bars *bars)
{
	mp_page *m = &d->seg[j];
	char *name = m->name, *data_name = m->data_name;
	if (!m->made)
		return;
	page_parts_free(m);
	*bars = m->bars;
	memset(m, 0, sizeof(*m));
	m->name = name;
	m->data_name = data_name;
	page->items = NULL;
	page->item_count = 0;
}

void mp_device_drop_sources(mp_device *d)
{
	rli_bigmem_free(d->blocks);
	rli_bigmem_free(d->first_segment);
	rli_bigmem_free(d->members);
	d->blocks = NULL;
	d->first_segment = NULL;
	d->members = NULL;
}

/*
 * The device's segments: equal slices of its span; a bar goes to every one it overlaps, a
 * zero-length one to one. Each block's segments, the members of each, the links and the pages'
 * names: it reads the blocks' times only (not their operators) and writes none of what the curve
 * does, so that the two may run at once.
 */
static int lay_out_segments(void *arg)
{
	mp_device *d = arg;
	const block *blocks = d->blocks;
	const size_t count = d->bars;
	size_t *offset = d->offset;
	double bounds[RLI_MEMORY_MAX_SEGMENTS + 1];
	int error = RLI_OK;

	d->segment_count = rli_memory_segment_count(count, d->span);
	rli_memory_segment_bounds(bounds, d->segment_count, d->span);
	d->links = calloc(d->segment_count, sizeof(*d->links));
	d->seg = calloc(d->segment_count, sizeof(*d->seg));
	d->first_segment = rli_bigmem_array(count, sizeof(*d->first_segment));
	if (!d->links || !d->seg || !d->first_segment) {
		error = rli_error_oom();
		goto done;
	}
	/* Each block's first and last segment are worked out twice, to count and to place, rather than kept. */
	for (size_t i = 0; i < count; i++) {
		size_t first, last;
		rli_memory_segment_span(bounds, d->segment_count, blocks[i].start, blocks[i].end, &first, &last);
		d->first_segment[i] = (uint8_t)first;
		for (size_t s = first; s <= last; s++)
			d->links[s].count++;
	}
	offset[0] = 0;
	for (size_t s = 0; s < d->segment_count; s++)
		offset[s + 1] = offset[s] + d->links[s].count;
	if (offset[d->segment_count] > UINT32_MAX) {
		error = rli_error_set(RLI_ERROR, "memory pages: more than %u bars on one device", (unsigned)UINT32_MAX);
		goto done;
	}
	if (!(d->members = rli_bigmem_array(offset[d->segment_count], sizeof(*d->members)))) {
		error = rli_error_oom();
		goto done;
	}
	{
		size_t fill[RLI_MEMORY_MAX_SEGMENTS];
		memcpy(fill, offset, d->segment_count * sizeof(size_t));
		for (size_t i = 0; i < count; i++) {
			size_t first, last;
			rli_memory_segment_span(bounds, d->segment_count, blocks[i].start, blocks[i].end, &first, &last);
			for (size_t s = first; s <= last; s++)
				d->members[fill[s]++] = (uint32_t)i;
		}
	}
	for (size_t s = 0; s < d->segment_count; s++) {
		rli_link *link = &d->links[s];
		link->x_min = d->shift + bounds[s];
		link->x_max = d->shift + bounds[s + 1];
		if (!(link->label = rli_memory_span_label(link->x_min, link->x_max, d->span))) {
			error = rli_error_oom();
			goto done;
		}
		if (!link->count)
			continue; /* an empty segment: no page, and no link leads to it */
		mp_page *m = &d->seg[d->page_count];
		d->segment_of_page[d->page_count] = s;
		d->page_count++; /* counted before it is filled, so a failure frees its parts */
		if (!(m->name = rli_strfmt("memory_timeline%s_%02zu", d->suffix, s)) ||
		    !(m->data_name = rli_strfmt("detail_data%s_%02zu", d->suffix, s))) {
			error = rli_error_oom();
			goto done;
		}
		link->target = m->name;
	}
done:
	return error;
}

int mp_lay_out_device(mp_device *d, double origin, const rli_memory *memory, const rli_memory_device *device,
		      const uint32_t *rows, double width, void *text_context, unsigned threads)
{
	size_t pool = memory->strings.count, count;
	uint32_t *op_of_name = malloc((pool ? pool : 1) * sizeof(*op_of_name));
	block *blocks = d->blocks = rli_bigmem_array(device->count, sizeof(*blocks));
	rli_memory_summary summary;
	rli_task segments;
	envelope env;
	size_t ops = 0, columns;
	int error = RLI_OK, segments_started = 0, segments_error;

	d->memory = memory;
	d->width = width;
	if (!op_of_name || !blocks) {
		error = rli_error_oom();
		goto done;
	}
	/* The blocks as the figure has them: never freed ones live to the end of the capture. */
	count = rli_memory_blocks(blocks, &summary, device);
	for (size_t i = 0; i < pool; i++)
		op_of_name[i] = UINT32_MAX;
	for (size_t i = 0; i < count; i++) {
		uint32_t name = memory->name[rows[blocks[i].index]];
		if (op_of_name[name] == UINT32_MAX)
			op_of_name[name] = (uint32_t)ops++;
		blocks[i].op = op_of_name[name];
	}
	d->row = rows;
	d->t_min = summary.t_min_ms;
	d->never_freed = summary.never_freed;
	d->span = count ? summary.t_max_ms - d->t_min : 0;
	d->shift = d->t_min - origin;
	d->origin = origin;
	d->bars = count;
	/*
	 * The segments beside the operators, the labels and the curve, on a thread of their own where
	 * the device may have two: the pages are written once both are done (a million blocks: some
	 * 20 ms of the segments against 120 of the curve, on one core one after the other).
	 */
	rli_task_start(&segments, lay_out_segments, d, threads != 1);
	segments_started = 1;

	/* Operators: a series each, coloured by name as in the PNG; the widest label sets the margin. */
	d->series = calloc(ops ? ops : 1, sizeof(*d->series));
	if (!d->series) {
		error = rli_error_oom();
		goto done;
	}
	d->series_count = ops;
	for (size_t i = 0; i < pool; i++) {
		uint32_t op = op_of_name[i];
		double w, h;
		if (op == UINT32_MAX)
			continue;
		if (!(d->series[op].name = rli_valid_utf8_copy(rli_strpool_get(&memory->strings, (uint32_t)i)))) {
			error = rli_error_oom();
			goto done;
		}
		if ((error = rli_text_measure(&w, &h, text_context, d->series[op].name, ROW_LABEL_SIZE, 0)) < 0)
			goto done;
		d->label_width = fmax(d->label_width, fmin(w, 0.25 * width));
	}
	if ((error = rli_series_colors(d->series, ops)) < 0)
		goto done;
	columns = (size_t)fmax(100.0, width - (PAGE_PAD + AXIS_TITLE_SIZE * 1.2 + Y_TITLE_GAP + d->label_width +
						ROW_LABEL_GAP) - MP_RIGHT);
	/* The curve, reduced to the envelope as it goes, and its peak as the figure has it. */
	if ((error = envelope_begin(&env, d, columns)) < 0)
		goto done;
	if ((error = sweep_curve(&summary, &env, d, device, blocks, count, threads)) < 0)
		goto done;
	envelope_end(&env);
	d->peak_mb = summary.peak_mb;
	d->peak_ms = summary.peak_ms;
	d->summary = summary;
	if ((error = mp_reserved_line(d, &summary, device, columns)) < 0)
		goto done;
done:
	/* Joined whatever failed here, since it writes into the device; its failure is the device's if this went well. */
	if (segments_started && (segments_error = rli_task_join(&segments)) < 0 && error == RLI_OK)
		error = segments_error;
	free(op_of_name);
	return error;
}

int mp_device_suffix(mp_device *d, int several)
{
	d->suffix = several ? file_suffix(d->role, d->rank, d->tag ? d->tag : "") : rli_strdup("");
	return d->suffix ? RLI_OK : rli_error_oom();
}

void mp_page_dispose(mp_page *m)
{
	if (m->made)
		page_parts_free(m);
	mp_bars_free(&m->bars);
	free(m->name);
	free(m->data_name);
}

void mp_device_dispose(mp_device *d)
{
	for (size_t p = 0; d->seg && p < d->page_count; p++)
		mp_page_dispose(&d->seg[p]);
	free(d->seg);
	for (size_t s = 0; d->series && s < d->series_count; s++)
		free(d->series[s].name);
	free(d->series);
	for (size_t s = 0; d->links && s < d->segment_count; s++)
		free(d->links[s].label);
	free(d->links);
	rli_bigmem_free(d->steps.x);
	rli_bigmem_free(d->steps.y);
	for (int e = 0; e < 3; e++) { /* the envelope's and the reserved line's, all from rli_bigmem_array */
		rli_bigmem_free(d->envelope[e].x);
		rli_bigmem_free(d->envelope[e].y);
	}
	free(d->label);
	free(d->suffix);
	mp_device_drop_sources(d);
}

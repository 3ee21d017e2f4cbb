/* memory_figure.c: the static memory figure, a page per device: the memory curve over the allocation Gantt, and the blocks live at the peak. */
#include "memory_figure.h"
#include "memory_parts.h"
#include "medium.h"
#include "text_place.h"
#include "theme.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/strpool.h"
#include "common/strutil.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Geometry of a page, in page units, beside the theme's shared sizes. */
#define MEM_TITLE_Y 48.0
#define MEM_CURVE_TOP 96.0
#define MEM_CURVE_HEIGHT 320.0
#define MEM_PANEL_GAP 28.0
#define MEM_LANE_PITCH 26.0
#define MEM_MIN_GANTT 120.0
#define MEM_RIGHT 48.0
#define MEM_TABLE_GAP 36.0
#define MEM_CURVE_COLOR 0x4e79a7
#define MEM_PEAK_COLOR 0xd62728
#define MEM_LEGEND_RISE 14.0 /* the curve's legend: this far above the plot, its row's middle */
#define MEM_LEGEND_ROOM 24.0 /* the curve moves down this far for it, clear of the origin's line on narrow pages */

typedef struct {
	rli_item items[7];
	rli_text title;
	rli_text subtitle;          /* the origin, on pages too narrow for it in the title */
	rli_text table_title;
	rli_panel curve;
	rli_panel gantt;
	rli_table table;
	rli_line_mark lines[2];      /* the curve; with a table that shows it, the Total Reserved */
	rli_legend legend;          /* the two lines' names, when there are two */
	rli_series legend_series[2];
	rli_point_mark peak;
	rli_series *series;         /* one per operator, in order of first appearance */
	size_t series_count;
	char *name;                 /* the page's file stem */
	rli_memory_summary summary;
} memory_page;

struct rli_memory_figure {
	rli_document document;
	rli_page *pages;
	memory_page *memory;
	size_t count;
};

/* ---- the data: blocks, the curve, operators --------------------------- */

typedef struct {
	uint32_t op;
	double longest;
	const char *name;
} lane_key;

/* Lanes: the operator holding the longest-lived block first, then by name. */
static int compare_lanes(const void *a, const void *b)
{
	const lane_key *x = a, *y = b;
	if (x->longest != y->longest)
		return x->longest > y->longest ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* ---- placing a page --------------------------------------------------- */

/* A file name from role, rank (and the device where they are shared): letters, digits, '-', '.', '_' kept, anything else '_'. */
static char *file_stem(const rli_memory_device *device)
{
	char *stem = rli_strfmt("memory_timeline_%s_rank%lld%s%s", device->role ? device->role : "unknown",
				(long long)device->rank, device->shares_rank ? "_" : "", rli_memory_device_tag(device));
	for (char *c = stem ? stem + strlen("memory_timeline_") : NULL; c && *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '-' || *c == '.' || *c == '_'))
			*c = '_';
	return stem;
}

/*
 * Device's page. origin: the absolute ms of t = 0 (the run's first event); not finite, the
 * device's own first allocation.
 */
static int lay_out_device(memory_page *m, rli_page *page, const rli_memory_device *device, double width,
			  int scale, rli_medium medium, double max_height, double origin, PangoContext *text,
			  double *raster_scale)
{
	rli_memory_block *blocks = rli_bigmem_array(device->count, sizeof(*blocks));
	lane_key *lanes = NULL;
	uint32_t *lane_of_op = NULL;
	rli_strpool ops;
	double t_min = INFINITY, t_end = -INFINITY, label_width = 0, w, h, y_title_height, tick_height;
	double left, right, gantt_top, gantt_height, height, pitch, reserved_mb = 0, curve_top, shift;
	char y_title[48];
	size_t count = 0, label_every = 1, legend_rows;
	int error = RLI_OK;

	rli_strpool_init(&ops);
	if (!blocks) {
		error = rli_error_oom();
		goto done;
	}
	count = rli_memory_blocks(blocks, &m->summary, device);
	t_min = m->summary.t_min_ms;
	t_end = m->summary.t_max_ms;
	/* Every x from t = 0: the device's own first allocation, or the run's first event before it. */
	if (!isfinite(origin) || origin > t_min)
		origin = t_min;
	shift = t_min - origin;
	for (size_t b = 0; b < count; b++) {
		const char *name = device->op_name[blocks[b].index] ? device->op_name[blocks[b].index] : "";
		if ((blocks[b].op = rli_strpool_intern(&ops, name, strlen(name))) == RLI_STRPOOL_NONE) {
			error = rli_error_oom();
			goto done;
		}
	}
	if ((error = rli_memory_curve(&m->summary, &m->lines[0].x, &m->lines[0].y, &m->lines[0].count, device,
				      blocks, count)) < 0 ||
	    (error = rli_memory_reserved_line(&m->lines[1].x, &m->lines[1].y, &m->lines[1].count, &reserved_mb,
					      &m->summary, device)) < 0)
		goto done;
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < m->lines[l].count; i++)
			m->lines[l].x[i] += shift;

	/* The allocator's cache over what the blocks hold: both named in a legend, above the curve. */
	if (m->lines[1].count) {
		m->lines[0].name = RLI_MEMORY_CURVE_NAME(m->summary.totals);
		m->lines[1].name = RLI_MEMORY_RESERVED_NAME;
	}
	legend_rows = rli_memory_legend_rows(m->lines, 2, width, text);
	curve_top = MEM_CURVE_TOP + (legend_rows ? MEM_LEGEND_ROOM + (double)(legend_rows - 1) * LEGEND_LINE : 0);

	/* Operators: a series each (colour by name, as the pages give it), a lane each (longest block first). */
	m->series_count = ops.count;
	m->series = calloc(ops.count, sizeof(*m->series));
	lanes = calloc(ops.count, sizeof(*lanes));
	lane_of_op = calloc(ops.count, sizeof(*lane_of_op));
	if (!m->series || !lanes || !lane_of_op) {
		error = rli_error_oom();
		goto done;
	}
	for (uint32_t op = 0; op < ops.count; op++) {
		if (!(m->series[op].name = rli_valid_utf8_copy(rli_strpool_get(&ops, op)))) {
			error = rli_error_oom();
			goto done;
		}
		lanes[op] = (lane_key){ op, 0, m->series[op].name };
	}
	if ((error = rli_series_colors(m->series, ops.count)) < 0)
		goto done;
	for (size_t i = 0; i < count; i++)
		lanes[blocks[i].op].longest = fmax(lanes[blocks[i].op].longest, blocks[i].end - blocks[i].start);
	qsort(lanes, ops.count, sizeof(*lanes), compare_lanes);
	for (uint32_t l = 0; l < ops.count; l++)
		lane_of_op[lanes[l].op] = l;

	/* The page: title, curve, Gantt, then the table; a raster medium, or a height asked for, may set lanes closer. */
	gantt_height = fmax(MEM_MIN_GANTT, MEM_LANE_PITCH * (double)ops.count);
	if (max_height > 0 && MEM_CURVE_HEIGHT + MEM_PANEL_GAP + gantt_height > max_height)
		gantt_height = fmax(MEM_MIN_GANTT, max_height - MEM_CURVE_HEIGHT - MEM_PANEL_GAP);
	rli_text_measure(&w, &tick_height, text, "0123456789", TICK_LABEL_SIZE, 0);
	height = curve_top + MEM_CURVE_HEIGHT + MEM_PANEL_GAP + gantt_height + TICK_LABEL_GAP + tick_height +
		 X_TITLE_GAP + AXIS_TITLE_SIZE + MEM_TABLE_GAP + MEM_TABLE_ROW * (MEM_TABLE_ROWS + 2) + PAGE_PAD;
	{
		double fitted = height;
		rli_fit_medium(&fitted, raster_scale, width, scale, medium);
		gantt_height = fmax(1.0, gantt_height - (height - fitted));
		height = fitted;
	}
	pitch = gantt_height / (double)(ops.count ? ops.count : 1);
	if (pitch < ROW_LABEL_SIZE * 1.3)
		label_every = (size_t)ceil(ROW_LABEL_SIZE * 1.3 / pitch);
	page->width = width;
	page->height = height;

	/* The value axis first: its labels share the column left of the plots with the lane labels. */
	if ((error = rli_memory_y_ticks(&m->curve, fmax(m->summary.peak_mb, reserved_mb), m->lines[1].count != 0,
				       y_title, sizeof(y_title))) < 0)
		goto done;
	for (uint32_t l = 0; l < ops.count; l++) {
		rli_text_measure(&w, &h, text, lanes[l].name, ROW_LABEL_SIZE, 0);
		label_width = fmax(label_width, fmin(w, 0.25 * width));
	}
	label_width = fmax(label_width, rli_memory_y_label_width(&m->curve, text) + TICK_LABEL_GAP - ROW_LABEL_GAP);
	/* The last tick label may reach past the plot: a margin for it, smaller on narrow pages. */
	right = fmin(MEM_RIGHT, 0.1 * width);
	rli_text_measure(&w, &y_title_height, text, "Allocated (MB)", AXIS_TITLE_SIZE, 0);
	left = PAGE_PAD + y_title_height + Y_TITLE_GAP + label_width + ROW_LABEL_GAP;
	if (width - left - right < MIN_PLOT_SHARE * width)
		left = width - right - MIN_PLOT_SHARE * width;
	label_width = left - PAGE_PAD - y_title_height - Y_TITLE_GAP - ROW_LABEL_GAP;
	gantt_top = curve_top + MEM_CURVE_HEIGHT + MEM_PANEL_GAP;

	m->curve.plot = (rli_rect){ left, curve_top, width - left - right, MEM_CURVE_HEIGHT };
	m->gantt.plot = (rli_rect){ left, gantt_top, width - left - right, gantt_height };
	if ((error = rli_memory_x_ticks(&m->curve, &m->gantt, shift, shift + fmax(t_end - t_min, 1e-3) * X_RANGE_PAD,
					width, text)) < 0)
		goto done;

	/* The curve, and its peak marked with value and time. */
	m->lines[0].color = MEM_CURVE_COLOR;
	m->lines[0].width = 1.5;
	m->lines[0].fill_alpha = 0.25;
	m->curve.lines = m->lines;
	m->curve.line_count = 1;
	/* The allocator's cache: its own colour, no fill. */
	if (m->lines[1].count) {
		m->lines[1].color = RLI_MEMORY_RESERVED_COLOR;
		m->lines[1].width = 1.5;
		m->curve.line_count = 2;
		if ((error = rli_memory_line_legend(&m->legend, m->legend_series, m->lines, 2, left,
						    curve_top - MEM_LEGEND_RISE, width, text)) < 0)
			goto done;
	}
	m->peak.x = shift + m->summary.peak_ms;
	m->peak.y = m->summary.peak_mb;
	m->peak.color = MEM_PEAK_COLOR;
	m->peak.radius = 4;
	if ((error = rli_memory_peak_label(&m->peak, &m->curve, width, text)) < 0)
		goto done;
	m->peak.label.color = MEM_PEAK_COLOR;
	m->curve.points = &m->peak;
	m->curve.point_count = 1;
	m->curve.series = m->series;
	m->curve.series_count = m->series_count;
	if ((error = rli_set_text(&m->curve.y_title, y_title, PAGE_PAD + y_title_height / 2,
				  curve_top + MEM_CURVE_HEIGHT / 2, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE,
				  RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	m->curve.y_title.angle = 90.0;

	/* The Gantt: one lane per operator, a bar per block. */
	m->gantt.series = m->series;
	m->gantt.series_count = m->series_count;
	m->gantt.row_count = ops.count;
	m->gantt.row_pitch = pitch;
	m->gantt.bar_thickness = BAR_FRACTION_OF_PITCH * 1.6 * pitch;
	m->gantt.bar_outline = WHITE;
	m->gantt.bar_outline_width = BAR_OUTLINE_WIDTH;
	m->gantt.bar_outline_min_size = OUTLINE_MIN_BAR_RATIO * BAR_OUTLINE_WIDTH;
	m->gantt.rows = calloc(ops.count, sizeof(*m->gantt.rows));
	m->gantt.row_labels = calloc(ops.count, sizeof(*m->gantt.row_labels));
	m->gantt.row_first_bar = calloc(ops.count + 1, sizeof(*m->gantt.row_first_bar));
	m->gantt.bar_row = rli_bigmem_array(count, sizeof(uint32_t));
	m->gantt.bar_series = rli_bigmem_array(count, sizeof(uint32_t));
	m->gantt.bar_start = rli_bigmem_array(count, sizeof(double));
	m->gantt.bar_end = rli_bigmem_array(count, sizeof(double));
	if (!m->gantt.rows || !m->gantt.row_labels || !m->gantt.row_first_bar || !m->gantt.bar_row ||
	    !m->gantt.bar_series || !m->gantt.bar_start || !m->gantt.bar_end) {
		error = rli_error_oom();
		goto done;
	}
	for (uint32_t l = 0; l < ops.count; l++) {
		const char *label = l % label_every == 0 ? lanes[l].name : "";
		m->gantt.rows[l].rank = device->rank;
		if (!(m->gantt.rows[l].label = rli_strdup(lanes[l].name)) ||
		    !(m->gantt.rows[l].role = rli_strdup(lanes[l].name))) {
			error = rli_error_oom();
			goto done;
		}
		if ((error = rli_set_text(&m->gantt.row_labels[l], label, left - ROW_LABEL_GAP,
					  gantt_top + ((double)l + 0.5) * pitch, ROW_LABEL_SIZE, RLI_ALIGN_END,
					  RLI_ALIGN_MIDDLE)) < 0)
			goto done;
		m->gantt.row_labels[l].max_width = label_width;
	}
	/* Bars by lane, then start: a counting pass places each lane's run, blocks are already in time order. */
	for (size_t i = 0; i < count; i++)
		m->gantt.row_first_bar[lane_of_op[blocks[i].op] + 1]++;
	for (uint32_t l = 0; l < ops.count; l++)
		m->gantt.row_first_bar[l + 1] += m->gantt.row_first_bar[l];
	{
		size_t *next = malloc((ops.count ? ops.count : 1) * sizeof(*next));
		if (!next) {
			error = rli_error_oom();
			goto done;
		}
		memcpy(next, m->gantt.row_first_bar, ops.count * sizeof(*next));
		for (size_t i = 0; i < count; i++) {
			size_t at = next[lane_of_op[blocks[i].op]]++;
			m->gantt.bar_row[at] = lane_of_op[blocks[i].op];
			m->gantt.bar_series[at] = blocks[i].op;
			m->gantt.bar_start[at] = shift + blocks[i].start;
			m->gantt.bar_end[at] = shift + blocks[i].end;
		}
		free(next);
	}
	m->gantt.bar_count = count;
	if ((error = rli_memory_x_title(&m->gantt, gantt_top + gantt_height + TICK_LABEL_GAP + tick_height + X_TITLE_GAP,
				      width, text)) < 0 ||
	    (error = rli_set_text(&m->gantt.y_title, "Operator", PAGE_PAD + y_title_height / 2,
				  gantt_top + gantt_height / 2, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE,
				  RLI_ALIGN_MIDDLE)) < 0)
		goto done;
	m->gantt.y_title.angle = 90.0;

	if ((error = rli_memory_titles(&m->title, &m->subtitle, device, &m->summary, origin, MEM_TITLE_Y, width,
				       text)) < 0)
		goto done;
	{
		static const char table_title[] = "Largest blocks live at the peak";
		double table_top = gantt_top + gantt_height + TICK_LABEL_GAP + tick_height + X_TITLE_GAP +
				   AXIS_TITLE_SIZE + MEM_TABLE_GAP;
		double room = width - 2 * PAGE_PAD, size = AXIS_TITLE_SIZE;
		/* On the narrowest pages the table's title is set smaller rather than cut. */
		rli_text_measure(&w, &h, text, table_title, AXIS_TITLE_SIZE, 0);
		if (w > room)
			size = fmax(MIN_TITLE_SIZE, floor(AXIS_TITLE_SIZE * room / w));
		if ((error = rli_set_text(&m->table_title, table_title, PAGE_PAD, table_top, size, RLI_ALIGN_START,
					  RLI_ALIGN_START)) < 0 ||
		    (error = rli_memory_peak_table(&m->table, device, blocks, count, m->summary.peak_ms, shift, PAGE_PAD,
						   table_top + MEM_TABLE_ROW * 1.4, room, text)) < 0)
			goto done;
		if (size < AXIS_TITLE_SIZE)
			m->table_title.max_width = room;
	}

	m->items[0] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &m->title };
	m->items[1] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = &m->curve };
	m->items[2] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = &m->gantt };
	m->items[3] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &m->table_title };
	m->items[4] = (rli_item){ .kind = RLI_ITEM_TABLE, .u.table = &m->table };
	/* The origin's own line, last so the other items keep their places whatever the width. */
	m->items[5] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &m->subtitle };
	page->items = m->items;
	page->item_count = m->subtitle.text ? 6 : 5;
	if (m->legend.series_count)
		m->items[page->item_count++] = (rli_item){ .kind = RLI_ITEM_LEGEND, .u.legend = &m->legend };
	if (!(m->name = file_stem(device)))
		error = rli_error_oom();
	page->name = m->name;

done:
	rli_strpool_dispose(&ops);
	rli_bigmem_free(blocks);
	free(lanes);
	free(lane_of_op);
	return error;
}

/* ---- the figure -------------------------------------------------------- */

static void page_dispose(memory_page *m)
{
	/* The bars' columns came from rli_bigmem_resize: freed here, so the panel's dispose frees only the rest. */
	rli_bigmem_free(m->gantt.bar_row);
	rli_bigmem_free(m->gantt.bar_series);
	rli_bigmem_free(m->gantt.bar_start);
	rli_bigmem_free(m->gantt.bar_end);
	m->gantt.bar_row = m->gantt.bar_series = NULL;
	m->gantt.bar_start = m->gantt.bar_end = NULL;
	rli_panel_dispose(&m->curve);
	rli_panel_dispose(&m->gantt);
	rli_bigmem_free(m->lines[0].x);
	rli_bigmem_free(m->lines[0].y);
	rli_bigmem_free(m->lines[1].x);
	rli_bigmem_free(m->lines[1].y);
	rli_memory_legend_dispose(&m->legend);
	free(m->peak.label.text);
	free(m->title.text);
	free(m->subtitle.text);
	free(m->table_title.text);
	rli_memory_table_dispose(&m->table);
	for (size_t s = 0; m->series && s < m->series_count; s++)
		free(m->series[s].name);
	free(m->series);
	free(m->name);
}

void rli_memory_figure_free(rli_memory_figure *figure)
{
	if (!figure)
		return;
	for (size_t i = 0; i < figure->count; i++)
		page_dispose(&figure->memory[i]);
	free(figure->memory);
	free(figure->pages);
	free(figure);
}

const rli_document *rli_memory_figure_document(const rli_memory_figure *figure)
{
	return &figure->document;
}

const rli_memory_summary *rli_memory_figure_summary(const rli_memory_figure *figure, size_t page)
{
	return page < figure->count ? &figure->memory[page].summary : NULL;
}

/* What each device's layout, on whichever thread, reads and where it writes. */
typedef struct {
	rli_memory_figure *figure;
	const rli_memory_device *devices;
	const size_t *shown;
	double *page_scale;
	const rli_timeline_options *options;
} figure_work;

static int lay_out_shown(void *arg, size_t k, PangoContext *text, unsigned inner)
{
	const figure_work *w = arg;
	(void)inner; /* a figure is one page: nothing in it to share out */
	return lay_out_device(&w->figure->memory[k], &w->figure->pages[k], &w->devices[w->shown[k]], w->options->width,
			      w->options->scale, w->options->medium, w->options->max_height,
			      w->options->run ? w->options->run->origin_ms : NAN, text, &w->page_scale[k]);
}

int rli_memory_figure_layout(rli_memory_figure **out, const rli_memory_device *devices, size_t device_count,
			     const rli_timeline_options *options_in)
{
	rli_timeline_options options;
	rli_memory_figure *figure = calloc(1, sizeof(*figure));
	size_t *shown = NULL;    /* the devices drawn: page k is devices[shown[k]] */
	double *page_scale = NULL; /* the raster scale each page allows */
	double raster_scale = 0;
	figure_work work;
	int error;

	*out = NULL;
	if (options_in)
		options = *options_in;
	else
		rli_timeline_options_init(&options);
	if (!figure)
		return rli_error_oom();
	if (options.width < RLI_TIMELINE_MIN_WIDTH || options.width > RLI_TIMELINE_MAX_WIDTH ||
	    options.scale < 1 || options.scale > RLI_TIMELINE_MAX_SCALE) {
		error = rli_error_set(RLI_EUSAGE, "memory figure: width %d or scale %d out of range", options.width,
				      options.scale);
		goto done;
	}
	figure->memory = calloc(device_count ? device_count : 1, sizeof(*figure->memory));
	figure->pages = calloc(device_count ? device_count : 1, sizeof(*figure->pages));
	shown = calloc(device_count ? device_count : 1, sizeof(*shown));
	page_scale = calloc(device_count ? device_count : 1, sizeof(*page_scale));
	if (!figure->memory || !figure->pages || !shown || !page_scale) {
		error = rli_error_oom();
		goto done;
	}
	figure->document.raster_scale = options.scale;
	/* The devices with an allocation to draw, each laid out on its own, on as many threads as fit. */
	for (size_t d = 0; d < device_count; d++) {
		int any = 0;
		for (size_t i = 0; i < devices[d].count && !any; i++)
			any = devices[d].size_kb[i] > 0 && isfinite(devices[d].start_ms[i]);
		if (any)
			shown[figure->count++] = d; /* counted before it is laid out, so its parts are freed */
	}
	work = (figure_work){ figure, devices, shown, page_scale, &options };
	if ((error = rli_memory_lay_out_devices(devices, shown, figure->count, options.threads, lay_out_shown,
					       &work)) < 0)
		goto done;
	/* One scale for the document: the smallest any page allows (0 if one cannot be a raster). */
	for (size_t k = 0; k < figure->count; k++)
		raster_scale = k == 0 ? page_scale[k] : fmin(raster_scale, page_scale[k]);
	if (!figure->count) {
		error = rli_error_set(RLI_EINVALID, "nothing to draw: no device has an allocation");
		goto done;
	}
	/* One device: memory_timeline.png, as the reference names it; several: a file each by role and rank. */
	if (figure->count == 1)
		figure->pages[0].name = NULL;
	figure->document.name = "memory_timeline";
	figure->document.title = figure->memory[0].title.text;
	figure->document.scale = options.scale;
	figure->document.raster_scale = raster_scale;
	figure->document.background = WHITE;
	figure->document.text_color = TEXT_COLOR;
	figure->document.font_family = RLI_TEXT_FAMILY;
	figure->document.origin = 0;
	figure->document.pages = figure->pages;
	figure->document.page_count = figure->count;
	*out = figure;
	figure = NULL;
	error = RLI_OK;
done:
	free(shown);
	free(page_scale);
	rli_memory_figure_free(figure);
	return error;
}

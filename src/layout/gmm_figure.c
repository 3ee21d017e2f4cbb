/* gmm_figure.c: the GMM heatmap laid out: three panels (the segment strip, the cells, the colour bar) and their texts, on one page in points. */
#include "gmm_figure.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PT_PER_INCH 72.0
#define GMM_TICK_SIZE 8.0
#define GMM_TITLE_SIZE 12.0
#define GMM_LABEL_SIZE 10.0
#define GMM_STRIP_ALPHA 0.55     /* the strip's bands over white, as the reference blends them */
#define GMM_SEPARATOR_WIDTH 0.8
#define GMM_MIN_BAND 3.0         /* points: bands closer than this get no separator of their own */
#define GMM_MIN_TEXT 5.5         /* points: a segment's text needs a band this tall */
#define GMM_MIN_ROW_PIXELS 2.0   /* device pixels a row needs to be told from the next */
#define GMM_MAX_YTICKS 40
#define GMM_MAX_XTICKS 40
#define GMM_BAR_STEPS 256
#define GMM_ROLE_CUT 14          /* a role past this many characters is cut, with "…" */

enum { PANEL_STRIP, PANEL_CELLS, PANEL_BAR, PANEL_COUNT };

struct rli_gmm_figure {
	rli_document document;
	rli_page page;
	rli_item *items;
	size_t item_count;
	rli_panel panels[PANEL_COUNT];
	rli_cell_grid grids[PANEL_COUNT];
	rli_color *colors[PANEL_COUNT];
	uint8_t *present;
	rli_line_mark *lines;         /* the separators: on the cells, then on the strip */
	double *line_xy;
	size_t line_count;
	rli_text *texts;
	size_t text_count, text_capacity;
	rli_gmm_matrix *merged;       /* the overview's matrix, or NULL */
	size_t title;                 /* the title's text, in texts */
	double lo, hi;                /* the load range the colours span */
	rli_color map[GMM_BAR_STEPS]; /* the colour map, lowest first */
};

void rli_gmm_figure_options_init(rli_gmm_figure_options *options)
{
	*options = (rli_gmm_figure_options){ .dpi = 200.0, .cmap = RLI_CMAP_VIRIDIS, .medium = RLI_MEDIUM_RASTER,
					     .overview = 1 };
}

/* A text item of the page; its text copied. */
static int add_text(rli_gmm_figure *f, const char *text, double x, double y, double size, rli_align halign,
		    rli_align valign, double angle, double max_width)
{
	rli_text *t;
	if (f->text_count == f->text_capacity)
		return rli_error_set(RLI_ERROR, "gmm figure: more texts than planned");
	t = &f->texts[f->text_count];
	if (rli_set_text(t, text, x, y, size, halign, valign) < 0)
		return rli_error_oom();
	t->angle = angle;
	t->max_width = max_width;
	f->text_count++;
	return RLI_OK;
}

/* "st3 · actor_compute_… · r7", the rank left out where the ranks are merged. */
static void segment_text(char *out, size_t size, const rli_gmm_segment *s)
{
	char role[64];
	size_t n = strlen(s->role);
	if (n > GMM_ROLE_CUT) {
		n = GMM_ROLE_CUT;
		while (n > 0 && ((unsigned char)s->role[n] & 0xC0) == 0x80)
			n--; /* not inside a UTF-8 sequence */
		snprintf(role, sizeof(role), "%.*s\u2026", (int)n, s->role);
	} else {
		snprintf(role, sizeof(role), "%s", s->role);
	}
	if (s->rank < 0)
		snprintf(out, size, "st%lld \u00b7 %s", (long long)s->step, role);
	else
		snprintf(out, size, "st%lld \u00b7 %s \u00b7 r%lld", (long long)s->step, role, (long long)s->rank);
}

/* The colour of the cells and the strip's bands: the map's, or the band's viridis over white. */
static rli_color blend_white(rli_color c, double alpha)
{
	unsigned out = 0;
	for (int shift = 16; shift >= 0; shift -= 8) {
		double v = ((c >> shift) & 0xFF) * alpha + 255.0 * (1.0 - alpha);
		out |= (unsigned)lround(v) << shift;
	}
	return out;
}

/* The panels share the page's geometry: a value scale of rows, row 0 at the top (y = rows at the top). */
static void value_panel(rli_panel *p, rli_rect plot, double x_min, double x_max, double y_min, double y_max)
{
	*p = (rli_panel){ .plot = plot, .x_min = x_min, .x_max = x_max, .y_scale = RLI_Y_VALUES, .y_min = y_min,
			  .y_max = y_max, .tick_label_size = GMM_TICK_SIZE, .tick_label_gap = 4.0, .grid_color = WHITE };
}

/* The cells coloured by the map over [lo, hi]; absent where the load is not a number. */
static int colour_cells(rli_gmm_figure *f, const rli_gmm_matrix *m, rli_colormap cmap, double lo, double hi)
{
	size_t n = m->rows * m->experts;
	if (!(f->colors[PANEL_CELLS] = malloc(n * sizeof(rli_color))) || !(f->present = malloc(n)))
		return rli_error_oom();
	for (size_t i = 0; i < n; i++) {
		double v = m->cells[i];
		f->present[i] = isfinite(v) != 0;
		f->colors[PANEL_CELLS][i] = f->present[i] ? rli_colormap_color(cmap, (v - lo) / (hi - lo)) : WHITE;
	}
	f->grids[PANEL_CELLS] = (rli_cell_grid){ .columns = m->experts, .rows = m->rows, .colors = f->colors[PANEL_CELLS],
						 .present = f->present };
	return RLI_OK;
}

/*
 * The separators: white lines at the segments' edges where bands are tall enough to tell apart,
 * else at the steps' edges, else none. On the cells and on the strip.
 */
static int separators(rli_gmm_figure *f, const rli_gmm_matrix *m, double row_height)
{
	size_t n = m->segment_count, count = 0, steps = 1;
	int by_step;
	for (size_t g = 1; g < n; g++)
		steps += m->segments[g].step != m->segments[g - 1].step;
	by_step = (double)m->rows / (double)n * row_height < GMM_MIN_BAND;
	if (by_step && (double)m->rows / (double)steps * row_height < GMM_MIN_BAND)
		return RLI_OK;
	if (!(f->lines = calloc(2 * (n + 1), sizeof(*f->lines))) || !(f->line_xy = malloc(8 * (n + 1) * sizeof(double))))
		return rli_error_oom();
	for (size_t g = 0; g <= n; g++) {
		size_t row = g < n ? m->segments[g].first : m->rows;
		double y = (double)(m->rows - row);
		if (g > 0 && g < n && by_step && m->segments[g].step == m->segments[g - 1].step)
			continue;
		for (int panel = 0; panel < 2; panel++) {
			double *xy = f->line_xy + 4 * count + 2 * panel * (n + 1) * 2;
			rli_line_mark *line = &f->lines[panel * (n + 1) + count];
			xy[0] = panel == 0 ? -0.5 : 0.0;
			xy[1] = panel == 0 ? (double)m->experts - 0.5 : 1.0;
			xy[2] = y;
			xy[3] = y;
			*line = (rli_line_mark){ .count = 2, .x = xy, .y = xy + 2, .color = WHITE,
						 .width = GMM_SEPARATOR_WIDTH };
		}
		count++;
	}
	f->panels[PANEL_CELLS].lines = f->lines;
	f->panels[PANEL_CELLS].line_count = count;
	f->panels[PANEL_STRIP].lines = f->lines + n + 1;
	f->panels[PANEL_STRIP].line_count = count;
	return RLI_OK;
}

/* The segment's text size: as the band allows up to 11.5 pt, smaller until it fits the strip's width (5.5 pt at least). */
static double text_size(PangoContext *text, const char *s, double band, double room)
{
	double size = fmin(11.5, 0.6 * band), w, h;
	while (size > GMM_MIN_TEXT && rli_text_measure(&w, &h, text, s, size, 0) == RLI_OK && w > room)
		size = fmax(GMM_MIN_TEXT, size - 0.5);
	return size;
}

/* The strip: a band per segment in viridis at its place among the segments, and its text where it fits. */
static int strip(rli_gmm_figure *f, const rli_gmm_matrix *m, double row_height, PangoContext *measure)
{
	const rli_panel *p = &f->panels[PANEL_STRIP];
	size_t n = m->segment_count;
	int error = RLI_OK;
	if (!(f->colors[PANEL_STRIP] = malloc(m->rows * sizeof(rli_color))))
		return rli_error_oom();
	for (size_t g = 0; g < n && error == RLI_OK; g++) {
		const rli_gmm_segment *s = &m->segments[g];
		rli_color band = blend_white(rli_colormap_color(RLI_CMAP_VIRIDIS, n > 1 ? (double)g / (double)(n - 1) : 0.0),
					     GMM_STRIP_ALPHA);
		double height = (double)s->count * row_height;
		char text[160];
		for (size_t j = s->first; j < s->first + s->count; j++)
			f->colors[PANEL_STRIP][j] = band;
		if (height < GMM_MIN_TEXT)
			continue;
		segment_text(text, sizeof(text), s);
		error = add_text(f, text, p->plot.x + p->plot.w / 2, p->plot.y + ((double)s->first + (double)s->count / 2) * row_height,
				 text_size(measure, text, height, p->plot.w - 4.0), RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE, 0.0,
				 p->plot.w - 4.0);
		if (error == RLI_OK)
			f->texts[f->text_count - 1].color = 0x000000;
	}
	f->grids[PANEL_STRIP] = (rli_cell_grid){ .columns = 1, .rows = m->rows, .colors = f->colors[PANEL_STRIP] };
	return error;
}

/* Y ticks: a "layer<K>" where the layer changes down the rows (and the last row), thinned to 40. */
static int layer_ticks(rli_panel *p, const rli_gmm_matrix *m)
{
	size_t count = 0, kept;
	size_t *at = malloc((m->rows + 1) * sizeof(*at));
	if (!at)
		return rli_error_oom();
	for (size_t j = 0; j < m->rows; j++)
		if (j == 0 || m->layer[j] != m->layer[j - 1] || m->row_segment[j] != m->row_segment[j - 1])
			at[count++] = j;
	if (at[count - 1] != m->rows - 1)
		at[count++] = m->rows - 1;
	kept = count > GMM_MAX_YTICKS ? GMM_MAX_YTICKS : count;
	if (!(p->yticks = calloc(kept, sizeof(*p->yticks)))) {
		free(at);
		return rli_error_oom();
	}
	for (size_t i = 0; i < kept; i++) {
		size_t j = at[kept == count ? i : i * (count - 1) / (GMM_MAX_YTICKS - 1)];
		p->yticks[i].value = (double)(m->rows - j) - 0.5;
		snprintf(p->yticks[i].label, sizeof(p->yticks[i].label), "layer%u", m->layer[j]);
	}
	p->ytick_count = kept;
	free(at);
	return RLI_OK;
}

static int expert_ticks(rli_panel *p, size_t experts)
{
	size_t step = experts / GMM_MAX_XTICKS > 1 ? experts / GMM_MAX_XTICKS : 1, count = (experts + step - 1) / step;
	if (!(p->xticks = calloc(count, sizeof(*p->xticks))))
		return rli_error_oom();
	for (size_t i = 0; i < count; i++) {
		p->xticks[i].value = (double)(i * step);
		snprintf(p->xticks[i].label, sizeof(p->xticks[i].label), "%zu", i * step);
	}
	p->xtick_count = count;
	return RLI_OK;
}

/* The colour bar: the map in 256 steps, highest at the top, and its nice ticks written right of it. */
static int colour_bar(rli_gmm_figure *f, rli_colormap cmap, double lo, double hi)
{
	rli_panel *p = &f->panels[PANEL_BAR];
	rli_tick ticks[16];
	size_t count = rli_nice_ticks(ticks, 16, lo, hi, 5);
	int error = RLI_OK;
	if (!(f->colors[PANEL_BAR] = malloc(GMM_BAR_STEPS * sizeof(rli_color))))
		return rli_error_oom();
	for (size_t i = 0; i < GMM_BAR_STEPS; i++)
		f->colors[PANEL_BAR][i] = rli_colormap_color(cmap, (GMM_BAR_STEPS - 1 - i + 0.5) / GMM_BAR_STEPS);
	f->grids[PANEL_BAR] = (rli_cell_grid){ .columns = 1, .rows = GMM_BAR_STEPS, .colors = f->colors[PANEL_BAR] };
	for (size_t i = 0; i < count && error == RLI_OK; i++) {
		char label[48];
		const char *dot = strchr(ticks[i].label, '.');
		double y = p->plot.y + p->plot.h - (ticks[i].value - lo) / (hi - lo) * p->plot.h;
		rli_fmt_thousands(label, sizeof(label), ticks[i].value, dot ? (int)strlen(dot + 1) : 0);
		error = add_text(f, label, p->plot.x + p->plot.w + 4.0, y, GMM_TICK_SIZE, RLI_ALIGN_START, RLI_ALIGN_MIDDLE,
				 0.0, 0.0);
	}
	return error;
}

static int lay_out(rli_gmm_figure *f, const rli_gmm_matrix *full, const rli_gmm_figure_options *o, PangoContext *measure)
{
	const rli_gmm_matrix *m = full;
	double E = (double)full->experts, width, height, plot_top, plot_bottom, row_height, lo, hi, scale, bar_w, bar_h;
	char line[256], ranks[48];
	int error;

	/* The size of the reference's canvas (gmm.md §5.5), from the rows it will draw. */
	height = fmin(22.0, fmax(8.0, 6.0 + 0.9 * sqrt(fmax((double)full->rows, 1.0)))) * PT_PER_INCH;
	if (o->overview && (double)full->rows * GMM_MIN_ROW_PIXELS > 0.77 * height / PT_PER_INCH * o->dpi) {
		if ((error = rli_gmm_matrix_merge_ranks(&f->merged, full)) < 0)
			return error;
		m = f->merged;
	}
	width = (fmin(32.0, fmax(10.0, 0.18 * E)) + 2.8) * PT_PER_INCH;
	plot_top = 0.12 * height;
	plot_bottom = (o->caption ? 0.86 : 0.89) * height;
	row_height = (plot_bottom - plot_top) / (double)m->rows;
	lo = m->min;
	hi = m->max;
	if (!(hi > lo)) { /* one value (or none): the range widened, every cell the map's middle */
		lo = isfinite(lo) ? lo - 0.5 : 0.0;
		hi = lo + 1.0;
	}
	f->lo = lo;
	f->hi = hi;
	for (size_t i = 0; i < GMM_BAR_STEPS; i++)
		f->map[i] = rli_colormap_color(o->cmap, (i + 0.5) / GMM_BAR_STEPS);
	value_panel(&f->panels[PANEL_STRIP], (rli_rect){ 0.06 * width, plot_top, 0.13 * width, plot_bottom - plot_top }, 0.0,
		    1.0, 0.0, (double)m->rows);
	value_panel(&f->panels[PANEL_CELLS], (rli_rect){ 0.235 * width, plot_top, 0.64 * width, plot_bottom - plot_top },
		    -0.5, E - 0.5, 0.0, (double)m->rows);
	bar_w = 0.013 * width;
	bar_h = fmin(plot_bottom - plot_top, 20.0 * bar_w);
	value_panel(&f->panels[PANEL_BAR], (rli_rect){ 0.89 * width, (plot_top + plot_bottom - bar_h) / 2, bar_w, bar_h },
		    0.0, 1.0, lo, hi);
	f->text_capacity = m->segment_count + 24;
	if (!(f->texts = calloc(f->text_capacity, sizeof(*f->texts))))
		return rli_error_oom();
	if ((error = colour_cells(f, m, o->cmap, lo, hi)) < 0 || (error = strip(f, m, row_height, measure)) < 0 ||
	    (error = separators(f, m, row_height)) < 0 || (error = layer_ticks(&f->panels[PANEL_CELLS], m)) < 0 ||
	    (error = expert_ticks(&f->panels[PANEL_CELLS], full->experts)) < 0 ||
	    (error = colour_bar(f, o->cmap, lo, hi)) < 0)
		return error;
	for (int k = 0; k < PANEL_COUNT; k++)
		f->panels[k].cells = &f->grids[k];

	/* The texts: title, the strip's two lines, axis titles, the note of the overview, the caption. */
	if (full->ranks == 1)
		snprintf(ranks, sizeof(ranks), "rank=%lld", (long long)full->segments[0].rank);
	else
		snprintf(ranks, sizeof(ranks), "ranks=%zu", full->ranks);
	snprintf(line, sizeof(line), "GMM expert load (group_list) %s \u2014 %zu snapshots, %zu experts", ranks, full->rows,
		 full->experts);
	f->title = f->text_count;
	if ((error = add_text(f, line, 0.235 * width + 0.32 * width, 0.05 * height, GMM_TITLE_SIZE, RLI_ALIGN_MIDDLE,
			      RLI_ALIGN_MIDDLE, 0.0, 0.0)) < 0)
		return error;
	f->texts[f->text_count - 1].bold = 1;
	if ((error = add_text(f, "Row: layerK (K = merged layer index)", 0.125 * width, plot_top - 20.0, GMM_LABEL_SIZE,
			      RLI_ALIGN_MIDDLE, RLI_ALIGN_END, 0.0, 0.0)) < 0 ||
	    (error = add_text(f, m == full ? "step \u00b7 role \u00b7 rank" : "step \u00b7 role (ranks summed)",
			      0.125 * width, plot_top - 6.0, GMM_LABEL_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_END, 0.0, 0.0)) < 0 ||
	    (error = add_text(f, "Expert index", 0.555 * width, plot_bottom + 26.0, GMM_LABEL_SIZE, RLI_ALIGN_MIDDLE,
			      RLI_ALIGN_START, 0.0, 0.0)) < 0 ||
	    (error = add_text(f, m == full ? "Tokens per expert (group_list)" : "Tokens per expert, summed over the ranks",
			      0.965 * width, (plot_top + plot_bottom) / 2, GMM_LABEL_SIZE, RLI_ALIGN_MIDDLE,
			      RLI_ALIGN_MIDDLE, 90.0, 0.0)) < 0)
		return error;
	if (m != full) {
		char rows[32], most[32];
		rli_fmt_thousands(rows, sizeof(rows), (double)full->rows, 0);
		rli_fmt_thousands(most, sizeof(most), floor(0.77 * height / PT_PER_INCH * o->dpi / GMM_MIN_ROW_PIXELS), 0);
		snprintf(line, sizeof(line), "%s snapshots are more than the figure shows apart (%s): each row is a layer of a "
			 "step and role, summed over its %zu ranks; --all-rows draws every snapshot", rows, most, full->ranks);
		if ((error = add_text(f, line, 0.555 * width, 0.05 * height + 16.0, GMM_LABEL_SIZE - 1.0, RLI_ALIGN_MIDDLE,
				      RLI_ALIGN_MIDDLE, 0.0, 0.9 * width)) < 0)
			return error;
	}
	if (o->caption && (error = add_text(f, o->caption, 0.555 * width, 0.95 * height, GMM_LABEL_SIZE, RLI_ALIGN_MIDDLE,
					    RLI_ALIGN_MIDDLE, 0.0, 0.9 * width)) < 0)
		return error;

	if (!(f->items = calloc(PANEL_COUNT + f->text_count, sizeof(*f->items))))
		return rli_error_oom();
	for (int k = 0; k < PANEL_COUNT; k++)
		f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = &f->panels[k] };
	for (size_t i = 0; i < f->text_count; i++)
		f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &f->texts[i] };
	/* The dpi asked for, brought within the 32767 pixels a PNG may have a side. */
	scale = fmin(o->dpi / PT_PER_INCH, fmin(32767.0 / width, 32767.0 / height));
	f->page = (rli_page){ .width = width, .height = height, .item_count = f->item_count, .items = f->items };
	f->document = (rli_document){ .name = "gmm_heatmap", .title = "GMM expert load", .scale = 1,
				      .raster_scale = scale, .background = WHITE, .text_color = TEXT_COLOR,
				      .font_family = RLI_TEXT_FAMILY, .units_per_inch = PT_PER_INCH, .page_count = 1,
				      .pages = &f->page };
	return RLI_OK;
}

int rli_gmm_figure_layout(rli_gmm_figure **out, const rli_gmm_matrix *matrix, const rli_gmm_figure_options *options)
{
	rli_gmm_figure_options defaults;
	PangoContext *measure = NULL;
	rli_gmm_figure *f;
	int error;

	*out = NULL;
	if (!options) {
		rli_gmm_figure_options_init(&defaults);
		options = &defaults;
	}
	if (!matrix->rows || !matrix->experts)
		return rli_error_set(RLI_EINVALID, "gmm figure: no expert load to draw");
	if (!(options->dpi > 0))
		return rli_error_set(RLI_EUSAGE, "heatmap.visualizer.dpi must be positive, not %g", options->dpi);
	if (!(f = calloc(1, sizeof(*f))))
		return rli_error_oom();
	if ((error = rli_text_context_new(&measure)) == RLI_OK)
		error = lay_out(f, matrix, options, measure);
	if (measure)
		g_object_unref(measure);
	if (error < 0) {
		rli_gmm_figure_free(f);
		return error;
	}
	*out = f;
	return RLI_OK;
}

void rli_gmm_figure_range(const rli_gmm_figure *f, double *lo, double *hi)
{
	*lo = f->lo;
	*hi = f->hi;
}

const rli_color *rli_gmm_figure_colors(const rli_gmm_figure *f)
{
	return f->map;
}

rli_color rli_gmm_figure_strip_color(const rli_gmm_figure *f, size_t row)
{
	return f->colors[PANEL_STRIP][row];
}

const char *rli_gmm_figure_title(const rli_gmm_figure *f)
{
	return f->texts[f->title].text;
}

int rli_gmm_figure_merged(const rli_gmm_figure *f)
{
	return f->merged != NULL;
}

const rli_document *rli_gmm_figure_document(const rli_gmm_figure *f)
{
	return &f->document;
}

void rli_gmm_figure_free(rli_gmm_figure *f)
{
	if (!f)
		return;
	for (int k = 0; k < PANEL_COUNT; k++) {
		rli_panel_dispose(&f->panels[k]);
		free(f->colors[k]);
	}
	free(f->present);
	free(f->lines);
	free(f->line_xy);
	for (size_t i = 0; i < f->text_count; i++)
		free(f->texts[i].text);
	free(f->texts);
	free(f->items);
	rli_gmm_matrix_free(f->merged);
	free(f);
}

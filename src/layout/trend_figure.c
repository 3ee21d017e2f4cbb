/* trend_figure.c: the trend page composed: its heading, a panel per role, the memory and the straggler strip on one axis of runs, and what the HTML page adds (hover text, the table of runs). */
#include "trend_parts.h"
#include "medium.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUBTITLE_SIZE 14.0
#define TICK_ROOM 64.0            /* the value axes' labels, left of the plots */
#define HEADING_END 128.0

rli_text *trend_text(trend_page *page, const char *text, double x, double y, double size, int bold, rli_color color,
		     rli_align halign, rli_align valign, double max_width)
{
	rli_trend_figure *f = page->f;
	rli_text *t;
	if (RLI_GROW(&f->texts, &f->text_capacity, f->text_count + 1, 32) < 0)
		return NULL;
	t = &f->texts[f->text_count];
	if (rli_set_text(t, text, x, y, size, halign, valign) < 0)
		return NULL;
	t->bold = bold;
	t->color = color;
	t->max_width = max_width > 0 ? max_width : 0;
	f->text_count++;
	return t;
}

double trend_text_width(const trend_page *page, const char *text, double size, int bold)
{
	double w, h;
	rli_text_measure(&w, &h, page->text, text, size, bold);
	return w;
}

int trend_title(trend_page *page, const char *title, const char *note, rli_color note_color)
{
	double room = page->width - 2 * PAGE_PAD, w = fmin(trend_text_width(page, title, TREND_PANEL_TITLE, 1), 0.6 * room);
	double x = PAGE_PAD + w + 14, left = page->width - PAGE_PAD - x;
	if (!trend_text(page, title, PAGE_PAD, page->y + 10, TREND_PANEL_TITLE, 1, TEXT_COLOR, RLI_ALIGN_START,
			RLI_ALIGN_MIDDLE, w))
		return RLI_ERROR;
	/* A note cut to a few characters says nothing: left out. */
	if (left < 60)
		return RLI_OK;
	return trend_text(page, note, x, page->y + 10, TREND_NOTE_SIZE, 0, note_color, RLI_ALIGN_START, RLI_ALIGN_MIDDLE,
			  left) ? RLI_OK : RLI_ERROR;
}

double trend_unit(double max_ms, const char **name)
{
	/* Durations read best in the unit of their size: 812 ms, 14.2 s, 3.5 min. */
	if (max_ms < 1000) {
		*name = "ms";
		return 1;
	}
	if (max_ms < 600000) {
		*name = "s";
		return 1000;
	}
	*name = "min";
	return 60000;
}

/* When a run was: captured, else analysed ("YYYY-MM-DD..."). */
static const char *when(const rli_history_run *run)
{
	return run->captured_at ? run->captured_at : run->analysed_at ? run->analysed_at : "";
}

/* The runs' axis labels: their dates where each run has a day of its own, else their ids. */
static int by_date(const rli_trend *t, int *with_year)
{
	*with_year = 0;
	for (size_t i = 0; i < t->count; i++) {
		const char *a = when(t->points[i].run);
		if (strlen(a) < 10)
			return 0;
		for (size_t j = 0; j < i; j++)
			if (strncmp(a, when(t->points[j].run), 10) == 0)
				return 0;
		*with_year |= strncmp(a, when(t->points[0].run), 4) != 0;
	}
	return 1;
}

static void point_label(char *out, size_t size, const rli_trend *t, size_t i, int dates, int with_year)
{
	const rli_history_run *run = t->points[i].run;
	if (dates)
		snprintf(out, size, "%.*s", with_year ? 10 : 5, when(run) + (with_year ? 0 : 5));
	else if (run->id == 0)
		snprintf(out, size, "this run");
	else
		snprintf(out, size, "#%lld", (long long)run->id);
}

/* Ticks at whole runs, the last run always among them, as dense as TICK_SPACING allows. */
static int x_ticks(trend_page *page, int dates, int with_year)
{
	static const size_t steps[] = { 1, 2, 5, 10, 20, 25, 50, 100 };
	const rli_trend *t = page->trend;
	size_t n = t->count, step = steps[0], count = 0;
	double target = fmax(2.0, round((page->right - page->left) / TICK_SPACING));
	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]) && (double)(n - 1) / (double)step > target; s++)
		step = steps[s];
	page->xtick_target = (int)target;
	if (!(page->xticks = calloc(n / step + 2, sizeof(*page->xticks))))
		return rli_error_oom();
	for (size_t i = (n - 1) % step; i < n; i += step) {
		page->xticks[count].value = (double)i;
		point_label(page->xticks[count].label, sizeof(page->xticks[count].label), t, i, dates, with_year);
		count++;
	}
	page->xtick_count = count;
	return RLI_OK;
}

/* The roles of every point, sorted, each once. */
static int all_roles(const rli_trend *t, const char ***out, size_t *count)
{
	const char **roles = NULL;
	size_t n = 0, capacity = 0;
	for (size_t k = 0; k < t->count; k++)
		for (size_t i = 0; i < t->points[k].side->phase_count; i++)
			if (trend_add_name(&roles, &n, &capacity, t->points[k].side->phases[i].role) < 0) {
				free(roles);
				return RLI_ERROR;
			}
	*out = roles;
	*count = n;
	return RLI_OK;
}

static int has_roles(const rli_trend *t)
{
	for (size_t k = 0; k < t->count; k++)
		if (t->points[k].side->role_count)
			return 1;
	return 0;
}

static int has_memory(const rli_trend *t)
{
	for (size_t k = 0; k < t->count; k++)
		if (t->points[k].side->device_count)
			return 1;
	return 0;
}

static int has_experts(const rli_trend *t)
{
	for (size_t k = 0; k < t->count; k++)
		if (t->points[k].side->gmm_layer_count)
			return 1;
	return 0;
}

/* "2026-03-12 03:24 UTC" of a stored time, or "—". */
static void short_time(char *out, size_t size, const char *stamp)
{
	if (stamp && strlen(stamp) >= 16)
		snprintf(out, size, "%.10s %.5s", stamp, stamp + 11);
	else
		snprintf(out, size, "\xe2\x80\x94");
}

/* What hovering point k shows: the run, then each phase's median and quartiles, its change, the stragglers, the memory. */
static char *hover_text(const rli_trend *t, size_t k)
{
	const rli_trend_point *p = &t->points[k];
	const rli_history_run *run = p->run;
	char captured[32], analysed[32], *text, *line;
	double peak = -INFINITY;
	const rli_side_device *top = NULL;

	short_time(captured, sizeof(captured), run->captured_at);
	short_time(analysed, sizeof(analysed), run->analysed_at);
	if (run->id)
		text = rli_strfmt("Run #%lld%s\ncaptured %s, analysed %s UTC\n%s%s%srl-insight %s", (long long)run->id,
				  k == t->current ? " (this run)" : "", captured, analysed, run->label ? "label " : "",
				  run->label ? run->label : "", run->label ? ", " : "", run->tool_version ? run->tool_version : "");
	else
		text = rli_strfmt("This run (added to the history when its outputs are written)\ncaptured %s UTC\n%s%srl-insight %s",
				  captured, run->label ? "label " : "", run->label ? run->label : "",
				  run->tool_version ? run->tool_version : "");
	for (size_t i = 0; text && i < p->side->phase_count; i++) {
		const rli_side_phase *ph = &p->side->phases[i];
		char median[32], q1[32], q3[32], change[32] = "";
		rli_fmt_duration(median, sizeof(median), ph->sample.median_ms);
		rli_fmt_duration(q1, sizeof(q1), ph->sample.q1_ms);
		rli_fmt_duration(q3, sizeof(q3), ph->sample.q3_ms);
		if (p->change && isfinite(p->change[i]))
			rli_fmt_change(change, sizeof(change), p->change[i]);
		line = rli_strfmt("%s\n%s%s%s: %s (IQR %s \xe2\x80\x93 %s)%s%s%s", text, ph->role,
				  strcmp(ph->role, ph->name) ? " / " : "", strcmp(ph->role, ph->name) ? ph->name : "", median, q1,
				  q3, *change ? ", " : "", change, p->regressed && p->regressed[i] ? " \xe2\x80\x94 regression" : "");
		free(text);
		text = line;
	}
	for (size_t r = 0; text && r < p->side->role_count; r++)
		if (p->side->roles[r].has_straggler) {
			line = rli_strfmt("%s\nstraggler of %s: rank %lld", text, p->side->roles[r].role,
					  (long long)p->side->roles[r].straggler_rank);
			free(text);
			text = line;
		}
	for (size_t d = 0; d < p->side->device_count; d++)
		if (isfinite(p->side->devices[d].peak_mb) && p->side->devices[d].peak_mb > peak) {
			peak = p->side->devices[d].peak_mb;
			top = &p->side->devices[d];
		}
	for (size_t i = 0; text && i < p->side->gmm_layer_count;) {
		/* per role its most imbalanced layer, as its expert load's headline */
		const rli_side_gmm_layer *most = NULL;
		size_t end = i;
		for (; end < p->side->gmm_layer_count && strcmp(p->side->gmm_layers[end].role, p->side->gmm_layers[i].role) == 0; end++)
			if (isfinite(p->side->gmm_layers[end].imbalance) && (!most || p->side->gmm_layers[end].imbalance > most->imbalance))
				most = &p->side->gmm_layers[end];
		if (most) {
			line = rli_strfmt("%s\nexpert imbalance of %s: %.2fx at most (layer %u)", text, most->role, most->imbalance,
					  most->layer);
			free(text);
			text = line;
		}
		i = end;
	}
	if (text && top) {
		char mb[48];
		rli_fmt_thousands(mb, sizeof(mb), peak, 1);
		line = rli_strfmt("%s\nhighest memory peak: %s MB (%s rank %lld)", text, mb, top->role, (long long)top->rank);
		free(text);
		text = line;
	}
	if (text) {
		line = rli_strfmt("%s\n%s%s", text, p->link ? "outputs: " : "", p->link ? p->link : p->link_note ? p->link_note : "");
		free(text);
		text = line;
	}
	return text;
}

/* The table of runs the HTML page lists, newest first, and what hovering each point shows. */
static int runs_table(rli_trend_figure *f, const rli_trend *t)
{
	static const char *const header[RLI_TREND_RUN_COLUMNS] = { "Run", "Captured (UTC)", "Analysed (UTC)", "Label",
								     "rl-insight", "Outputs" };
	memcpy(f->header, header, sizeof(header));
	f->point_count = t->count;
	if (!(f->hover = calloc(t->count, sizeof(*f->hover))) || !(f->rows = calloc(t->count, sizeof(*f->rows))))
		return rli_error_oom();
	for (size_t k = 0; k < t->count; k++) {
		const rli_trend_point *p = &t->points[k];
		rli_trend_row *row = &f->rows[t->count - 1 - k];
		char captured[32], analysed[32], id[32];
		int regressed = 0;
		for (size_t i = 0; p->regressed && i < p->side->phase_count; i++)
			regressed |= p->regressed[i];
		short_time(captured, sizeof(captured), p->run->captured_at);
		short_time(analysed, sizeof(analysed), p->run->analysed_at);
		if (p->run->id)
			snprintf(id, sizeof(id), "#%lld%s", (long long)p->run->id, k == t->current ? " (this run)" : "");
		else
			snprintf(id, sizeof(id), "this run");
		row->point = k;
		row->current = k == t->current;
		row->regressed = regressed;
		row->href = p->link;
		row->cells[0] = rli_strdup(id);
		row->cells[1] = rli_strdup(captured);
		row->cells[2] = rli_strdup(p->run->id ? analysed : "now");
		row->cells[3] = rli_strdup(p->run->label ? p->run->label : "\xe2\x80\x94");
		row->cells[4] = rli_strdup(p->run->tool_version ? p->run->tool_version : "");
		row->cells[5] = rli_strdup(p->link ? "open" : p->link_note ? p->link_note : "");
		if (!(f->hover[k] = hover_text(t, k)))
			return rli_error_oom();
		for (int c = 0; c < RLI_TREND_RUN_COLUMNS; c++)
			if (!row->cells[c])
				return rli_error_oom();
	}
	return RLI_OK;
}

/* The heading: what the runs are, and how to read the marks. */
static int heading(trend_page *page)
{
	const rli_trend *t = page->trend;
	char first[16], last[16], span[48], threshold[48] = "", *title, *subtitle, *marks, *red;
	int error = RLI_OK, phases = 0;
	for (size_t k = 0; k < t->count; k++)
		phases |= t->points[k].side->phase_count > 0;
	snprintf(first, sizeof(first), "%.10s", when(t->points[0].run));
	snprintf(last, sizeof(last), "%.10s", when(t->points[t->count - 1].run));
	if (strcmp(first, last) == 0)
		snprintf(span, sizeof(span), "of %s", first);
	else
		snprintf(span, sizeof(span), "from %s to %s", first, last);
	if (t->threshold > 0)
		snprintf(threshold, sizeof(threshold), " by more than %g%% and", t->threshold * 100);
	title = rli_strfmt("Run history: %s%s%s%s", t->input ? t->input : "", t->family && *t->family ? " (label family " : "",
			   t->family && *t->family ? t->family : "", t->family && *t->family ? ")" : "");
	subtitle = rli_strfmt("%zu run%s %s, from %s%s", t->count, t->count == 1 ? "" : "s", span,
			      t->history_path ? t->history_path : "the history",
			      t->earlier ? " (the last ones; earlier runs judge the first)" : "");
	if (phases) {
		marks = rli_strfmt("Lines: each phase's median, run by run. Bands: its inter-quartile range. Ringed: %s.",
				   t->current != SIZE_MAX ? "this run" : "the last run");
		red = rli_strfmt("Red rings: slower%s beyond the noise than the median of the runs before it (the last %zu at most).",
				 threshold, t->window);
	} else {
		/* Only phases are judged: a trend of memory peaks or expert load alone has no red ring to explain. */
		marks = rli_strfmt("Lines: a value a run, run by run. Ringed: %s.", t->current != SIZE_MAX ? "this run" : "the last run");
		red = rli_strfmt("Only phases are judged against the runs before them: these runs have none, so none is marked.");
	}
	if (!title || !subtitle || !marks || !red ||
	    !trend_text(page, title, PAGE_PAD, 34, TITLE_SIZE, 1, TEXT_COLOR, RLI_ALIGN_START, RLI_ALIGN_MIDDLE,
			page->width - 2 * PAGE_PAD) ||
	    !trend_text(page, subtitle, PAGE_PAD, 64, SUBTITLE_SIZE, 0, TEXT_COLOR, RLI_ALIGN_START, RLI_ALIGN_MIDDLE,
			page->width - 2 * PAGE_PAD) ||
	    !trend_text(page, marks, PAGE_PAD, 86, SUBTITLE_SIZE, 0, TEXT_COLOR, RLI_ALIGN_START, RLI_ALIGN_MIDDLE,
			page->width - 2 * PAGE_PAD) ||
	    !trend_text(page, red, PAGE_PAD, 108, SUBTITLE_SIZE, 0, phases ? REGRESSION_COLOR : TEXT_COLOR, RLI_ALIGN_START,
			RLI_ALIGN_MIDDLE,
			page->width - 2 * PAGE_PAD))
		error = error < 0 ? error : rli_error_oom();
	free(title);
	free(subtitle);
	free(marks);
	free(red);
	return error;
}

static int add_section(rli_trend_figure *f, double top, double bottom)
{
	rli_trend_section *grown = realloc(f->sections, (f->section_count + 1) * sizeof(*f->sections));
	if (!grown)
		return rli_error_oom();
	f->sections = grown;
	f->sections[f->section_count++] = (rli_trend_section){ top, bottom };
	return RLI_OK;
}

static int lay_out(rli_trend_figure *f, const rli_trend *t, const rli_timeline_options *options, PangoContext *text)
{
	trend_page page = { .f = f, .trend = t, .text = text };
	const char **roles = NULL;
	size_t role_count = 0, panels;
	double role_width = 0, height, raster_scale = options->scale, top;
	const char *x_title;
	int error, dates, with_year, memory = has_memory(t), experts = has_experts(t), strip = has_roles(t);

	page.width = fmax(300.0, (double)options->width);
	if ((error = all_roles(t, &roles, &role_count)) < 0)
		return error;
	for (size_t r = 0; r < role_count; r++)
		role_width = fmax(role_width, trend_text_width(&page, roles[r], ROW_LABEL_SIZE, 0));
	page.left = PAGE_PAD + fmax(TICK_ROOM, fmin(role_width, 0.22 * page.width)) + ROW_LABEL_GAP;
	page.right = page.width - PAGE_PAD - fmin(TREND_LABEL_ROOM, 0.25 * page.width);
	dates = by_date(t, &with_year);
	panels = role_count + (size_t)memory + (size_t)experts + (size_t)strip;
	if ((error = x_ticks(&page, dates, with_year)) < 0 || (error = heading(&page)) < 0)
		goto done;
	if (!(f->panels = calloc(panels, sizeof(*f->panels))) || !(f->marks = calloc(panels, sizeof(*f->marks)))) {
		error = rli_error_oom();
		goto done;
	}
	f->panel_count = panels;
	if ((error = add_section(f, 0, HEADING_END)) < 0)
		goto done;
	page.y = HEADING_END + 8;
	for (size_t r = 0; r < role_count && error == RLI_OK; r++) {
		top = page.y;
		if ((error = trend_role_panel(&page, roles[r])) == RLI_OK)
			error = add_section(f, top, page.y - TREND_SECTION_GAP / 2);
	}
	/* The strip when some run has roles; the last panel carries the runs' axis title. */
	x_title = dates ? (with_year ? "Runs, oldest to newest, by the day each was captured (UTC)"
				     : "Runs, oldest to newest, by the day each was captured (MM-DD, UTC)")
			: "Runs, oldest to newest (#: the run's id in the history)";
	if (error == RLI_OK && memory) {
		top = page.y;
		if ((error = trend_memory_panel(&page, strip || experts ? NULL : x_title)) == RLI_OK)
			error = add_section(f, top, page.y - (strip || experts ? TREND_SECTION_GAP / 2 : -4));
	}
	if (error == RLI_OK && experts) {
		top = page.y;
		if ((error = trend_experts_panel(&page, strip ? NULL : x_title)) == RLI_OK)
			error = add_section(f, top, page.y - (strip ? TREND_SECTION_GAP / 2 : -4));
	}
	if (error == RLI_OK && strip) {
		top = page.y;
		if ((error = trend_strip_panel(&page, x_title)) == RLI_OK)
			error = add_section(f, top, page.y + 4);
	}
	/* Runs with nothing to draw over time (no phase, peak, straggler or expert load): said so. */
	if (error == RLI_OK && !panels &&
	    !trend_text(&page, "These runs hold no phase, memory peak, straggler or expert load to draw over time",
			PAGE_PAD, page.y + 10, TREND_NOTE_SIZE, 0, TEXT_COLOR,
			RLI_ALIGN_START, RLI_ALIGN_MIDDLE, page.width - 2 * PAGE_PAD))
		error = RLI_ERROR;
	else if (error == RLI_OK && !panels)
		page.y += 30;
	if (error < 0 || (error = runs_table(f, t)) < 0)
		goto done;
	height = page.y + PAGE_PAD;
	rli_fit_medium(&height, &raster_scale, page.width, options->scale, options->medium);

	/* The items, now that no text or panel moves any more: panels, then the texts over them. */
	if (!(f->items = calloc(f->panel_count + f->text_count, sizeof(*f->items)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < f->panel_count; i++)
		f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = &f->panels[i] };
	for (size_t i = 0; i < f->text_count; i++)
		f->items[f->item_count++] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &f->texts[i] };
	f->page = (rli_page){ .width = page.width, .height = height, .item_count = f->item_count, .items = f->items };
	f->document = (rli_document){ .name = "trend", .title = "Run history", .scale = options->scale,
				      .raster_scale = raster_scale, .background = WHITE, .text_color = TEXT_COLOR,
				      .font_family = RLI_TEXT_FAMILY, .page_count = 1, .pages = &f->page };
done:
	free(page.xticks);
	free(roles);
	return error;
}

int rli_trend_figure_layout(rli_trend_figure **out, const rli_trend *trend, const rli_timeline_options *options)
{
	rli_trend_figure *f;
	PangoContext *text = NULL;
	int error;

	*out = NULL;
	if (!trend->count)
		return rli_error_set(RLI_EINVALID, "the history holds no run of this input to draw a trend of");
	if (!(f = calloc(1, sizeof(*f))))
		return rli_error_oom();
	if ((error = rli_text_context_new(&text)) == RLI_OK)
		error = lay_out(f, trend, options, text);
	if (text)
		g_object_unref(text);
	if (error < 0) {
		rli_trend_figure_free(f);
		return error;
	}
	*out = f;
	return RLI_OK;
}

const rli_document *rli_trend_figure_document(const rli_trend_figure *figure)
{
	return &figure->document;
}

void rli_trend_figure_free(rli_trend_figure *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->panel_count; i++) {
		rli_panel_dispose(&f->panels[i]);
		trend_marks_dispose(&f->marks[i]);
	}
	free(f->panels);
	free(f->marks);
	for (size_t i = 0; i < f->text_count; i++)
		free(f->texts[i].text);
	free(f->texts);
	for (size_t k = 0; k < f->point_count; k++) {
		free(f->hover ? f->hover[k] : NULL);
		for (int c = 0; f->rows && c < RLI_TREND_RUN_COLUMNS; c++)
			free(f->rows[k].cells[c]);
	}
	free(f->hover);
	free(f->rows);
	free(f->sections);
	free(f->items);
	free(f);
}

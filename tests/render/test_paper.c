/* test_paper.c: figures fit for a paper: the time axis in its unit, the origin as UTC, the legend, --style paper, the overview, stable colours. */
#include "harness.h"
#include "render_cases.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "layout/timeline_overview.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static rli_events *new_events(void)
{
	rli_events *events = NULL;
	if (rli_events_new(&events) < 0)
		exit(1);
	return events;
}

static rli_timeline *lay_out_with(const rli_events *events, const rli_timeline_options *options)
{
	rli_timeline *timeline = NULL;
	if (rli_timeline_layout(&timeline, events, options) < 0) {
		fprintf(stderr, "layout failed: %s\n", rli_error_last());
		exit(1);
	}
	return timeline;
}

static rli_timeline *lay_out(const rli_events *events)
{
	rli_timeline_options options;
	rli_timeline_options_init(&options);
	return lay_out_with(events, &options);
}

static void check_labels(const rli_tick *ticks, size_t n, const char *const *want, size_t want_n)
{
	CHECK_INT(n, want_n);
	for (size_t i = 0; i < n && i < want_n; i++)
		CHECK_STR(ticks[i].label, want[i]);
}

/* rli_time_ticks: the 1/2/5 rule on the range in the unit, labels separated, values in ms. */
static void test_time_ticks(void)
{
	static const char *const seconds[] = { "0", "2", "4", "6", "8", "10", "12", "14", "16" };
	static const char *const minutes[] = { "0", "10", "20", "30", "40" };
	static const char *const far_ms[] = { "1,000,000", "1,000,100", "1,000,200", "1,000,300",
					      "1,000,400", "1,000,500" };
	static const char *const tenths[] = { "1,000.0", "1,000.1", "1,000.2", "1,000.3", "1,000.4", "1,000.5" };
	rli_tick ticks[64];
	size_t n;

	/* 16.8 s in about 15 steps: 1.12 s -> 2 s; the 4th tick sits at 6,000 ms. */
	n = rli_time_ticks(ticks, 64, 0.0, 16800.0, 15, 1000.0);
	check_labels(ticks, n, seconds, 9);
	CHECK_NEAR(ticks[3].value, 6000.0, 0);
	/* 2,500,000 ms = 41.7 min in 5 steps: 8.3 -> 10 min, at 600,000 ms apart. */
	n = rli_time_ticks(ticks, 64, 0.0, 2.5e6, 5, 60e3);
	check_labels(ticks, n, minutes, 5);
	CHECK_NEAR(ticks[1].value, 600e3, 0);
	/* 500 ms far from zero, in ms: separators every three digits. */
	n = rli_time_ticks(ticks, 64, 1e6, 1.0005e6, 5, 1.0);
	check_labels(ticks, n, far_ms, 6);
	/* 0.5 s past 1,000 s counted in s: 0.1 s steps keep their decimal. */
	n = rli_time_ticks(ticks, 64, 1e6, 1.0005e6, 5, 1000.0);
	check_labels(ticks, n, tenths, 6);
	CHECK_NEAR(ticks[2].value, 1000200.0, 1e-6);
	CHECK_INT(rli_time_ticks(ticks, 64, 0.0, 1.0, 5, 0.0), 0);
}

/* The figure picks the unit for its span, names it in the axis title, and tells an epoch origin as UTC. */
static void test_axis_and_origin(void)
{
	static const char *const seconds[] = { "0", "2", "4", "6", "8", "10", "12", "14", "16" };
	rli_events *events = case_few_rows(), *relative = new_events(), *long_run = new_events();
	rli_timeline *t = lay_out(events);

	/* Bars end 16,000 ms after t0, the axis runs to 1.05 times that: seconds. */
	CHECK_STR(t->panel.x_title.text, "Time (s)");
	if (t->panel.xtick_target >= 9 && t->panel.xtick_target <= 16)
		check_labels(t->panel.xticks, t->panel.xtick_count, seconds, 9);
	else
		CHECK(!"the tick target moved out of the range this case was worked for");
	CHECK_STR(t->title.text, "RL Timeline (t = 0 at 2026-03-12 03:24:48.699 UTC)");
	rli_timeline_free(t);

	/* A relative clock (a GPU's) keeps the origin as a number; 900 ms reads in ms. */
	case_add(relative, "step", "actor", 0, 90.0, 900.0);
	t = lay_out(relative);
	CHECK_STR(t->title.text, "RL Timeline (Relative Time, Origin = 90.000 ms)");
	CHECK_STR(t->panel.x_title.text, "Time (ms)");
	rli_timeline_free(t);

	/* 20 minutes: the axis reads in minutes. */
	case_add(long_run, "step", "actor", 0, 0.0, 20 * 60e3);
	t = lay_out(long_run);
	CHECK_STR(t->panel.x_title.text, "Time (min)");
	CHECK_STR(t->panel.xticks[1].label, t->panel.xtick_target >= 5 ? "2" : "5");
	rli_timeline_free(t);

	rli_events_free(events);
	rli_events_free(relative);
	rli_events_free(long_run);
}

static rli_color color_of(const rli_timeline *t, const char *name)
{
	for (size_t s = 0; s < t->series_count; s++)
		if (strcmp(t->series[s].name, name) == 0)
			return t->series[s].color;
	CHECK(!"no such series");
	return 0;
}

/* A figure of one bar per role, named as its role (as MSTX and torch give). */
static rli_timeline *roles_figure(const char *const *roles, size_t count)
{
	rli_events *events = new_events();
	rli_timeline *t;
	for (size_t r = 0; r < count; r++)
		case_add(events, roles[r], roles[r], (int64_t)r, 100.0 * (double)r, 80.0);
	t = lay_out(events);
	rli_events_free(events);
	return t;
}

/*
 * Colours by FNV-1a of the name mod 10 (worked out by hand): actor_update 6,
 * critic_update 9, ref_compute_log_prob 9, rollout 0, update_actor 4;
 * "c" and "generate" both 8, "g" and "reward" both 2.
 */
static void test_stable_colours(void)
{
	static const char *const before[] = { "actor_update", "critic_update", "ref_compute_log_prob", "rollout" };
	/* actor_update renamed: it now sorts last, which moves every index but not a colour. */
	static const char *const after[] = { "critic_update", "ref_compute_log_prob", "rollout", "update_actor" };
	static const char *const clash[] = { "c", "g", "generate", "reward" };
	rli_timeline *a = roles_figure(before, 4), *b = roles_figure(after, 4), *c = roles_figure(clash, 4);

	CHECK_INT(color_of(a, "actor_update"), rli_palette_color(6));
	CHECK_INT(color_of(a, "critic_update"), rli_palette_color(9));
	/* its slot taken by a name before it, and 0 by rollout's own: the next free one */
	CHECK_INT(color_of(a, "ref_compute_log_prob"), rli_palette_color(1));
	CHECK_INT(color_of(a, "rollout"), rli_palette_color(0));
	for (size_t i = 1; i < 4; i++)
		CHECK_INT(color_of(b, before[i]), color_of(a, before[i]));
	CHECK_INT(color_of(b, "update_actor"), rli_palette_color(4));
	CHECK_INT(rli_name_hash("a"), 0xe40c292cu); /* FNV-1a's published value for "a" */

	/* Collisions go in sorted order: the first name keeps the slot, the next takes the one after. */
	CHECK_INT(color_of(c, "c"), rli_palette_color(8));
	CHECK_INT(color_of(c, "generate"), rli_palette_color(9));
	CHECK_INT(color_of(c, "g"), rli_palette_color(2));
	CHECK_INT(color_of(c, "reward"), rli_palette_color(3));
	rli_timeline_free(a);
	rli_timeline_free(b);
	rli_timeline_free(c);
}

/* More names than colours: each colour is used once before its shades are, and no colour twice while shades last. */
static void test_palette_fills_before_repeating(void)
{
	const char *names[45];
	char storage[45][8];
	rli_color colors[45];
	size_t size = rli_palette_size(), bases = 0;

	for (size_t i = 0; i < 45; i++) {
		snprintf(storage[i], sizeof(storage[i]), "n%02zu", i);
		names[i] = storage[i];
	}
	CHECK_INT(rli_palette_assign(colors, names, 45), RLI_OK);
	for (size_t i = 0; i < 45; i++)
		for (size_t j = i + 1; j < 45; j++)
			CHECK(colors[i] != colors[j]);
	for (size_t i = 0; i < 45; i++)
		for (size_t c = 0; c < size; c++)
			bases += colors[i] == rli_palette_color(c);
	CHECK_INT(bases, size);
}

/* The legend is left out when it repeats the row labels; the plot then takes its room. */
static void test_legend_left_out(void)
{
	static const char *const roles[] = { "actor_update", "rollout" };
	rli_events *mixed = new_events();
	rli_timeline *t = roles_figure(roles, 2), *u;

	CHECK_STR(t->legend.title.text, "");
	for (size_t s = 0; s < t->series_count; s++) {
		CHECK_STR(t->legend.labels[s].text, "");
		CHECK(t->legend.swatches[s].w == 0 && t->legend.swatches[s].h == 0);
	}
	/* No legend beside: the right margin is the reference's 60 units. */
	CHECK_NEAR(t->panel.plot.x + t->panel.plot.w, 2000 - 60, 1e-9);

	/* One row whose bars carry a name that is not its role: the legend says what the colours are. */
	case_add(mixed, "actor_update", "actor_update", 0, 0.0, 50.0);
	case_add(mixed, "rollout", "rollout", 1, 0.0, 50.0);
	case_add(mixed, "sync", "rollout", 1, 60.0, 5.0);
	u = lay_out(mixed);
	CHECK_STR(u->legend.title.text, "Task Type");
	CHECK_STR(u->legend.labels[1].text, "rollout");
	CHECK(u->panel.plot.x + u->panel.plot.w < 2000 - 60);
	rli_timeline_free(t);
	rli_timeline_free(u);
	rli_events_free(mixed);
}

/* --style paper: a 3.5 in column in points, 300 dpi, text 7 pt and up, rows as tall as their labels. */
/* The pHYs chunk of a PNG in pixels per metre, 0 when there is none. */
static unsigned long png_pixels_per_metre(const char *path)
{
	size_t size = 0;
	unsigned char *data = (unsigned char *)test_read_file(path, &size);
	unsigned long ppm = 0;
	for (size_t i = 0; data && i + 8 < size; i++)
		if (memcmp(data + i, "pHYs", 4) == 0) {
			ppm = (unsigned long)data[i + 4] << 24 | (unsigned long)data[i + 5] << 16 |
			      (unsigned long)data[i + 6] << 8 | data[i + 7];
			break;
		}
	free(data);
	return ppm;
}

static void test_paper_style(const char *out_dir)
{
	char path[512];
	rli_events *events = case_few_rows();
	rli_timeline_options options;
	rli_timeline *t, *v;

	rli_timeline_options_init(&options);
	CHECK_INT(options.style, RLI_STYLE_DEFAULT);
	CHECK_INT(options.overview, 0);
	options.style = RLI_STYLE_PAPER;
	options.width = 5000; /* the style fixes the page: ignored */
	t = lay_out_with(events, &options);
	CHECK_NEAR(t->page.width, 3.5 * 72, 1e-9);
	CHECK_NEAR(t->document.units_per_inch, 72, 0);
	/* 300 dpi: 1,050 pixels across 3.5 in. */
	CHECK_NEAR(t->document.raster_scale * t->page.width, 1050, 1e-6);
	CHECK(t->title.size >= 7 && t->panel.x_title.size >= 7 && t->panel.tick_label_size >= 7);
	for (size_t r = 0; r < t->panel.row_count; r++)
		CHECK(t->panel.row_labels[r].size >= 7 && t->panel.row_labels[r].text[0]);
	for (size_t s = 0; s < t->series_count; s++)
		CHECK(t->legend.labels[s].size >= 7);
	/* Rows as tall as a 7 pt label and 2 pt: no taller than 12 pt, no shorter than 8 (and no 175-unit rows). */
	CHECK(t->panel.row_pitch >= 8 && t->panel.row_pitch <= 12);
	/* The legend goes under the x title: the plot keeps the page's width. */
	CHECK(t->legend.title.y > t->panel.x_title.y);
	CHECK(t->page.height < 3 * 72);
	/* The PNG says 300 dpi: 300 / 0.0254 = 11,811 pixels a metre. */
	snprintf(path, sizeof(path), "%s/few_rows_paper.png", out_dir);
	CHECK_INT(case_render(t, "png", path), RLI_OK);
	CHECK_INT(png_pixels_per_metre(path), 11811);

	/* Same layout on a vector medium (the PDF) as on a raster (the PNG). */
	options.medium = RLI_MEDIUM_VECTOR;
	v = lay_out_with(events, &options);
	CHECK_NEAR(v->page.height, t->page.height, 0);
	CHECK_NEAR(v->panel.plot.x, t->panel.plot.x, 0);
	CHECK_NEAR(v->panel.row_pitch, t->panel.row_pitch, 0);
	rli_timeline_free(v);
	rli_timeline_free(t);

	options.style = RLI_STYLE_PAPER_WIDE;
	t = lay_out_with(events, &options);
	CHECK_NEAR(t->page.width, 7 * 72, 1e-9);
	CHECK_NEAR(t->document.raster_scale * t->page.width, 2100, 1e-6);
	rli_timeline_free(t);
	options.style = (rli_timeline_style)7;
	CHECK_INT(rli_timeline_layout(&t, events, &options), RLI_EUSAGE);
	rli_events_free(events);
}

/*
 * 40 ranks of two roles, 3 steps each, every bar 100 ms but rank 13's
 * actor_update bars, 300 ms. Per step of actor_update: median 100, MAD 0,
 * so the mean absolute deviation stands in: 200 / 40 = 5; rank 13's modified
 * z = 200 / (1.253314 * 5) = 31.9 > 3.5: an outlier in 3 of 3 steps, the
 * role's straggler. rollout has no outlier.
 */
static rli_events *case_straggler(void)
{
	rli_events *events = new_events();
	for (int step = 0; step < 3; step++)
		for (int rank = 0; rank < 40; rank++) {
			double t = 1000.0 * step;
			case_add(events, "rollout", "rollout", rank, t, 100.0);
			case_add(events, "actor_update", "actor_update", rank, t + 400.0, rank == 13 ? 300.0 : 100.0);
		}
	return events;
}

static int inside(const rli_rect *area, double x, double y)
{
	return x >= area->x - 1e-9 && x <= area->x + area->w + 1e-9 && y >= area->y - 1e-9 &&
	       y <= area->y + area->h + 1e-9;
}

/* 80 rows are more than a paper column shows (about 70 rows of 8.5 pt under a 9 in page): the overview. */
static void test_overview_instead_of_rows(const char *out_dir)
{
	rli_events *events = case_straggler();
	rli_timeline_options options;
	rli_timeline *t, *all;
	const rli_table *table = NULL;
	size_t panels = 0;
	char path[512];

	rli_timeline_options_init(&options);
	options.style = RLI_STYLE_PAPER;
	/* The library's default draws every row (an HTML page scrolls): the overview is asked for. */
	t = lay_out_with(events, &options);
	CHECK(!rli_timeline_shows_overview(t));
	rli_timeline_free(t);
	options.overview = 1;
	t = lay_out_with(events, &options);
	CHECK(rli_timeline_shows_overview(t));
	CHECK(t->readable_rows >= 60 && t->readable_rows < 80);
	for (size_t i = 0; i < t->page.item_count; i++) {
		const rli_item *item = &t->page.items[i];
		if (item->kind == RLI_ITEM_PANEL) {
			const rli_panel *band = item->u.panel;
			panels++;
			CHECK_INT(band->y_scale, RLI_Y_VALUES);
			CHECK_NEAR(band->y_max, 40, 0);
			CHECK_INT(band->line_count, 1);
			CHECK(band->plot.x + band->plot.w <= t->page.width);
		} else if (item->kind == RLI_ITEM_TABLE) {
			table = item->u.table;
		}
	}
	/* One band per role: actor_update, then rollout. */
	CHECK_INT(panels, 2);
	CHECK(table != NULL);
	if (table && table->row_count >= 1) {
		CHECK_INT(table->row_count, 1);
		CHECK_STR(table->cells[0], "actor_update");
		CHECK_STR(table->cells[1], "13");
		CHECK_STR(table->cells[2], "3 of 3 steps");
		CHECK_STR(table->cells[3], "3, straggler");
	}
	/* actor_update's band is full (40 ranks) during its bars and empty between steps. */
	{
		const rli_panel *band = t->page.items[2].u.panel;
		const rli_line_mark *line = band->lines;
		double full = 0, empty = 0;
		CHECK_INT(t->page.items[2].kind, RLI_ITEM_PANEL);
		for (size_t i = 0; i < line->count; i++) {
			if (line->x[i] > 410 && line->x[i] < 490)
				full = fmax(full, line->y[i]);
			if (line->x[i] > 750 && line->x[i] < 950)
				empty = fmax(empty, line->y[i]);
		}
		CHECK_NEAR(full, 40, 0);
		CHECK_NEAR(empty, 0, 0);
	}
	snprintf(path, sizeof(path), "%s/overview_paper.png", out_dir);
	CHECK_INT(case_render(t, "png", path), RLI_OK);
	snprintf(path, sizeof(path), "%s/overview_paper.pdf", out_dir);
	CHECK_INT(case_render(t, "pdf", path), RLI_OK);

	/* --all-rows: every row, however close. */
	options.overview = 0;
	all = lay_out_with(events, &options);
	CHECK(!rli_timeline_shows_overview(all));
	CHECK_INT(all->panel.row_count, 80);
	rli_timeline_free(all);
	rli_timeline_free(t);

	/* The default style shows 80 rows of 50 units as the reference does. */
	options.style = RLI_STYLE_DEFAULT;
	options.overview = 1;
	all = lay_out_with(events, &options);
	CHECK(!rli_timeline_shows_overview(all));
	rli_timeline_free(all);
	rli_events_free(events);
}

/* The overview placed on a page of someone else's (the report's A4): every item inside the rectangle. */
static void test_overview_in_a_rectangle(void)
{
	rli_events *events = case_straggler();
	rli_stats *stats = NULL;
	rli_timeline_overview *overview = NULL;
	const rli_item *items = NULL;
	size_t count = 0;
	rli_rect area = { 40, 60, 760, 480 }, tiny = { 0, 0, 20, 20 };

	CHECK_INT(rli_stats_compute(&stats, events), RLI_OK);
	CHECK_INT(rli_timeline_overview_place(&overview, &items, &count, stats, 0.0, area, NULL), RLI_OK);
	CHECK(count >= 4);
	CHECK_INT(rli_timeline_overview_outliers(overview), 1);
	for (size_t i = 0; i < count; i++) {
		if (items[i].kind == RLI_ITEM_PANEL) {
			const rli_panel *p = items[i].u.panel;
			CHECK(inside(&area, p->plot.x, p->plot.y) && inside(&area, p->plot.x + p->plot.w, p->plot.y + p->plot.h));
		} else if (items[i].kind == RLI_ITEM_TEXT) {
			CHECK(inside(&area, items[i].u.text->x, items[i].u.text->y));
		} else if (items[i].kind == RLI_ITEM_TABLE) {
			const rli_table *table = items[i].u.table;
			CHECK(inside(&area, table->x, table->y));
			CHECK(inside(&area, table->x, table->y + table->row_height * (double)(table->row_count + 1)));
		}
	}
	rli_timeline_overview_free(overview);
	CHECK_INT(rli_timeline_overview_place(&overview, &items, &count, stats, 0.0, tiny, NULL), RLI_EUSAGE);
	CHECK(overview == NULL);
	rli_stats_free(stats);
	rli_events_free(events);
}

int main(int argc, char **argv)
{
	const char *out_dir = argc > 1 ? argv[1] : ".";

	if (rli_mkdir_p(out_dir) < 0) {
		fprintf(stderr, "%s\n", rli_error_last());
		return 1;
	}
	test_overview_instead_of_rows(out_dir);
	test_overview_in_a_rectangle();
	test_legend_left_out();
	test_paper_style(out_dir);
	test_stable_colours();
	test_palette_fills_before_repeating();
	test_time_ticks();
	test_axis_and_origin();
	TEST_DONE();
}

/* test_layout.c: the layout engine's rows, orders, colours, ticks, merge rule, page cap and errors. */
#include "harness.h"
#include "render_cases.h"
#include "text/text.h"
#include "cairo_paint.h"
#include "common/error.h"

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

static rli_timeline *lay_out(const rli_events *events, double merge_short_ms)
{
	rli_timeline_options options;
	rli_timeline *timeline = NULL;
	rli_timeline_options_init(&options);
	options.merge_short_ms = merge_short_ms;
	if (rli_timeline_layout(&timeline, events, &options) < 0) {
		fprintf(stderr, "layout failed: %s\n", rli_error_last());
		exit(1);
	}
	return timeline;
}

static void test_options_defaults(void)
{
	rli_timeline_options options;
	memset(&options, 0xff, sizeof(options));
	rli_timeline_options_init(&options);
	CHECK_INT(options.width, 2000);
	CHECK_INT(options.scale, 2);
	CHECK(options.merge_short_ms == 0.0);
}

static void test_rows_orders_and_colours(void)
{
	rli_events *events = new_events();
	rli_timeline *t;

	/* Deliberately out of order; "b" sorts before "b2" and rank 10 after rank 2. */
	case_add(events, "zeta", "rollout", 10, 100.0, 5.0);
	case_add(events, "alpha", "b2", 2, 110.0, 5.0);
	case_add(events, "alpha", "b", 2, 120.0, 5.0);
	case_add(events, "mid", "actor", 2, 130.0, 5.0);
	case_add(events, "alpha", "rollout", 2, 140.0, 5.0);
	case_add(events, "mid", "actor", 10, 150.0, 5.0);
	case_add(events, "zeta", "b", 2, 90.0, 30.0);
	t = lay_out(events, 0.0);

	CHECK_INT(t->panel.row_count, 6);
	CHECK_STR(t->panel.rows[0].label, "actor - Rank 2");
	CHECK_STR(t->panel.rows[1].label, "b - Rank 2");
	CHECK_STR(t->panel.rows[2].label, "b2 - Rank 2");
	CHECK_STR(t->panel.rows[3].label, "rollout - Rank 2");
	CHECK_STR(t->panel.rows[4].label, "actor - Rank 10");
	CHECK_STR(t->panel.rows[5].label, "rollout - Rank 10");
	CHECK_STR(t->panel.rows[4].role, "actor");
	CHECK_INT(t->panel.rows[4].rank, 10);

	/* By role, then rank: actor 2, actor 10, b 2, b2 2, rollout 2, rollout 10. */
	CHECK_INT(t->panel.order_by_role[0], 0);
	CHECK_INT(t->panel.order_by_role[1], 4);
	CHECK_INT(t->panel.order_by_role[2], 1);
	CHECK_INT(t->panel.order_by_role[3], 2);
	CHECK_INT(t->panel.order_by_role[4], 3);
	CHECK_INT(t->panel.order_by_role[5], 5);

	/* Series sorted by name, coloured by FNV-1a of the name mod 10: alpha 7, mid 1, zeta 3. */
	CHECK_INT(t->series_count, 3);
	CHECK_STR(t->series[0].name, "alpha");
	CHECK_STR(t->series[1].name, "mid");
	CHECK_STR(t->series[2].name, "zeta");
	CHECK_INT(t->series[0].color, 0xff9da7);
	CHECK_INT(t->series[1].color, 0xf28e2b);
	CHECK_INT(t->series[2].color, 0x76b7b2);

	/* Bars grouped by row, then series, then start; row_first_bar brackets them. */
	CHECK_INT(t->panel.bar_count, 7);
	CHECK_INT(t->panel.row_first_bar[0], 0);
	CHECK_INT(t->panel.row_first_bar[6], 7);
	for (size_t r = 0; r < t->panel.row_count; r++)
		for (size_t b = t->panel.row_first_bar[r]; b < t->panel.row_first_bar[r + 1]; b++)
			CHECK_INT(t->panel.bar_row[b], r);
	/* Row "b - Rank 2" holds alpha at 120 and zeta at 90: alpha first (series order). */
	CHECK_INT(t->panel.row_first_bar[2] - t->panel.row_first_bar[1], 2);
	CHECK_INT(t->panel.bar_series[t->panel.row_first_bar[1]], 0);
	CHECK_INT(t->panel.bar_series[t->panel.row_first_bar[1] + 1], 2);
	/* Relative to t0 = 90. */
	CHECK_NEAR(t->document.origin, 90.0, 0);
	CHECK_NEAR(t->panel.bar_start[t->panel.row_first_bar[1]], 30.0, 1e-12);
	CHECK_NEAR(t->panel.bar_start[t->panel.row_first_bar[1] + 1], 0.0, 0);
	CHECK_NEAR(t->panel.bar_end[t->panel.row_first_bar[1] + 1], 30.0, 1e-12);
	CHECK_STR(t->title.text, "RL Timeline (Relative Time, Origin = 90.000 ms)");
	CHECK_INT(t->legend.labels[2].text[0], 'z');

	rli_timeline_free(t);
	rli_events_free(events);
}

static void test_palette(void)
{
	/* Tableau 10: the reference's own pinks were 6 apart in CIEDE2000 (test_palette.c measures ours) */
	static const rli_color tableau10[10] = {
		0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
		0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ab,
	};
	CHECK_INT(rli_palette_size(), 10);
	for (size_t i = 0; i < 10; i++) {
		CHECK_INT(rli_palette_color(i), tableau10[i]);
		CHECK_INT(rli_palette_shade(i, 0), tableau10[i]);
	}
	CHECK_INT(rli_palette_color(13), rli_palette_color(3));
	/* the shades: toward white, then black, each channel alike */
	CHECK_INT(rli_palette_shade(0, 1) >> 16, 0x4e + (int)((255 - 0x4e) * 0.45 + 0.5));
	CHECK_INT(rli_palette_shade(0, 2) >> 16, (int)(0x4e * 0.65 + 0.5));
}

static void test_ticks(void)
{
	rli_tick ticks[64];
	size_t n;

	/* 16800 / 15 = 1120 -> the next nice step is 2000. */
	n = rli_nice_ticks(ticks, 64, 0.0, 16800.0, 15);
	CHECK_INT(n, 9);
	CHECK_STR(ticks[0].label, "0");
	CHECK_STR(ticks[8].label, "16000");
	CHECK_NEAR(ticks[3].value, 6000.0, 0);

	/* Sub-unit steps carry the decimals they need. */
	n = rli_nice_ticks(ticks, 64, 0.0, 1.05, 10);
	CHECK_INT(n, 6);
	CHECK_STR(ticks[1].label, "0.2");
	CHECK_STR(ticks[5].label, "1.0");
	n = rli_nice_ticks(ticks, 64, 0.0, 0.12, 5); /* 0.024 -> 0.05 */
	CHECK_INT(n, 3);
	CHECK_STR(ticks[1].label, "0.05");

	/* Ticks start at the first multiple inside the range; -0 never shows. */
	n = rli_nice_ticks(ticks, 64, -3.0, 7.0, 5);
	CHECK_INT(n, 5);
	CHECK_STR(ticks[0].label, "-2");
	CHECK_STR(ticks[1].label, "0");

	/* Bounded by max, and nothing for a range that is not one. */
	CHECK_INT(rli_nice_ticks(ticks, 3, 0.0, 100.0, 10), 3);
	CHECK_INT(rli_nice_ticks(ticks, 64, 5.0, 1.0, 10), 0);
	CHECK_INT(rli_nice_ticks(ticks, 64, 0.0, NAN, 10), 0);
}

/* The chain rule of the reference PNG, with threshold 8 ms and gap 2 ms. */
static void test_merge_rule(void)
{
	rli_events *events = new_events();
	rli_timeline *t;
	size_t b;

	/* One (row, series) group, in start order. */
	case_add(events, "n", "r", 0, 0.0, 5.0);    /* starts a chain */
	case_add(events, "n", "r", 0, 6.0, 3.0);    /* gap 1, short: joins, chain ends 9 */
	case_add(events, "n", "r", 0, 9.5, 1.0);    /* gap 0.5: joins, chain ends 10.5 */
	case_add(events, "n", "r", 0, 20.0, 8.0);   /* gap 9.5: new chain 20..28 */
	case_add(events, "n", "r", 0, 21.0, 30.0);  /* 30 ms is long: new chain 21..51 */
	case_add(events, "n", "r", 0, 22.0, 1.0);   /* overlaps the previous row: joins, ends 51 */
	case_add(events, "n", "r", 0, 52.5, 1.0);   /* 52.5 - 23 (previous row's end) > 2: new chain */
	/* Another series in the same row never merges with the first. */
	case_add(events, "m", "r", 0, 10.6, 1.0);
	t = lay_out(events, 8.0);

	CHECK_INT(t->panel.bar_count, 5);
	b = 0; /* series "m" sorts first */
	CHECK_INT(t->panel.bar_series[b], 0);
	CHECK_NEAR(t->panel.bar_start[b], 10.6, 1e-9);
	b = 1;
	CHECK_NEAR(t->panel.bar_start[b], 0.0, 1e-9);
	CHECK_NEAR(t->panel.bar_end[b], 10.5, 1e-9);
	CHECK_NEAR(t->panel.bar_start[b + 1], 20.0, 1e-9);
	CHECK_NEAR(t->panel.bar_end[b + 1], 28.0, 1e-9);
	CHECK_NEAR(t->panel.bar_start[b + 2], 21.0, 1e-9);
	CHECK_NEAR(t->panel.bar_end[b + 2], 51.0, 1e-9);
	CHECK_NEAR(t->panel.bar_start[b + 3], 52.5, 1e-9);
	rli_timeline_free(t);

	/* Off by default: every bar stays. */
	t = lay_out(events, 0.0);
	CHECK_INT(t->panel.bar_count, 8);
	rli_timeline_free(t);
	rli_events_free(events);
}

static void test_geometry(void)
{
	rli_events *events = case_few_rows();
	rli_events *wide = new_events();
	rli_timeline *t = lay_out(events, 0.0), *u;
	double max_end = 0.0;

	/* The zero-length row is dropped: four rows, page of the reference's size. */
	CHECK_INT(t->panel.row_count, 4);
	CHECK_NEAR(t->page.width, 2000, 0);
	CHECK_NEAR(t->page.height, 900, 0);
	CHECK_INT(t->document.scale, 2);
	CHECK_NEAR(t->panel.plot.y, 120, 0);
	CHECK_NEAR(t->panel.plot.y + t->panel.plot.h, 900 - 80, 1e-9);
	CHECK(t->panel.plot.x >= 240 && t->panel.plot.x < 400); /* grows a little for the longest label */
	CHECK_NEAR(t->panel.row_pitch, 700.0 / 4, 1e-9);
	CHECK_NEAR(t->panel.bar_thickness, 0.42 * t->panel.row_pitch, 1e-9);
	CHECK_NEAR(t->panel.bar_outline_width, 0.8, 0);
	CHECK_INT(t->panel.bar_outline, 0xFFFFFF);
	CHECK_INT(t->panel.grid_color, 0xEAEAEA);
	CHECK_INT(t->title.color, 0x2a3f5f);
	for (size_t b = 0; b < t->panel.bar_count; b++)
		max_end = fmax(max_end, t->panel.bar_end[b]);
	CHECK_NEAR(t->panel.x_min, 0.0, 0);
	CHECK_NEAR(t->panel.x_max, 1.05 * max_end, 1e-9);
	CHECK(t->panel.xtick_count >= 5);
	CHECK(t->panel.xticks[t->panel.xtick_count - 1].value <= t->panel.x_max);
	/* An epoch origin (1773285888698.7546 ms) is told as its UTC time, to the ms. */
	CHECK_STR(t->title.text, "RL Timeline (t = 0 at 2026-03-12 03:24:48.699 UTC)");
	/* 16,800 ms across the axis: read in seconds. */
	CHECK_STR(t->panel.x_title.text, "Time (s)");
	CHECK_STR(t->panel.y_title.text, "Module - Rank");
	CHECK_NEAR(t->panel.y_title.angle, 90, 0);
	CHECK_NEAR(t->title.size, 24, 0);
	CHECK_NEAR(t->panel.tick_label_size, 14, 0);
	CHECK_NEAR(t->panel.row_labels[0].size, 13, 0);
	CHECK_STR(t->legend.title.text, "Task Type");
	/* Row labels sit left of the plot at their row's centre. */
	for (size_t r = 0; r < t->panel.row_count; r++) {
		CHECK(t->panel.row_labels[r].x < t->panel.plot.x);
		CHECK_NEAR(t->panel.row_labels[r].y, t->panel.plot.y + (r + 0.5) * t->panel.row_pitch, 1e-9);
	}
	/* The legend is right of the plot, inside the page, one entry per series. */
	for (size_t s = 0; s < t->series_count; s++) {
		CHECK(t->legend.swatches[s].x > t->panel.plot.x + t->panel.plot.w);
		CHECK(t->legend.swatches[s].x + t->legend.swatches[s].w < t->page.width);
		CHECK_STR(t->legend.labels[s].text, t->series[s].name);
	}

	/* A long label widens the left margin instead of leaving the page. */
	case_add(wide, "x", "a_role_name_that_is_much_longer_than_any_reference_margin_allows", 0, 0, 1);
	u = lay_out(wide, 0.0);
	CHECK(u->panel.plot.x > 400);
	CHECK(u->panel.y_title.x > 0);
	CHECK_NEAR(u->page.height, 900, 0);
	rli_timeline_free(u);
	rli_timeline_free(t);
	rli_events_free(wide);
	rli_events_free(events);
}

static void test_height_grows_then_caps(void)
{
	rli_events *events = new_events();
	PangoContext *text;
	double w, label_height, last_y = -1e9;
	rli_timeline *t;
	size_t labelled = 0;

	for (int rank = 0; rank < 100; rank++)
		case_add(events, "n", "role", rank, rank, 1.0);
	t = lay_out(events, 0.0);
	CHECK_NEAR(t->page.height, 50 * 100 + 200, 0);
	CHECK_NEAR(t->panel.row_pitch, 50, 1e-9);
	for (size_t r = 0; r < t->panel.row_count; r++)
		CHECK(t->panel.row_labels[r].text[0] != '\0');
	rli_timeline_free(t);

	/* 3000 rows would be 150,200 units, 300,400 pixels at scale 2: the page stops at 32767 px. */
	for (int rank = 100; rank < 3000; rank++)
		case_add(events, "n", "role", rank, rank, 1.0);
	t = lay_out(events, 0.0);
	CHECK_INT(t->panel.row_count, 3000);
	CHECK(t->page.height * t->document.scale <= 32767);
	CHECK(t->page.height * t->document.scale > 32767 - 2 * t->document.scale);
	CHECK_NEAR(t->panel.row_pitch, (t->page.height - 200) / 3000, 1e-9);
	CHECK_NEAR(t->panel.bar_thickness, 0.42 * t->panel.row_pitch, 1e-9);
	CHECK_INT(t->panel.bar_count, 3000);
	/* Labels thinned so that no two overlap, the first row always named. */
	CHECK(rli_text_context_new(&text) == 0);
	rli_text_measure(&w, &label_height, text, t->panel.rows[0].label, 13, 0);
	{
		/* A CJK label may be the tallest: thinning allows for it too. */
		double cjk_height;
		rli_text_measure(&w, &cjk_height, text, "\xe6\x9b\xb4\xe6\x96\xb0 - Rank 1", 13, 0);
		label_height = fmax(label_height, cjk_height);
	}
	g_object_unref(text);
	CHECK_STR(t->panel.row_labels[0].text, t->panel.rows[0].label);
	for (size_t r = 0; r < t->panel.row_count; r++) {
		if (!t->panel.row_labels[r].text[0])
			continue;
		CHECK_STR(t->panel.row_labels[r].text, t->panel.rows[r].label);
		CHECK(t->panel.row_labels[r].y - last_y >= label_height);
		last_y = t->panel.row_labels[r].y;
		labelled++;
	}
	CHECK(labelled > 300 && labelled < 3000);
	rli_timeline_free(t);
	rli_events_free(events);
}

/* A vector layout for a PNG alone stops before its bars exactly where its page could not give a PNG. */
static void test_vector_only_if_raster_fits(void)
{
	rli_events *events = new_events();
	int rank = 0;
	/* 50 units a row and 200 of margins at scale 2: 323 rows are 32,700 px, 324 rows 32,800. */
	for (int rows = 323; rows <= 324; rows++) {
		rli_timeline_options options;
		rli_timeline *whole = NULL, *probed = NULL;
		for (; rank < rows; rank++)
			case_add(events, "n", "role", rank, rank, 1.0);
		rli_timeline_options_init(&options);
		options.medium = RLI_MEDIUM_VECTOR;
		CHECK_INT(rli_timeline_layout(&whole, events, &options), RLI_OK);
		options.only_if_raster_fits = 1;
		CHECK_INT(rli_timeline_layout(&probed, events, &options), RLI_OK);
		CHECK(whole != NULL);
		if (!whole)
			continue;
		if (rli_document_raster_scale(rli_timeline_document(whole)) > 0) {
			/* It fits: the same layout, every bar in it. */
			CHECK_INT(rows, 323);
			CHECK(probed != NULL);
			if (probed) {
				CHECK_NEAR(probed->page.height, whole->page.height, 0);
				CHECK_INT(probed->panel.bar_count, whole->panel.bar_count);
			}
		} else {
			CHECK_INT(rows, 324);
			CHECK(probed == NULL);
		}
		rli_timeline_free(whole);
		rli_timeline_free(probed);
	}
	rli_events_free(events);
}

static void test_t0_and_nothing_to_draw(void)
{
	rli_events *events = new_events();
	rli_timeline *t = (rli_timeline *)&t;
	rli_timeline_options options;

	/* Rows with end <= start are dropped before t0 is taken. */
	case_add(events, "n", "r", 0, 5.0, 0.0);
	case_add(events, "n", "r", 0, 7.0, -1.0);
	case_add(events, "n", "r", 0, 1.0, INFINITY);
	case_add(events, "n", "r", 0, NAN, 1.0);
	CHECK_INT(rli_timeline_layout(&t, events, NULL), RLI_EINVALID);
	CHECK(t == NULL);
	CHECK_STR(rli_error_last(), "nothing to draw: every row has end <= start (4 rows; the first: role r, rank 0, "
		  "start 5 ms, duration 0 ms)");

	case_add(events, "n", "r", 0, 12.25, 3.0);
	case_add(events, "n", "r", 0, 10.5, 1.0);
	CHECK_INT(rli_timeline_layout(&t, events, NULL), RLI_OK);
	CHECK_NEAR(t->document.origin, 10.5, 0);
	CHECK_INT(t->panel.bar_count, 2);
	CHECK_NEAR(t->panel.bar_start[0], 0.0, 0);
	CHECK_NEAR(t->panel.bar_start[1], 1.75, 1e-12);
	rli_timeline_free(t);

	rli_timeline_options_init(&options);
	options.scale = 0;
	CHECK_INT(rli_timeline_layout(&t, events, &options), RLI_EUSAGE);
	options.scale = 20;
	CHECK_INT(rli_timeline_layout(&t, events, &options), RLI_EUSAGE);
	rli_events_free(events);
}

/* Input in start order takes a counting sort, other input qsort: the bars come out the same. */
static void test_bar_order_does_not_depend_on_input_order(void)
{
	static const char *const names[] = { "gen", "logp", "update" };
	static const char *const roles[] = { "actor", "critic" };
	rli_events *shuffled = new_events(), *sorted = new_events();
	rli_timeline *a, *b;
	uint32_t state = 99;

	for (int i = 0; i < 5000; i++) {
		state = state * 1664525u + 1013904223u;
		case_add(shuffled, names[state % 3], roles[(state >> 4) % 2], (state >> 8) % 5,
			 (double)(state >> 12) + i * 1e-6, 1.0 + (state & 0x3F));
	}
	CHECK_INT(rli_events_append_all(sorted, shuffled), RLI_OK);
	CHECK_INT(rli_events_sort_by_start(sorted), RLI_OK);
	a = lay_out(shuffled, 0.0);
	b = lay_out(sorted, 0.0);
	CHECK_INT(a->panel.bar_count, 5000);
	CHECK_INT(b->panel.bar_count, 5000);
	for (size_t i = 0; i < a->panel.bar_count && i < b->panel.bar_count; i++) {
		if (a->panel.bar_row[i] != b->panel.bar_row[i] || a->panel.bar_series[i] != b->panel.bar_series[i] ||
		    a->panel.bar_start[i] != b->panel.bar_start[i] || a->panel.bar_end[i] != b->panel.bar_end[i]) {
			fprintf(stderr, "bar %zu differs\n", i);
			rli_test_failures++;
			break;
		}
		if (i > 0 && a->panel.bar_row[i] == a->panel.bar_row[i - 1] && a->panel.bar_series[i] == a->panel.bar_series[i - 1])
			CHECK(a->panel.bar_start[i] >= a->panel.bar_start[i - 1]);
	}
	rli_timeline_free(a);
	rli_timeline_free(b);
	rli_events_free(shuffled);
	rli_events_free(sorted);
}

/* Whatever a trace holds in its names, the layout and the painter cope: valid UTF-8, one line. */
static void test_hostile_strings(void)
{
	rli_events *events = new_events();
	rli_paint_options paint = { .scale = 1, .lod_columns_per_unit = 1 };
	rli_timeline_options options;
	rli_timeline *t = NULL;
	cairo_surface_t *surface;
	cairo_t *cr;
	char *long_name = malloc(20001);

	memset(long_name, 'w', 20000);
	long_name[20000] = '\0';
	case_add(events, "bad \xff\xfe utf8", "role\xc3", 0, 0.0, 5.0);
	case_add(events, "line\nbreak\ttab", "", 1, 1.0, 5.0);
	case_add(events, "", long_name, 2, 2.0, 5.0);
	case_add(events, long_name, "r", INT64_MIN, 3.0, 5.0);
	rli_timeline_options_init(&options);
	options.width = 400;
	options.scale = 1;
	CHECK_INT(rli_timeline_layout(&t, events, &options), RLI_OK);
	if (t) {
		CHECK_INT(t->panel.row_count, 4);
		CHECK_STR(t->panel.rows[0].label, "r - Rank -9223372036854775808");
		for (size_t r = 0; r < t->panel.row_count; r++) {
			CHECK(g_utf8_validate(t->panel.rows[r].label, -1, NULL));
			CHECK(t->panel.row_labels[r].max_width > 0 && t->panel.row_labels[r].max_width < t->page.width);
		}
		for (size_t s = 0; s < t->series_count; s++)
			CHECK(g_utf8_validate(t->series[s].name, -1, NULL));
		CHECK(t->panel.plot.w > 0);
		surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)t->page.width, (int)t->page.height);
		cr = cairo_create(surface);
		CHECK_INT(rli_cairo_paint_page(cr, &t->document, &t->page, &paint), RLI_OK);
		cairo_destroy(cr);
		cairo_surface_destroy(surface);
		rli_timeline_free(t);
	}
	free(long_name);
	rli_events_free(events);
}

/* More names than the legend can hold: the last entry shown counts the rest, all on the page. */
static void test_legend_overflow(void)
{
	rli_events *events = new_events();
	rli_timeline *t;
	char name[32], more[64];
	size_t shown = 0;

	for (int i = 0; i < 400; i++) {
		snprintf(name, sizeof(name), "range_%03d", i);
		case_add(events, name, "worker", 0, i, 1.0);
	}
	t = lay_out(events, 0.0);
	CHECK_INT(t->series_count, 400);
	while (shown < t->series_count && t->legend.swatches[shown].w > 0)
		shown++;
	CHECK(shown > 30 && shown < 400);
	snprintf(more, sizeof(more), "\xe2\x80\xa6 %zu more", (size_t)400 - shown);
	CHECK_STR(t->legend.labels[shown].text, more);
	for (size_t s = 0; s < shown; s++) {
		CHECK_STR(t->legend.labels[s].text, t->series[s].name);
		CHECK(t->legend.swatches[s].y >= 0);
		CHECK(t->legend.swatches[s].y + t->legend.swatches[s].h <= t->page.height);
		CHECK(t->legend.swatches[s].x + t->legend.swatches[s].w < t->page.width);
	}
	for (size_t s = shown + 1; s < t->series_count; s++) {
		CHECK_STR(t->legend.labels[s].text, "");
		CHECK(t->legend.swatches[s].w == 0);
	}
	CHECK(t->panel.plot.w > 0.5 * t->page.width);
	rli_timeline_free(t);
	rli_events_free(events);
}

int main(void)
{
	test_legend_overflow();
	test_hostile_strings();
	test_bar_order_does_not_depend_on_input_order();
	test_options_defaults();
	test_rows_orders_and_colours();
	test_palette();
	test_ticks();
	test_merge_rule();
	test_geometry();
	test_height_grows_then_caps();
	test_vector_only_if_raster_fits();
	test_t0_and_nothing_to_draw();
	TEST_DONE();
}

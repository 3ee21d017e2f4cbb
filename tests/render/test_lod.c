/* test_lod.c: bars thinner than a pixel are drawn as their exact per-column union, fast. */
#include "harness.h"
#include "cairo_paint.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define COLUMNS 1000
#define BARS_PER_COLUMN 1000

/*
 * Column c is covered on [c, c + q) with q = ((7c mod 10) + 1) / 10, by 1000
 * bars that overlap their neighbours (even columns: union q) or leave a gap
 * after each (odd columns: union q / 2). Start order, as the layout keeps it.
 */
static double bar_at(size_t column, size_t j, double *end)
{
	double q = (double)((column * 7) % 10 + 1) / 10.0, step = q / BARS_PER_COLUMN;
	double start = (double)column + step * (double)j;
	if (column % 2 == 0)
		*end = fmin(start + 2.0 * step, (double)column + q);
	else
		*end = start + 0.5 * step;
	return start;
}

static double expected_coverage(size_t column)
{
	double q = (double)((column * 7) % 10 + 1) / 10.0;
	return column % 2 == 0 ? q : q / 2.0;
}

static void test_coverage_columns(void)
{
	rli_lod_columns lod;
	double worst = 0.0;

	CHECK_INT(rli_lod_init(&lod, COLUMNS + 3), 0);
	for (size_t c = 0; c < COLUMNS; c++)
		for (size_t j = 0; j < BARS_PER_COLUMN; j++) {
			double end, start = bar_at(c, j, &end);
			rli_lod_add(&lod, start, end);
		}
	/* One interval across three columns: 0.5, 1 and 0.25. */
	rli_lod_add(&lod, COLUMNS + 0.5, COLUMNS + 2.25);
	rli_lod_flush(&lod);
	for (size_t c = 0; c < COLUMNS; c++)
		worst = fmax(worst, fabs(lod.coverage[c] - expected_coverage(c)));
	CHECK(worst < 1e-9);
	CHECK_NEAR(lod.coverage[COLUMNS], 0.5, 1e-12);
	CHECK_NEAR(lod.coverage[COLUMNS + 1], 1.0, 1e-12);
	CHECK_NEAR(lod.coverage[COLUMNS + 2], 0.25, 1e-12);
	CHECK_INT(lod.touched_lo, 0);
	CHECK_INT(lod.touched_hi, COLUMNS + 3);

	/* Clearing leaves nothing behind for the next run. */
	rli_lod_clear(&lod);
	for (size_t c = 0; c < COLUMNS + 3; c++)
		CHECK(lod.coverage[c] == 0.0);
	/* Intervals outside the columns are clipped, not written past the end. */
	rli_lod_add(&lod, -5.0, 0.5);
	rli_lod_add(&lod, COLUMNS + 2.5, COLUMNS + 9.0);
	rli_lod_flush(&lod);
	CHECK_NEAR(lod.coverage[0], 0.5, 1e-12);
	CHECK_NEAR(lod.coverage[COLUMNS + 2], 0.5, 1e-12);
	rli_lod_dispose(&lod);
}

/* A hand-built model: one row, one black series, the plot's pixels aligned to columns. */
typedef struct {
	rli_timeline t;
	rli_row row;
	rli_series series;
	rli_text row_label;
	size_t row_first_bar[2];
} one_row_model;

static void model_init(one_row_model *m, size_t bars, double width, double height, rli_rect plot,
		       double x_max)
{
	memset(m, 0, sizeof(*m));
	m->t.page.width = width;
	m->t.page.height = height;
	m->t.document.scale = 1;
	m->t.document.background = 0xFFFFFF;
	m->t.panel.plot = plot;
	m->t.panel.x_min = 0.0;
	m->t.panel.x_max = x_max;
	m->t.panel.row_count = 1;
	m->t.panel.rows = &m->row;
	m->t.panel.row_pitch = plot.h;
	m->t.panel.bar_thickness = plot.h / 2;
	m->t.panel.bar_outline = 0xFFFFFF;
	m->t.panel.bar_outline_width = 0.8;
	m->t.panel.series_count = 1;
	m->t.panel.series = &m->series;
	m->t.panel.bar_count = bars;
	m->t.panel.bar_row = calloc(bars, sizeof(uint32_t));
	m->t.panel.bar_series = calloc(bars, sizeof(uint32_t));
	m->t.panel.bar_start = calloc(bars, sizeof(double));
	m->t.panel.bar_end = calloc(bars, sizeof(double));
	m->row_first_bar[1] = bars;
	m->t.panel.row_first_bar = m->row_first_bar;
	m->t.panel.row_labels = &m->row_label;
	m->t.items[0].kind = RLI_ITEM_PANEL;
	m->t.items[0].u.panel = &m->t.panel;
	m->t.page.items = m->t.items;
	m->t.page.item_count = 1;
	m->t.document.pages = &m->t.page;
	m->t.document.page_count = 1;
	if (!m->t.panel.bar_row || !m->t.panel.bar_series || !m->t.panel.bar_start || !m->t.panel.bar_end)
		exit(1);
}

static void model_dispose(one_row_model *m)
{
	free(m->t.panel.bar_row);
	free(m->t.panel.bar_series);
	free(m->t.panel.bar_start);
	free(m->t.panel.bar_end);
}

static void test_painted_coverage(void)
{
	one_row_model m;
	rli_rect plot = { 50, 20, COLUMNS, 60 };
	rli_paint_options options = { .scale = 1, .lod_columns_per_unit = 1 };
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1100, 100);
	cairo_t *cr = cairo_create(surface);
	size_t n = 0, wrong = 0;
	int worst = 0;

	/* One ms per pixel column: the bars of test_coverage_columns, a million of them. */
	model_init(&m, (size_t)COLUMNS * BARS_PER_COLUMN, 1100, 100, plot, COLUMNS);
	m.series.color = 0x000000;
	for (size_t c = 0; c < COLUMNS; c++)
		for (size_t j = 0; j < BARS_PER_COLUMN; j++, n++)
			m.t.panel.bar_start[n] = bar_at(c, j, &m.t.panel.bar_end[n]);
	CHECK_INT(rli_cairo_paint_page(cr, &m.t.document, &m.t.page, &options), 0);
	cairo_surface_flush(surface);

	/* Black at alpha = coverage over white: grey level 255 * (1 - coverage), to 8 bits. */
	for (size_t c = 0; c < COLUMNS; c++) {
		const unsigned char *data = cairo_image_surface_get_data(surface);
		int stride = cairo_image_surface_get_stride(surface);
		uint32_t pixel = *(const uint32_t *)(const void *)(data + 50 * stride + (50 + c) * 4);
		int grey = (int)(pixel & 0xFF);
		int want = (int)lround(255.0 * (1.0 - expected_coverage(c)));
		int diff = abs(grey - want);
		if (diff > worst)
			worst = diff;
		if (diff > 1)
			wrong++;
	}
	if (wrong)
		fprintf(stderr, "%zu of %d columns off by more than 1 (worst %d)\n", wrong, COLUMNS, worst);
	CHECK_INT(wrong, 0);
	/* Above and below the bar the plot stays white. */
	{
		const unsigned char *data = cairo_image_surface_get_data(surface);
		int stride = cairo_image_surface_get_stride(surface);
		uint32_t above = *(const uint32_t *)(const void *)(data + 25 * stride + 60 * 4);
		CHECK_INT(above & 0xFFFFFF, 0xFFFFFF);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(surface);
	model_dispose(&m);
}

/* A million sub-pixel bars at 4000 device pixels across: well under a second. */
static void test_million_bars_speed(void)
{
	one_row_model m;
	rli_rect plot = { 240, 120, 1700, 700 };
	rli_paint_options options = { .scale = 2, .lod_columns_per_unit = 2 };
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 4000, 1800);
	cairo_t *cr = cairo_create(surface);
	struct timespec t0, t1;
	uint32_t state = 7;
	double seconds, at = 0.0;

	model_init(&m, 1000000, 2000, 900, plot, 1000000.0);
	m.t.document.scale = 2;
	m.series.color = 0x4e79a7;
	for (size_t i = 0; i < m.t.panel.bar_count; i++) {
		state = state * 1664525u + 1013904223u;
		at += (double)(state >> 16) / 65536.0 * 1.6;
		m.t.panel.bar_start[i] = at;
		m.t.panel.bar_end[i] = at + 0.3 + (double)(state & 0xFF) / 256.0;
	}
	m.t.panel.x_max = at * 1.05;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK_INT(rli_cairo_paint_page(cr, &m.t.document, &m.t.page, &options), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr, "1,000,000 bars painted at 4000 px in %.3f s\n", seconds);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__OPTIMIZE__)
	/* An unoptimised build is only held to a looser bound. */
	CHECK(seconds < 3.0);
#elif !defined(__SANITIZE_ADDRESS__)
	CHECK(seconds < 1.0);
#endif
	cairo_destroy(cr);
	cairo_surface_destroy(surface);
	model_dispose(&m);
}

int main(void)
{
	test_coverage_columns();
	test_painted_coverage();
	test_million_bars_speed();
	TEST_DONE();
}

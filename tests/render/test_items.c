/* test_items.c: the painter's value panels, lines (with their per-column envelope), marked points and tables. */
#include "harness.h"
#include "render_cases.h"
#include "cairo_paint.h"
#include "common/atomic_file.h"

#include <cairo-pdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RED 0xD62728
#define BLUE 0x1F77B4

typedef struct {
	rli_document document;
	rli_page page;
	rli_item items[2];
	rli_panel panel;
	rli_table table;
	rli_line_mark line;
	rli_point_mark point;
	rli_tick yticks[3];
} value_page;

/* A 400 x 300 page: x 0..100 and y 0..10 over the plot (50, 20, 300, 200), and a two-row table under it. */
static void page_init(value_page *v, size_t points)
{
	static char *header[] = { "operator", "size" };
	static char *cells[] = { "aclnnMatmul", "512.0 MB", "aclnnAdd", "8.0 KB" };
	static double column_x[] = { 50, 250 }, column_width[] = { 180, 100 };
	static rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_END };

	memset(v, 0, sizeof(*v));
	v->panel.plot = (rli_rect){ 50, 20, 300, 200 };
	v->panel.x_max = 100;
	v->panel.y_scale = RLI_Y_VALUES;
	v->panel.y_max = 10;
	v->panel.grid_color = 0xEAEAEA;
	v->panel.grid_width = 1;
	v->panel.tick_label_size = 10;
	v->panel.tick_label_gap = 4;
	for (int i = 0; i < 3; i++) {
		v->yticks[i].value = 5.0 * i;
		snprintf(v->yticks[i].label, sizeof(v->yticks[i].label), "%d", 5 * i);
	}
	v->panel.yticks = v->yticks;
	v->panel.ytick_count = 3;
	v->line.count = points;
	v->line.x = calloc(points, sizeof(double));
	v->line.y = calloc(points, sizeof(double));
	v->line.color = RED;
	v->line.width = 1;
	v->panel.lines = &v->line;
	v->panel.line_count = 1;
	v->point.color = BLUE;
	v->point.radius = 4;
	v->point.label.text = "peak";
	v->point.label.size = 10;
	v->panel.points = &v->point;
	v->panel.point_count = 1;
	v->table = (rli_table){ .x = 50, .y = 240, .column_count = 2, .row_count = 2, .header = header,
				.cells = cells, .column_x = column_x, .column_width = column_width, .align = align,
				.font_size = 10, .row_height = 18, .text_color = 0x000000, .rule_color = 0x888888 };
	v->items[0] = (rli_item){ .kind = RLI_ITEM_PANEL, .u.panel = &v->panel };
	v->items[1] = (rli_item){ .kind = RLI_ITEM_TABLE, .u.table = &v->table };
	v->page = (rli_page){ .width = 400, .height = 300, .item_count = 2, .items = v->items };
	v->document = (rli_document){ .name = "items", .scale = 1, .raster_scale = 1, .background = 0xFFFFFF,
				      .text_color = 0x000000, .page_count = 1, .pages = &v->page };
	if (!v->line.x || !v->line.y)
		exit(1);
}

static void page_dispose(value_page *v)
{
	free(v->line.x);
	free(v->line.y);
}

/* The page as pixels at scale 1. */
static cairo_surface_t *paint(const value_page *v)
{
	rli_paint_options options = { .scale = 1, .lod_columns_per_unit = 1 };
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 300);
	cairo_t *cr = cairo_create(surface);
	CHECK_INT(rli_cairo_paint_page(cr, &v->document, &v->page, &options), RLI_OK);
	cairo_destroy(cr);
	cairo_surface_flush(surface);
	return surface;
}

static uint32_t pixel(cairo_surface_t *surface, int x, int y)
{
	const unsigned char *data = cairo_image_surface_get_data(surface);
	return ((const uint32_t *)(const void *)(data + (size_t)y * cairo_image_surface_get_stride(surface)))[x] &
	       0xFFFFFF;
}

/* Whether any pixel of column x between rows y0 and y1 is close to colour. */
static int column_has(cairo_surface_t *surface, int x, int y0, int y1, uint32_t color)
{
	for (int y = y0; y <= y1; y++) {
		uint32_t c = pixel(surface, x, y);
		int dr = (int)(c >> 16) - (int)(color >> 16), dg = (int)((c >> 8) & 0xFF) - (int)((color >> 8) & 0xFF);
		int db = (int)(c & 0xFF) - (int)(color & 0xFF);
		if (abs(dr) < 40 && abs(dg) < 40 && abs(db) < 40)
			return 1;
	}
	return 0;
}

/* Whether any pixel of column x between rows y0 and y1 is tinted red (an antialiased edge counts). */
static int column_reddish(cairo_surface_t *surface, int x, int y0, int y1)
{
	for (int y = y0; y <= y1; y++) {
		uint32_t c = pixel(surface, x, y);
		if ((int)(c >> 16) > (int)((c >> 8) & 0xFF) + 40)
			return 1;
	}
	return 0;
}

/* A tent from (0, 0) to (50, 10) to (100, 0), its area filled, its peak marked. */
static void test_value_panel(void)
{
	value_page v;
	cairo_surface_t *surface;

	page_init(&v, 3);
	v.line.x[1] = 50, v.line.x[2] = 100;
	v.line.y[1] = 10;
	v.line.fill_alpha = 0.3;
	v.point.x = 50, v.point.y = 10;
	surface = paint(&v);
	/* x = 50 is device column 200, y = 10 the plot's top (20): the point is blue there. */
	CHECK(column_has(surface, 200, 18, 22, BLUE));
	/* Halfway up the left flank, x = 25 (column 125) at y = 5 (row 120): the red line. */
	CHECK(column_has(surface, 125, 117, 123, RED));
	/* Under the flank the area is tinted; above it the page stays white. */
	CHECK(pixel(surface, 125, 200) != 0xFFFFFF);
	CHECK_INT((int)pixel(surface, 125, 60), 0xFFFFFF);
	/* The y grid line at 5 crosses the plot at row 120; the table's header rule is under row 240 + 18. */
	CHECK(column_has(surface, 320, 119, 121, 0xEAEAEA));
	CHECK(pixel(surface, 100, 257) != 0xFFFFFF || pixel(surface, 100, 258) != 0xFFFFFF);
	cairo_surface_destroy(surface);
	page_dispose(&v);
}

/* 100,000 points at 0 with one spike to 10 between two columns: the envelope keeps it. */
static void test_line_envelope(void)
{
	value_page v;
	cairo_surface_t *surface;
	size_t n = 100000, spike = 33337;

	page_init(&v, n);
	for (size_t i = 0; i < n; i++)
		v.line.x[i] = 100.0 * (double)i / (double)(n - 1);
	v.line.y[spike] = 10;
	v.point.radius = 0;
	v.point.label.text = "";
	surface = paint(&v);
	{
		int column = (int)floor(50 + 3.0 * v.line.x[spike]);
		CHECK(column_has(surface, column, 20, 40, RED));
		/* Away from the spike the line lies along the bottom. */
		CHECK(!column_reddish(surface, column + 30, 20, 200));
		CHECK(column_reddish(surface, column + 30, 215, 221));
	}
	cairo_surface_destroy(surface);
	page_dispose(&v);
}

/*
 * Two dense clusters joined by one long slope: drawn as its envelope (more points than columns),
 * the slope still tints every column it crosses red, at its own height there and nowhere far
 * above, though those columns hold no point of their own (a 1-unit line on a shallow slope
 * covers no pixel whole: tinted is what the stroke gave too).
 */
static void test_envelope_slope(void)
{
	value_page v;
	cairo_surface_t *surface;
	size_t n = 6002, half = 3000;

	page_init(&v, n);
	for (size_t i = 0; i < half; i++) {
		v.line.x[i] = 5.0 * (double)i / (double)(half - 1);
		v.line.y[i] = i % 2 ? 8 : 7;
		v.line.x[n - 1 - i] = 100.0 - 5.0 * (double)i / (double)(half - 1);
		v.line.y[n - 1 - i] = i % 2 ? 2 : 1;
	}
	v.line.x[half] = 5, v.line.y[half] = 8;
	v.line.x[half + 1] = 95, v.line.y[half + 1] = 2;
	v.point.radius = 0;
	v.point.label.text = "";
	surface = paint(&v);
	{
		int bad = 0;
		for (int column = 70; column < 330; column++) {
			/* x = (column - 50) / 3, its height on the slope from (5, 8) to (95, 2), as a row */
			double x = (column + 0.5 - 50) / 3.0, y = 8 - 6 * (x - 5) / 90, row = 20 + 200 - y * 20;
			bad |= !column_reddish(surface, column, (int)row - 3, (int)row + 3);
			bad |= column_reddish(surface, column, 20, (int)row - 12);
		}
		CHECK(!bad);
	}
	cairo_surface_destroy(surface);
	page_dispose(&v);
}

/* The table's text is real text in a PDF, header and cells, in reading order. */
static void test_table_text(const char *dir)
{
	value_page v;
	char path[4096], command[4200], text[4096] = "";
	size_t used = 0;
	FILE *pipe;
	rli_paint_options options = { .scale = 1, .lod_columns_per_unit = 4 };
	cairo_surface_t *surface;
	cairo_t *cr;

	if (system("command -v pdftotext >/dev/null 2>&1") != 0) {
		fprintf(stderr, "skipped: pdftotext (poppler-utils) is needed to read the table back\n");
		exit(RLI_TEST_SKIP);
	}
	page_init(&v, 2);
	v.line.x[1] = 100;
	snprintf(path, sizeof(path), "%s/items.pdf", dir);
	surface = cairo_pdf_surface_create(path, 400, 300);
	cr = cairo_create(surface);
	CHECK_INT(rli_cairo_paint_page(cr, &v.document, &v.page, &options), RLI_OK);
	cairo_destroy(cr);
	cairo_surface_destroy(surface);
	snprintf(command, sizeof(command), "pdftotext -layout '%s' -", path);
	if ((pipe = popen(command, "r"))) {
		used = fread(text, 1, sizeof(text) - 1, pipe);
		pclose(pipe);
	}
	text[used] = '\0';
	CHECK(strstr(text, "operator") != NULL);
	CHECK(strstr(text, "aclnnMatmul") != NULL && strstr(text, "512.0 MB") != NULL);
	CHECK(strstr(text, "aclnnMatmul") < strstr(text, "aclnnAdd"));
	remove(path);
	page_dispose(&v);
}

int main(int argc, char **argv)
{
	if (argc != 2 || rli_mkdir_p(argv[1]) < 0)
		return 2;
	test_value_panel();
	test_line_envelope();
	test_envelope_slope();
	test_table_text(argv[1]);
	TEST_DONE();
}

/* test_memory_reserved.c: a PyTorch-like table's devices (one per role, rank and device type) and its Total Reserved line on the figure and the pages, against values worked out here; an Ascend-like table gets neither. */
#include "harness.h"
#include "render_cases.h"
#include "layout/memory_figure.h"
#include "layout/memory_parts.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *role, *device;
	double size_kb, start_ms, duration_ms, reserved_mb;
	int released;
} row;

/*
 * Rows in start order (ms). actor rank 0 has two devices, CUDA:0 and CUDA:1;
 * ref rank 0 one. CUDA:1 (times from its first allocation at 1000):
 *   a free at -5 (reserved 3), alloc 1024 KB [0, 30) (reserved 4), a free at 5 (4),
 *   alloc 2048 KB [10, 20) (6), alloc 1024 KB never freed at 20 (6), a free at 25 (5),
 *   a free at 40 (2), past the last block's end (30).
 * Its curve: 1 MB from 0, 3 MB from 10 (the peak), 2 MB from 20, 0 at 30.
 * Its reserved line: 3 at -5 only sets where it starts, 4 at 0 replaces it;
 * unchanged values add no point; the free at 40 is past the end:
 *   (0, 4) (10, 4) (10, 6) (25, 6) (25, 5) (30, 5), at most 6 MB.
 * CUDA:2 has only a free: no device. vllm's CPU:0 reserves nothing: no line.
 */
static const row rows[] = {
	{ "actor", "CUDA:1", -128, 995, 0, 3, 0 },
	{ "actor", "CUDA:1", 1024, 1000, 30, 4, 1 },
	{ "actor", "CUDA:0", 512, 1000, 5, 2, 1 },
	{ "ref", "CUDA:0", 256, 1001, 4, 1, 1 },
	{ "actor", "CUDA:1", -512, 1005, 0, 4, 0 },
	{ "actor", "CUDA:2", -64, 1006, 0, 9, 0 },
	{ "actor", "CUDA:1", 2048, 1010, 10, 6, 1 },
	{ "actor", "CUDA:1", 1024, 1020, 0, 6, 0 },
	{ "actor", "CUDA:1", -256, 1025, 0, 5, 0 },
	{ "actor", "CUDA:1", -64, 1040, 0, 2, 0 },
	{ "vllm", "CPU:0", 8, 1050, 1, 0, 1 },
};
#define ROWS (sizeof(rows) / sizeof(rows[0]))

static const double want_x[] = { 0, 10, 10, 25, 25, 30 };
static const double want_y[] = { 4, 4, 6, 6, 5, 5 };
#define POINTS (sizeof(want_x) / sizeof(want_x[0]))

/* The reserved line as worked out above, on the figure's x (the pages' too, this device starting at their origin). */
static void check_reserved_points(const rli_line_mark *reserved)
{
	CHECK_INT((int)reserved->count, (int)POINTS);
	for (size_t i = 0; i < POINTS && i < reserved->count; i++) {
		CHECK_NEAR(reserved->x[i], want_x[i], 1e-9);
		CHECK_NEAR(reserved->y[i], want_y[i], 1e-12);
	}
	CHECK_STR(reserved->name, RLI_MEMORY_RESERVED_NAME);
}

static uint32_t intern(rli_memory *m, const char *text)
{
	return rli_memory_intern(m, text, strlen(text));
}

static rli_memory *table(int shows_reserved)
{
	rli_memory *m = NULL;
	CHECK_INT(rli_memory_new(&m), RLI_OK);
	if (!m)
		exit(1);
	for (size_t i = 0; i < ROWS; i++) {
		const row *r = &rows[i];
		rli_memory_in in = { intern(m, "[memory]"), intern(m, r->role), intern(m, r->device), m->empty, m->empty,
				     0, r->size_kb, r->start_ms, r->duration_ms, 0, r->reserved_mb, 0, 0, r->released,
				     RLI_MEMORY_UNMATCHED, NAN, 0 };
		CHECK_INT(rli_memory_append(m, &in), RLI_OK);
	}
	m->shows_reserved = shows_reserved;
	return m;
}

/* The split: three devices in (role, rank, type) order, named by type only where a rank has two. */
static void test_split(void)
{
	rli_memory *m = table(1);
	rli_memory_devices split;

	CHECK_INT(rli_memory_devices_split(&split, m, 0), RLI_OK);
	CHECK_INT((int)split.count, 4);
	if (split.count == 4) {
		const rli_memory_device *c0 = &split.devices[0], *c1 = &split.devices[1], *ref = &split.devices[2];
		CHECK_STR(c0->role, "actor");
		CHECK_STR(c0->device_type, "CUDA:0");
		CHECK_STR(c1->device_type, "CUDA:1");
		CHECK_STR(ref->role, "ref");
		CHECK(c0->shares_rank && c1->shares_rank && !ref->shares_rank);
		CHECK_STR(rli_memory_device_tag(c1), "CUDA:1");
		CHECK_STR(rli_memory_device_tag(ref), "");
		CHECK_INT((int)c0->count, 1);
		CHECK_INT((int)c1->count, 3);
		CHECK_NEAR(c1->start_ms[1], 1010, 0);
		/* every row of CUDA:1 with its reserved value, frees too, in table order */
		CHECK_INT((int)c1->reserved_count, 7);
		CHECK_NEAR(c1->reserved_ms[0], 995, 0);
		CHECK_NEAR(c1->reserved_mb[0], 3, 0);
		CHECK_NEAR(c1->reserved_ms[6], 1040, 0);
		CHECK_INT((int)ref->reserved_count, 1);
		/* its one row counts; the line it would make is 0 throughout, and not drawn */
		CHECK_INT((int)split.devices[3].reserved_count, 1);
	}
	rli_memory_devices_dispose(&split);
	/* Ascend-like: the same devices, no reserved line */
	m->shows_reserved = 0;
	CHECK_INT(rli_memory_devices_split(&split, m, 0), RLI_OK);
	CHECK_INT((int)split.count, 4);
	for (size_t d = 0; d < split.count; d++)
		CHECK_INT((int)split.devices[d].reserved_count, 0);
	rli_memory_devices_dispose(&split);
	rli_memory_free(m);
}

static const rli_item *item_of_kind(const rli_page *page, rli_item_kind kind)
{
	for (size_t i = 0; i < page->item_count; i++)
		if (page->items[i].kind == kind)
			return &page->items[i];
	return NULL;
}

/* The table's devices and their figure (NULL after a failure, checked). */
static rli_memory_figure *lay_out(rli_memory *m, rli_memory_devices *split, const rli_timeline_options *options)
{
	rli_memory_figure *figure = NULL;
	CHECK_INT(rli_memory_devices_split(split, m, 0), RLI_OK);
	CHECK_INT(rli_memory_figure_layout(&figure, split->devices, split->count, options), RLI_OK);
	return figure;
}

static void dispose_all(rli_memory_figure *figure, rli_memory_devices *split, rli_memory *m)
{
	rli_memory_figure_free(figure);
	rli_memory_devices_dispose(split);
	rli_memory_free(m);
}

/* The figure of a torch table: CUDA:1's page draws the reserved line and names both lines; golden/memory_reserved.png. */
static void test_figure(const char *golden_dir, const char *actual_dir, int updating)
{
	rli_memory *m = table(1);
	rli_memory_devices split;
	rli_memory_figure *figure = lay_out(m, &split, NULL);
	char golden[4096], actual[4096];

	if (figure) {
		const rli_document *doc = rli_memory_figure_document(figure);
		const rli_page *page = &doc->pages[1];
		const rli_panel *curve = page->items[1].u.panel;
		const rli_item *legend = item_of_kind(page, RLI_ITEM_LEGEND);
		CHECK_INT((int)doc->page_count, 4);
		/* vllm's CPU:0 reserves nothing: one line, no legend, the Ascend figure's look */
		if (doc->page_count == 4) {
			CHECK_INT((int)doc->pages[3].items[1].u.panel->line_count, 1);
			CHECK(item_of_kind(&doc->pages[3], RLI_ITEM_LEGEND) == NULL);
		}
		CHECK_STR(doc->pages[0].name, "memory_timeline_actor_rank0_CUDA_0");
		CHECK_STR(page->name, "memory_timeline_actor_rank0_CUDA_1");
		CHECK_STR(doc->pages[2].name, "memory_timeline_ref_rank0");
		CHECK(strstr(page->items[0].u.text->text, "actor - Rank 0 CUDA:1 (origin 1000.000 ms)") != NULL);
		/* a device alone on its rank is named by its type too (a ROCm run says HIP:0) */
		CHECK(strstr(doc->pages[2].items[0].u.text->text, "ref - Rank 0 CUDA:0 (origin") != NULL);
		CHECK_NEAR(rli_memory_figure_summary(figure, 1)->peak_mb, 3, 1e-12);
		CHECK_INT((int)curve->line_count, 2);
		if (curve->line_count == 2) {
			const rli_line_mark *reserved = &curve->lines[1];
			check_reserved_points(reserved);
			CHECK(reserved->color != curve->lines[0].color);
			CHECK(reserved->fill_alpha == 0);
			CHECK_STR(curve->lines[0].name, RLI_MEMORY_ALLOCATED_NAME);
		}
		/* the y range covers the reserved 6 MB, not only the 3 MB peak */
		CHECK(curve->y_max >= 6);
		CHECK_STR(curve->y_title.text, "Memory (MB)");
		CHECK(legend != NULL);
		if (legend) {
			CHECK_INT((int)legend->u.legend->series_count, 2);
			CHECK_STR(legend->u.legend->labels[0].text, "Allocated (from the blocks)");
			CHECK_STR(legend->u.legend->labels[1].text, "Reserved (allocator cache)");
			CHECK(legend->u.legend->labels[1].x > legend->u.legend->labels[0].x);
			/* above the plot, below the title */
			CHECK(legend->u.legend->labels[0].y < curve->plot.y && legend->u.legend->labels[0].y > 48);
		}
		snprintf(golden, sizeof(golden), "%s/memory_reserved.png", golden_dir);
		snprintf(actual, sizeof(actual), "%s/memory_reserved.png", actual_dir);
		{
			rli_document one = *doc;
			/* CUDA:1's page as its own one-page document, to compare with the golden image */
			one.pages = &doc->pages[1];
			one.page_count = 1;
			CHECK_INT(case_render_document(&one, "png", updating ? golden : actual), RLI_OK);
		}
		if (!updating)
			CHECK(case_compare_png("memory_reserved", golden, actual) == 0);
		CHECK_INT(rli_render(doc, "pdf", actual_dir, NULL), RLI_OK);
	}
	dispose_all(figure, &split, m);
}

/* 400 units wide: the legend's entries a row each, on the page; the device's type on the origin's line, whole. */
static void test_figure_narrow(void)
{
	rli_memory *m = table(1);
	rli_memory_devices split;
	rli_memory_figure *figure;
	rli_timeline_options options;

	rli_timeline_options_init(&options);
	options.width = 400;
	if ((figure = lay_out(m, &split, &options))) {
		const rli_page *page = &rli_memory_figure_document(figure)->pages[1];
		const rli_item *legend = item_of_kind(page, RLI_ITEM_LEGEND);
		const rli_panel *curve = page->items[1].u.panel;
		const rli_text *subtitle = NULL;
		for (size_t i = 0; i < page->item_count; i++)
			if (page->items[i].kind == RLI_ITEM_TEXT && page->items[i].u.text->text &&
			    strncmp(page->items[i].u.text->text, "CUDA:1, origin", 14) == 0)
				subtitle = page->items[i].u.text;
		CHECK(subtitle != NULL);
		CHECK(legend != NULL);
		if (legend && legend->u.legend->series_count == 2) {
			const rli_text *a = &legend->u.legend->labels[0], *b = &legend->u.legend->labels[1];
			CHECK_NEAR(a->x, b->x, 0);
			CHECK(b->y > a->y && b->y < curve->plot.y);
			CHECK(a->max_width == 0 && b->max_width == 0); /* both names whole */
			CHECK(subtitle == NULL || a->y - a->size / 2 > subtitle->y + subtitle->size / 2);
		} else {
			CHECK(0);
		}
	}
	dispose_all(figure, &split, m);
}

/* The same table as Ascend's (shows_reserved 0): one line, unnamed, no legend, the y range the peak's. */
static void test_figure_without(void)
{
	rli_memory *m = table(0);
	rli_memory_devices split;
	rli_memory_figure *figure = lay_out(m, &split, NULL);

	if (figure) {
		const rli_page *page = &rli_memory_figure_document(figure)->pages[1];
		const rli_panel *curve = page->items[1].u.panel;
		CHECK_INT((int)curve->line_count, 1);
		CHECK(curve->lines[0].name == NULL);
		CHECK(item_of_kind(page, RLI_ITEM_LEGEND) == NULL);
		CHECK_INT((int)page->item_count, 5);
		CHECK(curve->y_max < 6);
		CHECK_STR(curve->y_title.text, "Allocated (MB)");
		CHECK_NEAR(curve->plot.y, 96, 0);
	}
	dispose_all(figure, &split, m);
}

/* The interactive pages: the device named by its type, its pages' curve carrying the reserved line on the pages' x. */
static void test_pages(void)
{
	rli_memory *m = table(1);
	rli_memory_pages *pages = NULL;

	CHECK_INT(rli_memory_pages_layout(&pages, m, NULL), RLI_OK);
	if (pages) {
		const rli_document *doc = rli_memory_pages_document(pages);
		const rli_page *page = NULL;
		for (size_t p = 0; p < doc->page_count; p++)
			if (doc->pages[p].name && strcmp(doc->pages[p].name, "memory_timeline_actor_rank0_CUDA_1_00") == 0)
				page = &doc->pages[p];
		CHECK(page != NULL);
		if (page) {
			const rli_panel *curve = page->items[1].u.panel;
			CHECK(strstr(page->items[0].u.text->text, "actor - Rank 0 CUDA:1") != NULL);
			CHECK_INT((int)curve->line_count, 3);
			if (curve->line_count == 3) {
				/* the pages' x is from the document's origin, the first allocation of all (1000): no shift here */
				check_reserved_points(&curve->lines[2]);
				CHECK_STR(curve->lines[0].name, RLI_MEMORY_ALLOCATED_NAME);
				CHECK(curve->lines[1].name == NULL);
			}
			CHECK(curve->y_max >= 6);
		}
		/* ref's device starts 1 ms after the origin: its line is shifted so */
		for (size_t p = 0; p < doc->page_count; p++)
			if (doc->pages[p].name && strcmp(doc->pages[p].name, "memory_timeline_ref_rank0_00") == 0) {
				const rli_panel *curve = doc->pages[p].items[1].u.panel;
				CHECK_INT((int)curve->line_count, 3);
				if (curve->line_count == 3 && curve->lines[2].count) {
					CHECK_NEAR(curve->lines[2].x[0], 1, 1e-9);
					CHECK_NEAR(curve->lines[2].y[0], 1, 0);
				}
			}
		rli_memory_pages_free(pages);
	}
	/* Ascend-like: the envelope's two lines only */
	m->shows_reserved = 0;
	CHECK_INT(rli_memory_pages_layout(&pages, m, NULL), RLI_OK);
	if (pages) {
		const rli_document *doc = rli_memory_pages_document(pages);
		CHECK_INT((int)doc->pages[0].items[1].u.panel->line_count, 2);
		CHECK(doc->pages[0].items[1].u.panel->lines[0].name == NULL);
		rli_memory_pages_free(pages);
	}
	rli_memory_free(m);
}

/*
 * A reserve that changes at every one of 100,000 allocations (1 KB each, 0.01 ms apart, 0.005 ms long):
 * 10 and 11 MB in turn, 61 MB once (row 31337). Two points a change are ~200,000, more than four a
 * slice (16 a plot column): the pages keep at most four a slice, the 61 MB among them, the line
 * still reaching the last block's end.
 */
static void test_pages_thinned(void)
{
	enum { N = 100000 };
	rli_memory *m = NULL;
	rli_memory_pages *pages = NULL;

	CHECK_INT(rli_memory_new(&m), RLI_OK);
	if (!m)
		return;
	for (size_t i = 0; i < N; i++) {
		rli_memory_in in = { intern(m, "[memory]"), intern(m, "actor"), intern(m, "CUDA:0"), m->empty, m->empty, 0, 1,
				     1000 + 0.01 * (double)i, 0.005, 0, 10 + (double)(i % 2) + (i == 31337 ? 50 : 0), 0, 0,
				     1, RLI_MEMORY_UNMATCHED, NAN, 0 };
		CHECK_INT(rli_memory_append(m, &in), RLI_OK);
	}
	m->shows_reserved = 1;
	CHECK_INT(rli_memory_pages_layout(&pages, m, NULL), RLI_OK);
	if (pages) {
		const rli_panel *curve = rli_memory_pages_document(pages)->pages[0].items[1].u.panel;
		const rli_line_mark *reserved = curve->line_count == 3 ? &curve->lines[2] : NULL;
		double highest = 0;
		CHECK(reserved != NULL);
		if (reserved) {
			double plot_columns = curve->plot.w + 1; /* the layout's columns: the plot's width, about */
			/* unthinned: ~2 * N points; the bound is ~4 * 16 * 1900, well under that */
			CHECK(reserved->count <= 4 * 16 * (size_t)plot_columns);
			for (size_t i = 0; i < reserved->count; i++) {
				highest = fmax(highest, reserved->y[i]);
				if (i)
					CHECK(reserved->x[i] >= reserved->x[i - 1]);
			}
			CHECK_NEAR(highest, 61, 0);
			CHECK_NEAR(reserved->x[reserved->count - 1], 0.01 * (N - 1) + 0.005, 1e-9);
		}
		rli_memory_pages_free(pages);
	}
	rli_memory_free(m);
}

int main(int argc, char **argv)
{
	int updating;

	if (case_golden_args(argc, argv, &updating))
		return 2;
	test_split();
	test_figure(argv[1], argv[2], updating);
	test_figure_narrow();
	test_figure_without();
	test_pages();
	test_pages_thinned();
	TEST_DONE();
}

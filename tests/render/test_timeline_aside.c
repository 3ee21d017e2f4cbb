/* test_timeline_aside.c: the timeline's statistics aside: items only when stats are given, linked to the right lanes, and never drawn by the painter. */
#include "harness.h"
#include "stats/stats_rows.h"
#include "cairo_paint.h"
#include "layout/layout.h"
#include "stats/stats.h"

#include <cairo.h>
#include <stdint.h>

/* The lane drawn for (role, rank), or UINT32_MAX. */
static uint32_t lane_of(const rli_panel *panel, const char *role, int64_t rank)
{
	for (size_t r = 0; r < panel->row_count; r++)
		if (panel->rows[r].rank == rank && strcmp(panel->rows[r].role, role) == 0)
			return (uint32_t)r;
	return UINT32_MAX;
}

/* The aside table captioned so, or NULL. */
static const rli_table *aside_table(const rli_page *page, const char *caption)
{
	for (size_t i = 0; i < page->item_count; i++)
		if (page->items[i].placement == RLI_PLACE_ASIDE && page->items[i].kind == RLI_ITEM_TABLE &&
		    page->items[i].u.table->caption && strcmp(page->items[i].u.table->caption, caption) == 0)
			return page->items[i].u.table;
	return NULL;
}

/* The page painted at scale 1 into an image surface; its pixels compared by the caller. */
static cairo_surface_t *paint(const rli_document *doc)
{
	const rli_page *page = &doc->pages[0];
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)page->width, (int)page->height);
	cairo_t *cr = cairo_create(surface);
	rli_paint_options options = { 1.0, 1.0 };
	CHECK_INT(rli_cairo_paint_page(cr, doc, page, &options), 0);
	cairo_destroy(cr);
	cairo_surface_flush(surface);
	return surface;
}

int main(void)
{
	static const double base[8] = { 100, 101, 99, 100, 102, 150, 98, 100 };
	rli_events *ev = NULL;
	rli_stats *stats = NULL;
	rli_timeline *plain = NULL, *with = NULL;
	const rli_page *page;
	const rli_table *steps, *idle;
	const char *headings[4] = { NULL, NULL, NULL, NULL };
	size_t heading_count = 0;
	rli_timeline_options options;

	/* rollout: 8 ranks, 3 steps, rank 5 takes 150 ms where the rest take 98-102 (the straggler); actor: one step */
	CHECK_INT(rli_events_new(&ev), 0);
	for (int k = 0; k < 3; k++)
		for (int r = 0; r < 8; r++)
			add(ev, "rollout", "rollout", r, 1000.0 * k + r, base[r]);
	for (int r = 0; r < 8; r++)
		add(ev, "actor", "update", r, 3000.0, 50);
	/* long: one rank, 40 steps, more than the aside shows (30) */
	for (int k = 0; k < 40; k++)
		add(ev, "long", "tick", 0, 4000.0 + 10 * k, 5);
	CHECK_INT(rli_stats_compute(&stats, ev), 0);
	rli_timeline_options_init(&options);
	options.width = 1000;
	options.scale = 1;
	CHECK_INT(rli_timeline_layout_stats(&plain, ev, NULL, &options), 0);
	CHECK_INT(rli_timeline_layout_stats(&with, ev, stats, &options), 0);
	if (!plain || !with || !stats)
		return 1;

	/* without statistics: the title, the panel, the legend, nothing beside */
	page = &rli_timeline_document(plain)->pages[0];
	CHECK_INT(page->item_count, 3);
	for (size_t i = 0; i < page->item_count; i++)
		CHECK_INT(page->items[i].placement, RLI_PLACE_PAGE);

	/* with them: the same three first, then the aside: a heading per role (by name), then across roles */
	page = &rli_timeline_document(with)->pages[0];
	CHECK(page->item_count > 3);
	for (size_t i = 0; i < page->item_count; i++) {
		CHECK_INT(page->items[i].placement, i < 3 ? RLI_PLACE_PAGE : RLI_PLACE_ASIDE);
		if (i >= 3 && page->items[i].kind == RLI_ITEM_TEXT && heading_count < 4)
			headings[heading_count++] = page->items[i].u.text->text;
	}
	CHECK_INT(heading_count, 4);
	CHECK_STR(headings[0], "actor");
	CHECK_STR(headings[1], "long");
	CHECK_STR(headings[2], "rollout");
	CHECK_STR(headings[3], "Across roles");

	/* bounded: 30 of long's 40 steps, made for those rows alone, the title saying which (all equal here: the first 30) */
	steps = aside_table(page, "long: the 30 steps slowed most of 40, outliers first (step k is each rank's k-th bar)");
	CHECK(steps != NULL);
	if (steps) {
		CHECK_INT(steps->row_count, 30);
		CHECK_STR(steps->cells[0], "1");
		CHECK_STR(steps->cells[29 * steps->column_count], "30");
		CHECK(steps->note == NULL);
	}

	/* rollout's steps: every row names rank 5, an outlier, and links to the rollout row of rank 5 */
	steps = aside_table(page, "rollout: steps (step k is each rank's k-th bar)");
	CHECK(steps != NULL);
	if (steps) {
		CHECK_INT(steps->row_count, 3);
		CHECK_STR(steps->header[steps->link_column], "Slowest rank");
		CHECK(steps->row_lane != NULL && steps->row_emphasis != NULL);
		for (size_t r = 0; steps->row_lane && steps->row_emphasis && r < steps->row_count; r++) {
			CHECK_STR(steps->cells[r * steps->column_count + steps->link_column], "5");
			CHECK_INT(steps->row_lane[r], lane_of(&with->panel, "rollout", 5));
			CHECK_INT(steps->row_emphasis[r], 1);
		}
	}
	/* a table of ranks alone links to the rank's first row by role name: actor's */
	idle = aside_table(page, "Idle gaps per rank, the most idle first");
	CHECK(idle != NULL);
	if (idle && idle->row_lane && idle->row_count) {
		const char *rank = idle->cells[idle->link_column];
		CHECK_INT(idle->row_lane[0], lane_of(&with->panel, "actor", strtoll(rank, NULL, 10)));
	}
	CHECK(lane_of(&with->panel, "rollout", 5) != lane_of(&with->panel, "actor", 5));

	/* the painter (PNG, PDF) skips the aside: the same pixels with and without it */
	{
		cairo_surface_t *a = paint(rli_timeline_document(plain)), *b = paint(rli_timeline_document(with));
		int stride = cairo_image_surface_get_stride(a), height = cairo_image_surface_get_height(a);
		CHECK_INT(cairo_image_surface_get_height(b), height);
		CHECK(memcmp(cairo_image_surface_get_data(a), cairo_image_surface_get_data(b), (size_t)stride * height) == 0);
		cairo_surface_destroy(a);
		cairo_surface_destroy(b);
	}

	rli_timeline_free(plain);
	rli_timeline_free(with);
	rli_stats_free(stats);
	rli_events_free(ev);
	return rli_test_failures ? 1 : 0;
}

/* test_trend_figure.c: trend.png of hand-made nights against golden/trend.png (and an expert load's, golden/trend_experts.png), the marks where the verdicts are, and the page's parts on the page at every width. */
#include "harness.h"
#include "render/render_cases.h"
#include "trend_cases.h"
#include "layout/trend_figure.h"
#include "text/text.h"

#include <math.h>
#include <string.h>

/* The extent of a text as drawn: measured, then cut at max_width. */
static void text_span(double *x0, double *x1, const rli_text *t, PangoContext *context)
{
	double w, h;
	rli_text_measure(&w, &h, context, t->text, t->size, t->bold);
	if (t->max_width > 0 && w > t->max_width)
		w = t->max_width;
	*x0 = t->halign == RLI_ALIGN_START ? t->x : t->halign == RLI_ALIGN_MIDDLE ? t->x - w / 2 : t->x - w;
	*x1 = *x0 + w;
}

/* The verdicts the trend found: the first nights not judged, the last night's update_actor a regression. */
static void check_verdicts(const rli_trend *t)
{
	const rli_trend_point *last = &t->points[t->count - 1];
	size_t update = SIZE_MAX, optimizer = SIZE_MAX;
	CHECK_INT(t->count, TREND_CASE_RUNS);
	CHECK_INT(t->current, TREND_CASE_RUNS - 1);
	for (size_t k = 0; k < RLI_HISTORY_MIN_RUNS; k++)
		CHECK_INT(t->points[k].judged, 0);
	CHECK_INT(t->points[RLI_HISTORY_MIN_RUNS].judged, 1);
	for (size_t i = 0; i < last->side->phase_count; i++) {
		if (strcmp(last->side->phases[i].name, "update_actor") == 0)
			update = i;
		if (strcmp(last->side->phases[i].name, "optimizer_step") == 0)
			optimizer = i;
	}
	CHECK(update != SIZE_MAX && optimizer != SIZE_MAX);
	if (update != SIZE_MAX && optimizer != SIZE_MAX) {
		CHECK_INT(last->regressed[update], 1);
		CHECK_INT(last->regressed[optimizer], 0);
		CHECK(last->change[update] > 0.3);
	}
	/*
	 * A 2% creep a night is within the noise of a 1.2 s inter-quartile range at first, and beyond it
	 * once the nights before have fallen far enough behind: only update_actor is ever marked, and
	 * the creep is, before the jump.
	 */
	size_t creep = 0;
	for (size_t k = 0; k + 1 < t->count; k++)
		for (size_t i = 0; t->points[k].regressed && i < t->points[k].side->phase_count; i++)
			if (t->points[k].regressed[i]) {
				CHECK_STR(t->points[k].side->phases[i].name, "update_actor");
				creep++;
			}
	CHECK(creep > 0);
	CHECK_INT(t->points[RLI_HISTORY_MIN_RUNS].regressed[update], 0);
}

/* Every text and plot of the page within it, at this width. */
static void check_width(const rli_trend *t, int width, PangoContext *context)
{
	rli_timeline_options options;
	rli_trend_figure *figure = NULL;
	rli_timeline_options_init(&options);
	options.width = width;
	options.medium = RLI_MEDIUM_VECTOR;
	CHECK_INT(rli_trend_figure_layout(&figure, t, &options), RLI_OK);
	if (!figure)
		return;
	const rli_page *page = &rli_trend_figure_document(figure)->pages[0];
	CHECK_INT(page->width, width);
	CHECK_INT(figure->panel_count, 5); /* three roles, the memory, the strip */
	for (size_t i = 0; i < page->item_count; i++) {
		const rli_item *item = &page->items[i];
		double x0, x1;
		if (item->kind == RLI_ITEM_TEXT && item->u.text->text[0]) {
			text_span(&x0, &x1, item->u.text, context);
			if (x0 < -0.5 || x1 > width + 0.5)
				fprintf(stderr, "width %d: '%s' spans %.1f..%.1f\n", width, item->u.text->text, x0, x1);
			CHECK(x0 >= -0.5 && x1 <= width + 0.5);
			CHECK(item->u.text->y >= 0 && item->u.text->y <= page->height);
		} else if (item->kind == RLI_ITEM_PANEL) {
			const rli_rect *plot = &item->u.panel->plot;
			CHECK(plot->x > 0 && plot->w > 0 && plot->x + plot->w <= width);
			CHECK(plot->y > 0 && plot->y + plot->h <= page->height);
		}
	}
	/* The report takes the page a part at a time: the parts follow one another down the page. */
	CHECK(figure->section_count == figure->panel_count + 1);
	for (size_t s = 1; s < figure->section_count; s++)
		CHECK(figure->sections[s].top >= figure->sections[s - 1].bottom && figure->sections[s].bottom > figure->sections[s].top);
	/* The HTML page's parts: a hover text and a table row per run, the newest first. */
	CHECK_INT(figure->point_count, TREND_CASE_RUNS);
	CHECK(strstr(figure->hover[TREND_CASE_RUNS - 1], "update_actor") != NULL);
	CHECK(strstr(figure->hover[TREND_CASE_RUNS - 1], "regression") != NULL);
	CHECK_STR(figure->rows[0].cells[0], "this run");
	CHECK_INT(figure->rows[0].regressed, 1);
	CHECK_STR(figure->rows[1].cells[0], "#13");
	rli_trend_figure_free(figure);
}

/* Night k of an expert load alone: two roles of three MoE layers, the imbalance wandering night by night, the same every run. */
static rli_compare_side *experts_side(int k)
{
	static const char *const roles[] = { "actor_update", "ref_compute_log_prob" };
	rli_compare_side *s = rli_side_new("/data/nightly/moe", "gmm", RLI_SIDE_PROFILE);
	for (size_t r = 0; r < 2; r++)
		for (uint32_t layer = 0; layer < 3; layer++) {
			rli_side_gmm_layer *l = rli_side_add_gmm_layer(s);
			if (!l)
				exit(1);
			l->role = rli_side_text(s, roles[r], strlen(roles[r]));
			l->layer = layer;
			l->steps = 4;
			/* actor_update's layer 1 grows hotter every night, the rest wander about 1.5x */
			l->imbalance = r == 0 && layer == 1 ? 1.6 + 0.15 * k : 1.4 + 0.1 * (double)((k * 3 + (int)layer + 2 * (int)r) % 4);
			l->cv = NAN;
			l->hottest = layer + 2;
		}
	rli_side_finish(s);
	return s;
}

/*
 * The expert load over the runs, with no phase, memory or straggler: one panel, a line per role (its
 * layers' median), labelled with this run's value, its hover the most imbalanced layer; golden/trend_experts.png.
 */
static void check_experts(const char *golden_dir, const char *actual_dir, int updating)
{
	enum { RUNS = 6 };
	rli_history_series series = { 0 };
	rli_history_run current;
	rli_compare_side *current_side = experts_side(RUNS - 1);
	rli_trend_options options;
	rli_trend *trend = NULL;
	rli_trend_figure *figure = NULL;
	rli_timeline_options layout;
	char golden[4096], actual[4096];
	size_t labels = 0, points = 0;

	series.count = RUNS - 1;
	series.runs = calloc(series.count, sizeof(*series.runs));
	series.sides = calloc(series.count, sizeof(*series.sides));
	for (size_t k = 0; k < series.count; k++) {
		trend_case_run(&series.runs[k], (int)k, 0);
		series.sides[k] = experts_side((int)k);
	}
	trend_case_run(&current, RUNS - 1, 1);
	rli_trend_options_init(&options);
	CHECK_INT(rli_trend_build(&trend, &series, &current, current_side, "/var/lib/rl-insight/moe.db", &options), RLI_OK);
	rli_timeline_options_init(&layout);
	layout.width = 1400;
	layout.scale = 1;
	layout.medium = RLI_MEDIUM_RASTER;
	if (trend)
		CHECK_INT(rli_trend_figure_layout(&figure, trend, &layout), RLI_OK);
	if (figure) {
		const rli_page *page = &rli_trend_figure_document(figure)->pages[0];
		CHECK_INT(figure->panel_count, 1);
		for (size_t i = 0; i < page->item_count; i++) {
			const rli_text *t = page->items[i].kind == RLI_ITEM_TEXT ? page->items[i].u.text : NULL;
			if (!t)
				continue;
			CHECK(strstr(t->text, "no phase, memory peak") == NULL);
			/* this run's values: actor_update's layers 1.5, 2.35, 1.7 (median 1.7); the other's 1.6, 1.7, 1.4 (1.6) */
			labels += strcmp(t->text, "actor_update 1.70x") == 0 || strcmp(t->text, "ref_compute_log_prob 1.60x") == 0;
		}
		CHECK_INT(labels, 2);
		for (size_t i = 0; i < figure->panel_count; i++)
			points += figure->panels[i].point_count;
		/* a dot a role a run; this run's ringed (a disc and a white one under each of its two dots) */
		CHECK_INT(points, 2 * RUNS + 2 * 2);
		CHECK(strstr(figure->hover[RUNS - 1], "expert imbalance of actor_update: 2.35x at most (layer 1)") != NULL);
		snprintf(golden, sizeof(golden), "%s/trend_experts.png", golden_dir);
		snprintf(actual, sizeof(actual), "%s/trend_experts.png", actual_dir);
		CHECK_INT(case_render_document(rli_trend_figure_document(figure), "png", updating ? golden : actual), RLI_OK);
		if (!updating)
			CHECK(case_compare_png("trend_experts", golden, actual) == 0);
	}
	rli_trend_figure_free(figure);
	rli_trend_free(trend);
	rli_history_series_dispose(&series);
	rli_history_run_dispose(&current);
	rli_compare_side_free(current_side);
}

int main(int argc, char **argv)
{
	static const int widths[] = { 300, 700, 1240, 2000, 20000 };
	rli_history_series series = { 0 };
	rli_history_run current;
	rli_compare_side *current_side = NULL;
	rli_trend_options options;
	rli_trend *trend = NULL;
	rli_trend_figure *figure = NULL;
	rli_timeline_options layout;
	PangoContext *context = NULL;
	char golden[4096], actual[4096];
	int updating = 0;

	if (case_golden_args(argc, argv, &updating))
		return 2;
	trend_case_series(&series, &current, &current_side);
	rli_trend_options_init(&options);
	options.threshold = 0.05;
	CHECK_INT(rli_trend_build(&trend, &series, &current, current_side, "/var/lib/rl-insight/nightly.db", &options), RLI_OK);
	if (!trend)
		return 1;
	check_verdicts(trend);
	CHECK_INT(rli_text_context_new(&context), RLI_OK);
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		check_width(trend, widths[i], context);

	/* The golden image: the PNG as the command draws it, at a width that keeps the file small. */
	rli_timeline_options_init(&layout);
	layout.width = 1400;
	layout.scale = 1;
	layout.medium = RLI_MEDIUM_RASTER;
	CHECK_INT(rli_trend_figure_layout(&figure, trend, &layout), RLI_OK);
	snprintf(golden, sizeof(golden), "%s/trend.png", argv[1]);
	snprintf(actual, sizeof(actual), "%s/trend.png", argv[2]);
	if (figure) {
		CHECK_INT(case_render_document(rli_trend_figure_document(figure), "png", updating ? golden : actual), RLI_OK);
		if (!updating)
			CHECK(case_compare_png("trend", golden, actual) == 0);
		CHECK_INT(rli_trend_write_html(figure, NULL, argv[2], NULL), RLI_OK);
	}
	rli_trend_figure_free(figure);
	rli_trend_free(trend);
	rli_history_series_dispose(&series);
	rli_history_run_dispose(&current);
	rli_compare_side_free(current_side);
	g_object_unref(context);
	check_experts(argv[1], argv[2], updating);
	return rli_test_failures ? 1 : 0;
}

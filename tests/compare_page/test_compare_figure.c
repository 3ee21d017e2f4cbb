/* test_compare_figure.c: compare.png's layout at every documented width: everything on the page, the legend above the plot, the medians beside the pairs only where they fit. */
#include "harness.h"
#include "compare/compare.h"
#include "layout/compare_figure.h"
#include "text/text.h"

#include <math.h>
#include <string.h>

#define PAD 16.0 /* the theme's PAGE_PAD */

static rli_phase_change phase(const char *name, int per_rank, double before, double after, rli_verdict verdict)
{
	rli_phase_change p = { .role = "actor_update", .name = name, .per_rank = per_rank, .presence = RLI_IN_BOTH,
			       .noise = verdict == RLI_VERDICT_SAME ? RLI_NOISE_WITHIN : RLI_NOISE_BEYOND, .verdict = verdict };
	p.baseline = (rli_side_sample){ .count = 5, .median_ms = before, .q1_ms = 0.95 * before, .q3_ms = 1.05 * before };
	p.current = (rli_side_sample){ .count = 5, .median_ms = after, .q1_ms = 0.95 * after, .q3_ms = 1.05 * after };
	p.change_ms = after - before;
	p.ratio = after / before - 1;
	return p;
}

/* The extent of a text as it will be drawn: measured, then cut at max_width. */
static void text_span(double *x0, double *x1, const rli_text *t, PangoContext *context)
{
	double w, h;
	rli_text_measure(&w, &h, context, t->text, t->size, t->bold);
	if (t->max_width > 0 && w > t->max_width)
		w = t->max_width;
	*x0 = t->halign == RLI_ALIGN_START ? t->x : t->halign == RLI_ALIGN_MIDDLE ? t->x - w / 2 : t->x - w;
	*x1 = *x0 + w;
}

int main(void)
{
	static const int widths[] = { 300, 400, 700, 1400, 2000, 20000 };
	rli_compare_side *baseline = rli_side_new("runs/last_night", "mstx", RLI_SIDE_PROFILE);
	rli_compare_side *current = rli_side_new("runs/tonight", "mstx", RLI_SIDE_PROFILE);
	rli_phase_change phases[3], rank_phases[1];
	rli_comparison comparison = { .baseline = baseline, .current = current, .timeline = 1, .regressions = 1 };
	PangoContext *context = NULL;

	CHECK(baseline && current);
	CHECK_INT(rli_text_context_new(&context), RLI_OK);
	phases[0] = phase("actor_compute_log_prob_with_a_long_phase_name", 0, 6710, 6710, RLI_VERDICT_SAME);
	phases[1] = phase("update_actor", 0, 12400, 13100, RLI_VERDICT_SAME);
	phases[2] = phase("generate_sequences", 0, 31500, 31400, RLI_VERDICT_SAME);
	rank_phases[0] = phase("update_actor", 1, 12500, 14900, RLI_VERDICT_REGRESSION);
	rank_phases[0].rank = 3;
	comparison.phases = phases;
	comparison.phase_count = 3;
	comparison.rank_phases = rank_phases;
	comparison.rank_phase_count = 1;

	for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		rli_timeline_options options;
		rli_compare_figure *figure = NULL;
		const rli_page *page;
		const rli_panel *panel = NULL;
		const rli_legend *legend = NULL;
		size_t values = 0, changes = 0;

		rli_timeline_options_init(&options);
		options.width = widths[k];
		options.medium = RLI_MEDIUM_VECTOR;
		CHECK_INT(rli_compare_figure_layout(&figure, &comparison, &options), RLI_OK);
		page = &rli_compare_figure_document(figure)->pages[0];
		CHECK(fabs(page->width - widths[k]) < 1e-9);
		for (size_t i = 0; i < page->item_count; i++) {
			const rli_item *item = &page->items[i];
			double x0, x1;
			if (item->kind == RLI_ITEM_PANEL)
				panel = item->u.panel;
			if (item->kind == RLI_ITEM_LEGEND)
				legend = item->u.legend;
			if (item->kind != RLI_ITEM_TEXT || !item->u.text->text[0])
				continue;
			/* Every text stays on the page. */
			text_span(&x0, &x1, item->u.text, context);
			CHECK(x0 >= PAD - 1e-6 && x1 <= page->width - PAD + 1e-6);
			values += strstr(item->u.text->text, "\xe2\x86\x92") != NULL;
			changes += strchr(item->u.text->text, '%') != NULL && strlen(item->u.text->text) < 10;
		}
		CHECK(panel && legend);
		/* One change per pair always; the medians written out only where the plot keeps 40% of the page. */
		CHECK_INT(changes, 4);
		CHECK(values == 0 || values == 4);
		CHECK(widths[k] >= 1400 ? values == 4 : widths[k] <= 400 ? values == 0 : 1);
		CHECK(panel->plot.w > 0 && panel->plot.x + panel->plot.w <= page->width - PAD);
		/* The legend, however many rows it takes, is above the plot. */
		for (size_t s = 0; s < legend->series_count; s++)
			CHECK(legend->swatches[s].y + legend->swatches[s].h < panel->plot.y);
		/* The axis title is on the page too. */
		{
			double x0, x1;
			text_span(&x0, &x1, &panel->x_title, context);
			CHECK(x0 >= PAD - 1e-6 && x1 <= page->width - PAD + 1e-6);
		}
		for (size_t r = 0; r < panel->row_count; r++) {
			double x0, x1;
			if (!panel->row_labels[r].text[0])
				continue;
			text_span(&x0, &x1, &panel->row_labels[r], context);
			CHECK(x0 >= PAD - 1e-6 && x1 <= panel->plot.x);
		}
		rli_compare_figure_free(figure);
	}
	g_object_unref(context);
	rli_compare_side_free(baseline);
	rli_compare_side_free(current);
	TEST_DONE();
}

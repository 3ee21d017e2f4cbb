/* report_timeline.c: the timeline across the report's pages: the same time axis on every page, legend repeated, "continued" marks. */
#include "report_timeline.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "layout/theme.h"
#include "layout/timeline_overview.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROW_PITCH 12.0        /* points a row: a 7 pt label and its bar */
#define LABEL_SIZE 7.0
#define TICK_SIZE 7.0
#define AXIS_SIZE 8.0
#define LABEL_SHARE 0.25      /* of the content width, the most row labels may take */
#define SWATCH 7.0
#define MAX_REPORT_TICKS 32

/* The legend as a line (or lines) of swatches and names across the content width; returns its height. */
static int add_legend(rli_book *book, const rli_panel *panel, double *height)
{
	rli_legend *legend = rli_book_alloc(book, 1, sizeof(*legend));
	rli_rect *swatches = rli_book_alloc(book, panel->series_count, sizeof(*swatches));
	rli_text *labels = rli_book_alloc(book, panel->series_count, sizeof(*labels));
	double x = book->left, y = book->y, line = LABEL_SIZE * 1.8;

	if (!legend || !swatches || !labels)
		return rli_error_oom();
	for (size_t s = 0; s < panel->series_count; s++) {
		double w, h, entry;
		rli_text_measure(&w, &h, book->text, panel->series[s].name, LABEL_SIZE, 0);
		w = fmin(w, 0.3 * (book->right - book->left));
		entry = SWATCH + 4 + w + 14;
		if (x > book->left && x + entry > book->right) {
			x = book->left;
			y += line;
		}
		swatches[s] = (rli_rect){ x, y + (line - SWATCH) / 2 - 2, SWATCH, SWATCH };
		labels[s] = (rli_text){ .text = panel->series[s].name, .x = x + SWATCH + 4, .y = y + line / 2 - 2,
					.size = LABEL_SIZE, .color = BOOK_TEXT_COLOR, .halign = RLI_ALIGN_START,
					.valign = RLI_ALIGN_MIDDLE, .max_width = w + 1 };
		x += entry;
	}
	*legend = (rli_legend){ .series_count = panel->series_count, .series = panel->series,
				.swatches = swatches, .labels = labels };
	*height = y + line - book->y;
	return rli_book_add(book, RLI_ITEM_LEGEND, legend);
}

typedef struct {
	rli_tick *ticks;
	size_t tick_count;
	double label_width;
	const char *x_title;
	int legend;
} axis_plan;

/* One page's share of the rows, [first, first + count), as a panel pointing into the figure's. */
static int add_rows(rli_book *book, const rli_panel *all, const axis_plan *plan, size_t first, size_t count,
		    int more_after)
{
	rli_panel *panel = rli_book_alloc(book, 1, sizeof(*panel));
	rli_text *labels = rli_book_alloc(book, count, sizeof(*labels));
	double plot_x = book->left + plan->label_width + 8, tick_h = TICK_SIZE * 1.3;
	int error;

	if (!panel || !labels)
		return rli_error_oom();
	*panel = *all;
	panel->plot = (rli_rect){ plot_x, book->y, book->right - 10 - plot_x, (double)count * ROW_PITCH };
	panel->rows = all->rows + first;
	panel->row_count = count;
	panel->order_by_role = NULL;
	panel->row_first_bar = all->row_first_bar + first;
	panel->row_pitch = ROW_PITCH;
	panel->bar_thickness = ROW_PITCH * 0.62;
	panel->bar_outline_width = 0.4;
	panel->bar_outline_min_size = 1.2;
	panel->xticks = plan->ticks;
	panel->xtick_count = plan->tick_count;
	panel->grid_width = 0.5;
	panel->tick_label_size = TICK_SIZE;
	panel->tick_label_gap = 3;
	panel->row_labels = labels;
	panel->y_title = (rli_text){ 0 };
	panel->details = NULL;
	for (size_t r = 0; r < count; r++)
		labels[r] = (rli_text){ .text = all->rows[first + r].label, .x = plot_x - 5,
					.y = book->y + ((double)r + 0.5) * ROW_PITCH, .size = LABEL_SIZE,
					.color = BOOK_TEXT_COLOR, .halign = RLI_ALIGN_END, .valign = RLI_ALIGN_MIDDLE,
					.max_width = plan->label_width };
	panel->x_title = (rli_text){ .text = (char *)plan->x_title, .x = plot_x + panel->plot.w / 2,
				     .y = book->y + panel->plot.h + 3 + tick_h + 3, .size = AXIS_SIZE,
				     .color = BOOK_TEXT_COLOR, .halign = RLI_ALIGN_MIDDLE, .valign = RLI_ALIGN_START,
				     .max_width = panel->plot.w };
	if ((error = rli_book_add(book, RLI_ITEM_PANEL, panel)) < 0)
		return error;
	book->y += panel->plot.h + 3 + tick_h + 3 + AXIS_SIZE * 1.5;
	if (more_after) {
		rli_text *t;
		char *text = rli_book_printf(book, "Rows %zu to %zu of %zu; continued on the next page", first + 1,
					     first + count, all->row_count);
		if (!text || (error = rli_book_text(book, &t, text, book->right, book->y, BOOK_SMALL_SIZE, 0,
						    RLI_ALIGN_END, RLI_ALIGN_START)) < 0)
			return text ? error : rli_error_oom();
		t->color = BOOK_MUTED_COLOR;
	}
	return RLI_OK;
}

static void dispose_overview(void *holder)
{
	rli_timeline_overview_free(*(rli_timeline_overview **)holder);
}

/* The overview on a page of its own, in the paper style's sizes (print sizes, as the report's). */
static int add_overview(rli_book *book, const rli_timeline *timeline, const rli_stats *stats)
{
	rli_timeline_overview **holder = calloc(1, sizeof(*holder));
	const rli_item *items;
	size_t count;
	int error;

	if (!holder)
		return rli_error_oom();
	if ((error = rli_book_keep_disposable(book, holder, dispose_overview)) < 0 ||
	    (error = rli_book_bookmark(book, "Overview", 1)) < 0 ||
	    (error = rli_timeline_overview_place(holder, &items, &count, stats, timeline->document.origin,
						 (rli_rect){ book->left, book->y, book->right - book->left,
							     book->bottom - book->y },
						 rli_timeline_theme(RLI_STYLE_PAPER_WIDE))) < 0)
		return error;
	for (size_t i = 0; i < count; i++)
		if ((error = rli_book_add_item(book, &items[i])) < 0)
			return error;
	if ((error = rli_book_new_page(book)) < 0)
		return error;
	return rli_book_bookmark(book, "Every rank", 1);
}

int rli_report_timeline(rli_book *book, const rli_timeline *timeline, const rli_stats *stats)
{
	const rli_panel *all = &timeline->panel;
	rli_time_unit unit = rli_time_unit_for(all->x_max - all->x_min);
	axis_plan plan = { 0 };
	char origin[48];
	size_t done = 0;
	int error;

	if (!(plan.ticks = rli_book_alloc(book, MAX_REPORT_TICKS, sizeof(rli_tick))))
		return rli_error_oom();
	for (size_t r = 0; r < all->row_count; r++) {
		double w, h;
		rli_text_measure(&w, &h, book->text, all->rows[r].label, LABEL_SIZE, 0);
		plan.label_width = fmax(plan.label_width, w);
	}
	plan.label_width = fmin(plan.label_width, LABEL_SHARE * (book->right - book->left));
	plan.tick_count = rli_time_ticks(plan.ticks, MAX_REPORT_TICKS, all->x_min, all->x_max,
					 (int)fmax(2.0, round((book->right - book->left - plan.label_width - 18) / 72.0)),
					 unit.ms);
	if (rli_is_epoch_ms(timeline->document.origin))
		plan.x_title = rli_book_printf(book, "Time (%s), t = 0 at %s", unit.name,
					       rli_fmt_utc(origin, sizeof(origin), timeline->document.origin));
	else
		plan.x_title = rli_book_printf(book, "Time (%s), t = 0 at %s ms on the profiler's clock", unit.name,
					       rli_fmt_thousands(origin, sizeof(origin), timeline->document.origin, 3));
	if (!plan.x_title)
		return rli_error_oom();
	plan.legend = !rli_timeline_legend_repeats_rows(timeline);
	/* More rows than a page holds: the overview first, as the figure shows it past its readable rows. */
	if (stats && (double)all->row_count * ROW_PITCH > book->bottom - book->top - 60 &&
	    (error = add_overview(book, timeline, stats)) < 0)
		return error;

	while (done < all->row_count) {
		double legend_h = 0, room;
		size_t fit;
		/* Every page but the section's first starts fresh, with its legend at the top. */
		if (done && (error = rli_book_new_page(book)) < 0)
			return error;
		if (plan.legend) {
			if ((error = add_legend(book, all, &legend_h)) < 0)
				return error;
			book->y += legend_h + 4;
		}
		room = book->bottom - book->y - (TICK_SIZE * 1.3 + AXIS_SIZE * 1.5 + 6 + BOOK_SMALL_SIZE * 1.5);
		fit = (size_t)fmax(1.0, floor(room / ROW_PITCH));
		if (fit > all->row_count - done)
			fit = all->row_count - done;
		if ((error = add_rows(book, all, &plan, done, fit, done + fit < all->row_count)) < 0)
			return error;
		done += fit;
	}
	return RLI_OK;
}

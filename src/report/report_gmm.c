/* report_gmm.c: the report's MoE expert-load section: what the heatmap shows, the figure itself, and its statistics as tables. */
#include "report_gmm.h"
#include "report_table.h"
#include "common/error.h"
#include "layout/gmm_figure.h"

#include <math.h>
#include <stdlib.h>

#define MIN_FIGURE_ROOM 220.0

static const char rules[] =
	"Experts across, a row per dump (step, role, rank and op) top to bottom, labelled with its merged layer: the "
	"ops of one MoE layer repeat one load vector. actor_update's backward stages are left out. A layer below is a "
	"merged layer of a step and role, its loads summed over the ranks; its imbalance is the hottest expert's load "
	"over the mean, CV the standard deviation over the mean.";

static void dispose_figure(void *holder)
{
	rli_gmm_figure_free(*(rli_gmm_figure **)holder);
}

static int figure(rli_book *book, const rli_gmm_matrix *matrix)
{
	/* The book frees the holder and, through dispose_figure, the figure in it. */
	rli_gmm_figure **holder = calloc(1, sizeof(*holder));
	rli_gmm_figure_options options;
	const rli_page *page;
	int error;
	if (!holder)
		return rli_error_oom();
	if ((error = rli_book_keep_disposable(book, holder, dispose_figure)) < 0)
		return error;
	rli_gmm_figure_options_init(&options);
	options.medium = RLI_MEDIUM_VECTOR;
	if ((error = rli_gmm_figure_layout(holder, matrix, &options)) < 0)
		return error;
	page = &rli_gmm_figure_document(*holder)->pages[0];
	return rli_book_figure(book, page, 0.0, page->height, MIN_FIGURE_ROOM);
}

static int by_imbalance(const void *pa, const void *pb)
{
	const rli_gmm_layer_stats *a = *(const rli_gmm_layer_stats *const *)pa, *b = *(const rli_gmm_layer_stats *const *)pb;
	double x = isnan(a->imbalance) ? -1 : a->imbalance, y = isnan(b->imbalance) ? -1 : b->imbalance;
	return (x < y) - (x > y);
}

static int layer_table(rli_book *book, const rli_gmm_stats *s)
{
	static const char *const header[] = { "Step", "Role", "Layer", "Ranks", "Imbalance", "CV", "Hottest", "Coldest" };
	static const rli_align align[] = { RLI_ALIGN_END, RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END };
	size_t rows = s->layer_count < RLI_REPORT_GMM_LAYERS ? s->layer_count : RLI_REPORT_GMM_LAYERS;
	const rli_gmm_layer_stats **order = rli_book_alloc(book, s->layer_count ? s->layer_count : 1, sizeof(*order));
	rli_text_table t;
	int error;
	if (!order)
		return rli_error_oom();
	for (size_t i = 0; i < s->layer_count; i++)
		order[i] = &s->layers[i];
	qsort(order, s->layer_count, sizeof(*order), by_imbalance);
	if ((error = rli_text_table_new(book, &t, "The most imbalanced layers (summed over the ranks)", 8, rows, header,
					align, NULL)) < 0)
		return error;
	for (size_t r = 0; r < rows && error == RLI_OK; r++) {
		const rli_gmm_layer_stats *l = order[r];
		if ((error = rli_text_table_set(book, &t, r, 0, "%lld", (long long)l->step)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", l->role)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%u", l->layer)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%zu", l->ranks)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 4, "%.2fx", l->imbalance)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 5, "%.2f", l->cv)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 6, "expert %u", l->hottest)) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 7, "expert %u", l->coldest);
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

static int hot_table(rli_book *book, const rli_gmm_stats *s)
{
	static const char *const header[] = { "Role", "Layer", "Expert", "Hottest in", "Load / mean" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END };
	size_t rows = s->hot_count < RLI_REPORT_GMM_LAYERS ? s->hot_count : RLI_REPORT_GMM_LAYERS;
	rli_text_table t;
	int error = rli_text_table_new(book, &t, "Experts that stay hot across the steps", 5, rows, header, align, NULL);
	for (size_t r = 0; r < rows && error == RLI_OK; r++) {
		const rli_gmm_hot_expert *h = &s->hot[r];
		if ((error = rli_text_table_set(book, &t, r, 0, "%s", h->role)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%u", h->layer)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%u", h->expert)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%zu of %zu steps", h->hot_steps, h->steps)) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 4, "%.2fx", h->ratio);
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

int rli_report_gmm(rli_book *book, const rli_gmm_matrix *matrix, const rli_gmm_stats *stats)
{
	char *finding = rli_book_printf(book, "%s.", stats->finding);
	int error;
	if (!finding)
		return rli_error_oom();
	if ((error = rli_book_heading(book, "MoE expert load", 0)) < 0 ||
	    (error = rli_book_paragraph(book, finding, BOOK_BODY_SIZE + 1, 1, BOOK_TEXT_COLOR)) < 0 ||
	    (error = rli_book_paragraph(book, rules, BOOK_BODY_SIZE, 0, BOOK_MUTED_COLOR)) < 0)
		return error;
	book->y += BOOK_BODY_SIZE;
	if ((error = figure(book, matrix)) < 0)
		return error;
	book->y += BOOK_BODY_SIZE;
	if ((error = layer_table(book, stats)) < 0)
		return error;
	book->y += BOOK_BODY_SIZE;
	return hot_table(book, stats);
}

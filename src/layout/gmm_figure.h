/* gmm_figure.h: gmm_heatmap.png and .pdf: experts across, merged layers down, load as colour, the step · role · rank strip, separators and the colour bar (gmm.md §5). */
#ifndef RLI_LAYOUT_GMM_FIGURE_H
#define RLI_LAYOUT_GMM_FIGURE_H

#include "colormap.h"
#include "layout.h"
#include "stats/gmm_matrix.h"

typedef struct rli_gmm_figure rli_gmm_figure;

typedef struct {
	double dpi;             /* the PNG's resolution (heatmap.visualizer.dpi), default 200; the PDF is in points */
	rli_colormap cmap;      /* the cells' and the colour bar's map, default viridis; the strip is always viridis */
	rli_medium medium;
	/*
	 * 1: past the rows the page shows readably (each at least two device pixels at the dpi), the
	 * ranks of each step and role are merged into one row a layer, their loads summed (the
	 * command line's default; --all-rows draws every snapshot).
	 */
	int overview;
	const char *caption;    /* NULL, or a line under the figure (the finding, --caption) */
} rli_gmm_figure_options;

void rli_gmm_figure_options_init(rli_gmm_figure_options *options);

/* Lays the heatmap out from the matrix (which must outlive the figure). */
int rli_gmm_figure_layout(rli_gmm_figure **out, const rli_gmm_matrix *matrix, const rli_gmm_figure_options *options);
/* 1 when the figure merged the ranks (the overview). */
int rli_gmm_figure_merged(const rli_gmm_figure *figure);
const rli_document *rli_gmm_figure_document(const rli_gmm_figure *figure);
void rli_gmm_figure_free(rli_gmm_figure *figure);

#endif

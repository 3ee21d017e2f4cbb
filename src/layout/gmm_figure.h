/* gmm_figure.h: gmm_heatmap.png and .pdf: experts across, merged layers down, load as colour, the step · role · rank strip, separators and the colour bar (gmm.md §5). */
#ifndef RLI_LAYOUT_GMM_FIGURE_H
#define RLI_LAYOUT_GMM_FIGURE_H

#include "colormap.h"
#include "common/output_set.h"
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
/* What the page draws with (gmm_heatmap.html): the load range the colours span, the map's 256 colours, a row's strip colour. */
void rli_gmm_figure_range(const rli_gmm_figure *figure, double *lo, double *hi);
const rli_color *rli_gmm_figure_colors(const rli_gmm_figure *figure); /* 256, lowest load first */
rli_color rli_gmm_figure_strip_color(const rli_gmm_figure *figure, size_t row);
const char *rli_gmm_figure_title(const rli_gmm_figure *figure);

/* 1 when the figure merged the ranks (the overview). */
int rli_gmm_figure_merged(const rli_gmm_figure *figure);
const rli_document *rli_gmm_figure_document(const rli_gmm_figure *figure);

/*
 * gmm_heatmap.html into out_dir (into set when given), written by render/html_gmm.c: the layout's
 * title, colour map (256 colours over the load range it chose) and strip colours, and per row of
 * the matrix its step, role, rank, layer, loads and their sum and mean; render/js/gmm.js draws it.
 * home: the run's home page to link to (a file stem), or NULL.
 */
int rli_gmm_page_write_html(const rli_gmm_figure *figure, const rli_gmm_matrix *matrix, const char *home,
			    const char *out_dir, rli_output_set *set);
void rli_gmm_figure_free(rli_gmm_figure *figure);

#endif

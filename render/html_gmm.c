/* html_gmm.c: writes gmm_heatmap.html: the heatmap's spec (title, colour map, rows, loads) as JSON, and the page's script. */
#include "html_bytes.h"
#include "html_page.h"
#include "layout/gmm_figure.h"
#include "common/error.h"
#include "common/json_write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char rli_asset_gmm_js[];
extern const char rli_asset_gmm_css[];

static const char *const page_scripts[] = { rli_asset_gmm_js };
static const char *const page_styles[] = { rli_asset_gmm_css };

static void write_string(FILE *fp, const char *text)
{
	rli_json_write_string(fp, text ? text : "", RLI_JSON_HTML_SAFE);
}

/* Per row its keys; per row's loads their sum and mean over the experts with a load (hover reads them). */
static void write_rows(FILE *fp, const rli_gmm_figure *f, const rli_gmm_matrix *m)
{
	fputs(",\"rows\":[", fp);
	for (size_t j = 0; j < m->rows; j++) {
		const rli_gmm_segment *s = &m->segments[m->row_segment[j]];
		const double *row = m->cells + j * m->experts;
		double total = 0.0;
		size_t n = 0;
		for (size_t e = 0; e < m->experts; e++)
			if (isfinite(row[e])) {
				total += row[e];
				n++;
			}
		fprintf(fp, "%s{\"step\":%lld,\"role\":", j ? "," : "", (long long)s->step);
		write_string(fp, s->role);
		fprintf(fp, ",\"rank\":%lld,\"layer\":%u,\"segment\":%zu,\"strip\":", (long long)s->rank, m->layer[j],
			m->row_segment[j]);
		rli_html_color(fp, rli_gmm_figure_strip_color(f, j));
		fputs(",\"total\":", fp);
		rli_json_write_double(fp, total);
		fputs(",\"mean\":", fp);
		rli_json_write_double(fp, n ? total / (double)n : NAN);
		putc('}', fp);
	}
	/* The loads row by row, one flat list (null: no load). */
	fputs("],\"loads\":[", fp);
	for (size_t i = 0; i < m->rows * m->experts; i++) {
		if (i)
			putc(',', fp);
		rli_json_write_double(fp, m->cells[i]);
	}
	putc(']', fp);
}

static void write_spec(FILE *fp, const rli_gmm_figure *f, const rli_gmm_matrix *m)
{
	const rli_color *colors = rli_gmm_figure_colors(f);
	double lo, hi;
	rli_gmm_figure_range(f, &lo, &hi);
	fputs("<script type=\"application/json\" id=\"rli-gmm-spec\">{\"title\":", fp);
	write_string(fp, rli_gmm_figure_title(f));
	fprintf(fp, ",\"experts\":%zu,\"merged\":%s", m->experts, m->summed ? "true" : "false");
	fputs(",\"lo\":", fp);
	rli_json_write_double(fp, lo);
	fputs(",\"hi\":", fp);
	rli_json_write_double(fp, hi);
	fputs(",\"colors\":[", fp);
	for (int i = 0; i < 256; i++) {
		if (i)
			putc(',', fp);
		rli_html_color(fp, colors[i]);
	}
	putc(']', fp);
	write_rows(fp, f, m);
	fputs("}</script>\n", fp);
}

/* What the page is written from (rli_html_page_writer's ctx). */
typedef struct {
	const rli_gmm_figure *figure;
	const rli_gmm_matrix *matrix;
	const char *home;
} gmm_page;

static int write_page(FILE *fp, const void *ctx)
{
	const gmm_page *page = ctx;
	rli_html_page_head(fp, rli_gmm_figure_title(page->figure), page_styles, 1);
	rli_html_page_home_link(fp, page->home);
	fputs("<noscript>This heatmap is drawn by JavaScript; enable it to see it.</noscript>\n", fp);
	write_spec(fp, page->figure, page->matrix);
	rli_html_page_end(fp, page_scripts, sizeof(page_scripts) / sizeof(page_scripts[0]));
	return RLI_OK;
}

int rli_gmm_page_write_html(const rli_gmm_figure *figure, const rli_gmm_matrix *matrix, const char *home,
			    const char *out_dir, rli_output_set *set)
{
	gmm_page page = { figure, matrix, home };
	int error = rli_html_check_assets(page_scripts, 1, rli_asset_gmm_css);
	return error < 0 ? error : rli_html_page_write(out_dir, "gmm_heatmap.html", set, write_page, &page);
}

/* test_gmm_figure.c: the GMM heatmap against golden/gmm_*.png pixel by pixel (RLI_UPDATE_GOLDEN=1 rewrites them), its PDF, and the overview past the readable rows. */
#include "harness.h"
#include "render_cases.h"
#include "gmm/gmm_table.h"
#include "layout/gmm_figure.h"

/*
 * steps x roles x ranks x ops dumps of `experts` experts: loads drawn from a fixed sequence, and
 * expert 3 of the last op's layer hot (five times the others), so the figure shows a column.
 */
static rli_gmm *make_table(int steps, int ranks, int ops, size_t experts)
{
	static const char *const roles[] = { "actor_compute_log_prob", "actor_update" };
	uint64_t state = 0x9e3779b97f4a7c15ull;
	rli_gmm *g = NULL;
	CHECK_INT(rli_gmm_new(&g), RLI_OK);
	for (int s = 1; s <= steps; s++)
		for (int r = 0; r < 2; r++)
			for (int rank = 0; rank < ranks; rank++)
				for (int op = 0; op < ops; op++) {
					rli_gmm_key key = { rli_gmm_intern(g, roles[r], strlen(roles[r])), rank, s, op };
					double *loads;
					CHECK_INT(rli_gmm_add_snapshot(g, &key, experts, &loads), RLI_OK);
					for (size_t e = 0; e < experts; e++)
						loads[e] = (double)(50 + rli_test_random(&state) % 100) *
							   (op == ops - 1 && e == 3 ? 5 : 1);
				}
	CHECK_INT(rli_gmm_finish(g), RLI_OK);
	return g;
}

/* Lays out, renders, compares with golden/<name>.png (or rewrites it). */
static void check_golden(const char *name, rli_gmm *g, double dpi, rli_colormap cmap, int merged, const char *golden_dir,
			 const char *actual_dir, int updating)
{
	rli_gmm_matrix *m = NULL;
	rli_gmm_figure *f = NULL;
	rli_gmm_figure_options options;
	char golden[4096], actual[4096];

	CHECK_INT(rli_gmm_matrix_build(&m, g, 3, NULL, NULL), RLI_OK);
	rli_gmm_figure_options_init(&options);
	options.dpi = dpi;
	options.cmap = cmap;
	CHECK_INT(rli_gmm_figure_layout(&f, m, &options), RLI_OK);
	CHECK_INT(rli_gmm_figure_merged(f), merged);
	snprintf(golden, sizeof(golden), "%s/%s.png", golden_dir, name);
	snprintf(actual, sizeof(actual), "%s/%s.png", actual_dir, name);
	if (updating) {
		CHECK_INT(case_render_document(rli_gmm_figure_document(f), "png", golden), RLI_OK);
		fprintf(stderr, "%s: rewrote %s\n", name, golden);
	} else {
		CHECK_INT(case_render_document(rli_gmm_figure_document(f), "png", actual), RLI_OK);
		CHECK_INT(case_compare_png(name, golden, actual), 0);
	}
	/* The PDF of the same layout: one page, written whole. */
	snprintf(actual, sizeof(actual), "%s/%s.pdf", actual_dir, name);
	CHECK_INT(case_render_document(rli_gmm_figure_document(f), "pdf", actual), RLI_OK);
	rli_gmm_figure_free(f);
	rli_gmm_matrix_free(m);
}

int main(int argc, char **argv)
{
	int updating, usage = case_golden_args(argc, argv, &updating);
	rli_gmm *few, *many;
	rli_gmm_matrix *m = NULL;
	rli_gmm_figure *f = NULL;
	rli_gmm_figure_options options;

	if (usage)
		return usage;
	/* 2 steps x 2 roles x 3 ranks x 3 ops, 32 experts: every snapshot a row, the strip's texts. */
	few = make_table(2, 3, 3, 32);
	check_golden("gmm_few", few, 100, RLI_CMAP_VIRIDIS, 0, argv[1], argv[2], updating);
	/* 4 x 2 x 64 x 4 = 2,048 snapshots of 128 experts at 50 dpi: the ranks merged, in magma. */
	many = make_table(4, 64, 4, 128);
	check_golden("gmm_overview", many, 50, RLI_CMAP_MAGMA, 1, argv[1], argv[2], updating);
	/* --all-rows: every snapshot a row, however close. */
	CHECK_INT(rli_gmm_matrix_build(&m, many, 3, NULL, NULL), RLI_OK);
	rli_gmm_figure_options_init(&options);
	options.dpi = 50;
	options.overview = 0;
	CHECK_INT(rli_gmm_figure_layout(&f, m, &options), RLI_OK);
	CHECK_INT(rli_gmm_figure_merged(f), 0);
	options.dpi = 0;
	rli_gmm_figure_free(f);
	CHECK_INT(rli_gmm_figure_layout(&f, m, &options), RLI_EUSAGE);
	rli_gmm_matrix_free(m);
	rli_gmm_free(few);
	rli_gmm_free(many);
	TEST_DONE();
}

/* test_gmm_stats.c: the expert load's matrix (the forward-only filter, merged layers, segments) and statistics, on tables worked out by hand. */
#include "harness.h"
#include "gmm/gmm_table.h"
#include "stats/gmm_stats.h"

/* A snapshot of (step, role, rank, stage) with these loads, expert 0 first. */
static void add(rli_gmm *g, const char *role, int64_t step, int64_t rank, int64_t stage, const double *loads, size_t n)
{
	rli_gmm_key key = { rli_gmm_intern(g, role, strlen(role)), rank, step, stage };
	double *column;
	CHECK_INT(rli_gmm_add_snapshot(g, &key, n, &column), RLI_OK);
	memcpy(column, loads, n * sizeof(*column));
}

/* gmm.md §5.1 and §5.6: A,A,A,B,B,B,B,B,B,A,A,A keeps 6 at gmm_per_layer 3; other roles untouched. */
static void test_filter_and_layers(void)
{
	static const double A[4] = { 10, 10, 10, 10 }, B[4] = { 40, 0, 0, 0 }, C[4] = { 5, 6, 7, 8 };
	const double *au[12] = { A, A, A, B, B, B, B, B, B, A, A, A };
	rli_gmm *g = NULL;
	rli_gmm_matrix *m = NULL;
	CHECK_INT(rli_gmm_new(&g), RLI_OK);
	for (int s = 0; s < 12; s++)
		add(g, "actor_update", 1, 0, s, au[s], 4);
	/* ref: A,A,A,B,B,B,A,A,A: layers 0,0,0,1,1,1,0,0,0 (a repeat goes back to its layer) */
	for (int s = 0; s < 9; s++)
		add(g, "ref", 1, 0, s, s / 3 == 1 ? B : A, 4);
	add(g, "ref", 1, 1, 0, C, 3); /* 3 experts: the fourth cell of its row is empty */
	CHECK_INT(rli_gmm_finish(g), RLI_OK);
	CHECK_INT(rli_gmm_matrix_build(&m, g, 3, NULL, NULL), RLI_OK);
	CHECK_INT(m->rows, 6 + 9 + 1);
	CHECK_INT(m->experts, 4);
	CHECK_INT(m->dropped, 6);
	CHECK_INT(m->segment_count, 3);
	CHECK_INT(m->ranks, 2);
	CHECK_INT(m->segments[0].layers, 2);
	CHECK_INT(m->layer[2], 0);
	CHECK_INT(m->layer[3], 1);
	CHECK_INT(m->layer[6 + 6], 0);
	CHECK(isnan(m->cells[15 * 4 + 3]));
	CHECK_NEAR(m->min, 0, 0);
	CHECK_NEAR(m->max, 40, 0);
	rli_gmm_matrix_free(m);
	/* gmm_per_layer 1 cuts at the first repeat; 0 keeps nothing of actor_update. */
	CHECK_INT(rli_gmm_matrix_build(&m, g, 1, NULL, NULL), RLI_OK);
	CHECK_INT(m->rows, 1 + 9 + 1);
	rli_gmm_matrix_free(m);
	CHECK_INT(rli_gmm_matrix_build(&m, g, 0, NULL, NULL), RLI_OK);
	CHECK_INT(m->rows, 10);
	rli_gmm_matrix_free(m);
	rli_gmm_free(g);
}

/*
 * Two steps, two ranks of one role, two layers each. Layer 1's expert 3 takes 6 of 9 tokens on
 * rank 0 and 6 of 9 on rank 1 in both steps: summed, 12 of 18 over 4 experts, mean 4.5, so
 * 12 / 4.5 = 2.67x; the coefficient of variation sqrt(((2-4.5)^2 * 3 + (12-4.5)^2) / 4) / 4.5.
 */
static void test_statistics(void)
{
	static const double even[4] = { 5, 5, 5, 5 }, hot[4] = { 1, 1, 1, 6 };
	rli_gmm *g = NULL;
	rli_gmm_matrix *m = NULL;
	rli_gmm_stats *s = NULL;
	CHECK_INT(rli_gmm_new(&g), RLI_OK);
	for (int step = 1; step <= 2; step++)
		for (int rank = 0; rank < 2; rank++) {
			add(g, "actor_update", step, rank, 0, even, 4);
			add(g, "actor_update", step, rank, 1, hot, 4);
		}
	CHECK_INT(rli_gmm_finish(g), RLI_OK);
	CHECK_INT(rli_gmm_matrix_build(&m, g, 3, NULL, NULL), RLI_OK);
	CHECK_INT(rli_gmm_stats_compute(&s, m), RLI_OK);
	CHECK_INT(s->layer_count, 4);
	CHECK_INT(s->steps, 2);
	CHECK_INT(s->roles, 1);
	CHECK_INT(s->ranks, 2);
	CHECK_INT(s->layers[0].ranks, 2);
	CHECK_NEAR(s->layers[0].imbalance, 1.0, 1e-12);
	CHECK_NEAR(s->layers[0].cv, 0.0, 1e-12);
	CHECK_NEAR(s->layers[1].total, 18, 0);
	CHECK_NEAR(s->layers[1].imbalance, 12 / 4.5, 1e-12);
	CHECK_NEAR(s->layers[1].cv, sqrt((2.5 * 2.5 * 3 + 7.5 * 7.5) / 4) / 4.5, 1e-12);
	CHECK_INT(s->layers[1].hottest, 3);
	CHECK_INT(s->layers[1].coldest, 0);
	CHECK_INT(s->hot_count, 2);
	CHECK_INT(s->hot[0].layer, 1);
	CHECK_INT(s->hot[0].expert, 3);
	CHECK_INT(s->hot[0].hot_steps, 2);
	CHECK_STR(s->finding, "layer 1 of actor_update: expert 3 took 2.7x the mean load in 2 of 2 steps");
	rli_gmm_stats_free(s);
	rli_gmm_matrix_free(m);
	rli_gmm_free(g);
}

int main(void)
{
	test_filter_and_layers();
	test_statistics();
	TEST_DONE();
}

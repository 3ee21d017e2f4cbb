/* gmm_stats.h: the MoE expert load's statistics: each layer's imbalance, spread, hottest and coldest experts, the experts that stay hot across steps, and the finding in words. */
#ifndef RLI_STATS_GMM_STATS_H
#define RLI_STATS_GMM_STATS_H

#include "gmm_matrix.h"

/* One merged layer of one role in one step: its rows' loads summed over the ranks, per expert. */
typedef struct {
	int64_t step;
	const char *role;
	uint32_t layer;
	size_t ranks;             /* the rows summed */
	double total, mean;       /* over the experts with a load */
	double max, min;
	double imbalance;         /* max / mean: 1 is perfectly balanced; NAN when the mean is 0 */
	double cv;                /* the coefficient of variation: standard deviation / mean (population) */
	uint32_t hottest, coldest;
} rli_gmm_layer_stats;

/* One layer of a role across the steps: the expert hottest most often there. */
typedef struct {
	const char *role;
	uint32_t layer;
	uint32_t expert;
	size_t hot_steps, steps;  /* the steps it was the hottest in, of those the layer has */
	double ratio;             /* its load over the layer's mean, averaged over those steps */
} rli_gmm_hot_expert;

typedef struct {
	size_t experts, rows, ranks, steps, roles;
	double min_load, max_load;
	rli_gmm_layer_stats *layers;   /* by step, role (the table's order), layer */
	size_t layer_count;
	size_t worst;                  /* the layer of the highest imbalance */
	rli_gmm_hot_expert *hot;       /* by hot_steps, then ratio, descending; then role, layer */
	size_t hot_count;
	/* "layer 7 of actor_update: expert 3 took 4.1x the mean load in 5 of 6 steps" */
	char finding[256];
} rli_gmm_stats;

int rli_gmm_stats_compute(rli_gmm_stats **out, const rli_gmm_matrix *matrix);
void rli_gmm_stats_free(rli_gmm_stats *stats);

#endif

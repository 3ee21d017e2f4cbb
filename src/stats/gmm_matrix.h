/* gmm_matrix.h: the expert-load table as the heatmap's matrix: actor_update's backward stages dropped, a row per snapshot, its merged layer, the step · role · rank segments (gmm.md §5.1-5.2). */
#ifndef RLI_STATS_GMM_MATRIX_H
#define RLI_STATS_GMM_MATRIX_H

#include "rl_insight.h"

#include <stddef.h>
#include <stdint.h>

/* The reference's default: a MoE layer runs its grouped matmul this many times a forward pass. */
#define RLI_GMM_PER_LAYER_DEFAULT 3

/* Rows [first, first + count) of one (step, role, rank). */
typedef struct {
	size_t first, count;
	int64_t step, rank;
	const char *role;          /* the table's string: lives as long as the table */
	uint32_t layers;           /* its distinct merged layers: layer indices 0 .. layers - 1 */
} rli_gmm_segment;

/*
 * Row j is snapshot j of what the filter kept, in table order (step, role, rank, stage), drawn
 * top-down. cells[j * experts + e] is the load of expert e in row j (NaN: no value; where two
 * files share a snapshot, the larger load, as the reference's matrix keeps).
 */
typedef struct {
	size_t rows, experts;
	double *cells;
	uint32_t *layer;           /* rows: the merged layer index inside its segment */
	int64_t *stage;            /* rows: the op index it came from */
	size_t *row_segment;       /* rows: its segment */
	rli_gmm_segment *segments;
	size_t segment_count;
	size_t ranks;              /* distinct rank ids kept */
	double min, max;           /* finite loads; min > max when none is finite */
	size_t dropped;            /* actor_update snapshots the forward-only filter dropped */
	/* A matrix of ranks merged (rli_gmm_matrix_merge_ranks): per row the ranks summed; NULL: one each. */
	size_t *summed;
} rli_gmm_matrix;

/*
 * Builds the matrix. per_layer: gmm_per_layer of gmm.md §5.1 (a stage whose vector repeats the
 * one before more than per_layer times starts actor_update's backward pass: it and the later
 * stages of its (step, rank) are dropped; <= 0 keeps nothing of actor_update). log (may be
 * NULL) hears one line per actor_update group the filter cut. RLI_EINVALID with a message when
 * nothing is left to draw.
 */
int rli_gmm_matrix_build(rli_gmm_matrix **out, const rli_gmm *gmm, int per_layer, rli_log_fn log, void *log_ctx);
/*
 * The matrix with the ranks of each step and role merged: a segment per (step, role) (rank -1),
 * a row per merged layer holding each expert's load summed over the ranks (a layer's rows within
 * one rank are one vector: counted once). What the statistics read, and the figure's overview.
 */
int rli_gmm_matrix_merge_ranks(rli_gmm_matrix **out, const rli_gmm_matrix *matrix);
void rli_gmm_matrix_free(rli_gmm_matrix *matrix);

#endif

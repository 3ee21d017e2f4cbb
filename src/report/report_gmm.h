/* report_gmm.h: the report's MoE expert-load section: the finding, the heatmap, the layers by imbalance and the experts that stay hot. */
#ifndef RLI_REPORT_GMM_H
#define RLI_REPORT_GMM_H

#include "report_book.h"
#include "stats/gmm_stats.h"

/* The layers listed at most, the most imbalanced first. */
#define RLI_REPORT_GMM_LAYERS 20

/* A section "MoE expert load"; the heatmap is laid out here and kept by the book; matrix must outlive it. */
int rli_report_gmm(rli_book *book, const rli_gmm_matrix *matrix, const rli_gmm_stats *stats);

#endif

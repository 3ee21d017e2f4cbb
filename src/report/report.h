/* report.h: the run report (rl_insight_report.pdf): a cover with the findings, statistics tables, the timeline and the memory, as one paginated document. */
#ifndef RLI_REPORT_H
#define RLI_REPORT_H

#include "compare/compare.h"
#include "layout/layout.h"
#include "stats/gmm_stats.h"
#include "stats/memory_stats.h"
#include "stats/stats.h"

typedef enum { RLI_PAPER_A4 = 0, RLI_PAPER_LETTER, RLI_PAPER_A3 } rli_paper;

typedef struct {
	rli_paper paper;          /* default A4 */
	int portrait;             /* 0: landscape (default) */
	const char *date;         /* "YYYY-MM-DDTHH:MM:SSZ" for the file's metadata; NULL: fixed */
	const char *input_path;   /* what was analysed, as the user named it */
	const char *profiler;     /* "mstx", "torch", "nvtx" */
} rli_report_options;

void rli_report_options_init(rli_report_options *options);

/* "a4", "letter", "a3" (any case); RLI_EUSAGE for another name. */
int rli_paper_from_name(rli_paper *out, const char *name);

/* What the report is made from; any part may be NULL when the run has none of it. */
typedef struct {
	const rli_stats *stats;            /* the timeline's statistics (their events too) */
	const rli_timeline *timeline;      /* the timeline laid out for a vector medium, every row */
	const rli_memory *memory;          /* the memory table and its statistics */
	const rli_memory_stats *memory_stats;
	const rli_comparison *comparison;  /* with --baseline: its pages come first, after the cover */
	const rli_gmm_matrix *gmm_matrix;  /* the MoE expert load's heatmap matrix and its statistics */
	const rli_gmm_stats *gmm_stats;
	const struct rli_trend_figure *trend; /* with --history: the run history's trend, after the comparison */
} rli_report_input;

typedef struct rli_report rli_report;

/*
 * Lays the report out. RLI_EINVALID when there is nothing to report (no
 * timeline and no memory). The report points into its inputs: they must
 * outlive it.
 */
int rli_report_layout(rli_report **out, const rli_report_input *input, const rli_report_options *options);
const rli_document *rli_report_document(const rli_report *report);
void rli_report_free(rli_report *report);

#endif

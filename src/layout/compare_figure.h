/* compare_figure.h: compare.png: per phase, the baseline's and the current run's medians with their spread, regressions and improvements coloured apart. */
#ifndef RLI_LAYOUT_COMPARE_FIGURE_H
#define RLI_LAYOUT_COMPARE_FIGURE_H

#include "compare/compare.h"
#include "layout.h"

typedef struct rli_compare_figure rli_compare_figure;

/* At most this many phases are drawn: regressions first, then improvements, then the largest changes. */
#define RLI_COMPARE_FIGURE_MAX_PHASES 30

/* The baseline's and an unchanged phase's colours; the verdicts' are the theme's (REGRESSION_COLOR, IMPROVEMENT_COLOR), as on compare.html. */
#define RLI_COMPARE_BASELINE_COLOR 0xb0b7c3
#define RLI_COMPARE_SAME_COLOR 0x4e79a7

/*
 * One page: a title saying the verdict, a lane pair per phase (the baseline's inter-quartile
 * range over the current's, each with its median, on an axis of percent of the baseline's
 * median), each pair's medians and change written beside it, and what one run has alone. The
 * phases are those over all ranks and the ranks whose phase changed beyond the noise. Options
 * as the timeline's: width, scale, medium. RLI_EINVALID when the comparison has no timeline.
 */
int rli_compare_figure_layout(rli_compare_figure **out, const rli_comparison *comparison,
			      const rli_timeline_options *options);
const rli_document *rli_compare_figure_document(const rli_compare_figure *figure);
void rli_compare_figure_free(rli_compare_figure *figure);

/* "role / phase", the phase alone when it is named after its role, and " on rank r" per rank: into out. */
char *rli_compare_phase_label(char *out, size_t size, const rli_phase_change *change);

#endif

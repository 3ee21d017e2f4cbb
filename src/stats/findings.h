/* findings.h: the headline findings of a run as sentences: the straggler of each role, the worst wait, the idlest rank. */
#ifndef RLI_STATS_FINDINGS_H
#define RLI_STATS_FINDINGS_H

#include "stats.h"
#include "memory_stats.h"
#include "common/error.h"

#include <stddef.h>

/* Sentences, each allocated; free with rli_findings_free. */
typedef struct {
	char **lines;
	size_t count, capacity;
	/*
	 * The line a one-line caption should quote: a straggler, else an outlier
	 * step, else the longest wait, else the idlest rank, else the first line.
	 */
	size_t headline;
	int headline_rank; /* internal: how strong the headline is (4 straggler .. 1 idle) */
} rli_findings;

/*
 * What a reader should learn first from the timeline's statistics, in this
 * order, every number from stats:
 *  - per role (by name), its straggler: "actor_update: rank 13 was the slowest
 *    in 5 of 6 steps, 18% over the median" (the mean slowdown of those steps);
 *    without one, its worst outlier step, or that no rank stood out;
 *  - the role transition with the longest median wait;
 *  - the rank idle longest between its bars, with its longest gap.
 */
int rli_findings_timeline(rli_findings *out, const rli_stats *stats);

/*
 * The memory's headline: the device with the highest peak, when and how
 * much, and the call site holding the largest share of it: "peak memory
 * 61.2 GB on actor_update rank 0 at 12.4 s, 38% of it from
 * fsdp2.py(112): train_batch"; then how many blocks were never freed, when any.
 */
int rli_findings_memory(rli_findings *out, const rli_memory_stats *stats);

/* Appends one sentence (printf-style); RLI_ERROR when out of memory. */
int rli_findings_add(rli_findings *findings, const char *format, ...) RLI_PRINTF(2, 3);
void rli_findings_free(rli_findings *findings);

#endif

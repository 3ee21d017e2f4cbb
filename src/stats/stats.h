/* stats.h: the run's statistics, computed once from the parsed table; every report, page and file reads them. */
#ifndef RLI_STATS_H
#define RLI_STATS_H

#include "events/events.h"

#include <stddef.h>
#include <stdint.h>

/*
 * A sample of durations (ms) as msprof-analyze's mstx_sum and Nsight's nvtx_sum report it.
 * Quartiles interpolate linearly between order statistics (numpy's default); the standard
 * deviation is the sample one (n - 1), 0 for one value. Among equal values the rank named at the
 * min and at the max is the lowest.
 */
typedef struct {
	size_t count;
	double total, mean, median, min, max, stddev, q1, q3;
	double p95;        /* the 95th percentile, interpolated as the quartiles are */
	double dispersion; /* (max - min) / mean; 0 when the mean is 0 */
	int64_t min_rank, max_rank;
} rli_distribution;

/* One phase (bar name) of one role, across its ranks and steps. */
typedef struct {
	uint32_t role, name; /* ids in the table's string pool */
	rli_distribution duration;
} rli_phase_stats;

/* One phase of one rank: its bars across the steps. */
typedef struct {
	uint32_t role, name;
	int64_t rank;
	rli_distribution duration;
} rli_rank_phase_stats;

/*
 * Step k of a role: the k-th bar (1-based) of each of its ranks in time order. The slowest rank
 * is an outlier when its modified z-score (Iglewicz and Hoaglin: 0.6745 (x - median) / MAD) is
 * above 3.5; when the MAD is 0 the mean absolute deviation stands in (x - median) / (1.253314
 * MeanAD); with fewer than 3 ranks, or no spread at all, no outlier can be named.
 */
typedef struct {
	uint32_t role;
	size_t step;
	size_t ranks;        /* ranks that have a k-th bar */
	double median_ms;
	int64_t slowest_rank; /* the longest bar; among equals the lowest rank */
	double slowest_ms;
	double slowdown;     /* slowest / median - 1; 0 when the median is 0 */
	double modified_z;   /* of the slowest; NAN when it cannot be computed */
	int outlier;
} rli_step_stats;

/*
 * A rank that was the slowest of its role in at least one step. It is named the role's
 * straggler when it was the slowest, and an outlier, in more than half of the role's steps.
 */
typedef struct {
	uint32_t role;
	int64_t rank;
	size_t slowest;  /* steps in which it was the slowest */
	size_t outlier;  /* ... and an outlier */
	size_t steps;    /* the role's steps */
	int straggler;
} rli_rank_slowest;

/* An idle gap of one rank between two of its bars (any role); before/after name the phases. */
typedef struct {
	double start_ms, duration_ms;
	uint32_t before, after;
} rli_gap;

#define RLI_STATS_LONGEST_GAPS 3

/* The idle time of one rank: gaps between its consecutive bars, overlapping bars merged first. */
typedef struct {
	int64_t rank;
	size_t gaps;
	double idle_ms;
	size_t longest_count;
	rli_gap longest[RLI_STATS_LONGEST_GAPS]; /* longest first; among equals the earliest */
} rli_rank_bubbles;

/*
 * The wait of a rank between roles: from the end of the bar it was busy with (the one that
 * reached furthest, of from_role) to the start of its next bar of to_role.
 */
typedef struct {
	uint32_t from_role, to_role;
	rli_distribution wait; /* over ranks and steps; a bar that starts before that end waits 0 */
} rli_transition_stats;

/* How long two roles ran at the same time (the union of each role's bars, over ranks, intersected). */
typedef struct {
	uint32_t role_a, role_b; /* a's name sorts before b's */
	double overlap_ms;
} rli_role_overlap;

/* From t_ms on (until the next point), this many ranks are inside a bar of the role. */
typedef struct {
	double t_ms;
	uint32_t ranks;
} rli_occupancy_point;

typedef struct {
	uint32_t role;
	size_t first, count;  /* its points in rli_stats.occupancy_points */
	uint32_t peak_ranks;
	double peak_ms;       /* when the peak is first reached */
} rli_role_occupancy;

/* Every list is sorted: roles and phases by name, ranks by number, steps in order. */
typedef struct rli_stats {
	const rli_events *events;     /* the table the string ids refer to; not owned */
	double start_ms, end_ms;      /* the span of the bars counted */
	size_t rows_counted;
	size_t rows_left_out;         /* bars that end before they start (not drawn either) */
	size_t role_count, rank_count, max_steps;
	/*
	 * The run's step time: step k of the run spans from the earliest start to the latest end of
	 * the k-th bars of every (role, rank); this is the median of those spans (0 without bars).
	 */
	double step_ms;
	/* The ranks of role index i (by name) are role_rank_ids[role_rank_first[i] .. role_rank_first[i + 1]), ascending. */
	size_t *role_rank_first;
	int64_t *role_rank_ids;
	/* Per role index: the median over its steps of each step's median across ranks (0 without steps). */
	double *role_step_ms;

	rli_phase_stats *phases;
	size_t phase_count;
	rli_rank_phase_stats *rank_phases; /* by (role, name, rank) */
	size_t rank_phase_count;
	rli_step_stats *steps;
	size_t step_count;
	rli_rank_slowest *slowest;
	size_t slowest_count;
	rli_rank_bubbles *bubbles;
	size_t bubble_count;
	rli_transition_stats *transitions;
	size_t transition_count;
	rli_role_overlap *overlaps;
	size_t overlap_count;
	rli_role_occupancy *occupancy;
	size_t occupancy_count;
	rli_occupancy_point *occupancy_points;
	size_t occupancy_point_count;
} rli_stats;

/* Computes every statistic of the table's rows. RLI_OK, or RLI_ERROR when out of memory. */
int rli_stats_compute(rli_stats **out, const rli_events *events);
void rli_stats_free(rli_stats *stats);

/*
 * Occupancy[index] on a grid: the run's span cut into n equal buckets, each the most ranks inside
 * the role at any time in it. Returns n (0 when the span is empty); for the summary and bands.
 */
size_t rli_stats_occupancy_buckets(uint32_t *max_ranks, size_t n, const rli_stats *stats, size_t index);

/*
 * The run's roles by name: index 0 .. role_count - 1, each a string id of the table. Every
 * per-role list (the phases' roles, occupancy) follows this order; occupancy holds one entry a role.
 */
static inline uint32_t rli_stats_role(const rli_stats *stats, size_t index)
{
	return stats->occupancy[index].role;
}

/* The role's straggler, or NULL when it has none. */
const rli_rank_slowest *rli_stats_straggler(const rli_stats *stats, uint32_t role);

#endif

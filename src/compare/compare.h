/* compare.h: two runs set side by side: what changed per phase, role, transition and memory device, what is beyond the noise, what regressed. */
#ifndef RLI_COMPARE_COMPARE_H
#define RLI_COMPARE_COMPARE_H

#include "side.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The rules, every one:
 * - Alignment by name: a phase is (role, bar name), a role its name, a transition (from, to), a
 *   memory device (role, rank, device type); what one side lacks is added (current only) or
 *   removed (baseline only). Times are each run's own: durations, and moments relative to its
 *   own start.
 * - Each phase is compared over all its ranks, and rank by rank (a rank slower than the others
 *   barely moves the phase's median).
 * - A phase's change is the difference of the medians, current - baseline; its ratio
 *   current / baseline - 1 (NAN when the baseline median is 0).
 * - Noise: a change is beyond the noise when both sides have at least
 *   RLI_COMPARE_MIN_SAMPLES samples and |change| is larger than each side's inter-quartile
 *   range (q3 - q1); with fewer samples it is "too few samples", else "within noise".
 * - A regression: slower beyond the noise, by more than the threshold (a ratio: 0.05 = 5%);
 *   with no threshold every slowdown beyond the noise is one. An improvement likewise faster.
 * - Steps: step k of a role (its k-th bar on each rank) against step k; a summary past 1,000
 *   steps of a role lists only its outlier steps, so the others are one-sided there.
 * - Stragglers: a role's straggler (stats.h) on each side; it changed when one side has one
 *   and the other none or another rank.
 * - Memory call sites: per device in both, each site (call_stack_top) of either side with its
 *   allocated and live-at-peak bytes on each, by the larger of |allocated change| and |live
 *   change|, then by text. A summary lists only a device's top sites: a site missing there is
 *   unknown, not zero, and is left out.
 */

#define RLI_COMPARE_MIN_SAMPLES 3

typedef enum {
	RLI_IN_BOTH = 0,
	RLI_ADDED,    /* in the current run only */
	RLI_REMOVED   /* in the baseline only */
} rli_presence;

typedef enum {
	RLI_NOISE_BEYOND = 0,
	RLI_NOISE_WITHIN,
	RLI_NOISE_FEW   /* fewer than RLI_COMPARE_MIN_SAMPLES samples on a side */
} rli_noise;

typedef enum {
	RLI_VERDICT_SAME = 0, /* within noise, or too few samples, or below the threshold */
	RLI_VERDICT_REGRESSION,
	RLI_VERDICT_IMPROVEMENT,
	RLI_VERDICT_ONE_SIDE  /* added or removed */
} rli_verdict;

typedef struct {
	const char *role, *name;
	int per_rank;                      /* 1: one rank's bars (rank), 0: every rank's */
	int64_t rank;
	rli_presence presence;
	rli_side_sample baseline, current; /* zero on the side that lacks it */
	double change_ms, ratio;
	rli_noise noise;
	rli_verdict verdict;
} rli_phase_change;

typedef struct {
	const char *role;
	rli_presence presence;
	double baseline_step_ms, current_step_ms;   /* NAN when unknown */
	double baseline_share, current_share;       /* of the run's step time; NAN when unknown */
	int baseline_has_straggler, current_has_straggler;
	int64_t baseline_straggler, current_straggler;
	int straggler_changed;
	size_t baseline_ranks, current_ranks;
	size_t ranks_added, ranks_removed;          /* ranks on one side only */
	const int64_t *added, *removed;             /* ranks_added / ranks_removed of them, ascending */
} rli_role_change;

/* Step k of a role in both runs: its median across ranks and its slowest rank. */
typedef struct {
	const char *role;
	size_t step;
	rli_presence presence;
	double baseline_median_ms, current_median_ms;
	int64_t baseline_slowest, current_slowest;
	double change_ms;           /* of the medians */
	int slowest_changed;        /* another rank was the slowest */
} rli_step_change;

typedef struct {
	const char *from, *to;
	rli_presence presence;
	rli_side_sample baseline, current;          /* the waits */
	double change_ms;                           /* of the total wait */
} rli_transition_change;

typedef struct {
	const char *text;
	double baseline_allocated_kb, current_allocated_kb;
	double baseline_live_kb, current_live_kb;
	size_t baseline_count, current_count;
} rli_site_change;

typedef struct {
	const char *role;
	int64_t rank;
	const char *device_type;
	rli_presence presence;
	double baseline_peak_mb, current_peak_mb;
	double baseline_peak_ms, current_peak_ms;   /* from each side's first allocation */
	double baseline_never_freed_kb, current_never_freed_kb;
	double baseline_allocated_kb, current_allocated_kb;
	size_t first_site, site_count;              /* in sites[], the largest change first */
	int sites_complete;                         /* 0: a side gave only its top sites */
} rli_device_change;

/* A merged MoE layer of a role in both runs: its expert imbalance (hottest / mean, averaged over the steps). */
typedef struct {
	const char *role;
	uint32_t layer;
	rli_presence presence;
	double baseline_imbalance, current_imbalance; /* NAN on the side that lacks it */
	double change;                                /* current - baseline */
	uint32_t baseline_hottest, current_hottest;
} rli_gmm_change;

typedef struct {
	double threshold;         /* the regression threshold (ratio); 0: any slowdown beyond the noise */
} rli_compare_options;

void rli_compare_options_init(rli_compare_options *options);

typedef struct rli_comparison {
	const rli_compare_side *baseline, *current; /* not owned: keep them while this lives */
	rli_compare_options options;
	int timeline, memory, gmm;    /* 1: both sides have one */
	double baseline_step_ms, current_step_ms;
	rli_phase_change *phases;     /* by (role, name) */
	size_t phase_count;
	rli_phase_change *rank_phases; /* by (role, name, rank): which rank changed */
	size_t rank_phase_count;
	size_t regressions, improvements; /* over both lists */
	rli_step_change *steps;       /* by (role, step) */
	size_t step_count;
	rli_role_change *roles;       /* by role */
	size_t role_count;
	int64_t *rank_lists;          /* what the roles' added/removed point into */
	size_t rank_list_count;
	rli_transition_change *transitions;
	size_t transition_count;
	rli_device_change *devices;   /* by (role, rank, device type) */
	size_t device_count;
	rli_site_change *sites;
	size_t site_count;
	rli_gmm_change *gmm_layers;   /* by (role, layer) */
	size_t gmm_layer_count;
	size_t gmm_most_changed;      /* the layer in both of the largest |change|; gmm_layer_count: none */
} rli_comparison;

/* The expert-load part of a comparison (compare_gmm.c), when both sides have one. */
int rli_compare_gmm(rli_comparison *comparison);

/* Compares current with baseline. RLI_OK, or RLI_ERROR when out of memory. */
int rli_compare(rli_comparison **out, const rli_compare_side *baseline, const rli_compare_side *current,
		const rli_compare_options *options);
void rli_comparison_free(rli_comparison *comparison);

const char *rli_presence_name(rli_presence presence);  /* "both", "added", "removed" */
const char *rli_noise_name(rli_noise noise);           /* "beyond noise", "within noise", "too few samples" */
const char *rli_verdict_name(rli_verdict verdict);     /* "same", "regression", "improvement", "one side" */

#endif

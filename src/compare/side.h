/* side.h: one run of a comparison, as the comparison reads it: phase samples, roles, role transitions and memory devices, from a parsed run or from its summary.json. */
#ifndef RLI_COMPARE_SIDE_H
#define RLI_COMPARE_SIDE_H

#include "common/strpool.h"
#include "stats/gmm_stats.h"
#include "stats/memory_stats.h"
#include "stats/stats.h"

#include <stddef.h>
#include <stdint.h>

/* Where a side's numbers came from: the bars themselves, or only their statistics. */
typedef enum {
	RLI_SIDE_PROFILE = 0, /* a profile tree, or tables written by --export: the bars are at hand */
	RLI_SIDE_SUMMARY      /* a summary.json: statistics only */
} rli_side_source;

/* A distribution as the comparison uses it; p95 NAN when the summary predates it. */
typedef struct {
	size_t count;
	double total_ms, mean_ms, median_ms, q1_ms, q3_ms, p95_ms;
} rli_side_sample;

typedef struct {
	const char *role, *name;
	rli_side_sample sample;
} rli_side_phase;

/* One phase on one rank, across the steps. */
typedef struct {
	const char *role, *name;
	int64_t rank;
	rli_side_sample sample;
} rli_side_rank_phase;

/* Step k of a role: the k-th bar of each of its ranks (stats.h). */
typedef struct {
	const char *role;
	size_t step, ranks;
	double median_ms, slowest_ms;
	int64_t slowest_rank;
} rli_side_step;

typedef struct {
	const char *role;
	size_t steps;
	double step_ms;            /* the median of its steps' medians; NAN when unknown */
	int has_straggler;
	int64_t straggler_rank;
	size_t first_rank, rank_count; /* its ranks: rank_ids[first_rank ..], ascending */
} rli_side_role;

typedef struct {
	const char *from, *to;
	rli_side_sample wait;
} rli_side_transition;

/* A call site (call_stack_top, "" unknown) of a device. */
typedef struct {
	const char *text;
	size_t count;
	double allocated_kb, live_kb;
} rli_side_site;

typedef struct {
	const char *role;
	int64_t rank;
	const char *device_type;
	size_t allocations, never_freed;
	double allocated_kb, peak_mb, peak_ms, never_freed_kb;
	size_t first_site, site_count; /* its sites in sites[], by text */
	int sites_complete;            /* 0: a summary lists only its top sites */
} rli_side_device;

/* A merged MoE layer of a role across the steps (the expert load): its imbalance and spread, averaged. */
typedef struct {
	const char *role;
	uint32_t layer;
	size_t steps;
	double imbalance, cv;      /* the means over its steps */
	uint32_t hottest;          /* the expert hottest in the most steps */
} rli_side_gmm_layer;

/* Every list sorted: phases by (role, name), roles by name, transitions by (from, to), devices by (role, rank, type). */
typedef struct rli_compare_side {
	const char *path;          /* as given */
	const char *profiler;      /* the format read, as summary.json names it */
	const char *input;         /* what the run read (summary.json's input.path; path for a parsed run); "" unknown */
	const char *tool_version;  /* the rl-insight that made it (summary.json's tool.version); "" unknown */
	rli_side_source source;
	int has_timeline, has_memory;
	double start_ms, end_ms;   /* the span of the bars: each side's own origin is its start_ms */
	double step_ms;            /* NAN when unknown */
	size_t max_steps;
	rli_side_phase *phases;
	size_t phase_count;
	rli_side_rank_phase *rank_phases; /* by (role, name, rank) */
	size_t rank_phase_count;
	rli_side_step *steps;             /* by (role, step); a summary lists only the outliers of a role past 1,000 steps */
	size_t step_count;
	rli_side_role *roles;
	size_t role_count;
	int64_t *rank_ids;
	size_t rank_id_count;
	rli_side_transition *transitions;
	size_t transition_count;
	rli_side_device *devices;
	size_t device_count;
	rli_side_site *sites;
	size_t site_count;
	int has_gmm;
	rli_side_gmm_layer *gmm_layers; /* by (role, layer) */
	size_t gmm_layer_count;
	rli_strpool strings;       /* every text above */
	size_t capacity[9];        /* room in each growing list (side.c) */
} rli_compare_side;

/*
 * A side from a parsed run's statistics (either may be NULL, not both). path and profiler
 * name it. The side copies what it keeps: the statistics may be freed after.
 */
int rli_compare_side_from_stats(rli_compare_side **out, const rli_stats *stats, const rli_memory_stats *memory,
				const char *path, const char *profiler);

/*
 * A side from a summary.json rl-insight wrote (schema 2 to 5). RLI_EINVALID with a message
 * naming the file, and the line when known, when it is not one: every value the comparison takes
 * is type-checked, and a wrong one is named by its key path (phases[3].total_ms).
 */
int rli_compare_side_read_summary(rli_compare_side **out, const char *path);
/* The same from bytes in memory, named name in messages (the fuzzers' way in). */
int rli_compare_side_read_summary_memory(rli_compare_side **out, const char *name, const void *data, size_t size);

void rli_compare_side_free(rli_compare_side *side);

/* The side's ranks of a role (NULL when it has none). */
static inline const int64_t *rli_side_role_ranks(const rli_compare_side *side, const rli_side_role *role)
{
	return role->rank_count ? side->rank_ids + role->first_rank : NULL;
}

/*
 * A parsed run's side built analysis by analysis (each adds its part, src/cli/analysis.h):
 * rli_side_new(path, profiler, RLI_SIDE_PROFILE), the parts, then rli_side_finish.
 */
int rli_compare_side_add_timeline(rli_compare_side *side, const rli_stats *stats);
int rli_compare_side_add_memory(rli_compare_side *side, const rli_memory_stats *memory);
/* The expert load's layers (side_gmm.c); a summary.json's side has none. */
int rli_compare_side_add_gmm(rli_compare_side *side, const rli_gmm_stats *gmm);

/* ---- building a side (side.c; the summary reader uses them too) ---- */
rli_compare_side *rli_side_new(const char *path, const char *profiler, rli_side_source source);
/* The pool's copy of text, or NULL when out of memory. */
const char *rli_side_text(rli_compare_side *side, const char *text, size_t length);
rli_side_phase *rli_side_add_phase(rli_compare_side *side);
rli_side_rank_phase *rli_side_add_rank_phase(rli_compare_side *side);
rli_side_step *rli_side_add_step(rli_compare_side *side);
rli_side_role *rli_side_add_role(rli_compare_side *side);
int rli_side_add_rank(rli_compare_side *side, int64_t rank);
rli_side_transition *rli_side_add_transition(rli_compare_side *side);
rli_side_device *rli_side_add_device(rli_compare_side *side);
rli_side_site *rli_side_add_site(rli_compare_side *side);
/* A MoE layer, zeroed (the side then has an expert load); added in (role, layer) order. */
rli_side_gmm_layer *rli_side_add_gmm_layer(rli_compare_side *side);
/* Sorts every list into the order the comparison walks (a summary's sites come in two lists). */
int rli_side_finish(rli_compare_side *side);

#endif

/* summary.h: summary.json, the run's statistics in a versioned schema (doc/summary.schema.json) for dashboards and CI. */
#ifndef RLI_EXPORT_SUMMARY_H
#define RLI_EXPORT_SUMMARY_H

#include "compare/compare.h"
#include "stats/gmm_stats.h"
#include "stats/memory_stats.h"
#include "stats/stats.h"

#include <stdio.h>

/* Bumped with every change to doc/summary.schema.json (tests/summary checks the two agree). */
#define RLI_SUMMARY_SCHEMA_VERSION 5

/*
 * So that the file stays a size a dashboard reads at once, whatever the run: past these counts a
 * role lists only its outlier steps, the idle list only the most idle ranks, and a role's
 * occupancy only its buckets (it always has them). The file says which it did.
 */
#define RLI_SUMMARY_MAX_STEPS 1000
/* Each rank's phases, for a comparison rank by rank: past this many (ranks x phases), none. */
#define RLI_SUMMARY_MAX_RANK_PHASES 20000
#define RLI_SUMMARY_MAX_IDLE_RANKS 1000
#define RLI_SUMMARY_MAX_POINTS 1000
#define RLI_SUMMARY_OCCUPANCY_BUCKETS 200
/* Memory: past this many devices only those of the highest peaks are listed (each with its top lists). */
#define RLI_SUMMARY_MAX_DEVICES 1000
/* A compared device lists at most this many call sites, the largest changes. */
#define RLI_SUMMARY_MAX_SITE_CHANGES 20
/* The expert load: at most this many (step, role, layer) entries, in table order, and hot experts. */
#define RLI_SUMMARY_MAX_GMM_LAYERS 10000
#define RLI_SUMMARY_MAX_HOT_EXPERTS 20

/* What the run was, for the summary's head. */
typedef struct {
	const char *input_path;
	const char *profiler; /* the format read: "mstx", "torch", "nvtx"; "memory" for memory records alone */
	const rli_comparison *comparison; /* NULL, or the run against its baseline */
} rli_summary_info;

/*
 * One analysis's part of summary.json: write(fp, data) puts its keys (",\n\"run\":..."), after
 * the head and the parts before it; a library code.
 */
typedef struct {
	int (*write)(FILE *fp, const void *data);
	const void *data;
} rli_summary_section;

/*
 * summary.json at path: the head (schema, tool, input), the sections in order, the comparison
 * when info has one; into `set` when given, else atomically on its own.
 */
int rli_summary_write_sections(const rli_summary_section *sections, size_t count, const rli_summary_info *info,
			       const char *path, rli_output_set *set);
/* The timeline's part ("run", "phases", "roles", "steps", "bubbles", "overlap"). */
int rli_summary_write_timeline(FILE *fp, const rli_stats *stats);
/* The memory's part ("memory", summary_memory.c). */
int rli_summary_write_memory(FILE *fp, const rli_memory_stats *memory);
/* The expert load's part ("gmm", summary_gmm.c). */
int rli_summary_write_gmm(FILE *fp, const rli_gmm_stats *gmm);

/*
 * Writes the statistics as summary.json at path: the timeline's (stats) and
 * the memory's ("memory"), whichever is not NULL: into `set` when given, to be renamed into
 * place with the run's other outputs, else atomically on its own. RLI_EOUTPUT with the path and
 * the cause on failure.
 */
int rli_summary_write(const rli_stats *stats, const rli_memory_stats *memory, const rli_summary_info *info,
		      const char *path, rli_output_set *set);

#endif

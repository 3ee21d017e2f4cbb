/* format.h: the parser registry: what each input format says about a tree, its units, and how one unit parses. */
#ifndef RLI_PARSE_FORMAT_H
#define RLI_PARSE_FORMAT_H

#include "parse_internal.h"
#include "walk.h"

/* What one entry of the detection walk says about a format. */
typedef enum {
	RLI_SHOWS_NOTHING = 0,
	RLI_SHOWS_FORMAT,      /* counts for the format */
	RLI_SHOWS_FORMAT_ONLY  /* counts, and nothing beneath it speaks of any format (not descended into) */
} rli_shows;

typedef struct rli_role_filter rli_role_filter;

/* What discovery is told besides the root. */
typedef struct {
	const rli_rank_filter *ranks;
	const rli_role_filter *roles; /* memory; NULL: every role */
	int auto_detected;            /* the format was detected, not named: captures of another analysis are left to it */
	const rli_rank_filter *steps; /* gmm: heatmap.parser.step; NULL: every step */
} rli_discover_options;

/*
 * One input format, in the manner of cairo's back-end tables: a const table per format, defined
 * in the format's own file and listed once in formats.c. A new format is one file and one line.
 */
typedef struct {
	rli_profiler profiler;  /* timeline formats: the value --profiler-type names; memory: RLI_PROFILER_AUTO */
	const char *name;       /* "mstx", as the command line and messages name it */
	const char *input_type; /* the reference's DataChecker type: "Data validation passed for <it>" */
	const char *shows_one;  /* what shows the format, for detection messages: "*ascend_pt folder" */
	const char *shows_many; /* the same, several: "*ascend_pt folders" */
	int timeline;           /* its rows are timeline bars (memory's are not: rli_memory_parse reads it) */
	/* What one walk entry says about this format. */
	rli_shows (*detect)(const rli_walk_entry *entry);
	/* The units under root, structural failures collected in discovery. RLI_OK or RLI_ERROR. */
	int (*discover)(rli_discovery *discovery, const char *root, const rli_discover_options *options);
	/*
	 * Parses one discovered unit on any thread: timeline rows appended to rows (the worker's
	 * table), memory rows into unit->memory, GMM rows into unit->gmm; failures and warnings into
	 * the unit.
	 */
	void (*parse_unit)(rli_unit *unit, rli_events *rows);
	/* Timeline formats and gmm: the unit's file from any byte source (fuzzers: memory). NULL for memory. */
	void (*parse_bytes)(rli_unit *unit, rli_bytes *source, rli_events *rows);
	/* The most rows the units could give, to reserve ahead; NULL: rows grow as they come. */
	size_t (*rows_hint)(const rli_discovery *discovery);
	/*
	 * 1: detection counts it only where no other format shows: an exported table beside the
	 * profiles it was made from (an output folder inside the input) is not a second kind.
	 */
	int yields;
} rli_format;

extern const rli_format rli_format_mstx;
extern const rli_format rli_format_torch;
extern const rli_format rli_format_nvtx;
extern const rli_format rli_format_memory;
extern const rli_format rli_format_table;        /* rl_events.csv|jsonl */
extern const rli_format rli_format_table_memory; /* memory_events.csv|jsonl */
extern const rli_format rli_format_gmm;          /* msprobe's group_list.pt dumps (the MoE expert load) */
extern const rli_format rli_format_table_gmm;    /* gmm_events.csv|jsonl */

/* Every format, the timeline ones first in detection order (the first shown wins), NULL-terminated. */
extern const rli_format *const rli_formats[];

/* The timeline format of this profiler value, or NULL. */
const rli_format *rli_format_of(rli_profiler profiler);

/* The name is that of a table --export writes (rl_events, memory_events or gmm_events, .csv or .jsonl). */
int rli_table_file_name(const char *name);

#endif

/* ascend_capture.h: Ascend capture folders (*ascend_pt): where they are, their rank, their role, their order. */
#ifndef RLI_PARSE_ASCEND_CAPTURE_H
#define RLI_PARSE_ASCEND_CAPTURE_H

#include "parse_internal.h"
#include "byte_source.h"
#include "walk.h"

#include <stddef.h>
#include <stdint.h>

/* One <...>ascend_pt folder, as MSTX and the memory parser both find it (timeline.md §3.2, memory.md §1). */
typedef struct {
	char *dir;         /* the capture folder */
	char *role;        /* the parent folder's name, until rli_ascend_read_metadata finds a "role" */
	int64_t rank;      /* from the first profiler_info_<N>.json by name (-1: not a number), else rank_from */
	int rank_from;     /* RLI_ASCEND_RANK_*: where rank came from */
	char **info_files; /* every profiler_info_*.json in dir, sorted by name */
	size_t info_count;
	char *sort_key;    /* the timestamp part of the folder name, the order inside a (role, rank) */
	size_t order;      /* discovery position, the tie-break that keeps the order stable */
	uint32_t group;    /* (role, rank) in order of first appearance, set by rli_ascend_order */
	int unsearched;    /* the folder could not be read: that is its failure, no rule of its files applies */
} rli_ascend_capture;

/*
 * Where a capture's rank comes from. The reference takes it from profiler_info_<N>.json only and
 * refuses a capture without one; real exports (msprof-analyze's own test data) have none, and
 * then the folder's name says it, or nothing does (decisions.md).
 */
enum {
	RLI_ASCEND_RANK_INFO = 0, /* the first profiler_info_<N>.json by name */
	RLI_ASCEND_RANK_FOLDER,   /* no profiler_info: the folder is [..._]rank<N>_ascend_pt */
	RLI_ASCEND_RANK_UNKNOWN   /* no profiler_info, no rank in the name: rank 0, warned */
};

typedef struct {
	rli_ascend_capture *items;
	size_t count, capacity;
	size_t unsearched;          /* folders under root that could not be read, captures or not */
	rli_discovery *discovery;   /* while finding: where those become failed units (NULL: nowhere) */
} rli_ascend_captures;

/* A walk entry that is a capture folder: a directory whose name ends with "ascend_pt". */
int rli_ascend_is_capture(const rli_walk_entry *entry);

/*
 * Every folder under root (never root itself) whose name ends with "ascend_pt", in walk order,
 * nested ones too, with rank, info files and sort key filled in. Each folder that cannot be read
 * becomes a failed unit of discovery (rli_discovery_unsearched), unless discovery is NULL (the
 * analysis that names them is another). RLI_OK or RLI_ERROR.
 */
int rli_ascend_find(rli_ascend_captures *captures, const char *root, rli_discovery *discovery);
void rli_ascend_captures_dispose(rli_ascend_captures *captures);
/*
 * The rank in a capture folder's name: with "ascend_pt" and the '_' before it cut off, what is
 * left is "rank<N>" or ends with "_rank<N>" (N decimal digits, at most 18): N, else -1.
 * "rank3_ascend_pt", "node0_1234_20250101_rank3_ascend_pt" -> 3; "x_ascend_pt", "rank_ascend_pt" -> -1.
 */
int64_t rli_ascend_rank_from_name(const char *name);
/*
 * What the run says about the ranks of captures without profiler_info: each taken from the
 * folder's name at -v, and one warning naming every capture read as rank 0. RLI_OK or RLI_ERROR.
 */
int rli_ascend_note_ranks(rli_notes *log, rli_ascend_capture *const *captures, size_t count);
/* One warning, "<what>: <dir>, <dir> and N more", naming the first few dirs; nothing when count is 0. */
int rli_ascend_warn_folders(rli_notes *log, const char *const *dirs, size_t count, const char *what);
/* A newly allocated path inside the capture's ASCEND_PROFILER_OUTPUT folder (name NULL: the folder). */
char *rli_ascend_output_path(const rli_ascend_capture *capture, const char *name);
/* The capture folder dir holds memory records (ASCEND_PROFILER_OUTPUT/operator_memory.csv): 1, 0, or RLI_ERROR. */
int rli_ascend_holds_memory(const char *dir);

/* The top level of a small JSON side file (profiler_info_<N>.json, profiler_metadata.json). */
typedef struct {
	int top_kind;   /* 0: no value, 1: an object, 2: anything else */
	uint64_t keys;  /* top-level keys of the object */
	unsigned found; /* bit i: wanted[i] is one of them */
	char *role;     /* the last top-level "role" when it is a non-empty string, else NULL */
	int role_not_text; /* the last top-level "role" is no string (a number, null, an object...) */
} rli_json_top;

/*
 * Reads path and fills *top (free top->role). wanted lists at most 32 keys to look for. On
 * RLI_READ_FAILED, *failure is "Failed to parse JSON file <path>: ..." or "Failed to read ...".
 */
rli_read_result rli_json_read_top(rli_json_top *top, const char *path, const char *const *wanted,
				  size_t wanted_count, char **failure);
/* The same over any source (a fuzzer's bytes). */
rli_read_result rli_json_read_top_bytes(rli_json_top *top, rli_bytes *source, const char *const *wanted,
					size_t wanted_count, char **failure);

/* profiler_metadata.json of a capture, read once. */
typedef struct {
	int exists;
	int is_object;
	char *failure; /* "File is empty: ..." or the read or parse failure; NULL when readable */
	char *warning; /* a "role" that is no string, said as such (for the discovery's log); or NULL */
} rli_ascend_metadata;

/*
 * Reads the capture's profiler_metadata.json, if there is one, and takes its "role" (a non-empty
 * string) as the capture's role. RLI_OK (read failures land in out->failure) or RLI_ERROR.
 */
int rli_ascend_read_metadata(rli_ascend_metadata *out, rli_ascend_capture *capture);
void rli_ascend_metadata_dispose(rli_ascend_metadata *metadata);

/*
 * A unit for the capture at the end of the discovery's list: its path is name inside the
 * capture's ASCEND_PROFILER_OUTPUT (NULL: that folder itself), and the capture's role, rank and
 * profiler_info files move into it. NULL when out of memory.
 */
rli_unit *rli_ascend_add_unit(rli_discovery *discovery, rli_ascend_capture *capture, const char *name);

/*
 * Puts captures in parse order: grouped by (role, rank) in order of first appearance, by sort
 * key inside a group, discovery order on ties. Sets each capture's group. RLI_OK or RLI_ERROR.
 */
int rli_ascend_order(rli_ascend_capture **captures, size_t count);

#endif

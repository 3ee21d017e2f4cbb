/* parse_internal.h: what discovery, the three format parsers and the driver share. */
#ifndef RLI_PARSE_INTERNAL_H
#define RLI_PARSE_INTERNAL_H

#include "rl_insight.h"
#include "common/error.h"
#include "common/strutil.h"
#include "events/events.h"
#include "byte_source.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>


/* ---- messages: log lines and validation failures, buffered per unit ----- */

typedef struct {
	rli_log_level level;
	char *text;
} rli_note;

typedef struct {
	rli_note *items;
	size_t count, capacity;
	int oom; /* a message could not be stored; reported as an internal error */
} rli_notes;

void rli_notes_init(rli_notes *notes);
void rli_notes_dispose(rli_notes *notes);
void rli_notes_add(rli_notes *notes, rli_log_level level, const char *fmt, ...) RLI_PRINTF(3, 4);

/* Logging through an rli_log_fn (NULL: nothing): one formatted line, or every note in order. */
void rli_log_line(rli_log_fn log, void *ctx, rli_log_level level, const char *fmt, ...) RLI_PRINTF(4, 5);
void rli_log_vline(rli_log_fn log, void *ctx, rli_log_level level, const char *fmt, va_list ap);
void rli_log_notes(rli_log_fn log, void *ctx, const rli_notes *notes);

/* ---- rank filter ------------------------------------------------------- */

typedef struct {
	int64_t lo, hi;
} rli_rank_range;

typedef struct {
	int all; /* no filter */
	rli_rank_range *ranges;
	size_t count;
} rli_rank_filter;

/* "all"/NULL keeps everything; "0,2,4-7" keeps those. RLI_EUSAGE with a message otherwise. */
int rli_rank_filter_parse(rli_rank_filter *out, const char *text);
int rli_rank_filter_keeps(const rli_rank_filter *filter, int64_t rank);
void rli_rank_filter_dispose(rli_rank_filter *filter);

/* ---- input units ------------------------------------------------------- */

/*
 * One file handed to one parse task. Discovery fills the first block; the
 * worker fills the second. `failures` are validation messages ("Failed to
 * parse JSON file ..."): any of them makes the unit a failed unit.
 */
/* torch: where a trace's rank came from (rli_unit.rank_from). */
enum { RLI_RANK_FROM_TRACE = 0, RLI_RANK_FROM_NAME, RLI_RANK_DEFAULT };

/* The [memory] device kinds a PyTorch trace names (c10::DeviceType 0, 1, 6, 20), in this order. */
enum { RLI_TORCH_CPU = 0, RLI_TORCH_CUDA, RLI_TORCH_HIP, RLI_TORCH_NPU, RLI_TORCH_KINDS };

/* torch: the [memory] events of one trace left out, and why, for the run's one line each (torch_notes.c). */
typedef struct {
	uint64_t kind[RLI_TORCH_KINDS]; /* of a device kind not chosen (--memory-device) */
	uint64_t other_type;            /* of a Device Type none of the four */
	double first_other_type;        /* the first such value */
	uint64_t no_addr;               /* without an 'Addr' key: no free can be paired with its allocation */
} rli_memory_left;

typedef struct {
	char *path;        /* trace_view.json, *.json.gz or *.jsonl; memory: ASCEND_PROFILER_OUTPUT */
	char *role;        /* mstx, torch: bar name and role; memory: the capture's role */
	char *tid;         /* nvtx: the PID from the file name */
	int64_t rank;      /* mstx, memory: from profiler_info_<N>.json; -1 otherwise */
	uint32_t group;    /* torch, nvtx: units are parsed grouped, groups by first appearance */
	char **info_files; /* mstx, memory: profiler_info_*.json files to validate */
	size_t info_count;

	rli_memory *memory; /* memory: the capture's rows, NULL until parsed */
	rli_events *rows;   /* after parsing: the worker's table that holds this unit's rows (not owned) */
	size_t row_begin, row_end; /* this unit's rows in it (none for a failed unit) */
	rli_notes log;      /* warnings and progress, logged in unit order after the join */
	rli_notes failures; /* validation failures; level unused */
	int status;         /* RLI_OK or RLI_ERROR (out of memory) */
	int holds_memory;   /* mstx, detected: the capture also holds operator_memory.csv */
	int no_timeline;    /* mstx: the trace has no Overlap Analysis process */
	int unsearched;     /* a folder the walk could not read: failed at discovery, nothing to parse */
	unsigned memory_devices; /* torch: RLI_MEMORY_DEVICE_* whose [memory] events go to memory; 0 none */
	int rank_from;           /* torch: RLI_RANK_FROM_*, once parsed */
	rli_memory_left memory_left; /* torch: the [memory] events left out */
	unsigned spare_threads;  /* set by rli_units_run: threads the parse may start beside this unit's own */
	/* memory tables: rows kept as they are read, by rank and role (a file holds many); NULL keeps all */
	const rli_rank_filter *keep_ranks;
	const struct rli_role_filter *keep_roles;
	/* gmm: the dump's step and stage (op index), from its path; with keep_ranks and keep_roles, the
	 * steps a GMM table's rows are kept by (NULL keeps all) */
	int64_t step, stage;
	const rli_rank_filter *keep_steps;
	rli_gmm *gmm;       /* gmm: the table the unit's rows go into (the driver lends the worker's), or NULL */
	/* mstx: a capture holding memory records keeps its call stacks here; memory: takes them */
	rli_trace_share *share;
} rli_unit;

typedef struct {
	rli_unit *units;
	size_t count, capacity;
	rli_notes structural; /* failures of the structural rules, in rule order */
	rli_notes log;        /* discovery's own warnings */
	int64_t *ranks_seen;  /* ranks the rank filter left out, to say what there was */
	size_t ranks_seen_count, ranks_seen_capacity;
} rli_discovery;

void rli_discovery_init(rli_discovery *discovery);
void rli_discovery_dispose(rli_discovery *discovery);
/*
 * Orders the units by group (torch's role, NVTX's capture id), groups in order
 * of first appearance and discovery order inside each, as the reference
 * groups its data maps. Group ids must be first-appearance indices.
 */
int rli_discovery_group(rli_discovery *discovery);
/* Frees what a unit holds (not the unit itself, which lives in the discovery's array). */
void rli_unit_dispose(rli_unit *unit);
/* A zeroed unit at the end of the list, or NULL when out of memory. */
rli_unit *rli_discovery_add(rli_discovery *discovery);
/*
 * A folder the walk could not search (rli_walk_failed_fn): a failed unit of its own, "Failed to
 * read folder <dir>: <why>", so that the run says what it could not see and ends as when any
 * unit fails (the rest drawn, exit 5; nothing left, exit 3). RLI_OK or RLI_ERROR.
 */
int rli_discovery_unsearched(rli_discovery *discovery, const char *dir, const char *why);
/* Notes a rank the rank filter left out. RLI_ERROR when out of memory. */
int rli_discovery_saw_rank(rli_discovery *discovery, int64_t rank);
/*
 * Sets the last error to "Data validation failed" and one "\n  - <message>" per failure: the
 * structural ones, then each unit's in unit order. Returns how many there were.
 */
size_t rli_discovery_report(const rli_discovery *discovery);


/*
 * Parses one unit, on any thread; everything it finds goes into the unit, or into state the
 * caller keeps per worker (worker < rli_units_workers(jobs, units)).
 */
typedef void (*rli_unit_fn)(void *ctx, unsigned worker, rli_unit *unit);

/* How many workers rli_units_run uses for `units` units and `jobs` (0: one per CPU). */
unsigned rli_units_workers(unsigned jobs, size_t units);

/*
 * Runs fn on every unit on rli_units_workers(jobs, ...) threads (the calling thread is one of
 * them), logging the reference's "Completed rank" progress in completion order. RLI_OK or RLI_ERROR.
 */
int rli_units_run(rli_discovery *discovery, rli_unit_fn fn, void *ctx, unsigned jobs, rli_log_fn log,
		  void *log_ctx);

/* Discovery and the parse of one unit are each format's own: see format.h. */

/*
 * torch_notes.c: what the torch units of a run say once for the whole run, after their own notes:
 * the traces whose rank was not in distributedInfo, and the [memory] events left out and why
 * (devices: the RLI_MEMORY_DEVICE_* bits chosen; 0 when memory was not read).
 */
void rli_torch_run_notes(const rli_discovery *discovery, unsigned devices, rli_log_fn log, void *log_ctx);
/*
 * The rank a trace's file name gives (torch_notes.c): the first "rank" (any case) that starts the
 * base name or follows a character that is neither a letter nor a digit, then an optional '-' or
 * '_', then 1-9 digits that no letter or digit follows: prof_rank-3_1.json.gz, bs_32_rank0.json.gz,
 * w_RANK_12.pt.trace.json.gz; not ranking_3, prerank3 or rank3b. 1 and *rank, or 0.
 */
int rli_rank_from_file_name(const char *path, int64_t *rank);

/* ---- helpers ---------------------------------------------------------- */

/*
 * Opens path as a unit's input: NULL when it cannot be, the reason in unit->failures ("Failed
 * to read <path>: <why>"), or unit->status = RLI_ERROR when out of memory.
 */
rli_bytes *rli_unit_open(rli_unit *unit, const char *path);

/* A format's parse of a unit's bytes, from whatever source (format.h: parse_bytes). */
typedef void (*rli_parse_bytes_fn)(rli_unit *unit, rli_bytes *source, rli_events *rows);
/* Opens the unit's file (rli_unit_open) and parses it with parse_bytes: what every file format's parse_unit does. */
void rli_unit_parse_file(rli_unit *unit, rli_events *rows, rli_parse_bytes_fn parse_bytes);

/*
 * A chunk of CSV as libcsv should see it: a UTF-8 byte order mark at the start of the file
 * dropped (*bom_checked is set by the first chunk; exporters such as Excel write one), and only
 * the bytes before the first NUL byte, which no CSV text holds (*nul says there was one: a file
 * cut short by a crash is often padded with them). Returns how many bytes at *data to parse.
 */
size_t rli_csv_text(const unsigned char **data, size_t length, int *bom_checked, int *nul);

/* path without its trailing slashes ("/" stays), newly allocated. */
char *rli_path_trimmed(const char *path);
/* The last component of path (no trailing slash), newly allocated. */
char *rli_path_base(const char *path);
/*
 * The name a folder goes by: its last component, or its real name for ".", ".." or "/"; made
 * text as rli_text_copy makes it, since it becomes a role that outputs show.
 */
char *rli_dir_label(const char *path);
/*
 * Text that reaches an output (a role, a label, an operator name, a call stack) must be UTF-8
 * without NUL bytes: a folder name or a CSV field may hold any bytes, and a JSON string may hold
 * \u0000. rli_text_clean_length is how many bytes at the start of text are already such text
 * (length when all are); rli_text_copy copies text with every NUL byte and every byte that starts
 * no well-formed UTF-8 sequence written as U+FFFD, NUL-terminated (*out_length, if asked, its
 * length), or NULL when out of memory.
 */
size_t rli_text_clean_length(const char *text, size_t length);
char *rli_text_copy(const char *text, size_t length, size_t *out_length);
/*
 * The validation messages' list of what is missing: each of names[0..count) whose bit in
 * present is clear, quoted and comma-separated as Python prints them ("'ph', 'tid'"), into out
 * (size bytes, cut short at a whole name when it does not fit). Returns how many are missing.
 */
size_t rli_missing_keys(char *out, size_t size, const char *const *names, size_t count, uint64_t present);
/* text ends with suffix. */
int rli_ends_with(const char *text, const char *suffix);

#endif

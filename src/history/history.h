/* history.h: the run history: an SQLite database each run appends its statistics to, read back for trends and for a verdict against the last runs. */
#ifndef RLI_HISTORY_H
#define RLI_HISTORY_H

#include "compare/compare.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The database's schema version (PRAGMA user_version; doc/history.md has every table). A file of
 * an older version is migrated forward when opened for writing; one of a newer version is refused
 * and left as it is.
 */
#define RLI_HISTORY_SCHEMA 2
/* PRAGMA application_id of a run history: "RLIH". */
#define RLI_HISTORY_APPLICATION_ID 0x524c4948
#define RLI_HISTORY_DEFAULT_WINDOW 7
/* A verdict needs this many earlier runs (the noise rule's samples, one a run). */
#define RLI_HISTORY_MIN_RUNS RLI_COMPARE_MIN_SAMPLES
/* How long a run waits for another's transaction before it gives up (cron jobs started together). */
#define RLI_HISTORY_BUSY_MS 60000
/* A role's steps kept per run: past this, those with the largest slowdown of their slowest rank. */
#define RLI_HISTORY_MAX_STEPS 1000

typedef struct rli_history rli_history;

typedef struct {
	int read_only;       /* 1: never write, never create (listing, showing) */
	int busy_timeout_ms; /* 0: RLI_HISTORY_BUSY_MS */
	/*
	 * "wal", "delete", or NULL: WAL where the file system allows (not on NFS, SMB, CIFS and the
	 * other network file systems, whose locks WAL's shared memory does not cross), else the
	 * rollback journal. RLI_HISTORY_JOURNAL in the environment gives it to the command.
	 */
	const char *journal;
} rli_history_open_options;

void rli_history_open_options_init(rli_history_open_options *options);

/*
 * Opens (creating it when missing, unless read_only) the history at path, migrating an older
 * schema forward in one transaction. RLI_EINVALID with a message naming the file when it is no
 * SQLite database, another program's, or of a newer schema (then nothing in it is changed);
 * RLI_EOUTPUT when it cannot be opened or written. options may be NULL.
 */
int rli_history_open(rli_history **out, const char *path, const rli_history_open_options *options);
void rli_history_close(rli_history *history);
const char *rli_history_path(const rli_history *history);
/* The journal in use: "wal", or "delete" (the rollback journal), or "" read-only. */
const char *rli_history_journal_mode(const rli_history *history);
/* The schema version the file had when opened: 0 new, RLI_HISTORY_SCHEMA current, less: migrated. */
int rli_history_found_version(const rli_history *history);

/* One row of the runs table; the strings are the run's own (rli_history_run_dispose). */
typedef struct {
	int64_t id;                 /* 0: not in the database yet */
	char *captured_at;          /* "YYYY-MM-DDTHH:MM:SS.sssZ", the capture's first bar; NULL unknown */
	char *analysed_at;          /* when rl-insight read it (an import: the summary.json's time) */
	char *input, *profiler, *tool_version;
	char *label;                /* --run-label, or NULL */
	char *family;               /* the label's family (rli_history_family); "" none */
	char *source;               /* "run" or "import" */
	char *output;               /* the output folder, absolute; NULL unknown */
	int64_t summary_bytes;      /* its summary.json as written, to tell whether it is still there; -1 unknown */
	int64_t summary_mtime_ns;
	int64_t ranks, roles, max_steps;
	double duration_ms, step_ms; /* NAN unknown */
} rli_history_run;

void rli_history_run_init(rli_history_run *run);
void rli_history_run_dispose(rli_history_run *run);
void rli_history_runs_free(rli_history_run *runs, size_t count);

/*
 * A label's family: what it shares with the runs it is compared with. The text before the
 * label's first ':' ("fp8:3f2a9c1" is of family "fp8"); a label without one, and no label, are
 * of the family "" (a commit alone compares each run with the runs before, whatever commit).
 * Written into out (size bytes).
 */
char *rli_history_family(char *out, size_t size, const char *label);

/* "YYYY-MM-DDTHH:MM:SS.sssZ" of a time in ms since the epoch, into out (at least 32 bytes). */
char *rli_history_timestamp(char *out, size_t size, double epoch_ms);

/* One MoE layer of one role in one step, as the expert_imbalance table keeps it (the GMM analysis's). */
typedef struct {
	int64_t step;
	const char *role;
	uint32_t layer;
	double imbalance;      /* the hottest expert's load over the mean load; NAN when the mean is 0 */
	double max_load, mean_load;
	uint32_t hottest;
} rli_history_expert;

/*
 * Appends run (its id is set) and what side holds: the phases per role, the roles with their
 * stragglers, the steps' slowest ranks, the memory peaks per device, and the experts' imbalance
 * (expert_count of them; 0 without an expert load); one transaction, so a run that fails or is
 * killed leaves no row. RLI_EOUTPUT with the reason (a full disk, a read-only file) when it
 * cannot be written.
 */
int rli_history_append(rli_history *history, rli_history_run *run, const rli_compare_side *side,
		       const rli_history_expert *experts, size_t expert_count);
/* A run's expert_imbalance rows, by (role, step, layer), each role its own copy (rli_history_experts_free). */
int rli_history_experts(rli_history *history, int64_t id, rli_history_expert **out, size_t *count);
void rli_history_experts_free(rli_history_expert *rows, size_t count);

/* Deletes run id and its rows (one transaction). RLI_EUSAGE when there is no such run. */
int rli_history_delete(rli_history *history, int64_t id);

/* Which runs a query returns. */
typedef struct {
	const char *input;   /* NULL: every input */
	const char *family;  /* NULL: every family */
	size_t limit;        /* the last `limit` runs; 0: all */
} rli_history_filter;

/*
 * The runs the filter takes, oldest first: by capture time (the analysis time when unknown),
 * then by id. *runs is malloc'ed (rli_history_runs_free).
 */
int rli_history_runs(rli_history *history, const rli_history_filter *filter, rli_history_run **runs, size_t *count);
/* One run by id. RLI_EUSAGE when there is no such run. */
int rli_history_get(rli_history *history, int64_t id, rli_history_run *run);
/*
 * A run's rows as a comparison side (phases, roles, steps, memory devices), named by the run's
 * input. The side is rli_compare_side_free's.
 */
int rli_history_side(rli_history *history, const rli_history_run *run, rli_compare_side **out);

/*
 * The run's row from what its side holds: input, profiler, tool version, when it was captured
 * (its first bar, when on the epoch), ranks, roles, steps, span and step time; the label and
 * its family. analysed_at, source, output and the summary's identity are the caller's.
 */
int rli_history_run_from_side(rli_history_run *run, const rli_compare_side *side, const char *label);

/* The run of a summary.json rl-insight wrote, for `rl-insight history FILE import`: its row and side. */
int rli_history_read_summary(rli_history_run *run, rli_compare_side **side, const char *summary_path,
			     const char *label);
/* The id of the run already holding this output folder's summary.json as it is now, or 0. */
int rli_history_find_summary(rli_history *history, const rli_history_run *run, int64_t *id);

/* ---- the verdict against the last runs (history_verdict.c) ---- */

/*
 * A run compared with the median of the runs before it: baseline is their phases' medians
 * (each phase present in at least RLI_HISTORY_MIN_RUNS of them), current the run's phases.
 */
typedef struct {
	rli_compare_side *baseline, *current;
	rli_comparison *comparison;
	size_t runs;        /* the earlier runs it was made from */
} rli_history_verdict;

/*
 * Compares current with the median of window[0 .. count) under the noise rule of --baseline and
 * threshold (a ratio; 0: any slowdown beyond the noise). *out NULL (and RLI_OK) when count is
 * below RLI_HISTORY_MIN_RUNS: no verdict. name says what the baseline is, in messages.
 */
int rli_history_compare(rli_history_verdict **out, rli_compare_side *const *window, size_t count,
			const rli_compare_side *current, double threshold, const char *name);
void rli_history_verdict_free(rli_history_verdict *verdict);

#endif

/* memory_internal.h: what the memory parser's parts share: the call-stack index, the CSV reader, discovery. */
#ifndef RLI_PARSE_MEMORY_INTERNAL_H
#define RLI_PARSE_MEMORY_INTERNAL_H

#include "parse_internal.h"
#include "memory/memory_table.h"
#include "json_chunks.h"

/*
 * Rows (or ops) reserved up front from a file's size at most: beyond this the columns grow by
 * doubling, so a huge file never asks for more address space than it will use.
 */
#define RLI_MEMORY_RESERVE_MAX ((size_t)1 << 24)

/* ---- the call-stack index of one trace_view.json (memory.md §3) ---------- */

/* One cpu_op event that carries a call stack. */
typedef struct {
	double ts, dur;  /* µs, as the trace gives them (dur 0 when absent) */
	uint32_t name;   /* id in the index's names */
	uint32_t stack;  /* id in the index's stacks */
} rli_stack_op;

typedef struct {
	rli_strpool names;
	rli_strpool stacks;   /* distinct call stacks: a few hundred code paths for a million ops */
	rli_stack_op *ops;    /* after reading: grouped by name, by ts inside a group */
	size_t count, capacity;
	size_t *group_begin;  /* ops named id g are [group_begin[g], group_begin[g + 1]) */
	uint64_t no_ts;       /* kept events whose ts is missing or not a number, left out */
	uint64_t bad_dur;     /* kept events whose dur is not a number or negative, taken as 0 */
	uint64_t wrong_type;  /* events whose name, cat, args or "Call stack" is of the wrong type, left out */
	uint64_t first_wrong_type; /* the first of them: its 1-based place in the trace's array */
} rli_stack_index;

void rli_stack_index_init(rli_stack_index *index);
void rli_stack_index_dispose(rli_stack_index *index);

/*
 * Streams the trace (of about size bytes) into the index. A file that cannot serve goes
 * into unit->failures with the reference's wording; warnings into unit->log. RLI_OK or RLI_ERROR.
 */
int rli_stack_index_read(rli_stack_index *index, rli_unit *unit, rli_bytes *source, size_t size);
/* The same, read as mode says (json_items.h: RLI_JSON_READ_*, or a count of chunks). */
int rli_stack_index_read_as(rli_stack_index *index, rli_unit *unit, rli_bytes *source, size_t size, int mode);

/*
 * A trace read into an index by a reading another format leads (json_tee.h): the timeline's
 * reading of a trace_view.json also gathers its call stacks, and the file is read once.
 */
typedef struct rli_stack_reader rli_stack_reader;

/* How such a reading ended: what the index's own messages are made from. */
typedef struct {
	int top_kind;    /* 1: the file was an array */
	uint64_t events; /* its items */
	int oom;
} rli_stack_outcome;

/* A reader into index; its callbacks' context is the reader. NULL when out of memory. */
rli_stack_reader *rli_stack_reader_new(rli_stack_index *index);
void rli_stack_reader_free(rli_stack_reader *reader);
const yajl_callbacks *rli_stack_reader_callbacks(void);
rli_json *rli_stack_reader_json(rli_stack_reader *reader);
void rli_stack_reader_outcome(const rli_stack_reader *reader, rli_stack_outcome *outcome);
/* Chunks of a trace into a reader (the owner), joined in file order. */
extern const rli_json_chunking rli_stack_chunking;

/*
 * After a reading that ended well (the file was JSON): the index's warnings, or its failure
 * when the file held no events, into the unit, and the ops grouped for matching. RLI_OK or RLI_ERROR.
 */
int rli_stack_index_finish(rli_stack_index *index, rli_unit *unit, const char *path, const rli_stack_outcome *outcome);

/* The group of ops with exactly this name, or RLI_STRPOOL_NONE. */
static inline uint32_t rli_stack_index_group(const rli_stack_index *index, const char *name, size_t length)
{
	return index->group_begin ? rli_strpool_find(&index->names, name, length) : RLI_STRPOOL_NONE;
}

/*
 * The op of a group that a row at time us matches: the latest ts <= us, the last in file order
 * among equal ts (Python's bisect_right - 1). NULL when every op of the group starts later.
 * *hint (0 at first) carries where the group's last search ended, where the next one starts.
 */
const rli_stack_op *rli_stack_index_match(const rli_stack_index *index, uint32_t group, double us, size_t *hint);

/* ---- operator_memory.csv (memory.md §2) ---------------------------------- */

/*
 * Streams the CSV into table, one row per data row, each matched against index, and
 * counts how the allocations matched into *counts. Rows get the unit's role and rank. Failures
 * go into unit->failures, skipped rows are warned about in unit->log. RLI_OK or RLI_ERROR.
 */
int rli_memory_read_csv(rli_memory *table, rli_unit *unit, rli_bytes *source, const rli_stack_index *index,
			rli_memory_match_counts *counts);
/*
 * The capture's memory_record.csv (memory_record.c) into the table's reserve samples: the rows of
 * PTA+GE (else PTA) with a Total Reserved, in time order, under the unit's role and rank. A file
 * that is no such CSV is a warning in unit->log, never a failure. RLI_OK or RLI_ERROR.
 */
int rli_memory_read_record(rli_memory *table, rli_unit *unit, rli_bytes *source);

/* ---- discovery and validation of the capture folders (memory.md §1, §5.2) -- */

typedef struct rli_role_filter {
	char **roles; /* NULL: every role */
	size_t count;
} rli_role_filter;

/* NULL or "" keeps every role; else a comma-separated list. RLI_OK or RLI_ERROR. */
int rli_role_filter_parse(rli_role_filter *out, const char *text);
void rli_role_filter_dispose(rli_role_filter *filter);
/* 1 when the filter keeps role (an empty filter keeps every one). */
int rli_role_filter_keeps(const rli_role_filter *filter, const char *role);

/*
 * The memory tables of the units that did not fail, in unit order, then one stable sort by
 * start: ties keep unit order (memory.md §1.4). ranks (for torch, whose units are filtered once
 * read) keeps whole units by their rows' rank, and roles by the unit's role; NULL ranks keeps
 * every unit. Each table moves into *out (an empty table when none); with tables in start order
 * they are merged, on up to `jobs` threads (0: one a CPU). RLI_OK or RLI_ERROR.
 */
int rli_memory_gather_units(rli_memory **out, rli_discovery *discovery, const rli_rank_filter *ranks,
			    const rli_role_filter *roles, unsigned jobs);

/*
 * rli_format_memory (format.h) discovers one unit per capture folder the filters keep, in parse
 * order (a folder that breaks a rule is still a unit, with its failures), and parses a unit
 * (info files, the trace, then the CSV) into unit->memory.
 */

#endif

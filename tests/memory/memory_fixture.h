/* memory_fixture.h: throw-away Ascend memory captures for the memory parser tests. */
#ifndef RLI_TEST_MEMORY_FIXTURE_H
#define RLI_TEST_MEMORY_FIXTURE_H

#include "parse/fixture.h"

#include <stddef.h>

/* A profiler_metadata.json without a role, as the sample's. */
#define MF_METADATA "{\"ENV_VARIABLES\": {}, \"parallel_group_info\": {}}"

/* The 15-column header Ascend writes (memory.md §2.1). */
extern const char mf_header[];

/* One operator_memory.csv row: the time fields as text (quoted and tab-padded by mf_csv). */
typedef struct {
	const char *name;
	const char *size;     /* Size(KB) */
	const char *alloc;    /* Allocation Time(us) */
	const char *duration; /* Duration(us); "" for a block never released */
} mf_row;

/* The whole CSV for these rows, as Ascend lays it out. Newly allocated. */
char *mf_csv(const mf_row *rows, size_t count);
/* The same with each row's Allocation Total Allocated(MB) (totals[i]; NULL: every row's 19071.5). */
char *mf_csv_totals(const mf_row *rows, const char *const *totals, size_t count);

/* One trace_view.json event. ts and dur are JSON text ("\"100.5\"" or 100.5); NULL leaves the key out. */
typedef struct {
	const char *name;
	const char *ts;
	const char *dur;
	const char *stack; /* the "Call stack" (C text, JSON-escaped by mf_trace); NULL: no such key */
	const char *cat;   /* NULL: "cpu_op" */
} mf_op;

/* The trace_view.json array for these events. Newly allocated. */
char *mf_trace(const mf_op *ops, size_t count);

/*
 * Writes a capture <root>/<dir>: profiler_info_<rank>.json, profiler_metadata.json (metadata
 * text, NULL: none), ASCEND_PROFILER_OUTPUT/operator_memory.csv and trace_view.json (NULL: none).
 */
void mf_capture(const char *root, const char *dir, int rank, const char *metadata, const char *csv,
		const char *trace);

/* rli_memory_parse with these options; the log is captured into *log when log is not NULL. */
int mf_parse(rli_memory **out, const char *root, const char *rank_list, const char *role_list, unsigned jobs,
	     fx_log *log);

/* Row i of a table, as a struct. */
rli_memory_row mf_get(const rli_memory *memory, size_t i);

/* A row of an expected JSONL file (the reference's, or the generator's with how the stack was found). */
typedef struct {
	rli_memory_row row; /* strings owned */
	int has_match;      /* the generator's extra keys were there: released, match, match_gap_ms */
	/* torch rows: how the generator laid out the ops around the event ("" when not said), and
	 * the bytes allocated before the capture still live after it (MB; has_before when said) */
	char *op_case;
	double before_capture_mb;
	int has_before;
} mf_expected;

/*
 * Reads every row of path; each must start with the reference's 12 keys in its order
 * (memory.md §2.3). Exits on a malformed file. Free with mf_expected_free.
 */
mf_expected *mf_read_expected(const char *path, size_t *count);
void mf_expected_free(mf_expected *rows, size_t count);
/* A parsed row equals an expected one: times to 1e-6 ms, the rest exactly, the match too when known. */
int mf_row_equal(const mf_expected *want, const rli_memory_row *got);

#endif

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

#endif

/* memory_csv.h: what the operator_memory.csv reader (memory_csv.c) and its reading in chunks (memory_csv_chunks.c) share. */
#ifndef RLI_PARSE_MEMORY_CSV_H
#define RLI_PARSE_MEMORY_CSV_H

#include "memory_internal.h"
#include "json_stream.h"

#include <csv.h>

/* The columns the parser reads, by header name (memory.md §2.2), in the checker's order (§5.2). */
enum {
	COL_NAME = 0,
	COL_SIZE,
	COL_ALLOC,
	COL_DURATION,
	COL_ALLOCATED,
	COL_RESERVED,
	COL_ACTIVE,
	COL_DEVICE,
	COL_RELEASE_ALLOCATED,
	COL_STREAM,
	COL_COUNT
};

enum { VALUE_MISSING = 0, VALUE_EMPTY, VALUE_OK, VALUE_BAD };

/*
 * The longest field read: no column of operator_memory.csv comes near it, and libcsv holds a
 * field whole, so a longer one (a 200 MB line, a gzip that inflates to gigabytes of one field)
 * would take as much memory. The same bound as a JSON value (json_stream.h).
 */
#define CSV_FIELD_MAX RLI_JSON_MAX_VALUE
/* libcsv's own growth step for its field buffer, kept while fields are short. */
#define CSV_BLOCK_MIN 128

/* The first line where something went wrong, and what. */
typedef struct {
	uint64_t count, line;
	int column;
	char text[40];
} finding;

typedef struct {
	struct csv_parser parser;
	rli_memory *table;
	rli_unit *unit;
	const char *path;
	const rli_stack_index *index;
	uint32_t role;
	int bom_checked;
	/* the header */
	int header_done, stop;
	size_t column_field[COL_COUNT]; /* the field holding each column, SIZE_MAX if none */
	signed char *field_column;      /* field -> column, -1 for fields nobody reads */
	size_t field_count;             /* fields in the header */
	size_t needed_fields;           /* a row shorter than this lacks a column we read */
	/* the row being read */
	size_t field;
	uint64_t line; /* the line the next record starts on */
	int status[COL_COUNT];
	double value[COL_COUNT];
	uint32_t name, device;
	int bad_column; /* the row's first value that is no number, -1 if none */
	unsigned char bad_text[40];
	size_t bad_length;
	finding bad_number, empty_value, blank_name, short_row, free_without_time, negative_duration, end_overflow;
	finding negative_total; /* an Allocation Total Allocated(MB) below 0: taken as unknown */
	finding negative_release; /* a Release Total Allocated(MB) below 0: likewise */
	uint64_t data_rows;
	/* per distinct name and stack: their match group, their ids in the table */
	uint32_t *group_of_name; /* by table string id; GROUP_UNKNOWN until looked up */
	size_t group_capacity;
	uint32_t *stack_id, *top_id; /* by index stack id; RLI_STRPOOL_NONE until interned */
	size_t *hints;               /* by group: where its last match was found */
	rli_memory_match_counts *counts;
	int broken; /* the CSV itself is malformed: nothing after that point is worth reporting */
	int parser_ready; /* csv_init done */
	int oom;
} csv_ctx;

#define GROUP_UNKNOWN (RLI_STRPOOL_NONE - 1)

/*
 * A reading of the CSV into table: open, feed it bytes (rli_csv_feed: nonzero stops), end it
 * (rli_csv_end), say what it came to (rli_csv_report), close. Rows are matched against index
 * as they come; the counts of the matches go into *counts. RLI_OK or RLI_ERROR.
 */
int rli_csv_open(csv_ctx *c, rli_memory *table, rli_unit *unit, const char *path, const rli_stack_index *index,
		 rli_memory_match_counts *counts);
int rli_csv_feed(void *ctx, const unsigned char *data, size_t length);
/* The end of the bytes: the last row without its line break, a quote left open. */
void rli_csv_end(csv_ctx *c);
void rli_csv_report(csv_ctx *c);
void rli_csv_close(csv_ctx *c);

/*
 * The CSV cut at line starts into chunks read on `threads` threads into tables of their own,
 * joined into table in file order with their findings' lines numbered on. 1 when it was read
 * so (c then holds what one reading would: counts, findings, rows in table), 0 when it must be
 * read whole (too small, a cut in doubt, a chunk that failed), -1 when memory ran out.
 */
int rli_csv_read_chunks(csv_ctx *c, rli_bytes *source, unsigned threads);

#endif

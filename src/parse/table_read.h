/* table_read.h: the exported tables (rl_events, memory_events, gmm_events) read back, CSV or JSONL, a row of named fields at a time. */
#ifndef RLI_PARSE_TABLE_READ_H
#define RLI_PARSE_TABLE_READ_H

#include "parse_internal.h"

#include <stdint.h>

/* What a field of a row held: CSV gives text only, JSON says which of its types it was. */
typedef enum {
	RLI_FIELD_ABSENT = 0, /* no such key on the JSON line */
	RLI_FIELD_CSV,        /* a CSV field: text or number, as its column wants */
	RLI_FIELD_TEXT,       /* a JSON string */
	RLI_FIELD_NUMBER,     /* a JSON number, as written */
	RLI_FIELD_OTHER       /* a JSON null, boolean, object or array */
} rli_field_kind;

typedef struct {
	rli_field_kind kind;
	const char *text; /* valid during the row callback; not NUL-terminated */
	size_t length;
} rli_table_field;

/* Where a reader sends its rows. */
typedef struct {
	const char *table;            /* "rl_events", for messages */
	const char *const *columns;   /* the columns read, by name; others are passed over */
	size_t count;                 /* at most 64 */
	size_t required;              /* the first `required` columns must be there; the rest may be absent */
	/*
	 * One data row: fields[c] is columns[c]; line is where the row starts (1-based). Returns 0
	 * to go on, anything else to stop (having said why in the unit, or being out of memory).
	 */
	int (*row)(void *ctx, uint64_t line, const rli_table_field *fields);
	void *ctx;
} rli_table_sink;

/*
 * Streams a table in chunks to sink. Failures name the file and the line ("<path>: line 7:
 * ...") and go into unit->failures: a missing column, a row with fewer fields than the header,
 * a line that is no JSON object. RLI_OK, or RLI_ERROR when out of memory.
 */
int rli_table_read_csv(rli_unit *unit, rli_bytes *source, const rli_table_sink *sink);
int rli_table_read_jsonl(rli_unit *unit, rli_bytes *source, const rli_table_sink *sink);

/* One table file's bytes, CSV or JSONL by its name (the unit's path), through sink; status set when out of memory. */
void rli_table_read(rli_unit *unit, rli_bytes *source, const rli_table_sink *sink);

/*
 * One table file's bytes, CSV or JSONL by the unit's path: rl_events rows appended to rows (none
 * when the file fails), memory_events rows into unit->memory (NULL when it fails).
 */
void rli_table_parse_events(rli_unit *unit, rli_bytes *source, rli_events *rows);
void rli_table_parse_memory(rli_unit *unit, rli_bytes *source);

/* ---- fields as values (table_fields.c) ------------------------------------------------ */

/* What the row consumers share: the unit, the sink, and text made clean for the outputs. */
typedef struct {
	rli_unit *unit;
	const rli_table_sink *sink;
	char *clean[17]; /* per column: a copy with bad bytes replaced, freed after the row */
} rli_field_reader;

/* A field that is not what its column holds: the row's failure, quoting it ("rank_id is not an integer: 'x'"). -1. */
int rli_field_not_a(rli_field_reader *r, uint64_t line, size_t column, const rli_table_field *field, const char *what);
/*
 * A number column into *out (a finite double: the export writes the shortest digits that read
 * back as the same one), an integer column into *out (one that fits int64). 0, or -1 said.
 */
int rli_field_number(rli_field_reader *r, uint64_t line, const rli_table_field *fields, size_t column, double *out);
int rli_field_integer(rli_field_reader *r, uint64_t line, const rli_table_field *fields, size_t column, int64_t *out);
/*
 * A string column as text for the outputs: JSON must give a string; bytes that are no UTF-8,
 * and NULs (a JSON \u0000), become U+FFFD as every parser makes them. NULL when out of memory
 * or not a string (the failure said).
 */
const char *rli_field_text(rli_field_reader *r, uint64_t line, const rli_table_field *fields, size_t column,
			   size_t *length);
/* Frees the row's clean copies: after each row. */
void rli_field_reader_done(rli_field_reader *r);

/* ---- the row both readers assemble: the fields' bytes copied, so they outlive the parser's callbacks ---- */

typedef struct {
	char *bytes;
	size_t used, capacity;
	size_t offset[64];
	rli_table_field fields[64];
} rli_table_row;

void rli_table_row_clear(rli_table_row *row, size_t columns);
/* Keeps a field's bytes as column's value (a repeated key: the last counts). RLI_OK or RLI_ERROR. */
int rli_table_row_set(rli_table_row *row, size_t column, rli_field_kind kind, const char *text, size_t length);
/* Points every field at its bytes (they may have moved as the buffer grew); then the row is ready. */
const rli_table_field *rli_table_row_fields(rli_table_row *row, size_t columns);
void rli_table_row_dispose(rli_table_row *row);
/* The column named text, or -1. */
int rli_table_column(const rli_table_sink *sink, const char *text, size_t length);

/*
 * A failure "<path>: line N: <what>" in the unit's failures: the reader stops at the first, as
 * one bad row in a table written by --export says the file is not what it claims to be.
 */
void rli_table_fail(rli_unit *unit, uint64_t line, const char *fmt, ...) RLI_PRINTF(3, 4);

/* What both readers keep: where the rows go, the row being assembled, the line being read. */
typedef struct {
	rli_unit *unit;
	const rli_table_sink *sink;
	rli_table_row row;
	uint64_t line; /* 1-based */
	char *failure; /* the byte source's, when its read failed */
} rli_table_reader;

void rli_table_reader_init(rli_table_reader *reader, rli_unit *unit, const rli_table_sink *sink);

/*
 * What a reader's stream came to, into the unit: an empty file or a read failure is its failure.
 * Returns RLI_OK, or RLI_ERROR when the read or the reader (oom) ran out of memory.
 */
int rli_table_read_end(rli_table_reader *reader, rli_bytes *source, rli_read_result result, int oom);

#endif

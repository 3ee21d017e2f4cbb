/* table_csv.c: an exported table's CSV (rl_events.csv, memory_events.csv) streamed through libcsv, a row of named fields at a time. */
#include "table_read.h"
#include "json_stream.h"

#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest field held: the bound operator_memory.csv and JSON values have (json_stream.h). */
#define CSV_FIELD_MAX RLI_JSON_MAX_VALUE

typedef struct {
	struct csv_parser parser;
	rli_table_reader r;
	int bom_checked, header_done, stop, oom;
	signed char *field_column; /* header field -> column, -1 for fields not read */
	size_t field_count;        /* fields in the header */
	uint64_t present;          /* the columns the header has, bits */
	size_t field;              /* the next field of the record being read */
} csv_table;

static void header_field(csv_table *t, const char *text, size_t length)
{
	signed char *grown = realloc(t->field_column, t->field_count + 1);
	int column = rli_table_column(t->r.sink, text, length);
	if (!grown) {
		t->oom = t->stop = 1;
		return;
	}
	t->field_column = grown;
	/* A repeated name: the last one counts, as pandas keeps the last of duplicate labels' values. */
	if (column >= 0)
		for (size_t f = 0; f < t->field_count; f++)
			if (t->field_column[f] == column)
				t->field_column[f] = -1;
	t->field_column[t->field_count++] = (signed char)column;
	if (column >= 0)
		t->present |= (uint64_t)1 << column;
}

static void on_field(void *data, size_t length, void *ctx)
{
	csv_table *t = ctx;
	size_t field = t->field++;
	const char *text = data ? data : "";
	int column;
	if (t->stop)
		return;
	if (!t->header_done) {
		header_field(t, text, length);
		return;
	}
	if (field >= t->field_count || (column = t->field_column[field]) < 0)
		return;
	if (rli_table_row_set(&t->r.row, (size_t)column, RLI_FIELD_CSV, text, length) < 0)
		t->oom = t->stop = 1;
}

static void header_done(csv_table *t)
{
	char list[512];
	t->header_done = 1;
	if (rli_missing_keys(list, sizeof(list), t->r.sink->columns, t->r.sink->required, t->present)) {
		rli_table_fail(t->r.unit, 1, "missing columns: %s", list);
		t->stop = 1;
	}
}

static void on_row_end(int terminator, void *ctx)
{
	csv_table *t = ctx;
	size_t fields = t->field;
	uint64_t line = t->r.line;
	t->field = 0;
	/* libcsv reports every line break (CSV_REPALL_NL): a blank line is a record without fields. */
	if (terminator == '\n')
		t->r.line++;
	if (fields == 0 || t->stop)
		return;
	if (!t->header_done) {
		header_done(t);
	} else if (fields < t->field_count) {
		rli_table_fail(t->r.unit, line, "%zu fields where the header has %zu", fields, t->field_count);
		t->stop = 1;
	} else if (t->r.sink->row(t->r.sink->ctx, line, rli_table_row_fields(&t->r.row, t->r.sink->count)) != 0) {
		t->stop = 1;
	}
	rli_table_row_clear(&t->r.row, t->r.sink->count);
}

static int feed(void *ctx, const unsigned char *data, size_t length)
{
	csv_table *t = ctx;
	int nul;
	size_t text = rli_csv_text(&data, length, &t->bom_checked, &nul);
	if (csv_parse(&t->parser, data, text, on_field, on_row_end, t) != text) {
		if (csv_error(&t->parser) == CSV_ENOMEM || csv_error(&t->parser) == CSV_ETOOBIG) {
			t->oom = 1;
			return 1;
		}
		rli_table_fail(t->r.unit, t->r.line, "a quote character out of place");
		return 1;
	}
	if (csv_get_buffer_size(&t->parser) > CSV_FIELD_MAX) {
		rli_table_fail(t->r.unit, t->r.line, "a single field longer than %u MiB", (unsigned)(CSV_FIELD_MAX >> 20));
		return 1;
	}
	/* libcsv grows its buffer 128 bytes a time: a block as large as the buffer makes it double. */
	if (csv_get_buffer_size(&t->parser) > 128)
		csv_set_blk_size(&t->parser, csv_get_buffer_size(&t->parser));
	if (nul && !t->stop) {
		rli_table_fail(t->r.unit, t->r.line, "a NUL byte (not CSV text)");
		return 1;
	}
	return t->stop;
}

int rli_table_read_csv(rli_unit *unit, rli_bytes *source, const rli_table_sink *sink)
{
	csv_table t;
	rli_read_result result;
	int error;

	memset(&t, 0, sizeof(t));
	rli_table_reader_init(&t.r, unit, sink);
	if (csv_init(&t.parser, CSV_STRICT | CSV_REPALL_NL | CSV_STRICT_FINI) != 0)
		return rli_error_oom();
	rli_bytes_set_content(source, "CSV");
	result = rli_bytes_stream(source, feed, &t, &t.r.failure);
	if (result == RLI_READ_OK && !unit->failures.count && !t.oom &&
	    csv_fini(&t.parser, on_field, on_row_end, &t) != 0) {
		if (csv_error(&t.parser) == CSV_EPARSE)
			rli_table_fail(unit, t.r.line, "a quoted field is not closed");
		else
			t.oom = 1;
	}
	csv_free(&t.parser);
	if (result == RLI_READ_OK && !t.oom && !t.header_done && !unit->failures.count)
		header_done(&t); /* only blank lines: every column is missing */
	error = rli_table_read_end(&t.r, source, result, t.oom);
	free(t.field_column);
	return error;
}

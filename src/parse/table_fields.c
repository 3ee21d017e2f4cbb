/* table_fields.c: the fields of an exported table's row as values (numbers, integers, clean text), and a table file read by its name. */
#include "table_read.h"
#include "json_stream.h"

#include <stdlib.h>

int rli_field_not_a(rli_field_reader *r, uint64_t line, size_t column, const rli_table_field *field, const char *what)
{
	int shown = field->length > 40 ? 40 : (int)field->length;
	/* A JSON string of digits reads as a number to the eye: say it is quoted. */
	rli_table_fail(r->unit, line, "%s is not %s: %s'%.*s%s'", r->sink->columns[column], what,
		       field->kind == RLI_FIELD_TEXT ? "the string " : "", shown, field->text,
		       field->length > 40 ? "..." : "");
	return -1;
}

/* rli_field_number with real, rli_field_integer with real NULL. */
static int numeric(rli_field_reader *r, uint64_t line, const rli_table_field *fields, size_t column, double *real,
		   int64_t *whole)
{
	const rli_table_field *field = &fields[column];
	int typed = field->kind == RLI_FIELD_CSV || field->kind == RLI_FIELD_NUMBER;
	if (real && (!typed || rli_text_to_double(real, field->text, field->length) < 0))
		return rli_field_not_a(r, line, column, field, "a finite number");
	if (!real && (!typed || rli_text_to_int64(whole, field->text, field->length) < 0))
		return rli_field_not_a(r, line, column, field, "an integer");
	return 0;
}

int rli_field_number(rli_field_reader *r, uint64_t line, const rli_table_field *fields, size_t column, double *out)
{
	return numeric(r, line, fields, column, out, NULL);
}

int rli_field_integer(rli_field_reader *r, uint64_t line, const rli_table_field *fields, size_t column, int64_t *out)
{
	return numeric(r, line, fields, column, NULL, out);
}

const char *rli_field_text(rli_field_reader *r, uint64_t line, const rli_table_field *fields, size_t column, size_t *length)
{
	const rli_table_field *field = &fields[column];
	if (field->kind != RLI_FIELD_CSV && field->kind != RLI_FIELD_TEXT) {
		rli_field_not_a(r, line, column, field, "a string");
		return NULL;
	}
	*length = field->length;
	if (rli_text_clean_length(field->text, field->length) == field->length)
		return field->text;
	if (!(r->clean[column] = rli_text_copy(field->text, field->length, length)))
		r->unit->status = RLI_ERROR;
	return r->clean[column];
}

void rli_field_reader_done(rli_field_reader *r)
{
	for (size_t c = 0; c < sizeof(r->clean) / sizeof(r->clean[0]); c++) {
		free(r->clean[c]);
		r->clean[c] = NULL;
	}
}

void rli_table_read(rli_unit *unit, rli_bytes *source, const rli_table_sink *sink)
{
	int jsonl = rli_ends_with(unit->path, ".jsonl");
	if ((jsonl ? rli_table_read_jsonl : rli_table_read_csv)(unit, source, sink) < 0)
		unit->status = RLI_ERROR;
	if (unit->log.oom || unit->failures.oom)
		unit->status = RLI_ERROR;
}


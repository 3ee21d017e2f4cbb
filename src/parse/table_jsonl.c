/* table_jsonl.c: an exported table's JSONL (rl_events.jsonl, memory_events.jsonl) streamed through yajl, one JSON object a line. */
#include "table_read.h"
#include "json_stream.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	rli_json json;
	rli_table_reader r;
	int column;         /* the column of the key just read, -1 for keys not read */
	unsigned objects;   /* rows begun on this line */
	uint64_t present;   /* the columns the row being read has, bits */
	int stopped, oom;   /* the sink or a failure stopped the read */
} jsonl_table;

/* A value: at the top level none but an object belongs there; as a row's field, kept when its column is read. */
static int value(jsonl_table *t, rli_field_kind kind, const char *text, size_t length)
{
	if (t->json.depth == 0)
		return rli_json_stop(&t->json, "a line that holds no JSON object");
	if (t->json.depth != 1 || t->column < 0)
		return 1;
	t->present |= (uint64_t)1 << t->column;
	if (rli_table_row_set(&t->r.row, (size_t)t->column, kind, text, length) < 0) {
		t->oom = 1;
		return rli_json_halt(&t->json);
	}
	return 1;
}

static int on_null(void *ctx)
{
	return value(ctx, RLI_FIELD_OTHER, "null", 4);
}

static int on_boolean(void *ctx, int boolean)
{
	return value(ctx, RLI_FIELD_OTHER, boolean ? "true" : "false", boolean ? 4 : 5);
}

static int on_number(void *ctx, const char *text, size_t length)
{
	return value(ctx, RLI_FIELD_NUMBER, text, length);
}

static int on_string(void *ctx, const unsigned char *text, size_t length)
{
	return value(ctx, RLI_FIELD_TEXT, (const char *)text, length);
}

/* An object or array as a field's value, or deeper: the field (if read) is no text or number. */
static int open_nested(jsonl_table *t)
{
	if (t->json.depth == 1 && value(t, RLI_FIELD_OTHER, "", 0) == 0)
		return 0;
	return rli_json_enter(&t->json);
}

static int on_start_map(void *ctx)
{
	jsonl_table *t = ctx;
	if (t->json.depth > 0)
		return open_nested(t);
	if (++t->objects > 1)
		return rli_json_stop(&t->json, "a second JSON value on the line");
	t->present = 0;
	t->column = -1;
	rli_table_row_clear(&t->r.row, t->r.sink->count);
	return rli_json_enter(&t->json);
}

static int on_map_key(void *ctx, const unsigned char *key, size_t length)
{
	jsonl_table *t = ctx;
	if (t->json.depth == 1)
		t->column = rli_table_column(t->r.sink, (const char *)key, length);
	return 1;
}

static int on_end_map(void *ctx)
{
	jsonl_table *t = ctx;
	char list[512];
	rli_json_leave(&t->json);
	if (t->json.depth != 0)
		return 1;
	if (rli_missing_keys(list, sizeof(list), t->r.sink->columns, t->r.sink->required, t->present)) {
		rli_table_fail(t->r.unit, t->r.line, "missing keys: %s", list);
		t->stopped = 1;
		return rli_json_halt(&t->json);
	}
	if (t->r.sink->row(t->r.sink->ctx, t->r.line, rli_table_row_fields(&t->r.row, t->r.sink->count)) != 0) {
		t->stopped = 1;
		return rli_json_halt(&t->json);
	}
	return 1;
}

static int on_start_array(void *ctx)
{
	jsonl_table *t = ctx;
	if (t->json.depth == 0)
		return rli_json_stop(&t->json, "a line that holds no JSON object");
	return open_nested(t);
}

static int on_end_array(void *ctx)
{
	rli_json_leave(&((jsonl_table *)ctx)->json);
	return 1;
}

static const yajl_callbacks callbacks = {
	on_null, on_boolean, NULL, NULL, on_number, on_string,
	on_start_map, on_map_key, on_end_map, on_start_array, on_end_array,
};

/* A line's bytes (its newline included when it has one) through the parser. 0, or 1 to stop. */
static int feed_line(jsonl_table *t, const unsigned char *data, size_t length, int ends_line)
{
	if (rli_json_feed(&t->json, data, length) < 0) {
		if (t->stopped || t->oom)
			return 1;
		if (!t->json.message)
			t->oom = 1;
		else
			rli_notes_add(&t->r.unit->failures, RLI_LOG_ERROR, "Failed to parse JSON file %s: %s",
				      t->r.unit->path, t->json.message);
		return 1;
	}
	if (!ends_line)
		return 0;
	/* One object a line, whole: an object that goes on past its line is no JSON Lines. */
	if (t->json.depth != 0) {
		rli_table_fail(t->r.unit, t->r.line, "a JSON object that does not end on its line");
		return 1;
	}
	t->r.line++;
	t->objects = 0;
	return 0;
}

static int feed(void *ctx, const unsigned char *data, size_t length)
{
	jsonl_table *t = ctx;
	while (length) {
		const unsigned char *newline = memchr(data, '\n', length);
		size_t piece = newline ? (size_t)(newline - data) + 1 : length;
		if (feed_line(t, data, piece, newline != NULL))
			return 1;
		data += piece;
		length -= piece;
	}
	return 0;
}

int rli_table_read_jsonl(rli_unit *unit, rli_bytes *source, const rli_table_sink *sink)
{
	jsonl_table t;
	rli_read_result result;

	memset(&t, 0, sizeof(t));
	rli_table_reader_init(&t.r, unit, sink);
	t.column = -1;
	if (rli_json_open(&t.json, &callbacks, &t, 1) < 0)
		return RLI_ERROR;
	yajl_config(t.json.handle, yajl_allow_multiple_values, 1);
	rli_bytes_set_content(source, "JSON");
	result = rli_bytes_stream(source, feed, &t, &t.r.failure);
	if (result == RLI_READ_OK && !unit->failures.count && !t.oom && !t.stopped) {
		if (rli_json_finish(&t.json) < 0) {
			if (!t.json.message)
				t.oom = 1;
			else if (!t.stopped) /* else the row or the sink said why */
				rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Failed to parse JSON file %s: %s",
					      unit->path, t.json.message);
		} else if (t.json.depth != 0) {
			rli_table_fail(unit, t.r.line, "a JSON object that does not end on its line");
		}
	}
	rli_json_close(&t.json);
	/* An empty JSONL table is a table of no rows: what --export writes for one (a shard's, say). */
	if (result == RLI_READ_EMPTY)
		result = RLI_READ_OK;
	return rli_table_read_end(&t.r, source, result, t.oom);
}

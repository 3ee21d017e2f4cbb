/* table_rows.c: the rows of the exported tables read back: rl_events into the event table, memory_events into a memory table. */
#include "table_read.h"
#include "format.h"
#include "json_stream.h"
#include "memory_internal.h"
#include "common/grow.h"
#include "common/strutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the row buffer both readers fill ---------------------------------------- */

void rli_table_row_clear(rli_table_row *row, size_t columns)
{
	row->used = 0;
	for (size_t c = 0; c < columns; c++)
		row->fields[c].kind = RLI_FIELD_ABSENT;
}

int rli_table_row_set(rli_table_row *row, size_t column, rli_field_kind kind, const char *text, size_t length)
{
	/* NUL-terminated, so that a clean text can be handed on as a C string without a copy. */
	if (length >= (size_t)-1 - row->used ||
	    RLI_GROW(&row->bytes, &row->capacity, row->used + length + 1, 256) < 0)
		return RLI_ERROR;
	if (length)
		memcpy(row->bytes + row->used, text, length);
	row->bytes[row->used + length] = '\0';
	row->offset[column] = row->used;
	row->fields[column].kind = kind;
	row->fields[column].length = length;
	row->used += length + 1;
	return RLI_OK;
}

const rli_table_field *rli_table_row_fields(rli_table_row *row, size_t columns)
{
	for (size_t c = 0; c < columns; c++)
		row->fields[c].text = row->fields[c].kind == RLI_FIELD_ABSENT ? "" : row->bytes + row->offset[c];
	return row->fields;
}

void rli_table_row_dispose(rli_table_row *row)
{
	free(row->bytes);
	row->bytes = NULL;
	row->capacity = row->used = 0;
}

int rli_table_column(const rli_table_sink *sink, const char *text, size_t length)
{
	for (size_t c = 0; c < sink->count; c++)
		if (strlen(sink->columns[c]) == length && memcmp(sink->columns[c], text, length) == 0)
			return (int)c;
	return -1;
}

void rli_table_fail(rli_unit *unit, uint64_t line, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s: line %llu: %s", unit->path, (unsigned long long)line,
		      what);
	if (unit->failures.oom)
		unit->status = RLI_ERROR;
}

void rli_table_reader_init(rli_table_reader *reader, rli_unit *unit, const rli_table_sink *sink)
{
	memset(reader, 0, sizeof(*reader));
	reader->unit = unit;
	reader->sink = sink;
	reader->line = 1;
	rli_table_row_clear(&reader->row, sink->count);
}

int rli_table_read_end(rli_table_reader *reader, rli_bytes *source, rli_read_result result, int oom)
{
	rli_notes *failures = &reader->unit->failures;
	int error = RLI_OK;
	if (result == RLI_READ_OOM || oom)
		error = rli_error_oom();
	else if (result == RLI_READ_EMPTY)
		rli_notes_add(failures, RLI_LOG_ERROR, "File is empty: %s", rli_bytes_name(source));
	else if (result == RLI_READ_FAILED)
		rli_notes_add(failures, RLI_LOG_ERROR, "%s", reader->failure);
	free(reader->failure);
	reader->failure = NULL;
	rli_table_row_dispose(&reader->row);
	return error;
}

/* ---- rl_events ------------------------------------------------------------------- */

/* The columns export.c writes (timeline.md §2.1); end_time_ms is checked, duration_ms is what counts. */
static const char *const event_columns[] = {
	"name", "role", "domain", "start_time_ms", "end_time_ms", "duration_ms", "rank_id", "tid",
};
enum { EV_NAME, EV_ROLE, EV_DOMAIN, EV_START, EV_END, EV_DURATION, EV_RANK, EV_TID, EV_COUNT };

typedef struct {
	rli_field_reader reader;
	rli_events *rows;
} event_reader;

/*
 * A tid keeps the type the export gave it: a JSON string is text, a JSON number is not. CSV has
 * no types: a tid that is an integer reads back as a number (what MSTX and torch tids are).
 */
static int tid_is_text(const rli_table_field *tid)
{
	int64_t ignored;
	if (tid->kind != RLI_FIELD_CSV)
		return tid->kind == RLI_FIELD_TEXT;
	return rli_text_to_int64(&ignored, tid->text, tid->length) < 0;
}

static int event_row(void *ctx, uint64_t line, const rli_table_field *fields)
{
	event_reader *e = ctx;
	rli_field_reader *r = &e->reader;
	rli_event_in row;
	double end;
	size_t length;
	int error = -1;

	memset(&row, 0, sizeof(row));
	if (!(row.name = rli_field_text(r, line, fields, EV_NAME, &length)) || !(row.role = rli_field_text(r, line, fields, EV_ROLE, &length)) ||
	    !(row.domain = rli_field_text(r, line, fields, EV_DOMAIN, &length)) || rli_field_number(r, line, fields, EV_START, &row.start_ms) < 0 ||
	    rli_field_number(r, line, fields, EV_END, &end) < 0 || rli_field_number(r, line, fields, EV_DURATION, &row.duration_ms) < 0 ||
	    rli_field_integer(r, line, fields, EV_RANK, &row.rank_id) < 0)
		goto done;
	if (fields[EV_TID].kind == RLI_FIELD_NUMBER)
		row.tid = fields[EV_TID].text; /* a JSON number, as written */
	else if (!(row.tid = rli_field_text(r, line, fields, EV_TID, &length)))
		goto done;
	row.tid_is_text = tid_is_text(&fields[EV_TID]);
	if (!isfinite(row.start_ms + row.duration_ms)) {
		rli_table_fail(r->unit, line, "start_time_ms + duration_ms is too large for a double");
		goto done;
	}
	if (rli_events_append(e->rows, &row) < 0) {
		r->unit->status = RLI_ERROR;
		goto done;
	}
	error = 0;
done:
	rli_field_reader_done(r);
	return error;
}

void rli_table_parse_events(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	event_reader e = { { unit, NULL, { NULL } }, rows };
	rli_table_sink sink = { "rl_events", event_columns, EV_COUNT, EV_COUNT, event_row, &e };
	size_t first = rows->count;
	e.reader.sink = &sink;
	rli_table_read(unit, source, &sink);
	if (unit->failures.count || unit->status != RLI_OK)
		rli_events_truncate(rows, first);
}

/* ---- memory_events ----------------------------------------------------------------- */

/*
 * rli_memory_export's columns (memory_export.c): the reference's twelve, then ours, which a
 * table written before they were (or by hand) may lack: then a duration of 0 reads back as a
 * block never released, and a call stack (a PyTorch row: an operator's name) as found inside
 * its operator.
 */
static const char *const memory_columns[] = {
	"name",        "role",          "rank_id",           "call_stack",        "call_stack_top",
	"size_kb",     "start_time_ms", "duration_ms",       "total_allocated_mb", "total_reserved_mb",
	"total_active_mb", "device_type", "released",        "match",             "match_gap_ms",
	"release_total_allocated_mb", "allocator",
};
enum {
	MEM_NAME, MEM_ROLE, MEM_RANK, MEM_STACK, MEM_TOP, MEM_SIZE, MEM_START, MEM_DURATION, MEM_ALLOCATED,
	MEM_RESERVED, MEM_ACTIVE, MEM_DEVICE, MEM_REQUIRED, MEM_RELEASED = MEM_REQUIRED, MEM_MATCH, MEM_GAP,
	MEM_RELEASE_ALLOCATED, MEM_ALLOCATOR, MEM_COUNT
};

typedef struct {
	rli_field_reader reader;
	rli_memory *table;
} memory_reader;

/*
 * PyTorch traces' devices ("CUDA:0", "HIP:0", "CPU:0"); Ascend's are "NPU:<id>", which a torch_npu
 * trace's are too: those read back as Ascend rows, whose tables always carry the match column.
 */
static int torch_device(const char *device)
{
	return strncmp(device, "CUDA:", 5) == 0 || strncmp(device, "HIP:", 4) == 0 || strncmp(device, "CPU:", 4) == 0;
}

/* A string column interned in the table; RLI_STRPOOL_NONE when it failed (said) or out of memory. */
static uint32_t intern(memory_reader *m, uint64_t line, const rli_table_field *fields, size_t column)
{
	size_t length;
	const char *value = rli_field_text(&m->reader, line, fields, column, &length);
	uint32_t id = value ? rli_memory_intern(m->table, value, length) : RLI_STRPOOL_NONE;
	if (value && id == RLI_STRPOOL_NONE)
		m->reader.unit->status = RLI_ERROR;
	return id;
}

/* The names match takes (rli_memory_export writes them). */
static const char *const match_names[] = { "none", "inside", "after_end" };

/*
 * Whether the block was released and how the row found its call stack: from the columns that
 * say so, or, where a table lacks them, from what the others imply (see memory_columns).
 */
static int how_found(rli_field_reader *r, uint64_t line, const rli_table_field *fields, rli_memory_in *row,
		     const rli_memory *table, int torch)
{
	const rli_table_field *match = &fields[MEM_MATCH];
	int64_t released;

	if (fields[MEM_RELEASED].kind == RLI_FIELD_ABSENT) {
		/* The export writes 0 for a block never released (memory.md §2.3). */
		row->released = row->duration_ms != 0;
	} else if (rli_field_integer(r, line, fields, MEM_RELEASED, &released) < 0) {
		return -1;
	} else if (released != 0 && released != 1) {
		rli_table_fail(r->unit, line, "released is %lld, not 0 or 1", (long long)released);
		return -1;
	} else {
		row->released = (int)released;
	}
	if (match->kind == RLI_FIELD_ABSENT) {
		if (torch)
			row->match = strcmp(rli_strpool_get(&table->strings, row->name), "[memory]") != 0
					     ? RLI_MEMORY_INSIDE : RLI_MEMORY_UNMATCHED;
		else
			row->match = row->call_stack != table->empty ? RLI_MEMORY_INSIDE : RLI_MEMORY_UNMATCHED;
	} else {
		size_t k = 0;
		if (match->kind != RLI_FIELD_CSV && match->kind != RLI_FIELD_TEXT)
			k = 3;
		while (k < 3 && !(strlen(match_names[k]) == match->length &&
				  memcmp(match_names[k], match->text, match->length) == 0))
			k++;
		if (k == 3) {
			rli_table_fail(r->unit, line, "match is not one of none, inside, after_end");
			return -1;
		}
		row->match = (rli_memory_match)k;
	}
	if (fields[MEM_GAP].kind != RLI_FIELD_ABSENT && rli_field_number(r, line, fields, MEM_GAP, &row->gap_ms) < 0)
		return -1;
	/* Whose count the totals are: GE's apart from the PTA caching allocator's (memory_export.c). */
	if (fields[MEM_ALLOCATOR].kind != RLI_FIELD_ABSENT) {
		size_t length;
		const char *name = rli_field_text(r, line, fields, MEM_ALLOCATOR, &length);
		if (!name)
			return -1;
		if (!((length == 3 && memcmp(name, "PTA", 3) == 0) || (length == 2 && memcmp(name, "GE", 2) == 0))) {
			rli_table_fail(r->unit, line, "allocator is not PTA or GE");
			return -1;
		}
		row->second_pool = length == 2;
	}
	/* The allocator's total after the release: empty (null) for a block not released, or unknown. */
	row->release_allocated_mb = NAN;
	if (fields[MEM_RELEASE_ALLOCATED].kind == RLI_FIELD_OTHER ||
	    (fields[MEM_RELEASE_ALLOCATED].kind == RLI_FIELD_CSV && fields[MEM_RELEASE_ALLOCATED].length == 0))
		return 0;
	if (fields[MEM_RELEASE_ALLOCATED].kind != RLI_FIELD_ABSENT &&
	    rli_field_number(r, line, fields, MEM_RELEASE_ALLOCATED, &row->release_allocated_mb) < 0)
		return -1;
	if (row->release_allocated_mb < 0) {
		rli_table_fail(r->unit, line, "release_total_allocated_mb is negative");
		return -1;
	}
	return 0;
}

static int memory_row(void *ctx, uint64_t line, const rli_table_field *fields)
{
	memory_reader *m = ctx;
	rli_field_reader *r = &m->reader;
	rli_unit *unit = r->unit;
	rli_memory_in row;
	const char *device;
	int error = -1;

	memset(&row, 0, sizeof(row));
	if ((row.name = intern(m, line, fields, MEM_NAME)) == RLI_STRPOOL_NONE ||
	    (row.role = intern(m, line, fields, MEM_ROLE)) == RLI_STRPOOL_NONE ||
	    rli_field_integer(r, line, fields, MEM_RANK, &row.rank_id) < 0 ||
	    (row.call_stack = intern(m, line, fields, MEM_STACK)) == RLI_STRPOOL_NONE ||
	    (row.call_stack_top = intern(m, line, fields, MEM_TOP)) == RLI_STRPOOL_NONE ||
	    rli_field_number(r, line, fields, MEM_SIZE, &row.size_kb) < 0 || rli_field_number(r, line, fields, MEM_START, &row.start_ms) < 0 ||
	    rli_field_number(r, line, fields, MEM_DURATION, &row.duration_ms) < 0 ||
	    rli_field_number(r, line, fields, MEM_ALLOCATED, &row.allocated_mb) < 0 ||
	    rli_field_number(r, line, fields, MEM_RESERVED, &row.reserved_mb) < 0 ||
	    rli_field_number(r, line, fields, MEM_ACTIVE, &row.active_mb) < 0 ||
	    (row.device_type = intern(m, line, fields, MEM_DEVICE)) == RLI_STRPOOL_NONE)
		goto done;
	if (row.duration_ms < 0 || !isfinite(row.start_ms + row.duration_ms)) {
		rli_table_fail(unit, line, "duration_ms is negative or ends past what a double holds");
		goto done;
	}
	/* No allocator counts below 0 bytes: the export never writes one (the parsers take it as unknown). */
	if (row.allocated_mb < 0) {
		rli_table_fail(unit, line, "total_allocated_mb is negative");
		goto done;
	}
	error = 0;
	if ((unit->keep_ranks && !rli_rank_filter_keeps(unit->keep_ranks, row.rank_id)) ||
	    (unit->keep_roles && !rli_role_filter_keeps(unit->keep_roles, rli_strpool_get(&m->table->strings, row.role))))
		goto done;
	device = rli_strpool_get(&m->table->strings, row.device_type);
	if (torch_device(device)) {
		m->table->shows_reserved = 1;
		/* Total Allocated after each event, as the trace wrote it: the curve follows it. */
		if (row.size_kb > 0 && row.allocated_mb > 0)
			m->table->totals = RLI_MEMORY_TOTALS_EVENTS;
	} else if (fields[MEM_RELEASE_ALLOCATED].kind != RLI_FIELD_ABSENT) {
		m->table->totals = RLI_MEMORY_TOTALS_ROWS; /* the export writes the column only then */
	}
	if (how_found(r, line, fields, &row, m->table, torch_device(device)) < 0) {
		error = -1;
		goto done;
	}
	if (rli_memory_append(m->table, &row) < 0) {
		unit->status = RLI_ERROR;
		error = -1;
	}
done:
	rli_field_reader_done(r);
	return error;
}

/* ---- memory_reserved: a device file's reserve, exported beside the rows (memory_export.c) ---- */

static const char *const reserve_columns[] = { "role", "rank_id", "device_type", "time_ms", "total_reserved_mb" };
enum { RES_ROLE, RES_RANK, RES_DEVICE, RES_TIME, RES_RESERVED, RES_COUNT };

static int reserve_row(void *ctx, uint64_t line, const rli_table_field *fields)
{
	memory_reader *m = ctx;
	rli_field_reader *r = &m->reader;
	rli_unit *unit = r->unit;
	uint32_t role, device;
	int64_t rank;
	double ms, mb;
	int error = -1;

	if ((role = intern(m, line, fields, RES_ROLE)) == RLI_STRPOOL_NONE ||
	    rli_field_integer(r, line, fields, RES_RANK, &rank) < 0 ||
	    (device = intern(m, line, fields, RES_DEVICE)) == RLI_STRPOOL_NONE ||
	    rli_field_number(r, line, fields, RES_TIME, &ms) < 0 || rli_field_number(r, line, fields, RES_RESERVED, &mb) < 0)
		goto done;
	error = 0;
	if ((unit->keep_ranks && !rli_rank_filter_keeps(unit->keep_ranks, rank)) ||
	    (unit->keep_roles && !rli_role_filter_keeps(unit->keep_roles, rli_strpool_get(&m->table->strings, role))))
		goto done;
	if (rli_memory_add_reserve(m->table, role, rank, device, ms, mb) < 0) {
		unit->status = RLI_ERROR;
		error = -1;
	}
done:
	rli_field_reader_done(r);
	return error;
}

/*
 * memory_reserved.csv|jsonl beside the rows' file, when the export wrote one: read under its own
 * name (its failures name it), as the rows' file is read.
 */
static void read_reserve(rli_unit *unit, rli_memory *table)
{
	const char *slash = strrchr(unit->path, '/'), *dot = strrchr(unit->path, '.');
	memory_reader m = { { unit, NULL, { NULL } }, table };
	rli_table_sink sink = { "memory_reserved", reserve_columns, RES_COUNT, RES_COUNT, reserve_row, &m };
	char *rows_path = unit->path, *path;
	rli_bytes *source;
	struct stat st;

	if (!dot || (slash && dot < slash))
		return;
	if (!(path = rli_strfmt("%.*smemory_reserved%s", slash ? (int)(slash - unit->path + 1) : 0, unit->path, dot))) {
		unit->status = RLI_ERROR;
		return;
	}
	m.reader.sink = &sink;
	if (stat(path, &st) == 0 && (source = rli_unit_open(unit, path))) {
		unit->path = path;
		rli_table_read(unit, source, &sink);
		unit->path = rows_path;
		rli_bytes_close(source);
	}
	free(path);
}

void rli_table_parse_memory(rli_unit *unit, rli_bytes *source)
{
	memory_reader m = { { unit, NULL, { NULL } }, NULL };
	rli_table_sink sink = { "memory_events", memory_columns, MEM_COUNT, MEM_REQUIRED, memory_row, &m };
	m.reader.sink = &sink;
	if (rli_memory_new(&m.table) < 0) {
		unit->status = RLI_ERROR;
		return;
	}
	rli_table_read(unit, source, &sink);
	if (unit->failures.count == 0 && unit->status == RLI_OK && !m.table->shows_reserved)
		read_reserve(unit, m.table);
	if (unit->failures.count || unit->status != RLI_OK) {
		rli_memory_free(m.table);
		return;
	}
	unit->memory = m.table;
}

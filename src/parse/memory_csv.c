/* memory_csv.c: operator_memory.csv streamed through libcsv, one memory row per data row, each with its call stack. */
#include "memory_csv.h"
#include "common/shortest_double.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const column_names[COL_COUNT] = {
	"Name", "Size(KB)", "Allocation Time(us)", "Duration(us)", "Allocation Total Allocated(MB)",
	"Allocation Total Reserved(MB)", "Allocation Total Active(MB)", "Device Type", "Release Total Allocated(MB)",
	"Stream Ptr"};

/*
 * Columns a capture may lack: the 2023 exports (ten columns) have no Active ones, and the
 * allocator's total after a release only draws the curve where it is there. The reference
 * refuses a CSV without Allocation Total Active(MB); nothing the drawing needs is in it.
 */
#define OPTIONAL_COLUMNS ((1u << COL_ACTIVE) | (1u << COL_RELEASE_ALLOCATED) | (1u << COL_STREAM))

static int ascii_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* The UTF-8 length of a Unicode space (as Python's str.strip sees it) starting at p, or 0. */
static size_t unicode_space_at(const unsigned char *p, size_t left)
{
	if (left >= 2 && p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0))
		return 2;
	if (left >= 3 && p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80)
		return 3;
	if (left >= 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] <= 0x8a || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf) && p[2] >= 0x80)
		return 3;
	if (left >= 3 && p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)
		return 3;
	if (left >= 3 && p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)
		return 3;
	return 0;
}

/* The last code point before end is a Unicode space: its length, or 0. */
static size_t unicode_space_before(const unsigned char *start, const unsigned char *end)
{
	for (size_t length = 2; length <= 3; length++)
		if ((size_t)(end - start) >= length && unicode_space_at(end - length, length) == length)
			return length;
	return 0;
}

/* Python's str.strip(): ASCII and Unicode white space off both ends. */
static void py_strip(const unsigned char **text, size_t *length)
{
	const unsigned char *p = *text, *end = *text + *length;
	for (;;) {
		size_t n;
		if (p < end && ascii_space(*p))
			p++;
		else if (p < end && *p >= 0x80 && (n = unicode_space_at(p, (size_t)(end - p))) > 0)
			p += n;
		else
			break;
	}
	for (;;) {
		size_t n;
		if (end > p && ascii_space(end[-1]))
			end--;
		else if (end > p && end[-1] >= 0x80 && (n = unicode_space_before(p, end)) > 0)
			end -= n;
		else
			break;
	}
	*text = p;
	*length = (size_t)(end - p);
}

static void note(finding *f, uint64_t line, int column, const unsigned char *text, size_t length)
{
	if (f->count++ > 0)
		return;
	f->line = line;
	f->column = column;
	if (length >= sizeof(f->text))
		length = sizeof(f->text) - 1;
	memcpy(f->text, text ? (const char *)text : "", length);
	f->text[length] = '\0';
}

/* ---- the header ----------------------------------------------------------- */

static void header_field(csv_ctx *c, const unsigned char *text, size_t length, size_t field)
{
	signed char *grown;
	if (field >= c->field_count) {
		grown = realloc(c->field_column, field + 1);
		if (!grown) {
			c->oom = c->stop = 1;
			return;
		}
		c->field_column = grown;
		c->field_count = field + 1;
	}
	c->field_column[field] = -1;
	for (int col = 0; col < COL_COUNT; col++) {
		if (strlen(column_names[col]) == length && memcmp(column_names[col], text, length) == 0) {
			/* A repeated name: the last one counts, as in a Python dict built from the row. */
			if (c->column_field[col] != SIZE_MAX)
				c->field_column[c->column_field[col]] = -1;
			c->column_field[col] = field;
			c->field_column[field] = (signed char)col;
		}
	}
}

static void header_done(csv_ctx *c)
{
	char list[512];
	uint64_t present = 0;
	c->header_done = 1;
	for (int col = 0; col < COL_COUNT; col++) {
		if (c->column_field[col] == SIZE_MAX)
			continue;
		present |= (uint64_t)1 << col;
		if (!(OPTIONAL_COLUMNS & (1u << col)) && c->column_field[col] + 1 > c->needed_fields)
			c->needed_fields = c->column_field[col] + 1;
	}
	if (rli_missing_keys(list, sizeof(list), column_names, COL_COUNT, present | OPTIONAL_COLUMNS)) {
		rli_notes_add(&c->unit->failures, RLI_LOG_ERROR,
			      "operator_memory.csv missing columns: [%s] in FilePath: %s", list, c->path);
		c->stop = 1; /* no row can be read without them */
		return;
	}
	/* The allocator's own count, before and after each block: the curve follows it (decisions.md, Memory). */
	if (present & (1u << COL_RELEASE_ALLOCATED))
		c->table->totals = RLI_MEMORY_TOTALS_ROWS;
}

/* ---- rows ----------------------------------------------------------------- */

static void read_value(csv_ctx *c, int col, const unsigned char *text, size_t length)
{
	py_strip(&text, &length);
	if (length == 0) {
		c->status[col] = VALUE_EMPTY;
		return;
	}
	c->status[col] = VALUE_OK;
	if (col == COL_STREAM)
		return; /* only whether there is one counts (a pointer, in whatever base) */
	if (col == COL_NAME || col == COL_DEVICE) {
		uint32_t *id = col == COL_NAME ? &c->name : &c->device;
		const rli_strpool *strings = &c->table->strings;
		/* Rows of one device, and runs of one operator: the row before's id, without hashing. */
		if (*id != RLI_STRPOOL_NONE && rli_strpool_length(strings, *id) == length &&
		    memcmp(rli_strpool_get(strings, *id), text, length) == 0)
			return;
		if (rli_text_clean_length((const char *)text, length) < length) {
			/* Bytes that are no UTF-8 would go into every output as they are: U+FFFD instead. */
			size_t clean_length;
			char *clean = rli_text_copy((const char *)text, length, &clean_length);
			*id = clean ? rli_memory_intern(c->table, clean, clean_length) : RLI_STRPOOL_NONE;
			free(clean);
		} else {
			*id = rli_memory_intern(c->table, (const char *)text, length);
		}
		if (*id == RLI_STRPOOL_NONE)
			c->oom = c->stop = 1;
		return;
	}
	/* Decimal numbers only: Python's float() also takes nan, inf and 1_000, which no profiler writes. */
	if (rli_text_to_double(&c->value[col], (const char *)text, length) < 0) {
		c->status[col] = VALUE_BAD;
		if (c->bad_column < 0) {
			c->bad_column = col;
			c->bad_length = length < sizeof(c->bad_text) ? length : sizeof(c->bad_text);
			memcpy(c->bad_text, text, c->bad_length);
		}
	}
}

static void on_field(void *data, size_t length, void *ctx)
{
	csv_ctx *c = ctx;
	size_t field = c->field++;
	const unsigned char *text = data;
	int col;
	if (c->stop)
		return;
	if (!c->header_done) {
		header_field(c, text, length, field);
		return;
	}
	if (field >= c->field_count || (col = c->field_column[field]) < 0)
		return;
	read_value(c, col, text, length);
}

/* The row's call stack, as the table's ids: the first time a stack is seen, it is interned. */
static int match_row(csv_ctx *c, rli_memory_in *row, double alloc_us)
{
	const rli_stack_op *op;
	uint32_t group;
	row->call_stack = row->call_stack_top = c->table->empty;
	row->match = RLI_MEMORY_UNMATCHED;
	row->gap_ms = 0;
	if (row->name >= c->group_capacity) {
		size_t grown = c->group_capacity ? c->group_capacity : 64;
		uint32_t *p;
		while (grown <= row->name)
			grown *= 2;
		if (!(p = realloc(c->group_of_name, grown * sizeof(*p))))
			return -1;
		for (size_t i = c->group_capacity; i < grown; i++)
			p[i] = GROUP_UNKNOWN;
		c->group_of_name = p;
		c->group_capacity = grown;
	}
	group = c->group_of_name[row->name];
	if (group == GROUP_UNKNOWN) {
		const rli_strpool *strings = &c->table->strings;
		group = rli_stack_index_group(c->index, rli_strpool_get(strings, row->name),
					      rli_strpool_length(strings, row->name));
		c->group_of_name[row->name] = group;
	}
	if (group >= c->index->names.count) /* no op of that name (RLI_STRPOOL_NONE too) */
		return 0;
	if (!(op = rli_stack_index_match(c->index, group, alloc_us, &c->hints[group])))
		return 0;
	if (c->stack_id[op->stack] == RLI_STRPOOL_NONE) {
		const char *stack = rli_strpool_get(&c->index->stacks, op->stack);
		size_t length = rli_strpool_length(&c->index->stacks, op->stack), top = length;
		/* The first frame: the text before the first ";\r\n" (memory.md §3.3). */
		for (const char *p = stack; (p = memchr(p, ';', length - (size_t)(p - stack))) != NULL; p++) {
			if ((size_t)(stack + length - p) >= 3 && p[1] == '\r' && p[2] == '\n') {
				top = (size_t)(p - stack);
				break;
			}
		}
		c->stack_id[op->stack] = rli_memory_intern(c->table, stack, length);
		c->top_id[op->stack] = rli_memory_intern(c->table, stack, top);
		if (c->stack_id[op->stack] == RLI_STRPOOL_NONE || c->top_id[op->stack] == RLI_STRPOOL_NONE)
			return -1;
	}
	row->call_stack = c->stack_id[op->stack];
	row->call_stack_top = c->top_id[op->stack];
	if (alloc_us <= op->ts + op->dur) {
		row->match = RLI_MEMORY_INSIDE;
	} else {
		row->match = RLI_MEMORY_AFTER_END;
		row->gap_ms = (alloc_us - (op->ts + op->dur)) / 1000;
	}
	return 0;
}

static void finish_row(csv_ctx *c, uint64_t line, size_t fields)
{
	rli_memory_in row;
	int ok = 1;
	c->data_rows++;
	if (fields < c->needed_fields) {
		note(&c->short_row, line, -1, NULL, 0);
		return;
	}
	if (c->status[COL_NAME] == VALUE_EMPTY) {
		note(&c->blank_name, line, COL_NAME, NULL, 0);
		ok = 0;
	}
	if (c->bad_column >= 0) {
		note(&c->bad_number, line, c->bad_column, c->bad_text, c->bad_length);
		ok = 0;
	}
	if (c->status[COL_DURATION] == VALUE_OK && c->value[COL_DURATION] < 0) {
		/* Released before it was allocated: drawn, it would look like a block never released. */
		note(&c->negative_duration, line, COL_DURATION, NULL, 0);
		if (c->negative_duration.count == 1)
			snprintf(c->negative_duration.text, sizeof(c->negative_duration.text), "%.17g",
				 c->value[COL_DURATION]);
		ok = 0;
	}
	if (c->status[COL_ALLOC] == VALUE_OK && c->status[COL_DURATION] == VALUE_OK &&
	    !isfinite(c->value[COL_ALLOC] + c->value[COL_DURATION])) {
		/* 1e308 + 1e308: a release time no double holds. */
		note(&c->end_overflow, line, COL_DURATION, NULL, 0);
		ok = 0;
	}
	if (c->status[COL_SIZE] == VALUE_EMPTY) {
		note(&c->empty_value, line, COL_SIZE, NULL, 0);
		ok = 0;
	} else if (c->status[COL_ALLOC] == VALUE_EMPTY && c->status[COL_SIZE] == VALUE_OK) {
		/* A free of a block allocated before the capture may have no time (Ascend's field notes). */
		if (c->value[COL_SIZE] < 0)
			note(&c->free_without_time, line, COL_ALLOC, NULL, 0);
		else
			note(&c->empty_value, line, COL_ALLOC, NULL, 0);
		ok = 0;
	}
	if (!ok || c->unit->failures.count)
		return; /* the capture fails: its rows are not kept, no need to match them */
	memset(&row, 0, sizeof(row));
	row.name = c->name;
	row.role = c->role;
	row.device_type = c->status[COL_DEVICE] == VALUE_OK ? c->device : c->table->empty;
	row.rank_id = c->unit->rank;
	row.size_kb = c->value[COL_SIZE];
	row.start_ms = c->value[COL_ALLOC] / 1000;
	/* Empty Duration: never released within the capture (0, as the reference writes it). */
	row.released = c->status[COL_DURATION] == VALUE_OK;
	row.duration_ms = row.released ? c->value[COL_DURATION] / 1000 : 0;
	row.allocated_mb = c->status[COL_ALLOCATED] == VALUE_OK ? c->value[COL_ALLOCATED] : 0;
	/* No allocator counts below 0 bytes: unknown, as an empty value is (0), which the curve passes over. */
	if (row.allocated_mb < 0) {
		note(&c->negative_total, line, COL_ALLOCATED, NULL, 0);
		if (c->negative_total.count == 1)
			rli_format_double(c->negative_total.text, row.allocated_mb); /* as short as it reads back: as written */
		row.allocated_mb = 0;
	}
	row.reserved_mb = c->status[COL_RESERVED] == VALUE_OK ? c->value[COL_RESERVED] : 0;
	row.active_mb = c->status[COL_ACTIVE] == VALUE_OK ? c->value[COL_ACTIVE] : 0;
	/* A short row of an optional column, or an empty one (never released): no total after a release. */
	row.release_allocated_mb = row.released && c->status[COL_RELEASE_ALLOCATED] == VALUE_OK
				   ? c->value[COL_RELEASE_ALLOCATED] : NAN;
	if (row.release_allocated_mb < 0) {
		note(&c->negative_release, line, COL_RELEASE_ALLOCATED, NULL, 0);
		if (c->negative_release.count == 1)
			rli_format_double(c->negative_release.text, row.release_allocated_mb);
		row.release_allocated_mb = NAN;
	}
	/* No Stream Ptr where the CSV has the column: the second allocator's (GE) row, its totals its own. */
	row.second_pool = c->column_field[COL_STREAM] != SIZE_MAX && c->status[COL_STREAM] != VALUE_OK;
	if (match_row(c, &row, c->value[COL_ALLOC]) < 0 || rli_memory_append(c->table, &row) < 0) {
		c->oom = c->stop = 1;
		return;
	}
	rli_memory_count_row(c->counts, row.size_kb, row.match, row.gap_ms);
}

static void on_row_end(int terminator, void *ctx)
{
	csv_ctx *c = ctx;
	size_t fields = c->field;
	uint64_t line = c->line;
	c->field = 0;
	/* libcsv reports every line break (CSV_REPALL_NL): a blank line is a record without fields. */
	if (terminator == '\n')
		c->line++;
	if (fields == 0 || c->stop)
		return;
	if (!c->header_done) {
		header_done(c);
		return;
	}
	finish_row(c, line, fields);
	memset(c->status, 0, sizeof(c->status));
	c->bad_column = -1;
}

/* The CSV is no CSV from here on: the failure said, nothing after it read. Returns 1 (stop the read). */
static int broken(csv_ctx *c, const char *why)
{
	rli_notes_add(&c->unit->failures, RLI_LOG_ERROR, "Failed to parse CSV file %s: %s at line %llu", c->path,
		      why, (unsigned long long)c->line);
	c->broken = 1;
	return 1;
}

int rli_csv_feed(void *ctx, const unsigned char *data, size_t length)
{
	csv_ctx *c = ctx;
	int nul;
	/* The byte order mark is not part of "Name"; the bytes before a NUL are read, to place it. */
	size_t text = rli_csv_text(&data, length, &c->bom_checked, &nul);
	if (csv_parse(&c->parser, data, text, on_field, on_row_end, c) != text) {
		if (csv_error(&c->parser) == CSV_ENOMEM || csv_error(&c->parser) == CSV_ETOOBIG) {
			c->oom = c->broken = 1;
			return 1;
		}
		return broken(c, "a quote character out of place");
	}
	/* libcsv holds the field being read whole: past the bound, it is refused rather than held. */
	if (csv_get_buffer_size(&c->parser) > CSV_FIELD_MAX) {
		char why[64];
		snprintf(why, sizeof(why), "a single field longer than %u MiB", (unsigned)(CSV_FIELD_MAX >> 20));
		return broken(c, why);
	}
	/*
	 * libcsv grows its field buffer by a fixed block (128 bytes) per realloc: a long field took
	 * a realloc, often a copy, every 128 bytes. A block as large as the buffer makes it double.
	 */
	if (csv_get_buffer_size(&c->parser) > CSV_BLOCK_MIN)
		csv_set_blk_size(&c->parser, csv_get_buffer_size(&c->parser));
	if (nul && !c->stop)
		return broken(c, "a NUL byte (not CSV text)");
	return c->stop;
}

/* What the whole file came to: the failures in the checker's order, then the warnings. */
void rli_csv_report(csv_ctx *c)
{
	rli_notes *failures = &c->unit->failures, *log = &c->unit->log;
	if (c->data_rows == 0)
		rli_notes_add(failures, RLI_LOG_ERROR, "operator_memory.csv has no data rows: %s", c->path);
	if (c->bad_number.count)
		rli_notes_add(failures, RLI_LOG_ERROR,
			      "operator_memory.csv has non-numeric value in numeric column: %s "
			      "(line %llu, %s: '%s')",
			      c->path, (unsigned long long)c->bad_number.line, column_names[c->bad_number.column],
			      c->bad_number.text);
	if (c->empty_value.count)
		rli_notes_add(failures, RLI_LOG_ERROR,
			      "operator_memory.csv has an empty value in a required column: %s (line %llu, %s)",
			      c->path, (unsigned long long)c->empty_value.line, column_names[c->empty_value.column]);
	if (c->blank_name.count)
		rli_notes_add(failures, RLI_LOG_ERROR,
			      "Column 'name' contains empty or NaN values in FilePath: %s (line %llu)", c->path,
			      (unsigned long long)c->blank_name.line);
	if (c->short_row.count)
		rli_notes_add(log, RLI_LOG_WARN,
			      "%s: %llu row(s) with fewer fields than the header skipped (the first at line %llu)",
			      c->path, (unsigned long long)c->short_row.count,
			      (unsigned long long)c->short_row.line);
	if (c->negative_duration.count)
		rli_notes_add(failures, RLI_LOG_ERROR,
			      "operator_memory.csv has a negative Duration(us), a block released before it was "
			      "allocated: %s (line %llu, Duration(us): %s)",
			      c->path, (unsigned long long)c->negative_duration.line, c->negative_duration.text);
	if (c->end_overflow.count)
		rli_notes_add(failures, RLI_LOG_ERROR,
			      "operator_memory.csv has an Allocation Time(us) + Duration(us) too large for a double: "
			      "%s (line %llu)",
			      c->path, (unsigned long long)c->end_overflow.line);
	if (c->negative_total.count)
		rli_notes_add(log, RLI_LOG_WARN,
			      "%s: %llu row(s) with a negative Allocation Total Allocated(MB) (the first at line %llu: "
			      "%s), taken as unknown", c->path, (unsigned long long)c->negative_total.count,
			      (unsigned long long)c->negative_total.line, c->negative_total.text);
	if (c->negative_release.count)
		rli_notes_add(log, RLI_LOG_WARN,
			      "%s: %llu row(s) with a negative Release Total Allocated(MB) (the first at line %llu: "
			      "%s), taken as unknown", c->path, (unsigned long long)c->negative_release.count,
			      (unsigned long long)c->negative_release.line, c->negative_release.text);
	if (c->free_without_time.count)
		rli_notes_add(log, RLI_LOG_WARN,
			      "%s: %llu free(s) without an Allocation Time(us) skipped (the first at line %llu)",
			      c->path, (unsigned long long)c->free_without_time.count,
			      (unsigned long long)c->free_without_time.line);
}

int rli_csv_open(csv_ctx *c, rli_memory *table, rli_unit *unit, const char *path, const rli_stack_index *index,
		 rli_memory_match_counts *counts)
{
	size_t stacks = index->stacks.count;
	memset(c, 0, sizeof(*c));
	c->table = table;
	c->unit = unit;
	c->path = path;
	c->index = index;
	c->line = 1;
	c->bad_column = -1;
	c->name = c->device = RLI_STRPOOL_NONE;
	c->counts = counts;
	memset(counts, 0, sizeof(*counts));
	for (int col = 0; col < COL_COUNT; col++)
		c->column_field[col] = SIZE_MAX;
	c->role = rli_memory_intern(table, unit->role ? unit->role : "", unit->role ? strlen(unit->role) : 0);
	c->stack_id = malloc((stacks ? stacks : 1) * sizeof(*c->stack_id));
	c->top_id = malloc((stacks ? stacks : 1) * sizeof(*c->top_id));
	c->hints = calloc(index->names.count ? index->names.count : 1, sizeof(*c->hints));
	/* Strict: a stray quote is an error, not silently part of a field; a quote left open at the end too. */
	if (c->role == RLI_STRPOOL_NONE || !c->stack_id || !c->top_id || !c->hints ||
	    csv_init(&c->parser, CSV_STRICT | CSV_REPALL_NL | CSV_STRICT_FINI) != 0) {
		free(c->stack_id);
		free(c->top_id);
		free(c->hints);
		c->stack_id = c->top_id = NULL;
		c->hints = NULL;
		return rli_error_oom();
	}
	c->parser_ready = 1;
	for (size_t i = 0; i < stacks; i++)
		c->stack_id[i] = c->top_id[i] = RLI_STRPOOL_NONE;
	return RLI_OK;
}

void rli_csv_end(csv_ctx *c)
{
	if (csv_fini(&c->parser, on_field, on_row_end, c) == 0)
		return;
	if (csv_error(&c->parser) == CSV_EPARSE)
		rli_notes_add(&c->unit->failures, RLI_LOG_ERROR,
			      "Failed to parse CSV file %s: a quoted field is not closed (it opens on line %llu)", c->path,
			      (unsigned long long)c->line);
	else
		c->oom = 1;
	c->broken = 1;
}

void rli_csv_close(csv_ctx *c)
{
	if (c->parser_ready)
		csv_free(&c->parser);
	free(c->field_column);
	free(c->group_of_name);
	free(c->stack_id);
	free(c->top_id);
	free(c->hints);
	memset(c, 0, sizeof(*c));
}

int rli_memory_read_csv(rli_memory *table, rli_unit *unit, rli_bytes *source, const rli_stack_index *index,
			rli_memory_match_counts *counts)
{
	const char *path = rli_bytes_name(source);
	csv_ctx c;
	char *failure = NULL;
	rli_read_result result = RLI_READ_OK;
	int error = RLI_OK, chunked = 0;

	if (rli_csv_open(&c, table, unit, path, index, counts) < 0)
		return RLI_ERROR;
	rli_bytes_set_content(source, "CSV");
	/* A large plain file, with threads to spare and nothing failed yet: read in chunks, else whole. */
	if (unit->spare_threads && unit->failures.count == 0 &&
	    (chunked = rli_csv_read_chunks(&c, source, unit->spare_threads + 1)) < 0) {
		error = rli_error_oom();
		goto done;
	}
	if (!chunked) {
		result = rli_bytes_stream(source, rli_csv_feed, &c, &failure);
		if (result == RLI_READ_OK)
			rli_csv_end(&c);
	}
	if (result == RLI_READ_OOM || c.oom) {
		error = rli_error_oom();
		goto done;
	}
	if (result == RLI_READ_EMPTY) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
		goto done;
	}
	if (result == RLI_READ_FAILED) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", failure);
		goto done;
	}
	if (c.broken)
		goto done;
	if (!c.header_done)
		header_done(&c); /* only blank lines: no header, so every column is missing */
	if (!c.stop)
		rli_csv_report(&c);
done:
	free(failure);
	rli_csv_close(&c);
	return error;
}

/* memory_export.c: the memory table as memory_events.csv or .jsonl, the reference's columns in its order, then ours. */
#include "common/output_set.h"
#include "common/csv_write.h"
#include "common/error.h"
#include "common/json_write.h"
#include "common/shortest_double.h"
#include "memory/memory_table.h"

#include <math.h>

/*
 * MemoryEventRow's keys, in the order the reference emits them (memory.md §2.3), then three of
 * ours: whether the block was released (a duration of 0 may be either), how its call stack was
 * found and how long after its operator ended. Read back (--profiler-type table), they make the
 * outputs those of the profiles themselves, match counts and all.
 */
static const char *const columns[] = {
	"name",        "role",          "rank_id",           "call_stack",        "call_stack_top",
	"size_kb",     "start_time_ms", "duration_ms",       "total_allocated_mb", "total_reserved_mb",
	"total_active_mb", "device_type", "released",        "match",             "match_gap_ms",
	"release_total_allocated_mb", "allocator",
};
/*
 * The last two columns are written only by a table whose rows carry the allocators' totals after
 * each release (RLI_MEMORY_TOTALS_ROWS, Ascend's Release Total Allocated), so that reading it back
 * knows the curve follows those totals: the total (empty, JSON null, for a block not released)
 * and whose count it is (PTA, or GE for a row without a Stream Ptr).
 */
#define TOTALS_COLUMN 15

/* rli_memory_match's names, as table_rows.c reads them. */
static const char *const match_names[] = { "none", "inside", "after_end" };
#define COLUMN_COUNT (sizeof(columns) / sizeof(columns[0]))

/* Where a table's rows go: the file, CSV or JSONL, and the names of its columns (JSONL's keys). */
typedef struct {
	FILE *fp;
	int jsonl;
	const char *const *names;
} table_writer;

/* A value's lead-in: the separator, and in JSONL the key. */
static void put_key(const table_writer *w, size_t column)
{
	if (w->jsonl)
		fprintf(w->fp, "%s\"%s\": ", column ? ", " : "{", w->names[column]);
	else if (column)
		putc(',', w->fp);
}

static void put_text(const table_writer *w, size_t column, const char *text)
{
	put_key(w, column);
	if (w->jsonl)
		rli_json_write_string(w->fp, text, RLI_JSON_PLAIN);
	else
		rli_csv_write_field(w->fp, text);
}

/* The shortest text that reads back as exactly this double. */
static void put_number(const table_writer *w, size_t column, double value)
{
	char buffer[RLI_DOUBLE_BUFSIZE];
	put_key(w, column);
	rli_format_double(buffer, value);
	fputs(buffer, w->fp);
}

static void put_integer(const table_writer *w, size_t column, long long value)
{
	put_key(w, column);
	fprintf(w->fp, "%lld", value);
}

/* The CSV's header line of the first `count` columns; JSONL has none. */
static void put_header(const table_writer *w, size_t count)
{
	if (w->jsonl)
		return;
	for (size_t c = 0; c < count; c++)
		fprintf(w->fp, "%s%s", c ? "," : "", w->names[c]);
	putc('\n', w->fp);
}

static void end_row(const table_writer *w)
{
	fputs(w->jsonl ? "}\n" : "\n", w->fp);
}

static void write_row(const table_writer *w, const rli_memory_row *row, int totals)
{
	put_text(w, 0, row->name);
	put_text(w, 1, row->role);
	put_integer(w, 2, (long long)row->rank_id);
	put_text(w, 3, row->call_stack);
	put_text(w, 4, row->call_stack_top);
	put_number(w, 5, row->size_kb);
	put_number(w, 6, row->start_time_ms);
	put_number(w, 7, row->duration_ms);
	put_number(w, 8, row->total_allocated_mb);
	put_number(w, 9, row->total_reserved_mb);
	put_number(w, 10, row->total_active_mb);
	put_text(w, 11, row->device_type);
	put_integer(w, 12, row->released ? 1 : 0);
	put_text(w, 13, match_names[row->match <= RLI_MEMORY_AFTER_END ? row->match : RLI_MEMORY_UNMATCHED]);
	put_number(w, 14, row->match_gap_ms);
	if (totals) {
		if (isfinite(row->release_total_allocated_mb))
			put_number(w, TOTALS_COLUMN, row->release_total_allocated_mb);
		else if (w->jsonl)
			fprintf(w->fp, ", \"%s\": null", columns[TOTALS_COLUMN]);
		else
			putc(',', w->fp);
		put_text(w, TOTALS_COLUMN + 1, row->second_pool ? "GE" : "PTA");
	}
	end_row(w);
}

static void write_table(FILE *fp, const rli_memory *memory, int jsonl)
{
	const table_writer w = { fp, jsonl, columns };
	int totals = memory->totals == RLI_MEMORY_TOTALS_ROWS;
	put_header(&w, totals ? COLUMN_COUNT : TOTALS_COLUMN);
	for (size_t i = 0; i < memory->count; i++) {
		rli_memory_row row;
		rli_memory_get(&row, memory, i);
		write_row(&w, &row, totals);
	}
}

int rli_memory_export(const rli_memory *memory, rli_export_format format, const char *path,
		      rli_output_set *set)
{
	rli_atomic_file file;
	int error;

	if (!memory)
		return rli_error_set(RLI_EUSAGE, "no memory table to export");
	if (format != RLI_EXPORT_CSV && format != RLI_EXPORT_JSONL)
		return rli_error_set(RLI_EUSAGE, "unknown export format %d", (int)format);
	if ((error = rli_atomic_open(&file, path)) < 0)
		return error;
	write_table(file.fp, memory, format == RLI_EXPORT_JSONL);
	return rli_output_finish(set, &file);
}

/* ---- memory_reserved: the reserve a device file gives (memory_record.csv) ---- */

static const char *const reserve_columns[] = { "role", "rank_id", "device_type", "time_ms", "total_reserved_mb" };

int rli_memory_has_reserve(const rli_memory *memory)
{
	return memory && memory->reserve.count > 0;
}

int rli_memory_export_reserve(const rli_memory *memory, rli_export_format format, const char *path,
			      rli_output_set *set)
{
	rli_atomic_file file;
	table_writer w;
	int error;

	if (!rli_memory_has_reserve(memory))
		return rli_error_set(RLI_EUSAGE, "no reserve samples to export");
	if (format != RLI_EXPORT_CSV && format != RLI_EXPORT_JSONL)
		return rli_error_set(RLI_EUSAGE, "unknown export format %d", (int)format);
	if ((error = rli_atomic_open(&file, path)) < 0)
		return error;
	w = (table_writer){ file.fp, format == RLI_EXPORT_JSONL, reserve_columns };
	put_header(&w, sizeof(reserve_columns) / sizeof(reserve_columns[0]));
	for (size_t i = 0; i < memory->reserve.count; i++) {
		const rli_memory_sample *k = &memory->reserve.items[i];
		put_text(&w, 0, rli_strpool_get(&memory->strings, k->role));
		put_integer(&w, 1, (long long)k->rank);
		put_text(&w, 2, rli_strpool_get(&memory->strings, k->device_type));
		put_number(&w, 3, k->ms);
		put_number(&w, 4, k->mb);
		end_row(&w);
	}
	return rli_output_finish(set, &file);
}

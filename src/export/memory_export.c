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

/* A value's lead-in: the separator, and in JSONL the key. */
static void put_key(FILE *fp, int jsonl, size_t column)
{
	if (jsonl)
		fprintf(fp, "%s\"%s\": ", column ? ", " : "{", columns[column]);
	else if (column)
		putc(',', fp);
}

static void put_text(FILE *fp, int jsonl, size_t column, const char *text)
{
	put_key(fp, jsonl, column);
	if (jsonl)
		rli_json_write_string(fp, text, RLI_JSON_PLAIN);
	else
		rli_csv_write_field(fp, text);
}

/* The shortest text that reads back as exactly this double. */
static void put_number(FILE *fp, int jsonl, size_t column, double value)
{
	char buffer[RLI_DOUBLE_BUFSIZE];
	put_key(fp, jsonl, column);
	rli_format_double(buffer, value);
	fputs(buffer, fp);
}

static void write_row(FILE *fp, const rli_memory_row *row, int jsonl, int totals)
{
	put_text(fp, jsonl, 0, row->name);
	put_text(fp, jsonl, 1, row->role);
	put_key(fp, jsonl, 2);
	fprintf(fp, "%lld", (long long)row->rank_id);
	put_text(fp, jsonl, 3, row->call_stack);
	put_text(fp, jsonl, 4, row->call_stack_top);
	put_number(fp, jsonl, 5, row->size_kb);
	put_number(fp, jsonl, 6, row->start_time_ms);
	put_number(fp, jsonl, 7, row->duration_ms);
	put_number(fp, jsonl, 8, row->total_allocated_mb);
	put_number(fp, jsonl, 9, row->total_reserved_mb);
	put_number(fp, jsonl, 10, row->total_active_mb);
	put_text(fp, jsonl, 11, row->device_type);
	put_key(fp, jsonl, 12);
	putc(row->released ? '1' : '0', fp);
	put_text(fp, jsonl, 13, match_names[row->match <= RLI_MEMORY_AFTER_END ? row->match : RLI_MEMORY_UNMATCHED]);
	put_number(fp, jsonl, 14, row->match_gap_ms);
	if (totals) {
		if (isfinite(row->release_total_allocated_mb))
			put_number(fp, jsonl, TOTALS_COLUMN, row->release_total_allocated_mb);
		else if (jsonl)
			fprintf(fp, ", \"%s\": null", columns[TOTALS_COLUMN]);
		else
			putc(',', fp);
		put_text(fp, jsonl, TOTALS_COLUMN + 1, row->second_pool ? "GE" : "PTA");
	}
	fputs(jsonl ? "}\n" : "\n", fp);
}

static void write_table(FILE *fp, const rli_memory *memory, int jsonl)
{
	int totals = memory->totals == RLI_MEMORY_TOTALS_ROWS;
	if (!jsonl) {
		for (size_t c = 0; c < (totals ? COLUMN_COUNT : TOTALS_COLUMN); c++)
			fprintf(fp, "%s%s", c ? "," : "", columns[c]);
		putc('\n', fp);
	}
	for (size_t i = 0; i < memory->count; i++) {
		rli_memory_row row;
		rli_memory_get(&row, memory, i);
		write_row(fp, &row, jsonl, totals);
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
	char buffer[RLI_DOUBLE_BUFSIZE];
	rli_atomic_file file;
	int error, jsonl = format == RLI_EXPORT_JSONL;

	if (!rli_memory_has_reserve(memory))
		return rli_error_set(RLI_EUSAGE, "no reserve samples to export");
	if (format != RLI_EXPORT_CSV && format != RLI_EXPORT_JSONL)
		return rli_error_set(RLI_EUSAGE, "unknown export format %d", (int)format);
	if ((error = rli_atomic_open(&file, path)) < 0)
		return error;
	if (!jsonl)
		fprintf(file.fp, "%s,%s,%s,%s,%s\n", reserve_columns[0], reserve_columns[1], reserve_columns[2],
			reserve_columns[3], reserve_columns[4]);
	for (size_t i = 0; i < memory->reserve.count; i++) {
		const char *texts[2] = { rli_strpool_get(&memory->strings, memory->reserve.items[i].role),
					 rli_strpool_get(&memory->strings, memory->reserve.items[i].device_type) };
		for (int k = 0; k < 3; k++) {
			if (jsonl)
				fprintf(file.fp, "%s\"%s\": ", k ? ", " : "{", reserve_columns[k]);
			else if (k)
				putc(',', file.fp);
			if (k == 1)
				fprintf(file.fp, "%lld", (long long)memory->reserve.items[i].rank);
			else if (jsonl)
				rli_json_write_string(file.fp, texts[k / 2], RLI_JSON_PLAIN);
			else
				rli_csv_write_field(file.fp, texts[k / 2]);
		}
		rli_format_double(buffer, memory->reserve.items[i].ms);
		fprintf(file.fp, jsonl ? ", \"%s\": %s" : ",%s%s", jsonl ? reserve_columns[3] : "", buffer);
		rli_format_double(buffer, memory->reserve.items[i].mb);
		fprintf(file.fp, jsonl ? ", \"%s\": %s}\n" : ",%s%s\n", jsonl ? reserve_columns[4] : "", buffer);
	}
	return rli_output_finish(set, &file);
}

/* export.c: --export csv|jsonl, the parsed table with the reference's columns in its order. */
#include "common/output_set.h"
#include "common/error.h"
#include "common/json_write.h"
#include "events/events.h"

#include <string.h>

/* The reference's column order (timeline.md §2.1). */
static const char *const columns[] = {
	"name", "role", "domain", "start_time_ms", "end_time_ms", "duration_ms", "rank_id", "tid",
};
#define COLUMN_COUNT (sizeof(columns) / sizeof(columns[0]))

/* RFC 4180 quoting, only when the field needs it, as pandas writes it. */
static void write_csv_field(FILE *fp, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, fp);
		return;
	}
	putc('"', fp);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			putc('"', fp);
		putc(*p, fp);
	}
	putc('"', fp);
}

static void write_csv(FILE *fp, const rli_events *events)
{
	for (size_t c = 0; c < COLUMN_COUNT; c++)
		fprintf(fp, "%s%s", c ? "," : "", columns[c]);
	putc('\n', fp);
	for (size_t i = 0; i < events->count; i++) {
		rli_event row;
		rli_events_get(&row, events, i);
		write_csv_field(fp, row.name);
		putc(',', fp);
		write_csv_field(fp, row.role);
		putc(',', fp);
		write_csv_field(fp, row.domain);
		/* 17 significant digits: every double reads back exactly, as in the reference's files. */
		fprintf(fp, ",%.17g,%.17g,%.17g,%lld,", row.start_ms, row.end_ms, row.duration_ms,
			(long long)row.rank_id);
		write_csv_field(fp, row.tid);
		putc('\n', fp);
	}
}

static void write_jsonl(FILE *fp, const rli_events *events)
{
	for (size_t i = 0; i < events->count; i++) {
		rli_event row;
		const char *texts[] = { NULL, NULL, NULL };
		rli_events_get(&row, events, i);
		texts[0] = row.name;
		texts[1] = row.role;
		texts[2] = row.domain;
		putc('{', fp);
		for (size_t c = 0; c < 3; c++) {
			fprintf(fp, "%s\"%s\": ", c ? ", " : "", columns[c]);
			rli_json_write_string(fp, texts[c], RLI_JSON_PLAIN);
		}
		fputs(", \"start_time_ms\": ", fp);
		rli_json_write_double(fp, row.start_ms);
		fputs(", \"end_time_ms\": ", fp);
		rli_json_write_double(fp, row.end_ms);
		fputs(", \"duration_ms\": ", fp);
		rli_json_write_double(fp, row.duration_ms);
		fprintf(fp, ", \"rank_id\": %lld, \"tid\": ", (long long)row.rank_id);
		/* A tid keeps its JSON type: NVTX's PID string stays a string. */
		if (row.tid_is_text)
			rli_json_write_string(fp, row.tid, RLI_JSON_PLAIN);
		else
			fputs(row.tid, fp);
		fputs("}\n", fp);
	}
}

int rli_events_export(const rli_events *events, rli_export_format format, const char *path,
		      rli_output_set *set)
{
	rli_atomic_file file;
	int error;

	if (format != RLI_EXPORT_CSV && format != RLI_EXPORT_JSONL)
		return rli_error_set(RLI_EUSAGE, "unknown export format %d", (int)format);
	if ((error = rli_atomic_open(&file, path)) < 0)
		return error;
	if (format == RLI_EXPORT_CSV)
		write_csv(file.fp, events);
	else
		write_jsonl(file.fp, events);
	return rli_output_finish(set, &file);
}

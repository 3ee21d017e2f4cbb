/* memory_record.c: an Ascend capture's memory_record.csv streamed through libcsv into the table's reserve samples (the device's PTA+GE Total Reserved). */
#include "memory_internal.h"
#include "json_stream.h"
#include "common/grow.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

/* The columns read, by header name. */
enum { REC_COMPONENT = 0, REC_TIME, REC_RESERVED, REC_DEVICE, REC_COUNT };
static const char *const record_columns[REC_COUNT] = { "Component", "Timestamp(us)", "Total Reserved(MB)",
							"Device Type" };

/*
 * The components whose reserve is the device's: PTA+GE, the PyTorch adapter's caching allocator and
 * the graph engine together; a capture without graph-engine rows writes PTA alone. APP (the whole
 * process, outside the allocators) and GE alone are not the allocator's reserve.
 */
enum { KIND_OTHER = 0, KIND_PTA_GE, KIND_PTA };

typedef struct {
	double ms, mb;
	uint32_t device;
	int kind;
} sample;

typedef struct {
	struct csv_parser parser;
	rli_memory *table;
	rli_unit *unit;
	int bom_checked, header_done, missing, oom;
	int column_of_field[64];  /* the first 64 fields' columns, -1 for none */
	size_t field, fields;
	/* the row being read */
	char component[16];
	int have[REC_COUNT];
	double time_us, reserved_mb;
	uint32_t device;
	uint64_t line, bad, bad_line;
	sample *samples;
	size_t count, capacity;
	size_t of_kind[3];
} record_ctx;

/* ASCII white space off both ends: Ascend writes its times with a tab after them. */
static void trim(const char **text, size_t *length)
{
	while (*length && ((*text)[0] == ' ' || (*text)[0] == '\t' || (*text)[0] == '\r' || (*text)[0] == '\n')) {
		(*text)++;
		(*length)--;
	}
	while (*length && ((*text)[*length - 1] == ' ' || (*text)[*length - 1] == '\t' ||
			   (*text)[*length - 1] == '\r' || (*text)[*length - 1] == '\n'))
		(*length)--;
}

static void on_field(void *data, size_t length, void *ctx)
{
	record_ctx *r = ctx;
	const char *text = data;
	size_t field = r->field++;
	int column;

	trim(&text, &length);
	if (!r->header_done) {
		if (field < 64) {
			r->column_of_field[field] = -1;
			for (int c = 0; c < REC_COUNT; c++)
				if (strlen(record_columns[c]) == length && memcmp(record_columns[c], text, length) == 0)
					r->column_of_field[field] = c;
		}
		return;
	}
	if (field >= 64 || field >= r->fields || (column = r->column_of_field[field]) < 0 || length == 0)
		return;
	switch (column) {
	case REC_COMPONENT:
		if (length < sizeof(r->component)) {
			memcpy(r->component, text, length);
			r->component[length] = '\0';
			r->have[column] = 1;
		}
		break;
	case REC_TIME:
		r->have[column] = rli_text_to_double(&r->time_us, text, length) == 0;
		break;
	case REC_RESERVED:
		r->have[column] = rli_text_to_double(&r->reserved_mb, text, length) == 0;
		break;
	case REC_DEVICE:
		if ((r->device = rli_memory_intern(r->table, text, length)) == RLI_STRPOOL_NONE)
			r->oom = 1;
		r->have[column] = 1;
		break;
	}
}

static void on_row(int terminator, void *ctx)
{
	record_ctx *r = ctx;
	size_t fields = r->field;
	int kind;
	(void)terminator;
	r->field = 0;
	r->line++;
	if (fields == 0)
		return;
	if (!r->header_done) {
		int found = 0;
		r->header_done = 1;
		r->fields = fields;
		for (size_t f = 0; f < fields && f < 64; f++)
			found |= r->column_of_field[f] >= 0 ? 1 << r->column_of_field[f] : 0;
		r->missing = found != (1 << REC_COUNT) - 1;
		return;
	}
	if (r->missing || r->oom)
		return;
	kind = !r->have[REC_COMPONENT] ? KIND_OTHER
	       : strcmp(r->component, "PTA+GE") == 0 ? KIND_PTA_GE
	       : strcmp(r->component, "PTA") == 0    ? KIND_PTA
						     : KIND_OTHER;
	if (kind != KIND_OTHER && r->have[REC_RESERVED]) {
		if (!r->have[REC_TIME] || !r->have[REC_DEVICE]) {
			if (r->bad++ == 0)
				r->bad_line = r->line;
		} else if (r->count == r->capacity &&
			   RLI_GROW(&r->samples, &r->capacity, r->count + 1, 256) < 0) {
			r->oom = 1;
		} else {
			r->samples[r->count++] = (sample){ r->time_us / 1000, r->reserved_mb, r->device, kind };
			r->of_kind[kind]++;
		}
	}
	memset(r->have, 0, sizeof(r->have));
}

static int feed(void *ctx, const unsigned char *data, size_t length)
{
	record_ctx *r = ctx;
	int nul;
	size_t text = rli_csv_text(&data, length, &r->bom_checked, &nul);
	if (csv_parse(&r->parser, data, text, on_field, on_row, r) != text || nul)
		return 1; /* no CSV from here on: what was read stays, the rest is said below */
	return r->oom;
}

static int by_time(const void *a, const void *b)
{
	const sample *x = a, *y = b;
	return (x->ms > y->ms) - (x->ms < y->ms);
}

int rli_memory_read_record(rli_memory *table, rli_unit *unit, rli_bytes *source)
{
	record_ctx r;
	char *failure = NULL;
	rli_read_result result;
	int kind, error = RLI_OK;
	uint32_t role;

	memset(&r, 0, sizeof(r));
	r.table = table;
	r.unit = unit;
	r.line = 0;
	if (csv_init(&r.parser, CSV_REPALL_NL) != 0)
		return rli_error_oom();
	rli_bytes_set_content(source, "CSV");
	result = rli_bytes_stream(source, feed, &r, &failure);
	if (result == RLI_READ_OK && csv_fini(&r.parser, on_field, on_row, &r) != 0)
		result = RLI_READ_FAILED;
	csv_free(&r.parser);
	if (result == RLI_READ_OOM || r.oom) {
		error = rli_error_oom();
		goto done;
	}
	/* The file only adds a line to the figure: what is wrong with it is said, and the memory drawn without it. */
	if (result != RLI_READ_OK || csv_error(&r.parser) != CSV_SUCCESS) {
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: not read to its end (%s); the Reserved line is drawn from "
			      "what came before", rli_bytes_name(source), failure ? failure : "not CSV from there on");
	} else if (r.missing) {
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: no Component, Timestamp(us), Total Reserved(MB) and Device "
			      "Type columns: no Reserved line", rli_bytes_name(source));
	}
	if (r.bad)
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: %llu row(s) without a time or a device skipped (the first "
			      "at line %llu)", rli_bytes_name(source), (unsigned long long)r.bad,
			      (unsigned long long)r.bad_line);
	kind = r.of_kind[KIND_PTA_GE] ? KIND_PTA_GE : KIND_PTA;
	if (!r.of_kind[kind])
		goto done;
	if ((role = rli_memory_intern(table, unit->role ? unit->role : "", unit->role ? strlen(unit->role) : 0)) ==
	    RLI_STRPOOL_NONE) {
		error = rli_error_oom();
		goto done;
	}
	qsort(r.samples, r.count, sizeof(*r.samples), by_time);
	for (size_t i = 0; i < r.count && error == RLI_OK; i++)
		if (r.samples[i].kind == kind)
			error = rli_memory_add_reserve(table, role, unit->rank, r.samples[i].device, r.samples[i].ms,
						       r.samples[i].mb);
	rli_notes_add(&unit->log, RLI_LOG_INFO, "%s: %zu %s Total Reserved sample(s) for the Reserved line",
		      rli_bytes_name(source), r.of_kind[kind], kind == KIND_PTA_GE ? "PTA+GE" : "PTA");
done:
	free(failure);
	free(r.samples);
	return error;
}

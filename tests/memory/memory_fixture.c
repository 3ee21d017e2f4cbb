/* memory_fixture.c: throw-away Ascend memory captures for the memory parser tests. */
#include "memory_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

const char mf_header[] =
	"Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),"
	"Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),"
	"Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),"
	"Release Total Active(MB),Stream Ptr,Device Type\n";

/* A growable string (doubling: tests build files of megabytes row by row). */
typedef struct {
	char *text;
	size_t length, capacity;
} buffer;

static void append(buffer *b, const char *text)
{
	size_t add = strlen(text);
	if (b->length + add + 1 > b->capacity) {
		b->capacity = (b->length + add + 1) * 2;
		b->text = realloc(b->text, b->capacity);
		if (!b->text)
			abort();
	}
	memcpy(b->text + b->length, text, add + 1);
	b->length += add;
}

char *mf_csv(const mf_row *rows, size_t count)
{
	return mf_csv_totals(rows, NULL, count);
}

char *mf_csv_totals(const mf_row *rows, const char *const *totals, size_t count)
{
	buffer b = {NULL, 0, 0};
	char line[1024];
	append(&b, mf_header);
	for (size_t i = 0; i < count; i++) {
		const mf_row *r = &rows[i];
		int released = r->duration && r->duration[0];
		char time[128] = "", duration[128] = "";
		if (r->alloc && r->alloc[0])
			snprintf(time, sizeof(time), "\"%s\t\"", r->alloc);
		if (released)
			snprintf(duration, sizeof(duration), "\"%s\t\"", r->duration);
		snprintf(line, sizeof(line), "%s,%s,%s,%s,%s,%s,%s,%s,21084,19071.25,%s,%s,%s,6,NPU:0\n", r->name,
			 r->size, time, released ? time : "", released ? time : "", duration, duration,
			 totals ? totals[i] : "19071.5", released ? "19071.5" : "", released ? "21084" : "",
			 released ? "19071.5" : "");
		append(&b, line);
	}
	return b.text;
}

static void append_json_string(buffer *b, const char *text)
{
	char one[8];
	append(b, "\"");
	for (const char *p = text; *p; p++) {
		if (*p == '"' || *p == '\\')
			snprintf(one, sizeof(one), "\\%c", *p);
		else if (*p == '\r')
			snprintf(one, sizeof(one), "\\r");
		else if (*p == '\n')
			snprintf(one, sizeof(one), "\\n");
		else
			snprintf(one, sizeof(one), "%c", *p);
		append(b, one);
	}
	append(b, "\"");
}

char *mf_trace(const mf_op *ops, size_t count)
{
	buffer b = {NULL, 0, 0};
	char tid[64];
	append(&b, "[");
	for (size_t i = 0; i < count; i++) {
		const mf_op *op = &ops[i];
		append(&b, i ? ",\n  {" : "\n  {");
		append(&b, "\"ph\": \"X\", \"name\": ");
		append_json_string(&b, op->name);
		snprintf(tid, sizeof(tid), ", \"pid\": 0, \"tid\": %zu", i + 1);
		append(&b, tid);
		if (op->ts) {
			append(&b, ", \"ts\": ");
			append(&b, op->ts);
		}
		if (op->dur) {
			append(&b, ", \"dur\": ");
			append(&b, op->dur);
		}
		append(&b, ", \"cat\": ");
		append_json_string(&b, op->cat ? op->cat : "cpu_op");
		append(&b, ", \"args\": {");
		if (op->stack) {
			append(&b, "\"Call stack\": ");
			append_json_string(&b, op->stack);
		}
		append(&b, "}}");
	}
	append(&b, "\n]");
	return b.text;
}

void mf_capture(const char *root, const char *dir, int rank, const char *metadata, const char *csv,
		const char *trace)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/profiler_info_%d.json", dir, rank);
	fx_write(root, path, fx_text("{\"config\": {}, \"rank_id\": \"%d\"}", rank));
	if (metadata) {
		snprintf(path, sizeof(path), "%s/profiler_metadata.json", dir);
		fx_write(root, path, metadata);
	}
	snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT", dir);
	fx_mkdir(root, path);
	if (csv) {
		snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/operator_memory.csv", dir);
		fx_write(root, path, csv);
	}
	if (trace) {
		snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/trace_view.json", dir);
		fx_write(root, path, trace);
	}
}

int mf_parse(rli_memory **out, const char *root, const char *rank_list, const char *role_list, unsigned jobs,
	     fx_log *log)
{
	rli_memory_parse_options options;
	rli_memory_parse_options_init(&options);
	options.rank_list = rank_list;
	options.role_list = role_list;
	options.jobs = jobs;
	if (log) {
		options.log = fx_log_fn;
		options.log_ctx = log;
	}
	return rli_memory_parse(out, root, &options);
}

rli_memory_row mf_get(const rli_memory *memory, size_t i)
{
	rli_memory_row row;
	memset(&row, 0, sizeof(row));
	if (rli_memory_get(&row, memory, i) != RLI_OK) {
		fprintf(stderr, "no row %zu\n", i);
		abort();
	}
	return row;
}

/* ---- expected rows ------------------------------------------------------------ */

static const char *const reference_keys[] = {
	"name", "role", "rank_id", "call_stack", "call_stack_top", "size_kb", "start_time_ms", "duration_ms",
	"total_allocated_mb", "total_reserved_mb", "total_active_mb", "device_type"};

static yajl_val value_at(yajl_val object, const char *key, yajl_type type, const char *path, size_t line)
{
	const char *keys[] = {key, NULL};
	yajl_val value = yajl_tree_get(object, keys, type);
	if (!value) {
		fprintf(stderr, "%s:%zu: no '%s' of the right type\n", path, line, key);
		exit(1);
	}
	return value;
}

static char *text_at(yajl_val object, const char *key, const char *path, size_t line)
{
	const char *text = YAJL_GET_STRING(value_at(object, key, yajl_t_string, path, line));
	char *copy = text ? strdup(text) : NULL;
	if (!copy)
		abort();
	return copy;
}

static double number_at(yajl_val object, const char *key, const char *path, size_t line)
{
	return YAJL_GET_DOUBLE(value_at(object, key, yajl_t_number, path, line));
}

mf_expected *mf_read_expected(const char *path, size_t *count)
{
	FILE *file = fopen(path, "r");
	mf_expected *rows = NULL;
	size_t capacity = 0, size = 0;
	char *line = NULL, error[256];
	*count = 0;
	if (!file) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	while (getline(&line, &size, file) > 0) {
		yajl_val object = yajl_tree_parse(line, error, sizeof(error));
		mf_expected *e;
		const char *match_key[] = {"match", NULL}, *case_key[] = {"op_case", NULL};
		yajl_val match, op_case;
		if (!object || !YAJL_IS_OBJECT(object) || object->u.object.len < 12) {
			fprintf(stderr, "%s:%zu: not a row: %s\n", path, *count + 1, error);
			exit(1);
		}
		for (size_t k = 0; k < 12; k++) {
			if (strcmp(object->u.object.keys[k], reference_keys[k]) != 0) {
				fprintf(stderr, "%s:%zu: key %zu is '%s', want '%s'\n", path, *count + 1, k,
					object->u.object.keys[k], reference_keys[k]);
				exit(1);
			}
		}
		if (*count == capacity) {
			capacity = capacity ? capacity * 2 : 256;
			if (!(rows = realloc(rows, capacity * sizeof(*rows))))
				abort();
		}
		e = &rows[(*count)++];
		memset(e, 0, sizeof(*e));
		e->row.name = text_at(object, "name", path, *count);
		e->row.role = text_at(object, "role", path, *count);
		e->row.call_stack = text_at(object, "call_stack", path, *count);
		e->row.call_stack_top = text_at(object, "call_stack_top", path, *count);
		e->row.device_type = text_at(object, "device_type", path, *count);
		e->row.rank_id = YAJL_GET_INTEGER(value_at(object, "rank_id", yajl_t_number, path, *count));
		e->row.size_kb = number_at(object, "size_kb", path, *count);
		e->row.start_time_ms = number_at(object, "start_time_ms", path, *count);
		e->row.duration_ms = number_at(object, "duration_ms", path, *count);
		e->row.total_allocated_mb = number_at(object, "total_allocated_mb", path, *count);
		e->row.total_reserved_mb = number_at(object, "total_reserved_mb", path, *count);
		e->row.total_active_mb = number_at(object, "total_active_mb", path, *count);
		if ((match = yajl_tree_get(object, match_key, yajl_t_string)) != NULL) {
			const char *kind = YAJL_GET_STRING(match);
			e->has_match = 1;
			e->row.match = !strcmp(kind, "inside")      ? RLI_MEMORY_INSIDE
				       : !strcmp(kind, "after_end") ? RLI_MEMORY_AFTER_END
								    : RLI_MEMORY_UNMATCHED;
			e->row.match_gap_ms = number_at(object, "match_gap_ms", path, *count);
			e->row.released = (int)YAJL_GET_INTEGER(value_at(object, "released", yajl_t_number, path, *count));
		}
		op_case = yajl_tree_get(object, case_key, yajl_t_string);
		e->op_case = op_case ? text_at(object, "op_case", path, *count) : strdup("");
		if (!e->op_case)
			abort();
		if (op_case) {
			e->has_before = 1;
			e->before_capture_mb = number_at(object, "before_capture_mb", path, *count);
		}
		yajl_tree_free(object);
	}
	free(line);
	fclose(file);
	return rows;
}

void mf_expected_free(mf_expected *rows, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free((char *)rows[i].row.name);
		free((char *)rows[i].row.role);
		free((char *)rows[i].row.call_stack);
		free((char *)rows[i].row.call_stack_top);
		free((char *)rows[i].row.device_type);
		free(rows[i].op_case);
	}
	free(rows);
}

int mf_row_equal(const mf_expected *want, const rli_memory_row *got)
{
	const rli_memory_row *w = &want->row;
	if (strcmp(w->name, got->name) || strcmp(w->role, got->role) || w->rank_id != got->rank_id ||
	    strcmp(w->call_stack, got->call_stack) || strcmp(w->call_stack_top, got->call_stack_top) ||
	    strcmp(w->device_type, got->device_type) || w->size_kb != got->size_kb ||
	    fabs(w->start_time_ms - got->start_time_ms) > 1e-6 || fabs(w->duration_ms - got->duration_ms) > 1e-6 ||
	    w->total_allocated_mb != got->total_allocated_mb || w->total_reserved_mb != got->total_reserved_mb ||
	    w->total_active_mb != got->total_active_mb)
		return 0;
	return !want->has_match || (w->match == got->match && fabs(w->match_gap_ms - got->match_gap_ms) <= 1e-9 &&
				    w->released == got->released);
}

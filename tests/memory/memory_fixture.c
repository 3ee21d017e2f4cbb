/* memory_fixture.c: throw-away Ascend memory captures for the memory parser tests. */
#include "memory_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		snprintf(line, sizeof(line), "%s,%s,%s,%s,%s,%s,%s,19071.5,21084,19071.25,%s,%s,%s,6,NPU:0\n", r->name,
			 r->size, time, released ? time : "", released ? time : "", duration, duration,
			 released ? "19071.5" : "", released ? "21084" : "", released ? "19071.5" : "");
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

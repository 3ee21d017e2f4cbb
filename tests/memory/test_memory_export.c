/* test_memory_export.c: memory_events.csv and .jsonl byte for byte (quoting, escapes, numbers), and failed writes leaving nothing. */
#include "harness.h"
#include "memory_fixture.h"

#include <dirent.h>

/* The second allocation comes 40 us after its operator ended (at 90 + 20 us): (150 - 110) / 1000 ms. */
#define GAP "0.04"

static const char want_csv[] =
	"name,role,rank_id,call_stack,call_stack_top,size_kb,start_time_ms,duration_ms,total_allocated_mb,"
	"total_reserved_mb,total_active_mb,device_type,released,match,match_gap_ms,release_total_allocated_mb,allocator\n"
	"\"aten::cat, \"\"x\"\"\",actor,3,\"a.py(1): f;\r\nb.py(2): g\",a.py(1): f,4,0.1005,0.01,19071.5,21084,19071.25,"
	"NPU:0,1,inside,0,19071.5,PTA\n"
	"\"aten::cat, \"\"x\"\"\",actor,3,\"a.py(1): f;\r\nb.py(2): g\",a.py(1): f,1,0.15,0,19071.5,21084,19071.25,"
	"NPU:0,0,after_end," GAP ",,PTA\n"
	"\xe7\xae\x97\xe5\xad\x90,actor,3,,,-2.5,0.2,0,19071.5,21084,19071.25,NPU:0,0,none,0,,PTA\n";

static const char want_jsonl[] =
	"{\"name\": \"aten::cat, \\\"x\\\"\", \"role\": \"actor\", \"rank_id\": 3, "
	"\"call_stack\": \"a.py(1): f;\\r\\nb.py(2): g\", \"call_stack_top\": \"a.py(1): f\", \"size_kb\": 4, "
	"\"start_time_ms\": 0.1005, \"duration_ms\": 0.01, \"total_allocated_mb\": 19071.5, "
	"\"total_reserved_mb\": 21084, \"total_active_mb\": 19071.25, \"device_type\": \"NPU:0\", "
	"\"released\": 1, \"match\": \"inside\", \"match_gap_ms\": 0, \"release_total_allocated_mb\": 19071.5, "
	"\"allocator\": \"PTA\"}\n"
	"{\"name\": \"aten::cat, \\\"x\\\"\", \"role\": \"actor\", \"rank_id\": 3, "
	"\"call_stack\": \"a.py(1): f;\\r\\nb.py(2): g\", \"call_stack_top\": \"a.py(1): f\", \"size_kb\": 1, "
	"\"start_time_ms\": 0.15, \"duration_ms\": 0, \"total_allocated_mb\": 19071.5, "
	"\"total_reserved_mb\": 21084, \"total_active_mb\": 19071.25, \"device_type\": \"NPU:0\", "
	"\"released\": 0, \"match\": \"after_end\", \"match_gap_ms\": " GAP ", \"release_total_allocated_mb\": null, "
	"\"allocator\": \"PTA\"}\n"
	"{\"name\": \"\xe7\xae\x97\xe5\xad\x90\", \"role\": \"actor\", \"rank_id\": 3, \"call_stack\": \"\", "
	"\"call_stack_top\": \"\", \"size_kb\": -2.5, \"start_time_ms\": 0.2, \"duration_ms\": 0, "
	"\"total_allocated_mb\": 19071.5, \"total_reserved_mb\": 21084, \"total_active_mb\": 19071.25, "
	"\"device_type\": \"NPU:0\", \"released\": 0, \"match\": \"none\", \"match_gap_ms\": 0, "
	"\"release_total_allocated_mb\": null, \"allocator\": \"PTA\"}\n";

int main(void)
{
	static const mf_row rows[] = {{"\"aten::cat, \"\"x\"\"\"", "4", "100.5", "10"},
				      {"\"aten::cat, \"\"x\"\"\"", "1", "150", ""},
				      {"\xe7\xae\x97\xe5\xad\x90", "-2.5", "200", ""}};
	static const mf_op ops[] = {{"aten::cat, \"x\"", "\"90\"", "20", "a.py(1): f;\r\nb.py(2): g", NULL}};
	char *root = fx_tempdir(), *csv = mf_csv(rows, 3), *trace = mf_trace(ops, 1);
	char out[4096], path[4200];
	rli_memory *memory = NULL;
	rli_memory_row row;
	char *text;

	mf_capture(root, "in/x_ascend_pt", 3, "{\"role\": \"actor\"}", csv, trace);
	CHECK_INT(mf_parse(&memory, fx_path(root, "in"), NULL, NULL, 1, NULL), RLI_OK);
	CHECK_INT(rli_memory_count(memory), 3);
	snprintf(out, sizeof(out), "%s/out", root);
	fx_mkdir(root, "out");

	snprintf(path, sizeof(path), "%s/memory_events.csv", out);
	CHECK_INT(rli_memory_export(memory, RLI_EXPORT_CSV, path, NULL), RLI_OK);
	text = test_read_file(path, NULL);
	CHECK_STR(text, want_csv);
	free(text);
	snprintf(path, sizeof(path), "%s/memory_events.jsonl", out);
	CHECK_INT(rli_memory_export(memory, RLI_EXPORT_JSONL, path, NULL), RLI_OK);
	text = test_read_file(path, NULL);
	CHECK_STR(text, want_jsonl);
	free(text);
	CHECK_INT(test_count_entries(out), 2);

	/* A folder that does not exist: our message, and nothing written anywhere. */
	snprintf(path, sizeof(path), "%s/missing/memory_events.csv", out);
	CHECK_INT(rli_memory_export(memory, RLI_EXPORT_CSV, path, NULL), RLI_EOUTPUT);
	CHECK_STR(rli_error_last(), fx_text("cannot write %s: No such file or directory", path));
	CHECK_INT(test_count_entries(out), 2);
	/* A folder where the file should be: the temporary is written, the rename fails, the temporary goes. */
	snprintf(path, sizeof(path), "%s/taken", out);
	fx_mkdir(out, "taken/x");
	CHECK_INT(rli_memory_export(memory, RLI_EXPORT_JSONL, path, NULL), RLI_EOUTPUT);
	CHECK(strstr(rli_error_last(), fx_text("cannot write %s: ", path)) != NULL);
	CHECK_INT(test_count_entries(out), 3);

	/* Misuse is a usage error, never a crash. */
	CHECK_INT(rli_memory_export(NULL, RLI_EXPORT_CSV, path, NULL), RLI_EUSAGE);
	CHECK_INT(rli_memory_export(memory, (rli_export_format)7, path, NULL), RLI_EUSAGE);
	CHECK_INT(rli_memory_get(&row, memory, 3), RLI_EUSAGE);
	CHECK_STR(rli_error_last(), "no memory row 3 (the table has 3)");
	CHECK_INT(rli_memory_get(&row, NULL, 0), RLI_EUSAGE);
	CHECK_INT(rli_memory_count(NULL), 0);
	rli_memory_free(NULL);

	rli_memory_free(memory);
	free(csv);
	free(trace);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

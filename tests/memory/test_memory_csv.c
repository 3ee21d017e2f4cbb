/* test_memory_csv.c: what operator_memory.csv may look like (BOM, CRLF, quoting, column order, short rows, big files) and how captures merge. */
#include "harness.h"
#include "memory_fixture.h"

#define CAPTURE "20260101_000000_ascend_pt"

static rli_memory *parse_one(const char *root, const char *csv, const char *trace, fx_log *log)
{
	rli_memory *memory = NULL;
	int rc;
	fx_remove(root);
	mf_capture(root, CAPTURE, 0, MF_METADATA, csv, trace);
	rc = mf_parse(&memory, root, NULL, NULL, 1, log);
	CHECK_INT(rc, RLI_OK);
	if (rc != RLI_OK)
		fprintf(stderr, "%s\n", rli_error_last());
	return memory;
}

/* A BOM, CRLF, a blank line, columns in another order and one fewer, quoting, Unicode blanks, a short row. */
static void test_layouts(const char *root)
{
	static const char csv[] =
		"\xef\xbb\xbf"
		"Device Type,Name,Allocation Time(us),Size(KB),Duration(us),Allocation Total Allocated(MB),"
		"Allocation Total Reserved(MB),Allocation Total Active(MB),Stream Ptr\r\n"
		"NPU:1,aten::add,\"1000.5\t\",4,\"10\t\",1.5,2,3,6\r\n"
		"\r\n"
		"NPU:1,\"aten::index_put_, \"\"fused\"\"\",\"1001\t\",8192.5,,,,,6,extra\r\n"
		"NPU:1,\xc2\xa0" "aten::mul\xe3\x80\x80,\"1002\t\",-4,\"1\t\",1,2,3,6\r\n"
		"NPU:1,aten::mul,1003,2\r\n"
		"NPU:1 , aten::cat ,\"1004\t\",1e3,\"2.5e1\",1,2,3,6";
	fx_log log = {NULL, 0};
	rli_memory *memory = parse_one(root, csv, "[{}]", &log);
	rli_memory_row row;
	if (!memory)
		return;
	CHECK_INT(rli_memory_count(memory), 4);
	row = mf_get(memory, 0);
	CHECK_STR(row.name, "aten::add");
	CHECK_STR(row.device_type, "NPU:1");
	CHECK_STR(row.role, fx_text("%s", strrchr(root, '/') + 1)); /* the capture's parent folder */
	CHECK_INT(row.rank_id, 0);
	CHECK(row.start_time_ms == 1000.5 / 1000);
	CHECK(row.duration_ms == 10.0 / 1000);
	CHECK(row.size_kb == 4 && row.total_allocated_mb == 1.5 && row.total_reserved_mb == 2 && row.total_active_mb == 3);
	CHECK_INT(row.released, 1);
	row = mf_get(memory, 1);
	CHECK_STR(row.name, "aten::index_put_, \"fused\"");
	CHECK(row.size_kb == 8192.5 && row.duration_ms == 0 && row.total_allocated_mb == 0 && row.total_active_mb == 0);
	CHECK_INT(row.released, 0); /* empty Duration: never released in the capture */
	row = mf_get(memory, 2);
	CHECK_STR(row.name, "aten::mul"); /* no-break space and ideographic space stripped, as str.strip() does */
	CHECK(row.size_kb == -4);
	row = mf_get(memory, 3);
	CHECK_STR(row.name, "aten::cat");
	CHECK_STR(row.device_type, "NPU:1");
	CHECK(row.size_kb == 1000 && row.duration_ms == 0.025);
	CHECK(fx_log_has(&log, fx_text("WARN: %s/%s/ASCEND_PROFILER_OUTPUT/operator_memory.csv: 1 row(s) with fewer fields "
				       "than the header skipped (the first at line 6)\n", root, CAPTURE)));
	rli_memory_free(memory);
	fx_log_reset(&log);
}

/* A free whose block was allocated before the capture may have no time: skipped, with a warning. */
static void test_free_without_time(const char *root)
{
	static const mf_row rows[] = {{"aten::add", "4", "100", "10"}, {"aten::add", "-4", "", ""},
				      {"aten::add", "-8", "", ""}};
	char *csv = mf_csv(rows, 3);
	fx_log log = {NULL, 0};
	rli_memory *memory = parse_one(root, csv, "[{}]", &log);
	CHECK_INT(rli_memory_count(memory), 1);
	CHECK(fx_log_has(&log, fx_text("WARN: %s/%s/ASCEND_PROFILER_OUTPUT/operator_memory.csv: 2 free(s) without an "
				       "Allocation Time(us) skipped (the first at line 3)\n", root, CAPTURE)));
	rli_memory_free(memory);
	fx_log_reset(&log);
	free(csv);
}

/* Rows out of time order: sorted by start, ties in file order (a stable sort, memory.md §1.4). */
static void test_row_order(const char *root)
{
	static const mf_row rows[] = {{"a", "1", "300", "1"}, {"a", "2", "100", "1"}, {"a", "3", "200", "1"},
				      {"a", "4", "100", "1"}};
	static const double sizes[] = {2, 4, 3, 1};
	char *csv = mf_csv(rows, 4);
	rli_memory *memory = parse_one(root, csv, "[{}]", NULL);
	CHECK_INT(rli_memory_count(memory), 4);
	for (size_t i = 0; i < 4 && i < rli_memory_count(memory); i++)
		CHECK(mf_get(memory, i).size_kb == sizes[i]);
	rli_memory_free(memory);
	free(csv);
	/* Far out of order (newest first, in pairs that tie): beyond moving rows back, the full stable sort. */
	{
		enum { ROWS = 2000 };
		static mf_row many[ROWS];
		static char times[ROWS][16], sizes_text[ROWS][16];
		for (int r = 0; r < ROWS; r++) {
			snprintf(times[r], sizeof(times[r]), "%d", 100000 - 10 * (r / 2));
			snprintf(sizes_text[r], sizeof(sizes_text[r]), "%d", r + 1);
			many[r] = (mf_row){"a", sizes_text[r], times[r], "1"};
		}
		csv = mf_csv(many, ROWS);
		memory = parse_one(root, csv, "[{}]", NULL);
		CHECK_INT(rli_memory_count(memory), ROWS);
		for (size_t i = 0; i < rli_memory_count(memory); i++) {
			/* pair k from the end comes first, and inside a pair the file's order holds */
			size_t pair = ROWS / 2 - 1 - i / 2, want = 2 * pair + i % 2 + 1;
			if (mf_get(memory, i).size_kb != (double)want) {
				fprintf(stderr, "reversed rows: row %zu is %g, want %zu\n", i, mf_get(memory, i).size_kb, want);
				rli_test_failures++;
				break;
			}
		}
		rli_memory_free(memory);
		free(csv);
	}
}

/* Files of many 64 KiB chunks: rows and stacks cut at chunk edges, thousands of ops. */
static void test_big_files(const char *root)
{
	enum { OPS = 3000, ROWS = 30000 };
	static mf_op ops[OPS];
	static mf_row rows[ROWS];
	static char op_ts[OPS][24], stacks[OPS][400], names[8][32], times[ROWS][24], sizes[ROWS][16];
	char *csv, *trace;
	rli_memory *memory;
	for (int n = 0; n < 8; n++)
		snprintf(names[n], sizeof(names[n]), "aten::op_%d", n);
	for (int i = 0; i < OPS; i++) {
		snprintf(op_ts[i], sizeof(op_ts[i]), "\"%d.5\"", 1000 * i);
		snprintf(stacks[i], sizeof(stacks[i]),
			 "verl/trainer/main_ppo.py(%d): run;\r\nverl/workers/fsdp_workers.py(612): update_actor;\r\n"
			 "verl/workers/actor/dp_actor.py(378): update_policy;\r\ntorch/nn/modules/module.py(1750): _call_impl;"
			 "\r\ntransformers/models/qwen2/modeling_qwen2.py(823): forward", i);
		ops[i] = (mf_op){names[i % 8], op_ts[i], "400", stacks[i], NULL};
	}
	for (int r = 0; r < ROWS; r++) {
		int op = r / 10; /* ten allocations per call, some after it ended */
		snprintf(times[r], sizeof(times[r]), "%d.75", 1000 * op + 50 * (r % 10));
		snprintf(sizes[r], sizeof(sizes[r]), "%d.5", r % 977);
		rows[r] = (mf_row){names[op % 8], sizes[r], times[r], r % 3 ? "20" : ""};
	}
	csv = mf_csv(rows, ROWS);
	trace = mf_trace(ops, OPS);
	CHECK(strlen(csv) > 20 * 65536 && strlen(trace) > 10 * 65536);
	memory = parse_one(root, csv, trace, NULL);
	CHECK_INT(rli_memory_count(memory), ROWS);
	for (int r = 0; r < ROWS && (size_t)r < rli_memory_count(memory); r++) {
		rli_memory_row row = mf_get(memory, (size_t)r);
		int op = r / 10, inside = 50 * (r % 10) <= 400 - 1;
		if (strcmp(row.name, names[op % 8]) != 0 || strcmp(row.call_stack, stacks[op]) != 0 ||
		    row.size_kb != (double)(r % 977) + 0.5 || row.released != (r % 3 != 0) ||
		    row.match != (inside ? RLI_MEMORY_INSIDE : RLI_MEMORY_AFTER_END)) {
			fprintf(stderr, "big file: row %d wrong: %s %g %d\n", r, row.name, row.size_kb, (int)row.match);
			rli_test_failures++;
			break;
		}
	}
	rli_memory_free(memory);
	free(csv);
	free(trace);
}

/*
 * Several captures: per (role, rank) in discovery order, by folder time inside one. Rows that
 * start together go by role (actor before ranks), then rank; one device's keep that order.
 */
static void test_captures(const char *root)
{
	static const mf_row early[] = {{"a", "1", "100", "1"}, {"a", "2", "300", "1"}};
	static const mf_row late[] = {{"a", "3", "100", "1"}, {"a", "4", "200", "1"}};
	static const mf_row other[] = {{"a", "5", "100", "1"}, {"a", "6", "250", "1"}};
	char *e = mf_csv(early, 2), *l = mf_csv(late, 2), *o = mf_csv(other, 2);
	rli_memory *one = NULL, *many = NULL;
	static const double sizes[] = {5, 1, 3, 4, 6, 2};
	fx_remove(root);
	/* The later capture of rank 0 comes first by name, and the actor's role comes from its metadata. */
	mf_capture(root, "ranks/a_20260101_000002_ascend_pt", 0, MF_METADATA, l, "[{}]");
	mf_capture(root, "ranks/b_20260101_000001_ascend_pt", 0, MF_METADATA, e, "[{}]");
	mf_capture(root, "ranks/c_20260101_000000_ascend_pt", 1, "{\"role\": \"actor\"}", o, "[{}]");
	CHECK_INT(mf_parse(&one, root, NULL, NULL, 1, NULL), RLI_OK);
	CHECK_INT(mf_parse(&many, root, NULL, NULL, 3, NULL), RLI_OK);
	CHECK_INT(rli_memory_count(one), 6);
	CHECK_INT(rli_memory_count(many), 6);
	for (size_t i = 0; i < 6 && i < rli_memory_count(one) && i < rli_memory_count(many); i++) {
		rli_memory_row a = mf_get(one, i), b = mf_get(many, i);
		CHECK(a.size_kb == sizes[i]);
		CHECK(a.size_kb == b.size_kb && a.rank_id == b.rank_id && !strcmp(a.role, b.role));
		CHECK_STR(a.role, a.rank_id == 1 ? "actor" : "ranks");
	}
	rli_memory_free(one);
	rli_memory_free(many);
	/* Filters: only rank 1, or only the role "ranks". */
	CHECK_INT(mf_parse(&one, root, "1", NULL, 2, NULL), RLI_OK);
	CHECK_INT(rli_memory_count(one), 2);
	rli_memory_free(one);
	CHECK_INT(mf_parse(&one, root, NULL, "ranks", 2, NULL), RLI_OK);
	CHECK_INT(rli_memory_count(one), 4);
	rli_memory_free(one);
	free(e);
	free(l);
	free(o);
}

int main(void)
{
	char *root = fx_tempdir();
	test_layouts(root);
	test_free_without_time(root);
	test_row_order(root);
	test_big_files(root);
	test_captures(root);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

/* test_memory_validation.c: every memory input rule (memory.md §5) and every bad input: exact message and return code. */
#include "harness.h"
#include "memory_fixture.h"

#define CAPTURE "r/20260101_000000_ascend_pt"

static const mf_row good_rows[] = {{"aten::add", "4", "100", "10"}, {"aten::mul", "2", "200", ""}};
static const mf_op good_ops[] = {{"aten::add", "\"90\"", "50", "a.py(1): f", NULL}};

/* Parses root and checks the return code and the complete message; a table comes back exactly on OK and PARTIAL. */
static void expect(const char *root, const char *ranks, const char *roles, int want_rc, const char *want_message,
		   int line)
{
	rli_memory *memory = NULL;
	char want[8192];
	int rc;
	snprintf(want, sizeof(want), "%s", want_message);
	rc = mf_parse(&memory, root, ranks, roles, 2, NULL);
	if (rc != want_rc || strcmp(rli_error_last(), want) != 0) {
		fprintf(stderr, "line %d: rc %d (want %d)\n got: %s\nwant: %s\n", line, rc, want_rc, rli_error_last(), want);
		rli_test_failures++;
	}
	CHECK((memory != NULL) == (rc == RLI_OK || rc == RLI_EPARTIAL));
	rli_memory_free(memory);
}

#define EXPECT(root, rc, message) expect(root, NULL, NULL, rc, message, __LINE__)
#define FAILED "Data validation failed\n  - "

/* A fresh root holding one good capture at CAPTURE; the paths of its files in dir, csv, trace. */
static char dir[2048], csv_path[4096], trace_path[4096], info_path[4096], metadata_path[4096];

static void good_capture(const char *root)
{
	char *csv = mf_csv(good_rows, 2), *trace = mf_trace(good_ops, 1);
	fx_remove(root);
	mf_capture(root, CAPTURE, 0, MF_METADATA, csv, trace);
	snprintf(dir, sizeof(dir), "%s/%s", root, CAPTURE);
	snprintf(csv_path, sizeof(csv_path), "%s/ASCEND_PROFILER_OUTPUT/operator_memory.csv", dir);
	snprintf(trace_path, sizeof(trace_path), "%s/ASCEND_PROFILER_OUTPUT/trace_view.json", dir);
	snprintf(info_path, sizeof(info_path), "%s/profiler_info_0.json", dir);
	snprintf(metadata_path, sizeof(metadata_path), "%s/profiler_metadata.json", dir);
	free(csv);
	free(trace);
}

static void write_file(const char *path, const char *text)
{
	fx_write("/", path, text);
}

static void test_path_rules(const char *root)
{
	char missing[4096], file[4096];
	rli_memory *memory = (rli_memory *)1;
	snprintf(missing, sizeof(missing), "%s/nope", root);
	fx_remove(root);
	fx_mkdir(root, ".");
	EXPECT(missing, RLI_EINVALID,
	       fx_text(FAILED "Source path is not a directory or does not exist: %s"
			      "\n  - Source path does not exist: %s", missing, missing));
	snprintf(file, sizeof(file), "%s/file", root);
	write_file(file, "x");
	EXPECT(file, RLI_EINVALID, fx_text(FAILED "Source path is not a directory or does not exist: %s", file));
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "No *_ascend_pt directory in %s", root));
	CHECK_INT(mf_parse(&memory, "", NULL, NULL, 1, NULL), RLI_EUSAGE);
	CHECK(memory == NULL);
	CHECK_STR(rli_error_last(), "no input path given");
	CHECK_INT(mf_parse(&memory, root, "0,x", NULL, 1, NULL), RLI_EUSAGE);
	CHECK(strstr(rli_error_last(), "invalid rank list '0,x'") != NULL);
}

/*
 * The file rules: every missing file of every capture, at once; a capture that breaks them is
 * skipped. profiler_info_*.json and trace_view.json may be missing (test_real_quirks).
 */
static void test_file_rules(const char *root)
{
	fx_remove(root);
	fx_mkdir(root, "role/x_ascend_pt");
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "profiler_metadata.json does not exist in: %s/role/x_ascend_pt"
			      "\n  - operator_memory.csv does not exist in: %s/role/x_ascend_pt/ASCEND_PROFILER_OUTPUT",
		       root, root));

	/* Beside a good capture: that one is parsed, the bad one reported, RLI_EPARTIAL. */
	good_capture(root);
	fx_mkdir(root, "other/y_ascend_pt/ASCEND_PROFILER_OUTPUT");
	fx_write(root, "other/y_ascend_pt/profiler_info_1.json", "{\"rank_id\": 1}");
	fx_write(root, "other/y_ascend_pt/profiler_metadata.json", "{}");
	fx_write(root, "other/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[{}]");
	{
		rli_memory *memory = NULL;
		fx_log log = {NULL, 0};
		const char *failure = fx_text("operator_memory.csv does not exist in: %s/other/y_ascend_pt/ASCEND_PROFILER_OUTPUT",
					      root);
		char line[4200];
		snprintf(line, sizeof(line), "ERROR: %s\n", failure);
		CHECK_INT(mf_parse(&memory, root, NULL, NULL, 2, &log), RLI_EPARTIAL);
		CHECK_INT(rli_memory_count(memory), 2);
		CHECK(fx_log_has(&log, line));
		CHECK(fx_log_has(&log, "INFO: Parallel processing completed: 1/2 ranks processed\n"));
		CHECK_STR(rli_error_last(), fx_text(FAILED "operator_memory.csv does not exist in: %s/other/y_ascend_pt/"
							   "ASCEND_PROFILER_OUTPUT", root));
		rli_memory_free(memory);
		fx_log_reset(&log);
	}
	/* A rank filter leaves the bad capture out, and nothing is wrong any more. */
	expect(root, "0", NULL, RLI_OK, "", __LINE__);
	/* A name that gives no rank. */
	good_capture(root);
	fx_remove(info_path);
	fx_write(dir, "profiler_info_x.json", "{\"rank_id\": 0}");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "direct:%s fail to get rankid or rankid invalid.", dir));
}

static void test_side_files(const char *root)
{
	good_capture(root);
	EXPECT(root, RLI_OK, "");
	write_file(info_path, "");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "File is empty: %s", info_path));
	write_file(info_path, "{\"rank_id\": ");
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse JSON file %s: premature EOF at line 1, column 13", info_path));
	write_file(info_path, "[\"rank_id\"]");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "profiler_info JSON is not a dictionary: %s", info_path));
	write_file(info_path, "{\"config\": {\"rank_id\": 0}}");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "File field is missing: ['rank_id'] in FilePath: %s", info_path));

	good_capture(root);
	write_file(metadata_path, "");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "File is empty: %s", metadata_path));
	write_file(metadata_path, "{\"role\": nope}");
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse JSON file %s: invalid string in json text at line 1, column 10",
		       metadata_path));
	write_file(metadata_path, "\"actor\"");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "profiler_metadata.json is not a JSON object: %s", metadata_path));
}

static void test_csv_rules(const char *root)
{
	good_capture(root);
	write_file(csv_path, "");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "File is empty: %s", csv_path));
	write_file(csv_path, "Name,Size(KB),Allocation Time(us),Allocation Total Allocated(MB),"
			     "Allocation Total Reserved(MB),Allocation Total Active(MB)\naten::add,1,2,3,4,5\n");
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "operator_memory.csv missing columns: ['Duration(us)', 'Device Type'] in FilePath: %s",
		       csv_path));
	write_file(csv_path, "\n\r\n");
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "operator_memory.csv missing columns: ['Name', 'Size(KB)', 'Allocation Time(us)', "
			      "'Duration(us)', 'Allocation Total Allocated(MB)', 'Allocation Total Reserved(MB)', "
			      "'Device Type'] in FilePath: %s", csv_path));
	write_file(csv_path, mf_header);
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "operator_memory.csv has no data rows: %s", csv_path));
	{
		static const mf_row rows[] = {{"aten::add", "4", "100", "10"}, {"aten::add", "4.5KB", "150", "10"}};
		char *csv = mf_csv(rows, 2);
		write_file(csv_path, csv);
		free(csv);
		EXPECT(root, RLI_EINVALID,
		       fx_text(FAILED "operator_memory.csv has non-numeric value in numeric column: %s "
				      "(line 3, Size(KB): '4.5KB')", csv_path));
	}
	{
		/* Several problems in one file: each kind once, at its first line. */
		static const mf_row rows[] = {{" ", "4", "100", "10"},     {"aten::add", "", "150", "10"},
					      {"aten::add", "4", "", "10"}, {"aten::add", "4", "nan", "10"},
					      {"\t", "4", "300", "10"},    {"aten::add", "4", "400", "ten"}};
		char *csv = mf_csv(rows, 6);
		write_file(csv_path, csv);
		free(csv);
		EXPECT(root, RLI_EINVALID,
		       fx_text(FAILED "operator_memory.csv has non-numeric value in numeric column: %s "
				      "(line 5, Allocation Time(us): 'nan')"
				      "\n  - operator_memory.csv has an empty value in a required column: %s (line 3, Size(KB))"
				      "\n  - Column 'name' contains empty or NaN values in FilePath: %s (line 2)",
			       csv_path, csv_path, csv_path));
	}
	{
		static const mf_row rows[] = {{"aten::add", "4", "", "10"}};
		char *csv = mf_csv(rows, 1);
		write_file(csv_path, csv);
		free(csv);
		EXPECT(root, RLI_EINVALID,
		       fx_text(FAILED "operator_memory.csv has an empty value in a required column: %s "
				      "(line 2, Allocation Time(us))", csv_path));
	}
	/* Bad quoting: a stray quote, and a quoted field that never closes. */
	write_file(csv_path, fx_text("%saten::add,4,\"100\",,,\"10\",,1,2,3,,,,6,NPU:0\naten::a\"dd,4,\"100\",,,,,1,2,3,,,,6,NPU:0\n",
				     mf_header));
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse CSV file %s: a quote character out of place at line 3", csv_path));
	write_file(csv_path, fx_text("%saten::add,4,\"100\",,,,,1,2,3,,,,6,NPU:0\n\"aten::add,4,\"100\n\n", mf_header));
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse CSV file %s: a quote character out of place at line 3", csv_path));
	/* In the first data row: that message only, not also "no data rows". */
	write_file(csv_path, fx_text("%saten::a\"dd,4,\"100\",,,,,1,2,3,,,,6,NPU:0\n", mf_header));
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse CSV file %s: a quote character out of place at line 2", csv_path));
	write_file(csv_path, fx_text("%s\"aten::add,4,100\n", mf_header));
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse CSV file %s: a quoted field is not closed (it opens on line 2)", csv_path));
	write_file(csv_path, fx_text("%saten::add,4,\"100\",,,,,1,2,3,,,,6,NPU:0\n\"aten::add,4,100\n\n", mf_header));
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse CSV file %s: a quoted field is not closed (it opens on line 3)", csv_path));
}

static void test_trace_rules(const char *root)
{
	good_capture(root);
	write_file(trace_path, "");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "File is empty: %s", trace_path));
	write_file(trace_path, "[\n  {\"ph\": \"X\", \"name\": \"aten::add\",\n   \"args\": {\"Call stack\": \"a.py");
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Failed to parse trace_view.json %s: premature EOF at line 3, column 32", trace_path));
	write_file(trace_path, "{\"traceEvents\": [{\"ph\": \"X\"}]}");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "trace_view.json has no events: %s", trace_path));
	write_file(trace_path, " [ ] ");
	EXPECT(root, RLI_EINVALID, fx_text(FAILED "trace_view.json has no events: %s", trace_path));
	write_file(trace_path, "[1, \"x\"]"); /* items, just no events: no stacks, but the rows parse */
	EXPECT(root, RLI_OK, "");
}

/*
 * What real exports lack and the reference refuses for it (decisions.md): no profiler_info_*.json
 * (the rank from the folder's name, else 0 and one warning), no trace_view.json (no call stacks,
 * one warning naming the captures).
 */
static void test_real_quirks(const char *root)
{
	char *csv = mf_csv(good_rows, 2);
	rli_memory *memory = NULL;
	fx_log log = {NULL, 0};
	int rc;
	fx_remove(root);
	mf_capture(root, "r/node1_rank5_ascend_pt", 0, MF_METADATA, csv, NULL);
	mf_capture(root, "r/a_ascend_pt", 0, MF_METADATA, csv, NULL);
	mf_capture(root, "r/b_ascend_pt", 0, MF_METADATA, csv, NULL);
	fx_remove(fx_text("%s/r/node1_rank5_ascend_pt/profiler_info_0.json", root));
	fx_remove(fx_text("%s/r/a_ascend_pt/profiler_info_0.json", root));
	fx_remove(fx_text("%s/r/b_ascend_pt/profiler_info_0.json", root));
	rc = mf_parse(&memory, root, NULL, NULL, 2, &log);
	CHECK_INT(rc, RLI_OK);
	if (rc != RLI_OK)
		fprintf(stderr, "%s\n", rli_error_last());
	CHECK_INT(rli_memory_count(memory), 6);
	for (size_t i = 0; i < rli_memory_count(memory); i++) {
		rli_memory_row row = mf_get(memory, i);
		CHECK(row.rank_id == 5 || row.rank_id == 0);
		CHECK_STR(row.call_stack, "");
		CHECK_INT(row.match, RLI_MEMORY_UNMATCHED);
	}
	CHECK(fx_log_has(&log, fx_text("INFO: %s/r/node1_rank5_ascend_pt: no profiler_info_*.json; rank 5 from the "
				       "folder's name\n", root)));
	CHECK(fx_log_has(&log, fx_text("WARN: no profiler_info_*.json and no rank in the folder's name "
				       "(rank<N>_ascend_pt or ..._rank<N>_ascend_pt): read as rank 0: %s/r/a_ascend_pt, "
				       "%s/r/b_ascend_pt\n", root, root)));
	CHECK(fx_log_has(&log, fx_text("WARN: no trace_view.json beside operator_memory.csv: memory drawn without call "
				       "stacks: %s/r/a_ascend_pt, %s/r/b_ascend_pt, %s/r/node1_rank5_ascend_pt\n",
				       root, root, root)));
	rli_memory_free(memory);
	fx_log_reset(&log);
	/* A rank list reads the rank from the name too. */
	expect(root, "5", NULL, RLI_OK, "", __LINE__);
	free(csv);
}

/* Every rule at once: the discovery's, then the side files', the trace's and the CSV's. */
static void test_everything_at_once(const char *root)
{
	good_capture(root);
	write_file(metadata_path, "[]");
	write_file(info_path, "{}");
	write_file(trace_path, "[");
	write_file(csv_path, "Name\n");
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "profiler_metadata.json is not a JSON object: %s"
			      "\n  - File field is missing: ['rank_id'] in FilePath: %s"
			      "\n  - Failed to parse trace_view.json %s: premature EOF at line 1, column 2"
			      "\n  - operator_memory.csv missing columns: ['Size(KB)', 'Allocation Time(us)', 'Duration(us)', "
			      "'Allocation Total Allocated(MB)', 'Allocation Total Reserved(MB)', "
			      "'Device Type'] in FilePath: %s",
		       metadata_path, info_path, trace_path, csv_path));
}

/* The output rules (memory.md §5.3), in our words. */
static void test_output_rules(const char *root)
{
	static const mf_row frees[] = {{"aten::add", "-4", "100", ""}, {"aten::add", "0", "200", ""}};
	char *csv = mf_csv(frees, 2);
	good_capture(root);
	write_file(csv_path, csv);
	free(csv);
	EXPECT(root, RLI_EINVALID,
	       fx_text(FAILED "Column 'size_kb' has no positive values: the captures under %s hold no allocation, only frees",
		       root));
	/* Rows that all had to be skipped: too short. */
	write_file(csv_path, fx_text("%saten::add,4,\"100\"\n", mf_header));
	{
		fx_log log = {NULL, 0};
		rli_memory *memory = NULL;
		CHECK_INT(mf_parse(&memory, root, NULL, NULL, 1, &log), RLI_EINVALID);
		CHECK_STR(rli_error_last(),
			  fx_text(FAILED "No memory events: the operator_memory.csv files under %s hold no row that could be read",
				  root));
		CHECK(fx_log_has(&log, "WARN: No valid data collected from any rank\n"));
		CHECK(fx_log_has(&log, fx_text("WARN: %s: 1 row(s) with fewer fields than the header skipped (the first at line 2)\n",
					       csv_path)));
		fx_log_reset(&log);
	}
	good_capture(root);
	expect(root, "3-5", NULL, RLI_EINVALID,
	       fx_text(FAILED "No memory events: no capture folder under %s is in the rank list '3-5' and the role list 'all'",
		       root), __LINE__);
	expect(root, NULL, "actor, critic", RLI_EINVALID,
	       fx_text(FAILED "No memory events: no capture folder under %s is in the rank list 'all' and the role list "
			      "'actor, critic'", root), __LINE__);
	write_file(metadata_path, "{\"role\": \"critic\"}");
	expect(root, NULL, "actor, critic", RLI_OK, "", __LINE__);
}

int main(void)
{
	char *root = fx_tempdir();
	test_path_rules(root);
	test_file_rules(root);
	test_side_files(root);
	test_csv_rules(root);
	test_trace_rules(root);
	test_real_quirks(root);
	test_everything_at_once(root);
	test_output_rules(root);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

/* test_parse_validation.c: every validation rule of timeline.md §7 and every bad input: exact message and return code. */
#include "harness.h"
#include "fixture.h"


static const char info_json[] = "{\"config\":{},\"start_info\":{},\"end_info\":{},"
				"\"torch_npu_version\":\"2.7.1\",\"cann_version\":\"8.3\",\"rank_id\":0}";
static const char good_trace[] =
	"[{\"name\":\"process_name\",\"pid\":5,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},"
	"{\"name\":\"Free\",\"pid\":5,\"tid\":0,\"ph\":\"X\",\"ts\":\"2000\",\"dur\":1000,\"args\":{}}]";
static const char good_torch[] =
	"{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":0,\"world_size\":1},"
	"\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":5}]}";
static const char good_nvtx[] =
	"{\"id\":1,\"table\":\"StringIds\",\"value\":\"step\"}\n"
	"{\"startTime\":1000000,\"table\":\"ANALYSIS_DETAILS\"}\n"
	"{\"name\":\"ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=0\"}\n"
	"{\"eventType\":60,\"start\":0,\"end\":1000000,\"textId\":1}\n";

/* Parses root and checks the return code and the complete message. */
static void expect(const char *root, rli_profiler profiler, int want_rc, const char *want_message, int line)
{
	rli_events *events = NULL;
	char want[8192];
	int rc;
	snprintf(want, sizeof(want), "%s", want_message);
	rc = fx_parse(&events, root, profiler, NULL, 2, NULL);
	if (rc != want_rc || strcmp(rli_error_last(), want) != 0) {
		fprintf(stderr, "line %d: rc %d (want %d)\n got: %s\nwant: %s\n", line, rc, want_rc,
			rli_error_last(), want);
		rli_test_failures++;
	}
	/* A table comes back exactly on RLI_OK and RLI_EPARTIAL. */
	CHECK((events != NULL) == (rc == RLI_OK || rc == RLI_EPARTIAL));
	rli_events_free(events);
}

#define EXPECT(root, profiler, rc, message) expect(root, profiler, rc, message, __LINE__)

static void mstx_unit(const char *root, const char *dir, const char *trace)
{
	fx_write(root, fx_text("%s/profiler_info_0.json", dir), info_json);
	fx_write(root, fx_text("%s/ASCEND_PROFILER_OUTPUT/trace_view.json", dir), trace);
}

static void test_path_rules(void)
{
	char *root = fx_tempdir();
	char missing[4096];
	snprintf(missing, sizeof(missing), "%s/nope", root);
	EXPECT(missing, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Source path is not a directory or does not exist: %s"
		    "\n  - Source path does not exist: %s", missing, missing));
	EXPECT(missing, RLI_PROFILER_AUTO, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Source path is not a directory or does not exist: %s"
		    "\n  - Source path does not exist: %s", missing, missing));
	fx_write(root, "file", "x");
	EXPECT(fx_path(root, "file"), RLI_PROFILER_NVTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Source path is not a directory or does not exist: %s/file"
		    "\n  - No worker_process_*.*.jsonl file found in: %s/file", root, root));
	fx_remove(root);
	free(root);
}

static void test_mstx_rules(void)
{
	char *root = fx_tempdir();
	char trace[4096];
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - No *_ascend_pt path in %s", root));

	/* A folder without trace_view.json or profiler_info: the structural rules fail the run. */
	fx_mkdir(root, "a/x_ascend_pt");
	mstx_unit(root, "b/y_ascend_pt", good_trace);
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed"
		    "\n  - trace_view.json does not exist in: %s/a/x_ascend_pt/ASCEND_PROFILER_OUTPUT"
		    "\n  - profiler_info_*.json does not exist in: %s/a/x_ascend_pt"
		    "\n  - Missing trace_view.json in: %s/a/x_ascend_pt/ASCEND_PROFILER_OUTPUT",
		    root, root, root));
	fx_remove(fx_path(root, "a"));

	snprintf(trace, sizeof(trace), "%s/b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", root);
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID, fx_text("Data validation failed\n  - File is empty: %s", trace));
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[ ]");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID, fx_text("Data validation failed\n  - File is empty: %s", trace));
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[\n {\"ph\": \"X\",\n  \"name\"");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: premature EOF at line 3, column 9", trace));
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[{\"ph\":\"X\"}, {\"ph\": X}]");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - File field is missing: {'name', 'pid', 'tid'} in FilePath: %s", trace));
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[{\"ph\":\"X\",\"name\":1,\"pid\":1,\"tid\":1}, {\"ph\": X}]");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: invalid char in json text at line 1, column 46", trace));
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "{\"traceEvents\": []}");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: expected a JSON array of trace events", trace));
	/* Deep nesting is refused, not recursed into. */
	{
		char deep[3000];
		memset(deep, '[', 2000);
		deep[2000] = '\0';
		fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", deep);
		EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
		       fx_text("Data validation failed\n  - Failed to parse JSON file %s: nesting deeper than 512 levels at line 1, column 514", trace));
	}
	/* No Overlap Analysis process: the unit failed, named with its file. */
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
		 "[{\"name\":\"Free\",\"pid\":5,\"tid\":0,\"ph\":\"X\",\"ts\":\"1\",\"dur\":1,\"args\":{}}]");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Rank 0: Overlap Analysis process not found in %s", trace));

	/* profiler_info content, and a broken profiler_metadata.json. */
	fx_write(root, "b/y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", good_trace);
	fx_write(root, "b/y_ascend_pt/profiler_info_0.json", "{\"config\": {}, \"rank_id\": 0}");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - File field is missing: {'start_info', 'end_info', 'torch_npu_version', "
		    "'cann_version'} in FilePath: %s/b/y_ascend_pt/profiler_info_0.json", root));
	fx_write(root, "b/y_ascend_pt/profiler_info_0.json", "{}");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - File is empty: %s/b/y_ascend_pt/profiler_info_0.json", root));
	fx_write(root, "b/y_ascend_pt/profiler_info_0.json", info_json);
	fx_write(root, "b/y_ascend_pt/profiler_metadata.json", "{\"role\": ");
	EXPECT(root, RLI_PROFILER_MSTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s/b/y_ascend_pt/profiler_metadata.json: "
		    "premature EOF at line 1, column 10", root));
	fx_remove(fx_path(root, "b/y_ascend_pt/profiler_metadata.json"));
	EXPECT(root, RLI_PROFILER_MSTX, RLI_OK, "");

	/* One bad unit among good ones: the good rows, the failure reported, RLI_EPARTIAL. */
	mstx_unit(root, "c/z_ascend_pt", "[{\"name\":\"Free\",\"pid\":5,\"tid\":0,\"ph\":\"X\",\"ts\":\"1\"");
	{
		rli_events *events = NULL;
		fx_log log = {0};
		char failure[4096], line[4200];
		int rc;
		snprintf(failure, sizeof(failure),
			 "Failed to parse JSON file %s/c/z_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json: "
			 "premature EOF at line 1, column 50", root);
		rc = fx_parse(&events, root, RLI_PROFILER_MSTX, NULL, 2, &log);
		CHECK_INT(rc, RLI_EPARTIAL);
		CHECK_INT(rli_events_count(events), 1);
		snprintf(line, sizeof(line), "ERROR: %s\n", failure);
		CHECK(fx_log_has(&log, line));
		CHECK_STR(rli_error_last(), fx_text("Data validation failed\n  - %s", failure));
		rli_events_free(events);
		fx_log_reset(&log);
	}
	fx_remove(root);
	free(root);
}

static void test_torch_rules(void)
{
	char *root = fx_tempdir();
	const char *file = NULL;
	char path[4096];
	fx_mkdir(root, "empty_role");
	fx_mkdir(root, "other/deeper");
	fx_write_gz(root, "good/prof_rank-0_1.json.gz", good_torch, 100);
	fx_write_gz(root, "nested/step_1/prof_rank-0_1.json.gz", good_torch, 100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EINVALID,
	       fx_text("Data validation failed\n  - The path '%s/empty_role' has no PyTorch trace: no *.json.gz file "
		       "at any depth (such as prof_rank-0_120000.json.gz or host_1234.1700000000.pt.trace.json.gz)\n"
		       "  - The path '%s/other' has no PyTorch trace: no *.json.gz file at any depth (such as "
		       "prof_rank-0_120000.json.gz or host_1234.1700000000.pt.trace.json.gz)", root, root));
	fx_remove(fx_path(root, "empty_role"));
	fx_remove(fx_path(root, "other"));
	EXPECT(root, RLI_PROFILER_TORCH, RLI_OK, "");

	snprintf(path, sizeof(path), "%s/good/prof_rank-0_1.json.gz", root);
	file = path;
	fx_write_gz(root, "good/prof_rank-0_1.json.gz", good_torch, 60);
	{
		/* How much inflates before the cut depends on zlib; the rest of the message does not. */
		rli_events *events = NULL;
		char want[4200];
		int rc = fx_parse(&events, root, RLI_PROFILER_TORCH, NULL, 2, NULL);
		CHECK_INT(rc, RLI_EPARTIAL);
		snprintf(want, sizeof(want), "Data validation failed\n  - Failed to decompress %s: unexpected end of file after ", file);
		CHECK(strncmp(rli_error_last(), want, strlen(want)) == 0);
		CHECK(strstr(rli_error_last(), " bytes of JSON (the gzip file is truncated or corrupt)") != NULL);
		rli_events_free(events);
	}
	fx_write_gz(root, "good/prof_rank-0_1.json.gz",
		    "{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":0,\"world_size\":1},\n\"traceEvents\":["
		    "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":5},\n"
		    "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":\"1000\",\"dur\":5}]}", 100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: 'ts' of trace event 2 must be a number, "
		    "got a string at line 3, column 49", file));
	fx_write_gz(root, "good/prof_rank-0_1.json.gz",
		    "{\"distributedInfo\":{\"rank\":0},\"traceEvents\":[]}", 100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - The 'distributedInfo' field missing: {'world_size', 'backend'} in FilePath: %s"
		    "\n  - The 'traceEvents' field is empty in FilePath: %s", file, file));
	fx_write_gz(root, "good/prof_rank-0_1.json.gz",
		    "{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":0,\"world_size\":1},"
		    "\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":5},{\"ph\":\"X\",\"pid\":1}]}",
		    100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - The 'traceEvents' field missing: {'name', 'tid', 'ts'} in FilePath: %s", file));
	fx_write_gz(root, "good/prof_rank-0_1.json.gz",
		    "{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":1e30,\"world_size\":1},\"traceEvents\":[]}", 100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: 'rank' in 'distributedInfo' must be an "
		    "integer, got another number at line 1, column 49", file));
	fx_write_gz(root, "good/prof_rank-0_1.json.gz", "{}", 100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EPARTIAL, fx_text("Data validation failed\n  - File is empty: %s", file));
	fx_write_gz(root, "good/prof_rank-0_1.json.gz", "", 100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EPARTIAL, fx_text("Data validation failed\n  - File is empty: %s", file));
	fx_write(root, "good/prof_rank-0_1.json.gz", "\x1f\x8b\x08\x00garbage that is not deflate");
	{
		rli_events *events = NULL;
		int rc = fx_parse(&events, root, RLI_PROFILER_TORCH, NULL, 2, NULL);
		CHECK_INT(rc, RLI_EPARTIAL);
		CHECK(strstr(rli_error_last(), fx_text("Failed to decompress %s: ", file)) != NULL);
		rli_events_free(events);
	}
	/* Only a negative rank: a failed unit (dropped units are never a mere warning), the nested unit still parses. */
	fx_write_gz(root, "good/prof_rank-0_1.json.gz",
		    "{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":-1,\"world_size\":1},"
		    "\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":5}]}", 100);
	{
		rli_events *events = NULL;
		fx_log log = {0};
		int rc = fx_parse(&events, root, RLI_PROFILER_TORCH, NULL, 2, &log);
		CHECK_INT(rc, RLI_EPARTIAL);
		CHECK_INT(rli_events_count(events), 1);
		CHECK(fx_log_has(&log, fx_text("ERROR: Path %s: No valid distributedInfo for Analysis (a rank of 0 or more)",
					       file)));
		rli_events_free(events);
		fx_log_reset(&log);
	}
	/* Only async_llm traces: the checker passes, the parser finds nothing to read. */
	fx_remove(fx_path(root, "good"));
	fx_remove(fx_path(root, "nested"));
	fx_write_gz(root, "roll/async_llm_1.json.gz", good_torch, 100);
	EXPECT(root, RLI_PROFILER_TORCH, RLI_EINVALID,
	       "Data validation failed\n  - nothing to draw: no input unit to read was found");
	fx_remove(root);
	free(root);
}

static void test_nvtx_rules(void)
{
	char *root = fx_tempdir();
	const char *file;
	char path[4096];
	fx_write(root, "sub/worker_process_1.1.jsonl", good_nvtx);
	fx_write(root, "notes.1.jsonl", good_nvtx); /* parsed (three parts) but not what the checker looks for */
	EXPECT(root, RLI_PROFILER_NVTX, RLI_OK, "");
	fx_remove(fx_path(root, "sub"));
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EINVALID,
	       fx_text("Data validation failed\n  - No worker_process_*.*.jsonl file found in: %s", root));
	fx_remove(fx_path(root, "notes.1.jsonl"));

	fx_write(root, "worker_process_2.1.jsonl", good_nvtx);
	snprintf(path, sizeof(path), "%s/worker_process_1.1.jsonl", root);
	file = path;
	fx_write(root, "worker_process_1.1.jsonl", "");
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EPARTIAL, fx_text("Data validation failed\n  - JSONL file is empty: %s", file));
	fx_write(root, "worker_process_1.1.jsonl", "\n  \n{\"table\":\"x\"}\n");
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - No 'startTime' found in file: %s"
		    "\n  - No 'eventType' which equals to 60 found in file: %s", file, file));
	fx_write(root, "worker_process_1.1.jsonl", "{\"startTime\":1}\n{\"eventType\":60,\"end\":1}\n");
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - File field is missing: ['start', 'textId'] in FilePath: %s", file));
	fx_write(root, "worker_process_1.1.jsonl", "{\"startTime\":1}\n\n  {\"eventType\":60,, \"end\":1}\n");
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: invalid object key (must be a string)"
		    " at line 3, column 19", file));
	fx_write(root, "worker_process_1.1.jsonl", "{\"startTime\":1}\n[1, 2]\n");
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: expected a JSON object at line 2, column 2", file));
	fx_write(root, "worker_process_1.1.jsonl", "{\"startTime\":1}\n{\"a\":1} {\"b\":2}\n");
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: trailing garbage at line 2, column 9", file));
	fx_write(root, "worker_process_1.1.jsonl",
		 "{\"id\":1,\"table\":\"StringIds\",\"value\":\"step\"}\n"
		 "{\"startTime\":\"1000\",\"table\":\"ANALYSIS_DETAILS\"}\n"
		 "{\"name\":\"ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=0\"}\n"
		 "{\"eventType\":60,\"start\":0,\"end\":1000000,\"textId\":1}\n");
	EXPECT(root, RLI_PROFILER_NVTX, RLI_EPARTIAL,
	       fx_text("Data validation failed\n  - Failed to parse JSON file %s: 'startTime' must be a number, got a string at line 2", file));
	fx_remove(root);
	free(root);
}

/* Bytes that are no JSON at all, in every format: a clean failure, never a crash. */
static void test_garbage(void)
{
	char *root = fx_tempdir();
	unsigned char noise[5000];
	uint32_t state = 12345;
	for (size_t i = 0; i < sizeof(noise); i++) {
		state = state * 1103515245u + 12345u;
		noise[i] = (unsigned char)(state >> 16);
	}
	fx_write(root, "m/r/x_ascend_pt/profiler_info_0.json", info_json);
	fx_write_bytes(root, "m/r/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", noise, sizeof(noise));
	fx_write_bytes(root, "n/worker_process_1.1.jsonl", noise, sizeof(noise));
	fx_write_bytes(root, "t/r/a.json.gz", noise, sizeof(noise));
	{
		rli_events *events = NULL;
		CHECK_INT(fx_parse(&events, fx_path(root, "m"), RLI_PROFILER_MSTX, NULL, 1, NULL), RLI_EINVALID);
		CHECK(strstr(rli_error_last(), "Failed to parse JSON file ") != NULL);
		CHECK_INT(fx_parse(&events, fx_path(root, "n"), RLI_PROFILER_NVTX, NULL, 1, NULL), RLI_EINVALID);
		CHECK(strstr(rli_error_last(), "Failed to parse JSON file ") != NULL);
		CHECK_INT(fx_parse(&events, fx_path(root, "t"), RLI_PROFILER_TORCH, NULL, 1, NULL), RLI_EINVALID);
		CHECK(strstr(rli_error_last(), "Failed to parse JSON file ") != NULL);
		CHECK(events == NULL);
	}
	fx_remove(root);
	free(root);
}

int main(void)
{
	test_path_rules();
	test_mstx_rules();
	test_torch_rules();
	test_nvtx_rules();
	test_garbage();
	TEST_DONE();
}

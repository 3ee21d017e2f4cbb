/* test_parse_fixtures.c: hand-written MSTX, torch and NVTX trees exercising every parsing rule of timeline.md §3-§5. */
#include "harness.h"
#include "fixture.h"

#include <stdarg.h>

static const char info_json[] = "{\"config\":{},\"start_info\":{},\"end_info\":{},"
				"\"torch_npu_version\":\"2.7.1\",\"cann_version\":\"8.3\",\"rank_id\":\"0\"}";

static char *format(const char *fmt, ...)
{
	static char buffer[1 << 20];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buffer, sizeof(buffer), fmt, ap);
	va_end(ap);
	return buffer;
}

static void expect_row(const rli_events *events, size_t index, const char *name, const char *role,
		       long long rank, const char *tid, int tid_is_text, double start, double duration)
{
	rli_event e;
	if (index >= rli_events_count(events)) {
		fprintf(stderr, "row %zu missing\n", index);
		rli_test_failures++;
		return;
	}
	rli_events_get(&e, events, index);
	CHECK_STR(e.name, name);
	CHECK_STR(e.role, role);
	CHECK_STR(e.domain, "default");
	CHECK_INT(e.rank_id, rank);
	CHECK_STR(e.tid, tid);
	CHECK_INT(e.tid_is_text, tid_is_text);
	/* Bit-exact: these are the reference's own formulas on the same inputs. */
	CHECK(e.start_ms == start);
	CHECK(e.duration_ms == duration);
	CHECK(e.end_ms == start + duration);
}

/* timeline.md §4.3's oracle, plus the async_llm and role rules of §4.2. */
static void test_torch(void)
{
	char *root = fx_tempdir();
	fx_log log = {0};
	rli_events *events = NULL;
	int rc;
	fx_write_gz(root, "actor_update/prof_rank-0_000001.json.gz",
		    "{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":0,\"world_size\":2},"
		    "\"traceEvents\":["
		    "{\"ph\":\"X\",\"name\":\"a\",\"pid\":12345,\"tid\":1,\"ts\":1000000,\"dur\":500000},"
		    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":12345,\"tid\":0,\"ts\":10,\"args\":{\"name\":\"w\"}},"
		    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":\"Spans\",\"tid\":\"x\",\"ts\":1600000,\"dur\":300000},"
		    "{\"ph\":\"X\",\"name\":\"neg\",\"pid\":1,\"tid\":1,\"ts\":-5,\"dur\":10},"
		    "{\"ph\":\"i\",\"name\":\"instant\",\"pid\":\"\",\"tid\":\"\",\"ts\":2000000}]}",
		    100);
	/* Would start at 1 ms and change the envelope if it were read. */
	fx_write_gz(root, "actor_update/async_llm_0.json.gz",
		    "{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":0,\"world_size\":2},"
		    "\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":1}]}",
		    100);
	/* Keys in another order, distributedInfo last, a dur of 0 kept. */
	fx_write_gz(root, "rollout/host_1.2.pt.trace.json.gz",
		    "{\"traceEvents\":[{\"ts\":3000000,\"dur\":0,\"tid\":2,\"pid\":777,\"name\":\"z\",\"ph\":\"X\"}],"
		    "\"distributedInfo\":{\"world_size\":2,\"backend\":\"gloo\",\"rank\":1}}",
		    100);
	rc = fx_parse(&events, root, RLI_PROFILER_TORCH, NULL, 2, &log);
	CHECK_INT(rc, RLI_OK);
	if (rc != RLI_OK)
		fprintf(stderr, "%s\n%s", rli_error_last(), log.text ? log.text : "");
	CHECK_INT(rli_events_count(events), 2);
	expect_row(events, 0, "actor_update", "actor_update", 0, "12345", 0, 1000.0, 900.0);
	expect_row(events, 1, "rollout", "rollout", 1, "777", 0, 3000.0, 0.0);
	CHECK(fx_log_has(&log, "INFO: Data validation passed for multi_json_torch"));
	rli_events_free(events);
	fx_log_reset(&log);
	fx_remove(root);
	free(root);
}

static void write_mstx_unit(const char *root, const char *dir, const char *info_name, const char *trace)
{
	fx_write(root, format("%s/%s", dir, info_name), info_json);
	fx_write(root, format("%s/ASCEND_PROFILER_OUTPUT/trace_view.json", dir), trace);
}

static void test_mstx(void)
{
	char *root = fx_tempdir();
	fx_log log = {0};
	rli_events *events = NULL;
	double start_a, end_a;
	int rc;

	/*
	 * The Overlap Analysis process (pid 7) is only named after its X events;
	 * pid 8 starts earlier and is named "Overlap Analysis" later too, but only
	 * the first such M event counts. ts are strings, as Ascend writes them.
	 * X events without args (torch_npu's Overlap Analysis lanes) or with args null count too:
	 * NoArgs starts the bar.
	 */
	write_mstx_unit(root, "actor/zz_ascend_pt", "profiler_info_3.json",
			"[\n"
			" {\"name\":\"Computing\",\"pid\":8,\"tid\":2,\"ph\":\"X\",\"ts\":\"500.0\",\"dur\":1.5,\"args\":{}},\n"
			" {\"name\":\"Computing\",\"pid\":7,\"tid\":2,\"ph\":\"X\",\"ts\":\"1773285904640626.314\",\"dur\":145.623,\"args\":{}},\n"
			" {\"name\":\"Free\",\"pid\":7,\"tid\":3,\"ph\":\"X\",\"ts\":\"1773285904639877.299\",\"dur\":749.015,\"args\":{}},\n"
			" {\"name\":\"NoArgs\",\"pid\":7,\"tid\":3,\"ph\":\"X\",\"ts\":\"1773285904639800.5\",\"dur\":1},\n"
			" {\"name\":\"NullArgs\",\"pid\":7,\"tid\":3,\"ph\":\"X\",\"ts\":\"1773285904640000.0\",\"dur\":1,\"args\":null},\n"
			" {\"name\":\"NoDur\",\"pid\":7,\"tid\":3,\"ph\":\"X\",\"ts\":\"2.0\",\"args\":{}},\n"
			" {\"name\":\"Counter\",\"pid\":7,\"tid\":3,\"ph\":\"C\",\"ts\":\"3.0\",\"dur\":1,\"args\":{}},\n"
			" {\"name\":\"process_name\",\"pid\":9,\"tid\":0,\"ph\":\"M\",\"args\":null},\n"
			" {\"name\":\"process_name\",\"pid\":7,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},\n"
			" {\"name\":\"process_name\",\"pid\":8,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},\n"
			" {\"name\":\"Communication\",\"pid\":7,\"tid\":0,\"ph\":\"X\",\"ts\":\"1773285904641909.419\",\"dur\":12782.896,\"args\":{}}\n"
			"]");
	start_a = 1773285904639800.5 / 1000;
	end_a = 1773285904641909.419 + 12782.896;

	/* Two profiled steps of one (role, rank): ordered by the timestamp in the name, not alphabetically. */
	write_mstx_unit(root, "rollout/a_20250101_120000_ascend_pt", "profiler_info_0.json",
			"[{\"name\":\"process_name\",\"pid\":\"twenty\",\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},"
			"{\"name\":\"Free\",\"pid\":\"twenty\",\"tid\":0,\"ph\":\"X\",\"ts\":\"100000\",\"dur\":\"50\",\"args\":{}}]");
	write_mstx_unit(root, "rollout/b_20250101_110000_ascend_pt", "profiler_info_0.json",
			"[{\"name\":\"process_name\",\"pid\":\"twenty\",\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},"
			"{\"name\":\"Free\",\"pid\":\"twenty\",\"tid\":0,\"ph\":\"X\",\"ts\":100000,\"dur\":10,\"args\":{}}]");

	/* profiler_metadata.json's role replaces the folder's name. */
	write_mstx_unit(root, "ref/x_ascend_pt", "profiler_info_1.json",
			"[{\"name\":\"process_name\",\"pid\":5,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},"
			"{\"name\":\"Free\",\"pid\":5,\"tid\":0,\"ph\":\"X\",\"ts\":\"200000\",\"dur\":1000,\"args\":{}}]");
	fx_write(root, "ref/x_ascend_pt/profiler_metadata.json", "{\"role\": \"reference_policy\", \"other\": [1]}");

	/* A rank that is not a number: a failed unit, named with the reason. */
	write_mstx_unit(root, "odd/y_ascend_pt", "profiler_info_x.json",
			"[{\"name\":\"process_name\",\"pid\":5,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},"
			"{\"name\":\"Free\",\"pid\":5,\"tid\":0,\"ph\":\"X\",\"ts\":\"1\",\"dur\":1,\"args\":{}}]");
	/* No Overlap Analysis process: a failed unit and no row. */
	write_mstx_unit(root, "none/step_ascend_pt", "profiler_info_4.json",
			"[{\"name\":\"Free\",\"pid\":5,\"tid\":0,\"ph\":\"X\",\"ts\":\"1\",\"dur\":1,\"args\":{}}]");

	rc = fx_parse(&events, root, RLI_PROFILER_MSTX, NULL, 3, &log);
	CHECK_INT(rc, RLI_EPARTIAL);
	if (rc != RLI_EPARTIAL)
		fprintf(stderr, "%s\n%s", rli_error_last(), log.text ? log.text : "");
	CHECK_INT(rli_events_count(events), 4);
	expect_row(events, 0, "rollout", "rollout", 0, "twenty", 1, 100.0, 0.01);
	expect_row(events, 1, "rollout", "rollout", 0, "twenty", 1, 100.0, 0.05);
	expect_row(events, 2, "reference_policy", "reference_policy", 1, "5", 0, 200.0, 1.0);
	expect_row(events, 3, "actor", "actor", 3, "7", 0, start_a, (end_a - 1773285904639800.5) / 1000);
	CHECK(fx_log_has(&log, format("WARN: %s/actor/zz_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json: Row missing "
				      "required fields: ts or dur. Skipping row.", root)));
	CHECK(fx_log_has(&log, format("ERROR: %s/odd/y_ascend_pt: no valid rank id: %s/odd/y_ascend_pt/profiler_info_x.json "
				      "is not profiler_info_<rank>.json with a whole-number rank", root, root)));
	CHECK(fx_log_has(&log, format("ERROR: Rank 4: Overlap Analysis process not found in "
				      "%s/none/step_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", root)));
	rli_events_free(events);
	fx_log_reset(&log);
	fx_remove(root);
	free(root);
}

/* Thousands of events: tokens straddle the 64 KiB read boundaries. */
static void test_mstx_large(void)
{
	char *root = fx_tempdir();
	size_t capacity = 1 << 21, used = 0;
	char *trace = malloc(capacity);
	rli_events *events = NULL;
	double min_ts = 0, max_end = 0;
	int rc;
	used += (size_t)snprintf(trace + used, capacity - used, "[");
	for (int i = 0; i < 6000; i++) {
		double ts = 1773285904000000.0 + (i * 7919) % 6000 * 1.25, dur = 3.5 + i % 13;
		if (i == 0 || ts < min_ts)
			min_ts = ts;
		if (i == 0 || ts + dur > max_end)
			max_end = ts + dur;
		used += (size_t)snprintf(trace + used, capacity - used,
					 "%s\n  {\"name\": \"Computing\", \"pid\": 42, \"tid\": %d, \"ph\": \"X\", "
					 "\"ts\": \"%.3f\", \"dur\": %.3f, \"args\": {\"k\": [1, {\"deep\": \"x\"}]}}",
					 i ? "," : "", i % 4, ts, dur);
	}
	used += (size_t)snprintf(trace + used, capacity - used,
				 ",{\"name\":\"process_name\",\"pid\":42,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}}]");
	CHECK(used > 3 * 65536);
	write_mstx_unit(root, "big/x_ascend_pt", "profiler_info_0.json", trace);
	rc = fx_parse(&events, root, RLI_PROFILER_MSTX, NULL, 1, NULL);
	CHECK_INT(rc, RLI_OK);
	expect_row(events, 0, "big", "big", 0, "42", 0, min_ts / 1000, (max_end - min_ts) / 1000);
	rli_events_free(events);
	free(trace);
	fx_remove(root);
	free(root);
}

static void test_nvtx(void)
{
	char *root = fx_tempdir();
	fx_log log = {0};
	rli_events *events = NULL;
	char *long_name = malloc(150001);
	int rc;
	memset(long_name, 'n', 150000);
	long_name[150000] = '\0';
	fx_write(root, "worker_process_4242.7.jsonl",
		 format("{\"id\":1,\"table\":\"StringIds\",\"value\":\"generate\"}\n"
			"\n   \t\n"
			"{\"id\":2,\"table\":\"StringIds\",\"value\":\"old\"}\r\n"
			"{\"id\":2,\"table\":\"StringIds\",\"value\":\"train\"}\n"
			"{\"id\":3,\"table\":\"StringIds\",\"value\":\"%s\"}\n"
			"{\"duration\":1,\"startTime\":6589107243593703,\"stopTime\":6589128312409199,\"table\":\"ANALYSIS_DETAILS\"}\n"
			"{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\" rank=\\\"1\\\" \"}\n"
			"{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=2\"}\n"
			"{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"LOCAL_RANK=5\"}\n"
			"{\"eventType\":60,\"start\":20979323,\"end\":21019655556,\"textId\":1,\"table\":\"NVTX_EVENTS\"}\n"
			"{\"eventType\":59,\"start\":1,\"end\":2,\"textId\":1}\n"
			"{\"eventType\":60,\"start\":4000000,\"end\":4500000,\"textId\":2}\n"
			"{\"eventType\":60,\"start\":5000000,\"end\":5000001,\"textId\":3}\n"
			"{\"eventType\":60,\"start\":6000000,\"end\":6000001,\"textId\":99}\n"
			"{\"eventType\":60,\"start\":7000000,\"end\":7000001,\"textId\":1}",
			long_name));
	/* No RANK: a failed unit and no rows. */
	fx_write(root, "worker_process_4242.8.jsonl",
		 "{\"id\":1,\"table\":\"StringIds\",\"value\":\"x\"}\n"
		 "{\"startTime\":1,\"table\":\"ANALYSIS_DETAILS\"}\n"
		 "{\"eventType\":60,\"start\":1,\"end\":2,\"textId\":1}\n");
	/* Four dot-separated parts: not an NVTX unit, never read. */
	fx_write(root, "worker_process_1.2.3.jsonl", "not json at all\n");
	/* In a sub-folder: found by the recursive walk; a null start stops it after one row. */
	fx_write(root, "more/worker_process_77.1.jsonl",
		 "{\"id\":\"a\",\"table\":\"StringIds\",\"value\":\"sub\"}\n"
		 "{\"startTime\":1000000,\"table\":\"ANALYSIS_DETAILS\"}\n"
		 "{\"name\":\"ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=\\\"0\\\"\"}\n"
		 "{\"eventType\":60.0,\"start\":0,\"end\":1500000,\"textId\":\"a\"}\n"
		 "{\"eventType\":60,\"start\":null,\"end\":1,\"textId\":\"a\"}\n");
	rc = fx_parse(&events, root, RLI_PROFILER_NVTX, NULL, 2, &log);
	CHECK_INT(rc, RLI_EPARTIAL);
	if (rc != RLI_EPARTIAL)
		fprintf(stderr, "%s\n%s", rli_error_last(), log.text ? log.text : "");
	CHECK_INT(rli_events_count(events), 4);
	expect_row(events, 0, "sub", "sub", 0, "77", 1, 1.0, 1.5);
	expect_row(events, 1, "train", "train", 2, "4242", 1,
		   (double)(4000000 + 6589107243593703LL) / 1000 / 1000, 0.5);
	expect_row(events, 2, long_name, long_name, 2, "4242", 1,
		   (double)(5000000 + 6589107243593703LL) / 1000 / 1000, 1e-6);
	expect_row(events, 3, "generate", "generate", 2, "4242", 1,
		   (double)(20979323 + 6589107243593703LL) / 1000 / 1000,
		   (double)(21019655556LL - 20979323) / 1000 / 1000);
	CHECK(fx_log_has(&log, format("WARN: %s/worker_process_4242.7.jsonl:15: No valid role for Analysis (no "
				      "StringIds line gives its textId a value); the unit's later ranges are skipped",
				      root)));
	CHECK(fx_log_has(&log, format("WARN: %s/more/worker_process_77.1.jsonl:5: No valid timing for Analysis; the "
				      "unit's later ranges are skipped", root)));
	CHECK(fx_log_has(&log, format("ERROR: Path %s/worker_process_4242.8.jsonl: No valid rank for Analysis", root)));
	rli_events_free(events);
	free(long_name);
	fx_log_reset(&log);
	fx_remove(root);
	free(root);
}

int main(void)
{
	test_torch();
	test_mstx();
	test_mstx_large();
	test_nvtx();
	TEST_DONE();
}

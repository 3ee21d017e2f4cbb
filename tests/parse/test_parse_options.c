/* test_parse_options.c: rank lists, thread counts, profiler detection and names. */
#include "harness.h"
#include "fixture.h"


static const char info_json[] = "{\"config\":{},\"start_info\":{},\"end_info\":{},"
				"\"torch_npu_version\":\"2.7.1\",\"cann_version\":\"8.3\",\"rank_id\":0}";

/* Ranks 0..7 in three roles; several units share start times, so the merge order shows. */
static void write_mstx_tree(const char *root)
{
	for (int rank = 0; rank < 8; rank++) {
		for (int role = 0; role < 3; role++) {
			char dir[256], trace[512];
			snprintf(dir, sizeof(dir), "role%d/r%d_ascend_pt", role, rank);
			snprintf(trace, sizeof(trace),
				 "[{\"name\":\"process_name\",\"pid\":%d,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},"
				 "{\"name\":\"Free\",\"pid\":%d,\"tid\":0,\"ph\":\"X\",\"ts\":\"%d\",\"dur\":%d,\"args\":{}}]",
				 100 + rank, 100 + rank, 1000 * (rank % 3), 10 + role);
			fx_write(root, fx_text("%s/profiler_info_%d.json", dir, rank), info_json);
			fx_write(root, fx_text("%s/ASCEND_PROFILER_OUTPUT/trace_view.json", dir), trace);
		}
	}
}

static void write_torch_tree(const char *root)
{
	char name[256];
	for (int rank = 0; rank < 4; rank++) {
		snprintf(name, sizeof(name), "role/prof_rank-%d.json.gz", rank);
		fx_write_gz(root, name,
			    fx_text("{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":%d,\"world_size\":4},"
				 "\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":5}]}",
				 rank, 1000 * rank),
			    100);
	}
}

static void write_nvtx_tree(const char *root)
{
	char name[256];
	for (int rank = 0; rank < 4; rank++) {
		snprintf(name, sizeof(name), "worker_process_%d.1.jsonl", 500 + rank);
		fx_write(root, name,
			 fx_text("{\"id\":1,\"table\":\"StringIds\",\"value\":\"step\"}\n"
			      "{\"startTime\":1000000,\"table\":\"ANALYSIS_DETAILS\"}\n"
			      "{\"name\":\"ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=%d\"}\n"
			      "{\"eventType\":60,\"start\":0,\"end\":1000000,\"textId\":1}\n",
			      rank));
	}
}

/* The ranks of the rows, as "0,2,..." in row order. */
static const char *ranks_of(const rli_events *events)
{
	static char buffer[1024];
	size_t used = 0;
	buffer[0] = '\0';
	for (size_t i = 0; i < rli_events_count(events); i++) {
		rli_event e;
		rli_events_get(&e, events, i);
		used += (size_t)snprintf(buffer + used, sizeof(buffer) - used, "%s%lld", i ? "," : "",
					 (long long)e.rank_id);
	}
	return buffer;
}

static void test_rank_lists(void)
{
	char *mstx = fx_tempdir(), *torch = fx_tempdir(), *nvtx = fx_tempdir();
	rli_events *events = NULL;
	write_mstx_tree(mstx);
	write_torch_tree(torch);
	write_nvtx_tree(nvtx);

	CHECK_INT(fx_parse(&events, mstx, RLI_PROFILER_MSTX, "all", 2, NULL), RLI_OK);
	CHECK_INT(rli_events_count(events), 24);
	rli_events_free(events);
	CHECK_INT(fx_parse(&events, mstx, RLI_PROFILER_MSTX, " 1 , 4-5,7", 2, NULL), RLI_OK);
	/* Starts are 1000*(rank%3): ranks 1, 4, 7 at 1000, rank 5 at 2000; ties keep the units' (role, rank) order. */
	CHECK_STR(ranks_of(events), "1,4,7,1,4,7,1,4,7,5,5,5");
	rli_events_free(events);
	CHECK_INT(fx_parse(&events, mstx, RLI_PROFILER_MSTX, "9", 2, NULL), RLI_EINVALID);
	CHECK_STR(rli_error_last(), "Data validation failed\n  - no input unit matched the rank list 9; the input has ranks 0-7");

	CHECK_INT(fx_parse(&events, torch, RLI_PROFILER_TORCH, "0,2-3", 2, NULL), RLI_OK);
	CHECK_STR(ranks_of(events), "0,2,3");
	rli_events_free(events);
	CHECK_INT(fx_parse(&events, nvtx, RLI_PROFILER_NVTX, "1", 2, NULL), RLI_OK);
	CHECK_STR(ranks_of(events), "1");
	rli_events_free(events);

	CHECK_INT(fx_parse(&events, nvtx, RLI_PROFILER_NVTX, "1,x", 2, NULL), RLI_EUSAGE);
	CHECK_STR(rli_error_last(), "invalid rank list '1,x': expected 'all' or ranks and ranges separated by commas, such as 0,2,4-7");
	CHECK_INT(fx_parse(&events, nvtx, RLI_PROFILER_NVTX, "5-2", 2, NULL), RLI_EUSAGE);
	CHECK_INT(fx_parse(&events, nvtx, RLI_PROFILER_NVTX, "", 2, NULL), RLI_EUSAGE);
	CHECK_INT(fx_parse(&events, nvtx, RLI_PROFILER_NVTX, "1,", 2, NULL), RLI_EUSAGE);
	CHECK_INT(fx_parse(&events, nvtx, RLI_PROFILER_NVTX, "-1", 2, NULL), RLI_EUSAGE);
	CHECK_INT(fx_parse(&events, nvtx, RLI_PROFILER_NVTX, "99999999999999999999", 2, NULL), RLI_EUSAGE);
	CHECK(events == NULL);
	fx_remove(mstx);
	fx_remove(torch);
	fx_remove(nvtx);
	free(mstx);
	free(torch);
	free(nvtx);
}

/* The table never depends on the number of threads or on which finishes first. */
static void test_jobs(void)
{
	char *root = fx_tempdir();
	rli_events *one = NULL, *four = NULL;
	fx_log log_one = {0}, log_four = {0};
	write_mstx_tree(root);
	/* Warnings, to check they come out in unit order whatever the threads do. */
	fx_write(root, "zz/x_ascend_pt/profiler_info_0.json", info_json);
	fx_write(root, "zz/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
		 "[{\"name\":\"a\",\"pid\":1,\"tid\":0,\"ph\":\"X\",\"ts\":\"1\",\"dur\":1,\"args\":{}}]");
	fx_write(root, "aa/x_ascend_pt/profiler_info_1.json", info_json);
	fx_write(root, "aa/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
		 "[{\"name\":\"a\",\"pid\":1,\"tid\":0,\"ph\":\"X\",\"ts\":\"1\",\"dur\":1,\"args\":{}}]");
	CHECK_INT(fx_parse(&one, root, RLI_PROFILER_MSTX, NULL, 1, &log_one), RLI_EPARTIAL);
	for (int round = 0; round < 5; round++) {
		CHECK_INT(fx_parse(&four, root, RLI_PROFILER_MSTX, NULL, 4, &log_four), RLI_EPARTIAL);
		CHECK_INT(rli_events_count(four), rli_events_count(one));
		for (size_t i = 0; i < rli_events_count(one) && i < rli_events_count(four); i++) {
			char a[1024], b[1024];
			fx_row(a, sizeof(a), one, i);
			fx_row(b, sizeof(b), four, i);
			CHECK_STR(b, a);
		}
		CHECK(strstr(log_four.text, "ERROR: Rank 1: Overlap Analysis process not found in ") != NULL);
		CHECK(strstr(log_four.text, "ERROR: Rank 1: Overlap Analysis process not found in ") <
		      strstr(log_four.text, "ERROR: Rank 0: Overlap Analysis process not found in "));
		rli_events_free(four);
		fx_log_reset(&log_four);
	}
	CHECK_INT(rli_events_count(one), 24);
	rli_events_free(one);
	fx_log_reset(&log_one);
	fx_remove(root);
	free(root);
}

static void test_detection(void)
{
	char *root = fx_tempdir();
	rli_events *events = NULL;
	rli_profiler detected = RLI_PROFILER_AUTO;
	rli_parse_options options;
	fx_log log = {0};

	memset(&options, 0, sizeof(options));
	options.log = fx_log_fn;
	options.log_ctx = &log;
	CHECK_INT(rli_parse(&events, &detected, root, &options), RLI_EINVALID);
	CHECK_STR(rli_error_last(), fx_text("nothing recognisable in %s: no *ascend_pt folder (mstx), no *.json.gz file "
					 "(torch), no worker_process_*.*.jsonl file (nvtx), no rl_events, memory_events or "
					 "gmm_events table (table)", root));

	write_torch_tree(fx_path(root, "t"));
	CHECK_INT(rli_parse(&events, &detected, root, &options), RLI_OK);
	CHECK_INT(detected, RLI_PROFILER_TORCH);
	CHECK(fx_log_has(&log, fx_text("NOTICE: detected torch profiles in %s (4 input units)\n", root)));
	rli_events_free(events);

	write_nvtx_tree(fx_path(root, "n"));
	CHECK_INT(rli_parse(&events, &detected, root, &options), RLI_EUSAGE);
	CHECK_STR(rli_error_last(), fx_text("%s holds several kinds of profile (0 *ascend_pt folders: mstx, 4 *.json.gz "
					 "files: torch, 4 worker_process_*.*.jsonl files: nvtx); choose one with "
					 "--profiler-type", root));
	/* An explicit type ignores the other kinds. */
	options.profiler = RLI_PROFILER_NVTX;
	CHECK_INT(rli_parse(&events, &detected, fx_path(root, "n"), &options), RLI_OK);
	CHECK_INT(detected, RLI_PROFILER_NVTX);
	CHECK_INT(rli_events_count(events), 4);
	rli_events_free(events);
	fx_log_reset(&log);
	fx_remove(root);
	free(root);
}

static void test_names(void)
{
	rli_profiler p = RLI_PROFILER_AUTO;
	static const rli_profiler all[] = {RLI_PROFILER_AUTO, RLI_PROFILER_MSTX, RLI_PROFILER_TORCH, RLI_PROFILER_NVTX,
					   RLI_PROFILER_TABLE};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		CHECK_INT(rli_profiler_from_name(&p, rli_profiler_name(all[i])), RLI_OK);
		CHECK_INT(p, all[i]);
	}
	CHECK_STR(rli_profiler_name(RLI_PROFILER_MSTX), "mstx");
	CHECK_STR(rli_profiler_name(RLI_PROFILER_TORCH), "torch");
	CHECK_STR(rli_profiler_name(RLI_PROFILER_NVTX), "nvtx");
	CHECK_STR(rli_profiler_name(RLI_PROFILER_TABLE), "table");
	/* Appended: the values before it keep theirs. */
	CHECK_INT(RLI_PROFILER_TABLE, 4);
	CHECK_STR(rli_profiler_name(RLI_PROFILER_AUTO), "auto");
	CHECK_INT(rli_profiler_from_name(&p, "gmm"), RLI_EUSAGE);
	CHECK_STR(rli_error_last(), "unknown profiler type 'gmm': expected mstx, torch, nvtx, table or auto");
}

int main(void)
{
	test_rank_lists();
	test_jobs();
	test_detection();
	test_names();
	TEST_DONE();
}

/* ascend.c: what every Ascend capture folder holds, for the MSTX and memory writers: its name, profiler_info, profiler_metadata. */
#include "synth.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Roles with an odd index share one worker-group folder and name themselves in profiler_metadata.json. */
#define SHARED_ROLE_DIR "colocated_workers"

const char *synth_ascend_role_dir(const synth_plan *plan, int role)
{
	return role % 2 ? SHARED_ROLE_DIR : plan->roles[role].dir_name;
}

uint64_t synth_ascend_pid(const synth_plan *plan, int role, int rank)
{
	synth_rng rng;
	synth_rng_init(&rng, plan->options->seed, 10, (uint64_t)role, (uint64_t)rank, 0);
	/* Distinct per (rank, role) by construction: the pid is part of the ascend_pt folder name. */
	return 1000 + ((uint64_t)rank * 64 + (uint64_t)role) * 61 + synth_rng_below(&rng, 61);
}

int synth_quirks_parse(unsigned *out, const char *list)
{
	static const struct {
		const char *name;
		unsigned bit;
	} quirks[] = { { "no-args", SYNTH_QUIRK_NO_ARGS },
		       { "no-versions", SYNTH_QUIRK_NO_VERSIONS },
		       { "no-profiler-info", SYNTH_QUIRK_NO_PROFILER_INFO },
		       { "unranked", SYNTH_QUIRK_UNRANKED },
		       { "no-trace-view", SYNTH_QUIRK_NO_TRACE_VIEW },
		       { "csv10", SYNTH_QUIRK_CSV10 } };
	const char *p = list;
	*out = 0;
	while (*p) {
		size_t length = strcspn(p, ","), i;
		for (i = 0; i < sizeof(quirks) / sizeof(quirks[0]); i++)
			if (strlen(quirks[i].name) == length && strncmp(p, quirks[i].name, length) == 0)
				break;
		if (i == sizeof(quirks) / sizeof(quirks[0]))
			return synth_fail(SYNTH_EUSAGE,
					  "--ascend-quirks: no-args, no-versions, no-profiler-info, unranked, "
					  "no-trace-view or csv10, not %.*s", (int)length, p);
		*out |= quirks[i].bit;
		p += length + (p[length] == ',');
	}
	return SYNTH_OK;
}

char *synth_ascend_capture_name(const synth_plan *plan, const synth_unit *unit)
{
	int64_t wall_ns = SYNTH_ASCEND_EPOCH_NS + unit->start - 2000000000LL;
	time_t seconds = (time_t)(wall_ns / 1000000000LL);
	unsigned quirks = plan->options->ascend_quirks;
	char rank[32] = "";
	struct tm when;
	/* Without profiler_info the folder's name carries the rank, as rl-insight reads it then. */
	if ((quirks & SYNTH_QUIRK_NO_PROFILER_INFO) && !(quirks & SYNTH_QUIRK_UNRANKED))
		snprintf(rank, sizeof(rank), "_rank%d", unit->rank);
	gmtime_r(&seconds, &when);
	return synth_path("node%02d_%llu_%04d%02d%02d%02d%02d%02d%03d%s_ascend_pt", unit->rank / 8,
			  (unsigned long long)synth_ascend_pid(plan, unit->role, unit->rank), when.tm_year + 1900,
			  when.tm_mon + 1, when.tm_mday, when.tm_hour, when.tm_min, when.tm_sec,
			  (int)(wall_ns / 1000000 % 1000), rank);
}

static int write_text_file(const char *path, const char *text)
{
	synth_out out;
	int error;
	if ((error = synth_out_open(&out, path, 0)) < 0)
		return error;
	synth_out_puts(&out, text);
	return synth_out_close(&out);
}

int synth_ascend_write_info(const char *path, const synth_plan *plan, const synth_unit *unit, int profile_memory)
{
	unsigned quirks = plan->options->ascend_quirks;
	int64_t begin = SYNTH_ASCEND_EPOCH_NS + unit->start - 3000000000LL;
	int64_t end = SYNTH_ASCEND_EPOCH_NS + unit->start + unit->length + 1500000000LL;
	char rank[24];
	char *text;
	int error;

	/* The file name gives the rank; the field inside is a string or a number depending on the version. */
	if (quirks & (SYNTH_QUIRK_NO_PROFILER_INFO | SYNTH_QUIRK_UNRANKED))
		return SYNTH_OK;
	snprintf(rank, sizeof(rank), unit->rank % 2 ? "%d" : "\"%d\"", unit->rank);
	text = synth_path(
		"{\n    \"config\": {\n        \"common_config\": {\n            \"activities\": [\n"
		"                \"ProfilerActivity.CPU\",\n                \"ProfilerActivity.NPU\"\n            ],\n"
		"            \"schedule\": {},\n            \"record_shapes\": false,\n"
		"            \"profile_memory\": %s,\n            \"with_stack\": %s,\n"
		"            \"with_flops\": false,\n            \"with_modules\": false\n        },\n"
		"        \"experimental_config\": {\n            \"_profiler_level\": \"Level1\",\n"
		"            \"_aic_metrics\": \"ACL_AICORE_PIPE_UTILIZATION\",\n            \"_l2_cache\": false,\n"
		"            \"_msprof_tx\": true,\n            \"_data_simplification\": true,\n"
		"            \"_export_type\": [\n                \"text\"\n            ]\n        }\n    },\n"
		"    \"start_info\": {\n        \"syscnt_enable\": true,\n        \"freq\": 100,\n"
		"        \"start_cnt\": %lld,\n        \"start_monotonic\": %lld\n    },\n"
		"    \"end_info\": {\n        \"collectionTimeEnd\": %lld,\n        \"MonotonicTimeEnd\": %lld\n    },\n"
		"%s    \"rank_id\": %s\n}",
		/* a memory capture is recorded with profile_memory and with_stack */
		profile_memory ? "true" : "false", profile_memory ? "true" : "false",
		(long long)(begin / 10 - INT64_C(15000000000000)), (long long)(begin - INT64_C(1770000000000000000)),
		(long long)end, (long long)(end - INT64_C(1770000000000000000)),
		/* torch_npu's own exports lack the version fields at times (Ascend/msinsight's test data) */
		quirks & SYNTH_QUIRK_NO_VERSIONS ? "" : "    \"torch_npu_version\": \"2.7.1\",\n    \"cann_version\": \"8.3.RC1\",\n",
		rank);
	if (!text)
		return synth_fail(SYNTH_ERROR, "out of memory");
	error = write_text_file(path, text);
	free(text);
	return error;
}

int synth_ascend_write_metadata(const char *path, const synth_plan *plan, const synth_unit *unit, int name_role)
{
	char role[160] = "";
	char *text;
	int error;
	int world = plan->options->ranks;

	if (name_role)
		snprintf(role, sizeof(role), "\"role\": \"%s\", ", plan->roles[unit->role].dir_name);
	text = synth_path("{%s\"ENV_VARIABLES\": {\"ASCEND_GLOBAL_LOG_LEVEL\": \"3\", \"HCCL_ALGO\": \"\", "
			  "\"PYTORCH_NPU_ALLOC_CONF\": \"expandable_segments:True\", \"ASCEND_LAUNCH_BLOCKING\": \"\"}, "
			  "\"parallel_group_info\": {\"group_name_0\": {\"group_name\": \"default_group\", "
			  "\"group_rank\": %d, \"global_ranks\": [0, %d]}}}",
			  role, unit->rank, world - 1);
	if (!text)
		return synth_fail(SYNTH_ERROR, "out of memory");
	error = write_text_file(path, text);
	free(text);
	return error;
}

/* nvtx.c: Nsight Systems jsonlines exports, worker_process_<pid>.<rid>.jsonl, timeline.md §5. */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

/* startTime of ANALYSIS_DETAILS is a host monotonic clock in ns (~6.59e15 in the samples, < 2^53). */
#define NVTX_CLOCK_NS INT64_C(6589107243593703)

typedef struct {
	char *name;
	synth_unit unit;
	uint64_t pid;
	int rid;
} nvtx_unit;

/* Inner ranges a phase opens, cycled; the first range of every file is the phase itself. */
static const char *const rollout_ranges[] = { "agent_loop", "vllm_generate", "compute_reward_fn", "agent_loop",
					      "vllm_generate" };
static const char *const forward_ranges[] = { "forward_micro_batch" };
static const char *const update_ranges[] = { "forward_micro_batch", "backward_micro_batch", "forward_micro_batch",
					     "backward_micro_batch", "optimizer_step", "all_reduce_grads" };

/* Names the string table also holds (other domains, kernels, threads): the parser must not trip on them. */
static const char *const noise_strings[] = { "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn",
					     "flash_fwd_kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
					     "python3", "NCCL", "cudaLaunchKernel" };
#define NOISE_COUNT ((int)(sizeof(noise_strings) / sizeof(noise_strings[0])))

typedef struct {
	const char *const *names;
	int count;
	const char *tail;  /* a last range after the cycle, if any */
} range_names;

static range_names ranges_for(const synth_plan *plan, const synth_role *role)
{
	range_names r = { forward_ranges, 1, NULL };
	if (strcmp(role->phase_name, "generate_sequences") == 0) {
		r.names = rollout_ranges;
		r.count = 5;
	} else if (strncmp(role->phase_name, "update_", 7) == 0) {
		r.names = update_ranges;
		r.count = 6;
		/* The demo shows CJK text the way a user's own range names would come. */
		if (plan->options->demo && strcmp(role->phase_name, "update_actor") == 0)
			r.tail = "权重同步";
	}
	return r;
}

static int write_capture(synth_out *out, synth_rows *rows, const synth_plan *plan, const synth_unit *unit,
			 long long events, uint64_t pid)
{
	const synth_role *role = &plan->roles[unit->role];
	range_names names = ranges_for(plan, role);
	const int64_t lead = 15000000 + unit->start % 9000000; /* capture starts some ms before the phase */
	const int64_t start_time = NVTX_CLOCK_NS + unit->start - lead;
	const int64_t stop_time = start_time + lead + unit->length + 40000000;
	const uint64_t global_tid = UINT64_C(281474976710656) + (pid << 24) + pid;
	int first_noise_id, tail_id = 0;
	long long inner = events - 1;
	char tid[24];
	synth_rng rng;
	int error = SYNTH_OK;

	synth_rng_init(&rng, plan->options->seed, 30, (uint64_t)unit->role, (uint64_t)unit->rank,
		       (uint64_t)unit->step);
	snprintf(tid, sizeof(tid), "%llu", (unsigned long long)pid);

	/* String ids: 1 = the phase, 2.. = inner names, then the tail, then noise. Ids are sparse, as in nsys. */
	synth_out_printf(out, "{\"id\":%d,\"table\":\"StringIds\",\"value\":", 38);
	synth_out_json_string(out, role->phase_name);
	synth_out_puts(out, "}\n");
	for (int n = 0; n < names.count; n++) {
		synth_out_printf(out, "{\"id\":%d,\"table\":\"StringIds\",\"value\":", 40 + n);
		synth_out_json_string(out, names.names[n]);
		synth_out_puts(out, "}\n");
	}
	if (names.tail) {
		tail_id = 40 + names.count;
		synth_out_printf(out, "{\"id\":%d,\"table\":\"StringIds\",\"value\":", tail_id);
		synth_out_json_string(out, names.tail);
		synth_out_puts(out, "}\n");
	}
	first_noise_id = 60;
	for (int n = 0; n < NOISE_COUNT; n++) {
		synth_out_printf(out, "{\"id\":%d,\"table\":\"StringIds\",\"value\":", first_noise_id + n);
		synth_out_json_string(out, noise_strings[n]);
		synth_out_puts(out, "}\n");
	}
	synth_out_printf(out,
			 "{\"duration\":%lld,\"globalVid\":281474976710656,\"startTime\":%lld,\"stopTime\":%lld,"
			 "\"table\":\"ANALYSIS_DETAILS\"}\n",
			 (long long)(stop_time - start_time), (long long)start_time, (long long)stop_time);
	synth_out_printf(out, "{\"globalTid\":%llu,\"nameId\":%d,\"priority\":0,\"table\":\"ThreadNames\"}\n",
			 (unsigned long long)global_tid, first_noise_id + 3);

	/* The phase range, then its inner ranges in start order, each strictly inside it. */
	/* The fixed pads inside the phase scale with the unit, so its bars scale exactly (pairs). */
	const double stretch = unit->stretch;
	int64_t range_start = lead + (int64_t)synth_rng_range(&rng, 1e4 * stretch, 9e5 * stretch);
	int64_t range_end = lead + unit->length;
	int64_t span = range_end - range_start;
	for (long long i = 0; i < events; i++) {
		int64_t start, end;
		int text_id;
		if (i == 0) {
			start = range_start;
			end = range_end;
			text_id = 38;
		} else {
			int64_t slot = span / (inner + 1);
			start = range_start + slot * i +
				(int64_t)synth_rng_range(&rng, 1e3 * stretch, (double)slot * 0.1 + 2e3 * stretch);
			end = start + (int64_t)((double)slot * synth_rng_range(&rng, 0.5, 0.85)) + (int64_t)(1000 * stretch);
			text_id = (names.tail && i == inner) ? tail_id : 40 + (int)((i - 1) % names.count);
		}
		synth_out_printf(out,
				 "{\"color\":%u,\"domainId\":0,\"end\":%lld,\"eventType\":60,\"globalTid\":%llu,"
				 "\"rangeId\":%lld,\"start\":%lld,\"table\":\"NVTX_EVENTS\",",
				 (unsigned)(4278190335u - (unsigned)text_id * 65793u), (long long)end,
				 (unsigned long long)global_tid, i + 1, (long long)start);
		/* A range's own message, which the parser skips: escaped quotes and UTF-8 (\u00b5, \u2013) to undo or pass. */
		if (plan->options->nvtx_text)
			synth_out_printf(out, "\"text\":\"micro-batch \\\"%lld\\\" \u2013 %.1f \u00b5s\",", i,
					 (double)(end - start) / 1000.0);
		synth_out_printf(out, "\"textId\":%d}\n", text_id);
		if (rows) {
			synth_row row = { 0 };
			row.start_ms = (double)(start + start_time) / 1000.0 / 1000.0;
			row.duration_ms = (double)(end - start) / 1000.0 / 1000.0;
			row.end_ms = row.start_ms + row.duration_ms;
			row.name = row.role = text_id == 38 ? role->phase_name
					    : text_id == tail_id ? names.tail
								 : names.names[text_id - 40];
			row.rank_id = unit->rank;
			memcpy(row.tid, tid, sizeof(tid));
			if ((error = synth_rows_add(rows, &row)) < 0)
				return error;
		}
		/*
		 * Device work under the range, and a push/pop range from another domain: other tables, other
		 * types. A dense capture has none: a trace of NVTX ranges only, the parser's heaviest line mix.
		 */
		if (i > 0 && !plan->options->dense) {
			int64_t k = start + (int64_t)synth_rng_range(&rng, 2e3, 2e4);
			synth_out_printf(out,
					 "{\"correlationId\":%lld,\"deviceId\":%d,\"end\":%lld,\"globalPid\":%llu,"
					 "\"gridX\":132,\"gridY\":1,\"gridZ\":1,\"shortName\":%d,\"start\":%lld,"
					 "\"streamId\":7,\"table\":\"CUPTI_ACTIVITY_KIND_KERNEL\"}\n",
					 1000 + i, unit->rank % 8, (long long)(k + (end - start) / 3),
					 (unsigned long long)(global_tid & ~UINT64_C(0xffffff)),
					 first_noise_id + (int)(i % 3), (long long)k);
			if (i % 4 == 1)
				synth_out_printf(out,
						 "{\"domainId\":1,\"end\":%lld,\"eventType\":59,\"globalTid\":%llu,"
						 "\"start\":%lld,\"table\":\"NVTX_EVENTS\",\"textId\":%d}\n",
						 (long long)(k + 500), (unsigned long long)global_tid, (long long)k,
						 first_noise_id + 4);
		}
	}
	/* RANK comes last, as nsys writes META_DATA_CAPTURE after the events; LOCAL_RANK must not match. */
	synth_out_printf(out,
			 "{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\","
			 "\"value\":\"LOCAL_RANK=\\\"%d\\\"\"}\n",
			 unit->rank % 8);
	/* The rule is ^RANK="?(\d+)"?$, case-insensitive: quotes are optional, case varies. */
	synth_out_printf(out,
			 "{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\","
			 "\"value\":\"%s%d%s\"}\n",
			 unit->rank % 3 == 0 ? "RANK=\\\"" : unit->rank % 3 == 1 ? "RANK=" : "rank=\\\"", unit->rank,
			 unit->rank % 3 == 1 ? "" : "\\\"");
	synth_out_printf(out,
			 "{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\","
			 "\"value\":\"WORLD_SIZE=\\\"%d\\\"\"}\n",
			 plan->options->ranks);
	synth_out_puts(out, "{\"name\":\"PROCESS_0:CAPTURE_PROCESS_ARGS\",\"table\":\"META_DATA_CAPTURE\","
			    "\"value\":\"python3 -m verl.trainer.main_ppo\"}\n");
	return error;
}

static int write_unit(synth_out *out, synth_rows *rows, const synth_plan *plan, const synth_unit *unit,
		      long long events)
{
	return write_capture(out, rows, plan, unit, events, 70000);
}

static int compare_units(const void *a, const void *b)
{
	return strcmp(((const nvtx_unit *)a)->name, ((const nvtx_unit *)b)->name);
}

int synth_write_nvtx(synth_rows *rows, const synth_plan *plan)
{
	const synth_options *options = plan->options;
	size_t count = (size_t)options->ranks * (size_t)plan->role_count * (size_t)options->steps, made = 0;
	nvtx_unit *units = calloc(count, sizeof(*units));
	long long events;
	int error = SYNTH_OK;

	if (!units)
		return synth_fail(SYNTH_ERROR, "out of memory");
	if ((error = synth_mkdir_p(options->output_dir)) < 0)
		goto done;
	for (int rank = 0; rank < options->ranks; rank++) {
		/* One worker per rank (colocated roles); one capture per phase call, numbered per worker. */
		uint64_t pid = 70000 + (uint64_t)rank;
		int rid = 0;
		for (int step = 0; step < options->steps; step++) {
			for (int slot = 0; slot < plan->slot_count; slot++) {
				for (int role = 0; role < plan->role_count; role++) {
					if (plan->roles[role].slot != slot)
						continue;
					/* A left-out role's captures keep their numbers: the others' names stay. */
					++rid;
					if (!synth_plan_writes_role(plan, role))
						continue;
					nvtx_unit *u = &units[made++];
					synth_plan_unit(&u->unit, plan, role, rank, step);
					u->pid = pid;
					u->rid = rid;
					u->name = synth_path("worker_process_%llu.%d.jsonl", (unsigned long long)pid, rid);
					if (!u->name) {
						error = synth_fail(SYNTH_ERROR, "out of memory");
						goto done;
					}
				}
			}
		}
	}
	count = made;
	qsort(units, count, sizeof(*units), compare_units);
	events = synth_events_per_unit(plan, (int)count, 12, write_unit);
	if (events < 1)
		events = 1;

	for (size_t i = 0; i < count; i++) {
		nvtx_unit *u = &units[i];
		char *file = synth_path("%s/%s", options->output_dir, u->name);
		synth_out out;
		if (!file) {
			error = synth_fail(SYNTH_ERROR, "out of memory");
			goto done;
		}
		if ((error = synth_out_open(&out, file, 0)) >= 0) {
			error = write_capture(&out, rows, plan, &u->unit, events, u->pid);
			int closed = synth_out_close(&out);
			if (error >= 0)
				error = closed;
		}
		free(file);
		if (error < 0)
			goto done;
	}
done:
	for (size_t i = 0; i < count; i++)
		free(units[i].name);
	free(units);
	return error;
}

/* torch.c: PyTorch (Kineto) profiler trees, <role>/prof_rank-<r>_<hhmmss>.json.gz, timeline.md §4. */
#include "memory.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Kineto's ts are µs on a host clock (~4.5e12 µs in the reference's samples). */
#define TORCH_CLOCK_NS INT64_C(4540967180000000000)
/* Wall clock used for the file names (hhmmss) only. */
#define WALL_EPOCH_NS INT64_C(1773285888000000000)

/*
 * The memory rows of the traces being written (--memory-events), and the unit's place in the
 * writing order: write_trace's signature is the sizing callback's, so they come this way.
 */
static synth_memory_run *memory_run;
static synth_torch_ops memory_ops; /* the spans of the trace being written, for the rows' operators */
static size_t memory_unit_index;

typedef struct {
	char *dir;
	char *name;
	synth_unit unit;
	int skipped;  /* an async_llm trace: valid, but the parser must not read it */
} torch_unit;

static uint64_t process_pid(const synth_plan *plan, int role, int rank)
{
	synth_rng rng;
	synth_rng_init(&rng, plan->options->seed, 20, (uint64_t)role, (uint64_t)rank, 0);
	return 2000 + synth_rng_below(&rng, 4000000);
}

static void event_start(synth_out *out, long long *count)
{
	synth_out_puts(out, (*count)++ ? ",\n  {\n" : "\n  {\n");
}

static void write_meta(synth_out *out, long long *count, const char *name, const char *pid, int64_t ts,
		       long long tid, const char *args)
{
	event_start(out, count);
	synth_out_printf(out, "    \"name\": \"%s\", \"ph\": \"M\", \"ts\": ", name);
	synth_out_micros(out, ts);
	synth_out_printf(out, ", \"pid\": %s, \"tid\": %lld,\n    \"args\": {\n      %s\n    }\n  }", pid, tid, args);
}

/* An X event; its (ts, ts + dur) counts for the file's bar, whatever its pid or category. */
static void write_x(synth_out *out, long long *count, synth_envelope *env, const char *cat, const char *name,
		    const char *pid, const char *tid, int64_t ts, int64_t dur, const char *args)
{
	char ts_text[32], dur_text[32];
	synth_format_micros(ts_text, sizeof(ts_text), ts);
	synth_format_micros(dur_text, sizeof(dur_text), dur);
	event_start(out, count);
	synth_out_printf(out,
			 "    \"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %s, \"tid\": %s,\n"
			 "    \"ts\": %s, \"dur\": %s,\n    \"args\": {\n      %s\n    }\n  }",
			 cat, name, pid, tid, ts_text, dur_text, args);
	synth_envelope_add(env, ts_text, dur_text);
}

static void write_flow(synth_out *out, long long *count, const char *ph, long long id, const char *pid,
		       const char *tid, int64_t ts)
{
	event_start(out, count);
	synth_out_printf(out, "    \"ph\": \"%s\", \"id\": %lld, \"pid\": %s, \"tid\": %s, \"ts\": ", ph, id, pid, tid);
	synth_out_micros(out, ts);
	synth_out_puts(out, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"");
	if (ph[0] == 'f')
		synth_out_puts(out, ", \"bp\": \"e\"");
	synth_out_puts(out, "\n  }");
}

static const char *const cpu_ops[] = { "aten::linear", "aten::matmul", "aten::mm", "aten::add_",
				       "aten::softmax", "aten::to", "aten::copy_", "aten::layer_norm" };
static const char *const kernels[] = {
	"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn",
	"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
	"at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)",
	"flash_fwd_kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
	"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
	"at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
};

int synth_torch_rank(const synth_plan *plan, const synth_unit *unit)
{
	return plan->options->torch_rank == SYNTH_RANK_NONE ? 0 : unit->rank;
}

static int write_trace(synth_out *out, synth_rows *rows, const synth_plan *plan, const synth_unit *unit,
		       long long events)
{
	const synth_options *options = plan->options;
	const synth_role *role = &plan->roles[unit->role];
	const int64_t t0 = TORCH_CLOCK_NS + unit->start, length = unit->length;
	const double stretch = unit->stretch; /* the fixed pads below scale with the unit (pairs) */
	uint64_t pid_value = process_pid(plan, unit->role, unit->rank);
	int device = unit->rank % 8;
	char pid[24], tid[24], backward_tid[24], gpu[8], args[400];
	long long count = 0, correlation = 1000 + 17LL * unit->step;
	synth_envelope env;
	synth_rng rng;

	synth_rng_init(&rng, options->seed, 21, (uint64_t)unit->role, (uint64_t)unit->rank, (uint64_t)unit->step);
	synth_envelope_init(&env);
	snprintf(pid, sizeof(pid), "%llu", (unsigned long long)pid_value);
	snprintf(tid, sizeof(tid), "%llu", (unsigned long long)(pid_value + 7));
	snprintf(backward_tid, sizeof(backward_tid), "%llu", (unsigned long long)(pid_value + 9));
	snprintf(gpu, sizeof(gpu), "%d", device);

	synth_out_printf(out,
			 "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\n      \"id\": %d, "
			 "\"name\": \"NVIDIA H800\", \"totalGlobalMem\": 84929347584,\n      \"computeMajor\": 9, "
			 "\"computeMinor\": 0,\n      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": "
			 "2048,\n      \"regsPerBlock\": 65536, \"warpSize\": 32,\n      \"sharedMemPerBlock\": 49152, "
			 "\"numSms\": 132\n    }\n  ],\n  \"cupti_version\": 26,\n  \"cuda_runtime_version\": 12080,\n"
			 "  \"cuda_driver_version\": 12080,\n",
			 device);
	if (options->torch_rank == SYNTH_RANK_INFO)
		synth_out_printf(out,
				 "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d, "
				 "\"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
				 "\"backend_config\": \"cuda:nccl\", \"pg_size\": %d, \"ranks\": []}], "
				 "\"nccl_version\": \"2.21.5\"},\n",
				 unit->rank, options->ranks, options->ranks);
	synth_out_printf(out,
			 "  \"record_shapes\": 0,\n  \"with_stack\": %d,\n  \"trace_id\": \"%016llX%016llX\",\n"
			 "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1767189312000000000,\n"
			 "  \"traceEvents\": [",
			 synth_torch_with_stack(plan, unit), (unsigned long long)synth_rng_next(&rng), (unsigned long long)synth_rng_next(&rng));

	/* The first event's pid is the row's tid, so it is the process's own. */
	snprintf(args, sizeof(args), "\"name\": \"ray::WorkerDict.%s\"", role->dir_name);
	write_meta(out, &count, "process_name", pid, t0 - 800000, 0, args);
	write_meta(out, &count, "process_labels", pid, t0 - 800000, 0, "\"labels\": \"CPU\"");
	write_meta(out, &count, "thread_name", pid, t0 - 800000, (long long)(pid_value + 7),
		   "\"name\": \"thread 7 (python)\"");
	snprintf(args, sizeof(args), "\"name\": \"GPU %d\"", device);
	write_meta(out, &count, "process_name", gpu, t0 - 800000, 0, args);
	snprintf(args, sizeof(args), "\"labels\": \"GPU %d\"", device);
	write_meta(out, &count, "process_labels", gpu, t0 - 800000, 0, args);

	snprintf(args, sizeof(args), "\"External id\": 1, \"Record function id\": 0, \"Ev Idx\": 0");
	write_x(out, &count, &env, "user_annotation", "ProfilerStep#2", pid, tid, t0, length, args);
	for (long long i = 0; i < events; i++) {
		int64_t at = t0 + (int64_t)((double)length * ((double)i + 0.5 * synth_rng_unit(&rng)) / (double)events);
		int64_t span = length / (events + 1);
		int64_t dur = (int64_t)((double)span * synth_rng_range(&rng, 0.2, 0.45)) + (int64_t)(1000 * stretch);
		long long external = i + 2;
		switch (i % 5) {
		case 0: {
			const char *name;
			snprintf(args, sizeof(args),
				 "\"External id\": %lld, \"Record function id\": 0, \"Ev Idx\": %lld", external, i + 1);
			name = cpu_ops[synth_rng_below(&rng, 8)];
			write_x(out, &count, &env, "cpu_op", name, pid, tid, at, dur * 2, args);
			/* The [memory] events of the main thread inside it are its. */
			if (rows && memory_run && synth_torch_ops_span(&memory_ops, 0, 0, name, at, dur * 2) < 0)
				return SYNTH_ERROR;
			break;
		}
		case 1:
			snprintf(args, sizeof(args), "\"cbid\": 211, \"correlation\": %lld", ++correlation);
			write_x(out, &count, &env, "cuda_runtime", "cudaLaunchKernel", pid, tid, at, dur / 4 + 2000, args);
			write_flow(out, &count, "s", correlation, pid, tid, at);
			break;
		case 2:
		case 3: {
			int64_t queued = at + (int64_t)synth_rng_range(&rng, 5e3 * stretch, 4e4 * stretch);
			snprintf(args, sizeof(args),
				 "\"queued\": 0, \"device\": %d, \"context\": 1,\n      \"stream\": 7, \"correlation\": %lld, "
				 "\"registers per thread\": 168,\n      \"shared memory\": 49152, \"blocks per SM\": 0.8, "
				 "\"warps per SM\": 6.4,\n      \"grid\": [132, 1, 1], \"block\": [256, 1, 1], "
				 "\"est. achieved occupancy %%\": 12",
				 device, correlation);
			write_x(out, &count, &env, "kernel", kernels[synth_rng_below(&rng, 5)], gpu, "7", queued,
				dur * 3, args);
			write_flow(out, &count, "f", correlation, gpu, "7", queued);
			break;
		}
		default:
			snprintf(args, sizeof(args),
				 "\"device\": %d, \"context\": 1,\n      \"stream\": 7, \"correlation\": %lld, "
				 "\"bytes\": 4194304, \"memory bandwidth (GB/s)\": 21.4",
				 device, ++correlation);
			write_x(out, &count, &env, "gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", gpu, "7", at, dur / 2,
				args);
			break;
		}
	}
	if (options->memory_events > 0) {
		const char *const threads[2] = {tid, backward_tid};
		synth_memory_run *run = rows ? memory_run : NULL;
		int error = synth_torch_write_memory(out, &count, run, &memory_ops, plan, unit, memory_unit_index, t0,
						     pid, threads, device);
		if (error >= 0 && run)
			error = synth_torch_ops_resolve(&memory_ops, run);
		if (error < 0)
			return error;
	}
	/* The profiler's own span may begin before the first op, as in the reference's samples. */
	write_x(out, &count, &env, "Trace", "PyTorch Profiler (0)", "\"Spans\"", "\"PyTorch Profiler\"",
		t0 - (int64_t)synth_rng_range(&rng, 1e4 * stretch, 5e5 * stretch), length + (int64_t)(2e6 * stretch),
		"\"Op count\": 0");
	event_start(out, &count);
	synth_out_puts(out, "    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
			    "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
	synth_out_micros(out, t0 - 20000);
	synth_out_puts(out, "\n  }");
	event_start(out, &count);
	synth_out_puts(out, "    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
			    "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
	synth_out_micros(out, t0 + length + 3500000);
	synth_out_printf(out, "\n  }\n  ],\n  \"traceName\": \"/tmp/tmp%08llx.json\"\n}\n",
			 (unsigned long long)(synth_rng_next(&rng) & 0xffffffffu));

	if (rows) {
		synth_row row = { 0 };
		synth_envelope_row(&row, &env);
		row.name = row.role = role->dir_name;
		row.rank_id = synth_torch_rank(plan, unit);
		snprintf(row.tid, sizeof(row.tid), "%s", pid);
		return synth_rows_add(rows, &row);
	}
	return SYNTH_OK;
}

/* By start; ties by role, rank and device (synth_mem_row_tie), then writing order, then place in the trace. */
static int compare_memory_rows(const void *a, const void *b)
{
	const synth_mem_row *x = a, *y = b;
	int c;
	if (x->start_ms != y->start_ms)
		return x->start_ms < y->start_ms ? -1 : 1;
	if ((c = synth_mem_row_tie(x, y)) != 0)
		return c;
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return x->position < y->position ? -1 : x->position > y->position;
}

static int write_memory_expected(const char *output_dir)
{
	char *path = synth_path("%s/expected_memory.jsonl", output_dir);
	int error;
	if (!path)
		return synth_fail(SYNTH_ERROR, "out of memory");
	qsort(memory_run->rows, memory_run->count, sizeof(*memory_run->rows), compare_memory_rows);
	error = synth_memory_write_expected(memory_run, path);
	free(path);
	return error;
}

static int compare_units(const void *a, const void *b)
{
	const torch_unit *x = a, *y = b;
	int c = strcmp(x->dir, y->dir);
	return c ? c : strcmp(x->name, y->name);
}

static char *unit_file_name(const synth_plan *plan, const synth_unit *unit, int async_llm)
{
	int64_t wall = WALL_EPOCH_NS + unit->start - 1000000000LL;
	time_t seconds = (time_t)(wall / 1000000000LL);
	struct tm when;

	gmtime_r(&seconds, &when);
	if (async_llm)
		return synth_path("async_llm_rank-%d_%02d%02d%02d.json.gz", unit->rank, when.tm_hour, when.tm_min,
				  when.tm_sec);
	/* No rank anywhere: named as kineto's own samples are, worker<N>.<ms>.pt.trace.json.gz. */
	if (plan->options->torch_rank == SYNTH_RANK_NONE)
		return synth_path("worker%d.%lld.pt.trace.json.gz", unit->rank, (long long)(wall / 1000000));
	/* The rank in the file name only: each of its spellings (rank_N, rankN) on a role of its own. */
	if (plan->options->torch_rank == SYNTH_RANK_NAME) {
		if (plan->roles[unit->role].slot == plan->roles[0].slot)
			return synth_path("node%02d_%llu_rank%d.%lld.pt.trace.json.gz", unit->rank / 8,
					  (unsigned long long)process_pid(plan, unit->role, unit->rank), unit->rank,
					  (long long)wall);
		if (unit->role % 3 == 1)
			return synth_path("worker_rank_%d.%02d%02d%02d.pt.trace.json.gz", unit->rank, when.tm_hour,
					  when.tm_min, when.tm_sec);
		if (unit->role % 3 == 2)
			return synth_path("bs_32_rank%d_%02d%02d%02d.json.gz", unit->rank, when.tm_hour, when.tm_min,
					  when.tm_sec);
	}
	/* Rollout workers are traced by the inference engine, named <host>_<pid>.<ns>.pt.trace.json.gz. */
	if (plan->roles[unit->role].slot == plan->roles[0].slot)
		return synth_path("node%02d_%llu.%lld.pt.trace.json.gz", unit->rank / 8,
				  (unsigned long long)process_pid(plan, unit->role, unit->rank), (long long)wall);
	return synth_path("prof_rank-%d_%02d%02d%02d.json.gz", unit->rank, when.tm_hour, when.tm_min, when.tm_sec);
}

int synth_write_torch(synth_rows *rows, const synth_plan *plan)
{
	const synth_options *options = plan->options;
	int async_ranks = options->ranks < 2 ? options->ranks : 2;
	size_t count = (size_t)options->ranks * (size_t)plan->role_count * (size_t)options->steps + (size_t)async_ranks;
	size_t made = 0;
	torch_unit *units = calloc(count, sizeof(*units));
	long long events;
	int error = SYNTH_OK;

	if (!units)
		return synth_fail(SYNTH_ERROR, "out of memory");
	for (int role = 0; role < plan->role_count; role++) {
		if (!synth_plan_writes_role(plan, role))
			continue;
		for (int rank = 0; rank < options->ranks; rank++) {
			for (int step = 0; step < options->steps; step++) {
				torch_unit *u = &units[made++];
				synth_plan_unit(&u->unit, plan, role, rank, step);
				u->dir = synth_path("%s/%s", options->output_dir, plan->roles[role].dir_name);
				u->name = unit_file_name(plan, &u->unit, 0);
			}
		}
	}
	/* vLLM's AsyncLLM engine traces sit next to the rollout's own and must be ignored. */
	for (int rank = 0; rank < async_ranks; rank++) {
		torch_unit *u = &units[made++];
		synth_plan_unit(&u->unit, plan, 0, rank, 0);
		u->unit.start += 250000000;
		u->unit.length /= 3;
		u->skipped = 1;
		u->dir = synth_path("%s/%s", options->output_dir, plan->roles[0].dir_name);
		u->name = unit_file_name(plan, &u->unit, 1);
	}
	count = made;
	for (size_t i = 0; i < count; i++) {
		if (!units[i].dir || !units[i].name) {
			error = synth_fail(SYNTH_ERROR, "out of memory");
			goto done;
		}
	}
	qsort(units, count, sizeof(*units), compare_units);
	events = synth_events_per_unit(plan, (int)(count - (size_t)async_ranks), 60, write_trace);
	if (options->memory_events > 0 && !(memory_run = calloc(1, sizeof(*memory_run)))) {
		error = synth_fail(SYNTH_ERROR, "out of memory");
		goto done;
	}

	for (size_t i = 0; i < count; i++) {
		torch_unit *u = &units[i];
		char *file = synth_path("%s/%s", u->dir, u->name);
		synth_out out;
		if (!file) {
			error = synth_fail(SYNTH_ERROR, "out of memory");
			goto done;
		}
		memory_unit_index = i;
		if ((error = synth_mkdir_p(u->dir)) >= 0 && (error = synth_out_open(&out, file, 1)) >= 0) {
			error = write_trace(&out, u->skipped ? NULL : rows, plan, &u->unit,
					    u->skipped ? (events < 50 ? events : 50) : events);
			int closed = synth_out_close(&out);
			if (error >= 0)
				error = closed;
		}
		free(file);
		if (error < 0)
			goto done;
	}
	if (memory_run)
		error = write_memory_expected(options->output_dir);
done:
	for (size_t i = 0; i < count; i++) {
		free(units[i].dir);
		free(units[i].name);
	}
	free(units);
	if (memory_run) {
		free(memory_run->rows);
		synth_memory_run_strings_free(memory_run);
	}
	free(memory_run);
	memory_run = NULL;
	synth_torch_ops_free(&memory_ops);
	return error;
}

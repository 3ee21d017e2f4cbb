/* mstx.c: Ascend MSTX trees (<role>/<host>_<pid>_<time>_ascend_pt/...), timeline.md §3. */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	char *dir;     /* <output>/<role dir> */
	char *pt_name; /* <host>_<pid>_<time>_ascend_pt */
	synth_unit unit;
} mstx_unit;

/* Ascend's Overlap Analysis pid is a large synthetic number (above 2^31), one per process. */
static uint64_t overlap_pid(const synth_plan *plan, int role, int rank)
{
	synth_rng rng;
	synth_rng_init(&rng, plan->options->seed, 11, (uint64_t)role, (uint64_t)rank, 0);
	return UINT64_C(3000000000) + synth_rng_below(&rng, UINT64_C(1200000000));
}

typedef struct {
	synth_out *out;
	int first;
} event_list;

static void begin_event(event_list *list)
{
	synth_out_puts(list->out, list->first ? "\n" : ",\n");
	list->first = 0;
}

static void write_meta(event_list *list, const char *name, uint64_t pid, uint64_t tid, const char *args)
{
	begin_event(list);
	synth_out_printf(list->out, "{\"name\": \"%s\", \"pid\": %llu, \"tid\": %llu, \"ph\": \"M\", \"args\": %s}",
			 name, (unsigned long long)pid, (unsigned long long)tid, args);
}

static void write_process_meta(event_list *list, uint64_t pid, const char *process, int sort_index,
			       const char *const *threads, int thread_count)
{
	char args[160];
	snprintf(args, sizeof(args), "{\"name\": \"%s\"}", process);
	write_meta(list, "process_name", pid, 0, args);
	write_meta(list, "process_labels", pid, 0, "{\"labels\": \"NPU\"}");
	snprintf(args, sizeof(args), "{\"sort_index\": %d}", sort_index);
	write_meta(list, "process_sort_index", pid, 0, args);
	for (int t = 0; t < thread_count; t++) {
		snprintf(args, sizeof(args), "{\"name\": \"%s\"}", threads[t]);
		write_meta(list, "thread_name", pid, (uint64_t)t, args);
		snprintf(args, sizeof(args), "{\"sort_index\": %d}", t);
		write_meta(list, "thread_sort_index", pid, (uint64_t)t, args);
	}
}

/* An X event with Ascend's string ts (args NULL: none); adds to env when it belongs to the Overlap Analysis. */
static void write_x(event_list *list, synth_envelope *env, const char *name, uint64_t pid, uint64_t tid,
		    int64_t ts, int64_t dur, const char *args)
{
	char ts_text[32], dur_text[32];
	synth_format_micros(ts_text, sizeof(ts_text), ts);
	synth_format_micros(dur_text, sizeof(dur_text), dur);
	begin_event(list);
	synth_out_printf(list->out,
			 "{\"name\": \"%s\", \"pid\": %llu, \"tid\": %llu, \"ts\": \"%s\", \"dur\": %s, "
			 "\"ph\": \"X\"%s%s}",
			 name, (unsigned long long)pid, (unsigned long long)tid, ts_text, dur_text,
			 args ? ", \"args\": " : "", args ? args : "");
	if (env)
		synth_envelope_add(env, ts_text, dur_text);
}

static const char *const overlap_lanes[] = { "Communication", "Communication(Not Overlapped)", "Computing",
					     "Free" };
static const char *const python_ops[] = {
	"torch/nn/modules/module.py(1736): _call_impl", "verl/workers/actor/dp_actor.py(312): _forward_micro_batch",
	"torch/_tensor.py(626): backward", "verl/utils/torch_functional.py(88): logprobs_from_logits",
};
static const char *const cann_ops[] = { "AscendCL@aclnnMatmul", "AscendCL@aclnnFlashAttentionScore",
					"AscendCL@aclnnRmsNorm", "AscendCL@aclnnAdd", "Node@launch" };
static const char *const device_ops[] = { "MatMulV3", "FlashAttentionScore", "RmsNorm", "Add",
					  "TransData", "Cast" };

/* One trace_view.json. The layout varies per unit, as real exports do (see below). */
static int write_trace_view(synth_out *out, synth_rows *rows, const synth_plan *plan, const synth_unit *unit,
			    long long events)
{
	const int64_t t0 = SYNTH_ASCEND_EPOCH_NS + unit->start, length = unit->length;
	uint64_t pid = synth_ascend_pid(plan, unit->role, unit->rank);
	uint64_t oa_pid = overlap_pid(plan, unit->role, unit->rank);
	uint64_t cann_pid = pid + 1, device_pid = oa_pid - 2, hccl_pid = oa_pid - 1;
	/* 0: metadata first; 1: Overlap Analysis metadata after its events; 2: Overlap Analysis block first. */
	int layout = (unit->rank + unit->step + unit->role) % 3;
	long long overlap_count = events * 2 / 5, noise_count;
	event_list list = { out, 1 };
	synth_envelope env;
	synth_rng rng;
	char args[200];

	if (overlap_count < 4)
		overlap_count = 4;
	noise_count = events > overlap_count ? events - overlap_count : 0;
	synth_rng_init(&rng, plan->options->seed, 12, (uint64_t)unit->role, (uint64_t)unit->rank,
		       (uint64_t)unit->step);
	synth_envelope_init(&env);

	static const char *const python_threads[] = { "Thread 0" };
	static const char *const cann_threads[] = { "Thread 0", "Thread 1" };
	static const char *const device_threads[] = { "Stream 2", "Stream 4" };
	static const char *const hccl_threads[] = { "Plane 0", "Plane 1" };

	synth_out_puts(out, "[");
	if (layout != 1) {
		if (layout == 2)
			write_process_meta(&list, oa_pid, "Overlap Analysis", 29, overlap_lanes, 4);
		write_process_meta(&list, pid, "Python", 0, python_threads, 1);
		write_process_meta(&list, cann_pid, "CANN", 8, cann_threads, 2);
		write_process_meta(&list, device_pid, "Ascend Hardware", 13, device_threads, 2);
		write_process_meta(&list, hccl_pid, "HCCL", 17, hccl_threads, 2);
		if (layout == 0)
			write_process_meta(&list, oa_pid, "Overlap Analysis", 29, overlap_lanes, 4);
	} else {
		write_process_meta(&list, pid, "Python", 0, python_threads, 1);
		write_process_meta(&list, cann_pid, "CANN", 8, cann_threads, 2);
	}

	/* Host-side spans reach outside the device window: only the Overlap Analysis may count. */
	write_x(&list, NULL, "verl/single_controller/base/decorator.py(430): inner", pid, 0,
		t0 - (int64_t)synth_rng_range(&rng, 2e6, 9e6), length + (int64_t)synth_rng_range(&rng, 4e6, 15e6),
		"{\"Call stack\": \"\"}");
	for (long long i = 0; i < noise_count; i++) {
		int64_t at = t0 + (int64_t)((double)length * ((double)i + synth_rng_unit(&rng)) / (double)noise_count);
		int64_t dur = (int64_t)synth_rng_range(&rng, 3e3, 4e5);
		switch (i % 6) {
		case 0:
			write_x(&list, NULL, python_ops[synth_rng_below(&rng, 4)], pid, 0, at, dur, "{}");
			break;
		case 1:
		case 2:
			write_x(&list, NULL, cann_ops[synth_rng_below(&rng, 5)], cann_pid, (uint64_t)(i & 1), at, dur,
				"{\"Thread Id\": 1, \"Mode\": \"ACL_OP\"}");
			break;
		case 3:
			snprintf(args, sizeof(args),
				 "{\"Model Id\": 4294967295, \"Task Type\": \"AI_CORE\", \"Physic Stream Id\": 2, "
				 "\"Task Id\": %lld, \"Batch Id\": 0, \"Subtask Id\": 4294967295}",
				 i % 65536);
			write_x(&list, NULL, device_ops[synth_rng_below(&rng, 6)], device_pid, 2, at + 2000, dur, args);
			break;
		case 4:
			write_x(&list, NULL, "hcom_allReduce__735_0_1", hccl_pid, 0, at, dur * 3,
				"{\"connection_id\": 0, \"model id\": 4294967295, \"data_type\": \"FP32\"}");
			break;
		default:
			begin_event(&list);
			synth_out_printf(out,
					 "{\"name\": \"HostToDevice%lld\", \"ph\": \"s\", \"cat\": \"HostToDevice\", "
					 "\"id\": \"%lld\", \"pid\": %llu, \"tid\": 1, \"ts\": \"",
					 i, i, (unsigned long long)cann_pid);
			synth_out_micros(out, at);
			synth_out_puts(out, "\"}");
			begin_event(&list);
			synth_out_printf(out, "{\"name\": \"AI Core Freq\", \"pid\": %llu, \"tid\": 0, \"ph\": \"C\", \"ts\": \"",
					 (unsigned long long)device_pid);
			synth_out_micros(out, at);
			synth_out_puts(out, "\", \"args\": {\"MHz\": 1800}}");
			break;
		}
	}
	write_x(&list, NULL, "verl/workers/fsdp_workers.py(903): generate_sequences", pid, 0,
		t0 + length - (int64_t)synth_rng_range(&rng, 1e6, 2e6), (int64_t)synth_rng_range(&rng, 4e6, 9e6), "{}");

	/* The lanes tile the window: compute and idle alternate, communication overlaps them. */
	int64_t stride = length / overlap_count;
	for (long long i = 0; i < overlap_count; i++) {
		int lane = (int)(i % 4);
		int64_t at = t0 + stride * i + (i ? (int64_t)(synth_rng_unit(&rng) * (double)stride * 0.1) : 0);
		double factor = lane == 2 ? synth_rng_range(&rng, 0.5, 0.95)
			      : lane == 3 ? synth_rng_range(&rng, 0.05, 0.4)
					  : synth_rng_range(&rng, 0.6, 1.8);
		int64_t dur = (int64_t)((double)stride * factor) + (int64_t)(1000 * unit->stretch);
		/* torch_npu writes these lanes without args (Ascend/msinsight's level1 export): the bar is the same. */
		write_x(&list, &env, overlap_lanes[lane], oa_pid, (uint64_t)lane, at, dur,
			plan->options->ascend_quirks & SYNTH_QUIRK_NO_ARGS ? NULL : "{}");
	}
	if (layout == 1) {
		write_process_meta(&list, device_pid, "Ascend Hardware", 13, device_threads, 2);
		write_process_meta(&list, hccl_pid, "HCCL", 17, hccl_threads, 2);
		write_process_meta(&list, oa_pid, "Overlap Analysis", 29, overlap_lanes, 4);
	}
	synth_out_puts(out, "\n]");

	if (rows) {
		const synth_role *role = &plan->roles[unit->role];
		synth_row row = { 0 };
		synth_envelope_row(&row, &env);
		row.name = row.role = role->dir_name;
		row.rank_id = unit->rank;
		snprintf(row.tid, sizeof(row.tid), "%llu", (unsigned long long)oa_pid);
		return synth_rows_add(rows, &row);
	}
	return SYNTH_OK;
}

static int compare_units(const void *a, const void *b)
{
	const mstx_unit *x = a, *y = b;
	int c = strcmp(x->dir, y->dir);
	return c ? c : strcmp(x->pt_name, y->pt_name);
}

int synth_write_mstx(synth_rows *rows, const synth_plan *plan)
{
	const synth_options *options = plan->options;
	size_t count = (size_t)options->ranks * (size_t)plan->role_count * (size_t)options->steps, made = 0;
	mstx_unit *units = calloc(count, sizeof(*units));
	long long events;
	int error = SYNTH_OK;

	if (!units)
		return synth_fail(SYNTH_ERROR, "out of memory");
	for (int role = 0; role < plan->role_count; role++) {
		const char *dir = synth_ascend_role_dir(plan, role);
		if (!synth_plan_writes_role(plan, role))
			continue;
		for (int rank = 0; rank < options->ranks; rank++) {
			for (int step = 0; step < options->steps; step++) {
				mstx_unit *u = &units[made++];
				synth_plan_unit(&u->unit, plan, role, rank, step);
				u->dir = synth_path("%s/%s", options->output_dir, dir);
				u->pt_name = synth_ascend_capture_name(plan, &u->unit);
				if (!u->dir || !u->pt_name) {
					error = synth_fail(SYNTH_ERROR, "out of memory");
					goto done;
				}
			}
		}
	}
	count = made;
	qsort(units, count, sizeof(*units), compare_units);
	events = synth_events_per_unit(plan, (int)count, 60, write_trace_view);

	for (size_t i = 0; i < count; i++) {
		mstx_unit *u = &units[i];
		char *pt = synth_path("%s/%s", u->dir, u->pt_name);
		char *output = synth_path("%s/ASCEND_PROFILER_OUTPUT", pt ? pt : "");
		char *file = synth_path("%s/trace_view.json", output ? output : "");
		char *info = synth_path("%s/profiler_info_%d.json", pt ? pt : "", u->unit.rank);
		char *meta = synth_path("%s/profiler_metadata.json", pt ? pt : "");
		synth_out out;

		if (!pt || !output || !file || !info || !meta)
			error = synth_fail(SYNTH_ERROR, "out of memory");
		if (error >= 0)
			error = synth_mkdir_p(output);
		if (error >= 0)
			error = synth_ascend_write_info(info, plan, &u->unit, 0);
		/* Units in the shared folder need the role from metadata; others carry it sometimes. */
		if (error >= 0 && (u->unit.role % 2 || u->unit.step % 2))
			error = synth_ascend_write_metadata(meta, plan, &u->unit, u->unit.role % 2);
		if (error >= 0 && (error = synth_out_open(&out, file, 0)) >= 0) {
			error = write_trace_view(&out, rows, plan, &u->unit, events);
			int closed = synth_out_close(&out);
			if (error >= 0)
				error = closed;
		}
		free(pt);
		free(output);
		free(file);
		free(info);
		free(meta);
		if (error < 0)
			goto done;
	}
done:
	for (size_t i = 0; i < count; i++) {
		free(units[i].dir);
		free(units[i].pt_name);
	}
	free(units);
	return error;
}

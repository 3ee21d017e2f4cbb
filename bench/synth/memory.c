/* memory.c: Ascend memory captures (operator_memory.csv, trace_view.json with call stacks) and the rows they must parse to. */
#include "synth.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Operators that allocate device memory in a VeRL step, the common ones first (they are drawn more often). */
static const char *const op_names[] = {
	"aten::empty",         "aten::empty_strided", "aten::add",          "aten::mul",
	"aten::matmul",        "aten::mm",            "aten::bmm",          "aten::_to_copy",
	"aten::_npu_dtype_cast", "aten::copy_",       "aten::cat",          "aten::clone",
	"npu_fusion_attention", "npu_fusion_attention_grad", "npu_rms_norm", "npu_rms_norm_backward",
	"aten::silu",          "aten::sigmoid",       "aten::softmax",      "aten::_softmax_backward_data",
	"aten::embedding",     "aten::embedding_dense_backward", "aten::index_select", "aten::gather",
	"aten::zeros",         "aten::sum",           "aten::mean",         "aten::pow",
	"aten::rsqrt",         "aten::_foreach_mul_", "aten::_foreach_add_", "aten::repeat_interleave",
};
#define OP_COUNT ((int)(sizeof(op_names) / sizeof(op_names[0])))
/* Its cpu_op events carry no call stack, so its rows match nothing. */
#define STACKLESS_OP "aten::native_dropout"
/* Never an op in the trace at all. */
#define WORKSPACE_OP "cann::workspace"
#define VARIANTS 4

/* The frame nearest each op, by op index modulo this list. */
static const char *const leaf_frames[] = {
	"torch/nn/functional.py(2551): layer_norm",     "torch/nn/functional.py(1704): softmax",
	"torch_npu/contrib/function/npu_rms_norm.py(45): forward", "torch/nn/functional.py(2233): embedding",
	"transformers/activations.py(56): forward",     "torch/functional.py(402): einsum",
	"transformers/models/qwen2/modeling_qwen2.py(148): apply_rotary_pos_emb",
	"verl/utils/torch_functional.py(88): logprobs_from_logits",
};
static const char *const forward_frames[] = {
	"transformers/models/qwen2/modeling_qwen2.py(96): forward", "torch/nn/modules/module.py(1750): _call_impl",
	"torch/nn/modules/module.py(1739): _wrapped_call_impl",
	"transformers/models/qwen2/modeling_qwen2.py(553): forward",
	"transformers/models/qwen2/modeling_qwen2.py(823): forward",
};
static const char *const backward_frames[] = {
	"torch/autograd/graph.py(825): _engine_run_backward", "torch/autograd/__init__.py(347): backward",
	"torch/_tensor.py(626): backward",
};
static const char *const optimizer_frames[] = {
	"torch/optim/adamw.py(480): _multi_tensor_adamw", "torch/optim/adamw.py(209): step",
	"torch/optim/optimizer.py(487): wrapper", "verl/workers/actor/dp_actor.py(421): _optimizer_step",
};
/* The entry frames of each kind of phase (memory.md: the user code; innermost first, as torch_npu writes). */
static const char *const train_entry[] = {
	"verl/workers/actor/dp_actor.py(212): _forward_micro_batch", "verl/workers/actor/dp_actor.py(378): update_policy",
	"verl/workers/fsdp_workers.py(612): update_actor", "verl/single_controller/base/decorator.py(430): inner",
	"ray/_private/worker.py(917): main_loop",
};
static const char *const rollout_entry[] = {
	"vllm/worker/model_runner.py(1712): execute_model",
	"verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py(287): generate_sequences",
	"verl/workers/fsdp_workers.py(903): generate_sequences", "verl/single_controller/base/decorator.py(430): inner",
	"ray/_private/worker.py(917): main_loop",
};
static const char *const infer_entry[] = {
	"verl/workers/actor/dp_actor.py(293): compute_log_prob", "verl/workers/fsdp_workers.py(748): compute_log_prob",
	"verl/single_controller/base/decorator.py(430): inner", "ray/_private/worker.py(917): main_loop",
};
static const char *const kernels[] = {"aclnnAdd_AddAiCore_Add", "aclnnMatmul_MatMulV3_MatMulV3",
				      "aclnnCast_CastAiCore_Cast", "aclnnInplaceCopy_TensorMove"};

#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* One row as the reference's parser must give it (memory.md §2.3), plus how its stack was found. */
typedef struct {
	const char *name, *role, *stack, *top;
	int64_t rank;
	double size_kb, start_ms, duration_ms, allocated_mb, reserved_mb, active_mb, gap_ms;
	int device, released, match; /* match: 0 none, 1 inside, 2 after the op ended */
	size_t unit;                 /* the capture, for the order of ties */
	uint64_t position;           /* the row's place in its file */
} mem_row;

/* The latest op of a name with a call stack, as the generator walks time forward. */
typedef struct {
	int set;
	double ts_us, dur_us;
	const char *stack, *top;
} last_op;

typedef struct {
	const synth_plan *plan;
	char *stacks[64][OP_COUNT][VARIANTS]; /* by role, op, variant; innermost frame first */
	char *escaped[64][OP_COUNT][VARIANTS]; /* the same as JSON string content, "\r\n" escaped as Ascend does */
	mem_row *rows;
	size_t count, capacity;
	long long skipped_frees;
} memory_run;

/* A growable byte buffer for the second thread's events, which follow the first thread's in the file. */
typedef struct {
	char *data;
	size_t length, capacity;
	int failed;
} byte_buffer;

static void buffer_printf(byte_buffer *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void buffer_printf(byte_buffer *b, const char *fmt, ...)
{
	va_list ap;
	int length;
	va_start(ap, fmt);
	length = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (length < 0 || b->failed)
		return;
	if (b->length + (size_t)length + 1 > b->capacity) {
		size_t grown = b->capacity ? b->capacity * 2 : 1 << 16;
		char *p;
		while (grown < b->length + (size_t)length + 1)
			grown *= 2;
		if (!(p = realloc(b->data, grown))) {
			b->failed = 1;
			return;
		}
		b->data = p;
		b->capacity = grown;
	}
	va_start(ap, fmt);
	vsnprintf(b->data + b->length, (size_t)length + 1, fmt, ap);
	va_end(ap);
	b->length += (size_t)length;
}

/* ---- call stacks ---------------------------------------------------------- */

/* The frames joined by separator (frames hold no quote or backslash: no other escaping is needed). */
static char *join_frames(const char *const *frames, int count, const char *separator)
{
	size_t length = 1;
	char *text;
	for (int i = 0; i < count; i++)
		length += strlen(frames[i]) + strlen(separator);
	if (!(text = malloc(length)))
		return NULL;
	text[0] = '\0';
	for (int i = 0; i < count; i++) {
		if (i)
			strcat(text, separator);
		strcat(text, frames[i]);
	}
	return text;
}

/* A role's stacks: the op's own frame, then the code path of the variant, then the phase's entry. */
static int build_stacks(memory_run *run, int role)
{
	const char *phase = run->plan->roles[role].phase_name;
	const char *const *entry = strstr(phase, "update") ? train_entry
				   : strstr(phase, "generate") ? rollout_entry
							       : infer_entry;
	int entry_count = strstr(phase, "update") ? ARRAY_SIZE(train_entry)
			  : strstr(phase, "generate") ? ARRAY_SIZE(rollout_entry)
						      : ARRAY_SIZE(infer_entry);
	int training = entry == train_entry;
	for (int op = 0; op < OP_COUNT; op++) {
		for (int v = 0; v < VARIANTS; v++) {
			const char *frames[16];
			int n = 0;
			frames[n++] = leaf_frames[op % ARRAY_SIZE(leaf_frames)];
			if (v == 2 && training) {
				for (int i = 0; i < ARRAY_SIZE(backward_frames); i++)
					frames[n++] = backward_frames[i];
			} else if (v == 3 && training) {
				for (int i = 0; i < ARRAY_SIZE(optimizer_frames); i++)
					frames[n++] = optimizer_frames[i];
			} else {
				for (int i = v % 2; i < ARRAY_SIZE(forward_frames); i += 1 + (v % 2))
					frames[n++] = forward_frames[i];
			}
			for (int i = 0; i < entry_count; i++)
				frames[n++] = entry[i];
			run->stacks[role][op][v] = join_frames(frames, n, ";\r\n");
			run->escaped[role][op][v] = join_frames(frames, n, ";\\r\\n");
			if (!run->stacks[role][op][v] || !run->escaped[role][op][v])
				return synth_fail(SYNTH_ERROR, "out of memory");
		}
	}
	return SYNTH_OK;
}

/* ---- one capture -------------------------------------------------------------- */

/* Fixed three decimals, as operator_memory.csv writes its µs. */
static void format_us3(char *buf, size_t size, int64_t nanos)
{
	snprintf(buf, size, "%lld.%03lld", (long long)(nanos / 1000), (long long)(nanos % 1000));
}

typedef struct {
	const synth_plan *plan;
	memory_run *run;           /* NULL while sizing */
	const synth_unit *unit;
	size_t unit_index;
	synth_out *csv, *trace;    /* trace NULL while sizing */
	byte_buffer second;        /* thread 2's events */
	int first_event;
	uint64_t pid;
	last_op last[OP_COUNT + 2];
	int64_t resident_half_kb;  /* blocks never freed, for the totals columns */
	uint64_t position;         /* expected rows so far */
	long long rows;            /* rows written so far, the skipped ones too */
	char held[1024];           /* a row held back, so that now and then two rows swap places */
	mem_row held_row;
	int holding, held_expected;
} unit_writer;

static void add_expected(unit_writer *w, const mem_row *row)
{
	memory_run *run = w->run;
	if (!run)
		return;
	if (run->count == run->capacity) {
		size_t grown = run->capacity ? run->capacity * 2 : 4096;
		mem_row *p = realloc(run->rows, grown * sizeof(*p));
		if (!p) {
			w->csv->failed = 1;
			return;
		}
		run->rows = p;
		run->capacity = grown;
	}
	run->rows[run->count] = *row;
	run->rows[run->count].position = w->position++;
	run->count++;
}

/* Writes a CSV row; one in a hundred swaps places with the row before (the file is not quite in time order). */
static void emit_row(unit_writer *w, synth_rng *rng, const char *text, const mem_row *row, int expected)
{
	w->rows++;
	if (w->holding && synth_rng_below(rng, 100) == 0) {
		synth_out_puts(w->csv, text);
		if (expected)
			add_expected(w, row);
		synth_out_puts(w->csv, w->held);
		if (w->held_expected)
			add_expected(w, &w->held_row);
		w->holding = 0;
		return;
	}
	if (w->holding) {
		synth_out_puts(w->csv, w->held);
		if (w->held_expected)
			add_expected(w, &w->held_row);
	}
	snprintf(w->held, sizeof(w->held), "%s", text);
	w->held_row = *row;
	w->held_expected = expected;
	w->holding = 1;
}

static void flush_row(unit_writer *w)
{
	if (w->holding) {
		synth_out_puts(w->csv, w->held);
		if (w->held_expected)
			add_expected(w, &w->held_row);
		w->holding = 0;
	}
}

/* A trace event (stack: JSON string content, or NULL): thread 1's go straight to the file, thread 2's after them. */
static void emit_event(unit_writer *w, int tid, const char *name, const char *ts, const char *dur, const char *cat,
		       const char *stack)
{
	char escaped_head[512];
	synth_out *out = w->trace;
	if (!out)
		return;
	snprintf(escaped_head, sizeof(escaped_head),
		 "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": %llu, \"tid\": %d, \"ts\": \"%s\", \"dur\": %s", name,
		 (unsigned long long)w->pid, tid, ts, dur);
	if (tid == 1) {
		synth_out_puts(out, w->first_event ? "\n" : ",\n");
		w->first_event = 0;
		synth_out_printf(out, "%s, \"cat\": \"%s\", \"args\": {\"Sequence number\": %llu", escaped_head, cat,
				 (unsigned long long)w->position);
		if (stack) {
			synth_out_puts(out, ", \"Call stack\": \"");
			synth_out_puts(out, stack);
			synth_out_puts(out, "\"");
		}
		synth_out_puts(out, "}}");
		return;
	}
	/* The second thread's events put "cat" after "args": key order is free in JSON. */
	buffer_printf(&w->second, ",\n%s, \"args\": {\"Fwd thread id\": 0", escaped_head);
	if (stack)
		buffer_printf(&w->second, ", \"Call stack\": \"%s\"", stack);
	buffer_printf(&w->second, "}, \"cat\": \"%s\"}", cat);
}

static const char *op_name(int op)
{
	return op < OP_COUNT ? op_names[op] : op == OP_COUNT ? STACKLESS_OP : WORKSPACE_OP;
}

/* An operator, the common ones more often: index i is drawn with weight about 1 / (i + 4). */
static int draw_op(synth_rng *rng)
{
	double u = synth_rng_unit(rng);
	return (int)(u * u * OP_COUNT) % OP_COUNT;
}

/* Half-KB units: most blocks are small, some are activations, a few are whole weight shards. */
static int64_t draw_half_kb(synth_rng *rng)
{
	uint64_t kind = synth_rng_below(rng, 100);
	if (kind < 70)
		return 1 + (int64_t)synth_rng_below(rng, 128);
	if (kind < 95)
		return 128 + (int64_t)synth_rng_below(rng, 131072);
	return 131072 + (int64_t)synth_rng_below(rng, 2097152);
}

static void format_half_kb(char *buf, size_t size, int64_t half_kb)
{
	int64_t magnitude = half_kb < 0 ? -half_kb : half_kb;
	snprintf(buf, size, "%s%lld.%d", half_kb < 0 ? "-" : "", (long long)(magnitude / 2), magnitude % 2 ? 5 : 0);
}

/* The expected stack, by the reference's rule applied while time moves forward: the op of that name that started last. */
static void match_expected(const unit_writer *w, mem_row *row, int op, double alloc_us)
{
	const last_op *last = &w->last[op];
	row->stack = row->top = "";
	row->match = 0;
	row->gap_ms = 0;
	if (!last->set)
		return;
	row->stack = last->stack;
	row->top = last->top;
	if (alloc_us <= last->ts_us + last->dur_us) {
		row->match = 1;
	} else {
		row->match = 2;
		row->gap_ms = (alloc_us - (last->ts_us + last->dur_us)) / 1000;
	}
}

/* Registers an op the trace now holds: later allocations of its name match it (ties: the one written last). */
static void register_op(unit_writer *w, int op, const char *ts, const char *dur, const char *stack)
{
	last_op *last = &w->last[op];
	last->set = 1;
	last->ts_us = strtod(ts, NULL);
	last->dur_us = strtod(dur, NULL);
	last->stack = stack;
	/* The first frame is the op's own: the reference cuts the stack at its first ";\r\n". */
	last->top = leaf_frames[op % ARRAY_SIZE(leaf_frames)];
}

/* One allocation or free row at time at (ns; < 0: no time), and what the parser must make of it. */
static void add_row(unit_writer *w, synth_rng *rng, int op, int64_t at, int64_t half_kb)
{
	const synth_unit *unit = w->unit;
	char size[32], alloc[32] = "", release[32], active_release[32], duration[32], active_duration[32];
	char total[48], line[1024];
	mem_row row;
	int released = half_kb > 0 && synth_rng_below(rng, 20) != 0; /* 1 in 20 blocks outlives the capture */
	int64_t allocated_half = (int64_t)40000000 + w->resident_half_kb + (half_kb > 0 ? half_kb : 0);
	long long reserved = (long long)(allocated_half / 2048 / 2 + 1) * 2;
	unsigned long long stream = 187650604576816ULL + (unsigned long long)unit->rank * 4096;

	format_half_kb(size, sizeof(size), half_kb);
	snprintf(total, sizeof(total), "%.15g", (double)allocated_half / 2048);
	if (at >= 0)
		format_us3(alloc, sizeof(alloc), at);
	memset(&row, 0, sizeof(row));
	row.name = op_name(op);
	row.role = w->plan->roles[unit->role].dir_name;
	row.rank = unit->rank;
	row.device = unit->rank % 8;
	row.unit = w->unit_index;
	row.size_kb = strtod(size, NULL);
	row.start_ms = strtod(alloc, NULL) / 1000;
	row.allocated_mb = row.active_mb = strtod(total, NULL);
	row.reserved_mb = (double)reserved;
	if (released) {
		int64_t length = (int64_t)(10000.0 * synth_rng_range(rng, 1.0, 5000.0)); /* 10 µs to 50 ms */
		int64_t active = length - (int64_t)synth_rng_below(rng, 2000);
		format_us3(release, sizeof(release), at + length);
		format_us3(active_release, sizeof(active_release), at + (active > 0 ? active : 0));
		format_us3(duration, sizeof(duration), length);
		format_us3(active_duration, sizeof(active_duration), active > 0 ? active : 0);
		snprintf(line, sizeof(line),
			 "%s,%s,\"%s\t\",\"%s\t\",\"%s\t\",\"%s\t\",\"%s\t\",%s,%lld,%s,%s,%lld,%s,%llu,NPU:%d\n", row.name,
			 size, alloc, release, active_release, duration, active_duration, total, reserved, total, total,
			 reserved, total, stream, row.device);
		row.duration_ms = strtod(duration, NULL) / 1000;
		row.released = 1;
	} else {
		if (half_kb > 0)
			w->resident_half_kb += half_kb;
		snprintf(line, sizeof(line), "%s,%s,%s%s%s,,,,,%s,%lld,%s,,,,%llu,NPU:%d\n", row.name, size,
			 at >= 0 ? "\"" : "", alloc, at >= 0 ? "\t\"" : "", total, reserved, total, stream, row.device);
	}
	if (at >= 0)
		match_expected(w, &row, op, strtod(alloc, NULL));
	else if (w->run)
		w->run->skipped_frees++; /* a free without a time: the parser skips it, with a warning */
	emit_row(w, rng, line, &row, at >= 0);
}

/* Writes a capture's CSV (and trace, unless sizing): rows_wanted rows over the unit's time window. */
static void write_unit(unit_writer *w, long long rows_wanted)
{
	const synth_unit *unit = w->unit;
	int64_t t0 = SYNTH_ASCEND_EPOCH_NS + unit->start;
	int64_t ops = rows_wanted * 2 / 3 + 1, step = unit->length / ops;
	synth_rng rng;

	if (step < 8000)
		step = 8000; /* 8 µs an op at least: the trace's µs doubles tell every start apart */
	synth_rng_init(&rng, w->plan->options->seed, 20, (uint64_t)unit->role, (uint64_t)unit->rank,
		       (uint64_t)unit->step);
	synth_out_puts(w->csv, "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),"
			       "Duration(us),Active Duration(us),Allocation Total Allocated(MB),"
			       "Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),"
			       "Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n");
	if (w->trace)
		synth_out_printf(w->trace, "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %llu, \"tid\": 0, "
				 "\"args\": {\"name\": \"Python\"}}", (unsigned long long)w->pid);
	w->first_event = 0;
	for (int64_t k = 0; w->rows < rows_wanted; k++) {
		int64_t base = t0 + k * step, next = base + step;
		int64_t op_ts = base + (int64_t)(synth_rng_unit(&rng) * 0.2 * (double)step);
		int64_t op_dur = (int64_t)(synth_rng_range(&rng, 0.1, 0.5) * (double)step);
		uint64_t pick = synth_rng_below(&rng, 100);
		int op = pick < 3 ? OP_COUNT : pick < 5 ? OP_COUNT + 1 : draw_op(&rng);
		int variant = (int)synth_rng_below(&rng, VARIANTS), tid = synth_rng_below(&rng, 10) ? 1 : 2;
		int allocations = (int)synth_rng_below(&rng, 3);
		int64_t times[3];
		char ts[32], dur[32];

		synth_format_micros(ts, sizeof(ts), op_ts);
		synth_format_micros(dur, sizeof(dur), op_dur);
		if (op < OP_COUNT) {
			memory_run *run = w->run;
			int other = (variant + 1) % VARIANTS;
			emit_event(w, tid, op_name(op), ts, dur, "cpu_op", run ? run->escaped[unit->role][op][variant] : "");
			register_op(w, op, ts, dur, run ? run->stacks[unit->role][op][variant] : "");
			if (synth_rng_below(&rng, 50) == 0) {
				/* The same op at the same time on another thread: the later in the file wins. */
				emit_event(w, 2, op_name(op), ts, dur, "cpu_op", run ? run->escaped[unit->role][op][other] : "");
				register_op(w, op, ts, dur, run ? run->stacks[unit->role][op][other] : "");
			}
			if (synth_rng_below(&rng, 30) == 0) /* Python-level events carry stacks too, and do not count */
				emit_event(w, tid, op_name(op), ts, dur, "python_function", "decoy.py(1): not_an_op");
		} else if (op == OP_COUNT) {
			emit_event(w, tid, op_name(op), ts, dur, "cpu_op", NULL);
		}
		if (synth_rng_below(&rng, 2)) {
			char at[32];
			synth_format_micros(at, sizeof(at), op_ts + op_dur / 2);
			emit_event(w, 1, kernels[synth_rng_below(&rng, ARRAY_SIZE(kernels))], at, "3.5", "kernel", NULL);
		}
		for (int i = 0; i < allocations; i++)
			times[i] = op_ts + (int64_t)(synth_rng_unit(&rng) * (double)op_dur);
		if (allocations == 2 && times[1] < times[0]) {
			int64_t swap = times[0];
			times[0] = times[1];
			times[1] = swap;
		}
		if (allocations && synth_rng_below(&rng, 20) == 0)
			times[0] = op_ts; /* allocated the instant the op starts: still inside it */
		for (int i = 0; i < allocations; i++)
			add_row(w, &rng, op, times[i], draw_half_kb(&rng));
		if (synth_rng_below(&rng, 10) < 3) {
			/* After the op ended, at least 1 µs before the next op can start: matched to an op that ended. */
			int64_t end = op_ts + op_dur, room = next - 1000 - end - 1;
			add_row(w, &rng, op, end + 1 + (room > 0 ? (int64_t)synth_rng_below(&rng, (uint64_t)room) : 0),
				draw_half_kb(&rng));
		}
		if (synth_rng_below(&rng, 12) == 0) {
			/* A free of a block allocated before the capture; one in 25 has no time at all. */
			int64_t at = synth_rng_below(&rng, 25) ? op_ts + op_dur / 3 : -1;
			add_row(w, &rng, op, at, -draw_half_kb(&rng));
		}
	}
	flush_row(w);
	if (w->trace) {
		if (w->second.length)
			synth_out_write(w->trace, w->second.data, w->second.length);
		synth_out_puts(w->trace, "\n]");
	}
}

/* ---- the tree and the expected rows ---------------------------------------------- */

typedef struct {
	char *dir;     /* <output>/<role dir> */
	char *pt_name; /* <host>_<pid>_<time>_ascend_pt */
	char *key;     /* the timestamp part of the name: parts[-4] + "_" + parts[-3] when split on '_' */
	synth_unit unit;
	size_t group, order; /* the (role, rank) group by first appearance; the parse position */
} memory_unit;

/* The folder walk visits role folders by name, and the captures in each by name. */
static int compare_walk(const void *a, const void *b)
{
	const memory_unit *x = a, *y = b;
	int c = strcmp(x->dir, y->dir);
	return c ? c : strcmp(x->pt_name, y->pt_name);
}

static char *timestamp_key(const char *name)
{
	const char *parts[64];
	size_t lengths[64], count = 0;
	for (const char *p = name; count < 64;) {
		const char *end = strchr(p, '_');
		parts[count] = p;
		lengths[count++] = end ? (size_t)(end - p) : strlen(p);
		if (!end)
			break;
		p = end + 1;
	}
	if (count >= 4)
		return synth_path("%.*s_%.*s", (int)lengths[count - 4], parts[count - 4], (int)lengths[count - 3],
				  parts[count - 3]);
	if (count == 3)
		return synth_path("%.*s", (int)lengths[0], parts[0]);
	return synth_path("%s", name);
}

static const memory_unit *order_units; /* for the qsort comparators below */

/* Parse order: (role, rank) groups by first appearance in the walk, by timestamp key inside, then walk order. */
static int compare_parse(const void *a, const void *b)
{
	const memory_unit *x = &order_units[*(const size_t *)a], *y = &order_units[*(const size_t *)b];
	int c;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if ((c = strcmp(x->key, y->key)) != 0)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* The reference's global order: a stable sort by start, ties in parse order then file order. */
static int compare_rows(const void *a, const void *b)
{
	const mem_row *x = a, *y = b;
	size_t ux = order_units[x->unit].order, uy = order_units[y->unit].order;
	if (x->start_ms != y->start_ms)
		return x->start_ms < y->start_ms ? -1 : 1;
	if (ux != uy)
		return ux < uy ? -1 : 1;
	return x->position < y->position ? -1 : x->position > y->position;
}

static void write_number(synth_out *out, const char *key, double value)
{
	synth_out_printf(out, ", \"%s\": %.17g", key, value);
}

static int write_expected(const memory_run *run, const char *path)
{
	static const char *const matches[] = {"none", "inside", "after_end"};
	synth_out out;
	int error = synth_out_open(&out, path, 0);
	if (error < 0)
		return error;
	for (size_t i = 0; i < run->count; i++) {
		const mem_row *row = &run->rows[i];
		synth_out_puts(&out, "{\"name\": ");
		synth_out_json_string(&out, row->name);
		synth_out_puts(&out, ", \"role\": ");
		synth_out_json_string(&out, row->role);
		synth_out_printf(&out, ", \"rank_id\": %lld, \"call_stack\": ", (long long)row->rank);
		synth_out_json_string(&out, row->stack);
		synth_out_puts(&out, ", \"call_stack_top\": ");
		synth_out_json_string(&out, row->top);
		write_number(&out, "size_kb", row->size_kb);
		write_number(&out, "start_time_ms", row->start_ms);
		write_number(&out, "duration_ms", row->duration_ms);
		write_number(&out, "total_allocated_mb", row->allocated_mb);
		write_number(&out, "total_reserved_mb", row->reserved_mb);
		write_number(&out, "total_active_mb", row->active_mb);
		synth_out_printf(&out, ", \"device_type\": \"NPU:%d\", \"released\": %d, \"match\": \"%s\"", row->device,
				 row->released, matches[row->match]);
		write_number(&out, "match_gap_ms", row->gap_ms);
		synth_out_puts(&out, "}\n");
	}
	return synth_out_close(&out);
}

/* The CSV of a unit written to a counter: how big a unit of so many rows is. */
static int size_unit(synth_out *out, synth_rows *rows, const synth_plan *plan, const synth_unit *unit,
		     long long events)
{
	unit_writer w;
	(void)rows;
	memset(&w, 0, sizeof(w));
	w.plan = plan;
	w.unit = unit;
	w.csv = out;
	write_unit(&w, events);
	free(w.second.data);
	return SYNTH_OK;
}

static int write_capture(memory_run *run, memory_unit *u, size_t index, long long rows)
{
	const synth_plan *plan = run->plan;
	char *pt = synth_path("%s/%s", u->dir, u->pt_name);
	char *output = synth_path("%s/ASCEND_PROFILER_OUTPUT", pt ? pt : "");
	char *csv_path = synth_path("%s/operator_memory.csv", output ? output : "");
	char *trace_path = synth_path("%s/trace_view.json", output ? output : "");
	char *info = synth_path("%s/profiler_info_%d.json", pt ? pt : "", u->unit.rank);
	char *meta = synth_path("%s/profiler_metadata.json", pt ? pt : "");
	synth_out csv, trace;
	unit_writer w;
	int error = SYNTH_OK, csv_open = 0, trace_open = 0;

	memset(&w, 0, sizeof(w));
	if (!pt || !output || !csv_path || !trace_path || !info || !meta)
		error = synth_fail(SYNTH_ERROR, "out of memory");
	if (error >= 0)
		error = synth_mkdir_p(output);
	if (error >= 0)
		error = synth_ascend_write_info(info, &u->unit, 1);
	/* The memory checker wants profiler_metadata.json in every capture; the shared folder's name their role. */
	if (error >= 0)
		error = synth_ascend_write_metadata(meta, plan, &u->unit, u->unit.role % 2);
	if (error >= 0 && (error = synth_out_open(&csv, csv_path, 0)) >= 0)
		csv_open = 1;
	if (error >= 0 && (error = synth_out_open(&trace, trace_path, 0)) >= 0)
		trace_open = 1;
	if (error >= 0) {
		w.plan = plan;
		w.run = run;
		w.unit = &u->unit;
		w.unit_index = index;
		w.csv = &csv;
		w.trace = &trace;
		w.pid = synth_ascend_pid(plan, u->unit.role, u->unit.rank);
		write_unit(&w, rows);
		if (w.second.failed)
			error = synth_fail(SYNTH_ERROR, "out of memory");
	}
	if (csv_open && synth_out_close(&csv) < 0 && error >= 0)
		error = SYNTH_EOUTPUT;
	if (trace_open && synth_out_close(&trace) < 0 && error >= 0)
		error = SYNTH_EOUTPUT;
	free(w.second.data);
	free(pt);
	free(output);
	free(csv_path);
	free(trace_path);
	free(info);
	free(meta);
	return error;
}

int synth_write_memory(const synth_plan *plan)
{
	const synth_options *options = plan->options;
	size_t count = (size_t)options->ranks * (size_t)plan->role_count * (size_t)options->steps, made = 0;
	memory_unit *units = calloc(count, sizeof(*units));
	size_t *parse = calloc(count, sizeof(*parse));
	memory_run *run = calloc(1, sizeof(*run));
	char *expected = synth_path("%s/expected_memory.jsonl", options->output_dir);
	long long rows;
	int error = SYNTH_OK;

	if (!units || !parse || !run || !expected) {
		error = synth_fail(SYNTH_ERROR, "out of memory");
		goto done;
	}
	run->plan = plan;
	for (int role = 0; role < plan->role_count && error >= 0; role++)
		error = build_stacks(run, role);
	for (int role = 0; role < plan->role_count && error >= 0; role++) {
		for (int rank = 0; rank < options->ranks && error >= 0; rank++) {
			for (int step = 0; step < options->steps && error >= 0; step++) {
				memory_unit *u = &units[made++];
				synth_plan_unit(&u->unit, plan, role, rank, step);
				u->dir = synth_path("%s/%s", options->output_dir, synth_ascend_role_dir(plan, role));
				u->pt_name = synth_ascend_capture_name(plan, &u->unit);
				u->key = u->pt_name ? timestamp_key(u->pt_name) : NULL;
				if (!u->dir || !u->pt_name || !u->key)
					error = synth_fail(SYNTH_ERROR, "out of memory");
			}
		}
	}
	if (error < 0)
		goto done;
	qsort(units, count, sizeof(*units), compare_walk);
	rows = synth_events_per_unit(plan, (int)count, 2000, size_unit);
	for (size_t i = 0; i < count && error >= 0; i++)
		error = write_capture(run, &units[i], i, rows);
	if (error < 0)
		goto done;

	/* Groups by first appearance of (role, rank) in the walk; the role of a unit is its plan role. */
	for (size_t i = 0; i < count; i++) {
		units[i].group = i;
		for (size_t j = 0; j < i; j++) {
			if (units[j].unit.role == units[i].unit.role && units[j].unit.rank == units[i].unit.rank) {
				units[i].group = units[j].group;
				break;
			}
		}
		parse[i] = i;
	}
	order_units = units;
	qsort(parse, count, sizeof(*parse), compare_parse);
	for (size_t i = 0; i < count; i++)
		units[parse[i]].order = i;
	qsort(run->rows, run->count, sizeof(*run->rows), compare_rows);
	order_units = NULL;
	error = write_expected(run, expected);
done:
	for (size_t i = 0; units && i < count; i++) {
		free(units[i].dir);
		free(units[i].pt_name);
		free(units[i].key);
	}
	if (run) {
		for (int role = 0; role < 64; role++)
			for (int op = 0; op < OP_COUNT; op++)
				for (int v = 0; v < VARIANTS; v++) {
					free(run->stacks[role][op][v]);
					free(run->escaped[role][op][v]);
				}
		free(run->rows);
	}
	free(run);
	free(units);
	free(parse);
	free(expected);
	return error;
}

/* torch_ops.c: the cpu_op and python_function events written around a torch [memory] event (--memory-ops), case by case. */
#include "memory.h"

#include <string.h>

#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MICROSECOND INT64_C(1000)
/*
 * The least distance between an event and an op's end it is not meant to sit on: the traces'
 * ts (~4.5e15 µs) keep about 1 µs as doubles, in µs or in ms, so closer calls could go either way.
 */
#define MARGIN (3 * MICROSECOND)

static const char *const case_names[SYNTH_OPS_CASES] = {
	"none", "plain", "nested", "other_tid", "both_tids", "outside", "start_edge", "end_edge",
};
/* How often each case is drawn, in percent (none is never drawn: it is --memory-ops off). */
static const int case_weights[SYNTH_OPS_CASES] = {0, 40, 15, 10, 10, 10, 8, 7};

/* The Python frames of a phase, outermost first, as a with_stack trace nests them. */
static const char *const train_frames[] = {
	"verl/single_controller/base/decorator.py(430): inner", "verl/workers/fsdp_workers.py(612): update_actor",
	"verl/workers/actor/dp_actor.py(312): update_policy", "verl/workers/actor/dp_actor.py(212): _forward_micro_batch",
	"torch/nn/modules/module.py(1736): _wrapped_call_impl", "torch/nn/modules/module.py(1747): _call_impl",
	"transformers/models/qwen2/modeling_qwen2.py(553): forward",
};
static const char *const rollout_frames[] = {
	"verl/single_controller/base/decorator.py(430): inner", "verl/workers/fsdp_workers.py(903): generate_sequences",
	"verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py(287): generate_sequences",
	"vllm/worker/model_runner.py(1712): execute_model", "torch/nn/modules/module.py(1736): _wrapped_call_impl",
	"torch/nn/modules/module.py(1747): _call_impl",
};
static const char *const infer_frames[] = {
	"verl/single_controller/base/decorator.py(430): inner", "verl/workers/fsdp_workers.py(748): compute_log_prob",
	"verl/workers/actor/dp_actor.py(293): compute_log_prob", "torch/nn/modules/module.py(1747): _call_impl",
};
/* The Python frame nearest the op, when the trace has one (a CUDA run's: no torch_npu). */
static const char *const leaf_frames[] = {
	"torch/nn/functional.py(2551): layer_norm", "torch/nn/functional.py(1704): softmax",
	"transformers/activations.py(56): forward", "torch/functional.py(402): einsum",
	"flash_attn/flash_attn_interface.py(1203): flash_attn_varlen_func",
	"transformers/models/qwen2/modeling_qwen2.py(148): apply_rotary_pos_emb",
	"verl/utils/torch_functional.py(88): logprobs_from_logits",
};
/* A call that returned before the event: on the thread, but not on the event's stack. */
static const char *const sibling_frame = "torch/_ops.py(1116): __call__";

const char *synth_torch_ops_case_name(int op_case)
{
	return op_case >= 0 && op_case < SYNTH_OPS_CASES ? case_names[op_case] : "none";
}

int synth_torch_ops_draw_case(synth_rng *rng)
{
	int pick = (int)synth_rng_below(rng, 100);
	for (int c = 1; c < SYNTH_OPS_CASES; c++) {
		if (pick < case_weights[c])
			return c;
		pick -= case_weights[c];
	}
	return SYNTH_OPS_PLAIN;
}

const char *synth_torch_group_top(const synth_torch_group *group)
{
	const synth_torch_x *top = NULL;
	for (int k = 0; k < group->x_count; k++) {
		const synth_torch_x *x = &group->x[k];
		/* The group's frames never reach another group's event: the innermost is the latest start. */
		if (x->python && x->thread == group->thread && x->ts <= group->at && group->at <= x->ts + x->dur &&
		    (!top || x->ts > top->ts || (x->ts == top->ts && x->dur < top->dur)))
			top = x;
	}
	return top ? top->name : "";
}

int synth_torch_with_stack(const synth_plan *plan, const synth_unit *unit)
{
	return plan->options->memory_ops && (unit->role + unit->rank + unit->step) % 2 == 0;
}

/* An operator of the memory table's that a CUDA run has too (aten::, not the NPU's own). */
static const char *draw_op(synth_rng *rng)
{
	const char *name;
	do
		name = synth_memory_op_name(synth_memory_draw_op(rng));
	while (strncmp(name, "aten::", 6) != 0 || strstr(name, "npu"));
	return name;
}

static int add_x(synth_torch_group *group, synth_torch_ops *ops, const char *name, int thread, int python,
		 int64_t ts, int64_t dur)
{
	synth_torch_x *x = &group->x[group->x_count++];
	x->name = name;
	x->thread = thread;
	x->python = python;
	x->ts = ts;
	x->dur = dur;
	return ops ? synth_torch_ops_span(ops, thread, python, name, ts, dur) : SYNTH_OK;
}

/* [at - before, at + after], each a random part of the reach, at least MARGIN. */
static int add_op(synth_torch_group *group, synth_torch_ops *ops, synth_rng *rng, const char *name, int thread,
		  int64_t at, int64_t reach)
{
	int64_t before = MARGIN + (int64_t)synth_rng_below(rng, (uint64_t)reach);
	int64_t after = MARGIN + (int64_t)synth_rng_below(rng, (uint64_t)reach);
	return add_x(group, ops, name, thread, 0, at - before, before + after);
}

/* The phase's frames around the event, each inside the last, the op's own Python frame innermost. */
static int add_frames(synth_torch_group *group, synth_torch_ops *ops, synth_rng *rng, const char *phase,
		      int thread, int64_t radius)
{
	const char *const *frames = strstr(phase, "update") ? train_frames
				    : strstr(phase, "generate") ? rollout_frames
								: infer_frames;
	int available = strstr(phase, "update") ? ARRAY_SIZE(train_frames)
			: strstr(phase, "generate") ? ARRAY_SIZE(rollout_frames)
						    : ARRAY_SIZE(infer_frames);
	int depth = 1 + (int)synth_rng_below(rng, (uint64_t)available);
	int64_t inset = radius / 16; /* distinct starts: the order of the frames is never a tie */
	int error = SYNTH_OK;
	for (int k = 0; k < depth && error >= 0; k++)
		error = add_x(group, ops, frames[k], thread, 1, group->at - radius + k * inset, 2 * (radius - k * inset));
	if (error >= 0 && synth_rng_below(rng, 2))
		error = add_x(group, ops, leaf_frames[synth_rng_below(rng, ARRAY_SIZE(leaf_frames))], thread, 1, group->at - radius + 8 * inset,
			      2 * (radius - 8 * inset));
	return error;
}

int synth_torch_ops_around(synth_torch_group *group, synth_torch_ops *ops, synth_rng *rng, int op_case,
			   int with_stack, const char *phase, int64_t radius)
{
	const int self = group->thread, other = 1 - group->thread;
	const int64_t at = group->at, reach = radius / 4 > MARGIN ? radius / 4 : MARGIN;
	const char *name = draw_op(rng);
	int error = SYNTH_OK;

	group->x_count = 0;
	if (with_stack && (error = add_frames(group, ops, rng, phase, self, radius)) < 0)
		return error;
	switch (op_case) {
	case SYNTH_OPS_PLAIN:
		error = add_op(group, ops, rng, name, self, at, reach);
		/* Sometimes a call that returned just before, on the same thread. */
		if (error >= 0 && with_stack && synth_rng_below(rng, 3) == 0)
			error = add_x(group, ops, sibling_frame, self, 1, at - 3 * reach, reach);
		break;
	case SYNTH_OPS_NESTED: {
		int64_t before = MARGIN + (int64_t)synth_rng_below(rng, (uint64_t)reach);
		int64_t after = MARGIN + (int64_t)synth_rng_below(rng, (uint64_t)reach);
		int64_t outer_before = synth_rng_below(rng, 2) ? before : before + reach;
		error = add_x(group, ops, "aten::linear", self, 0, at - outer_before, outer_before + after + reach);
		if (error >= 0)
			error = add_x(group, ops, "aten::mm", self, 0, at - before, before + after);
		break;
	}
	case SYNTH_OPS_OTHER_TID:
		error = add_op(group, ops, rng, name, other, at, reach);
		if (error >= 0 && with_stack)
			error = add_x(group, ops, sibling_frame, other, 1, at - reach, 2 * reach);
		break;
	case SYNTH_OPS_BOTH_TIDS:
		error = add_op(group, ops, rng, "aten::copy_", other, at, reach);
		if (error >= 0)
			error = add_op(group, ops, rng, name, self, at, reach);
		break;
	case SYNTH_OPS_OUTSIDE:
		error = add_x(group, ops, name, self, 0, at - 3 * reach, 2 * reach);
		break;
	case SYNTH_OPS_START_EDGE:
		error = add_x(group, ops, name, self, 0, at, MARGIN + (int64_t)synth_rng_below(rng, (uint64_t)reach));
		break;
	case SYNTH_OPS_END_EDGE: {
		/* Whole µs (the event's at too): ts + dur is then exactly the event's ts, however read. */
		int64_t dur = MICROSECOND * (1 + (int64_t)synth_rng_below(rng, (uint64_t)(reach / MICROSECOND + 1)));
		error = add_x(group, ops, name, self, 0, at - dur, dur);
		break;
	}
	default:
		break;
	}
	return error;
}

void synth_torch_write_x(synth_out *out, long long *count, const synth_torch_x *x, const char *pid,
			 const char *const tids[2], long long id)
{
	synth_out_puts(out, (*count)++ ? ",\n  {\n" : "\n  {\n");
	synth_out_printf(out, "    \"ph\": \"X\", \"cat\": \"%s\", \"name\": ", x->python ? "python_function" : "cpu_op");
	synth_out_json_string(out, x->name);
	synth_out_printf(out, ", \"pid\": %s, \"tid\": %s,\n    \"ts\": ", pid, tids[x->thread]);
	synth_out_micros(out, x->ts);
	synth_out_puts(out, ", \"dur\": ");
	synth_out_micros(out, x->dur);
	if (x->python)
		synth_out_printf(out, ",\n    \"args\": {\n      \"Python parent id\": %lld, \"Python id\": %lld, "
				      "\"Python thread\": %d\n    }\n  }",
				 id - 1, id, x->thread);
	else
		synth_out_printf(out, ",\n    \"args\": {\n      \"External id\": %lld, \"Record function id\": 0, "
				      "\"Ev Idx\": %lld\n    }\n  }",
				 id, id);
}

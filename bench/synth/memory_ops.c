/* memory_ops.c: the operators a VeRL step allocates device memory through, and their Python call stacks. */
#include "memory.h"

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

#define SYNTH_STACK_MAX 216 /* frames: --stack-depth's 200 and the most a stack has without it */
#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))
_Static_assert(ARRAY_SIZE(op_names) == SYNTH_MEMORY_OPS, "SYNTH_MEMORY_OPS counts op_names");

const char *synth_memory_op_name(int op)
{
	return op < SYNTH_MEMORY_OPS ? op_names[op] : op == SYNTH_MEMORY_STACKLESS ? "aten::native_dropout" : "cann::workspace";
}

/* An operator, the common ones more often: index i is drawn with weight about 1 / (i + 4). */
int synth_memory_draw_op(synth_rng *rng)
{
	double u = synth_rng_unit(rng);
	return (int)(u * u * SYNTH_MEMORY_OPS) % SYNTH_MEMORY_OPS;
}

const char *synth_memory_leaf_frame(int op)
{
	return leaf_frames[op % ARRAY_SIZE(leaf_frames)];
}

const char *synth_memory_kernel(synth_rng *rng)
{
	return kernels[synth_rng_below(rng, ARRAY_SIZE(kernels))];
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
int synth_memory_build_stacks(synth_memory_run *run, int role)
{
	const char *phase = run->plan->roles[role].phase_name;
	const char *const *entry = strstr(phase, "update") ? train_entry
				   : strstr(phase, "generate") ? rollout_entry
							       : infer_entry;
	int entry_count = strstr(phase, "update") ? ARRAY_SIZE(train_entry)
			  : strstr(phase, "generate") ? ARRAY_SIZE(rollout_entry)
						      : ARRAY_SIZE(infer_entry);
	int training = entry == train_entry;
	for (int op = 0; op < SYNTH_MEMORY_OPS; op++) {
		for (int v = 0; v < SYNTH_MEMORY_VARIANTS; v++) {
			const char *frames[SYNTH_STACK_MAX];
			int n = 0, depth = run->plan->options->stack_depth;
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
			/* Deeper stacks: the model's modules nested, as torch_npu records them, above the entry. */
			for (int i = 0; n + entry_count < depth && n + entry_count < SYNTH_STACK_MAX; i++)
				frames[n++] = forward_frames[1 + i % (ARRAY_SIZE(forward_frames) - 1)];
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


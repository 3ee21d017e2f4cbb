/* synth.c: rl-insight-synth, writes realistic MSTX / torch / NVTX profile trees plus their expected rows. */
#include "synth/synth.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"Usage: rl-insight-synth --format mstx|torch|nvtx|memory|gmm --ranks N --roles R --steps S\n"
	"                        [--events-per-unit K | --target-bytes SIZE] [--dense] [--nvtx-text] [--seed X] --output DIR\n"
	"                        [--memory-events N [--memory-ops] [--memory-shuffle] [--memory-base MIB]]\n"
	"                        [--torch-rank info|name|none] [--torch-device cuda|hip|npu] [--ascend-quirks LIST]\n"
	"                        [--gmm-ops N] [--experts E] [--gmm-mixed]\n"
	"       rl-insight-synth --pair KIND [the options above] [pair options] --output DIR\n"
	"       rl-insight-synth --demo [--seed X] --output DIR\n"
	"\n"
	"Writes a profile tree as the profilers lay it out (timeline.md sections 3-5) and\n"
	"DIR/expected.csv, the rows rl-insight --export csv must produce from it\n"
	"(memory: DIR/expected_memory.jsonl, the memory parser's rows; gmm: DIR/expected_gmm.csv,\n"
	"what --profiler-type gmm --export csv must write).\n"
	"\n"
	"  --format F            mstx: <role>/<host>_<pid>_<time>_ascend_pt/... trace_view.json\n"
	"                        torch: <role>/prof_rank-<r>_<hhmmss>.json.gz (Kineto)\n"
	"                        nvtx: worker_process_<pid>.<rid>.jsonl (nsys jsonlines)\n"
	"                        memory: <role>/<host>_<pid>_<time>_ascend_pt/... operator_memory.csv\n"
	"                        and trace_view.json with call stacks\n"
	"                        gmm: step_<s>/<role>/rank<r>/dump_tensor_data/\n"
	"                        NPU.npu_grouped_matmul.<op>.forward.kwargs.group_list.pt, msprobe's MoE\n"
	"                        dumps as torch.save writes them (a zip of stored records and a pickle)\n"
	"  --ranks N             ranks per role (default 2)\n"
	"  --roles R             VeRL roles: rollout, actor log-prob, actor update, ref, critic... (default 4)\n"
	"  --steps S             training steps; one profile unit per role, rank and step (default 1)\n"
	"  --events-per-unit K   trace events per unit (MSTX, torch), NVTX ranges per capture,\n"
	"                        or operator_memory.csv rows per capture (memory)\n"
	"  --target-bytes SIZE   size units so the traces total about SIZE (suffixes K, M, G)\n"
	"  --stack-depth N       memory only: call stacks N frames deep, nested module calls\n"
	"                        added between the op's frames and the phase's entry (at most 200)\n"
	"  --memory-events N     torch only: N [memory] events per trace (allocations paired with\n"
	"                        frees by Addr on two CUDA devices, frees of blocks from before the\n"
	"                        capture, blocks never freed, CPU events) and DIR/expected_memory.jsonl,\n"
	"                        the CUDA rows of rl-insight --profiler-type torch_memory\n"
	"  --memory-ops          with --memory-events: cpu_op events around the [memory] events (nested,\n"
	"                        on the other thread, ending before, at their very start or end) and, in\n"
	"                        every other trace (with_stack), nested python_function frames; the rows'\n"
	"                        name, call_stack and match follow (the timeline's own cpu_ops count too)\n"
	"  --memory-shuffle      with --memory-events: the ops after the events they contain in every\n"
	"                        other group, and one allocation in 16 written after its own free\n"
	"  --memory-base MIB     with --memory-events: memory allocated before the capture, each device's\n"
	"                        Total Allocated starting at MIB (the blocks freed in the capture from\n"
	"                        before it among them); every event's Total Allocated is MIB plus the\n"
	"                        running sum of its device's Bytes in time order (default: 2000 MiB and\n"
	"                        2500 MiB of weights, plus those blocks)\n"
	"  --torch-rank WHERE    torch only: where a trace's rank is: info, its distributedInfo (default);\n"
	"                        name, no distributedInfo and the rank in the file name (prof_rank-N_,\n"
	"                        worker_rank_N., bs_32_rankN_, node00_<pid>_rankN. by role); none, no\n"
	"                        distributedInfo and worker<N>.<ms>.pt.trace.json.gz: every row rank 0\n"
	"  --torch-device KIND   torch only: the [memory] events' accelerator: cuda (Device Type 1, the\n"
	"                        default), hip (6, ROCm) or npu (20, PrivateUse1 under torch_npu); the\n"
	"                        expected rows' devices are CUDA:<id>, HIP:<id> or NPU:<id>\n"
	"  --dense               nvtx only: every event line an NVTX range (no kernel or other-domain\n"
	"                        lines between them), the shape that costs a parser most per byte\n"
	"  --nvtx-text           nvtx only: every range line also carries a \"text\" (the range's own\n"
	"                        message, as nsys exports it) with escaped quotes and non-ASCII UTF-8\n"
	"  --ascend-quirks LIST  mstx, memory: write what real torch_npu exports lack or write otherwise,\n"
	"                        the shapes the reference refuses and rl-insight reads (comma-separated):\n"
	"                          no-args           mstx: Overlap Analysis X events without \"args\"\n"
	"                          no-versions       profiler_info without torch_npu_version, cann_version\n"
	"                          no-profiler-info  no profiler_info_N.json; the folder is ..._rank<N>_ascend_pt\n"
	"                          unranked          no profiler_info_N.json, no rank in the name (--ranks 1:\n"
	"                                            rank 0, which rl-insight warns about)\n"
	"                          no-trace-view     memory: no trace_view.json; the rows have no call stacks\n"
	"                          csv10             memory: the 2023 10-column operator_memory.csv (no Active\n"
	"                                            columns, no Stream Ptr; expected total_active_mb 0)\n"
	"                        The expected rows follow each quirk.\n"
	"  --gmm-ops N           gmm only: grouped-matmul dumps per step, role and rank; three in a row\n"
	"                        share a MoE layer's routing (default 6)\n"
	"  --experts E           gmm only: experts, the elements of each group_list (default 16)\n"
	"  --gmm-mixed           gmm only: by turns every kind of file torch.save writes: int64, int32,\n"
	"                        float32, bfloat16 and float64 storages; torch 2.x's zip (byteorder little\n"
	"                        or big), torch 1.13's, and the legacy stream; the expected rows follow\n"
	"  --seed X              same seed, same bytes (default 1)\n"
	"  --output DIR          created if missing\n"
	"  --demo                8 ranks x 4 roles x 3 steps in every format: DIR/{mstx,torch,nvtx,memory}\n"
	"\n"
	"Run pairs (--pair KIND): DIR/baseline and DIR/current, two trees of the format each with its\n"
	"expected rows, and DIR/pair.txt, key=value lines saying what was planted (bench/README.md).\n"
	"  --pair identical      the same seed and options: the same rows (with --jitter, within noise)\n"
	"  --pair slowdown       every bar of one role on one rank lasts --slow-factor times as long\n"
	"                        (mstx, torch, nvtx); later phases wait for it, so later bars start later\n"
	"  --pair memory-growth  allocations at one call site (pair.txt: site=) grow by --growth-kb\n"
	"                        (memory, or torch with --memory-events and --memory-ops)\n"
	"  --pair roles          the current run lacks the last role and has one more (needs --roles >= 2)\n"
	"  --jitter P            identical, slowdown: the current run's units last up to P longer or\n"
	"                        shorter (0 <= P < 0.5), drawn from another seed\n"
	"  --jitter-seed X       the jitter's seed (default: --seed plus a fixed offset): the same plan\n"
	"                        with other jitter, one night after another of one run\n"
	"  --slow-role NAME      slowdown: a role's folder or phase name (default: actor_update, or the last)\n"
	"  --slow-rank R         slowdown: the rank (default 0), or all: every rank of the role\n"
	"  --slow-factor F       slowdown: how many times as long (default 1.2)\n"
	"  --growth-kb K         memory-growth: KB added to each allocation at the site (default 2048,\n"
	"                        a multiple of 0.5)\n";

static int parse_count(long long *out, const char *flag, const char *text, int allow_suffix)
{
	char *end;
	errno = 0;
	long long value = strtoll(text, &end, 10);
	long long scale = 1;
	if (allow_suffix && *end) {
		switch (*end) {
		case 'k': case 'K': scale = 1LL << 10; end++; break;
		case 'm': case 'M': scale = 1LL << 20; end++; break;
		case 'g': case 'G': scale = 1LL << 30; end++; break;
		default: break;
		}
		if (*end == 'B' || *end == 'b')
			end++;
	}
	if (errno || end == text || *end || value < 0 || value > (1LL << 50) / scale)
		return synth_fail(SYNTH_EUSAGE, "%s: not a count: %s", flag, text);
	*out = value * scale;
	return SYNTH_OK;
}

static int parse_real(double *out, const char *flag, const char *text)
{
	char *end;
	errno = 0;
	double value = strtod(text, &end);
	if (errno || end == text || *end || !(value >= 0 && value <= 1e12))
		return synth_fail(SYNTH_EUSAGE, "%s: not a number: %s", flag, text);
	*out = value;
	return SYNTH_OK;
}

static int run_demo(synth_options options)
{
	static const struct {
		synth_format format;
		const char *name;
		long long events;
	} formats[] = { { SYNTH_MSTX, "mstx", 80 }, { SYNTH_TORCH, "torch", 80 }, { SYNTH_NVTX, "nvtx", 6 },
			{ SYNTH_MEMORY, "memory", 300 } };
	const char *root = options.output_dir;
	int error = SYNTH_OK;

	options.ranks = 8;
	options.roles = 4;
	options.steps = 3;
	options.demo = 1;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && error >= 0; i++) {
		char *dir = synth_path("%s/%s", root, formats[i].name);
		if (!dir)
			return synth_fail(SYNTH_ERROR, "out of memory");
		options.format = formats[i].format;
		options.output_dir = dir;
		options.events_per_unit = formats[i].events;
		error = synth_run(&options);
		free(dir);
	}
	return error;
}

int main(int argc, char **argv)
{
	synth_options options = { .format = SYNTH_MSTX, .ranks = 2, .roles = 4, .steps = 1, .seed = 1, .gmm_ops = 6,
				   .gmm_experts = 16 };
	synth_pair pair = { .kind = SYNTH_PAIR_IDENTICAL };
	int have_format = 0, have_pair = 0, have_pair_option = 0, have_torch_option = 0, have_gmm_option = 0;
	int error = SYNTH_OK;

	for (int i = 1; i < argc; i++) {
		const char *flag = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		long long number = 0;

		if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
		if (strcmp(flag, "--demo") == 0) {
			options.demo = 1;
			continue;
		}
		if (strcmp(flag, "--dense") == 0) {
			options.dense = 1;
			continue;
		}
		if (strcmp(flag, "--nvtx-text") == 0) {
			options.nvtx_text = 1;
			continue;
		}
		if (strcmp(flag, "--memory-ops") == 0) {
			options.memory_ops = 1;
			continue;
		}
		if (strcmp(flag, "--memory-shuffle") == 0) {
			options.memory_shuffle = 1;
			continue;
		}
		if (strcmp(flag, "--gmm-mixed") == 0) {
			options.gmm_mixed = have_gmm_option = 1;
			continue;
		}
		if (!value) {
			error = synth_fail(SYNTH_EUSAGE, "%s needs a value", flag);
			break;
		}
		i++;
		if (strcmp(flag, "--format") == 0) {
			have_format = 1;
			if (strcmp(value, "mstx") == 0)
				options.format = SYNTH_MSTX;
			else if (strcmp(value, "torch") == 0)
				options.format = SYNTH_TORCH;
			else if (strcmp(value, "nvtx") == 0)
				options.format = SYNTH_NVTX;
			else if (strcmp(value, "memory") == 0)
				options.format = SYNTH_MEMORY;
			else if (strcmp(value, "gmm") == 0)
				options.format = SYNTH_GMM;
			else
				error = synth_fail(SYNTH_EUSAGE, "--format: mstx, torch, nvtx, memory or gmm, not %s", value);
		} else if (strcmp(flag, "--output") == 0) {
			options.output_dir = value;
		} else if (strcmp(flag, "--ranks") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			options.ranks = (int)(number > 1000000 ? 1000000 : number);
		} else if (strcmp(flag, "--roles") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			options.roles = (int)(number > 1000 ? 1000 : number);
		} else if (strcmp(flag, "--steps") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			options.steps = (int)(number > 1000000 ? 1000000 : number);
		} else if (strcmp(flag, "--events-per-unit") == 0 &&
			   (error = parse_count(&number, flag, value, 1)) >= 0) {
			options.events_per_unit = number;
		} else if (strcmp(flag, "--target-bytes") == 0 && (error = parse_count(&number, flag, value, 1)) >= 0) {
			options.target_bytes = number;
		} else if (strcmp(flag, "--stack-depth") == 0 &&
			   (error = parse_count(&number, flag, value, 1)) >= 0) {
			options.stack_depth = (int)(number > 200 ? 200 : number);
		} else if (strcmp(flag, "--memory-events") == 0 &&
			   (error = parse_count(&number, flag, value, 1)) >= 0) {
			options.memory_events = number > 100000000 ? 100000000 : number;
		} else if (strcmp(flag, "--pair") == 0) {
			have_pair = 1;
			error = synth_pair_kind_parse(&pair.kind, value);
		} else if (strcmp(flag, "--jitter") == 0) {
			have_pair_option = 1;
			error = parse_real(&pair.jitter, flag, value);
		} else if (strcmp(flag, "--slow-role") == 0) {
			have_pair_option = 1;
			pair.slow_role = value;
		} else if (strcmp(flag, "--slow-rank") == 0 && strcmp(value, "all") == 0) {
			have_pair_option = 1;
			pair.slow_rank = -1;
		} else if (strcmp(flag, "--slow-rank") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			have_pair_option = 1;
			pair.slow_rank = (int)(number > 1000000 ? 1000000 : number);
		} else if (strcmp(flag, "--jitter-seed") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			have_pair_option = 1;
			if (number == 0)
				error = synth_fail(SYNTH_EUSAGE, "--jitter-seed must be above 0");
			pair.jitter_seed = (uint64_t)number;
		} else if (strcmp(flag, "--slow-factor") == 0) {
			have_pair_option = 1;
			error = parse_real(&pair.slow_factor, flag, value);
			if (error >= 0 && pair.slow_factor <= 0)
				error = synth_fail(SYNTH_EUSAGE, "--slow-factor must be above 0");
		} else if (strcmp(flag, "--growth-kb") == 0) {
			have_pair_option = 1;
			error = parse_real(&pair.growth_kb, flag, value);
			if (error >= 0 && pair.growth_kb <= 0)
				error = synth_fail(SYNTH_EUSAGE, "--growth-kb must be above 0");
		} else if (strcmp(flag, "--ascend-quirks") == 0) {
			error = synth_quirks_parse(&options.ascend_quirks, value);
		} else if (strcmp(flag, "--memory-base") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			options.has_memory_base = 1;
			options.memory_base_mib = number > 1000000 ? 1000000 : number;
		} else if (strcmp(flag, "--torch-rank") == 0) {
			have_torch_option = 1;
			if (strcmp(value, "info") == 0)
				options.torch_rank = SYNTH_RANK_INFO;
			else if (strcmp(value, "name") == 0)
				options.torch_rank = SYNTH_RANK_NAME;
			else if (strcmp(value, "none") == 0)
				options.torch_rank = SYNTH_RANK_NONE;
			else
				error = synth_fail(SYNTH_EUSAGE, "--torch-rank: info, name or none, not %s", value);
		} else if (strcmp(flag, "--torch-device") == 0) {
			have_torch_option = 1;
			if (strcmp(value, "cuda") == 0)
				options.torch_device = 1;
			else if (strcmp(value, "hip") == 0)
				options.torch_device = 6;
			else if (strcmp(value, "npu") == 0)
				options.torch_device = 20;
			else
				error = synth_fail(SYNTH_EUSAGE, "--torch-device: cuda, hip or npu, not %s", value);
		} else if (strcmp(flag, "--gmm-ops") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			have_gmm_option = 1;
			options.gmm_ops = (int)(number > 100000 ? 100000 : number);
		} else if (strcmp(flag, "--experts") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			have_gmm_option = 1;
			options.gmm_experts = (int)(number > 100000 ? 100000 : number);
		} else if (strcmp(flag, "--seed") == 0 && (error = parse_count(&number, flag, value, 0)) >= 0) {
			options.seed = (uint64_t)number;
		} else if (error >= 0) {
			error = synth_fail(SYNTH_EUSAGE, "unknown option %s", flag);
		}
		if (error < 0)
			break;
	}
	if (error >= 0 && !options.output_dir)
		error = synth_fail(SYNTH_EUSAGE, "--output DIR is required");
	if (error >= 0 && !options.demo && !have_format)
		error = synth_fail(SYNTH_EUSAGE, "--format is required (or --demo)");
	if (error >= 0 && options.dense && (options.demo || options.format != SYNTH_NVTX))
		error = synth_fail(SYNTH_EUSAGE, "--dense is for --format nvtx only");
	if (error >= 0 && options.nvtx_text && (options.demo || options.format != SYNTH_NVTX))
		error = synth_fail(SYNTH_EUSAGE, "--nvtx-text is for --format nvtx only");
	if (error >= 0 && options.stack_depth && (options.demo || options.format != SYNTH_MEMORY))
		error = synth_fail(SYNTH_EUSAGE, "--stack-depth is for --format memory only");
	if (error >= 0 && options.memory_events && (options.demo || options.format != SYNTH_TORCH))
		error = synth_fail(SYNTH_EUSAGE, "--memory-events is for --format torch only");
	if (error >= 0 && (options.memory_ops || options.memory_shuffle || options.has_memory_base) &&
	    !options.memory_events)
		error = synth_fail(SYNTH_EUSAGE, "--memory-ops, --memory-shuffle and --memory-base need --memory-events");
	if (error >= 0 && have_torch_option && (options.demo || options.format != SYNTH_TORCH))
		error = synth_fail(SYNTH_EUSAGE, "--torch-rank and --torch-device are for --format torch only");
	if (error >= 0 && options.ascend_quirks &&
	    (options.demo || (options.format != SYNTH_MSTX && options.format != SYNTH_MEMORY)))
		error = synth_fail(SYNTH_EUSAGE, "--ascend-quirks is for --format mstx or memory only");
	if (error >= 0 && (options.ascend_quirks & SYNTH_QUIRK_NO_ARGS) && options.format != SYNTH_MSTX)
		error = synth_fail(SYNTH_EUSAGE, "--ascend-quirks no-args is for --format mstx only");
	if (error >= 0 && (options.ascend_quirks & (SYNTH_QUIRK_NO_TRACE_VIEW | SYNTH_QUIRK_CSV10)) &&
	    options.format != SYNTH_MEMORY)
		error = synth_fail(SYNTH_EUSAGE, "--ascend-quirks no-trace-view and csv10 are for --format memory only");
	/* Every capture would be rank 0: with more ranks the expected rows would be another tree's. */
	if (error >= 0 && (options.ascend_quirks & SYNTH_QUIRK_UNRANKED) && options.ranks != 1)
		error = synth_fail(SYNTH_EUSAGE, "--ascend-quirks unranked needs --ranks 1");
	if (error >= 0 && have_gmm_option && (options.demo || options.format != SYNTH_GMM))
		error = synth_fail(SYNTH_EUSAGE, "--gmm-ops, --experts and --gmm-mixed are for --format gmm only");
	if (error >= 0 && have_pair && options.format == SYNTH_GMM)
		error = synth_fail(SYNTH_EUSAGE, "--pair is not for --format gmm");
	if (error >= 0 && have_pair && options.demo)
		error = synth_fail(SYNTH_EUSAGE, "give --pair or --demo, not both");
	if (error >= 0 && have_pair_option && !have_pair)
		error = synth_fail(SYNTH_EUSAGE, "--jitter, --slow-* and --growth-kb need --pair");
	if (error >= 0 && options.events_per_unit && options.target_bytes)
		error = synth_fail(SYNTH_EUSAGE, "give --events-per-unit or --target-bytes, not both");
	if (error < 0) {
		fprintf(stderr, "rl-insight-synth: %s\n%s", synth_error(), usage);
		return 2;
	}

	error = options.demo ? run_demo(options) : have_pair ? synth_run_pair(&options, &pair) : synth_run(&options);
	if (error < 0) {
		fprintf(stderr, "rl-insight-synth: %s\n", synth_error());
		return error == SYNTH_EOUTPUT ? 4 : error == SYNTH_EUSAGE ? 2 : 1;
	}
	return 0;
}

/* test_torch_memory_synth.c: rl-insight-synth's torch traces with [memory] events parse to exactly the rows the generator worked out. */
#include "harness.h"
#include "synth/synth.h"
#include "torch_fixture.h"

#include <stdlib.h>
#include <string.h>

/*
 * Every field but the operator's: name, call_stack, call_stack_top and match are
 * memory.torch_ops' (test_torch_memory_ops.c), which checks them on every row; a run pair's
 * trees (whole) are checked with them, since its planted growth goes by the stack.
 */
static int equal_but_operator(const mf_expected *want, const rli_memory_row *got, int whole)
{
	mf_expected copy = *want;
	if (whole)
		return mf_row_equal(want, got);
	copy.row.name = got->name;
	copy.row.call_stack = got->call_stack;
	copy.row.call_stack_top = got->call_stack_top;
	copy.row.match = got->match;
	copy.row.match_gap_ms = got->match_gap_ms;
	return mf_row_equal(&copy, got);
}

static rli_memory *parse(const char *dir, unsigned devices, unsigned jobs)
{
	rli_torch_memory_options options;
	rli_memory *memory;
	rli_torch_memory_options_init(&options);
	CHECK_INT(options.devices, RLI_MEMORY_DEVICE_ACCELERATORS); /* CUDA, HIP and NPU unless asked */
	memory = tf_parse(dir, devices, jobs);
	CHECK(memory != NULL);
	return memory;
}

static void check_rows(const char *dir, unsigned jobs, const mf_expected *expected, size_t count, int whole)
{
	rli_memory *memory = parse(dir, RLI_MEMORY_DEVICE_CUDA, jobs);
	size_t n;
	int in_start_order;
	rli_memory_row *got = tf_sorted_rows(memory, &n, &in_start_order);
	CHECK_INT(n, count);
	CHECK(in_start_order);
	for (size_t i = 0; i < count && i < n; i++) {
		if (!equal_but_operator(&expected[i], &got[i], whole)) {
			fprintf(stderr, "jobs %u, row %zu: got %s %s %.17g %g dur %.17g released %d\n"
					"                want %s %s %.17g %g dur %.17g released %d\n",
				jobs, i, got[i].role, got[i].device_type, got[i].start_time_ms, got[i].size_kb,
				got[i].duration_ms, got[i].released, expected[i].row.role, expected[i].row.device_type,
				expected[i].row.start_time_ms, expected[i].row.size_kb, expected[i].row.duration_ms,
				expected[i].row.released);
			rli_test_failures++;
			break;
		}
	}
	free(got);
	rli_memory_free(memory);
}

int main(void)
{
	char *root = fx_tempdir();
	const tf_set set = {.steps = 2, .memory_events = 400, .seed = 5};
	char *dir = tf_generate(root, "in", &set);
	mf_expected *expected;
	size_t count, frees = 0, kept = 0, released = 0, other_device = 0, cpu = 0;
	rli_memory *all;

	expected = mf_read_expected(fx_text("%s/expected_memory.jsonl", dir), &count);
	/*
	 * 12 traces of 400 events: one in seven a CPU one, the rest a row each but for the frees of
	 * blocks allocated in the capture (about 45% of the others), which close their allocation's row.
	 */
	CHECK(count > 12 * 150 && count < 12 * 260);
	for (size_t i = 0; i < count; i++) {
		const rli_memory_row *w = &expected[i].row;
		frees += w->size_kb < 0;
		kept += w->size_kb > 0 && !w->released;
		released += w->size_kb > 0 && w->released;
		/* rank r's devices are r and r + 1 */
		other_device += strcmp(w->device_type, w->rank_id ? "CUDA:1" : "CUDA:0") != 0;
	}
	/* The generator makes every case the parser must tell apart. */
	CHECK(frees > 100 && kept > 100 && released > 1000 && other_device > 1000);
	tf_sort_expected(expected, count);
	check_rows(dir, 1, expected, count, 0);
	check_rows(dir, 3, expected, count, 0);

	/* --memory-device all: the CPU events come too, kept apart as CPU:-1. */
	all = parse(dir, RLI_MEMORY_DEVICE_ALL, 2);
	if (all) {
		for (size_t i = 0; i < rli_memory_count(all); i++)
			cpu += strcmp(mf_get(all, i).device_type, "CPU:-1") == 0;
		CHECK_INT(rli_memory_count(all), count + cpu);
		CHECK(cpu > 12 * 40);
		rli_memory_free(all);
	}
	/* The rank and role filters keep whole traces: rank 1 of actor_update only. */
	{
		rli_torch_memory_options filtered;
		rli_memory *kept_rows = NULL;
		size_t want = 0;
		for (size_t i = 0; i < count; i++)
			want += expected[i].row.rank_id == 1 && strcmp(expected[i].row.role, "actor_update") == 0;
		CHECK(want > 100);
		rli_torch_memory_options_init(&filtered);
		filtered.common.rank_list = "1";
		filtered.common.role_list = "actor_update";
		CHECK_INT(rli_torch_memory_parse(&kept_rows, dir, &filtered), RLI_OK);
		CHECK_INT(kept_rows ? rli_memory_count(kept_rows) : 0, want);
		rli_memory_free(kept_rows);
	}
	mf_expected_free(expected, count);

	/* A memory-growth pair (rl-insight-synth --pair): both trees parse to their own expected rows. */
	{
		synth_options options;
		synth_pair pair = { .kind = SYNTH_PAIR_MEMORY_GROWTH, .growth_kb = 1024 };
		memset(&options, 0, sizeof(options));
		options.format = SYNTH_TORCH;
		options.ranks = 2;
		options.roles = 3;
		options.steps = 2;
		options.events_per_unit = 50;
		options.memory_events = 300;
		options.memory_ops = 1;
		options.seed = 9;
		char *pair_dir = strdup(fx_path(root, "pair"));
		options.output_dir = pair_dir;
		CHECK_INT(synth_run_pair(&options, &pair), 0);
		for (int side = 0; side < 2; side++) {
			char *tree = strdup(fx_text("%s/pair/%s", root, side ? "current" : "baseline"));
			expected = mf_read_expected(fx_text("%s/expected_memory.jsonl", tree), &count);
			CHECK(count > 12 * 100);
			tf_sort_expected(expected, count);
			check_rows(tree, 2, expected, count, 1);
			mf_expected_free(expected, count);
			free(tree);
		}
		free(pair_dir);
	}
	free(dir);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

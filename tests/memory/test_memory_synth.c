/* test_memory_synth.c: rl-insight-synth's memory captures parse to exactly the rows the generator worked out by itself. */
#include "harness.h"
#include "memory_fixture.h"
#include "synth/synth.h"

static void check_tree(const char *dir, unsigned jobs, const mf_expected *expected, size_t count)
{
	rli_memory *memory = NULL;
	rli_memory_match_counts counts, want;
	int rc = mf_parse(&memory, dir, NULL, NULL, jobs, NULL);
	CHECK_INT(rc, RLI_OK);
	if (rc != RLI_OK) {
		fprintf(stderr, "%s\n", rli_error_last());
		return;
	}
	CHECK_INT(rli_memory_count(memory), count);
	memset(&want, 0, sizeof(want));
	for (size_t i = 0; i < count && i < rli_memory_count(memory); i++) {
		rli_memory_row row = mf_get(memory, i);
		const rli_memory_row *w = &expected[i].row;
		/* The generator also ordered the rows itself, ties by capture and file position: so, in order. */
		if (!mf_row_equal(&expected[i], &row)) {
			fprintf(stderr, "jobs %u, row %zu: got %s %.17g %g match %d gap %.17g \"%.40s\"\n"
					"                 want %s %.17g %g match %d gap %.17g \"%.40s\"\n",
				jobs, i, row.name, row.start_time_ms, row.size_kb, (int)row.match, row.match_gap_ms,
				row.call_stack, w->name, w->start_time_ms, w->size_kb, (int)w->match, w->match_gap_ms,
				w->call_stack);
			rli_test_failures++;
			break;
		}
	}
	for (size_t i = 0; i < count; i++) {
		const rli_memory_row *w = &expected[i].row;
		if (w->size_kb > 0) {
			want.allocations++;
			want.matched_inside += w->match == RLI_MEMORY_INSIDE;
			want.matched_after_end += w->match == RLI_MEMORY_AFTER_END;
			want.unmatched += w->match == RLI_MEMORY_UNMATCHED;
		}
	}
	rli_memory_count_matches(&counts, memory);
	CHECK_INT(counts.allocations, want.allocations);
	CHECK_INT(counts.matched_inside, want.matched_inside);
	CHECK_INT(counts.matched_after_end, want.matched_after_end);
	CHECK_INT(counts.unmatched, want.unmatched);
	rli_memory_free(memory);
}

int main(void)
{
	char *root = fx_tempdir();
	char dir[4200], expected_path[4300];
	synth_options options;
	mf_expected *expected;
	size_t count, frees = 0, kept = 0, inside = 0, ended = 0, none = 0;

	memset(&options, 0, sizeof(options));
	options.format = SYNTH_MEMORY;
	options.ranks = 3;
	options.roles = 3; /* the second role shares a folder and names itself in profiler_metadata.json */
	options.steps = 2;
	options.events_per_unit = 700;
	options.seed = 7;
	snprintf(dir, sizeof(dir), "%s/in", root);
	options.output_dir = dir;
	if (synth_run(&options) < 0) {
		fprintf(stderr, "rl-insight-synth: %s\n", synth_error());
		return 1;
	}
	snprintf(expected_path, sizeof(expected_path), "%s/expected_memory.jsonl", dir);
	expected = mf_read_expected(expected_path, &count);
	/* 18 captures of 700 rows, less the frees without a time that the parser skips. */
	CHECK(count > 18 * 690 && count <= 18 * 700);
	for (size_t i = 0; i < count; i++) {
		frees += expected[i].row.size_kb < 0;
		kept += expected[i].row.size_kb > 0 && !expected[i].row.released;
		inside += expected[i].row.match == RLI_MEMORY_INSIDE;
		ended += expected[i].row.match == RLI_MEMORY_AFTER_END;
		none += expected[i].row.match == RLI_MEMORY_UNMATCHED;
	}
	/* The generator makes every case the parser must tell apart. */
	CHECK(frees > 100 && kept > 100 && inside > 1000 && ended > 1000 && none > 100);

	check_tree(dir, 1, expected, count);
	check_tree(dir, 3, expected, count);
	mf_expected_free(expected, count);

	/* --target-bytes sizes the captures so the CSVs add up to about that much. */
	{
		char small[4200];
		snprintf(small, sizeof(small), "%s/sized", root);
		memset(&options, 0, sizeof(options));
		options.format = SYNTH_MEMORY;
		options.ranks = options.roles = options.steps = 1;
		options.target_bytes = 2000000;
		options.seed = 3;
		options.output_dir = small;
		CHECK_INT(synth_run(&options), 0);
		expected = mf_read_expected(fx_text("%s/expected_memory.jsonl", small), &count);
		/* About 200 bytes a row, as Ascend writes them. */
		CHECK(count > 7000 && count < 13000);
		check_tree(small, 1, expected, count);
		mf_expected_free(expected, count);
	}
	/*
	 * What real exports lack (--ascend-quirks): no profiler_info (the rank from the folder's name)
	 * and no trace_view.json (no call stacks): the same rows, without stacks, all unmatched.
	 */
	{
		char quirky[4200];
		size_t stacks = 0;
		snprintf(quirky, sizeof(quirky), "%s/quirks", root);
		memset(&options, 0, sizeof(options));
		options.format = SYNTH_MEMORY;
		options.ranks = 3;
		options.roles = 2;
		options.steps = 2;
		options.events_per_unit = 200;
		options.seed = 5;
		options.ascend_quirks = SYNTH_QUIRK_NO_PROFILER_INFO | SYNTH_QUIRK_NO_TRACE_VIEW;
		options.output_dir = quirky;
		CHECK_INT(synth_run(&options), 0);
		expected = mf_read_expected(fx_text("%s/expected_memory.jsonl", quirky), &count);
		CHECK(count > 12 * 190);
		for (size_t i = 0; i < count; i++)
			stacks += expected[i].row.call_stack[0] != '\0' || expected[i].row.match != RLI_MEMORY_UNMATCHED;
		CHECK_INT(stacks, 0);
		check_tree(quirky, 2, expected, count);
		mf_expected_free(expected, count);
	}
	/* Run pairs (rl-insight-synth --pair): both trees of each parse to their own expected rows. */
	{
		static const synth_pair_kind kinds[] = { SYNTH_PAIR_MEMORY_GROWTH, SYNTH_PAIR_ROLES };
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			synth_pair pair = { .kind = kinds[k] };
			char pair_dir[4200];
			snprintf(pair_dir, sizeof(pair_dir), "%s/pair%zu", root, k);
			memset(&options, 0, sizeof(options));
			options.format = SYNTH_MEMORY;
			options.ranks = 2;
			options.roles = 3;
			options.steps = 2;
			options.events_per_unit = 300;
			options.seed = 11;
			options.output_dir = pair_dir;
			CHECK_INT(synth_run_pair(&options, &pair), 0);
			for (int side = 0; side < 2; side++) {
				const char *tree = fx_text("%s/%s", pair_dir, side ? "current" : "baseline");
				char *tree_dir = strdup(tree);
				expected = mf_read_expected(fx_text("%s/expected_memory.jsonl", tree_dir), &count);
				CHECK(count > 8 * 290);
				check_tree(tree_dir, 2, expected, count);
				mf_expected_free(expected, count);
				free(tree_dir);
			}
		}
	}
	fx_remove(root);
	free(root);
	TEST_DONE();
}

/* test_memory_sample.c: the reference's memory sample parses to exactly the rows in expected/memory_data.parser_output.jsonl (its twin on generated captures: test_memory_synth.c). */
#include "harness.h"
#include "memory_fixture.h"

#include <sys/stat.h>

int main(int argc, char **argv)
{
	const char *samples = argc > 1 ? argv[1] : "../shared/samples";
	char input[4096], expected_path[4096];
	struct stat st;
	mf_expected *expected;
	size_t count;

	snprintf(input, sizeof(input), "%s/memory_data", samples);
	snprintf(expected_path, sizeof(expected_path), "%s/expected/memory_data.parser_output.jsonl", samples);
	if (stat(expected_path, &st) != 0) {
		fprintf(stderr, "skipped: no samples at %s\n", samples);
		return RLI_TEST_SKIP;
	}
	expected = mf_read_expected(expected_path, &count);
	CHECK_INT(count, 49);

	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		rli_memory *memory = NULL;
		rli_memory_match_counts counts;
		char *used = calloc(count, 1);
		int rc = mf_parse(&memory, input, NULL, NULL, jobs, NULL);
		CHECK_INT(rc, RLI_OK);
		if (rc != RLI_OK) {
			fprintf(stderr, "%s\n", rli_error_last());
			free(used);
			break;
		}
		CHECK_INT(rli_memory_count(memory), count);
		for (size_t i = 0; i < rli_memory_count(memory) && i < count; i++) {
			rli_memory_row m = mf_get(memory, i);
			int found = 0;
			/* Rows that start together may come in either order: match them as a set. */
			for (size_t k = 0; k < count && !found; k++) {
				if (used[k] || !mf_row_equal(&expected[k], &m))
					continue;
				used[k] = 1;
				found = 1;
			}
			CHECK(fabs(expected[i].row.start_time_ms - m.start_time_ms) <= 1e-6);
			if (!found) {
				fprintf(stderr, "row %zu not expected: %s %.17g %s\n", i, m.name, m.start_time_ms, m.call_stack);
				rli_test_failures++;
			}
			/* The sample's ops last 50 us and its allocations all come later: the reference's silent case. */
			CHECK_INT(m.match, RLI_MEMORY_AFTER_END);
			CHECK(m.match_gap_ms >= 0.05 - 1e-9);
			/* One block (aten::embedding) is never released: its Duration is empty. */
			CHECK_INT(m.released, strcmp(m.name, "aten::embedding") != 0);
		}
		rli_memory_count_matches(&counts, memory);
		CHECK_INT(counts.allocations, 49);
		CHECK_INT(counts.matched_after_end, 49);
		CHECK_INT(counts.matched_inside + counts.unmatched, 0);
		/* One op per name: a name's later allocations come long after its only call ended. */
		CHECK_NEAR(counts.max_gap_ms, 336.0905, 1e-6);
		rli_memory_free(memory);
		free(used);
	}
	mf_expected_free(expected, count);
	TEST_DONE();
}

/* test_torch_one_read.c: rli_parse_with_memory reads each PyTorch trace once for the bars and the [memory] rows, and gives what the two parses give apart. */
#include "harness.h"
#include "memory_fixture.h"
#include "synth/synth.h"

#include <stdlib.h>
#include <string.h>

/* Two tables hold the same rows in the same order, field by field. */
static void check_same_memory(const rli_memory *a, const rli_memory *b)
{
	size_t n = rli_memory_count(a);
	CHECK_INT(rli_memory_count(b), n);
	for (size_t i = 0; i < n && i < rli_memory_count(b); i++) {
		rli_memory_row x = mf_get(a, i), y = mf_get(b, i);
		if (strcmp(x.name, y.name) || strcmp(x.role, y.role) || x.rank_id != y.rank_id ||
		    strcmp(x.call_stack, y.call_stack) || strcmp(x.device_type, y.device_type) ||
		    x.size_kb != y.size_kb || x.start_time_ms != y.start_time_ms || x.duration_ms != y.duration_ms ||
		    x.released != y.released || x.match != y.match || x.total_reserved_mb != y.total_reserved_mb) {
			fprintf(stderr, "row %zu differs: %s %s %g at %.17g against %s %s %g at %.17g\n", i, x.name,
				x.device_type, x.size_kb, x.start_time_ms, y.name, y.device_type, y.size_kb, y.start_time_ms);
			rli_test_failures++;
			return;
		}
	}
}

static void check_same_events(const rli_events *a, const rli_events *b)
{
	size_t n = rli_events_count(a);
	CHECK_INT(rli_events_count(b), n);
	for (size_t i = 0; i < n && i < rli_events_count(b); i++) {
		rli_event x, y;
		rli_events_get(&x, a, i);
		rli_events_get(&y, b, i);
		if (strcmp(x.name, y.name) || x.rank_id != y.rank_id || x.start_ms != y.start_ms || x.end_ms != y.end_ms) {
			fprintf(stderr, "bar %zu differs\n", i);
			rli_test_failures++;
			return;
		}
	}
}

int main(void)
{
	char *root = fx_tempdir();
	char dir[4200];
	synth_options synth;
	rli_parse_options options = {0};
	rli_torch_memory_options memory_options;
	rli_events *events = NULL, *alone = NULL;
	rli_memory *memory = NULL, *apart = NULL, *none = NULL;
	rli_profiler detected = RLI_PROFILER_AUTO;
	uint64_t files_before, files_after, bytes_before, bytes_after, bytes_alone, one_read;

	memset(&synth, 0, sizeof(synth));
	synth.format = SYNTH_TORCH;
	synth.ranks = 2;
	synth.roles = 3;
	synth.steps = 2;
	synth.events_per_unit = 40;
	synth.memory_events = 300;
	synth.seed = 9;
	snprintf(dir, sizeof(dir), "%s/in", root);
	synth.output_dir = dir;
	if (synth_run(&synth) < 0) {
		fprintf(stderr, "rl-insight-synth: %s\n", synth_error());
		return 1;
	}

	/* One read: each trace opened once, for a bar each and the memory rows. */
	rli_torch_memory_options_init(&memory_options);
	options.jobs = 2;
	rli_input_totals(&files_before, &bytes_before);
	CHECK_INT(rli_parse_with_memory(&events, &memory, &detected, dir, &options, &memory_options), RLI_OK);
	rli_input_totals(&files_after, &bytes_after);
	CHECK_INT(detected, RLI_PROFILER_TORCH);
	CHECK(events && rli_events_count(events) == 12); /* 2 ranks x 3 roles x 2 steps, a bar per trace */
	CHECK_INT(files_after - files_before, events ? rli_events_count(events) : 0);
	CHECK(memory && rli_memory_count(memory) > 12 * 100);

	/* The same bars as the timeline parse alone, which reads as many bytes: both read each trace once, whole. */
	one_read = bytes_after - bytes_before;
	CHECK(one_read > 0);
	rli_input_totals(NULL, &bytes_before);
	CHECK_INT(rli_parse(&alone, NULL, dir, &options), RLI_OK);
	rli_input_totals(NULL, &bytes_alone);
	CHECK_INT(bytes_alone - bytes_before, one_read);
	if (events && alone)
		check_same_events(events, alone);

	/* The same rows as the memory parse alone (rows in start order, ties in trace order). */
	memory_options.common.jobs = 1;
	CHECK_INT(rli_torch_memory_parse(&apart, dir, &memory_options), RLI_OK);
	if (memory && apart)
		check_same_memory(memory, apart);
	rli_memory_free(apart);
	apart = NULL;

	/* The filters: rank 1 of one role keeps that role's traces of rank 1 only, in both tables. */
	options.rank_list = "1";
	memory_options.common.role_list = "actor_update";
	rli_events_free(events);
	rli_memory_free(memory);
	events = NULL;
	memory = NULL;
	CHECK_INT(rli_parse_with_memory(&events, &memory, NULL, dir, &options, &memory_options), RLI_OK);
	memory_options.common.rank_list = "1";
	CHECK_INT(rli_torch_memory_parse(&apart, dir, &memory_options), RLI_OK);
	CHECK(memory && apart);
	if (memory && apart) {
		check_same_memory(memory, apart);
		for (size_t i = 0; i < rli_memory_count(memory); i++)
			if (mf_get(memory, i).rank_id != 1 || strcmp(mf_get(memory, i).role, "actor_update") != 0) {
				rli_test_failures++;
				break;
			}
	}

	/* No device asked for: no table, and the bars as ever. */
	memory_options.devices = 0;
	memory_options.common.role_list = NULL;
	options.rank_list = NULL;
	rli_events_free(events);
	events = NULL;
	CHECK_INT(rli_parse_with_memory(&events, &none, NULL, dir, &options, &memory_options), RLI_OK);
	CHECK(none == NULL);
	CHECK(events && rli_events_count(events) == 12);

	rli_events_free(events);
	rli_events_free(alone);
	rli_memory_free(memory);
	rli_memory_free(apart);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

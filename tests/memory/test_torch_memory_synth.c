/* test_torch_memory_synth.c: rl-insight-synth's torch traces with [memory] events parse to exactly the rows the generator worked out. */
#include "harness.h"
#include "memory_fixture.h"
#include "synth/synth.h"

#include <stdlib.h>
#include <string.h>

/* A total order on rows: across units of other roles or ranks two rows may share a start. */
static int compare_rows(const rli_memory_row *x, const rli_memory_row *y)
{
	int c;
	if (x->start_time_ms != y->start_time_ms)
		return x->start_time_ms < y->start_time_ms ? -1 : 1;
	if ((c = strcmp(x->role, y->role)) != 0)
		return c;
	if (x->rank_id != y->rank_id)
		return x->rank_id < y->rank_id ? -1 : 1;
	if ((c = strcmp(x->device_type, y->device_type)) != 0)
		return c;
	return x->size_kb < y->size_kb ? -1 : x->size_kb > y->size_kb;
}

static int compare_expected(const void *a, const void *b)
{
	return compare_rows(&((const mf_expected *)a)->row, &((const mf_expected *)b)->row);
}

static int compare_got(const void *a, const void *b)
{
	return compare_rows(a, b);
}

static rli_memory *parse(const char *dir, unsigned devices, unsigned jobs)
{
	rli_torch_memory_options options;
	rli_memory *memory = NULL;
	int rc;
	rli_torch_memory_options_init(&options);
	CHECK_INT(options.devices, RLI_MEMORY_DEVICE_CUDA); /* CUDA only unless asked */
	options.devices = devices;
	options.common.jobs = jobs;
	rc = rli_torch_memory_parse(&memory, dir, &options);
	CHECK_INT(rc, RLI_OK);
	if (rc != RLI_OK)
		fprintf(stderr, "%s\n", rli_error_last());
	return memory;
}

static void check_rows(const char *dir, unsigned jobs, const mf_expected *expected, size_t count)
{
	rli_memory *memory = parse(dir, RLI_MEMORY_DEVICE_CUDA, jobs);
	rli_memory_row *got;
	size_t n = memory ? rli_memory_count(memory) : 0;
	CHECK_INT(n, count);
	got = calloc(n + 1, sizeof(*got));
	for (size_t i = 0; i < n; i++)
		got[i] = mf_get(memory, i);
	/* The table is in start order. */
	for (size_t i = 1; i < n; i++)
		CHECK(got[i - 1].start_time_ms <= got[i].start_time_ms);
	qsort(got, n, sizeof(*got), compare_got);
	for (size_t i = 0; i < count && i < n; i++) {
		if (!mf_row_equal(&expected[i], &got[i])) {
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
	char dir[4200];
	synth_options options;
	mf_expected *expected;
	size_t count, frees = 0, kept = 0, released = 0, other_device = 0, cpu = 0;
	rli_memory *all;

	memset(&options, 0, sizeof(options));
	options.format = SYNTH_TORCH;
	options.ranks = 2;
	options.roles = 3;
	options.steps = 2;
	options.events_per_unit = 50;
	options.memory_events = 400;
	options.seed = 5;
	snprintf(dir, sizeof(dir), "%s/in", root);
	options.output_dir = dir;
	if (synth_run(&options) < 0) {
		fprintf(stderr, "rl-insight-synth: %s\n", synth_error());
		return 1;
	}
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
	qsort(expected, count, sizeof(*expected), compare_expected);
	check_rows(dir, 1, expected, count);
	check_rows(dir, 3, expected, count);

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
	fx_remove(root);
	free(root);
	TEST_DONE();
}

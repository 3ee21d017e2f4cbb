/* torch_fixture.c: the generator's torch traces with [memory] events, parsed, and both row sets in one order, for the torch memory tests. */
#include "torch_fixture.h"
#include "synth/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tf_generate(const char *root, const char *name, const tf_set *set)
{
	synth_options options;
	char *dir = strdup(fx_path(root, name));
	if (!dir)
		abort();
	memset(&options, 0, sizeof(options));
	options.format = SYNTH_TORCH;
	options.ranks = 2;
	options.roles = 3;
	options.steps = set->steps;
	options.events_per_unit = 50;
	options.memory_events = set->memory_events;
	options.memory_ops = set->ops;
	options.memory_shuffle = set->shuffle;
	options.seed = set->seed;
	options.output_dir = dir;
	if (synth_run(&options) < 0) {
		fprintf(stderr, "rl-insight-synth: %s\n", synth_error());
		exit(1);
	}
	return dir;
}

rli_memory *tf_parse(const char *dir, unsigned devices, unsigned jobs)
{
	rli_torch_memory_options options;
	rli_memory *memory = NULL;
	int rc;
	rli_torch_memory_options_init(&options);
	options.devices = devices;
	options.common.jobs = jobs;
	rc = rli_torch_memory_parse(&memory, dir, &options);
	if (rc != RLI_OK) {
		fprintf(stderr, "%s: %s\n", dir, rli_error_last());
		rli_memory_free(memory);
		return NULL;
	}
	return memory;
}

int tf_compare_rows(const rli_memory_row *x, const rli_memory_row *y)
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
	return tf_compare_rows(&((const mf_expected *)a)->row, &((const mf_expected *)b)->row);
}

static int compare_got(const void *a, const void *b)
{
	return tf_compare_rows(a, b);
}

void tf_sort_expected(mf_expected *rows, size_t count)
{
	qsort(rows, count, sizeof(*rows), compare_expected);
}

rli_memory_row *tf_sorted_rows(const rli_memory *memory, size_t *count, int *in_start_order)
{
	size_t n = memory ? rli_memory_count(memory) : 0;
	rli_memory_row *rows = calloc(n + 1, sizeof(*rows));
	if (!rows)
		abort();
	for (size_t i = 0; i < n; i++)
		rows[i] = mf_get(memory, i);
	*in_start_order = 1;
	for (size_t i = 1; i < n; i++)
		*in_start_order &= rows[i - 1].start_time_ms <= rows[i].start_time_ms;
	qsort(rows, n, sizeof(*rows), compare_got);
	*count = n;
	return rows;
}

void tf_run_open(tf_run *run, const char *root, const char *name, const tf_set *set, unsigned jobs)
{
	run->dir = tf_generate(root, name, set);
	run->expected = mf_read_expected(fx_text("%s/expected_memory.jsonl", run->dir), &run->count);
	tf_sort_expected(run->expected, run->count);
	run->memory = tf_parse(run->dir, RLI_MEMORY_DEVICE_CUDA, jobs);
	run->got = tf_sorted_rows(run->memory, &run->got_count, &run->in_start_order);
}

void tf_run_close(tf_run *run)
{
	free(run->got);
	rli_memory_free(run->memory);
	mf_expected_free(run->expected, run->count);
	free(run->dir);
	memset(run, 0, sizeof(*run));
}

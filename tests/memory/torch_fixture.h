/* torch_fixture.h: the generator's torch traces with [memory] events, parsed, and both row sets in one order, for the torch memory tests. */
#ifndef RLI_TEST_TORCH_FIXTURE_H
#define RLI_TEST_TORCH_FIXTURE_H

#include "memory_fixture.h"

#include <stddef.h>

/* What a generated tree is made with beyond the common options (ranks 2, roles 3, 50 timeline events). */
typedef struct {
	int steps;
	long long memory_events;
	int ops;     /* --memory-ops */
	int shuffle; /* --memory-shuffle */
	unsigned long long seed;
} tf_set;

/* Writes the tree into root/name (exits on failure); returns that folder, newly allocated. */
char *tf_generate(const char *root, const char *name, const tf_set *set);
/* rli_torch_memory_parse of dir with these devices and jobs; NULL (the error printed) when it failed. */
rli_memory *tf_parse(const char *dir, unsigned devices, unsigned jobs);

/* A total order on rows (start, role, rank, device, size): rows of other units may share a start. */
int tf_compare_rows(const rli_memory_row *x, const rli_memory_row *y);
void tf_sort_expected(mf_expected *rows, size_t count);
/*
 * Every row of the table (none for NULL), in tf_compare_rows order. Newly allocated (free it);
 * *count set, *in_start_order whether the table had them in start order.
 */
rli_memory_row *tf_sorted_rows(const rli_memory *memory, size_t *count, int *in_start_order);

/* A generated tree with its expected rows and the parser's, both in tf_compare_rows order. */
typedef struct {
	char *dir;
	mf_expected *expected;
	size_t count;
	rli_memory *memory; /* NULL when the parse failed */
	rli_memory_row *got;
	size_t got_count;
	int in_start_order; /* the table had its rows in start order */
} tf_run;

/* Generates root/name, reads its expected_memory.jsonl, parses it (CUDA, jobs), sorts both. */
void tf_run_open(tf_run *run, const char *root, const char *name, const tf_set *set, unsigned jobs);
void tf_run_close(tf_run *run);

#endif

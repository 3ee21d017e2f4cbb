/* test_sort.c: the stable sort of row indices against a plain stable sort, on the shapes the tables hand it. */
#include "common/bigmem.h"
#include "common/sort.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 0x9E3779B97F4A7C15ull;

static uint64_t next_random(void)
{
	return rli_test_random(&state);
}

/* The expected order: rows 0..n-1 by key, equal keys (as < sees them) in row order, by insertion into runs. */
static const double *reference_key;

static int by_key_then_row(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (reference_key[x] < reference_key[y])
		return -1;
	if (reference_key[y] < reference_key[x])
		return 1;
	return (x > y) - (x < y);
}

static int sorts_as_reference(const char *shape, const double *key, size_t n)
{
	size_t *expected = malloc((n ? n : 1) * sizeof(*expected)), *got = rli_sorted_rows(key, n);
	int same;
	for (size_t i = 0; i < n; i++)
		expected[i] = i;
	reference_key = key;
	qsort(expected, n, sizeof(*expected), by_key_then_row);
	same = got && memcmp(got, expected, n * sizeof(*got)) == 0;
	if (!same)
		fprintf(stderr, "%s: %zu keys not in stable key order\n", shape, n);
	free(expected);
	rli_bigmem_free(got);
	return same;
}

int main(void)
{
	const size_t n = 300000;
	double *key = malloc(n * sizeof(*key));

	/* Shuffled times with fractions, as the ends of a million allocations are: the radix sort's case. */
	for (size_t i = 0; i < n; i++)
		key[i] = (double)(next_random() % 16000000) / 1000.0;
	CHECK(sorts_as_reference("shuffled", key, n));
	/* Many ties among few values: stability decides the whole order. */
	for (size_t i = 0; i < n; i++)
		key[i] = (double)(next_random() % 7);
	CHECK(sorts_as_reference("ties", key, n));
	/* Negative and positive, zero of both signs (equal to <), subnormals and infinities. */
	for (size_t i = 0; i < n; i++) {
		static const double special[] = {0.0, -0.0, -1e-310, 1e-310, -INFINITY, INFINITY, -2.5, 2.5, -1e300};
		key[i] = i % 3 ? special[next_random() % (sizeof(special) / sizeof(special[0]))]
			       : ((double)(int64_t)(next_random() % 2000001) - 1000000.0) / 7.0;
	}
	CHECK(sorts_as_reference("signs", key, n));
	/* Nearly in order: insertion sort alone. */
	for (size_t i = 0; i < n; i++)
		key[i] = (double)i + (i % 1000 == 0 ? -3.5 : 0);
	CHECK(sorts_as_reference("nearly sorted", key, n));
	/* Reversed, and sorted units one after another (the merges' best case, sorted all the same). */
	for (size_t i = 0; i < n; i++)
		key[i] = (double)(n - i);
	CHECK(sorts_as_reference("reversed", key, n));
	for (size_t i = 0; i < n; i++)
		key[i] = (double)(i % 1000) * 0.5 + (double)(i / 1000 % 3);
	CHECK(sorts_as_reference("runs", key, n));
	/* Eight sorted units one after another, overlapping in time: the merges' case. */
	for (size_t i = 0; i < n; i++)
		key[i] = (double)(i % (n / 8)) * 0.25 + (double)(i / (n / 8)) * 0.1;
	CHECK(sorts_as_reference("few runs", key, n));
	/* Every key the same but their bits: one digit differs, the other passes are skipped. */
	for (size_t i = 0; i < n; i++)
		key[i] = 1.0 + (double)(next_random() % 1024) * 0x1p-52;
	CHECK(sorts_as_reference("one digit", key, n));
	/* Small counts, including none and one. */
	for (size_t m = 0; m < 40; m++) {
		for (size_t i = 0; i < m; i++)
			key[i] = (double)(next_random() % 5);
		CHECK(sorts_as_reference("small", key, m));
	}
	/* A NaN orders nothing: the rows still come back, each once. */
	for (size_t i = 0; i < n; i++)
		key[i] = i % 100 == 0 ? NAN : (double)(next_random() % 1000);
	{
		size_t *got = rli_sorted_rows(key, n);
		unsigned char *seen = calloc(n, 1);
		size_t once = 0;
		CHECK(got != NULL);
		for (size_t i = 0; got && i < n; i++)
			once += got[i] < n && !seen[got[i]]++;
		CHECK(once == n);
		free(seen);
		rli_bigmem_free(got);
	}
	free(key);
	return rli_test_failures ? 1 : 0;
}

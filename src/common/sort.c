/* sort.c: the stable sorts of row indices (by a double column, and the tie rule's) that the columnar tables share. */
#include "sort.h"
#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Where the ascending run of rows that starts at lo ends. */
static size_t run_end(const size_t *order, const double *key, size_t lo, size_t n)
{
	size_t i = lo + 1;
	while (i < n && !(key[order[i]] < key[order[i - 1]]))
		i++;
	return i;
}

/* Merge sort of order by key, of the ascending runs already there; returns whichever of order and tmp holds the result. */
static size_t *merge_runs(size_t *order, size_t *tmp, const double *key, size_t n)
{
	for (;;) {
		size_t lo = 0, merges = 0, *swap;
		while (lo < n) {
			size_t mid = run_end(order, key, lo, n);
			size_t hi = mid < n ? run_end(order, key, mid, n) : n;
			size_t a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = key[order[b]] < key[order[a]] ? order[b++] : order[a++];
			while (a < mid)
				tmp[k++] = order[a++];
			while (b < hi)
				tmp[k++] = order[b++];
			lo = hi;
			merges++;
		}
		swap = order;
		order = tmp;
		tmp = swap;
		if (merges <= 1)
			return order;
	}
}

#define MERGE_MAX_RUNS 64
#define DIGIT_BITS 11
#define DIGITS ((64 + DIGIT_BITS - 1) / DIGIT_BITS)
#define BUCKETS ((size_t)1 << DIGIT_BITS)

/*
 * A double's bits as an unsigned number in the same order: negatives have every bit flipped,
 * the others their sign bit set. -0 is taken as 0, since the two compare equal.
 */
static uint64_t ordered_bits(double v)
{
	uint64_t bits;
	if (v == 0)
		v = 0;
	memcpy(&bits, &v, sizeof(bits));
	return bits >> 63 ? ~bits : bits | (uint64_t)1 << 63;
}

/*
 * Least-significant-digit radix sort of order by key: stable, a pass per 11-bit digit that the
 * keys do not all share. The merges above read a key through its row index, a cache miss each
 * time, some twenty times a row on a million shuffled rows; here each pass streams the keys
 * with their rows. Returns whichever of order and tmp holds the result, or NULL when the keys
 * include a NaN (which orders nothing) or the scratch cannot be had: the merges then sort.
 */
static size_t *radix_order(size_t *order, size_t *tmp, const double *key, size_t n)
{
	uint64_t *scratch = rli_bigmem_array(n, 2 * sizeof(*scratch)), *bits = scratch, *other;
	size_t(*count)[BUCKETS] = calloc(DIGITS, sizeof(*count));
	size_t *result = NULL;

	if (!scratch || !count)
		goto done;
	other = scratch + n;
	for (size_t i = 0; i < n; i++) {
		double v = key[order[i]];
		uint64_t b;
		if (v != v)
			goto done;
		b = ordered_bits(v);
		bits[i] = b;
		for (int d = 0; d < DIGITS; d++)
			count[d][(b >> (d * DIGIT_BITS)) & (BUCKETS - 1)]++;
	}
	for (int d = 0; d < DIGITS; d++) {
		const int shift = d * DIGIT_BITS;
		size_t at = 0, *swap_rows;
		uint64_t *swap_bits;
		if (count[d][(bits[0] >> shift) & (BUCKETS - 1)] == n)
			continue; /* every key has this digit: the pass would move nothing */
		for (size_t b = 0; b < BUCKETS; b++) {
			size_t c = count[d][b];
			count[d][b] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++) {
			size_t to = count[d][(bits[i] >> shift) & (BUCKETS - 1)]++;
			other[to] = bits[i];
			tmp[to] = order[i];
		}
		swap_bits = bits;
		bits = other;
		other = swap_bits;
		swap_rows = order;
		order = tmp;
		tmp = swap_rows;
	}
	result = order;
done:
	rli_bigmem_free(scratch);
	free(count);
	return result;
}

/*
 * Stable sort of row indices by key, O(n log n) at worst. Rows out of place only here and there
 * (a profiler's file is nearly in time order) take one pass of insertion sort; a few sorted
 * runs (a table of sorted units) merges of the runs already there; shuffled rows a radix sort;
 * and where that cannot (a NaN among the keys, no memory for its scratch keys), merges again.
 */
size_t *rli_stable_order(size_t *order, size_t *tmp, const double *key, size_t n)
{
	/*
	 * Insertion sort gives up after about n moves, leaving a permutation that is still stable,
	 * which the sorts below finish.
	 */
	size_t moves = 0, runs = 1, *sorted;
	for (size_t i = 1; i < n && moves <= n; i++) {
		size_t item = order[i], j = i;
		while (j > 0 && key[item] < key[order[j - 1]] && moves++ <= n) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = item;
	}
	if (moves <= n)
		return order;
	/*
	 * A few ascending runs (sorted units one after another) merge in a pass each per doubling,
	 * reading the keys nearly in order: 64 runs take six passes, about what the radix sort costs.
	 */
	for (size_t i = 1; i < n && runs <= MERGE_MAX_RUNS; i++)
		runs += key[order[i]] < key[order[i - 1]];
	if (runs > MERGE_MAX_RUNS && (sorted = radix_order(order, tmp, key, n)))
		return sorted;
	return merge_runs(order, tmp, key, n);
}

size_t *rli_sorted_rows(const double *key, size_t n)
{
	size_t *order = rli_bigmem_array(n, sizeof(*order)), *tmp = rli_bigmem_array(n, sizeof(*tmp)), *sorted;
	if (!order || !tmp) {
		rli_bigmem_free(order);
		rli_bigmem_free(tmp);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sorted = rli_stable_order(order, tmp, key, n);
	rli_bigmem_free(sorted == order ? tmp : order);
	return sorted;
}

/* Stable merge sort of order[0..n) by before, bottom-up; returns whichever of order and tmp holds the result. */
static size_t *stable_sort_by(size_t *order, size_t *tmp, size_t n, rli_row_before_fn before, const void *table)
{
	for (size_t width = 1; width < n; width *= 2) {
		size_t *swap;
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = before(table, order[b], order[a]) ? order[b++] : order[a++];
			while (a < mid)
				tmp[k++] = order[a++];
			while (b < hi)
				tmp[k++] = order[b++];
		}
		swap = order;
		order = tmp;
		tmp = swap;
	}
	return order;
}

int rli_order_ties(const double *key, size_t n, rli_row_before_fn before, rli_rows_place_fn place, void *table)
{
	size_t *order = NULL, *tmp = NULL, capacity = 0;
	void *scratch = NULL;
	int result = 0;

	for (size_t lo = 0, hi; lo < n; lo = hi) {
		size_t run, *sorted;
		int ordered = 1;
		for (hi = lo + 1; hi < n && key[hi] == key[lo]; hi++)
			ordered = ordered && !before(table, hi, hi - 1);
		if (ordered)
			continue;
		run = hi - lo;
		if (run > capacity) {
			free(order);
			free(tmp);
			free(scratch);
			order = malloc(run * sizeof(*order));
			tmp = malloc(run * sizeof(*tmp));
			scratch = malloc(run * 8);
			capacity = run;
			if (!order || !tmp || !scratch) {
				result = -1;
				break;
			}
		}
		for (size_t k = 0; k < run; k++)
			order[k] = lo + k;
		sorted = stable_sort_by(order, tmp, run, before, table);
		place(table, lo, sorted, run, scratch);
	}
	free(order);
	free(tmp);
	free(scratch);
	return result;
}

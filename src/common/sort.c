/* sort.c: the stable sort of row indices by a double column that the columnar tables share. */
#include "sort.h"

#include <stdlib.h>

/* Where the ascending run of rows that starts at lo ends. */
static size_t run_end(const size_t *order, const double *key, size_t lo, size_t n)
{
	size_t i = lo + 1;
	while (i < n && !(key[order[i]] < key[order[i - 1]]))
		i++;
	return i;
}

/*
 * Merge sort of row indices by key: stable, O(n log n), no recursion. It merges the ascending
 * runs already there (each parsed unit is mostly one), so a table of a few hundred sorted units
 * takes a few passes, not log2(rows). Returns whichever of order and tmp holds the result.
 */
size_t *rli_stable_order(size_t *order, size_t *tmp, const double *key, size_t n)
{
	/*
	 * Rows out of place only here and there (a profiler's file is nearly in time order):
	 * insertion sort finishes in one pass. It gives up after about n moves, leaving a
	 * permutation that is still stable, which the merges below finish.
	 */
	size_t moves = 0;
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

size_t *rli_sorted_rows(const double *key, size_t n)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order)), *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *sorted;
	if (!order || !tmp) {
		free(order);
		free(tmp);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sorted = rli_stable_order(order, tmp, key, n);
	free(sorted == order ? tmp : order);
	return sorted;
}

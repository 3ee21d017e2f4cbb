/* sort.h: the stable sorts of row indices (by a double column, and the tie rule's) that the columnar tables share. */
#ifndef RLI_COMMON_SORT_H
#define RLI_COMMON_SORT_H

#include <stddef.h>
#include <string.h>

/*
 * Sorts the row indices in order (n of them) by key[index], stably, using tmp (n entries) as
 * scratch. Returns whichever of order and tmp holds the result.
 */
size_t *rli_stable_order(size_t *order, size_t *tmp, const double *key, size_t n);

/* The same for rows 0..n-1, in a new array from rli_bigmem_array (free it with rli_bigmem_free); NULL when out of memory. */
size_t *rli_sorted_rows(const double *key, size_t n);

/*
 * Puts n items of `size` bytes in the stable order of key[i], the key the caller worked out for
 * item i, with order and tmp (n each) and copy (n items) as scratch. Inline, so that each caller's
 * item size is a constant and the copies are moves rather than calls.
 */
static inline void rli_stable_sort_items(void *items, size_t n, size_t size, const double *key, size_t *order,
					 size_t *tmp, void *copy)
{
	const size_t *sorted;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sorted = rli_stable_order(order, tmp, key, n);
	for (size_t i = 0; i < n; i++)
		memcpy((char *)copy + i * size, (const char *)items + sorted[i] * size, size);
	memcpy(items, copy, n * size);
}

/* Whether row a goes before row b under a table's tie rule. */
typedef int (*rli_row_before_fn)(const void *table, size_t a, size_t b);
/* Puts rows lo..lo+n-1 in the order given: order[k] is the row that goes to lo + k. */
typedef void (*rli_rows_place_fn)(void *table, size_t lo, const size_t *order, size_t n, void *scratch);

/*
 * The tie rule of a table already sorted by key (its n rows): each run of rows with equal keys
 * is sorted by before, stably, and placed with place (scratch: 8 bytes a row of the longest run).
 * Runs already in order, nearly all of them, cost one comparison a row. 0, or -1 when out of memory.
 */
int rli_order_ties(const double *key, size_t n, rli_row_before_fn before, rli_rows_place_fn place, void *table);

#endif

/* sort.h: the stable sort of row indices by a double column that the columnar tables share. */
#ifndef RLI_COMMON_SORT_H
#define RLI_COMMON_SORT_H

#include <stddef.h>

/*
 * Sorts the row indices in order (n of them) by key[index], stably, using tmp (n entries) as
 * scratch. Returns whichever of order and tmp holds the result.
 */
size_t *rli_stable_order(size_t *order, size_t *tmp, const double *key, size_t n);

/* The same for rows 0..n-1, in a newly allocated array (free it); NULL when out of memory. */
size_t *rli_sorted_rows(const double *key, size_t n);

#endif

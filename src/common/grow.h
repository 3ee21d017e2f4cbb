/* grow.h: growing an array by doubling, with the size arithmetic checked for overflow. */
#ifndef RLI_COMMON_GROW_H
#define RLI_COMMON_GROW_H

#include <stddef.h>

/*
 * Makes *items (of *capacity elements of item_size bytes) hold at least
 * `needed` elements: doubling from `first`, so n appends cost O(n).
 * RLI_OK, or RLI_ERROR ("out of memory") with *items and *capacity unchanged
 * when the allocation fails or the byte count would overflow.
 */
int rli_grow(void **items, size_t *capacity, size_t needed, size_t item_size, size_t first);

/* For a typed pointer: RLI_GROW(&array, &capacity, count + 1, 16). */
#define RLI_GROW(items, capacity, needed, first) \
	rli_grow((void **)(items), (capacity), (needed), sizeof(**(items)), (first))

/*
 * The same for arrays that grow to millions of items: kept in 2 MiB pages that grow in place
 * (common/bigmem.h) rather than being copied. Free them with rli_bigmem_free.
 */
int rli_grow_big(void **items, size_t *capacity, size_t needed, size_t item_size, size_t first);
#define RLI_GROW_BIG(items, capacity, needed, first) \
	rli_grow_big((void **)(items), (capacity), (needed), sizeof(**(items)), (first))

#endif

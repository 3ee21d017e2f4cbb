/* grow.c: growing an array by doubling, with the size arithmetic checked for overflow. */
#include "grow.h"
#include "error.h"

#include <stdint.h>
#include <stdlib.h>

int rli_grow(void **items, size_t *capacity, size_t needed, size_t item_size, size_t first)
{
	size_t grown = *capacity ? *capacity : (first ? first : 1);
	void *moved;

	if (needed <= *capacity)
		return RLI_OK;
	while (grown < needed) {
		if (grown > SIZE_MAX / 2)
			return rli_error_oom();
		grown *= 2;
	}
	if (item_size && grown > SIZE_MAX / item_size)
		return rli_error_oom();
	if (!(moved = realloc(*items, grown * item_size)))
		return rli_error_oom();
	*items = moved;
	*capacity = grown;
	return RLI_OK;
}

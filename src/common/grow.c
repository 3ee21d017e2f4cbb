/* grow.c: growing an array by doubling, with the size arithmetic checked for overflow. */
#include "grow.h"
#include "bigmem.h"
#include "error.h"
#include "prefault.h"

#include <stdint.h>
#include <stdlib.h>

/* The doubled capacity that holds needed items, in *grown; RLI_ERROR when it or its bytes overflow. */
static int doubled(size_t *grown, size_t capacity, size_t needed, size_t item_size, size_t first)
{
	*grown = capacity ? capacity : (first ? first : 1);
	while (*grown < needed) {
		if (*grown > SIZE_MAX / 2)
			return rli_error_oom();
		*grown *= 2;
	}
	if (item_size && *grown > SIZE_MAX / item_size)
		return rli_error_oom();
	return RLI_OK;
}

int rli_grow(void **items, size_t *capacity, size_t needed, size_t item_size, size_t first)
{
	size_t grown;
	void *moved;

	if (needed <= *capacity)
		return RLI_OK;
	if (doubled(&grown, *capacity, needed, item_size, first) < 0)
		return RLI_ERROR;
	if (!(moved = realloc(*items, grown * item_size)))
		return rli_error_oom();
	*items = moved;
	*capacity = grown;
	return RLI_OK;
}

int rli_grow_big(void **items, size_t *capacity, size_t needed, size_t item_size, size_t first)
{
	size_t grown;
	void *moved;

	if (needed > *capacity) {
		if (doubled(&grown, *capacity, needed, item_size, first) < 0)
			return RLI_ERROR;
		if (!(moved = rli_bigmem_resize(*items, item_size ? grown * item_size : 1)))
			return rli_error_oom();
		*items = moved;
		*capacity = grown;
	}
	/* Its callers append: the pages past the last item are the next to be written. */
	if (needed)
		rli_prefault_ahead(*items, (needed - 1) * item_size, needed * item_size, *capacity * item_size);
	return RLI_OK;
}

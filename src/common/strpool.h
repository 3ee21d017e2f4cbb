/* strpool.h: string interning, so millions of rows share a few distinct names. */
#ifndef RLI_COMMON_STRPOOL_H
#define RLI_COMMON_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

#define RLI_STRPOOL_NONE UINT32_MAX

typedef struct {
	char **strings;    /* id -> NUL-terminated copy */
	uint32_t *lengths; /* id -> length, so embedded NULs never confuse lookups */
	uint32_t count, capacity;
	uint32_t *slots;   /* open-addressing hash table of id + 1, 0 = empty */
	uint32_t slot_count;
} rli_strpool;

void rli_strpool_init(rli_strpool *pool);
void rli_strpool_dispose(rli_strpool *pool);
/* The id of the text, adding it if new; RLI_STRPOOL_NONE when out of memory. */
uint32_t rli_strpool_intern(rli_strpool *pool, const char *text, size_t length);
/* The id of the text if the pool holds it, else RLI_STRPOOL_NONE (nothing is added). */
uint32_t rli_strpool_find(const rli_strpool *pool, const char *text, size_t length);
const char *rli_strpool_get(const rli_strpool *pool, uint32_t id);
/*
 * Sorts count ids of the pool by their text (texts equal up to an embedded NUL by id): the order
 * names are listed, numbered and coloured in. RLI_OK, or RLI_ERROR when out of memory.
 */
int rli_strpool_sort_ids(const rli_strpool *pool, uint32_t *ids, size_t count);
size_t rli_strpool_length(const rli_strpool *pool, uint32_t id);
/*
 * Interns every string of src in dst, in src's id order (the order appending src's rows gives
 * them): a new array, by src's id, of dst's ids (free it), or NULL, out of memory, the error set.
 * What a table merged into another maps its rows' strings through.
 */
uint32_t *rli_strpool_intern_all(rli_strpool *dst, const rli_strpool *src);

#endif

/* strpool.c: string interning with an open-addressing hash table. */
#include "strpool.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

/*
 * Eight bytes a step in four independent lanes: call stacks of hundreds of bytes are interned once
 * per trace event, and a byte-at-a-time hash (FNV-1a) was the memory parser's largest cost.
 */
static uint32_t hash_text(const char *text, size_t length)
{
	const uint64_t k1 = UINT64_C(0xff51afd7ed558ccd), k2 = UINT64_C(0xc4ceb9fe1a85ec53);
	uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)length, lane[4] = {h, h + k1, h + k2, h - k1}, word;
	size_t i = 0;
	for (; i + 32 <= length; i += 32) {
		for (int l = 0; l < 4; l++) {
			memcpy(&word, text + i + 8 * l, 8);
			lane[l] = (lane[l] ^ word) * k1;
			lane[l] ^= lane[l] >> 32;
		}
	}
	if (i)
		h = (lane[0] ^ (lane[1] * k2)) + (lane[2] ^ (lane[3] * k1));
	for (; i + 8 <= length; i += 8) {
		memcpy(&word, text + i, 8);
		h = (h ^ word) * k1;
		h ^= h >> 32;
	}
	word = 0;
	memcpy(&word, text + i, length - i);
	h = (h ^ word) * k2;
	h ^= h >> 29;
	return (uint32_t)h;
}

void rli_strpool_init(rli_strpool *pool)
{
	memset(pool, 0, sizeof(*pool));
}

void rli_strpool_dispose(rli_strpool *pool)
{
	for (uint32_t i = 0; i < pool->count; i++)
		free(pool->strings[i]);
	free(pool->strings);
	free(pool->lengths);
	free(pool->slots);
	memset(pool, 0, sizeof(*pool));
}

static uint32_t *find_slot(uint32_t *slots, uint32_t slot_count, const rli_strpool *pool,
			   const char *text, size_t length, uint32_t hash)
{
	uint32_t mask = slot_count - 1;
	for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
		uint32_t id1 = slots[i];
		if (id1 == 0)
			return &slots[i];
		if (text && pool->lengths[id1 - 1] == length &&
		    memcmp(pool->strings[id1 - 1], text, length) == 0)
			return &slots[i];
	}
}

static int grow_slots(rli_strpool *pool)
{
	uint32_t new_count = pool->slot_count ? pool->slot_count * 2 : 64;
	uint32_t *slots = calloc(new_count, sizeof(*slots));
	if (!slots)
		return -1;
	for (uint32_t id = 0; id < pool->count; id++) {
		uint32_t h = hash_text(pool->strings[id], pool->lengths[id]);
		*find_slot(slots, new_count, pool, NULL, 0, h) = id + 1;
	}
	free(pool->slots);
	pool->slots = slots;
	pool->slot_count = new_count;
	return 0;
}

uint32_t rli_strpool_intern(rli_strpool *pool, const char *text, size_t length)
{
	uint32_t hash = hash_text(text, length);
	uint32_t *slot;
	char *copy;

	if ((pool->count + 1) * 2 > pool->slot_count && grow_slots(pool) < 0)
		return RLI_STRPOOL_NONE;
	slot = find_slot(pool->slots, pool->slot_count, pool, text, length, hash);
	if (*slot)
		return *slot - 1;
	if (pool->count == RLI_STRPOOL_NONE - 1 || length > UINT32_MAX)
		return RLI_STRPOOL_NONE;
	if (pool->count == pool->capacity) {
		uint32_t cap = pool->capacity ? pool->capacity * 2 : 16;
		char **strings = realloc(pool->strings, cap * sizeof(*strings));
		if (!strings)
			return RLI_STRPOOL_NONE;
		pool->strings = strings;
		uint32_t *lengths = realloc(pool->lengths, cap * sizeof(*lengths));
		if (!lengths)
			return RLI_STRPOOL_NONE;
		pool->lengths = lengths;
		pool->capacity = cap;
	}
	copy = malloc(length + 1);
	if (!copy)
		return RLI_STRPOOL_NONE;
	memcpy(copy, text, length);
	copy[length] = '\0';
	pool->strings[pool->count] = copy;
	pool->lengths[pool->count] = (uint32_t)length;
	*slot = ++pool->count;
	return pool->count - 1;
}

uint32_t rli_strpool_find(const rli_strpool *pool, const char *text, size_t length)
{
	uint32_t *slot;
	if (pool->slot_count == 0)
		return RLI_STRPOOL_NONE;
	slot = find_slot(pool->slots, pool->slot_count, pool, text, length, hash_text(text, length));
	return *slot ? *slot - 1 : RLI_STRPOOL_NONE;
}

const char *rli_strpool_get(const rli_strpool *pool, uint32_t id)
{
	return id < pool->count ? pool->strings[id] : "";
}

size_t rli_strpool_length(const rli_strpool *pool, uint32_t id)
{
	return id < pool->count ? pool->lengths[id] : 0;
}

typedef struct {
	const char *text;
	uint32_t id;
} named_id;

static int compare_named(const void *a, const void *b)
{
	const named_id *x = a, *y = b;
	int c = strcmp(x->text, y->text);
	return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

int rli_strpool_sort_ids(const rli_strpool *pool, uint32_t *ids, size_t count)
{
	named_id *named = malloc((count ? count : 1) * sizeof(*named));
	if (!named)
		return rli_error_oom();
	for (size_t i = 0; i < count; i++)
		named[i] = (named_id){ rli_strpool_get(pool, ids[i]), ids[i] };
	qsort(named, count, sizeof(*named), compare_named);
	for (size_t i = 0; i < count; i++)
		ids[i] = named[i].id;
	free(named);
	return RLI_OK;
}

uint32_t *rli_strpool_intern_all(rli_strpool *dst, const rli_strpool *src)
{
	uint32_t *remap = malloc((src->count ? src->count : 1) * sizeof(*remap));
	if (!remap) {
		rli_error_oom();
		return NULL;
	}
	for (uint32_t id = 0; id < src->count; id++) {
		remap[id] = rli_strpool_intern(dst, rli_strpool_get(src, id), rli_strpool_length(src, id));
		if (remap[id] == RLI_STRPOOL_NONE) {
			free(remap);
			rli_error_oom();
			return NULL;
		}
	}
	return remap;
}

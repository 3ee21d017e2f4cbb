/* shard.c: --shard K/N, the input units one of N workers parses: a hash of each unit's path relative to the input. */
#include "shard.h"

#include <stdlib.h>
#include <string.h>

/*
 * FNV-1a over the path's bytes, then the 64-bit finaliser of SplitMix64, so that paths that
 * differ only in their last characters (rank 7 and rank 8) spread over every shard and the
 * remainder by N is even. Both are fixed, published functions: the shard of a path never
 * changes between machines or versions, which workers on different nodes rely on.
 */
unsigned rli_shard_of(const char *relative_path, unsigned shard_count)
{
	uint64_t h = 0xcbf29ce484222325u;
	if (shard_count <= 1)
		return 0;
	for (const unsigned char *p = (const unsigned char *)relative_path; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3u;
	}
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebu;
	h ^= h >> 31;
	return (unsigned)(h % shard_count);
}

int rli_shard_check(unsigned shard_index, unsigned shard_count)
{
	if (shard_count > 0 && shard_index >= shard_count)
		return rli_error_set(RLI_EUSAGE, "shard %u/%u: the shard must be below the number of shards (0 to %u)",
				     shard_index, shard_count, shard_count - 1);
	return RLI_OK;
}

/* unit_path relative to root (root itself, an input that is a file: its last component). */
static const char *relative_to(const char *unit_path, const char *root)
{
	size_t length = strlen(root);
	const char *slash;
	if (strncmp(unit_path, root, length) == 0 && unit_path[length] == '/')
		return unit_path + length + 1;
	if (strncmp(unit_path, root, length) == 0 && length > 0 && root[length - 1] == '/')
		return unit_path + length;
	slash = strrchr(unit_path, '/');
	return slash ? slash + 1 : unit_path;
}

void rli_discovery_keep_shard(rli_discovery *discovery, const char *root, unsigned shard_index, unsigned shard_count)
{
	size_t kept = 0;
	if (shard_count <= 1)
		return;
	for (size_t u = 0; u < discovery->count; u++) {
		rli_unit *unit = &discovery->units[u];
		if (rli_shard_of(relative_to(unit->path, root), shard_count) != shard_index) {
			rli_unit_dispose(unit);
			continue;
		}
		if (kept != u)
			discovery->units[kept] = *unit;
		kept++;
	}
	discovery->count = kept;
}

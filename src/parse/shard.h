/* shard.h: --shard K/N: which input units one of N workers parses. */
#ifndef RLI_PARSE_SHARD_H
#define RLI_PARSE_SHARD_H

#include "parse_internal.h"

/* RLI_EUSAGE with a message when shard_index is not below shard_count (0: no sharding); else RLI_OK. */
int rli_shard_check(unsigned shard_index, unsigned shard_count);

/*
 * Keeps the units of shard shard_index of shard_count (rli_shard_of of each unit's path
 * relative to root), in their order; the others are disposed of. Nothing when shard_count <= 1.
 */
void rli_discovery_keep_shard(rli_discovery *discovery, const char *root, unsigned shard_index, unsigned shard_count);

#endif

/* stats_internal.h: what the statistics' files share: rows in time order with dense keys, grouping, distributions. */
#ifndef RLI_STATS_INTERNAL_H
#define RLI_STATS_INTERNAL_H

#include "stats.h"
#include "common/bigmem.h"

#include <string.h>

/*
 * The working arrays, a few per row, come from rli_bigmem_array: 2 MiB pages fault in 512 times
 * less often than malloc's fresh 4 KiB ones, which otherwise cost more than the statistics themselves.
 */

/*
 * One counted row with the key a statistic groups it by. Entries are made in time order and
 * grouped by a stable sort on the key alone, so inside a group they stay in time order: the
 * keys are small dense integers (roles, names and ranks numbered in sorted order), and a radix
 * sort on the bits in use groups millions of rows in a few linear passes.
 */
typedef struct {
	uint64_t group;
	double value;  /* a time or a duration, ms */
	uint32_t row;  /* a counted row (or a step): the statistics refuse tables past 2^32 rows */
	uint32_t rank; /* the rank's index (ranks numbered in numeric order): ties go to the lowest */
} stats_entry;

/* Two keys in one group, the first more significant. */
static inline uint64_t stats_group(uint32_t high, uint32_t low)
{
	return (uint64_t)high << 32 | low;
}

/*
 * Stable sort by group between entries and tmp (n entries each): returns the one the sorted
 * entries are in, the other then free. Not copied back: a copy of 24 bytes a row per sort was a
 * tenth of the statistics.
 */
stats_entry *stats_sort_groups(stats_entry *entries, size_t n, stats_entry *tmp);

/* The end of the run of entries from `begin` that share its group. */
size_t stats_group_end(const stats_entry *entries, size_t n, size_t begin);

/* A double's bits, turned so that unsigned order is numeric order (negatives flipped whole). */
static inline uint64_t stats_order_key(double value)
{
	uint64_t bits;
	memcpy(&bits, &value, sizeof(bits));
	return bits >> 63 ? ~bits : bits | (uint64_t)1 << 63;
}

/* The double a key was made from. */
double stats_key_value(uint64_t key);

/* The most quantiles one call of stats_quantiles_of_keys finds. */
#define STATS_MAX_QUANTILES 4

/*
 * The quantiles p[0..count) (ascending, count at most STATS_MAX_QUANTILES) of a sample given as
 * keys in any order (reordered here), into q: numpy's default, linear interpolation between the
 * order statistics of the sorted sample, found by selection, with scratch for n more keys.
 */
void stats_quantiles_of_keys(double *q, const double *p, size_t count, uint64_t *keys, size_t n, uint64_t *scratch);

/* The same for the median alone. */
double stats_median_of_keys(uint64_t *keys, size_t n, uint64_t *scratch);

/* The distribution of a group's values, in any order, its ranks named by ranks[index]; scratch holds 2n doubles. */
void stats_distribution(rli_distribution *d, const stats_entry *group, size_t n, const int64_t *ranks, double *scratch);

/* What rli_stats_compute hands each part: the counted rows in time order and their dense keys. */
typedef struct {
	const rli_events *events;
	size_t count;
	uint32_t *rows;        /* counted rows, by start (ties in table order) */
	uint32_t *role_ix;     /* per counted row: its role's index among the roles, by name */
	uint32_t *name_ix;     /* ... its name's index among the names, by name */
	uint32_t *rank_ix;     /* ... its rank's index among the ranks, by number */
	uint32_t *roles;       /* role index -> string id */
	int64_t *ranks;        /* rank index -> rank id */
	size_t role_count, name_count, rank_count;
	double *scratch;       /* 2 x count doubles for distributions */
	/*
	 * count entries each, allocated once: a fresh array per statistic would be mapped and
	 * faulted in anew each time, which costs more than the work on it.
	 */
	stats_entry *entries, *sort_tmp;
} stats_input;

/* Of the input's two entry arrays, the one e is not. */
static inline stats_entry *stats_other_entries(const stats_input *in, const stats_entry *e)
{
	return e == in->entries ? in->sort_tmp : in->entries;
}

int stats_steps(rli_stats *stats, const stats_input *in);
int stats_bubbles(rli_stats *stats, const stats_input *in);
int stats_overlap(rli_stats *stats, const stats_input *in);

#endif

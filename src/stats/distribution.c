/* distribution.c: grouping entries by key, and summarising a sample. */
#include "stats_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A radix pass's bucket sizes turned into where each bucket starts. */
static void bucket_offsets(size_t count[256])
{
	size_t offset = 0;
	for (int b = 0; b < 256; b++) {
		size_t c = count[b];
		count[b] = offset;
		offset += c;
	}
}

/*
 * Where the keys' (high, low) halves span few enough values, one counting pass groups them: each
 * pair numbered high * (highest low + 1) + low, which keeps their order. Past that many buckets
 * (more than the entries, or a table too large to be worth its zeroing) the radix sort below.
 */
#define COUNTING_MAX_BUCKETS ((uint64_t)1 << 24)

static stats_entry *counting_sort(stats_entry *entries, size_t n, stats_entry *tmp, uint32_t max_high, uint32_t max_low)
{
	uint64_t lows = (uint64_t)max_low + 1, buckets = ((uint64_t)max_high + 1) * lows;
	uint32_t *start; /* the statistics refuse tables past 2^32 rows */
	if (buckets > n || buckets > COUNTING_MAX_BUCKETS || !(start = rli_bigmem_zeroed(buckets + 1, sizeof(*start))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		start[(entries[i].group >> 32) * lows + (entries[i].group & UINT32_MAX) + 1]++;
	for (uint64_t b = 0; b < buckets; b++)
		start[b + 1] += start[b];
	for (size_t i = 0; i < n; i++)
		tmp[start[(entries[i].group >> 32) * lows + (entries[i].group & UINT32_MAX)]++] = entries[i];
	rli_bigmem_free(start);
	return tmp;
}

stats_entry *stats_sort_groups(stats_entry *entries, size_t n, stats_entry *tmp)
{
	stats_entry *sorted;
	uint64_t all = 0;
	uint32_t max_high = 0, max_low = 0;
	stats_entry *from = entries, *to = tmp;
	for (size_t i = 0; i < n; i++) {
		uint32_t high = (uint32_t)(entries[i].group >> 32), low = (uint32_t)entries[i].group;
		all |= entries[i].group;
		max_high = high > max_high ? high : max_high;
		max_low = low > max_low ? low : max_low;
	}
	if (n < 2 || all == 0)
		return entries;
	if ((sorted = counting_sort(entries, n, tmp, max_high, max_low)))
		return sorted;
	/* LSD radix, 8 bits a pass, only over the bytes some key uses: stable, so time order holds. */
	for (unsigned shift = 0; shift < 64 && (all >> shift); shift += 8) {
		size_t count[256] = { 0 };
		stats_entry *swap;
		if (((all >> shift) & 0xFF) == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			count[(from[i].group >> shift) & 0xFF]++;
		bucket_offsets(count);
		for (size_t i = 0; i < n; i++)
			to[count[(from[i].group >> shift) & 0xFF]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	return from;
}

size_t stats_group_end(const stats_entry *entries, size_t n, size_t begin)
{
	size_t end = begin;
	while (end < n && entries[end].group == entries[begin].group)
		end++;
	return end;
}

void stats_distribution(rli_distribution *d, const stats_entry *group, size_t n, const int64_t *ranks, double *scratch)
{
	static const double quartiles[] = { 0.25, 0.5, 0.75, 0.95 };
	double squares = 0, q[4];
	uint64_t *keys = (uint64_t *)(void *)scratch; /* the scratch is allocated storage: its type is what it last held */

	*d = (rli_distribution){ .count = n };
	if (n == 0)
		return;
	uint32_t min_rank = group[0].rank, max_rank = group[0].rank;
	d->min = d->max = group[0].value;
	for (size_t i = 0; i < n; i++) {
		const stats_entry *e = &group[i];
		d->total += e->value;
		keys[i] = stats_order_key(e->value);
		/* Among equal extremes the lowest rank is named (indices follow the ranks' order). */
		if (e->value < d->min || (e->value == d->min && e->rank < min_rank)) {
			d->min = e->value;
			min_rank = e->rank;
		}
		if (e->value > d->max || (e->value == d->max && e->rank < max_rank)) {
			d->max = e->value;
			max_rank = e->rank;
		}
	}
	d->min_rank = ranks[min_rank];
	d->max_rank = ranks[max_rank];
	d->mean = d->total / (double)n;
	for (size_t i = 0; i < n; i++)
		squares += (group[i].value - d->mean) * (group[i].value - d->mean);
	d->stddev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
	stats_quantiles_of_keys(q, quartiles, 4, keys, n, keys + n);
	d->q1 = q[0];
	d->median = q[1];
	d->q3 = q[2];
	d->p95 = q[3];
	d->dispersion = d->mean != 0 ? (d->max - d->min) / d->mean : 0;
}

/* distribution.c: grouping entries by key, sorting durations, and summarising a sample. */
#include "stats_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Below this many values an insertion sort beats the radix sort's 256-bucket passes. */
#define SMALL_SORT 48

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

/*
 * Samples made of this many ascending runs or fewer (the spans of a few ranks, each rank's in
 * time order) are merged, a pass per halving of the runs, instead of radix-sorted: two ranks'
 * spans take one pass where the radix sort takes six.
 */
#define MERGE_MAX_RUNS 16

/* Where each ascending run of values starts (starts[0] = 0), up to max of them: the count, or max + 1 when more. */
static size_t find_runs(const double *values, size_t n, size_t *starts, size_t max)
{
	size_t runs = 1;
	starts[0] = 0;
	for (size_t i = 1; i < n; i++)
		if (stats_order_key(values[i]) < stats_order_key(values[i - 1])) {
			if (runs == max)
				return max + 1;
			starts[runs++] = i;
		}
	return runs;
}

/* Merges the runs pairwise between values and scratch until one is left, in values. */
static void merge_runs(double *values, size_t n, double *scratch, size_t *starts, size_t runs)
{
	double *from = values, *to = scratch;
	starts[runs] = n;
	while (runs > 1) {
		size_t merged = 0;
		for (size_t r = 0; r < runs; r += 2) {
			size_t i = starts[r], mid = starts[r + 1 < runs ? r + 1 : runs], hi = starts[r + 2 < runs ? r + 2 : runs];
			size_t j = mid, k = i;
			while (i < mid && j < hi)
				to[k++] = stats_order_key(from[j]) < stats_order_key(from[i]) ? from[j++] : from[i++];
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
			starts[merged++] = starts[r];
		}
		starts[merged] = n;
		runs = merged;
		{
			double *swap = from;
			from = to;
			to = swap;
		}
	}
	if (from != values)
		memcpy(values, from, n * sizeof(*values));
}

void stats_sort_doubles(double *values, size_t n, double *scratch)
{
	double *from = values, *to = scratch;
	uint64_t same = ~(uint64_t)0, first;
	size_t run_starts[MERGE_MAX_RUNS + 1], runs;
	if (n < SMALL_SORT) {
		for (size_t i = 1; i < n; i++) {
			double v = values[i];
			size_t j = i;
			for (; j > 0 && values[j - 1] > v; j--)
				values[j] = values[j - 1];
			values[j] = v;
		}
		return;
	}
	if ((runs = find_runs(values, n, run_starts, MERGE_MAX_RUNS)) <= MERGE_MAX_RUNS) {
		merge_runs(values, n, scratch, run_starts, runs);
		return;
	}
	/* Bytes on which every value agrees need no pass (the high ones, usually). */
	first = stats_order_key(values[0]);
	for (size_t i = 1; i < n; i++)
		same &= ~(stats_order_key(values[i]) ^ first);
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 };
		double *swap;
		if (((same >> shift) & 0xFF) == 0xFF)
			continue;
		for (size_t i = 0; i < n; i++)
			count[(stats_order_key(from[i]) >> shift) & 0xFF]++;
		bucket_offsets(count);
		for (size_t i = 0; i < n; i++)
			to[count[(stats_order_key(from[i]) >> shift) & 0xFF]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != values)
		memcpy(values, from, n * sizeof(*values));
}

double stats_quantile(const double *sorted, size_t n, double p)
{
	double h, low;
	size_t i;
	if (n == 0)
		return 0;
	h = (double)(n - 1) * p;
	low = floor(h);
	i = (size_t)low;
	return i + 1 < n ? sorted[i] + (h - low) * (sorted[i + 1] - sorted[i]) : sorted[n - 1];
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

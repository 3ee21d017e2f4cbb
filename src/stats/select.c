/* select.c: quantiles by selection: the order statistics a quantile reads, found without sorting the sample. */
#include "stats_internal.h"

#include <math.h>
#include <string.h>

/* Samples this small are sorted outright: a digit's count over 2,048 buckets costs more than it saves. */
#define SORTED_OUTRIGHT 64

double stats_key_value(uint64_t key)
{
	uint64_t bits = key >> 63 ? key & ~((uint64_t)1 << 63) : ~key;
	double value;
	memcpy(&value, &bits, sizeof(value));
	return value;
}

static void insertion_sort(uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t key = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > key; j--)
			v[j] = v[j - 1];
		v[j] = key;
	}
}

/*
 * Radix selection: the keys at ranks want[0..count) (ascending, distinct) of keys[0..n), into
 * out. One pass finds the highest bit on which the keys differ, one counts them by the 11 bits
 * from there, and only the buckets holding a wanted rank are copied on, into the same places of
 * the other buffer (other[0..n)), where the next digit splits them again; the rest is never
 * looked at again. A few passes over the sample, none of them branching on its values, where a
 * sort takes a pass per byte and quickselect mispredicts every other comparison.
 */
#define DIGIT_BITS 11
#define DIGIT_BUCKETS ((size_t)1 << DIGIT_BITS)
/* Each quantile reads two order statistics. */
#define STATS_MAX_RANKS_WANTED (2 * STATS_MAX_QUANTILES)

static void radix_select(uint64_t *keys, uint64_t *other, size_t n, const size_t *want, size_t count, uint64_t *out)
{
	uint32_t bucket_start[DIGIT_BUCKETS + 1]; /* the statistics refuse tables past 2^32 rows */
	uint32_t cursor[STATS_MAX_RANKS_WANTED];
	uint8_t slot_of[DIGIT_BUCKETS];           /* 1 + the wanted bucket's slot, 0 for the others */
	size_t bucket[STATS_MAX_RANKS_WANTED], buckets = 0;
	uint64_t differ = 0;
	unsigned shift, top = 63;

	if (n <= SORTED_OUTRIGHT) {
		insertion_sort(keys, n);
		for (size_t j = 0; j < count; j++)
			out[j] = keys[want[j]];
		return;
	}
	for (size_t i = 1; i < n; i++)
		differ |= keys[i] ^ keys[0];
	if (differ == 0) {
		for (size_t j = 0; j < count; j++)
			out[j] = keys[0];
		return;
	}
	while (!(differ >> top))
		top--;
	/* The digit: the 11 bits that end at the highest one on which the keys differ. */
	shift = top + 1 > DIGIT_BITS ? top + 1 - DIGIT_BITS : 0;
	memset(bucket_start, 0, sizeof(bucket_start));
	for (size_t i = 0; i < n; i++)
		bucket_start[((keys[i] >> shift) & (DIGIT_BUCKETS - 1)) + 1]++;
	for (size_t b = 0; b < DIGIT_BUCKETS; b++)
		bucket_start[b + 1] += bucket_start[b];
	/* The buckets the wanted ranks fall in (the ranks ascend, so do their buckets). */
	memset(slot_of, 0, sizeof(slot_of));
	for (size_t j = 0, b = 0; j < count; j++) {
		while (bucket_start[b + 1] <= want[j])
			b++;
		if (buckets == 0 || bucket[buckets - 1] != b) {
			cursor[buckets] = bucket_start[b];
			bucket[buckets++] = b;
			slot_of[b] = (uint8_t)buckets;
		}
	}
	/* Those buckets' keys, in one pass, each to its own place in the other buffer. */
	for (size_t i = 0; i < n; i++) {
		unsigned slot = slot_of[(keys[i] >> shift) & (DIGIT_BUCKETS - 1)];
		if (slot)
			other[cursor[slot - 1]++] = keys[i];
	}
	/* Each bucket on its own, the keys' buffer now free to be the next digit's other one. */
	for (size_t k = 0, j = 0; k < buckets; k++) {
		size_t b = bucket[k], first = j, sub_want[STATS_MAX_RANKS_WANTED];
		for (; j < count && want[j] < bucket_start[b + 1]; j++)
			sub_want[j - first] = want[j] - bucket_start[b];
		radix_select(other + bucket_start[b], keys + bucket_start[b], bucket_start[b + 1] - bucket_start[b], sub_want,
			     j - first, out + first);
	}
}

void stats_quantiles_of_keys(double *q, const double *p, size_t count, uint64_t *keys, size_t n, uint64_t *scratch)
{
	/* The order statistics each quantile reads (its index and the next), ascending and distinct. */
	size_t want[STATS_MAX_RANKS_WANTED] = { 0 }, wanted = 0;
	uint64_t found[STATS_MAX_RANKS_WANTED] = { 0 };

	if (n == 0 || count > STATS_MAX_QUANTILES) {
		for (size_t t = 0; t < count; t++)
			q[t] = 0;
		return;
	}
	for (size_t t = 0; t < count; t++) {
		size_t i = (size_t)floor((double)(n - 1) * p[t]);
		for (size_t k = i; k <= i + 1 && k < n; k++)
			if (wanted == 0 || want[wanted - 1] < k)
				want[wanted++] = k;
	}
	radix_select(keys, scratch, n, want, wanted, found);
	for (size_t t = 0; t < count; t++) {
		double h = (double)(n - 1) * p[t], low = floor(h);
		size_t i = (size_t)low, at = 0;
		while (want[at] != i)
			at++;
		if (i + 1 < n) {
			double a = stats_key_value(found[at]), b = stats_key_value(found[at + 1]);
			q[t] = a + (h - low) * (b - a);
		} else {
			q[t] = stats_key_value(found[at]);
		}
	}
}

double stats_median_of_keys(uint64_t *keys, size_t n, uint64_t *scratch)
{
	static const double half = 0.5;
	double median;
	stats_quantiles_of_keys(&median, &half, 1, keys, n, scratch);
	return median;
}

/* distribution.c: sorting samples and summarising them: quantiles, spread, the ranks at the extremes. */
#include "stats_internal.h"

#include <math.h>
#include <stdlib.h>

static int compare_keys(uint64_t ga, uint64_t gb)
{
	return ga < gb ? -1 : ga > gb;
}

static int compare_by_rank(const void *pa, const void *pb)
{
	const stats_entry *a = pa, *b = pb;
	int c = compare_keys(a->group, b->group);
	if (c == 0)
		c = a->rank < b->rank ? -1 : a->rank > b->rank;
	if (c == 0)
		c = a->value < b->value ? -1 : a->value > b->value;
	return c ? c : a->row < b->row ? -1 : a->row > b->row;
}

static int compare_by_value(const void *pa, const void *pb)
{
	const stats_entry *a = pa, *b = pb;
	int c = compare_keys(a->group, b->group);
	if (c == 0)
		c = a->value < b->value ? -1 : a->value > b->value;
	if (c == 0)
		c = a->rank < b->rank ? -1 : a->rank > b->rank;
	return c ? c : a->row < b->row ? -1 : a->row > b->row;
}

void stats_sort_by_rank(stats_entry *entries, size_t n)
{
	if (n > 1)
		qsort(entries, n, sizeof(*entries), compare_by_rank);
}

void stats_sort_by_value(stats_entry *entries, size_t n)
{
	if (n > 1)
		qsort(entries, n, sizeof(*entries), compare_by_value);
}

size_t stats_group_end(const stats_entry *entries, size_t n, size_t begin)
{
	size_t end = begin;
	while (end < n && entries[end].group == entries[begin].group)
		end++;
	return end;
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

/* The same quantile read straight from entries sorted by value. */
static double entry_quantile(const stats_entry *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p, low = floor(h);
	size_t i = (size_t)low;
	return i + 1 < n ? sorted[i].value + (h - low) * (sorted[i + 1].value - sorted[i].value) : sorted[n - 1].value;
}

void stats_distribution(rli_distribution *d, const stats_entry *sorted, size_t n)
{
	double squares = 0;
	size_t first_max = n ? n - 1 : 0;

	*d = (rli_distribution){ .count = n };
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		d->total += sorted[i].value;
	d->mean = d->total / (double)n;
	for (size_t i = 0; i < n; i++)
		squares += (sorted[i].value - d->mean) * (sorted[i].value - d->mean);
	d->stddev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
	d->min = sorted[0].value;
	d->max = sorted[n - 1].value;
	d->median = entry_quantile(sorted, n, 0.5);
	d->q1 = entry_quantile(sorted, n, 0.25);
	d->q3 = entry_quantile(sorted, n, 0.75);
	d->dispersion = d->mean != 0 ? (d->max - d->min) / d->mean : 0;
	d->min_rank = sorted[0].rank;
	/* Among equal maxima, the first in the sort's order (the lowest rank, then the earliest row). */
	while (first_max > 0 && sorted[first_max - 1].value == d->max)
		first_max--;
	d->max_rank = sorted[first_max].rank;
}

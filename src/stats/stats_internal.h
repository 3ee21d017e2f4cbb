/* stats_internal.h: what the statistics' files share: sortable entries over the table's rows, and distributions. */
#ifndef RLI_STATS_INTERNAL_H
#define RLI_STATS_INTERNAL_H

#include "stats.h"

/*
 * One counted row with the keys a statistic groups and orders it by. Sorting entries instead of
 * row indices keeps every comparison inside the array, with no table to reach through.
 */
typedef struct {
	uint64_t group; /* what the statistic groups by (role and name positions, role and step ...) */
	int64_t rank;
	double value;   /* a time or a duration, ms */
	size_t row;     /* the row: the last tie-break, so equal keys keep the table's order */
} stats_entry;

/* Orders by group, then rank, then value (per rank in time order). */
void stats_sort_by_rank(stats_entry *entries, size_t n);
/* Orders by group, then value, then rank (a sample ready for its quantiles). */
void stats_sort_by_value(stats_entry *entries, size_t n);

/* Two 32-bit keys in one group, the first more significant. */
static inline uint64_t stats_group(uint32_t high, uint32_t low)
{
	return (uint64_t)high << 32 | low;
}

/* The end of the run of entries from `begin` that share its group. */
size_t stats_group_end(const stats_entry *entries, size_t n, size_t begin);

/* The distribution of a sample sorted by value (stats_sort_by_value); ranks from the entries. */
void stats_distribution(rli_distribution *d, const stats_entry *sorted, size_t n);

/* Linear interpolation between order statistics (numpy's default) of values sorted ascending. */
double stats_quantile(const double *sorted, size_t n, double p);

/* What rli_stats_compute hands each part: the counted rows, and every string's place in name order. */
typedef struct {
	const rli_events *events;
	size_t *rows;         /* counted rows, in table order */
	size_t count;
	uint32_t *name_rank;  /* string id -> its position among all the pool's strings sorted by name */
	uint32_t *by_rank;    /* position -> string id */
} stats_input;

int stats_steps(rli_stats *stats, const stats_input *in);
int stats_bubbles(rli_stats *stats, const stats_input *in);
int stats_overlap(rli_stats *stats, const stats_input *in);

#endif

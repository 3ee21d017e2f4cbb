/* overlap.c: how long each pair of roles ran at once, and how many ranks are inside each role over time. */
#include "stats_internal.h"
#include "common/error.h"

#include <stdlib.h>

/* Pairs of roles are intersected one by one: past this many roles the pairs are left out. */
#define OVERLAP_MAX_ROLES 256

typedef struct {
	double start, end;
} span;

/*
 * Merges sorted entries (by group, then start) into the union of their bars, per group: spans
 * get each group's spans in order, first[g]..first[g + 1] (groups numbered in order of appearance).
 */
static size_t merge_spans(span *spans, size_t *first, const stats_entry *e, size_t n, const rli_events *ev,
			  int per_rank)
{
	size_t count = 0, groups = 0;
	for (size_t i = 0; i < n; i++) {
		double start = ev->start_ms[e[i].row], end = rli_events_end_ms(ev, e[i].row);
		int new_group = i == 0 || e[i].group != e[i - 1].group || (per_rank && e[i].rank != e[i - 1].rank);
		if (new_group && first)
			first[groups++] = count;
		if (!new_group && start <= spans[count - 1].end) {
			if (end > spans[count - 1].end)
				spans[count - 1].end = end;
		} else {
			spans[count++] = (span){ start, end };
		}
	}
	if (first)
		first[groups] = count;
	return count;
}

static double intersect(const span *a, size_t na, const span *b, size_t nb)
{
	double total = 0;
	for (size_t i = 0, j = 0; i < na && j < nb;) {
		double lo = a[i].start > b[j].start ? a[i].start : b[j].start;
		double hi = a[i].end < b[j].end ? a[i].end : b[j].end;
		if (hi > lo)
			total += hi - lo;
		if (a[i].end < b[j].end)
			i++;
		else
			j++;
	}
	return total;
}

static int role_overlaps(rli_stats *stats, const stats_input *in, stats_entry *e, span *spans, size_t *first)
{
	const rli_events *ev = in->events;
	size_t roles = stats->role_count, pairs;
	uint32_t *role_of = malloc((roles ? roles : 1) * sizeof(*role_of));
	if (!role_of)
		return rli_error_oom();
	for (size_t i = 0; i < in->count; i++) {
		size_t row = in->rows[i];
		e[i] = (stats_entry){ in->name_rank[ev->role[row]], 0, ev->start_ms[row], row };
	}
	stats_sort_by_value(e, in->count);
	merge_spans(spans, first, e, in->count, ev, 0);
	for (size_t i = 0, g = 0; i < in->count; i++)
		if (i == 0 || e[i].group != e[i - 1].group)
			role_of[g++] = ev->role[e[i].row];
	pairs = roles <= OVERLAP_MAX_ROLES ? roles * (roles - (roles > 0)) / 2 : 0;
	if (!(stats->overlaps = calloc(pairs ? pairs : 1, sizeof(*stats->overlaps)))) {
		free(role_of);
		return rli_error_oom();
	}
	for (size_t a = 0; pairs && a < roles; a++)
		for (size_t b = a + 1; b < roles; b++)
			stats->overlaps[stats->overlap_count++] = (rli_role_overlap){
				role_of[a], role_of[b],
				intersect(spans + first[a], first[a + 1] - first[a], spans + first[b], first[b + 1] - first[b]) };
	free(role_of);
	return RLI_OK;
}

/* Occupancy: each (role, rank)'s bars merged, then +1 at each start and -1 at each end, swept in time order. */
static int occupancy(rli_stats *stats, const stats_input *in, stats_entry *e, span *spans)
{
	const rli_events *ev = in->events;
	size_t n, marks = 0;
	stats_entry *m;
	for (size_t i = 0; i < in->count; i++) {
		size_t row = in->rows[i];
		e[i] = (stats_entry){ in->name_rank[ev->role[row]], ev->rank_id[row], ev->start_ms[row], row };
	}
	stats_sort_by_rank(e, in->count);
	n = merge_spans(spans, NULL, e, in->count, ev, 1);
	if (!(m = malloc((n ? 2 * n : 1) * sizeof(*m))))
		return rli_error_oom();
	/* The merged spans are in entry order: walk both again to know each span's role. */
	for (size_t i = 0, s = 0; i < in->count; i++) {
		int new_span = i == 0 || e[i].group != e[i - 1].group || e[i].rank != e[i - 1].rank ||
			       ev->start_ms[e[i].row] > spans[s - 1].end;
		if (!new_span)
			continue;
		/* rank -1 sorts an end before a start at the same time, so touching bars do not count twice */
		m[marks++] = (stats_entry){ e[i].group, +1, spans[s].start, e[i].row };
		m[marks++] = (stats_entry){ e[i].group, -1, spans[s].end, e[i].row };
		s++;
	}
	stats_sort_by_value(m, marks);
	stats->occupancy = calloc(stats->role_count ? stats->role_count : 1, sizeof(*stats->occupancy));
	stats->occupancy_points = malloc((marks ? marks : 1) * sizeof(*stats->occupancy_points));
	if (!stats->occupancy || !stats->occupancy_points) {
		free(m);
		return rli_error_oom();
	}
	for (size_t begin = 0, end; begin < marks; begin = end) {
		rli_role_occupancy *o = &stats->occupancy[stats->occupancy_count++];
		int64_t inside = 0;
		end = stats_group_end(m, marks, begin);
		*o = (rli_role_occupancy){ ev->role[m[begin].row], stats->occupancy_point_count, 0, 0, 0 };
		for (size_t i = begin; i < end; i++) {
			inside += m[i].rank;
			if (i + 1 < end && m[i + 1].value == m[i].value)
				continue; /* all the marks at one time first */
			if (o->count == 0 || stats->occupancy_points[o->first + o->count - 1].ranks != (uint32_t)inside) {
				stats->occupancy_points[stats->occupancy_point_count++] =
					(rli_occupancy_point){ m[i].value, (uint32_t)inside };
				o->count++;
			}
			if ((uint32_t)inside > o->peak_ranks) {
				o->peak_ranks = (uint32_t)inside;
				o->peak_ms = m[i].value;
			}
		}
	}
	free(m);
	return RLI_OK;
}

int stats_overlap(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = malloc((in->count ? in->count : 1) * sizeof(*e));
	span *spans = malloc((in->count ? in->count : 1) * sizeof(*spans));
	size_t *first = malloc((stats->role_count + 1) * sizeof(*first));
	int error = RLI_OK;
	if (!e || !spans || !first)
		error = rli_error_oom();
	else if ((error = role_overlaps(stats, in, e, spans, first)) == RLI_OK)
		error = occupancy(stats, in, e, spans);
	free(e);
	free(spans);
	free(first);
	return error;
}

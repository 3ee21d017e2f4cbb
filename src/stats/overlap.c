/* overlap.c: how long each pair of roles ran at once, and how many ranks are inside each role over time. */
#include "stats_internal.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>

/* Pairs of roles are intersected one by one: past this many roles the pairs are left out. */
#define OVERLAP_MAX_ROLES 256

typedef struct {
	double start, end;
} span;

/*
 * Merges grouped entries (each group in time order) into the union of their bars, per group.
 * The key e.group >> shift must number the roles 0..role_count-1 in order: the spans of role r
 * are spans[first[r]..first[r + 1]) (first has role_count + 1 entries). Returns the spans' count.
 */
static size_t merge_spans(span *spans, size_t *first, unsigned shift, const stats_entry *e, size_t n,
			  const stats_input *in)
{
	const rli_events *ev = in->events;
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t row = in->rows[e[i].row];
		double start = ev->start_ms[row], end = rli_events_end_ms(ev, row);
		int new_group = i == 0 || e[i].group != e[i - 1].group;
		if (i == 0 || e[i].group >> shift != e[i - 1].group >> shift)
			first[e[i].group >> shift] = count;
		if (!new_group && start <= spans[count - 1].end) {
			if (end > spans[count - 1].end)
				spans[count - 1].end = end;
		} else {
			spans[count++] = (span){ start, end };
		}
	}
	first[in->role_count] = count;
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

static int role_overlaps(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = in->entries;
	span *spans;
	size_t roles = in->role_count, pairs = roles <= OVERLAP_MAX_ROLES && roles > 1 ? roles * (roles - 1) / 2 : 0;
	size_t *first = malloc((roles + 1) * sizeof(*first));
	int error = RLI_OK;
	if (!first)
		return rli_error_oom();
	for (size_t i = 0; i < in->count; i++)
		e[i] = (stats_entry){ .group = in->role_ix[i], .row = (uint32_t)i };
	e = stats_sort_groups(e, in->count, in->sort_tmp);
	spans = (span *)(void *)stats_other_entries(in, e);
	merge_spans(spans, first, 0, e, in->count, in);
	if (!(stats->overlaps = calloc(pairs ? pairs : 1, sizeof(*stats->overlaps)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t a = 0; pairs && a < roles; a++)
		for (size_t b = a + 1; b < roles; b++)
			stats->overlaps[stats->overlap_count++] = (rli_role_overlap){
				in->roles[a], in->roles[b],
				intersect(spans + first[a], first[a + 1] - first[a], spans + first[b], first[b + 1] - first[b]) };
done:
	free(first);
	return error;
}

/*
 * Occupancy: each (role, rank)'s bars merged into spans; per role the spans' starts and ends,
 * each sorted, are swept together (an end before a start at the same time, so touching bars do
 * not count a rank twice), and a point is kept where the count changes.
 */
static int occupancy(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = in->entries;
	span *spans;
	size_t n, *role_first = NULL;
	double *starts = NULL, *ends = NULL;
	int error = RLI_OK;

	for (size_t i = 0; i < in->count; i++)
		e[i] = (stats_entry){ .group = stats_group(in->role_ix[i], in->rank_ix[i]), .row = (uint32_t)i };
	e = stats_sort_groups(e, in->count, in->sort_tmp);
	spans = (span *)(void *)stats_other_entries(in, e);
	role_first = calloc(in->role_count + 1, sizeof(*role_first));
	if (!role_first)
		return rli_error_oom();
	/* Spans per (role, rank); role r's are spans[role_first[r]..role_first[r + 1]). */
	n = merge_spans(spans, role_first, 32, e, in->count, in);
	/* The entries are read by now: their room (24 bytes a row) holds the spans' ends, 16 bytes a span. */
	starts = (double *)e;
	ends = starts + n;
	stats->occupancy = calloc(in->role_count ? in->role_count : 1, sizeof(*stats->occupancy));
	stats->occupancy_points = rli_bigmem_array(2 * n, sizeof(*stats->occupancy_points));
	if (!stats->occupancy || !stats->occupancy_points) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t r = 0; r < in->role_count; r++) {
		rli_role_occupancy *o = &stats->occupancy[stats->occupancy_count++];
		size_t b = role_first[r], count = role_first[r + 1] - b, si = 0, ei = 0;
		int64_t inside = 0;
		for (size_t k = 0; k < count; k++) {
			starts[k] = spans[b + k].start;
			ends[k] = spans[b + k].end;
		}
		stats_sort_doubles(starts, count, in->scratch);
		stats_sort_doubles(ends, count, in->scratch);
		*o = (rli_role_occupancy){ in->roles[r], stats->occupancy_point_count, 0, 0, 0 };
		while (si < count || ei < count) {
			double t = ei < count && (si == count || ends[ei] <= starts[si]) ? ends[ei] : starts[si];
			while (ei < count && ends[ei] == t) {
				inside--;
				ei++;
			}
			while (si < count && starts[si] == t) {
				inside++;
				si++;
			}
			if (o->count == 0 || stats->occupancy_points[o->first + o->count - 1].ranks != (uint32_t)inside) {
				stats->occupancy_points[stats->occupancy_point_count++] = (rli_occupancy_point){ t, (uint32_t)inside };
				o->count++;
			}
			if ((uint32_t)inside > o->peak_ranks) {
				o->peak_ranks = (uint32_t)inside;
				o->peak_ms = t;
			}
		}
	}
done:
	free(role_first);
	return error;
}

int stats_overlap(rli_stats *stats, const stats_input *in)
{
	/*
	 * The spans are merged from the entries once they are sorted, into the sort's other buffer,
	 * which is then free: no fresh memory for them (16 bytes a row; the occupancy's ends go in the
	 * sorted entries' room), whose first touch was a third of the statistics' time on a million NVTX ranges.
	 */
	_Static_assert(sizeof(span) <= sizeof(stats_entry) && 2 * sizeof(double) <= sizeof(stats_entry),
		       "a span, and a span's two ends, fit in the room of an entry");
	int error = role_overlaps(stats, in);
	if (error == RLI_OK)
		error = occupancy(stats, in);
	return error;
}

size_t rli_stats_occupancy_buckets(uint32_t *max_ranks, size_t n, const rli_stats *stats, size_t index)
{
	const rli_role_occupancy *o = &stats->occupancy[index];
	double length = stats->end_ms - stats->start_ms;
	if (n == 0 || !(length > 0))
		return 0;
	for (size_t b = 0; b < n; b++)
		max_ranks[b] = 0;
	/* Each point holds its count until the next one: it raises every bucket it reaches. */
	for (size_t p = 0; p < o->count; p++) {
		const rli_occupancy_point *pt = &stats->occupancy_points[o->first + p];
		double until = p + 1 < o->count ? stats->occupancy_points[o->first + p + 1].t_ms : pt->t_ms;
		size_t from = (size_t)((pt->t_ms - stats->start_ms) / length * (double)n), to = from;
		/* until is where the next count takes over: a bucket that starts there is not reached */
		if (until > pt->t_ms)
			to = (size_t)ceil((until - stats->start_ms) / length * (double)n) - 1;
		if (from >= n)
			from = n - 1;
		if (to >= n)
			to = n - 1;
		if (to < from)
			to = from;
		/* a count that lasts no time at all still happened: it shows in its bucket */
		for (size_t b = from; b <= to; b++)
			if (pt->ranks > max_ranks[b])
				max_ranks[b] = pt->ranks;
	}
	return n;
}

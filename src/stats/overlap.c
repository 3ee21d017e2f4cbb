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
 * Merges entries grouped by role (e.group the role's index, each group in time order) into the
 * union of each role's bars: the spans of role r are spans[first[r]..first[r + 1]) (first has
 * role_count + 1 entries). Returns the spans' count.
 */
static size_t merge_spans(span *spans, size_t *first, const stats_entry *e, size_t n, const stats_input *in)
{
	const rli_events *ev = in->events;
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t row = in->rows[e[i].row];
		double start = ev->start_ms[row], end = rli_events_end_ms(ev, row);
		int new_group = i == 0 || e[i].group != e[i - 1].group;
		if (new_group)
			first[e[i].group] = count;
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

/* The union of each role's bars over its ranks, intersected pair by pair (e: grouped by role, in time order). */
static int role_overlaps(rli_stats *stats, const stats_input *in, const stats_entry *e, span *spans)
{
	size_t roles = in->role_count, pairs = roles <= OVERLAP_MAX_ROLES && roles > 1 ? roles * (roles - 1) / 2 : 0;
	size_t *first = malloc((roles + 1) * sizeof(*first));
	int error = RLI_OK;
	if (!first)
		return rli_error_oom();
	merge_spans(spans, first, e, in->count, in);
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
 * A role's sweep: each rank's open span (its bars merged so far) ends at covered_to[rank]
 * (open[rank] says it has one); the open spans wait in a min-heap on their ends. A span that grows
 * keeps its old end in the heap, a bound below its own, and is put back with its own when that
 * bound comes up: no heap work for the bars that only extend a span. Counts change at span starts
 * and ends, met in time order; `inside` is the count at time t, not yet recorded (pending), so
 * that every change at one moment makes one point.
 */
typedef struct {
	double end;
	uint32_t rank;
} open_span;

typedef struct {
	double *covered_to;
	uint8_t *open;
	open_span *heap;
	size_t heap_count;
	rli_stats *stats;
	rli_role_occupancy *o;
	double t;
	int64_t inside;
	int pending;
} sweep;

static void heap_push(sweep *s, double end, uint32_t rank)
{
	size_t i = s->heap_count++;
	while (i > 0 && s->heap[(i - 1) / 2].end > end) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = (open_span){ end, rank };
}

static open_span heap_pop(sweep *s)
{
	open_span top = s->heap[0], last = s->heap[--s->heap_count];
	size_t i = 0;
	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= s->heap_count)
			break;
		if (child + 1 < s->heap_count && s->heap[child + 1].end < s->heap[child].end)
			child++;
		if (!(s->heap[child].end < last.end))
			break;
		s->heap[i] = s->heap[child];
		i = child;
	}
	if (s->heap_count)
		s->heap[i] = last;
	return top;
}

/* The count at the pending moment, kept as a point when it changed; the first moment of the peak. */
static void record(sweep *s)
{
	rli_role_occupancy *o = s->o;
	rli_stats *stats = s->stats;
	if (!s->pending)
		return;
	if (o->count == 0 || stats->occupancy_points[o->first + o->count - 1].ranks != (uint32_t)s->inside) {
		stats->occupancy_points[stats->occupancy_point_count++] = (rli_occupancy_point){ s->t, (uint32_t)s->inside };
		o->count++;
	}
	if ((uint32_t)s->inside > o->peak_ranks) {
		o->peak_ranks = (uint32_t)s->inside;
		o->peak_ms = s->t;
	}
	s->pending = 0;
}

/* A span starts (+1) or ends (-1) at t; the moments come in time order. */
static void count(sweep *s, double t, int change)
{
	if (s->pending && t != s->t)
		record(s);
	s->t = t;
	s->pending = 1;
	s->inside += change;
}

/*
 * Spans ending before t cannot grow again (every later bar starts at t or later): their ends are
 * counted, in time order. A span that grew since it was put in the heap goes back with its own end.
 */
static void close_spans_before(sweep *s, double t)
{
	while (s->heap_count && s->heap[0].end < t) {
		open_span top = heap_pop(s);
		if (s->covered_to[top.rank] > top.end) {
			heap_push(s, s->covered_to[top.rank], top.rank);
			continue;
		}
		s->open[top.rank] = 0;
		count(s, top.end, -1);
	}
}

/*
 * Occupancy: how many ranks are inside a bar of each role over time. A role's bars, in time
 * order (e: grouped by role), are merged per rank as they come (a bar joins its rank's span when
 * it starts no later than the span's end); a span is over once a bar starts past its end, when
 * its end is counted. Ends are met in time order from the heap, starts from the bars: no sort of
 * either, where each was a sort of every span (six radix passes, or a merge pass per rank).
 */
static int occupancy(rli_stats *stats, const stats_input *in, const stats_entry *e)
{
	const rli_events *ev = in->events;
	sweep s = { .stats = stats };
	size_t ranks = in->rank_count ? in->rank_count : 1;
	int error = RLI_OK;

	s.covered_to = malloc(ranks * sizeof(*s.covered_to));
	s.open = calloc(ranks, sizeof(*s.open));
	s.heap = malloc(ranks * sizeof(*s.heap)); /* a rank at most once */
	stats->occupancy = calloc(in->role_count ? in->role_count : 1, sizeof(*stats->occupancy));
	/* A span at most a bar, two points at most a span; only the points made are touched. */
	stats->occupancy_points = rli_bigmem_array(2 * in->count, sizeof(*stats->occupancy_points));
	if (!s.covered_to || !s.open || !s.heap || !stats->occupancy || !stats->occupancy_points) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		uint32_t role = (uint32_t)e[begin].group;
		end = stats_group_end(e, in->count, begin);
		s.o = &stats->occupancy[stats->occupancy_count++];
		*s.o = (rli_role_occupancy){ in->roles[role], stats->occupancy_point_count, 0, 0, 0 };
		s.inside = 0;
		s.pending = 0;
		for (size_t k = begin; k < end; k++) {
			size_t i = e[k].row, row = in->rows[i];
			double start = ev->start_ms[row], bar_end = rli_events_end_ms(ev, row);
			uint32_t rank = in->rank_ix[i];
			close_spans_before(&s, start);
			if (s.open[rank]) {
				if (bar_end > s.covered_to[rank])
					s.covered_to[rank] = bar_end;
			} else {
				s.open[rank] = 1;
				s.covered_to[rank] = bar_end;
				heap_push(&s, bar_end, rank);
				count(&s, start, +1);
			}
		}
		close_spans_before(&s, INFINITY); /* the role's last spans */
		record(&s);
	}
done:
	free(s.covered_to);
	free(s.open);
	free(s.heap);
	return error;
}

int stats_overlap(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = in->entries;
	int error;
	/*
	 * The rows grouped by role, in time order, serve both: the roles' spans are merged from them
	 * into the sort's other buffer, which is then free (no fresh memory for them, 16 bytes a
	 * row, whose first touch was a third of the statistics' time on a million NVTX ranges), and
	 * the occupancy sweeps them.
	 */
	_Static_assert(sizeof(span) <= sizeof(stats_entry), "a span fits in the room of an entry");
	for (size_t i = 0; i < in->count; i++)
		e[i] = (stats_entry){ .group = in->role_ix[i], .row = (uint32_t)i };
	e = stats_sort_groups(e, in->count, in->sort_tmp);
	if ((error = role_overlaps(stats, in, e, (span *)(void *)stats_other_entries(in, e))) == RLI_OK)
		error = occupancy(stats, in, e);
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

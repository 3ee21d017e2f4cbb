/* bubbles.c: idle time per rank (the gaps between its bars) and the wait at each change of role. */
#include "stats_internal.h"
#include "common/error.h"

#include <stdlib.h>

/* Keeps the gap if it is among the rank's longest (longest first; an equal later gap does not displace). */
static void keep_longest(rli_rank_bubbles *b, const rli_gap *gap)
{
	size_t at = b->longest_count;
	while (at > 0 && b->longest[at - 1].duration_ms < gap->duration_ms)
		at--;
	if (at == RLI_STATS_LONGEST_GAPS)
		return;
	if (b->longest_count < RLI_STATS_LONGEST_GAPS)
		b->longest_count++;
	for (size_t i = b->longest_count - 1; i > at; i--)
		b->longest[i] = b->longest[i - 1];
	b->longest[at] = *gap;
}

/*
 * One rank's bars in time order, e[begin..end) (entry.row: the counted row's index): its gaps
 * (overlapping bars merged first), and its changes of role: the wait from the end of what the
 * rank was busy with (the bar that reached furthest) to the start of a bar of another role, 0
 * when it starts before that end.
 */
static void rank_bubbles(rli_rank_bubbles *b, const stats_entry *e, size_t begin, size_t end, const stats_input *in,
			 stats_entry *waits, size_t *wait_count)
{
	const rli_events *ev = in->events;
	size_t furthest = e[begin].row; /* the counted row that ends latest so far */
	double covered_to = rli_events_end_ms(ev, in->rows[furthest]);

	*b = (rli_rank_bubbles){ .rank = in->ranks[e[begin].rank] };
	for (size_t k = begin + 1; k < end; k++) {
		size_t i = e[k].row, row = in->rows[i], far_row = in->rows[furthest];
		double start = ev->start_ms[row], bar_end = rli_events_end_ms(ev, row);
		if (in->role_ix[i] != in->role_ix[furthest])
			waits[(*wait_count)++] = (stats_entry){ .group = stats_group(in->role_ix[furthest], in->role_ix[i]),
								.value = start > covered_to ? start - covered_to : 0,
								.row = (uint32_t)i, .rank = e[k].rank };
		if (start > covered_to) {
			rli_gap gap = { covered_to, start - covered_to, ev->name[far_row], ev->name[row] };
			b->gaps++;
			b->idle_ms += gap.duration_ms;
			keep_longest(b, &gap);
		}
		if (bar_end > covered_to) {
			covered_to = bar_end;
			furthest = i;
		}
	}
}

static int transitions(rli_stats *stats, const stats_input *in, stats_entry *waits, size_t n)
{
	size_t groups = 0;
	/* The entries, read by then, are the other buffer of this sort. */
	waits = stats_sort_groups(waits, n, stats_other_entries(in, waits));
	for (size_t i = 0; i < n; i++)
		groups += i == 0 || waits[i].group != waits[i - 1].group;
	if (!(stats->transitions = calloc(groups ? groups : 1, sizeof(*stats->transitions))))
		return rli_error_oom();
	for (size_t begin = 0, end; begin < n; begin = end) {
		rli_transition_stats *t = &stats->transitions[stats->transition_count++];
		end = stats_group_end(waits, n, begin);
		t->from_role = in->roles[waits[begin].group >> 32];
		t->to_role = in->roles[waits[begin].group & UINT32_MAX];
		stats_distribution(&t->wait, waits + begin, end - begin, in->ranks, in->scratch);
	}
	return RLI_OK;
}

int stats_bubbles(rli_stats *stats, const stats_input *in)
{
	const rli_events *ev = in->events;
	stats_entry *e = in->entries;
	/* A wait a row at most, written once the rows are sorted: into the sort's free buffer, no fresh memory (24 bytes a row). */
	stats_entry *waits;
	size_t wait_count = 0;
	int error = RLI_OK;

	if (!(stats->bubbles = calloc(in->rank_count ? in->rank_count : 1, sizeof(*stats->bubbles))))
		return rli_error_oom();
	for (size_t i = 0; i < in->count; i++)
		e[i] = (stats_entry){ .group = in->rank_ix[i], .value = ev->start_ms[in->rows[i]], .row = (uint32_t)i,
				      .rank = in->rank_ix[i] };
	e = stats_sort_groups(e, in->count, in->sort_tmp);
	waits = stats_other_entries(in, e);
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		end = stats_group_end(e, in->count, begin);
		rank_bubbles(&stats->bubbles[stats->bubble_count++], e, begin, end, in, waits, &wait_count);
	}
	error = transitions(stats, in, waits, wait_count);
	return error;
}

/* stats.c: computing the run's statistics once: the rows counted, names in order, the phases; the rest per file. */
#include "stats_internal.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *text;
	uint32_t id;
} named_id;

static int compare_names(const void *pa, const void *pb)
{
	const named_id *a = pa, *b = pb;
	int c = strcmp(a->text, b->text);
	return c ? c : a->id < b->id ? -1 : a->id > b->id;
}

/* Every string's position in name order, so groups sort by name with integer compares. */
static int order_names(stats_input *in)
{
	uint32_t n = in->events->strings.count;
	named_id *names = malloc((n ? n : 1) * sizeof(*names));
	in->name_rank = malloc((n ? n : 1) * sizeof(*in->name_rank));
	in->by_rank = malloc((n ? n : 1) * sizeof(*in->by_rank));
	if (!names || !in->name_rank || !in->by_rank) {
		free(names);
		return rli_error_oom();
	}
	for (uint32_t id = 0; id < n; id++)
		names[id] = (named_id){ rli_events_str(in->events, id), id };
	qsort(names, n, sizeof(*names), compare_names);
	for (uint32_t pos = 0; pos < n; pos++) {
		in->name_rank[names[pos].id] = pos;
		in->by_rank[pos] = names[pos].id;
	}
	free(names);
	return RLI_OK;
}

/* A bar is counted when its times are numbers and it does not end before it starts (it is drawn). */
static int pick_rows(rli_stats *stats, stats_input *in)
{
	const rli_events *ev = in->events;
	in->rows = malloc((ev->count ? ev->count : 1) * sizeof(*in->rows));
	if (!in->rows)
		return rli_error_oom();
	stats->start_ms = INFINITY;
	stats->end_ms = -INFINITY;
	for (size_t i = 0; i < ev->count; i++) {
		double start = ev->start_ms[i], duration = ev->duration_ms[i];
		if (!isfinite(start) || !isfinite(duration) || duration < 0) {
			stats->rows_left_out++;
			continue;
		}
		in->rows[in->count++] = i;
		if (start < stats->start_ms)
			stats->start_ms = start;
		if (start + duration > stats->end_ms)
			stats->end_ms = start + duration;
	}
	stats->rows_counted = in->count;
	if (in->count == 0)
		stats->start_ms = stats->end_ms = 0;
	return RLI_OK;
}

/* How many distinct values a sorted array holds. */
static size_t distinct_sorted(const stats_entry *e, size_t n, int by_rank)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || (by_rank ? e[i].rank != e[i - 1].rank : e[i].group != e[i - 1].group))
			count++;
	return count;
}

static int count_roles_and_ranks(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = malloc((in->count ? in->count : 1) * sizeof(*e));
	if (!e)
		return rli_error_oom();
	for (size_t i = 0; i < in->count; i++)
		e[i] = (stats_entry){ .group = in->name_rank[in->events->role[in->rows[i]]], .row = in->rows[i] };
	stats_sort_by_rank(e, in->count);
	stats->role_count = distinct_sorted(e, in->count, 0);
	for (size_t i = 0; i < in->count; i++)
		e[i] = (stats_entry){ .rank = in->events->rank_id[in->rows[i]], .row = in->rows[i] };
	stats_sort_by_rank(e, in->count);
	stats->rank_count = distinct_sorted(e, in->count, 1);
	free(e);
	return RLI_OK;
}

static int phase_stats(rli_stats *stats, const stats_input *in)
{
	const rli_events *ev = in->events;
	stats_entry *e = malloc((in->count ? in->count : 1) * sizeof(*e));
	size_t groups;
	if (!e)
		return rli_error_oom();
	for (size_t i = 0; i < in->count; i++) {
		size_t row = in->rows[i];
		e[i] = (stats_entry){ stats_group(in->name_rank[ev->role[row]], in->name_rank[ev->name[row]]),
				      ev->rank_id[row], ev->duration_ms[row], row };
	}
	stats_sort_by_value(e, in->count);
	groups = distinct_sorted(e, in->count, 0);
	if (!(stats->phases = calloc(groups ? groups : 1, sizeof(*stats->phases)))) {
		free(e);
		return rli_error_oom();
	}
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		rli_phase_stats *p = &stats->phases[stats->phase_count++];
		end = stats_group_end(e, in->count, begin);
		p->role = ev->role[e[begin].row];
		p->name = ev->name[e[begin].row];
		stats_distribution(&p->duration, e + begin, end - begin);
	}
	free(e);
	return RLI_OK;
}

int rli_stats_compute(rli_stats **out, const rli_events *events)
{
	rli_stats *stats = calloc(1, sizeof(*stats));
	stats_input in = { .events = events };
	int error;

	*out = NULL;
	if (!stats)
		return rli_error_oom();
	stats->events = events;
	if ((error = order_names(&in)) < 0 || (error = pick_rows(stats, &in)) < 0 ||
	    (error = count_roles_and_ranks(stats, &in)) < 0 || (error = phase_stats(stats, &in)) < 0 ||
	    (error = stats_steps(stats, &in)) < 0 || (error = stats_bubbles(stats, &in)) < 0 ||
	    (error = stats_overlap(stats, &in)) < 0)
		goto done;
	*out = stats;
	stats = NULL;
done:
	free(in.rows);
	free(in.name_rank);
	free(in.by_rank);
	rli_stats_free(stats);
	return error;
}

void rli_stats_free(rli_stats *stats)
{
	if (!stats)
		return;
	free(stats->phases);
	free(stats->steps);
	free(stats->slowest);
	free(stats->bubbles);
	free(stats->transitions);
	free(stats->overlaps);
	free(stats->occupancy);
	free(stats->occupancy_points);
	free(stats);
}

const rli_rank_slowest *rli_stats_straggler(const rli_stats *stats, uint32_t role)
{
	for (size_t i = 0; i < stats->slowest_count; i++)
		if (stats->slowest[i].role == role && stats->slowest[i].straggler)
			return &stats->slowest[i];
	return NULL;
}

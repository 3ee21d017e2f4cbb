/* steps.c: steps (the k-th bar of each rank of a role), the slowest rank of each, outliers and stragglers. */
#include "stats_internal.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>

#define MODIFIED_Z_OUTLIER 3.5
#define MODIFIED_Z_MAD 0.6745       /* the MAD's expected value over the standard deviation, normal data */
#define MODIFIED_Z_MEAN_AD 1.253314 /* sqrt(pi / 2): the same for the mean absolute deviation */

/* The modified z-score of x in the group (median given); NAN when the sample says nothing. scratch: 2n keys. */
static double modified_z(const stats_entry *group, size_t n, double median, double x, uint64_t *scratch)
{
	double mad, mean_ad = 0;
	if (n < 3)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double deviation = fabs(group[i].value - median);
		scratch[i] = stats_order_key(deviation);
		mean_ad += deviation;
	}
	mad = stats_median_of_keys(scratch, n, scratch + n);
	mean_ad /= (double)n;
	if (mad > 0)
		return MODIFIED_Z_MAD * (x - median) / mad;
	if (mean_ad > 0)
		return (x - median) / (MODIFIED_Z_MEAN_AD * mean_ad);
	return NAN;
}

/*
 * Entries grouped by (role, step), each group in rank order: the rows are grouped by (role,
 * rank) in time order first, numbering each bar's step, then regrouped by (role, step).
 */
static stats_entry *step_entries(const stats_input *in, size_t *max_steps)
{
	const rli_events *ev = in->events;
	stats_entry *e = in->entries;
	for (size_t i = 0; i < in->count; i++) {
		size_t row = in->rows[i];
		e[i] = (stats_entry){ .group = stats_group(in->role_ix[i], in->rank_ix[i]), .value = ev->duration_ms[row],
				      .row = (uint32_t)row, .rank = in->rank_ix[i] };
	}
	e = stats_sort_groups(e, in->count, in->sort_tmp);
	*max_steps = 0;
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		uint32_t role = (uint32_t)(e[begin].group >> 32);
		end = stats_group_end(e, in->count, begin);
		if (end - begin > *max_steps)
			*max_steps = end - begin;
		for (size_t i = begin; i < end; i++) {
			size_t k = i - begin + 1;
			e[i].group = stats_group(role, (uint32_t)(k > UINT32_MAX ? UINT32_MAX : k));
		}
	}
	return stats_sort_groups(e, in->count, stats_other_entries(in, e));
}

/* A step of its role: the median over ranks, the slowest (lowest rank among equals), its score. */
static void one_step(rli_step_stats *s, const stats_entry *group, size_t n, const stats_input *in)
{
	size_t slowest = 0;
	uint64_t *keys = (uint64_t *)(void *)in->scratch;
	for (size_t i = 0; i < n; i++) {
		keys[i] = stats_order_key(group[i].value);
		if (group[i].value > group[slowest].value ||
		    (group[i].value == group[slowest].value && group[i].rank < group[slowest].rank))
			slowest = i;
	}
	s->role = in->events->role[group[0].row];
	s->step = (size_t)(group[0].group & UINT32_MAX);
	s->ranks = n;
	s->median_ms = stats_median_of_keys(keys, n, keys + n);
	s->slowest_rank = in->ranks[group[slowest].rank];
	s->slowest_ms = group[slowest].value;
	s->slowdown = s->median_ms > 0 ? s->slowest_ms / s->median_ms - 1 : 0;
	s->modified_z = modified_z(group, n, s->median_ms, s->slowest_ms, keys);
	s->outlier = !isnan(s->modified_z) && s->modified_z > MODIFIED_Z_OUTLIER;
}

/* Binary search: the index of a rank id among the sorted distinct ranks. */
static uint32_t rank_index(const stats_input *in, int64_t rank)
{
	size_t lo = 0, hi = in->rank_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (in->ranks[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* How often each rank was the slowest of its role (and an outlier); the straggler rule. */
static int tally_slowest(rli_stats *stats, const stats_input *in, const uint32_t *step_role_ix)
{
	size_t n = stats->step_count;
	stats_entry *e = in->entries, *tmp = in->sort_tmp; /* steps are fewer than rows */
	/* Backwards, so each step knows its role's step count (a role's steps are contiguous, the last highest). */
	for (size_t i = n, role_steps = 0; i-- > 0;) {
		const rli_step_stats *s = &stats->steps[i];
		uint32_t rank = rank_index(in, s->slowest_rank);
		if (i + 1 == n || stats->steps[i + 1].role != s->role)
			role_steps = s->step;
		e[i] = (stats_entry){ .group = stats_group(step_role_ix[i], rank), .value = (double)role_steps,
				      .row = (uint32_t)i, .rank = rank };
	}
	e = stats_sort_groups(e, n, tmp);
	if (!(stats->slowest = rli_bigmem_zeroed(n, sizeof(*stats->slowest))))
		return rli_error_oom();
	for (size_t i = 0; i < n; i++) {
		const rli_step_stats *s = &stats->steps[e[i].row];
		rli_rank_slowest *r;
		if (i == 0 || e[i].group != e[i - 1].group)
			stats->slowest[stats->slowest_count++] =
				(rli_rank_slowest){ s->role, s->slowest_rank, 0, 0, (size_t)e[i].value, 0 };
		r = &stats->slowest[stats->slowest_count - 1];
		r->slowest++;
		r->outlier += s->outlier != 0;
		r->straggler = 2 * r->slowest > r->steps && 2 * r->outlier > r->steps;
	}
	return RLI_OK;
}

/* Each role's typical step: the median of its steps' medians (the steps of a role are contiguous, roles in index order). */
static int role_step_times(rli_stats *stats, const stats_input *in)
{
	uint64_t *keys = (uint64_t *)(void *)in->scratch; /* 2 x rows doubles; steps are fewer than rows */
	size_t role = 0;
	if (!(stats->role_step_ms = calloc(in->role_count ? in->role_count : 1, sizeof(*stats->role_step_ms))))
		return rli_error_oom();
	for (size_t begin = 0, end; begin < stats->step_count && role < in->role_count; begin = end, role++) {
		for (end = begin; end < stats->step_count && stats->steps[end].role == stats->steps[begin].role; end++)
			keys[end - begin] = stats_order_key(stats->steps[end].median_ms);
		stats->role_step_ms[role] = stats_median_of_keys(keys, end - begin, keys + (end - begin));
	}
	return RLI_OK;
}

/*
 * From the entries grouped by (role, step), ranks ascending in each group: the run's step time
 * (the median span of the k-th bars of every role) and each role's ranks (those with a first bar,
 * which is every rank of the role).
 */
static int spans_and_ranks(rli_stats *stats, const stats_input *in, const stats_entry *e)
{
	const rli_events *ev = in->events;
	size_t steps = stats->max_steps, ranks = 0;
	/* In the scratch (2 x rows doubles; steps are no more than rows), free until role_step_times. */
	double *first = in->scratch, *last = first + steps;
	int error = RLI_OK;

	stats->role_rank_first = calloc(in->role_count + 1, sizeof(*stats->role_rank_first));
	for (size_t i = 0; i < in->count; i++)
		ranks += (e[i].group & UINT32_MAX) == 1;
	stats->role_rank_ids = malloc((ranks ? ranks : 1) * sizeof(*stats->role_rank_ids));
	if (!stats->role_rank_first || !stats->role_rank_ids)
		return rli_error_oom();
	for (size_t k = 0; k < steps; k++) {
		first[k] = INFINITY;
		last[k] = -INFINITY;
	}
	ranks = 0;
	for (size_t i = 0; i < in->count; i++) {
		size_t k = (size_t)(e[i].group & UINT32_MAX) - 1, row = e[i].row;
		double start = ev->start_ms[row], end = start + ev->duration_ms[row];
		if (k == 0) {
			stats->role_rank_first[(e[i].group >> 32) + 1]++;
			stats->role_rank_ids[ranks++] = in->ranks[e[i].rank];
		}
		if (start < first[k])
			first[k] = start;
		if (end > last[k])
			last[k] = end;
	}
	for (size_t r = 0; r < in->role_count; r++)
		stats->role_rank_first[r + 1] += stats->role_rank_first[r];
	{
		/* Each span's key over its first bar's start: the scratch is allocated storage, read before it is written. */
		uint64_t *spans = (uint64_t *)(void *)first;
		for (size_t k = 0; k < steps; k++)
			spans[k] = stats_order_key(last[k] - first[k]);
		stats->step_ms = stats_median_of_keys(spans, steps, (uint64_t *)(void *)last);
	}
	error = role_step_times(stats, in);
	return error;
}

int stats_steps(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = step_entries(in, &stats->max_steps);
	uint32_t *step_role_ix = NULL;
	size_t groups = 0;
	int error;

	for (size_t i = 0; i < in->count; i++)
		groups += i == 0 || e[i].group != e[i - 1].group;
	stats->steps = rli_bigmem_zeroed(groups, sizeof(*stats->steps));
	step_role_ix = rli_bigmem_array(groups, sizeof(*step_role_ix));
	if (!stats->steps || !step_role_ix) {
		error = rli_error_oom();
		goto done;
	}
	/* Groups come in role order, then step order: the steps of a role are contiguous. */
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		end = stats_group_end(e, in->count, begin);
		step_role_ix[stats->step_count] = (uint32_t)(e[begin].group >> 32);
		one_step(&stats->steps[stats->step_count++], e + begin, end - begin, in);
	}
	/* Before the tally, which reuses the entries as scratch. */
	if ((error = spans_and_ranks(stats, in, e)) < 0)
		goto done;
	error = tally_slowest(stats, in, step_role_ix);
done:
	rli_bigmem_free(step_role_ix);
	return error;
}

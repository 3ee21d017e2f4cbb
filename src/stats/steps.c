/* steps.c: steps (the k-th bar of each rank of a role), the slowest rank of each, outliers and stragglers. */
#include "stats_internal.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>

#define MODIFIED_Z_OUTLIER 3.5
#define MODIFIED_Z_MAD 0.6745      /* the MAD's expected value over the standard deviation, normal data */
#define MODIFIED_Z_MEAN_AD 1.253314 /* sqrt(pi / 2): the same for the mean absolute deviation */

static int compare_doubles(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a < b ? -1 : a > b;
}

/* The slowest value's modified z-score against its sample; NAN when the sample says nothing. */
static double modified_z(const stats_entry *sorted, size_t n, double median, double x, double *scratch)
{
	double mad, mean_ad = 0;
	if (n < 3)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		scratch[i] = fabs(sorted[i].value - median);
		mean_ad += scratch[i];
	}
	qsort(scratch, n, sizeof(*scratch), compare_doubles);
	mad = stats_quantile(scratch, n, 0.5);
	mean_ad /= (double)n;
	if (mad > 0)
		return MODIFIED_Z_MAD * (x - median) / mad;
	if (mean_ad > 0)
		return (x - median) / (MODIFIED_Z_MEAN_AD * mean_ad);
	return NAN;
}

/* Numbers each counted row by its place among the bars of its (role, rank) in time order. */
static stats_entry *step_entries(const stats_input *in, size_t *max_steps)
{
	const rli_events *ev = in->events;
	stats_entry *e = malloc((in->count ? in->count : 1) * sizeof(*e));
	if (!e)
		return NULL;
	for (size_t i = 0; i < in->count; i++) {
		size_t row = in->rows[i];
		e[i] = (stats_entry){ in->name_rank[ev->role[row]], ev->rank_id[row], ev->start_ms[row], row };
	}
	stats_sort_by_rank(e, in->count);
	*max_steps = 0;
	for (size_t i = 0, k = 0; i < in->count; i++) {
		/* e[i - 1] is renumbered already: its role is the high half now, its rank unchanged */
		k = i > 0 && e[i].group == e[i - 1].group >> 32 && e[i].rank == e[i - 1].rank ? k + 1 : 1;
		if (k > *max_steps)
			*max_steps = k;
		/* Now grouped by role and step, valued by duration. */
		e[i].group = stats_group((uint32_t)e[i].group, (uint32_t)(k > UINT32_MAX ? UINT32_MAX : k));
		e[i].value = ev->duration_ms[e[i].row];
	}
	stats_sort_by_value(e, in->count);
	return e;
}

static int tally_slowest(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = malloc((stats->step_count ? stats->step_count : 1) * sizeof(*e));
	if (!e)
		return rli_error_oom();
	/* Backwards, so each step knows its role's step count (a role's steps are contiguous, the last highest). */
	for (size_t i = stats->step_count, role_steps = 0; i-- > 0;) {
		const rli_step_stats *s = &stats->steps[i];
		if (i + 1 == stats->step_count || stats->steps[i + 1].role != s->role)
			role_steps = s->step;
		e[i] = (stats_entry){ in->name_rank[s->role], s->slowest_rank, (double)role_steps, i };
	}
	stats_sort_by_rank(e, stats->step_count);
	if (!(stats->slowest = calloc(stats->step_count ? stats->step_count : 1, sizeof(*stats->slowest)))) {
		free(e);
		return rli_error_oom();
	}
	for (size_t i = 0; i < stats->step_count; i++) {
		const rli_step_stats *s = &stats->steps[e[i].row];
		rli_rank_slowest *r;
		if (i == 0 || e[i].group != e[i - 1].group || e[i].rank != e[i - 1].rank)
			stats->slowest[stats->slowest_count++] = (rli_rank_slowest){ s->role, s->slowest_rank, 0, 0,
										     (size_t)e[i].value, 0 };
		r = &stats->slowest[stats->slowest_count - 1];
		r->slowest++;
		r->outlier += s->outlier != 0;
		r->straggler = 2 * r->slowest > r->steps && 2 * r->outlier > r->steps;
	}
	free(e);
	return RLI_OK;
}

int stats_steps(rli_stats *stats, const stats_input *in)
{
	stats_entry *e = step_entries(in, &stats->max_steps);
	double *scratch = malloc((in->count ? in->count : 1) * sizeof(*scratch));
	size_t groups = 0;
	int error = RLI_OK;

	if (!e || !scratch) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < in->count; i++)
		groups += i == 0 || e[i].group != e[i - 1].group;
	if (!(stats->steps = calloc(groups ? groups : 1, sizeof(*stats->steps)))) {
		error = rli_error_oom();
		goto done;
	}
	/* Groups come in role order, then step order: the steps of a role are contiguous. */
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		rli_step_stats *s = &stats->steps[stats->step_count++];
		size_t n, first_max;
		end = stats_group_end(e, in->count, begin);
		n = end - begin;
		first_max = end - 1;
		while (first_max > begin && e[first_max - 1].value == e[end - 1].value)
			first_max--;
		s->role = in->events->role[e[begin].row];
		s->step = (size_t)(e[begin].group & UINT32_MAX);
		s->ranks = n;
		s->median_ms = n % 2 ? e[begin + n / 2].value : (e[begin + n / 2 - 1].value + e[begin + n / 2].value) / 2;
		s->slowest_rank = e[first_max].rank;
		s->slowest_ms = e[first_max].value;
		s->slowdown = s->median_ms > 0 ? s->slowest_ms / s->median_ms - 1 : 0;
		s->modified_z = modified_z(e + begin, n, s->median_ms, s->slowest_ms, scratch);
		s->outlier = !isnan(s->modified_z) && s->modified_z > MODIFIED_Z_OUTLIER;
	}
	error = tally_slowest(stats, in);
done:
	free(e);
	free(scratch);
	return error;
}

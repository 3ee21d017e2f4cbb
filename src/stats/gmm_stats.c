/* gmm_stats.c: the expert load's statistics from the heatmap's matrix: per layer and step, then across steps, then the finding. */
#include "gmm_stats.h"
#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The statistics of one layer from its per-expert sums (NaN: no expert had a load). */
static void describe(rli_gmm_layer_stats *l, const double *sums, size_t experts)
{
	size_t n = 0;
	double var = 0.0;
	l->total = 0.0;
	l->max = -INFINITY;
	l->min = INFINITY;
	for (size_t e = 0; e < experts; e++) {
		if (isnan(sums[e]))
			continue;
		n++;
		l->total += sums[e];
		if (sums[e] > l->max) {
			l->max = sums[e];
			l->hottest = (uint32_t)e;
		}
		if (sums[e] < l->min) {
			l->min = sums[e];
			l->coldest = (uint32_t)e;
		}
	}
	l->mean = n ? l->total / (double)n : NAN;
	for (size_t e = 0; e < experts; e++)
		if (!isnan(sums[e]))
			var += (sums[e] - l->mean) * (sums[e] - l->mean);
	l->imbalance = n && l->mean > 0 ? l->max / l->mean : NAN;
	l->cv = n && l->mean > 0 ? sqrt(var / (double)n) / l->mean : NAN;
}

/* Layer entries by role, layer, step: each (role, layer) across the steps is a run. */
static int by_role_layer_step(const void *pa, const void *pb)
{
	const rli_gmm_layer_stats *a = *(const rli_gmm_layer_stats *const *)pa, *b = *(const rli_gmm_layer_stats *const *)pb;
	int c = strcmp(a->role, b->role);
	if (c)
		return c;
	if (a->layer != b->layer)
		return a->layer < b->layer ? -1 : 1;
	return (a->step > b->step) - (a->step < b->step);
}

static int by_heat(const void *pa, const void *pb)
{
	const rli_gmm_hot_expert *a = pa, *b = pb;
	int c;
	if (a->hot_steps != b->hot_steps)
		return a->hot_steps > b->hot_steps ? -1 : 1;
	if (a->ratio != b->ratio)
		return a->ratio > b->ratio ? -1 : 1;
	if ((c = strcmp(a->role, b->role)))
		return c;
	return (a->layer > b->layer) - (a->layer < b->layer);
}

/* For each (role, layer): the expert hottest in the most steps, and by how much. */
static int find_hot(rli_gmm_stats *s, size_t experts)
{
	size_t n = s->layer_count;
	const rli_gmm_layer_stats **order = malloc((n ? n : 1) * sizeof(*order));
	size_t *votes = calloc(experts, sizeof(*votes));
	int error = RLI_OK;
	if (!order || !votes || !(s->hot = calloc(n ? n : 1, sizeof(*s->hot)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = &s->layers[i];
	qsort(order, n, sizeof(*order), by_role_layer_step);
	for (size_t i = 0; i < n;) {
		const rli_gmm_layer_stats *first = order[i];
		size_t end = i, best = 0;
		double ratio = 0.0;
		while (end < n && strcmp(order[end]->role, first->role) == 0 &&
		       order[end]->layer == first->layer)
			end++;
		memset(votes, 0, experts * sizeof(*votes));
		for (size_t k = i; k < end; k++)
			votes[order[k]->hottest]++;
		for (size_t e = 1; e < experts; e++)
			best = votes[e] > votes[best] ? e : best;
		for (size_t k = i; k < end; k++) {
			const rli_gmm_layer_stats *l = order[k];
			if (l->hottest == best && !isnan(l->imbalance))
				ratio += l->imbalance;
		}
		s->hot[s->hot_count++] = (rli_gmm_hot_expert){ .role = first->role, .layer = first->layer,
							       .expert = (uint32_t)best, .hot_steps = votes[best],
							       .steps = end - i,
							       .ratio = votes[best] ? ratio / (double)votes[best] : NAN };
		i = end;
	}
	qsort(s->hot, s->hot_count, sizeof(*s->hot), by_heat);
done:
	free(order);
	free(votes);
	return error;
}

/* The finding: the expert that stays hottest the most steps, with its ratio; one step: the worst imbalance. */
static void write_finding(rli_gmm_stats *s)
{
	const rli_gmm_hot_expert *h = s->hot_count ? &s->hot[0] : NULL;
	if (!h || isnan(h->ratio)) {
		snprintf(s->finding, sizeof(s->finding), "the experts' load is even: no layer has an expert above its mean");
		return;
	}
	if (h->steps > 1)
		snprintf(s->finding, sizeof(s->finding), "layer %u of %s: expert %u took %.1fx the mean load in %zu of %zu steps",
			 h->layer, h->role, h->expert, h->ratio, h->hot_steps, h->steps);
	else {
		const rli_gmm_layer_stats *w = &s->layers[s->worst];
		snprintf(s->finding, sizeof(s->finding), "layer %u of %s: expert %u took %.1fx the mean load (step %lld)",
			 w->layer, w->role, w->hottest, w->imbalance, (long long)w->step);
	}
}

int rli_gmm_stats_compute(rli_gmm_stats **out, const rli_gmm_matrix *m)
{
	rli_gmm_stats *s = calloc(1, sizeof(*s));
	rli_gmm_matrix *merged = NULL;
	int error;

	*out = NULL;
	if (!s)
		return rli_error_oom();
	s->experts = m->experts;
	s->rows = m->rows;
	s->ranks = m->ranks;
	s->min_load = m->min;
	s->max_load = m->max;
	/* A layer of a step and role is a row of the ranks merged: its loads summed over the ranks. */
	if ((error = rli_gmm_matrix_merge_ranks(&merged, m)) < 0 ||
	    !(s->layers = calloc(merged->rows ? merged->rows : 1, sizeof(*s->layers)))) {
		error = error < 0 ? error : rli_error_oom();
		goto done;
	}
	s->layer_count = merged->rows;
	for (size_t r = 0; r < merged->rows; r++) {
		const rli_gmm_segment *g = &merged->segments[merged->row_segment[r]];
		rli_gmm_layer_stats *l = &s->layers[r];
		*l = (rli_gmm_layer_stats){ .step = g->step, .role = g->role, .layer = merged->layer[r],
					    .ranks = merged->summed[r] };
		describe(l, merged->cells + r * merged->experts, merged->experts);
		if (r > 0 && (l->imbalance > s->layers[s->worst].imbalance || isnan(s->layers[s->worst].imbalance)))
			s->worst = r;
	}
	for (size_t i = 0; i < merged->segment_count; i++) {
		int new_step = 1, new_role = 1;
		for (size_t k = 0; k < i && (new_step || new_role); k++) {
			new_step &= merged->segments[k].step != merged->segments[i].step;
			new_role &= strcmp(merged->segments[k].role, merged->segments[i].role) != 0;
		}
		s->steps += new_step;
		s->roles += new_role;
	}
	if ((error = find_hot(s, m->experts)) < 0)
		goto done;
	write_finding(s);
	*out = s;
	s = NULL;
done:
	rli_gmm_matrix_free(merged);
	rli_gmm_stats_free(s);
	return error;
}

void rli_gmm_stats_free(rli_gmm_stats *s)
{
	if (!s)
		return;
	free(s->layers);
	free(s->hot);
	free(s);
}

/* side_gmm.c: a side's expert-load part: each (role, merged layer) across the steps, from the run's statistics. */
#include "side.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_role_layer(const void *pa, const void *pb)
{
	const rli_gmm_layer_stats *a = *(const rli_gmm_layer_stats *const *)pa, *b = *(const rli_gmm_layer_stats *const *)pb;
	int c = strcmp(a->role, b->role);
	if (c)
		return c;
	if (a->layer != b->layer)
		return a->layer < b->layer ? -1 : 1;
	return (a->step > b->step) - (a->step < b->step);
}

/* The expert hottest in the most steps of (role, layer), as the statistics found it. */
static uint32_t hottest(const rli_gmm_stats *s, const char *role, uint32_t layer)
{
	for (size_t i = 0; i < s->hot_count; i++)
		if (s->hot[i].layer == layer && strcmp(s->hot[i].role, role) == 0)
			return s->hot[i].expert;
	return 0;
}

int rli_compare_side_add_gmm(rli_compare_side *side, const rli_gmm_stats *s)
{
	size_t n = s->layer_count;
	const rli_gmm_layer_stats **order = malloc((n ? n : 1) * sizeof(*order));
	int error = RLI_OK;

	if (!order || !(side->gmm_layers = calloc(n ? n : 1, sizeof(*side->gmm_layers)))) {
		free(order);
		return rli_error_oom();
	}
	side->has_gmm = 1;
	for (size_t i = 0; i < n; i++)
		order[i] = &s->layers[i];
	qsort(order, n, sizeof(*order), by_role_layer);
	for (size_t i = 0; i < n;) {
		size_t end = i, counted = 0;
		double imbalance = 0.0, cv = 0.0;
		rli_side_gmm_layer *out = &side->gmm_layers[side->gmm_layer_count];
		while (end < n && order[end]->layer == order[i]->layer && strcmp(order[end]->role, order[i]->role) == 0) {
			if (!isnan(order[end]->imbalance)) {
				imbalance += order[end]->imbalance;
				cv += order[end]->cv;
				counted++;
			}
			end++;
		}
		if (!(out->role = rli_side_text(side, order[i]->role, strlen(order[i]->role)))) {
			error = rli_error_oom();
			break;
		}
		out->layer = order[i]->layer;
		out->steps = end - i;
		out->imbalance = counted ? imbalance / (double)counted : NAN;
		out->cv = counted ? cv / (double)counted : NAN;
		out->hottest = hottest(s, order[i]->role, order[i]->layer);
		side->gmm_layer_count++;
		i = end;
	}
	free(order);
	return error;
}

/* compare_gmm.c: the expert load of two runs: each (role, merged layer) in either, its imbalance on each side. */
#include "compare.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int layer_cmp(const rli_side_gmm_layer *a, const rli_side_gmm_layer *b)
{
	int c = strcmp(a->role, b->role);
	if (c)
		return c;
	return (a->layer > b->layer) - (a->layer < b->layer);
}

int rli_compare_gmm(rli_comparison *c)
{
	const rli_compare_side *b = c->baseline, *k = c->current;
	size_t i = 0, j = 0;
	double most = -1.0;

	if (!(c->gmm_layers = calloc(b->gmm_layer_count + k->gmm_layer_count + 1, sizeof(*c->gmm_layers))))
		return rli_error_oom();
	c->gmm_most_changed = SIZE_MAX;
	/* Both lists are by (role, layer): one merge pass. */
	while (i < b->gmm_layer_count || j < k->gmm_layer_count) {
		const rli_side_gmm_layer *x = i < b->gmm_layer_count ? &b->gmm_layers[i] : NULL;
		const rli_side_gmm_layer *y = j < k->gmm_layer_count ? &k->gmm_layers[j] : NULL;
		int order = !x ? 1 : !y ? -1 : layer_cmp(x, y);
		rli_gmm_change *out = &c->gmm_layers[c->gmm_layer_count++];
		const rli_side_gmm_layer *named = order <= 0 ? x : y;
		*out = (rli_gmm_change){ .role = named->role, .layer = named->layer,
					 .presence = order == 0 ? RLI_IN_BOTH : order < 0 ? RLI_REMOVED : RLI_ADDED,
					 .baseline_imbalance = order <= 0 ? x->imbalance : NAN,
					 .current_imbalance = order >= 0 ? y->imbalance : NAN,
					 .baseline_hottest = order <= 0 ? x->hottest : 0,
					 .current_hottest = order >= 0 ? y->hottest : 0 };
		out->change = out->current_imbalance - out->baseline_imbalance;
		if (order == 0 && !isnan(out->change) && fabs(out->change) > most) {
			most = fabs(out->change);
			c->gmm_most_changed = c->gmm_layer_count - 1;
		}
		i += order <= 0;
		j += order >= 0;
	}
	if (c->gmm_most_changed == SIZE_MAX)
		c->gmm_most_changed = c->gmm_layer_count;
	return RLI_OK;
}

/* trend_experts.c: the trend's expert-load panel: each role's MoE imbalance (the hottest expert's load over the mean) over the runs. */
#include "trend_parts.h"
#include "theme.h"
#include "common/error.h"
#include "common/grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A role panel's worth of lines: past it the roles after the first ones by name are left out, and said so. */
#define MAX_ROLE_LINES RLI_TREND_MAX_DEVICE_LINES

/* The roles with a MoE layer in some run, each once, by name. */
static int expert_roles(const rli_trend *t, const char ***out, size_t *count)
{
	const char **roles = NULL;
	size_t n = 0, capacity = 0;
	for (size_t k = 0; k < t->count; k++)
		for (size_t i = 0; i < t->points[k].side->gmm_layer_count; i++)
			if (trend_add_name(&roles, &n, &capacity, t->points[k].side->gmm_layers[i].role) < 0) {
				free(roles);
				return RLI_ERROR;
			}
	*out = roles;
	*count = n;
	return RLI_OK;
}

/*
 * Of a run's layers of `role`, each its imbalance averaged over the steps: their median (*value),
 * the least and the most imbalanced (*low, *high); NAN where the run has none. scratch: room for
 * every layer of the side.
 */
static void role_imbalance(const rli_compare_side *side, const char *role, double *scratch, double *value,
			   double *low, double *high)
{
	size_t c = 0;
	for (size_t i = 0; i < side->gmm_layer_count; i++)
		if (strcmp(side->gmm_layers[i].role, role) == 0 && isfinite(side->gmm_layers[i].imbalance))
			scratch[c++] = side->gmm_layers[i].imbalance;
	trend_median_range(scratch, c, value, low, high);
}

int trend_experts_panel(trend_page *page, const char *x_title)
{
	const rli_trend *t = page->trend;
	rli_panel *panel = &page->f->panels[page->panel_next];
	trend_marks *m = &page->f->marks[page->panel_next++];
	size_t n = t->count, role_count = 0, lines, most_layers = 1;
	const char **roles = NULL;
	double *values = NULL, *scratch = NULL, lo = INFINITY, hi = -INFINITY;
	trend_label labels[MAX_ROLE_LINES];
	rli_color colors[MAX_ROLE_LINES];
	char note[256];
	int error;

	if ((error = expert_roles(t, &roles, &role_count)) < 0)
		goto done;
	for (size_t k = 0; k < n; k++)
		if (t->points[k].side->gmm_layer_count > most_layers)
			most_layers = t->points[k].side->gmm_layer_count;
	lines = role_count < MAX_ROLE_LINES ? role_count : MAX_ROLE_LINES;
	/* Per drawn role three rows of n: each run's median, least and most imbalanced layer. */
	if (!(scratch = malloc(most_layers * sizeof(*scratch))) || !(values = malloc((lines ? 3 * lines : 1) * n * sizeof(*values)))) {
		error = rli_error_oom();
		goto done;
	}
	/* The axis holds every drawn role's medians, the band of one role too. */
	for (size_t r = 0; r < lines; r++)
		for (size_t k = 0; k < n; k++) {
			double *v = values + 3 * r * n;
			role_imbalance(t->points[k].side, roles[r], scratch, &v[k], &v[n + k], &v[2 * n + k]);
			if (isfinite(v[k])) {
				lo = fmin(lo, lines == 1 ? v[n + k] : v[k]);
				hi = fmax(hi, lines == 1 ? v[2 * n + k] : v[k]);
			}
		}
	if (!isfinite(lo))
		lo = hi = 1;
	trend_padded(&lo, &hi);
	if (lines == 1)
		snprintf(note, sizeof(note), "the median of its layers, each averaged over the steps (line); the least to the "
			 "most imbalanced layer (band)");
	else
		snprintf(note, sizeof(note), "per role the median of its layers, each averaged over the steps%s",
			 role_count > lines ? " (the first roles by name)" : "");
	if ((error = trend_title(page, "Expert imbalance: the hottest expert's load over the mean", note, TEXT_COLOR)) < 0 ||
	    (error = trend_value_axes(page, panel, page->y + 28, lo, hi)) < 0 ||
	    (error = rli_palette_assign(colors, roles, lines)) < 0)
		goto done;
	for (size_t r = 0; r < lines && error == RLI_OK; r++) {
		const double *value = values + 3 * r * n, *low = value + n, *high = low + n;
		size_t last = SIZE_MAX;
		for (size_t k = 0; k < n; k++)
			if (isfinite(value[k]))
				last = k;
		if ((error = trend_series_marks(m, value, lines == 1 ? low : NULL, lines == 1 ? high : NULL, n, colors[r],
						TREND_LINE_WIDTH)) < 0)
			break;
		for (size_t k = 0; k < n && error == RLI_OK; k++)
			if (isfinite(value[k]))
				error = trend_mark_point(m, (double)k, value[k], colors[r], k == t->current, 0);
		labels[r] = (trend_label){ .y = last == SIZE_MAX ? panel->plot.y : trend_page_y(panel, value[last]),
					   .color = colors[r] };
		snprintf(labels[r].text, sizeof(labels[r].text), "%s %.2fx", roles[r], last == SIZE_MAX ? 0.0 : value[last]);
	}
	if (error == RLI_OK)
		error = trend_direct_labels(page, panel, labels, lines);
	error = trend_panel_done(page, panel, m, x_title, error);
done:
	free(roles);
	free(scratch);
	free(values);
	return error;
}

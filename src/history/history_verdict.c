/* history_verdict.c: a run against the last runs: their phases' medians as one baseline, compared under the noise rule of --baseline. */
#include "history.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ascending(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* The median of the finite values of v[0 .. n) (sorted in place); NAN when none is. */
static double median(double *v, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[m++] = v[i];
	if (m == 0)
		return NAN;
	qsort(v, m, sizeof(*v), ascending);
	return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

/* The phase (role, name) of a side, by binary search over its sorted phases; NULL when it has none. */
static const rli_side_phase *find_phase(const rli_compare_side *side, const char *role, const char *name)
{
	size_t lo = 0, hi = side->phase_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(side->phases[mid].role, role);
		if (c == 0)
			c = strcmp(side->phases[mid].name, name);
		if (c == 0)
			return &side->phases[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * A phase of the window as one sample: each field the median of the runs' (their count, median,
 * quartiles: a typical run's distribution, so the noise rule weighs the change against the spread
 * of a typical run, as --baseline weighs it against last night's).
 */
static int add_median_phase(rli_compare_side *out, rli_compare_side *const *window, size_t count, const char *role,
			    const char *name, double *scratch)
{
	const rli_side_phase *found[256];
	size_t n = 0;
	rli_side_phase *p;
	for (size_t r = 0; r < count && n < sizeof(found) / sizeof(found[0]); r++)
		if ((found[n] = find_phase(window[r], role, name)) != NULL)
			n++;
	/* A phase most of the window lacks has no typical run to stand for. */
	if (n < RLI_HISTORY_MIN_RUNS)
		return RLI_OK;
	if (!(p = rli_side_add_phase(out)) || !(p->role = rli_side_text(out, role, strlen(role))) ||
	    !(p->name = rli_side_text(out, name, strlen(name))))
		return rli_error_oom();
	for (size_t i = 0; i < n; i++)
		scratch[i] = (double)found[i]->sample.count;
	p->sample.count = (size_t)floor(median(scratch, n));
#define SET_MEDIAN(field)                                  \
	do {                                               \
		for (size_t i = 0; i < n; i++)             \
			scratch[i] = found[i]->sample.field; \
		p->sample.field = median(scratch, n);      \
	} while (0)
	SET_MEDIAN(total_ms);
	SET_MEDIAN(mean_ms);
	SET_MEDIAN(median_ms);
	SET_MEDIAN(q1_ms);
	SET_MEDIAN(q3_ms);
	SET_MEDIAN(p95_ms);
#undef SET_MEDIAN
	return RLI_OK;
}

/* The window's typical run: each phase any of its runs has, as add_median_phase makes it. */
static int window_side(rli_compare_side **out, rli_compare_side *const *window, size_t count, const char *name)
{
	rli_compare_side *side = rli_side_new(name, window[count - 1]->profiler, RLI_SIDE_SUMMARY);
	double scratch[256];
	int error = RLI_OK;
	*out = NULL;
	if (!side)
		return rli_error_oom();
	side->has_timeline = 1;
	for (size_t r = 0; r < count && error == RLI_OK; r++)
		for (size_t i = 0; i < window[r]->phase_count && error == RLI_OK; i++) {
			const rli_side_phase *p = &window[r]->phases[i];
			int seen = 0;
			/* Each phase once: from the first run that has it. */
			for (size_t e = 0; e < r && !seen; e++)
				seen = find_phase(window[e], p->role, p->name) != NULL;
			if (!seen)
				error = add_median_phase(side, window, count, p->role, p->name, scratch);
		}
	if (error == RLI_OK)
		error = rli_side_finish(side);
	if (error < 0) {
		rli_compare_side_free(side);
		return error;
	}
	*out = side;
	return RLI_OK;
}

/* The run's phases alone: the window has nothing else to be compared with. */
static int phases_side(rli_compare_side **out, const rli_compare_side *current)
{
	rli_compare_side *side = rli_side_new(current->path, current->profiler, current->source);
	*out = NULL;
	if (!side)
		return rli_error_oom();
	side->has_timeline = 1;
	for (size_t i = 0; i < current->phase_count; i++) {
		const rli_side_phase *from = &current->phases[i];
		rli_side_phase *p = rli_side_add_phase(side);
		if (!p || !(p->role = rli_side_text(side, from->role, strlen(from->role))) ||
		    !(p->name = rli_side_text(side, from->name, strlen(from->name)))) {
			rli_compare_side_free(side);
			return rli_error_oom();
		}
		p->sample = from->sample;
	}
	rli_side_finish(side);
	*out = side;
	return RLI_OK;
}

int rli_history_compare(rli_history_verdict **out, rli_compare_side *const *window, size_t count,
			const rli_compare_side *current, double threshold, const char *name)
{
	rli_history_verdict *v;
	rli_compare_options options;
	int error;

	*out = NULL;
	if (count < RLI_HISTORY_MIN_RUNS)
		return RLI_OK;
	/* The window's medians are of at most this many runs (add_median_phase's room). */
	if (count > 256) {
		window += count - 256;
		count = 256;
	}
	if (!(v = calloc(1, sizeof(*v))))
		return rli_error_oom();
	v->runs = count;
	rli_compare_options_init(&options);
	options.threshold = threshold;
	if ((error = window_side(&v->baseline, window, count, name)) < 0 ||
	    (error = phases_side(&v->current, current)) < 0 ||
	    (error = rli_compare(&v->comparison, v->baseline, v->current, &options)) < 0) {
		rli_history_verdict_free(v);
		return error;
	}
	*out = v;
	return RLI_OK;
}

void rli_history_verdict_free(rli_history_verdict *v)
{
	if (!v)
		return;
	rli_comparison_free(v->comparison);
	rli_compare_side_free(v->baseline);
	rli_compare_side_free(v->current);
	free(v);
}

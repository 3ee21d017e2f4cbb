/* compare.c: the comparison of two sides, walked in step along their sorted lists (rules in compare.h). */
#include "compare.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rli_compare_options_init(rli_compare_options *options)
{
	options->threshold = 0;
}

const char *rli_presence_name(rli_presence presence)
{
	static const char *const names[] = { "both", "added", "removed" };
	return names[presence];
}

const char *rli_noise_name(rli_noise noise)
{
	static const char *const names[] = { "beyond noise", "within noise", "too few samples" };
	return names[noise];
}

const char *rli_verdict_name(rli_verdict verdict)
{
	static const char *const names[] = { "same", "regression", "improvement", "one side" };
	return names[verdict];
}

/*
 * Walks two sorted lists in step: calls back with (a, NULL) for what only the baseline has,
 * (NULL, b) for the current run's own, and both for a match. cmp orders two items.
 */
typedef int (*item_cmp)(const void *a, const void *b);
typedef int (*item_pair)(rli_comparison *c, const void *a, const void *b);

static int walk(rli_comparison *c, const void *as, size_t an, const void *bs, size_t bn, size_t size, item_cmp cmp,
		item_pair pair)
{
	size_t i = 0, j = 0;
	int error;
	while (i < an || j < bn) {
		const void *a = i < an ? (const char *)as + i * size : NULL;
		const void *b = j < bn ? (const char *)bs + j * size : NULL;
		int order = !a ? 1 : !b ? -1 : cmp(a, b);
		if ((error = pair(c, order <= 0 ? a : NULL, order >= 0 ? b : NULL)) < 0)
			return error;
		i += order <= 0;
		j += order >= 0;
	}
	return RLI_OK;
}

static rli_presence presence_of(const void *a, const void *b)
{
	return a && b ? RLI_IN_BOTH : b ? RLI_ADDED : RLI_REMOVED;
}

static int phase_cmp(const void *pa, const void *pb)
{
	const rli_side_phase *a = pa, *b = pb;
	int order = strcmp(a->role, b->role);
	return order ? order : strcmp(a->name, b->name);
}

/* Beyond the noise: enough samples, and a change larger than either side's spread. */
static rli_noise noise_of(const rli_side_sample *a, const rli_side_sample *b, double change)
{
	if (a->count < RLI_COMPARE_MIN_SAMPLES || b->count < RLI_COMPARE_MIN_SAMPLES)
		return RLI_NOISE_FEW;
	return fabs(change) > a->q3_ms - a->q1_ms && fabs(change) > b->q3_ms - b->q1_ms ? RLI_NOISE_BEYOND
											: RLI_NOISE_WITHIN;
}

/* One more change in a list, its verdict from the samples of either side (NULL: the side lacks it). */
static int add_change(rli_comparison *c, rli_phase_change **list, size_t *count, const char *role, const char *name,
		      const rli_side_sample *a, const rli_side_sample *b)
{
	rli_phase_change *p = &(*list)[(*count)++];
	*p = (rli_phase_change){ .role = role, .name = name, .presence = presence_of(a, b) };
	if (a)
		p->baseline = *a;
	if (b)
		p->current = *b;
	p->change_ms = p->current.median_ms - p->baseline.median_ms;
	p->ratio = p->baseline.median_ms != 0 ? p->current.median_ms / p->baseline.median_ms - 1 : NAN;
	if (!a || !b) {
		p->noise = RLI_NOISE_FEW;
		p->verdict = RLI_VERDICT_ONE_SIDE;
		return RLI_OK;
	}
	p->noise = noise_of(&p->baseline, &p->current, p->change_ms);
	if (p->noise == RLI_NOISE_BEYOND && isfinite(p->ratio) && fabs(p->ratio) > c->options.threshold) {
		p->verdict = p->change_ms > 0 ? RLI_VERDICT_REGRESSION : RLI_VERDICT_IMPROVEMENT;
		c->regressions += p->verdict == RLI_VERDICT_REGRESSION;
		c->improvements += p->verdict == RLI_VERDICT_IMPROVEMENT;
	}
	return RLI_OK;
}

static int pair_phase(rli_comparison *c, const void *pa, const void *pb)
{
	const rli_side_phase *a = pa, *b = pb;
	return add_change(c, &c->phases, &c->phase_count, (a ? a : b)->role, (a ? a : b)->name, a ? &a->sample : NULL,
			  b ? &b->sample : NULL);
}

static int rank_phase_cmp(const void *pa, const void *pb)
{
	const rli_side_rank_phase *a = pa, *b = pb;
	int order = strcmp(a->role, b->role);
	if (order || (order = strcmp(a->name, b->name)))
		return order;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

static int pair_rank_phase(rli_comparison *c, const void *pa, const void *pb)
{
	const rli_side_rank_phase *a = pa, *b = pb, *either = a ? a : b;
	int error = add_change(c, &c->rank_phases, &c->rank_phase_count, either->role, either->name,
			       a ? &a->sample : NULL, b ? &b->sample : NULL);
	if (error == RLI_OK) {
		c->rank_phases[c->rank_phase_count - 1].per_rank = 1;
		c->rank_phases[c->rank_phase_count - 1].rank = either->rank;
	}
	return error;
}

/* Appends the ranks of sorted list a that sorted list b lacks to the comparison's rank lists; returns how many. */
static size_t ranks_only_in(rli_comparison *c, const int64_t *a, size_t an, const int64_t *b, size_t bn)
{
	size_t j = 0, found = 0;
	for (size_t i = 0; i < an; i++) {
		while (j < bn && b[j] < a[i])
			j++;
		if (j < bn && b[j] == a[i])
			continue;
		c->rank_lists[c->rank_list_count++] = a[i];
		found++;
	}
	return found;
}

static int role_cmp(const void *a, const void *b)
{
	return strcmp(((const rli_side_role *)a)->role, ((const rli_side_role *)b)->role);
}

static double share(double part, double whole)
{
	return isfinite(part) && isfinite(whole) && whole > 0 ? part / whole : NAN;
}

static int pair_role(rli_comparison *c, const void *pa, const void *pb)
{
	const rli_side_role *a = pa, *b = pb;
	const int64_t *ar = a ? rli_side_role_ranks(c->baseline, a) : NULL, *br = b ? rli_side_role_ranks(c->current, b) : NULL;
	size_t an = a ? a->rank_count : 0, bn = b ? b->rank_count : 0;
	rli_role_change *r = &c->roles[c->role_count++];

	*r = (rli_role_change){ .role = (a ? a : b)->role, .presence = presence_of(a, b),
				.baseline_step_ms = a ? a->step_ms : NAN, .current_step_ms = b ? b->step_ms : NAN,
				.baseline_ranks = an, .current_ranks = bn };
	r->baseline_share = share(r->baseline_step_ms, c->baseline_step_ms);
	r->current_share = share(r->current_step_ms, c->current_step_ms);
	r->baseline_has_straggler = a && a->has_straggler;
	r->current_has_straggler = b && b->has_straggler;
	r->baseline_straggler = r->baseline_has_straggler ? a->straggler_rank : 0;
	r->current_straggler = r->current_has_straggler ? b->straggler_rank : 0;
	r->straggler_changed = a && b && (r->baseline_has_straggler != r->current_has_straggler ||
					  r->baseline_straggler != r->current_straggler);
	/* Ranks on one side only matter for a role both runs have; a whole role added or removed says it all. */
	if (a && b) {
		r->added = c->rank_lists + c->rank_list_count;
		r->ranks_added = ranks_only_in(c, br, bn, ar, an);
		r->removed = c->rank_lists + c->rank_list_count;
		r->ranks_removed = ranks_only_in(c, ar, an, br, bn);
	}
	return RLI_OK;
}

static int step_cmp(const void *pa, const void *pb)
{
	const rli_side_step *a = pa, *b = pb;
	int order = strcmp(a->role, b->role);
	return order ? order : (a->step > b->step) - (a->step < b->step);
}

static int pair_step(rli_comparison *c, const void *pa, const void *pb)
{
	const rli_side_step *a = pa, *b = pb;
	rli_step_change *k = &c->steps[c->step_count++];
	*k = (rli_step_change){ .role = (a ? a : b)->role, .step = (a ? a : b)->step, .presence = presence_of(a, b) };
	if (a) {
		k->baseline_median_ms = a->median_ms;
		k->baseline_slowest = a->slowest_rank;
	}
	if (b) {
		k->current_median_ms = b->median_ms;
		k->current_slowest = b->slowest_rank;
	}
	k->change_ms = a && b ? b->median_ms - a->median_ms : 0;
	k->slowest_changed = a && b && a->slowest_rank != b->slowest_rank;
	return RLI_OK;
}

static int transition_cmp(const void *pa, const void *pb)
{
	const rli_side_transition *a = pa, *b = pb;
	int order = strcmp(a->from, b->from);
	return order ? order : strcmp(a->to, b->to);
}

static int pair_transition(rli_comparison *c, const void *pa, const void *pb)
{
	const rli_side_transition *a = pa, *b = pb;
	rli_transition_change *t = &c->transitions[c->transition_count++];
	*t = (rli_transition_change){ .from = (a ? a : b)->from, .to = (a ? a : b)->to, .presence = presence_of(a, b) };
	if (a)
		t->baseline = a->wait;
	if (b)
		t->current = b->wait;
	t->change_ms = t->current.total_ms - t->baseline.total_ms;
	return RLI_OK;
}

static int device_cmp(const void *pa, const void *pb)
{
	const rli_side_device *a = pa, *b = pb;
	int order = strcmp(a->role, b->role);
	if (order)
		return order;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->device_type, b->device_type);
}

static double site_change(const rli_site_change *s)
{
	double allocated = fabs(s->current_allocated_kb - s->baseline_allocated_kb);
	double live = fabs(s->current_live_kb - s->baseline_live_kb);
	return allocated > live ? allocated : live;
}

/* The largest change first, then by text. */
static int larger_site_change(const void *pa, const void *pb)
{
	const rli_site_change *a = pa, *b = pb;
	double x = site_change(a), y = site_change(b);
	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->text, b->text);
}

/* The sites of a device both runs have, aligned by text; a site a summary did not list is left out. */
static int pair_sites(rli_comparison *c, rli_device_change *d, const rli_side_device *a, const rli_side_device *b)
{
	const rli_side_site *as = a->site_count ? c->baseline->sites + a->first_site : NULL;
	const rli_side_site *bs = b->site_count ? c->current->sites + b->first_site : NULL;
	size_t i = 0, j = 0;
	d->first_site = c->site_count;
	while (i < a->site_count || j < b->site_count) {
		int order = i == a->site_count ? 1 : j == b->site_count ? -1 : strcmp(as[i].text, bs[j].text);
		const rli_side_site *x = order <= 0 ? &as[i] : NULL, *y = order >= 0 ? &bs[j] : NULL;
		i += order <= 0;
		j += order >= 0;
		if ((!x && !a->sites_complete) || (!y && !b->sites_complete))
			continue;
		c->sites[c->site_count++] = (rli_site_change){
			.text = (x ? x : y)->text,
			.baseline_allocated_kb = x ? x->allocated_kb : 0, .current_allocated_kb = y ? y->allocated_kb : 0,
			.baseline_live_kb = x ? x->live_kb : 0, .current_live_kb = y ? y->live_kb : 0,
			.baseline_count = x ? x->count : 0, .current_count = y ? y->count : 0,
		};
	}
	d->site_count = c->site_count - d->first_site;
	if (d->site_count > 1)
		qsort(c->sites + d->first_site, d->site_count, sizeof(*c->sites), larger_site_change);
	return RLI_OK;
}

static int pair_device(rli_comparison *c, const void *pa, const void *pb)
{
	const rli_side_device *a = pa, *b = pb;
	rli_device_change *d = &c->devices[c->device_count++];
	*d = (rli_device_change){ .role = (a ? a : b)->role, .rank = (a ? a : b)->rank,
				  .device_type = (a ? a : b)->device_type, .presence = presence_of(a, b) };
	if (a) {
		d->baseline_peak_mb = a->peak_mb;
		d->baseline_peak_ms = a->peak_ms;
		d->baseline_never_freed_kb = a->never_freed_kb;
		d->baseline_allocated_kb = a->allocated_kb;
	}
	if (b) {
		d->current_peak_mb = b->peak_mb;
		d->current_peak_ms = b->peak_ms;
		d->current_never_freed_kb = b->never_freed_kb;
		d->current_allocated_kb = b->allocated_kb;
	}
	d->sites_complete = a && b && a->sites_complete && b->sites_complete;
	return a && b ? pair_sites(c, d, a, b) : RLI_OK;
}

int rli_compare(rli_comparison **out, const rli_compare_side *baseline, const rli_compare_side *current,
		const rli_compare_options *options)
{
	rli_comparison *c = calloc(1, sizeof(*c));
	int error = RLI_OK;

	*out = NULL;
	if (!c)
		return rli_error_oom();
	c->baseline = baseline;
	c->current = current;
	if (options)
		c->options = *options;
	else
		rli_compare_options_init(&c->options);
	c->timeline = baseline->has_timeline && current->has_timeline;
	c->memory = baseline->has_memory && current->has_memory;
	c->gmm = baseline->has_gmm && current->has_gmm;
	c->baseline_step_ms = baseline->step_ms;
	c->current_step_ms = current->step_ms;
	/* Each list holds at most what both sides list together: room for that, once. */
#define ROOM(list, a, b) ((list) = calloc((a) + (b) ? (a) + (b) : 1, sizeof(*(list))))
	if (!ROOM(c->phases, baseline->phase_count, current->phase_count) ||
	    !ROOM(c->rank_phases, baseline->rank_phase_count, current->rank_phase_count) ||
	    !ROOM(c->steps, baseline->step_count, current->step_count) ||
	    !ROOM(c->roles, baseline->role_count, current->role_count) ||
	    !ROOM(c->rank_lists, baseline->rank_id_count, current->rank_id_count) ||
	    !ROOM(c->transitions, baseline->transition_count, current->transition_count) ||
	    !ROOM(c->devices, baseline->device_count, current->device_count) ||
	    !ROOM(c->sites, baseline->site_count, current->site_count)) {
		error = RLI_ERROR;
		goto done;
	}
#undef ROOM
	if (c->timeline &&
	    ((error = walk(c, baseline->phases, baseline->phase_count, current->phases, current->phase_count,
			   sizeof(*baseline->phases), phase_cmp, pair_phase)) < 0 ||
	     (error = walk(c, baseline->rank_phases, baseline->rank_phase_count, current->rank_phases,
			   current->rank_phase_count, sizeof(*baseline->rank_phases), rank_phase_cmp, pair_rank_phase)) < 0 ||
	     (error = walk(c, baseline->steps, baseline->step_count, current->steps, current->step_count,
			   sizeof(*baseline->steps), step_cmp, pair_step)) < 0 ||
	     (error = walk(c, baseline->roles, baseline->role_count, current->roles, current->role_count,
			   sizeof(*baseline->roles), role_cmp, pair_role)) < 0 ||
	     (error = walk(c, baseline->transitions, baseline->transition_count, current->transitions,
			   current->transition_count, sizeof(*baseline->transitions), transition_cmp, pair_transition)) < 0))
		goto done;
	if (c->memory && (error = walk(c, baseline->devices, baseline->device_count, current->devices,
				       current->device_count, sizeof(*baseline->devices), device_cmp, pair_device)) < 0)
		goto done;
	if (c->gmm && (error = rli_compare_gmm(c)) < 0)
		goto done;
done:
	if (error < 0) {
		rli_comparison_free(c);
		return error == RLI_ERROR ? rli_error_oom() : error;
	}
	*out = c;
	return RLI_OK;
}

void rli_comparison_free(rli_comparison *c)
{
	if (!c)
		return;
	free(c->phases);
	free(c->rank_phases);
	free(c->steps);
	free(c->roles);
	free(c->rank_lists);
	free(c->transitions);
	free(c->devices);
	free(c->sites);
	free(c->gmm_layers);
	free(c);
}

/* summary_compare.c: summary.json's "comparison" part: the run against its baseline, phase by phase, role by role, device by device. */
#include "summary.h"
#include "summary_internal.h"

#include <math.h>

static void sample(FILE *fp, const char *name, const rli_side_sample *s, int present)
{
	key(fp, name, 0);
	if (!present) {
		fputs("null", fp);
		return;
	}
	putc('{', fp);
	count(fp, "count", s->count, 1);
	number(fp, "median_ms", s->median_ms, 0);
	number(fp, "mean_ms", s->mean_ms, 0);
	number(fp, "p95_ms", s->p95_ms, 0);
	number(fp, "total_ms", s->total_ms, 0);
	number(fp, "q1_ms", s->q1_ms, 0);
	number(fp, "q3_ms", s->q3_ms, 0);
	putc('}', fp);
}

static void side(FILE *fp, const char *name, const rli_compare_side *s)
{
	key(fp, name, 0);
	putc('{', fp);
	text(fp, "path", s->path, 1);
	text(fp, "profiler", s->profiler, 0);
	text(fp, "source", s->source == RLI_SIDE_SUMMARY ? "summary" : "profile", 0);
	number(fp, "step_ms", s->step_ms, 0);
	putc('}', fp);
}

static void rank_list(FILE *fp, const char *name, const int64_t *ranks, size_t n)
{
	key(fp, name, 0);
	putc('[', fp);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s%" PRId64, i ? "," : "", ranks[i]);
	putc(']', fp);
}

static void straggler(FILE *fp, const char *name, int has, int64_t rank)
{
	key(fp, name, 0);
	if (has)
		fprintf(fp, "%" PRId64, rank);
	else
		fputs("null", fp);
}

static void write_phases(FILE *fp, const char *name, const rli_phase_change *list, size_t n)
{
	list_open(fp, name);
	for (size_t i = 0; i < n; i++) {
		const rli_phase_change *p = &list[i];
		item_open(fp, i);
		text(fp, "role", p->role, 1);
		text(fp, "name", p->name, 0);
		if (p->per_rank)
			rank(fp, "rank", p->rank, 0);
		text(fp, "presence", rli_presence_name(p->presence), 0);
		sample(fp, "baseline", &p->baseline, p->presence != RLI_ADDED);
		sample(fp, "current", &p->current, p->presence != RLI_REMOVED);
		number(fp, "change_ms", p->presence == RLI_IN_BOTH ? p->change_ms : NAN, 0);
		number(fp, "ratio", p->presence == RLI_IN_BOTH ? p->ratio : NAN, 0);
		text(fp, "noise", rli_noise_name(p->noise), 0);
		text(fp, "verdict", rli_verdict_name(p->verdict), 0);
		putc('}', fp);
	}
	fputs("]", fp);
}

static void write_roles(FILE *fp, const rli_comparison *c)
{
	list_open(fp, "roles");
	for (size_t i = 0; i < c->role_count; i++) {
		const rli_role_change *r = &c->roles[i];
		item_open(fp, i);
		text(fp, "role", r->role, 1);
		text(fp, "presence", rli_presence_name(r->presence), 0);
		number(fp, "baseline_step_ms", r->baseline_step_ms, 0);
		number(fp, "current_step_ms", r->current_step_ms, 0);
		number(fp, "baseline_share", r->baseline_share, 0);
		number(fp, "current_share", r->current_share, 0);
		straggler(fp, "baseline_straggler", r->baseline_has_straggler, r->baseline_straggler);
		straggler(fp, "current_straggler", r->current_has_straggler, r->current_straggler);
		key(fp, "straggler_changed", 0);
		fputs(r->straggler_changed ? "true" : "false", fp);
		count(fp, "baseline_ranks", r->baseline_ranks, 0);
		count(fp, "current_ranks", r->current_ranks, 0);
		rank_list(fp, "ranks_added", r->added, r->ranks_added);
		rank_list(fp, "ranks_removed", r->removed, r->ranks_removed);
		putc('}', fp);
	}
	fputs("]", fp);
}

static void write_steps(FILE *fp, const rli_comparison *c)
{
	list_open(fp, "steps");
	for (size_t i = 0; i < c->step_count; i++) {
		const rli_step_change *k = &c->steps[i];
		item_open(fp, i);
		text(fp, "role", k->role, 1);
		count(fp, "step", k->step, 0);
		text(fp, "presence", rli_presence_name(k->presence), 0);
		number(fp, "baseline_median_ms", k->presence != RLI_ADDED ? k->baseline_median_ms : NAN, 0);
		number(fp, "current_median_ms", k->presence != RLI_REMOVED ? k->current_median_ms : NAN, 0);
		straggler(fp, "baseline_slowest_rank", k->presence != RLI_ADDED, k->baseline_slowest);
		straggler(fp, "current_slowest_rank", k->presence != RLI_REMOVED, k->current_slowest);
		number(fp, "change_ms", k->presence == RLI_IN_BOTH ? k->change_ms : NAN, 0);
		key(fp, "slowest_changed", 0);
		fputs(k->slowest_changed ? "true" : "false", fp);
		putc('}', fp);
	}
	fputs("]", fp);
}

static void write_transitions(FILE *fp, const rli_comparison *c)
{
	list_open(fp, "role_transitions");
	for (size_t i = 0; i < c->transition_count; i++) {
		const rli_transition_change *t = &c->transitions[i];
		item_open(fp, i);
		text(fp, "from_role", t->from, 1);
		text(fp, "to_role", t->to, 0);
		text(fp, "presence", rli_presence_name(t->presence), 0);
		sample(fp, "baseline_wait", &t->baseline, t->presence != RLI_ADDED);
		sample(fp, "current_wait", &t->current, t->presence != RLI_REMOVED);
		number(fp, "total_change_ms", t->change_ms, 0);
		putc('}', fp);
	}
	fputs("]", fp);
}

static void write_devices(FILE *fp, const rli_comparison *c)
{
	list_open(fp, "memory");
	for (size_t i = 0; i < c->device_count; i++) {
		const rli_device_change *d = &c->devices[i];
		item_open(fp, i);
		text(fp, "role", d->role, 1);
		rank(fp, "rank", d->rank, 0);
		text(fp, "device_type", d->device_type, 0);
		text(fp, "presence", rli_presence_name(d->presence), 0);
		number(fp, "baseline_peak_mb", d->baseline_peak_mb, 0);
		number(fp, "current_peak_mb", d->current_peak_mb, 0);
		number(fp, "baseline_peak_ms", d->baseline_peak_ms, 0);
		number(fp, "current_peak_ms", d->current_peak_ms, 0);
		number(fp, "baseline_never_freed_kb", d->baseline_never_freed_kb, 0);
		number(fp, "current_never_freed_kb", d->current_never_freed_kb, 0);
		key(fp, "sites_listed", 0);
		fputs(d->sites_complete ? "\"all\"" : "\"top\"", fp);
		key(fp, "call_sites", 0);
		putc('[', fp);
		for (size_t s = 0; s < d->site_count && s < RLI_SUMMARY_MAX_SITE_CHANGES; s++) {
			const rli_site_change *site = &c->sites[d->first_site + s];
			fputs(s ? ",{" : "{", fp);
			text(fp, "call_stack_top", site->text, 1);
			number(fp, "baseline_allocated_kb", site->baseline_allocated_kb, 0);
			number(fp, "current_allocated_kb", site->current_allocated_kb, 0);
			number(fp, "baseline_live_kb", site->baseline_live_kb, 0);
			number(fp, "current_live_kb", site->current_live_kb, 0);
			count(fp, "baseline_count", site->baseline_count, 0);
			count(fp, "current_count", site->current_count, 0);
			putc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("]", fp);
}

/* The expert load's layers in either run, with each side's imbalance. */
static void write_gmm(FILE *fp, const rli_comparison *c)
{
	if (!c->gmm)
		return;
	list_open(fp, "gmm_layers");
	for (size_t i = 0; i < c->gmm_layer_count; i++) {
		const rli_gmm_change *g = &c->gmm_layers[i];
		item_open(fp, i);
		text(fp, "role", g->role, 1);
		count(fp, "layer", g->layer, 0);
		text(fp, "presence", rli_presence_name(g->presence), 0);
		number(fp, "baseline_imbalance", g->baseline_imbalance, 0);
		number(fp, "current_imbalance", g->current_imbalance, 0);
		number(fp, "change", g->change, 0);
		count(fp, "baseline_hottest", g->baseline_hottest, 0);
		count(fp, "current_hottest", g->current_hottest, 0);
		putc('}', fp);
	}
	putc(']', fp);
}

void rli_summary_write_comparison(FILE *fp, const rli_comparison *c)
{
	fputs(",\n\"comparison\":{", fp);
	count(fp, "regressions", c->regressions, 1);
	count(fp, "improvements", c->improvements, 0);
	number(fp, "threshold", c->options.threshold, 0);
	count(fp, "min_samples", RLI_COMPARE_MIN_SAMPLES, 0);
	side(fp, "baseline", c->baseline);
	side(fp, "current", c->current);
	write_phases(fp, "phases", c->phases, c->phase_count);
	write_phases(fp, "rank_phases", c->rank_phases, c->rank_phase_count);
	write_roles(fp, c);
	write_steps(fp, c);
	write_transitions(fp, c);
	write_devices(fp, c);
	write_gmm(fp, c);
	fputs("}", fp);
}

/* side.c: building a comparison side: from a parsed run's statistics, and the list plumbing the summary reader shares. */
#include "side.h"
#include "common/error.h"
#include "common/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CAP_PHASES, CAP_RANK_PHASES, CAP_STEPS, CAP_ROLES, CAP_RANKS, CAP_TRANSITIONS, CAP_DEVICES, CAP_SITES, CAP_GMM_LAYERS };

rli_compare_side *rli_side_new(const char *path, const char *profiler, rli_side_source source)
{
	rli_compare_side *side = calloc(1, sizeof(*side));
	if (!side)
		return NULL;
	rli_strpool_init(&side->strings);
	side->source = source;
	side->step_ms = NAN;
	if (!(side->path = rli_side_text(side, path ? path : "", strlen(path ? path : ""))) ||
	    !(side->profiler = rli_side_text(side, profiler ? profiler : "", strlen(profiler ? profiler : ""))) ||
	    !(side->input = side->tool_version = rli_side_text(side, "", 0))) {
		rli_compare_side_free(side);
		return NULL;
	}
	/* A parsed run read its path, with this rl-insight; a summary's side says whose it was as it is read. */
	if (source == RLI_SIDE_PROFILE) {
		side->input = side->path;
		if (!(side->tool_version = rli_side_text(side, RLI_VERSION, strlen(RLI_VERSION)))) {
			rli_compare_side_free(side);
			return NULL;
		}
	}
	return side;
}

const char *rli_side_text(rli_compare_side *side, const char *text, size_t length)
{
	uint32_t id = rli_strpool_intern(&side->strings, text, length);
	return id == RLI_STRPOOL_NONE ? NULL : rli_strpool_get(&side->strings, id);
}

/* One more zeroed element at the end of a list; NULL when out of memory. */
static void *add(void **items, size_t *count, size_t *capacity, size_t size)
{
	char *item;
	if (rli_grow(items, capacity, *count + 1, size, 16) < 0)
		return NULL;
	item = (char *)*items + *count * size;
	memset(item, 0, size);
	++*count;
	return item;
}

rli_side_phase *rli_side_add_phase(rli_compare_side *s)
{
	return add((void **)&s->phases, &s->phase_count, &s->capacity[CAP_PHASES], sizeof(*s->phases));
}

rli_side_rank_phase *rli_side_add_rank_phase(rli_compare_side *s)
{
	return add((void **)&s->rank_phases, &s->rank_phase_count, &s->capacity[CAP_RANK_PHASES],
		   sizeof(*s->rank_phases));
}

rli_side_step *rli_side_add_step(rli_compare_side *s)
{
	return add((void **)&s->steps, &s->step_count, &s->capacity[CAP_STEPS], sizeof(*s->steps));
}

rli_side_role *rli_side_add_role(rli_compare_side *s)
{
	rli_side_role *role = add((void **)&s->roles, &s->role_count, &s->capacity[CAP_ROLES], sizeof(*s->roles));
	if (role) {
		role->step_ms = NAN;
		role->first_rank = s->rank_id_count;
	}
	return role;
}

int rli_side_add_rank(rli_compare_side *s, int64_t rank)
{
	int64_t *slot = add((void **)&s->rank_ids, &s->rank_id_count, &s->capacity[CAP_RANKS], sizeof(*s->rank_ids));
	if (!slot)
		return rli_error_oom();
	*slot = rank;
	s->roles[s->role_count - 1].rank_count++;
	return RLI_OK;
}

rli_side_transition *rli_side_add_transition(rli_compare_side *s)
{
	return add((void **)&s->transitions, &s->transition_count, &s->capacity[CAP_TRANSITIONS],
		   sizeof(*s->transitions));
}

rli_side_device *rli_side_add_device(rli_compare_side *s)
{
	rli_side_device *device = add((void **)&s->devices, &s->device_count, &s->capacity[CAP_DEVICES],
				      sizeof(*s->devices));
	if (device)
		device->first_site = s->site_count;
	return device;
}

rli_side_site *rli_side_add_site(rli_compare_side *s)
{
	rli_side_site *site = add((void **)&s->sites, &s->site_count, &s->capacity[CAP_SITES], sizeof(*s->sites));
	if (site)
		s->devices[s->device_count - 1].site_count++;
	return site;
}

rli_side_gmm_layer *rli_side_add_gmm_layer(rli_compare_side *s)
{
	rli_side_gmm_layer *layer = add((void **)&s->gmm_layers, &s->gmm_layer_count, &s->capacity[CAP_GMM_LAYERS],
					sizeof(*s->gmm_layers));
	if (layer)
		s->has_gmm = 1;
	return layer;
}

static int by_phase(const void *pa, const void *pb)
{
	const rli_side_phase *a = pa, *b = pb;
	int c = strcmp(a->role, b->role);
	return c ? c : strcmp(a->name, b->name);
}

static int by_rank_phase(const void *pa, const void *pb)
{
	const rli_side_rank_phase *a = pa, *b = pb;
	int c = strcmp(a->role, b->role);
	if (c || (c = strcmp(a->name, b->name)))
		return c;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

static int by_step(const void *pa, const void *pb)
{
	const rli_side_step *a = pa, *b = pb;
	int c = strcmp(a->role, b->role);
	return c ? c : (a->step > b->step) - (a->step < b->step);
}

static int by_role(const void *pa, const void *pb)
{
	return strcmp(((const rli_side_role *)pa)->role, ((const rli_side_role *)pb)->role);
}

static int by_transition(const void *pa, const void *pb)
{
	const rli_side_transition *a = pa, *b = pb;
	int c = strcmp(a->from, b->from);
	return c ? c : strcmp(a->to, b->to);
}

static int by_device(const void *pa, const void *pb)
{
	const rli_side_device *a = pa, *b = pb;
	int c = strcmp(a->role, b->role);
	if (c)
		return c;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->device_type, b->device_type);
}

static int by_site(const void *pa, const void *pb)
{
	return strcmp(((const rli_side_site *)pa)->text, ((const rli_side_site *)pb)->text);
}

/* qsort, but a list with nothing to order may be NULL. */
static void sort_list(void *items, size_t count, size_t size, int (*cmp)(const void *, const void *))
{
	if (count > 1)
		qsort(items, count, size, cmp);
}

int rli_side_finish(rli_compare_side *s)
{
	sort_list(s->phases, s->phase_count, sizeof(*s->phases), by_phase);
	sort_list(s->rank_phases, s->rank_phase_count, sizeof(*s->rank_phases), by_rank_phase);
	sort_list(s->steps, s->step_count, sizeof(*s->steps), by_step);
	sort_list(s->roles, s->role_count, sizeof(*s->roles), by_role);
	sort_list(s->transitions, s->transition_count, sizeof(*s->transitions), by_transition);
	sort_list(s->devices, s->device_count, sizeof(*s->devices), by_device);
	/* A device's sites by text, each once: a summary lists a site both by bytes and by live bytes. */
	for (size_t d = 0; d < s->device_count; d++) {
		rli_side_device *device = &s->devices[d];
		rli_side_site *sites;
		size_t kept = 0;
		if (device->site_count == 0)
			continue;
		sites = s->sites + device->first_site;
		sort_list(sites, device->site_count, sizeof(*sites), by_site);
		for (size_t i = 0; i < device->site_count; i++)
			if (kept == 0 || strcmp(sites[kept - 1].text, sites[i].text) != 0)
				sites[kept++] = sites[i];
		device->site_count = kept;
	}
	return RLI_OK;
}

static rli_side_sample sample_of(const rli_distribution *d)
{
	return (rli_side_sample){ d->count, d->total, d->mean, d->median, d->q1, d->q3, d->p95 };
}

int rli_compare_side_add_timeline(rli_compare_side *side, const rli_stats *stats)
{
	const rli_events *events = stats->events;
	side->has_timeline = 1;
	side->start_ms = stats->start_ms;
	side->end_ms = stats->end_ms;
	side->step_ms = stats->step_ms;
	side->max_steps = stats->max_steps;
	for (size_t i = 0; i < stats->phase_count; i++) {
		const char *role = rli_events_str(events, stats->phases[i].role);
		const char *name = rli_events_str(events, stats->phases[i].name);
		rli_side_phase *phase = rli_side_add_phase(side);
		if (!phase || !(phase->role = rli_side_text(side, role, strlen(role))) ||
		    !(phase->name = rli_side_text(side, name, strlen(name))))
			return rli_error_oom();
		phase->sample = sample_of(&stats->phases[i].duration);
	}
	for (size_t i = 0; i < stats->rank_phase_count; i++) {
		const rli_rank_phase_stats *rp = &stats->rank_phases[i];
		const char *role = rli_events_str(events, rp->role), *name = rli_events_str(events, rp->name);
		rli_side_rank_phase *phase = rli_side_add_rank_phase(side);
		if (!phase || !(phase->role = rli_side_text(side, role, strlen(role))) ||
		    !(phase->name = rli_side_text(side, name, strlen(name))))
			return rli_error_oom();
		phase->rank = rp->rank;
		phase->sample = sample_of(&rp->duration);
	}
	for (size_t i = 0; i < stats->step_count; i++) {
		const rli_step_stats *k = &stats->steps[i];
		const char *role = rli_events_str(events, k->role);
		rli_side_step *step = rli_side_add_step(side);
		if (!step || !(step->role = rli_side_text(side, role, strlen(role))))
			return rli_error_oom();
		step->step = k->step;
		step->ranks = k->ranks;
		step->median_ms = k->median_ms;
		step->slowest_ms = k->slowest_ms;
		step->slowest_rank = k->slowest_rank;
	}
	for (size_t r = 0; r < stats->role_count; r++) {
		uint32_t id = rli_stats_role(stats, r);
		const char *name = rli_events_str(events, id);
		const rli_rank_slowest *straggler = rli_stats_straggler(stats, id);
		rli_side_role *role = rli_side_add_role(side);
		if (!role || !(role->role = rli_side_text(side, name, strlen(name))))
			return rli_error_oom();
		for (size_t i = 0; i < stats->step_count; i++)
			role->steps += stats->steps[i].role == id;
		role->step_ms = stats->role_step_ms[r];
		role->has_straggler = straggler != NULL;
		role->straggler_rank = straggler ? straggler->rank : 0;
		for (size_t k = stats->role_rank_first[r]; k < stats->role_rank_first[r + 1]; k++)
			if (rli_side_add_rank(side, stats->role_rank_ids[k]) < 0)
				return RLI_ERROR;
	}
	for (size_t i = 0; i < stats->transition_count; i++) {
		const char *from = rli_events_str(events, stats->transitions[i].from_role);
		const char *to = rli_events_str(events, stats->transitions[i].to_role);
		rli_side_transition *t = rli_side_add_transition(side);
		if (!t || !(t->from = rli_side_text(side, from, strlen(from))) || !(t->to = rli_side_text(side, to, strlen(to))))
			return rli_error_oom();
		t->wait = sample_of(&stats->transitions[i].wait);
	}
	return RLI_OK;
}

int rli_compare_side_add_memory(rli_compare_side *side, const rli_memory_stats *memory)
{
	side->has_memory = 1;
	for (size_t d = 0; d < memory->device_count; d++) {
		const rli_memory_device_stats *m = &memory->devices[d];
		rli_side_device *device = rli_side_add_device(side);
		if (!device || !(device->role = rli_side_text(side, m->role, strlen(m->role))) ||
		    !(device->device_type = rli_side_text(side, m->device_type, strlen(m->device_type))))
			return rli_error_oom();
		device->rank = m->rank;
		device->allocations = m->allocations;
		device->allocated_kb = m->allocated_kb;
		device->peak_mb = m->peak_mb;
		device->peak_ms = m->peak_ms;
		device->never_freed = m->never_freed;
		device->never_freed_kb = m->never_freed_kb;
		device->sites_complete = 1;
		for (size_t i = 0; i < m->site_count; i++) {
			rli_side_site *site = rli_side_add_site(side);
			if (!site || !(site->text = rli_side_text(side, m->sites[i].text, strlen(m->sites[i].text))))
				return rli_error_oom();
			site->count = m->sites[i].count;
			site->allocated_kb = m->sites[i].allocated_kb;
			site->live_kb = m->sites[i].live_kb;
		}
	}
	return RLI_OK;
}

int rli_compare_side_from_stats(rli_compare_side **out, const rli_stats *stats, const rli_memory_stats *memory,
				const char *path, const char *profiler)
{
	rli_compare_side *side = rli_side_new(path, profiler, RLI_SIDE_PROFILE);
	int error = RLI_OK;

	*out = NULL;
	if (!side)
		return rli_error_oom();
	if ((stats && (error = rli_compare_side_add_timeline(side, stats)) < 0) ||
	    (memory && (error = rli_compare_side_add_memory(side, memory)) < 0) ||
	    (error = rli_side_finish(side)) < 0) {
		rli_compare_side_free(side);
		return error;
	}
	*out = side;
	return RLI_OK;
}

void rli_compare_side_free(rli_compare_side *side)
{
	if (!side)
		return;
	free(side->phases);
	free(side->rank_phases);
	free(side->steps);
	free(side->roles);
	free(side->rank_ids);
	free(side->transitions);
	free(side->devices);
	free(side->sites);
	free(side->gmm_layers);
	rli_strpool_dispose(&side->strings);
	free(side);
}

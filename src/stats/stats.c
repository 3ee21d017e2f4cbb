/* stats.c: computing the run's statistics once: rows in time order with dense keys, the phases; the rest per file. */
#include "stats_internal.h"
#include "common/error.h"
#include "common/sort.h"

#include <math.h>
#include <stdlib.h>

#define UNUSED_INDEX UINT32_MAX

static int compare_ranks(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

/* The counted rows (finite times, not ending before they start), by start; the run's span. */
static int pick_rows(rli_stats *stats, stats_input *in)
{
	const rli_events *ev = in->events;
	size_t *order = NULL;
	int sorted = 1;

	for (size_t i = 1; i < ev->count && sorted; i++)
		sorted = !(ev->start_ms[i] < ev->start_ms[i - 1]);
	/* A parsed table is in start order already; any other is ordered here, stably. */
	if (!sorted && !(order = rli_sorted_rows(ev->start_ms, ev->count)))
		return rli_error_oom();
	if (!(in->rows = rli_bigmem_array(ev->count, sizeof(*in->rows)))) {
		rli_bigmem_free(order);
		return rli_error_oom();
	}
	stats->start_ms = INFINITY;
	stats->end_ms = -INFINITY;
	for (size_t k = 0; k < ev->count; k++) {
		size_t i = order ? order[k] : k;
		double start = ev->start_ms[i], duration = ev->duration_ms[i];
		if (!isfinite(start) || !isfinite(duration) || duration < 0) {
			stats->rows_left_out++;
			continue;
		}
		in->rows[in->count++] = (uint32_t)i;
		if (start < stats->start_ms)
			stats->start_ms = start;
		if (start + duration > stats->end_ms)
			stats->end_ms = start + duration;
	}
	rli_bigmem_free(order);
	stats->rows_counted = in->count;
	if (in->count == 0)
		stats->start_ms = stats->end_ms = 0;
	return RLI_OK;
}

/*
 * Numbers the strings a column uses (role or name) in name order: index_of[string id] for every
 * pool string (UNUSED_INDEX if the column never uses it); *ids gets index -> string id.
 */
static int number_strings(const stats_input *in, const uint32_t *column, uint32_t **index_of, uint32_t **ids,
			  size_t *count)
{
	uint32_t pool = in->events->strings.count;
	int error;
	*index_of = malloc((pool ? pool : 1) * sizeof(**index_of));
	*ids = malloc((pool ? pool : 1) * sizeof(**ids));
	*count = 0;
	if (!*index_of || !*ids)
		return rli_error_oom();
	for (uint32_t id = 0; id < pool; id++)
		(*index_of)[id] = UNUSED_INDEX;
	for (size_t i = 0; i < in->count; i++) {
		uint32_t id = column[in->rows[i]];
		if ((*index_of)[id] == UNUSED_INDEX) {
			(*index_of)[id] = 0;
			(*ids)[(*count)++] = id;
		}
	}
	if ((error = rli_strpool_sort_ids(&in->events->strings, *ids, *count)) < 0)
		return error;
	for (size_t k = 0; k < *count; k++)
		(*index_of)[(*ids)[k]] = (uint32_t)k;
	return RLI_OK;
}

/* Role and name indices in name order, for every counted row. */
static int number_roles_and_names(stats_input *in)
{
	const rli_events *ev = in->events;
	uint32_t *role_of = NULL, *name_of = NULL, *name_ids = NULL;
	int error = RLI_OK;

	in->role_ix = rli_bigmem_array(in->count, sizeof(*in->role_ix));
	in->name_ix = rli_bigmem_array(in->count, sizeof(*in->name_ix));
	if (!in->role_ix || !in->name_ix) {
		error = rli_error_oom();
		goto done;
	}
	if ((error = number_strings(in, ev->role, &role_of, &in->roles, &in->role_count)) < 0 ||
	    (error = number_strings(in, ev->name, &name_of, &name_ids, &in->name_count)) < 0)
		goto done;
	for (size_t i = 0; i < in->count; i++) {
		in->role_ix[i] = role_of[ev->role[in->rows[i]]];
		in->name_ix[i] = name_of[ev->name[in->rows[i]]];
	}
done:
	free(role_of);
	free(name_of);
	free(name_ids);
	return error;
}

/* A rank id's slot in a table of `slots` (a power of two): where a probe for it starts. */
static size_t rank_slot(int64_t rank, size_t slots)
{
	return (size_t)(((uint64_t)rank * 0x9E3779B97F4A7C15ull) >> 20) & (slots - 1);
}

/*
 * Rank indices in numeric order: a hash of the rank ids seen, then its keys sorted (there are
 * few). The table grows with the ranks, not the rows: a table for every row's rank was 24 bytes
 * a row, most of them fresh memory written for nothing.
 */
static int number_ranks(stats_input *in)
{
	const rli_events *ev = in->events;
	size_t slots = 64, used = 0;
	int64_t *keys = NULL;
	uint32_t *values = NULL;
	int error = RLI_OK;

	in->rank_ix = rli_bigmem_array(in->count, sizeof(*in->rank_ix));
	keys = malloc(slots * sizeof(*keys));
	values = malloc(slots * sizeof(*values));
	if (!in->rank_ix || !keys || !values) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t s = 0; s < slots; s++)
		values[s] = UNUSED_INDEX;
	/* First pass: the distinct ranks, each numbered as it comes (values), rows given that number. */
	for (size_t i = 0; i < in->count; i++) {
		int64_t rank = ev->rank_id[in->rows[i]];
		size_t s = rank_slot(rank, slots);
		while (values[s] != UNUSED_INDEX && keys[s] != rank)
			s = (s + 1) & (slots - 1);
		if (values[s] == UNUSED_INDEX) {
			if (2 * (used + 1) > slots) {
				/* Half full: twice the room, every rank placed again. */
				size_t grown = 2 * slots;
				int64_t *new_keys = malloc(grown * sizeof(*new_keys));
				uint32_t *new_values = malloc(grown * sizeof(*new_values));
				if (!new_keys || !new_values) {
					free(new_keys);
					free(new_values);
					error = rli_error_oom();
					goto done;
				}
				for (size_t t = 0; t < grown; t++)
					new_values[t] = UNUSED_INDEX;
				for (size_t t = 0; t < slots; t++) {
					size_t to;
					if (values[t] == UNUSED_INDEX)
						continue;
					for (to = rank_slot(keys[t], grown); new_values[to] != UNUSED_INDEX; to = (to + 1) & (grown - 1))
						;
					new_keys[to] = keys[t];
					new_values[to] = values[t];
				}
				free(keys);
				free(values);
				keys = new_keys;
				values = new_values;
				slots = grown;
				for (s = rank_slot(rank, slots); values[s] != UNUSED_INDEX; s = (s + 1) & (slots - 1))
					;
			}
			keys[s] = rank;
			values[s] = (uint32_t)used++;
		}
		in->rank_ix[i] = values[s]; /* the order of first sight, for now */
	}
	in->rank_count = used;
	{
		/* The ranks in numeric order, and each first-sight number's index among them. */
		uint32_t *index_of = malloc((used ? used : 1) * sizeof(*index_of));
		in->ranks = malloc((used ? used : 1) * sizeof(*in->ranks));
		if (!index_of || !in->ranks) {
			free(index_of);
			error = rli_error_oom();
			goto done;
		}
		for (size_t s = 0; s < slots; s++)
			if (values[s] != UNUSED_INDEX)
				in->ranks[values[s]] = keys[s];
		qsort(in->ranks, used, sizeof(*in->ranks), compare_ranks);
		for (size_t r = 0; r < used; r++) {
			size_t s = rank_slot(in->ranks[r], slots);
			while (keys[s] != in->ranks[r])
				s = (s + 1) & (slots - 1);
			index_of[values[s]] = (uint32_t)r;
		}
		for (size_t i = 0; i < in->count; i++)
			in->rank_ix[i] = index_of[in->rank_ix[i]];
		free(index_of);
	}
done:
	free(keys);
	free(values);
	return error;
}

static int phase_stats(rli_stats *stats, const stats_input *in)
{
	const rli_events *ev = in->events;
	stats_entry *e = in->entries;
	size_t groups = 0;
	for (size_t i = 0; i < in->count; i++) {
		size_t row = in->rows[i];
		e[i] = (stats_entry){ .group = stats_group(in->role_ix[i], in->name_ix[i]), .value = ev->duration_ms[row],
				      .row = (uint32_t)row, .rank = in->rank_ix[i] };
	}
	e = stats_sort_groups(e, in->count, in->sort_tmp);
	for (size_t i = 0; i < in->count; i++)
		groups += i == 0 || e[i].group != e[i - 1].group;
	if (!(stats->phases = calloc(groups ? groups : 1, sizeof(*stats->phases))))
		return rli_error_oom();
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		rli_phase_stats *p = &stats->phases[stats->phase_count++];
		end = stats_group_end(e, in->count, begin);
		p->role = ev->role[e[begin].row];
		p->name = ev->name[e[begin].row];
		stats_distribution(&p->duration, e + begin, end - begin, in->ranks, in->scratch);
	}
	return RLI_OK;
}

/* The same per rank: grouped by (phase, rank), the phase numbered as (role, name) in sorted order. */
static int rank_phase_stats(rli_stats *stats, const stats_input *in)
{
	const rli_events *ev = in->events;
	stats_entry *e = in->entries;
	size_t groups = 0;
	if (in->name_count && in->role_count > UINT32_MAX / in->name_count)
		return RLI_OK; /* a key would not fit: so many phases are no run to compare rank by rank */
	for (size_t i = 0; i < in->count; i++) {
		size_t row = in->rows[i];
		uint32_t phase = in->role_ix[i] * (uint32_t)in->name_count + in->name_ix[i];
		e[i] = (stats_entry){ .group = stats_group(phase, in->rank_ix[i]), .value = ev->duration_ms[row],
				      .row = (uint32_t)row, .rank = in->rank_ix[i] };
	}
	e = stats_sort_groups(e, in->count, in->sort_tmp);
	for (size_t i = 0; i < in->count; i++)
		groups += i == 0 || e[i].group != e[i - 1].group;
	if (!(stats->rank_phases = calloc(groups ? groups : 1, sizeof(*stats->rank_phases))))
		return rli_error_oom();
	for (size_t begin = 0, end; begin < in->count; begin = end) {
		rli_rank_phase_stats *p = &stats->rank_phases[stats->rank_phase_count++];
		end = stats_group_end(e, in->count, begin);
		p->role = ev->role[e[begin].row];
		p->name = ev->name[e[begin].row];
		p->rank = in->ranks[e[begin].rank];
		stats_distribution(&p->duration, e + begin, end - begin, in->ranks, in->scratch);
	}
	return RLI_OK;
}

int rli_stats_compute(rli_stats **out, const rli_events *events)
{
	rli_stats *stats = calloc(1, sizeof(*stats));
	stats_input in = { .events = events };
	int error;

	*out = NULL;
	if (!stats)
		return rli_error_oom();
	/* Rows and steps are numbered in 32 bits in the working arrays (half the memory of size_t). */
	if (events->count > UINT32_MAX) {
		free(stats);
		return rli_error_set(RLI_EINVALID, "too many rows for the statistics: %zu (at most %u)", events->count,
				     UINT32_MAX);
	}
	stats->events = events;
	if ((error = pick_rows(stats, &in)) < 0 || (error = number_roles_and_names(&in)) < 0 ||
	    (error = number_ranks(&in)) < 0)
		goto done;
	in.scratch = rli_bigmem_array(2 * in.count, sizeof(*in.scratch));
	in.entries = rli_bigmem_array(in.count, sizeof(*in.entries));
	in.sort_tmp = rli_bigmem_array(in.count, sizeof(*in.sort_tmp));
	if (!in.scratch || !in.entries || !in.sort_tmp) {
		error = rli_error_oom();
		goto done;
	}
	stats->role_count = in.role_count;
	stats->rank_count = in.rank_count;
	if ((error = phase_stats(stats, &in)) < 0 || (error = rank_phase_stats(stats, &in)) < 0 ||
	    (error = stats_steps(stats, &in)) < 0 ||
	    (error = stats_bubbles(stats, &in)) < 0 || (error = stats_overlap(stats, &in)) < 0)
		goto done;
	*out = stats;
	stats = NULL;
done:
	rli_bigmem_free(in.rows);
	rli_bigmem_free(in.role_ix);
	rli_bigmem_free(in.name_ix);
	rli_bigmem_free(in.rank_ix);
	free(in.roles);
	free(in.ranks);
	rli_bigmem_free(in.scratch);
	rli_bigmem_free(in.entries);
	rli_bigmem_free(in.sort_tmp);
	rli_stats_free(stats);
	return error;
}

void rli_stats_free(rli_stats *stats)
{
	if (!stats)
		return;
	free(stats->phases);
	free(stats->rank_phases);
	rli_bigmem_free(stats->steps); /* these three: one entry a step or a span, from rli_bigmem_array */
	free(stats->role_rank_first);
	free(stats->role_rank_ids);
	free(stats->role_step_ms);
	rli_bigmem_free(stats->slowest);
	free(stats->bubbles);
	free(stats->transitions);
	free(stats->overlaps);
	free(stats->occupancy);
	rli_bigmem_free(stats->occupancy_points);
	free(stats);
}

const rli_rank_slowest *rli_stats_straggler(const rli_stats *stats, uint32_t role)
{
	for (size_t i = 0; i < stats->slowest_count; i++)
		if (stats->slowest[i].role == role && stats->slowest[i].straggler)
			return &stats->slowest[i];
	return NULL;
}

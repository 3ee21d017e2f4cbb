/* gmm_matrix.c: the heatmap's matrix from the expert-load table: the forward-only filter, one row per snapshot, merged layers and segments. */
#include "gmm_matrix.h"
#include "common/error.h"
#include "gmm/gmm_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The same (step, role, rank): one segment of the strip, one group of the filter. */
static int same_group(const rli_gmm_snapshot *a, const rli_gmm_snapshot *b)
{
	return a->step == b->step && a->role == b->role && a->rank_id == b->rank_id;
}

/* A stage's signature equals the one before: the same loads in expert order; NaN never equal. */
static int same_signature(const rli_gmm *gmm, const rli_gmm_snapshot *a, const rli_gmm_snapshot *b)
{
	if (a->count != b->count)
		return 0;
	for (size_t i = 0; i < a->count; i++)
		if (!(gmm->load[a->first + i] == gmm->load[b->first + i]) ||
		    gmm->expert_index[a->first + i] != gmm->expert_index[b->first + i])
			return 0;
	return 1;
}

/*
 * gmm.md §5.1: within each (step, actor_update, rank) the stages are kept while a vector repeats
 * at most per_layer times in a row; the first that repeats once more is the backward pass, and
 * it and every later stage of the group go. keep[s] says which snapshots stay.
 */
static void filter_forward(uint8_t *keep, size_t *dropped, const rli_gmm *gmm, int per_layer, rli_log_fn log,
			   void *log_ctx)
{
	size_t n = gmm->snapshot_count;
	for (size_t s = 0; s < n;) {
		size_t end = s + 1, kept = 0, run = 1;
		int cut = 0;
		while (end < n && same_group(&gmm->snapshots[s], &gmm->snapshots[end]))
			end++;
		if (strcmp(rli_gmm_role(gmm, &gmm->snapshots[s]), "actor_update") != 0) {
			memset(keep + s, 1, end - s);
			s = end;
			continue;
		}
		for (size_t k = s; k < end; k++) {
			if (k > s && same_signature(gmm, &gmm->snapshots[k], &gmm->snapshots[k - 1]))
				run++;
			else
				run = 1;
			if (per_layer <= 0 || (int64_t)run > per_layer)
				cut = 1;
			keep[k] = !cut;
			kept += !cut;
		}
		*dropped += (end - s) - kept;
		if (log && kept < end - s) {
			char line[256];
			snprintf(line, sizeof(line), "gmm: actor_update step %lld rank %lld: kept %zu forward stages of %zu "
				 "(a vector repeated past gmm_per_layer=%d starts the backward pass)",
				 (long long)gmm->snapshots[s].step, (long long)gmm->snapshots[s].rank_id, kept, end - s,
				 per_layer);
			log(log_ctx, RLI_LOG_INFO, line);
		}
		s = end;
	}
}

/* Two rows' vectors are one layer's: equal with NaN read as -1 (the reference's comparison). */
static int same_vector(const double *a, const double *b, size_t n)
{
	for (size_t e = 0; e < n; e++) {
		double x = isnan(a[e]) ? -1.0 : a[e], y = isnan(b[e]) ? -1.0 : b[e];
		if (x != y)
			return 0;
	}
	return 1;
}

/* gmm.md §5.2: a row reuses the layer of an earlier equal row of its segment, else takes the next. */
static void merge_layers(rli_gmm_matrix *m, rli_gmm_segment *segment)
{
	uint32_t next = 0;
	for (size_t j = segment->first; j < segment->first + segment->count; j++) {
		size_t k = segment->first;
		while (k < j && !same_vector(m->cells + k * m->experts, m->cells + j * m->experts, m->experts))
			k++;
		m->layer[j] = k < j ? m->layer[k] : next++;
	}
	segment->layers = next;
}

static int compare_rank(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void rli_gmm_matrix_free(rli_gmm_matrix *m)
{
	if (!m)
		return;
	free(m->cells);
	free(m->layer);
	free(m->stage);
	free(m->row_segment);
	free(m->segments);
	free(m->summed);
	free(m);
}

int rli_gmm_matrix_merge_ranks(rli_gmm_matrix **out, const rli_gmm_matrix *m)
{
	rli_gmm_matrix *o = calloc(1, sizeof(*o));
	size_t E = m->experts, rows = 0, groups = 0;
	uint8_t *seen = NULL;
	int error = RLI_OK;

	*out = NULL;
	if (!o)
		return rli_error_oom();
	/* First the size: per (step, role) as many rows as its segments' most layers. */
	for (size_t g = 0; g < m->segment_count;) {
		size_t end = g + 1;
		uint32_t layers = m->segments[g].layers;
		while (end < m->segment_count && m->segments[end].step == m->segments[g].step &&
		       strcmp(m->segments[end].role, m->segments[g].role) == 0)
			layers = m->segments[end++].layers > layers ? m->segments[end - 1].layers : layers;
		rows += layers;
		groups++;
		g = end;
	}
	*o = (rli_gmm_matrix){ .rows = rows, .experts = E, .ranks = m->ranks, .min = INFINITY, .max = -INFINITY,
			       .dropped = m->dropped };
	if (!(o->cells = malloc(rows * E * sizeof(*o->cells))) || !(o->layer = malloc(rows * sizeof(*o->layer))) ||
	    !(o->stage = malloc(rows * sizeof(*o->stage))) || !(o->row_segment = malloc(rows * sizeof(*o->row_segment))) ||
	    !(o->segments = malloc(groups * sizeof(*o->segments))) || !(o->summed = calloc(rows, sizeof(*o->summed))) ||
	    !(seen = malloc(rows ? rows : 1))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < rows * E; i++)
		o->cells[i] = NAN;
	for (size_t g = 0, first = 0; g < m->segment_count;) {
		size_t end = g, layers = 0;
		rli_gmm_segment *out_seg = &o->segments[o->segment_count];
		while (end < m->segment_count && m->segments[end].step == m->segments[g].step &&
		       strcmp(m->segments[end].role, m->segments[g].role) == 0) {
			const rli_gmm_segment *seg = &m->segments[end++];
			layers = seg->layers > layers ? seg->layers : layers;
			memset(seen, 0, seg->layers ? seg->layers : 1);
			for (size_t j = seg->first; j < seg->first + seg->count; j++) {
				size_t r = first + m->layer[j];
				const double *row = m->cells + j * E;
				double *sum = o->cells + r * E;
				if (seen[m->layer[j]])
					continue;
				seen[m->layer[j]] = 1;
				o->summed[r]++;
				for (size_t e = 0; e < E; e++)
					if (!isnan(row[e]))
						sum[e] = isnan(sum[e]) ? row[e] : sum[e] + row[e];
			}
		}
		*out_seg = (rli_gmm_segment){ .first = first, .count = layers, .step = m->segments[g].step, .rank = -1,
					      .role = m->segments[g].role, .layers = (uint32_t)layers };
		for (size_t r = first; r < first + layers; r++) {
			o->layer[r] = (uint32_t)(r - first);
			o->stage[r] = -1;
			o->row_segment[r] = o->segment_count;
			for (size_t e = 0; e < E; e++) {
				double v = o->cells[r * E + e];
				if (isfinite(v)) {
					o->min = v < o->min ? v : o->min;
					o->max = v > o->max ? v : o->max;
				}
			}
		}
		o->segment_count++;
		first += layers;
		g = end;
	}
	*out = o;
	o = NULL;
done:
	free(seen);
	rli_gmm_matrix_free(o);
	return error;
}

int rli_gmm_matrix_build(rli_gmm_matrix **out, const rli_gmm *gmm, int per_layer, rli_log_fn log, void *log_ctx)
{
	rli_gmm_matrix *m = calloc(1, sizeof(*m));
	size_t n = gmm->snapshot_count, rows = 0, experts = 0;
	uint8_t *keep = calloc(n ? n : 1, 1);
	int64_t *ranks = NULL;
	int error = RLI_OK;

	*out = NULL;
	if (!m || !keep) {
		error = rli_error_oom();
		goto done;
	}
	filter_forward(keep, &m->dropped, gmm, per_layer, log, log_ctx);
	for (size_t s = 0; s < n; s++) {
		const rli_gmm_snapshot *snap = &gmm->snapshots[s];
		if (!keep[s])
			continue;
		rows++;
		for (size_t i = 0; i < snap->count; i++)
			if (gmm->expert_index[snap->first + i] + (size_t)1 > experts)
				experts = gmm->expert_index[snap->first + i] + (size_t)1;
	}
	if (rows == 0 || experts == 0) {
		error = rli_error_set(RLI_EINVALID, "gmm: no expert load left to draw (the forward-only filter of "
				      "actor_update, gmm_per_layer=%d, kept no stage)", per_layer);
		goto done;
	}
	m->rows = rows;
	m->experts = experts;
	m->min = INFINITY;
	m->max = -INFINITY;
	if (!(m->cells = malloc(rows * experts * sizeof(*m->cells))) || !(m->layer = calloc(rows, sizeof(*m->layer))) ||
	    !(m->stage = malloc(rows * sizeof(*m->stage))) || !(m->row_segment = malloc(rows * sizeof(*m->row_segment))) ||
	    !(m->segments = malloc(rows * sizeof(*m->segments))) || !(ranks = malloc(rows * sizeof(*ranks)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t j = 0, s = 0, last = SIZE_MAX; s < n; s++) {
		const rli_gmm_snapshot *snap = &gmm->snapshots[s];
		double *row = m->cells + j * experts;
		if (!keep[s])
			continue;
		for (size_t e = 0; e < experts; e++)
			row[e] = NAN;
		/* Rows go by expert, then load ascending: the last of an expert is its largest. */
		for (size_t i = 0; i < snap->count; i++) {
			double load = gmm->load[snap->first + i];
			row[gmm->expert_index[snap->first + i]] = load;
			if (isfinite(load)) {
				m->min = load < m->min ? load : m->min;
				m->max = load > m->max ? load : m->max;
			}
		}
		if (last == SIZE_MAX || !same_group(&gmm->snapshots[last], snap)) {
			rli_gmm_segment *g = &m->segments[m->segment_count++];
			*g = (rli_gmm_segment){ .first = j, .step = snap->step, .rank = snap->rank_id,
						.role = rli_gmm_role(gmm, snap) };
			ranks[m->ranks++] = snap->rank_id;
		}
		m->segments[m->segment_count - 1].count++;
		m->row_segment[j] = m->segment_count - 1;
		m->stage[j] = snap->stage;
		last = s;
		j++;
	}
	for (size_t g = 0; g < m->segment_count; g++)
		merge_layers(m, &m->segments[g]);
	/* Distinct ranks: the segments' ranks sorted, each counted once. */
	qsort(ranks, m->ranks, sizeof(*ranks), compare_rank);
	{
		size_t distinct = 0;
		for (size_t i = 0; i < m->ranks; i++)
			distinct += i == 0 || ranks[i] != ranks[i - 1];
		m->ranks = distinct;
	}
	*out = m;
	m = NULL;
done:
	free(keep);
	free(ranks);
	rli_gmm_matrix_free(m);
	return error;
}

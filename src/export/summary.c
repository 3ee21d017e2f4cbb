/* summary.c: writing summary.json: the statistics of src/stats/ in the schema doc/summary.schema.json describes. */
#include "summary.h"
#include "summary_internal.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/json_write.h"
#include "common/output_set.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void string_id(FILE *fp, const rli_stats *s, const char *name, uint32_t id, int first)
{
	text(fp, name, rli_events_str(s->events, id), first);
}

static void distribution(FILE *fp, const rli_distribution *d)
{
	count(fp, "count", d->count, 0);
	number(fp, "total_ms", d->total, 0);
	number(fp, "mean_ms", d->mean, 0);
	number(fp, "median_ms", d->median, 0);
	number(fp, "min_ms", d->min, 0);
	number(fp, "max_ms", d->max, 0);
	number(fp, "stddev_ms", d->stddev, 0);
	number(fp, "q1_ms", d->q1, 0);
	number(fp, "q3_ms", d->q3, 0);
	number(fp, "p95_ms", d->p95, 0);
	rank(fp, "min_rank", d->min_rank, 0);
	rank(fp, "max_rank", d->max_rank, 0);
	number(fp, "dispersion", d->dispersion, 0);
}

static void write_phases(FILE *fp, const rli_stats *s)
{
	list_open(fp, "phases");
	for (size_t i = 0; i < s->phase_count; i++) {
		item_open(fp, i);
		string_id(fp, s, "role", s->phases[i].role, 1);
		string_id(fp, s, "name", s->phases[i].name, 0);
		distribution(fp, &s->phases[i].duration);
		putc('}', fp);
	}
	fputs("]", fp);
}

/* Per rank: compact, the fields a comparison reads; past RLI_SUMMARY_MAX_RANK_PHASES none (the file says so). */
static void write_rank_phases(FILE *fp, const rli_stats *s)
{
	int listed = s->rank_phase_count <= RLI_SUMMARY_MAX_RANK_PHASES;
	fputs(",\n", fp);
	text(fp, "rank_phases_listed", listed ? "all" : "none", 1);
	list_open(fp, "rank_phases");
	for (size_t i = 0; listed && i < s->rank_phase_count; i++) {
		const rli_rank_phase_stats *p = &s->rank_phases[i];
		item_open(fp, i);
		string_id(fp, s, "role", p->role, 1);
		string_id(fp, s, "name", p->name, 0);
		rank(fp, "rank", p->rank, 0);
		count(fp, "count", p->duration.count, 0);
		number(fp, "total_ms", p->duration.total, 0);
		number(fp, "mean_ms", p->duration.mean, 0);
		number(fp, "median_ms", p->duration.median, 0);
		number(fp, "q1_ms", p->duration.q1, 0);
		number(fp, "q3_ms", p->duration.q3, 0);
		number(fp, "p95_ms", p->duration.p95, 0);
		putc('}', fp);
	}
	fputs("]", fp);
}

/* The role's steps: s->steps[first .. first + count), its outliers counted. */
static size_t role_steps(const rli_stats *s, size_t first, size_t *outliers)
{
	size_t end = first;
	*outliers = 0;
	while (end < s->step_count && s->steps[end].role == s->steps[first].role)
		*outliers += s->steps[end++].outlier != 0;
	return end - first;
}

static void write_roles(FILE *fp, const rli_stats *s)
{
	size_t index = 0;
	list_open(fp, "roles");
	for (size_t first = 0, steps, outliers; first < s->step_count; first += steps) {
		const rli_rank_slowest *straggler = rli_stats_straggler(s, s->steps[first].role);
		steps = role_steps(s, first, &outliers);
		item_open(fp, index++);
		string_id(fp, s, "role", s->steps[first].role, 1);
		count(fp, "ranks", s->steps[first].ranks, 0); /* every rank of the role has a first bar */
		count(fp, "steps", steps, 0);
		count(fp, "outlier_steps", outliers, 0);
		key(fp, "straggler_rank", 0);
		if (straggler)
			fprintf(fp, "%" PRId64, straggler->rank);
		else
			fputs("null", fp);
		text(fp, "steps_listed", steps <= RLI_SUMMARY_MAX_STEPS ? "all" : "outliers", 0);
		number(fp, "step_median_ms", s->role_step_ms[index - 1], 0);
		key(fp, "rank_ids", 0);
		putc('[', fp);
		for (size_t r = s->role_rank_first[index - 1]; r < s->role_rank_first[index]; r++)
			fprintf(fp, "%s%" PRId64, r > s->role_rank_first[index - 1] ? "," : "", s->role_rank_ids[r]);
		putc(']', fp);
		putc('}', fp);
	}
	fputs("]", fp);
}

static void write_steps(FILE *fp, const rli_stats *s)
{
	size_t index = 0;
	list_open(fp, "steps");
	for (size_t first = 0, steps, outliers; first < s->step_count; first += steps) {
		steps = role_steps(s, first, &outliers);
		for (size_t i = first; i < first + steps; i++) {
			const rli_step_stats *st = &s->steps[i];
			if (steps > RLI_SUMMARY_MAX_STEPS && !st->outlier)
				continue;
			item_open(fp, index++);
			string_id(fp, s, "role", st->role, 1);
			count(fp, "step", st->step, 0);
			count(fp, "ranks", st->ranks, 0);
			number(fp, "median_ms", st->median_ms, 0);
			rank(fp, "slowest_rank", st->slowest_rank, 0);
			number(fp, "slowest_ms", st->slowest_ms, 0);
			number(fp, "slowdown", st->slowdown, 0);
			number(fp, "modified_z", st->modified_z, 0); /* null when it cannot be computed */
			key(fp, "outlier", 0);
			fputs(st->outlier ? "true}" : "false}", fp);
		}
	}
	fputs("]", fp);
	list_open(fp, "slowest_ranks");
	for (size_t i = 0; i < s->slowest_count; i++) {
		const rli_rank_slowest *r = &s->slowest[i];
		item_open(fp, i);
		string_id(fp, s, "role", r->role, 1);
		rank(fp, "rank", r->rank, 0);
		count(fp, "slowest_steps", r->slowest, 0);
		count(fp, "outlier_steps", r->outlier, 0);
		count(fp, "steps", r->steps, 0);
		key(fp, "straggler", 0);
		fputs(r->straggler ? "true}" : "false}", fp);
	}
	fputs("]", fp);
}

static int more_idle(const void *pa, const void *pb)
{
	const rli_rank_bubbles *a = *(const rli_rank_bubbles *const *)pa, *b = *(const rli_rank_bubbles *const *)pb;
	if (a->idle_ms != b->idle_ms)
		return a->idle_ms > b->idle_ms ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

static void write_idle_rank(FILE *fp, const rli_stats *s, const rli_rank_bubbles *b, size_t index)
{
	item_open(fp, index);
	rank(fp, "rank", b->rank, 1);
	count(fp, "gaps", b->gaps, 0);
	number(fp, "idle_ms", b->idle_ms, 0);
	key(fp, "longest", 0);
	putc('[', fp);
	for (size_t g = 0; g < b->longest_count; g++) {
		fputs(g ? ",{" : "{", fp);
		number(fp, "start_ms", b->longest[g].start_ms, 1);
		number(fp, "duration_ms", b->longest[g].duration_ms, 0);
		string_id(fp, s, "before", b->longest[g].before, 0);
		string_id(fp, s, "after", b->longest[g].after, 0);
		putc('}', fp);
	}
	fputs("]}", fp);
}

/* Every rank by number, or past the bound the most idle ones, most idle first. */
static int write_bubbles(FILE *fp, const rli_stats *s)
{
	list_open(fp, "idle");
	if (s->bubble_count <= RLI_SUMMARY_MAX_IDLE_RANKS) {
		for (size_t i = 0; i < s->bubble_count; i++)
			write_idle_rank(fp, s, &s->bubbles[i], i);
	} else {
		const rli_rank_bubbles **order = malloc(s->bubble_count * sizeof(*order));
		if (!order)
			return rli_error_oom();
		for (size_t i = 0; i < s->bubble_count; i++)
			order[i] = &s->bubbles[i];
		qsort(order, s->bubble_count, sizeof(*order), more_idle);
		for (size_t i = 0; i < RLI_SUMMARY_MAX_IDLE_RANKS; i++)
			write_idle_rank(fp, s, order[i], i);
		free(order);
	}
	fputs("]", fp);
	list_open(fp, "role_transitions");
	for (size_t i = 0; i < s->transition_count; i++) {
		item_open(fp, i);
		string_id(fp, s, "from_role", s->transitions[i].from_role, 1);
		string_id(fp, s, "to_role", s->transitions[i].to_role, 0);
		distribution(fp, &s->transitions[i].wait);
		putc('}', fp);
	}
	fputs("]", fp);
	return RLI_OK;
}

static void write_overlap(FILE *fp, const rli_stats *s)
{
	list_open(fp, "role_overlap");
	for (size_t i = 0; i < s->overlap_count; i++) {
		item_open(fp, i);
		string_id(fp, s, "role_a", s->overlaps[i].role_a, 1);
		string_id(fp, s, "role_b", s->overlaps[i].role_b, 0);
		number(fp, "overlap_ms", s->overlaps[i].overlap_ms, 0);
		putc('}', fp);
	}
	fputs("]", fp);
	list_open(fp, "occupancy");
	for (size_t i = 0; i < s->occupancy_count; i++) {
		const rli_role_occupancy *o = &s->occupancy[i];
		uint32_t buckets[RLI_SUMMARY_OCCUPANCY_BUCKETS];
		size_t n = rli_stats_occupancy_buckets(buckets, RLI_SUMMARY_OCCUPANCY_BUCKETS, s, i);
		item_open(fp, i);
		string_id(fp, s, "role", o->role, 1);
		count(fp, "peak_ranks", o->peak_ranks, 0);
		number(fp, "peak_ms", o->peak_ms, 0);
		number(fp, "bucket_ms", n ? (s->end_ms - s->start_ms) / (double)n : 0, 0);
		key(fp, "bucket_max_ranks", 0);
		putc('[', fp);
		for (size_t b = 0; b < n; b++)
			fprintf(fp, "%s%" PRIu32, b ? "," : "", buckets[b]);
		putc(']', fp);
		if (o->count <= RLI_SUMMARY_MAX_POINTS) {
			key(fp, "points", 0);
			putc('[', fp);
			for (size_t p = 0; p < o->count; p++) {
				const rli_occupancy_point *pt = &s->occupancy_points[o->first + p];
				fputs(p ? ",[" : "[", fp);
				rli_json_write_double(fp, pt->t_ms);
				fprintf(fp, ",%" PRIu32 "]", pt->ranks);
			}
			putc(']', fp);
		}
		putc('}', fp);
	}
	fputs("]", fp);
}

/* The timeline's part: the run, then its phases, roles, steps, idle time and overlap. */
int rli_summary_write_timeline(FILE *fp, const rli_stats *s)
{
	int error;
	fputs(",\n\"run\":{", fp);
	number(fp, "start_ms", s->start_ms, 1);
	number(fp, "end_ms", s->end_ms, 0);
	number(fp, "duration_ms", s->end_ms - s->start_ms, 0);
	count(fp, "rows_counted", s->rows_counted, 0);
	count(fp, "rows_left_out", s->rows_left_out, 0);
	count(fp, "roles", s->role_count, 0);
	count(fp, "ranks", s->rank_count, 0);
	count(fp, "max_steps", s->max_steps, 0);
	number(fp, "step_ms", s->step_ms, 0);
	text(fp, "idle_listed", s->bubble_count <= RLI_SUMMARY_MAX_IDLE_RANKS ? "all" : "most idle", 0);
	putc('}', fp);
	write_phases(fp, s);
	write_rank_phases(fp, s);
	write_roles(fp, s);
	write_steps(fp, s);
	if ((error = write_bubbles(fp, s)) < 0)
		return error;
	write_overlap(fp, s);
	return RLI_OK;
}

int rli_summary_write_sections(const rli_summary_section *sections, size_t section_count, const rli_summary_info *info,
			       const char *path, rli_output_set *set)
{
	rli_atomic_file file;
	FILE *fp;
	int error;

	if ((error = rli_atomic_open(&file, path)) < 0)
		return error;
	fp = file.fp;
	fputs("{", fp);
	count(fp, "schema_version", RLI_SUMMARY_SCHEMA_VERSION, 1);
	fputs(",\n\"tool\":{", fp);
	text(fp, "name", "rl-insight", 1);
	text(fp, "version", RLI_VERSION, 0);
	fputs("},\n\"input\":{", fp);
	text(fp, "path", info->input_path, 1);
	text(fp, "profiler", info->profiler, 0);
	putc('}', fp);
	for (size_t i = 0; i < section_count; i++)
		if ((error = sections[i].write(fp, sections[i].data)) < 0) {
			rli_atomic_abort(&file);
			return error;
		}
	if (info->comparison)
		rli_summary_write_comparison(fp, info->comparison);
	fputs("\n}\n", fp);
	return rli_output_finish(set, &file);
}

static int timeline_section(FILE *fp, const void *stats)
{
	return rli_summary_write_timeline(fp, stats);
}

static int memory_section(FILE *fp, const void *memory)
{
	return rli_summary_write_memory(fp, memory);
}

int rli_summary_write(const rli_stats *s, const rli_memory_stats *memory, const rli_summary_info *info,
		      const char *path, rli_output_set *set)
{
	rli_summary_section sections[2];
	size_t n = 0;
	if (s)
		sections[n++] = (rli_summary_section){ timeline_section, s };
	if (memory)
		sections[n++] = (rli_summary_section){ memory_section, memory };
	return rli_summary_write_sections(sections, n, info, path, set);
}

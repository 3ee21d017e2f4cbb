/* summary.c: writing summary.json: the statistics of src/stats/ in the schema doc/summary.schema.json describes. */
#include "summary.h"
#include "common/atomic_file.h"
#include "common/json_write.h"
#include "common/output_set.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* A "key": prefix; `first` is whether it opens its object. */
static void key(FILE *fp, const char *name, int first)
{
	fprintf(fp, "%s\"%s\":", first ? "" : ",", name);
}

static void text(FILE *fp, const char *name, const char *value, int first)
{
	key(fp, name, first);
	rli_json_write_string(fp, value ? value : "", RLI_JSON_PLAIN);
}

static void number(FILE *fp, const char *name, double value, int first)
{
	key(fp, name, first);
	rli_json_write_double(fp, value);
}

static void count(FILE *fp, const char *name, uint64_t value, int first)
{
	key(fp, name, first);
	fprintf(fp, "%" PRIu64, value);
}

static void rank(FILE *fp, const char *name, int64_t value, int first)
{
	key(fp, name, first);
	fprintf(fp, "%" PRId64, value);
}

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
	rank(fp, "min_rank", d->min_rank, 0);
	rank(fp, "max_rank", d->max_rank, 0);
	number(fp, "dispersion", d->dispersion, 0);
}

/* Opens a list: "name":[ then one item per line. */
static void list_open(FILE *fp, const char *name)
{
	fprintf(fp, ",\n\"%s\":[", name);
}

static void item_open(FILE *fp, size_t index)
{
	fputs(index ? ",\n{" : "\n{", fp);
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

static void write_steps(FILE *fp, const rli_stats *s)
{
	list_open(fp, "steps");
	for (size_t i = 0; i < s->step_count; i++) {
		const rli_step_stats *st = &s->steps[i];
		item_open(fp, i);
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

static void write_bubbles(FILE *fp, const rli_stats *s)
{
	list_open(fp, "idle");
	for (size_t i = 0; i < s->bubble_count; i++) {
		const rli_rank_bubbles *b = &s->bubbles[i];
		item_open(fp, i);
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
		item_open(fp, i);
		string_id(fp, s, "role", o->role, 1);
		count(fp, "peak_ranks", o->peak_ranks, 0);
		number(fp, "peak_ms", o->peak_ms, 0);
		key(fp, "points", 0);
		putc('[', fp);
		for (size_t p = 0; p < o->count; p++) {
			const rli_occupancy_point *pt = &s->occupancy_points[o->first + p];
			fputs(p ? ",[" : "[", fp);
			rli_json_write_double(fp, pt->t_ms);
			fprintf(fp, ",%" PRIu32 "]", pt->ranks);
		}
		fputs("]}", fp);
	}
	fputs("]", fp);
}

int rli_summary_write(const rli_stats *s, const rli_summary_info *info, const char *path, rli_output_set *set)
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
	fputs("},\n\"run\":{", fp);
	number(fp, "start_ms", s->start_ms, 1);
	number(fp, "end_ms", s->end_ms, 0);
	number(fp, "duration_ms", s->end_ms - s->start_ms, 0);
	count(fp, "rows_counted", s->rows_counted, 0);
	count(fp, "rows_left_out", s->rows_left_out, 0);
	count(fp, "roles", s->role_count, 0);
	count(fp, "ranks", s->rank_count, 0);
	count(fp, "max_steps", s->max_steps, 0);
	putc('}', fp);
	write_phases(fp, s);
	write_steps(fp, s);
	write_bubbles(fp, s);
	write_overlap(fp, s);
	fputs("\n}\n", fp);
	return rli_output_finish(set, &file);
}

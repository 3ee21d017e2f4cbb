/* side_summary.c: a comparison side read back from a summary.json, streamed through yajl: the statistics, without the bars. */
#include "side.h"
#include "common/error.h"
#include "parse/json_stream.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the object or array being read is; anything the comparison does not use is OTHER. */
typedef enum {
	IN_OTHER = 0, IN_ROOT, IN_TOOL, IN_INPUT, IN_RUN, IN_MEMORY,
	IN_PHASES, IN_PHASE, IN_RANK_PHASES, IN_RANK_PHASE, IN_STEPS, IN_STEP, IN_ROLES, IN_ROLE, IN_RANK_IDS, IN_TRANSITIONS, IN_TRANSITION,
	IN_DEVICES, IN_DEVICE, IN_SITES, IN_SITE
} place;

/* What a value the comparison takes must be; ANY for the values it does not read. */
typedef enum {
	WANT_ANY = 0,
	WANT_NUMBER,        /* or null: what summary.json writes for a number that is not finite */
	WANT_COUNT,         /* a whole number from 0 */
	WANT_RANK,          /* a whole number that fits int64 */
	WANT_RANK_OR_NULL,  /* null: none (a role without a straggler) */
	WANT_STRING,
	WANT_OBJECT,
	WANT_ARRAY
} want;

typedef enum { GOT_NULL, GOT_BOOLEAN, GOT_NUMBER, GOT_STRING, GOT_OBJECT, GOT_ARRAY } got;

/*
 * A summary.json nests six levels at its deepest (memory.devices[].sites_by_live[] holds
 * objects); this bounds what is kept per level, and deeper nesting is not a summary.
 */
#define MAX_DEPTH 16

typedef struct {
	place place;
	int array;
	size_t items;   /* array: values opened in it so far; the current one is items - 1 */
	char key[32];   /* object: its last key, cut short (no key we read is longer) */
} level;

typedef struct {
	rli_json json;
	rli_compare_side *side;
	level levels[MAX_DEPTH];
	int depth;                 /* of levels */
	int64_t schema_version;
	int tool_is_ours;
} reader;

static place here(const reader *r)
{
	return r->depth > 0 ? r->levels[r->depth - 1].place : IN_OTHER;
}

static int is(const reader *r, const char *key)
{
	return r->depth > 0 && !r->levels[r->depth - 1].array && strcmp(r->levels[r->depth - 1].key, key) == 0;
}

/* Where a value is, as "phases[3].total_ms": the keys and indexes of the first `levels` levels. */
static const char *path_of(char *out, size_t size, const reader *r, int levels)
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < levels && used < size; i++) {
		const level *l = &r->levels[i];
		int n = l->array ? snprintf(out + used, size - used, "[%zu]", l->items ? l->items - 1 : 0)
				 : snprintf(out + used, size - used, "%s%s", i ? "." : "", l->key);
		used += n > 0 ? (size_t)n : 0;
	}
	return out;
}

/* The sample fields a phase, a rank's phase and a role transition share. */
static want sample_want(const reader *r)
{
	static const char *const times[] = { "total_ms", "mean_ms", "median_ms", "q1_ms", "q3_ms", "p95_ms" };
	if (is(r, "count"))
		return WANT_COUNT;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (is(r, times[i]))
			return WANT_NUMBER;
	return WANT_ANY;
}

/* What the value about to be read must be, from where it is and under which key. */
static want expected(const reader *r)
{
	if (r->depth == 0)
		return WANT_OBJECT;
	switch (here(r)) {
	case IN_ROOT:
		if (is(r, "schema_version"))
			return WANT_COUNT;
		if (is(r, "tool") || is(r, "input") || is(r, "run") || is(r, "memory"))
			return WANT_OBJECT;
		if (is(r, "phases") || is(r, "rank_phases") || is(r, "roles") || is(r, "steps") || is(r, "role_transitions"))
			return WANT_ARRAY;
		return WANT_ANY;
	case IN_TOOL:
		return is(r, "name") ? WANT_STRING : WANT_ANY;
	case IN_INPUT:
		return is(r, "profiler") ? WANT_STRING : WANT_ANY;
	case IN_RUN:
		if (is(r, "start_ms") || is(r, "end_ms") || is(r, "step_ms"))
			return WANT_NUMBER;
		return is(r, "max_steps") ? WANT_COUNT : WANT_ANY;
	case IN_MEMORY:
		return is(r, "devices") ? WANT_ARRAY : WANT_ANY;
	/* Every list the comparison reads is a list of objects: nothing else may stand for one of them. */
	case IN_PHASES: case IN_RANK_PHASES: case IN_STEPS: case IN_ROLES: case IN_TRANSITIONS: case IN_DEVICES:
	case IN_SITES:
		return WANT_OBJECT;
	case IN_PHASE:
		return is(r, "role") || is(r, "name") ? WANT_STRING : sample_want(r);
	case IN_RANK_PHASE:
		return is(r, "role") || is(r, "name") ? WANT_STRING : is(r, "rank") ? WANT_RANK : sample_want(r);
	case IN_TRANSITION:
		return is(r, "from_role") || is(r, "to_role") ? WANT_STRING : sample_want(r);
	case IN_STEP:
		if (is(r, "role"))
			return WANT_STRING;
		if (is(r, "step") || is(r, "ranks"))
			return WANT_COUNT;
		if (is(r, "median_ms") || is(r, "slowest_ms"))
			return WANT_NUMBER;
		return is(r, "slowest_rank") ? WANT_RANK : WANT_ANY;
	case IN_ROLE:
		if (is(r, "role"))
			return WANT_STRING;
		if (is(r, "steps"))
			return WANT_COUNT;
		if (is(r, "step_median_ms"))
			return WANT_NUMBER;
		if (is(r, "straggler_rank"))
			return WANT_RANK_OR_NULL;
		return is(r, "rank_ids") ? WANT_ARRAY : WANT_ANY;
	case IN_RANK_IDS:
		return WANT_RANK;
	case IN_DEVICE:
		if (is(r, "role") || is(r, "device_type"))
			return WANT_STRING;
		if (is(r, "rank"))
			return WANT_RANK;
		if (is(r, "allocations") || is(r, "never_freed"))
			return WANT_COUNT;
		if (is(r, "allocated_kb") || is(r, "peak_mb") || is(r, "peak_ms") || is(r, "never_freed_kb"))
			return WANT_NUMBER;
		return is(r, "sites_by_allocated") || is(r, "sites_by_live") ? WANT_ARRAY : WANT_ANY;
	case IN_SITE:
		if (is(r, "call_stack_top"))
			return WANT_STRING;
		if (is(r, "count"))
			return WANT_COUNT;
		return is(r, "allocated_kb") || is(r, "live_kb") ? WANT_NUMBER : WANT_ANY;
	default:
		return WANT_ANY;
	}
}

static int accepts(want w, got g)
{
	switch (w) {
	case WANT_ANY:
		return 1;
	case WANT_NUMBER:
	case WANT_RANK_OR_NULL:
		return g == GOT_NUMBER || g == GOT_NULL;
	case WANT_COUNT:
	case WANT_RANK:
		return g == GOT_NUMBER;
	case WANT_STRING:
		return g == GOT_STRING;
	case WANT_OBJECT:
		return g == GOT_OBJECT;
	case WANT_ARRAY:
		return g == GOT_ARRAY;
	}
	return 0;
}

static const char *want_name(want w)
{
	static const char *const names[] = { "anything", "a number", "a whole number from 0", "a whole number (a rank)",
					     "a whole number (a rank) or null", "a string", "an object", "an array" };
	return names[w];
}

static const char *got_name(got g)
{
	static const char *const names[] = { "null", "true or false", "a number", "a string", "an object", "an array" };
	return names[g];
}

/*
 * Every value passes here first: it counts as the next item of an array, and it must be what
 * the comparison takes there. Returns the want (for number()), or -1 with the parse stopped.
 */
static int check(reader *r, got g)
{
	want w = expected(r);
	char path[256];
	if (r->depth > 0 && r->levels[r->depth - 1].array)
		r->levels[r->depth - 1].items++;
	if (accepts(w, g))
		return (int)w;
	if (r->depth == 0)
		rli_json_stop(&r->json, "the top level must be an object, got %s", got_name(g));
	else
		rli_json_stop(&r->json, "%s must be %s, got %s", path_of(path, sizeof(path), r, r->depth), want_name(w),
			      got_name(g));
	return -1;
}

/* The place a new object or array opens into, from where it is and under which key (its type already checked). */
static place child(const reader *r, int array)
{
	if (r->depth == 0)
		return IN_ROOT;
	switch (here(r)) {
	case IN_ROOT:
		if (array)
			return is(r, "phases") ? IN_PHASES : is(r, "rank_phases") ? IN_RANK_PHASES : is(r, "roles") ? IN_ROLES :
			       is(r, "steps") ? IN_STEPS :
			       is(r, "role_transitions") ? IN_TRANSITIONS : IN_OTHER;
		return is(r, "tool") ? IN_TOOL : is(r, "input") ? IN_INPUT : is(r, "run") ? IN_RUN :
		       is(r, "memory") ? IN_MEMORY : IN_OTHER;
	case IN_MEMORY:
		return array && is(r, "devices") ? IN_DEVICES : IN_OTHER;
	case IN_ROLE:
		return array && is(r, "rank_ids") ? IN_RANK_IDS : IN_OTHER;
	case IN_DEVICE:
		return array && (is(r, "sites_by_allocated") || is(r, "sites_by_live")) ? IN_SITES : IN_OTHER;
	case IN_PHASES:
		return IN_PHASE;
	case IN_RANK_PHASES:
		return IN_RANK_PHASE;
	case IN_ROLES:
		return IN_ROLE;
	case IN_STEPS:
		return IN_STEP;
	case IN_TRANSITIONS:
		return IN_TRANSITION;
	case IN_DEVICES:
		return IN_DEVICE;
	case IN_SITES:
		return IN_SITE;
	default:
		return IN_OTHER;
	}
}

static int open_place(reader *r, int array)
{
	place p;
	rli_compare_side *s = r->side;
	int made = 1;
	char path[256];
	if (check(r, array ? GOT_ARRAY : GOT_OBJECT) < 0)
		return 0;
	if (r->depth == MAX_DEPTH)
		return rli_json_stop(&r->json, "%s nests deeper than %d levels, deeper than any summary.json",
				     path_of(path, sizeof(path), r, r->depth), MAX_DEPTH);
	if (!rli_json_enter(&r->json))
		return 0;
	p = child(r, array);
	switch (p) {
	case IN_PHASE:
		made = rli_side_add_phase(s) != NULL;
		if (made)
			s->phases[s->phase_count - 1].sample.p95_ms = NAN;
		break;
	case IN_RANK_PHASE:
		made = rli_side_add_rank_phase(s) != NULL;
		if (made)
			s->rank_phases[s->rank_phase_count - 1].sample.p95_ms = NAN;
		break;
	case IN_STEP:
		made = rli_side_add_step(s) != NULL;
		break;
	case IN_ROLE:
		made = rli_side_add_role(s) != NULL;
		break;
	case IN_TRANSITION:
		made = rli_side_add_transition(s) != NULL;
		if (made)
			s->transitions[s->transition_count - 1].wait.p95_ms = NAN;
		break;
	case IN_DEVICE:
		made = rli_side_add_device(s) != NULL;
		break;
	case IN_SITE:
		made = rli_side_add_site(s) != NULL;
		break;
	case IN_RUN:
		s->has_timeline = 1;
		break;
	case IN_MEMORY:
		s->has_memory = 1;
		break;
	default:
		break;
	}
	if (!made)
		return rli_json_stop(&r->json, "out of memory");
	r->levels[r->depth] = (level){ .place = p, .array = array };
	r->depth++;
	return 1;
}

static int start_map(void *ctx)
{
	return open_place(ctx, 0);
}

static int start_array(void *ctx)
{
	return open_place(ctx, 1);
}

/* Closing an object checks it named what the comparison aligns it by. */
static int close_place(void *ctx)
{
	reader *r = ctx;
	rli_compare_side *s = r->side;
	place p = here(r);
	const char *missing = NULL;
	char path[256];
	if (p == IN_PHASE && (!s->phases[s->phase_count - 1].role || !s->phases[s->phase_count - 1].name))
		missing = "a phase without its role or name";
	else if (p == IN_RANK_PHASE && (!s->rank_phases[s->rank_phase_count - 1].role || !s->rank_phases[s->rank_phase_count - 1].name))
		missing = "a rank's phase without its role or name";
	else if (p == IN_STEP && !s->steps[s->step_count - 1].role)
		missing = "a step without its role";
	else if (p == IN_ROLE && !s->roles[s->role_count - 1].role)
		missing = "a role without its name";
	else if (p == IN_TRANSITION && (!s->transitions[s->transition_count - 1].from || !s->transitions[s->transition_count - 1].to))
		missing = "a role transition without from_role or to_role";
	else if (p == IN_DEVICE && (!s->devices[s->device_count - 1].role || !s->devices[s->device_count - 1].device_type))
		missing = "a memory device without its role or device_type";
	else if (p == IN_SITE && !s->sites[s->site_count - 1].text)
		missing = "a call site without call_stack_top";
	if (missing)
		return rli_json_stop(&r->json, "%s: %s", path_of(path, sizeof(path), r, r->depth - 1), missing);
	r->depth--;
	rli_json_leave(&r->json);
	return 1;
}

static int map_key(void *ctx, const unsigned char *key, size_t length)
{
	reader *r = ctx;
	level *l = &r->levels[r->depth - 1]; /* yajl gives keys inside an object only */
	if (length >= sizeof(l->key))
		length = sizeof(l->key) - 1;
	memcpy(l->key, key, length);
	l->key[length] = '\0';
	return 1;
}

/* A distribution's field into sample (whole: the value as a whole number, for the count). */
static void sample_field(rli_side_sample *sample, const reader *r, double value, int64_t whole)
{
	static const struct {
		const char *key;
		size_t offset;
	} fields[] = {
		{ "total_ms", offsetof(rli_side_sample, total_ms) }, { "mean_ms", offsetof(rli_side_sample, mean_ms) },
		{ "median_ms", offsetof(rli_side_sample, median_ms) }, { "q1_ms", offsetof(rli_side_sample, q1_ms) },
		{ "q3_ms", offsetof(rli_side_sample, q3_ms) }, { "p95_ms", offsetof(rli_side_sample, p95_ms) },
	};
	if (is(r, "count")) {
		sample->count = (size_t)whole;
		return;
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (is(r, fields[i].key)) {
			*(double *)((char *)sample + fields[i].offset) = value;
			return;
		}
}

/*
 * A whole number as the summary writes it (JSON integer syntax), or a numeral of a whole value
 * that fits (1e3, 2.0): 0, or -1 when it is not one.
 */
static int whole_of(int64_t *out, const char *text, size_t length, double v)
{
	if (rli_text_to_int64(out, text, length) == 0)
		return 0;
	/* -2^63 and 2^63: the int64 range, both exact as doubles */
	if (v == floor(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
		*out = (int64_t)v;
		return 0;
	}
	return -1;
}

/* The value as the comparison takes it: what it must be is checked before, per key. */
static int number(void *ctx, const char *text, size_t length)
{
	reader *r = ctx;
	rli_compare_side *s = r->side;
	int w = check(r, GOT_NUMBER);
	double v;
	int64_t whole = 0;
	char path[256];
	if (w < 0)
		return 0;
	if (w == WANT_ANY)
		return 1; /* not read: not parsed */
	path_of(path, sizeof(path), r, r->depth);
	if (rli_text_to_double(&v, text, length) < 0)
		return rli_json_stop(&r->json, "%s is not a finite number", path);
	if (w == WANT_COUNT || w == WANT_RANK || w == WANT_RANK_OR_NULL) {
		if (whole_of(&whole, text, length, v) < 0)
			return rli_json_stop(&r->json, "%s must be %s, got %.*s", path, want_name((want)w),
					     (int)(length < 40 ? length : 40), text);
		/* a count is a size: below 0, or past what size_t holds on this machine, it is none we wrote */
		if (w == WANT_COUNT && (whole < 0 || (uint64_t)whole > SIZE_MAX))
			return rli_json_stop(&r->json, "%s must be %s, got %.*s", path, want_name((want)w),
					     (int)(length < 40 ? length : 40), text);
	}
	switch (here(r)) {
	case IN_ROOT:
		if (is(r, "schema_version"))
			r->schema_version = whole;
		break;
	case IN_RUN:
		if (is(r, "start_ms"))
			s->start_ms = v;
		else if (is(r, "end_ms"))
			s->end_ms = v;
		else if (is(r, "step_ms"))
			s->step_ms = v;
		else if (is(r, "max_steps"))
			s->max_steps = (size_t)whole;
		break;
	case IN_PHASE:
		sample_field(&s->phases[s->phase_count - 1].sample, r, v, whole);
		break;
	case IN_RANK_PHASE:
		if (is(r, "rank"))
			s->rank_phases[s->rank_phase_count - 1].rank = whole;
		else
			sample_field(&s->rank_phases[s->rank_phase_count - 1].sample, r, v, whole);
		break;
	case IN_TRANSITION:
		sample_field(&s->transitions[s->transition_count - 1].wait, r, v, whole);
		break;
	case IN_STEP: {
		rli_side_step *k = &s->steps[s->step_count - 1];
		if (is(r, "step"))
			k->step = (size_t)whole;
		else if (is(r, "ranks"))
			k->ranks = (size_t)whole;
		else if (is(r, "median_ms"))
			k->median_ms = v;
		else if (is(r, "slowest_ms"))
			k->slowest_ms = v;
		else if (is(r, "slowest_rank"))
			k->slowest_rank = whole;
		break;
	}
	case IN_ROLE: {
		rli_side_role *role = &s->roles[s->role_count - 1];
		if (is(r, "steps"))
			role->steps = (size_t)whole;
		else if (is(r, "step_median_ms"))
			role->step_ms = v;
		else if (is(r, "straggler_rank")) {
			role->has_straggler = 1;
			role->straggler_rank = whole;
		}
		break;
	}
	case IN_RANK_IDS:
		if (rli_side_add_rank(s, whole) < 0)
			return rli_json_stop(&r->json, "out of memory");
		break;
	case IN_DEVICE: {
		rli_side_device *d = &s->devices[s->device_count - 1];
		if (is(r, "rank"))
			d->rank = whole;
		else if (is(r, "allocations"))
			d->allocations = (size_t)whole;
		else if (is(r, "allocated_kb"))
			d->allocated_kb = v;
		else if (is(r, "peak_mb"))
			d->peak_mb = v;
		else if (is(r, "peak_ms"))
			d->peak_ms = v;
		else if (is(r, "never_freed"))
			d->never_freed = (size_t)whole;
		else if (is(r, "never_freed_kb"))
			d->never_freed_kb = v;
		break;
	}
	case IN_SITE: {
		rli_side_site *site = &s->sites[s->site_count - 1];
		if (is(r, "count"))
			site->count = (size_t)whole;
		else if (is(r, "allocated_kb"))
			site->allocated_kb = v;
		else if (is(r, "live_kb"))
			site->live_kb = v;
		break;
	}
	default:
		break;
	}
	return 1;
}

static int string(void *ctx, const unsigned char *value, size_t length)
{
	reader *r = ctx;
	rli_compare_side *s = r->side;
	const char **slot = NULL;
	if (check(r, GOT_STRING) < 0)
		return 0;
	switch (here(r)) {
	case IN_TOOL:
		if (is(r, "name"))
			r->tool_is_ours = length == 10 && memcmp(value, "rl-insight", 10) == 0;
		else if (is(r, "version"))
			slot = &s->tool_version; /* kept by the run history, not compared */
		break;
	case IN_INPUT:
		if (is(r, "profiler"))
			slot = &s->profiler;
		else if (is(r, "path"))
			slot = &s->input;
		break;
	case IN_PHASE:
		slot = is(r, "role") ? &s->phases[s->phase_count - 1].role :
		       is(r, "name") ? &s->phases[s->phase_count - 1].name : NULL;
		break;
	case IN_RANK_PHASE:
		slot = is(r, "role") ? &s->rank_phases[s->rank_phase_count - 1].role :
		       is(r, "name") ? &s->rank_phases[s->rank_phase_count - 1].name : NULL;
		break;
	case IN_STEP:
		slot = is(r, "role") ? &s->steps[s->step_count - 1].role : NULL;
		break;
	case IN_ROLE:
		slot = is(r, "role") ? &s->roles[s->role_count - 1].role : NULL;
		break;
	case IN_TRANSITION:
		slot = is(r, "from_role") ? &s->transitions[s->transition_count - 1].from :
		       is(r, "to_role") ? &s->transitions[s->transition_count - 1].to : NULL;
		break;
	case IN_DEVICE:
		slot = is(r, "role") ? &s->devices[s->device_count - 1].role :
		       is(r, "device_type") ? &s->devices[s->device_count - 1].device_type : NULL;
		break;
	case IN_SITE:
		slot = is(r, "call_stack_top") ? &s->sites[s->site_count - 1].text : NULL;
		break;
	default:
		break;
	}
	if (slot && !(*slot = rli_side_text(s, (const char *)value, length)))
		return rli_json_stop(&r->json, "out of memory");
	return 1;
}

/* null stands for a number that is not finite, or for no straggler: the value keeps its default. */
static int null_value(void *ctx)
{
	return check(ctx, GOT_NULL) >= 0;
}

static int boolean(void *ctx, int value)
{
	(void)value;
	return check(ctx, GOT_BOOLEAN) >= 0;
}

static const yajl_callbacks callbacks = {
	.yajl_null = null_value,
	.yajl_boolean = boolean,
	.yajl_number = number,
	.yajl_string = string,
	.yajl_start_map = start_map,
	.yajl_map_key = map_key,
	.yajl_end_map = close_place,
	.yajl_start_array = start_array,
	.yajl_end_array = close_place,
};

/* Reads the summary from source, named path in messages. */
static int read_summary(rli_compare_side **out, const char *path, rli_bytes *source)
{
	reader r = { .depth = 0 };
	char *failure = NULL;
	rli_read_result result;
	int error = RLI_OK;

	*out = NULL;
	if (!(r.side = rli_side_new(path, "", RLI_SIDE_SUMMARY)))
		return rli_error_oom();
	if (rli_json_open(&r.json, &callbacks, &r, 1) < 0) {
		rli_compare_side_free(r.side);
		return rli_error_oom();
	}
	result = rli_json_read(&r.json, source, &failure);
	if (result == RLI_READ_OOM) {
		error = rli_error_oom();
	} else if (result == RLI_READ_FAILED || result == RLI_READ_HALTED) {
		error = rli_error_set(RLI_EINVALID, "%s", failure ? failure : "Failed to read the summary");
	} else if (result == RLI_READ_EMPTY || !r.tool_is_ours) {
		error = rli_error_set(RLI_EINVALID, "%s is not a summary.json written by rl-insight (no \"tool\": "
					  "{\"name\": \"rl-insight\"})", path);
	} else if (r.schema_version < 2 || r.schema_version > 5) {
		error = rli_error_set(RLI_EINVALID, "%s is a summary.json of schema version %lld; this rl-insight "
					  "reads versions 2 to 5", path, (long long)r.schema_version);
	} else if (!r.side->has_timeline && !r.side->has_memory) {
		error = rli_error_set(RLI_EINVALID, "%s holds neither a timeline (\"run\") nor \"memory\"", path);
	} else {
		error = rli_side_finish(r.side);
	}
	free(failure);
	rli_json_close(&r.json);
	if (error < 0) {
		rli_compare_side_free(r.side);
		return error;
	}
	*out = r.side;
	return RLI_OK;
}

int rli_compare_side_read_summary(rli_compare_side **out, const char *path)
{
	rli_bytes *source = NULL;
	char *failure = NULL;
	rli_read_result opened = rli_bytes_open(&source, path, &failure);
	int error;

	*out = NULL;
	if (opened == RLI_READ_OOM)
		return rli_error_oom();
	if (opened != RLI_READ_OK) {
		error = rli_error_set(RLI_EINVALID, "%s", failure ? failure : "Failed to read the summary");
		free(failure);
		return error;
	}
	error = read_summary(out, path, source);
	rli_bytes_close(source);
	return error;
}

int rli_compare_side_read_summary_memory(rli_compare_side **out, const char *name, const void *data, size_t size)
{
	rli_bytes *source = NULL;
	int error;

	*out = NULL;
	if (rli_bytes_from_memory(&source, name, data, size) < 0)
		return rli_error_oom();
	error = read_summary(out, name, source);
	rli_bytes_close(source);
	return error;
}

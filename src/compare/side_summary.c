/* side_summary.c: a comparison side read back from a summary.json, streamed through yajl: the statistics, without the bars. */
#include "side.h"
#include "common/error.h"
#include "parse/json_stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the object or array being read is; anything the comparison does not use is OTHER. */
typedef enum {
	IN_OTHER = 0, IN_ROOT, IN_TOOL, IN_INPUT, IN_RUN, IN_MEMORY,
	IN_PHASES, IN_PHASE, IN_RANK_PHASES, IN_RANK_PHASE, IN_STEPS, IN_STEP, IN_ROLES, IN_ROLE, IN_RANK_IDS, IN_TRANSITIONS, IN_TRANSITION,
	IN_DEVICES, IN_DEVICE, IN_SITES, IN_SITE
} place;

#define MAX_PLACES 16

typedef struct {
	rli_json json;
	rli_compare_side *side;
	place stack[MAX_PLACES];
	int depth;                 /* of stack; deeper levels are OTHER */
	char key[32];              /* the current object's last key, cut short (no key we read is longer) */
	int64_t schema_version;
	int tool_is_ours;
} reader;

static place here(const reader *r)
{
	return r->depth > 0 && r->depth <= MAX_PLACES ? r->stack[r->depth - 1] : IN_OTHER;
}

static int is(const reader *r, const char *key)
{
	return strcmp(r->key, key) == 0;
}

/* The place a new object or array opens into, from where it is and under which key. */
static place child(const reader *r, int array)
{
	switch (here(r)) {
	case IN_OTHER:
		return r->depth == 0 && !array ? IN_ROOT : IN_OTHER;
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
		return array ? IN_OTHER : IN_PHASE;
	case IN_RANK_PHASES:
		return array ? IN_OTHER : IN_RANK_PHASE;
	case IN_ROLES:
		return array ? IN_OTHER : IN_ROLE;
	case IN_STEPS:
		return array ? IN_OTHER : IN_STEP;
	case IN_TRANSITIONS:
		return array ? IN_OTHER : IN_TRANSITION;
	case IN_DEVICES:
		return array ? IN_OTHER : IN_DEVICE;
	case IN_SITES:
		return array ? IN_OTHER : IN_SITE;
	default:
		return IN_OTHER;
	}
}

static int open_place(reader *r, int array)
{
	place p = child(r, array);
	rli_compare_side *s = r->side;
	int made = 1;
	if (!rli_json_enter(&r->json))
		return 0;
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
	if (r->depth < MAX_PLACES)
		r->stack[r->depth] = p;
	r->depth++;
	r->key[0] = '\0';
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
		return rli_json_stop(&r->json, "%s", missing);
	r->depth--;
	rli_json_leave(&r->json);
	return 1;
}

static int map_key(void *ctx, const unsigned char *key, size_t length)
{
	reader *r = ctx;
	if (length >= sizeof(r->key))
		length = sizeof(r->key) - 1;
	memcpy(r->key, key, length);
	r->key[length] = '\0';
	return 1;
}

/* A count as the summary writes it; a negative one (not ours) is none. */
static size_t count_of(int64_t whole)
{
	return whole > 0 ? (size_t)whole : 0;
}

/* A distribution's field into sample (whole: the value as a whole number, for the count); 1 when the key was one. */
static int sample_field(rli_side_sample *sample, const char *key, double value, int64_t whole)
{
	static const struct {
		const char *key;
		size_t offset;
	} fields[] = {
		{ "total_ms", offsetof(rli_side_sample, total_ms) }, { "mean_ms", offsetof(rli_side_sample, mean_ms) },
		{ "median_ms", offsetof(rli_side_sample, median_ms) }, { "q1_ms", offsetof(rli_side_sample, q1_ms) },
		{ "q3_ms", offsetof(rli_side_sample, q3_ms) }, { "p95_ms", offsetof(rli_side_sample, p95_ms) },
	};
	if (strcmp(key, "count") == 0) {
		sample->count = count_of(whole);
		return 1;
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strcmp(key, fields[i].key) == 0) {
			*(double *)((char *)sample + fields[i].offset) = value;
			return 1;
		}
	return 0;
}

static int number(void *ctx, const char *text, size_t length)
{
	reader *r = ctx;
	rli_compare_side *s = r->side;
	double v;
	int64_t whole = 0;
	if (rli_text_to_double(&v, text, length) < 0)
		return rli_json_stop(&r->json, "\"%s\" is not a finite number", r->key);
	whole = v >= -9.2e18 && v <= 9.2e18 ? (int64_t)v : 0;
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
			s->max_steps = count_of(whole);
		break;
	case IN_PHASE:
		sample_field(&s->phases[s->phase_count - 1].sample, r->key, v, whole);
		break;
	case IN_RANK_PHASE:
		if (is(r, "rank"))
			s->rank_phases[s->rank_phase_count - 1].rank = whole;
		else
			sample_field(&s->rank_phases[s->rank_phase_count - 1].sample, r->key, v, whole);
		break;
	case IN_TRANSITION:
		sample_field(&s->transitions[s->transition_count - 1].wait, r->key, v, whole);
		break;
	case IN_STEP: {
		rli_side_step *k = &s->steps[s->step_count - 1];
		if (is(r, "step"))
			k->step = count_of(whole);
		else if (is(r, "ranks"))
			k->ranks = count_of(whole);
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
			role->steps = count_of(whole);
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
			d->allocations = count_of(whole);
		else if (is(r, "allocated_kb"))
			d->allocated_kb = v;
		else if (is(r, "peak_mb"))
			d->peak_mb = v;
		else if (is(r, "peak_ms"))
			d->peak_ms = v;
		else if (is(r, "never_freed"))
			d->never_freed = count_of(whole);
		else if (is(r, "never_freed_kb"))
			d->never_freed_kb = v;
		break;
	}
	case IN_SITE: {
		rli_side_site *site = &s->sites[s->site_count - 1];
		if (is(r, "count"))
			site->count = count_of(whole);
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
	switch (here(r)) {
	case IN_TOOL:
		if (is(r, "name"))
			r->tool_is_ours = length == 10 && memcmp(value, "rl-insight", 10) == 0;
		break;
	case IN_INPUT:
		if (is(r, "profiler"))
			slot = &s->profiler;
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

static int other_value(void *ctx)
{
	(void)ctx;
	return 1;
}

static int boolean(void *ctx, int value)
{
	(void)value;
	return other_value(ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = other_value,
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
	} else if (r.schema_version < 2 || r.schema_version > 4) {
		error = rli_error_set(RLI_EINVALID, "%s is a summary.json of schema version %lld; this rl-insight "
					  "reads versions 2 to 4", path, (long long)r.schema_version);
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

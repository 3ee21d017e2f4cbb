/* mstx.c: Ascend MSTX profiles: find the *ascend_pt folders, then stream each trace_view.json into one bar. */
#include "parse_internal.h"
#include "json_stream.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- discovery (timeline.md §3.2, §7) ----------------------------------- */

typedef struct {
	char *dir;
	char *role;
	int64_t rank;
	uint32_t group; /* (role, rank) in order of first appearance */
	char *sort_key; /* timestamp part of the folder name */
	size_t order;   /* discovery position, the tie-break that keeps the sort stable */
	char **info_files;
	size_t info_count;
	char *metadata_failure;
} mstx_candidate;

typedef struct {
	mstx_candidate *items;
	size_t count, capacity;
} candidate_list;

static int ends_with(const char *text, const char *suffix)
{
	size_t a = strlen(text), b = strlen(suffix);
	return a >= b && memcmp(text + a - b, suffix, b) == 0;
}

static int starts_with(const char *text, const char *prefix)
{
	return strncmp(text, prefix, strlen(prefix)) == 0;
}

static int collect_candidate(void *ctx, const rli_walk_entry *entry)
{
	candidate_list *list = ctx;
	mstx_candidate *candidate;
	if (!entry->is_dir || !ends_with(entry->name, "ascend_pt"))
		return 0;
	if (list->count == list->capacity) {
		size_t grown = list->capacity ? list->capacity * 2 : 16;
		mstx_candidate *p = realloc(list->items, grown * sizeof(*p));
		if (!p)
			return rli_error_oom();
		list->items = p;
		list->capacity = grown;
	}
	candidate = &list->items[list->count];
	memset(candidate, 0, sizeof(*candidate));
	candidate->dir = rli_strdup(entry->path);
	candidate->role = rli_dir_label(entry->dir);
	candidate->order = list->count;
	list->count++;
	if (!candidate->dir || !candidate->role)
		return rli_error_oom();
	return 0;
}

static void candidate_dispose(mstx_candidate *candidate)
{
	free(candidate->dir);
	free(candidate->role);
	free(candidate->sort_key);
	for (size_t i = 0; i < candidate->info_count; i++)
		free(candidate->info_files[i]);
	free(candidate->info_files);
	free(candidate->metadata_failure);
}

/* "20250101_120000_ascend_pt" -> "20250101_120000"; "xxx_ascend_pt" -> "xxx"; else the name. */
static char *timestamp_key(const char *dir)
{
	char *base = rli_path_base(dir);
	const char *cut[4] = {NULL, NULL, NULL, NULL}; /* the last four '_' positions */
	size_t underscores = 0;
	char *key;
	if (!base)
		return NULL;
	for (const char *p = base; *p; p++) {
		if (*p != '_')
			continue;
		cut[0] = cut[1];
		cut[1] = cut[2];
		cut[2] = cut[3];
		cut[3] = p;
		underscores++;
	}
	if (underscores >= 3) {
		/* parts[-4] + "_" + parts[-3]: from after the 4th-last '_' (or the start) to the 2nd-last. */
		const char *from = underscores >= 4 ? cut[0] + 1 : base;
		key = rli_strfmt("%.*s", (int)(cut[2] - from), from);
	} else if (underscores == 2) {
		key = rli_strfmt("%.*s", (int)(cut[2] - base), base);
	} else {
		key = rli_strdup(base);
	}
	free(base);
	return key;
}

/* Python's int() on the middle of profiler_info_<N>.json, or -1. */
static int64_t rank_from_info_name(const char *name)
{
	const char *middle = name + strlen("profiler_info_");
	size_t length = strlen(middle) - strlen(".json");
	int64_t rank;
	const char *start = middle;
	size_t trimmed = length;
	if (trimmed && *start == '+') {
		start++;
		trimmed--;
	}
	if (rli_text_to_int64(&rank, start, trimmed) < 0)
		return -1;
	return rank;
}

typedef struct {
	rli_json *json;
	char *role;
	int role_key; /* the current top-level key is "role" */
} metadata_ctx;

static int metadata_string(void *ctx, const unsigned char *text, size_t length)
{
	metadata_ctx *m = ctx;
	if (m->json->depth == 1 && m->role_key) {
		free(m->role);
		m->role = length ? rli_strfmt("%.*s", (int)length, (const char *)text) : NULL;
	}
	return 1;
}

static int metadata_key(void *ctx, const unsigned char *key, size_t length)
{
	metadata_ctx *m = ctx;
	if (m->json->depth == 1)
		m->role_key = length == 4 && memcmp(key, "role", 4) == 0;
	return 1;
}

static int metadata_scalar(void *ctx)
{
	metadata_ctx *m = ctx;
	/* A later non-string "role" replaces an earlier one, as a JSON object's last key wins. */
	if (m->json->depth == 1 && m->role_key) {
		free(m->role);
		m->role = NULL;
	}
	return 1;
}
static int metadata_null(void *ctx) { return metadata_scalar(ctx); }
static int metadata_bool(void *ctx, int value) { (void)value; return metadata_scalar(ctx); }
static int metadata_number(void *ctx, const char *text, size_t length)
{
	(void)text;
	(void)length;
	return metadata_scalar(ctx);
}
static int metadata_open(void *ctx)
{
	metadata_ctx *m = ctx;
	if (m->json->depth == 1 && m->role_key) {
		free(m->role);
		m->role = NULL;
	}
	return rli_json_enter(m->json);
}
static int metadata_close(void *ctx)
{
	metadata_ctx *m = ctx;
	rli_json_leave(m->json);
	return 1;
}

static const yajl_callbacks metadata_callbacks = {
	metadata_null, metadata_bool, NULL, NULL, metadata_number, metadata_string,
	metadata_open, metadata_key, metadata_close, metadata_open, metadata_close};

/* The "role" in profiler_metadata.json, if any; a failure message if the file is unreadable. */
static int read_metadata_role(char **role, char **failure, const char *path)
{
	rli_json json;
	metadata_ctx m;
	rli_read_result result;
	*role = NULL;
	*failure = NULL;
	memset(&m, 0, sizeof(m));
	m.json = &json;
	if (rli_json_open(&json, &metadata_callbacks, &m, 1) < 0)
		return RLI_ERROR;
	result = rli_json_read_file(&json, path, failure);
	rli_json_close(&json);
	if (result == RLI_READ_OOM) {
		free(m.role);
		return rli_error_oom();
	}
	if (result == RLI_READ_EMPTY) {
		*failure = rli_strfmt("File is empty: %s", path);
		if (!*failure) {
			free(m.role);
			return rli_error_oom();
		}
	}
	if (*failure) {
		free(m.role);
		return RLI_OK;
	}
	*role = m.role;
	return RLI_OK;
}

static int inspect_candidate(mstx_candidate *candidate, rli_discovery *discovery,
			     rli_notes *missing_trace, int *keep, const rli_rank_filter *ranks)
{
	char **names = NULL;
	size_t count = 0;
	char *output_dir = NULL, *trace = NULL, *metadata = NULL;
	struct stat st;
	int have_trace, error = RLI_OK;

	*keep = 0;
	candidate->rank = -1;
	if (rli_list_dir(&names, &count, candidate->dir) == RLI_ERROR)
		return RLI_ERROR;
	for (size_t i = 0; i < count; i++) {
		char **grown;
		if (!starts_with(names[i], "profiler_info_") || !ends_with(names[i], ".json") ||
		    strlen(names[i]) < strlen("profiler_info_.json"))
			continue;
		if (candidate->info_count == 0)
			candidate->rank = rank_from_info_name(names[i]);
		grown = realloc(candidate->info_files, (candidate->info_count + 1) * sizeof(*grown));
		if (!grown) {
			error = rli_error_oom();
			goto done;
		}
		candidate->info_files = grown;
		candidate->info_files[candidate->info_count] = rli_path_join(candidate->dir, names[i]);
		if (!candidate->info_files[candidate->info_count]) {
			error = rli_error_oom();
			goto done;
		}
		candidate->info_count++;
	}
	output_dir = rli_path_join(candidate->dir, "ASCEND_PROFILER_OUTPUT");
	trace = output_dir ? rli_path_join(output_dir, "trace_view.json") : NULL;
	metadata = rli_path_join(candidate->dir, "profiler_metadata.json");
	if (!trace || !metadata) {
		error = rli_error_oom();
		goto done;
	}
	have_trace = stat(trace, &st) == 0;
	if (!have_trace) {
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
			      "trace_view.json does not exist in: %s", output_dir);
		rli_notes_add(missing_trace, RLI_LOG_ERROR, "Missing trace_view.json in: %s", output_dir);
	}
	if (candidate->info_count == 0)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
			      "profiler_info_*.json does not exist in: %s", candidate->dir);
	if (candidate->rank < 0) {
		rli_notes_add(&discovery->log, RLI_LOG_WARN,
			      "direct:%s fail to get rankid or rankid invalid.", candidate->dir);
		goto done;
	}
	if (!rli_rank_filter_keeps(ranks, candidate->rank)) {
		rli_notes_add(&discovery->log, RLI_LOG_DEBUG, "Rank %lld not in the rank list: skipping %s",
			      (long long)candidate->rank, candidate->dir);
		goto done;
	}
	if (!have_trace)
		goto done;
	if (stat(metadata, &st) == 0) {
		char *role = NULL;
		error = read_metadata_role(&role, &candidate->metadata_failure, metadata);
		if (error < 0)
			goto done;
		if (role) {
			free(candidate->role);
			candidate->role = role;
		}
	}
	candidate->sort_key = timestamp_key(candidate->dir);
	if (!candidate->sort_key) {
		error = rli_error_oom();
		goto done;
	}
	*keep = 1;
done:
	rli_free_names(names, count);
	free(output_dir);
	free(trace);
	free(metadata);
	return error;
}

static int compare_candidates(const void *a, const void *b)
{
	const mstx_candidate *x = *(mstx_candidate *const *)a, *y = *(mstx_candidate *const *)b;
	int c;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	c = strcmp(x->sort_key, y->sort_key);
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

int rli_mstx_discover(rli_discovery *discovery, const char *root, const rli_rank_filter *ranks)
{
	candidate_list list = {NULL, 0, 0};
	mstx_candidate **kept = NULL;
	size_t kept_count = 0;
	rli_notes missing_trace;
	rli_strpool groups;
	int error;

	rli_notes_init(&missing_trace);
	rli_strpool_init(&groups);
	error = rli_walk(root, collect_candidate, &list);
	if (error < 0)
		goto done;
	if (list.count == 0) {
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "No *_ascend_pt path in %s", root);
		goto done;
	}
	kept = calloc(list.count, sizeof(*kept));
	if (!kept) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < list.count; i++) {
		mstx_candidate *candidate = &list.items[i];
		int keep;
		char *group_key;
		error = inspect_candidate(candidate, discovery, &missing_trace, &keep, ranks);
		if (error < 0)
			goto done;
		if (!keep)
			continue;
		/* "<rank> <role>": the rank has no blank, so the key is unambiguous. */
		group_key = rli_strfmt("%lld %s", (long long)candidate->rank, candidate->role);
		if (!group_key) {
			error = rli_error_oom();
			goto done;
		}
		candidate->group = rli_strpool_intern(&groups, group_key, strlen(group_key));
		free(group_key);
		if (candidate->group == RLI_STRPOOL_NONE) {
			error = rli_error_oom();
			goto done;
		}
		kept[kept_count++] = candidate;
	}
	/* The checker's third rule repeats the missing trace_view.json, after the second rule's messages. */
	for (size_t i = 0; i < missing_trace.count; i++)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "%s", missing_trace.items[i].text);
	qsort(kept, kept_count, sizeof(*kept), compare_candidates);
	for (size_t i = 0; i < kept_count; i++) {
		mstx_candidate *candidate = kept[i];
		rli_unit *unit = rli_discovery_add(discovery);
		char *output_dir;
		if (!unit) {
			error = rli_error_oom();
			goto done;
		}
		output_dir = rli_path_join(candidate->dir, "ASCEND_PROFILER_OUTPUT");
		unit->path = output_dir ? rli_path_join(output_dir, "trace_view.json") : NULL;
		free(output_dir);
		unit->role = candidate->role;
		candidate->role = NULL;
		unit->rank = candidate->rank;
		unit->info_files = candidate->info_files;
		unit->info_count = candidate->info_count;
		candidate->info_files = NULL;
		candidate->info_count = 0;
		if (!unit->path) {
			error = rli_error_oom();
			goto done;
		}
		if (candidate->metadata_failure)
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", candidate->metadata_failure);
	}
	if (discovery->structural.oom || discovery->log.oom || missing_trace.oom)
		error = rli_error_oom();
done:
	for (size_t i = 0; i < list.count; i++)
		candidate_dispose(&list.items[i]);
	free(list.items);
	free(kept);
	rli_notes_dispose(&missing_trace);
	rli_strpool_dispose(&groups);
	return error;
}

/* ---- parsing one trace_view.json (timeline.md §3.3) ---------------------- */

/* Longest pid, ts or dur text kept; longer values are not numbers a profiler writes. */
#define MSTX_VALUE_MAX 256

enum { KEY_OTHER = 0, KEY_PH, KEY_NAME, KEY_PID, KEY_TID, KEY_TS, KEY_DUR, KEY_ARGS };
enum { VALUE_ABSENT = 0, VALUE_TEXT, VALUE_OTHER };

typedef struct {
	int kind;   /* VALUE_* */
	int string; /* the text came from a JSON string, not a number */
	size_t length;
	char text[MSTX_VALUE_MAX];
} mstx_value;

/* Envelope of one pid's complete events, gathered before we know which pid matters. */
typedef struct {
	double min_ts, max_end;
	uint64_t valid, missing, invalid;
	int pid_is_string;
} pid_envelope;

typedef struct {
	rli_json json;
	rli_unit *unit;
	int top_kind;    /* 0 none yet, 1 array, 2 something else */
	uint64_t elements;
	/* the element being read */
	int key;
	int has[KEY_ARGS + 1];
	int ph_is_m, ph_is_x;
	mstx_value pid, ts, dur;
	int args_kind;    /* VALUE_ABSENT, VALUE_TEXT = an object, VALUE_OTHER */
	int args_name_key;
	int args_is_overlap;
	/* across elements */
	rli_strpool pids;
	pid_envelope *envelopes;
	size_t envelope_capacity;
	int target_found;
	uint32_t target;
	char target_key[MSTX_VALUE_MAX + 1]; /* the target's key in pids */
	size_t target_key_length;
	char recent_key[MSTX_VALUE_MAX + 1]; /* the last pid looked up, and its id */
	size_t recent_key_length;
	uint32_t recent_id;
	int oom;
} mstx_ctx;

static void element_reset(mstx_ctx *m)
{
	m->key = KEY_OTHER;
	memset(m->has, 0, sizeof(m->has));
	m->ph_is_m = m->ph_is_x = 0;
	m->pid.kind = m->ts.kind = m->dur.kind = VALUE_ABSENT;
	m->args_kind = VALUE_ABSENT;
	m->args_name_key = 0;
	m->args_is_overlap = 0;
}

static void value_set(mstx_value *value, const char *text, size_t length, int string)
{
	if (length > MSTX_VALUE_MAX) {
		value->kind = VALUE_OTHER;
		return;
	}
	value->kind = VALUE_TEXT;
	value->string = string;
	value->length = length;
	memcpy(value->text, text, length);
}

static int missing_fields(mstx_ctx *m)
{
	static const int required[] = {KEY_PH, KEY_NAME, KEY_PID, KEY_TID};
	static const char *const names[] = {"'ph'", "'name'", "'pid'", "'tid'"};
	char list[64] = "";
	int any = 0;
	for (size_t i = 0; i < 4; i++) {
		if (m->has[required[i]])
			continue;
		if (any)
			strcat(list, ", ");
		strcat(list, names[i]);
		any = 1;
	}
	if (!any)
		return 0;
	rli_notes_add(&m->unit->failures, RLI_LOG_ERROR, "File field is missing: {%s} in FilePath: %s",
		      list, m->unit->path);
	return 1;
}

/* Whether the element's pid has this key in pids: its kind ('s' string, 'n' number), then its text. */
static int pid_has_key(const mstx_ctx *m, const char *key, size_t length)
{
	return length == m->pid.length + 1 && key[0] == (m->pid.string ? 's' : 'n') &&
	       memcmp(key + 1, m->pid.text, m->pid.length) == 0;
}

static pid_envelope *envelope_for(mstx_ctx *m, uint32_t *id_out)
{
	char key[MSTX_VALUE_MAX + 1];
	uint32_t id;
	if (m->recent_key_length && pid_has_key(m, m->recent_key, m->recent_key_length)) {
		id = m->recent_id; /* a process's events come in runs: no hashing for the repeats */
	} else {
		key[0] = m->pid.string ? 's' : 'n';
		memcpy(key + 1, m->pid.text, m->pid.length);
		id = rli_strpool_intern(&m->pids, key, m->pid.length + 1);
		if (id == RLI_STRPOOL_NONE)
			return NULL;
		memcpy(m->recent_key, key, m->pid.length + 1);
		m->recent_key_length = m->pid.length + 1;
		m->recent_id = id;
	}
	if (id >= m->envelope_capacity) {
		size_t grown = m->envelope_capacity ? m->envelope_capacity * 2 : 8;
		pid_envelope *p;
		while (grown <= id)
			grown *= 2;
		p = realloc(m->envelopes, grown * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + m->envelope_capacity, 0, (grown - m->envelope_capacity) * sizeof(*p));
		m->envelopes = p;
		m->envelope_capacity = grown;
	}
	if (id_out)
		*id_out = id;
	m->envelopes[id].pid_is_string = m->pid.string;
	return &m->envelopes[id];
}

static int element_done(mstx_ctx *m)
{
	pid_envelope *envelope;
	uint32_t id;
	double ts, dur;
	m->elements++;
	if (missing_fields(m))
		return rli_json_halt(&m->json);
	if (m->pid.kind != VALUE_TEXT)
		return 1; /* a pid that is null, an object or huge matches no process */
	if (m->ph_is_m && m->args_is_overlap && !m->target_found) {
		if (!envelope_for(m, &id))
			goto oom;
		m->target_found = 1;
		m->target = id;
		m->target_key[0] = m->pid.string ? 's' : 'n';
		memcpy(m->target_key + 1, m->pid.text, m->pid.length);
		m->target_key_length = m->pid.length + 1;
		return 1;
	}
	if (!m->ph_is_x || m->args_kind != VALUE_TEXT)
		return 1; /* the reference skips X events without an args object silently */
	if (m->target_found) {
		/* Only the Overlap Analysis process matters now: other processes' times are never converted. */
		if (!pid_has_key(m, m->target_key, m->target_key_length))
			return 1;
		envelope = &m->envelopes[m->target];
	} else if (!(envelope = envelope_for(m, NULL))) {
		goto oom;
	}
	if (m->ts.kind == VALUE_ABSENT || m->dur.kind == VALUE_ABSENT) {
		envelope->missing++;
		return 1;
	}
	if (m->ts.kind != VALUE_TEXT || m->dur.kind != VALUE_TEXT ||
	    rli_text_to_double(&ts, m->ts.text, m->ts.length) < 0 ||
	    rli_text_to_double(&dur, m->dur.text, m->dur.length) < 0) {
		envelope->invalid++;
		return 1;
	}
	if (envelope->valid == 0 || ts < envelope->min_ts)
		envelope->min_ts = ts;
	if (envelope->valid == 0 || ts + dur > envelope->max_end)
		envelope->max_end = ts + dur;
	envelope->valid++;
	return 1;
oom:
	m->oom = 1;
	return rli_json_halt(&m->json);
}

/* A scalar at element level (depth 2) or inside args (depth 3). */
static int mstx_scalar(mstx_ctx *m, const char *text, size_t length, int kind)
{
	int depth = m->json.depth;
	if (depth == 1) {
		/* A bare value in the top array is an element without any of the required keys. */
		element_reset(m);
		return element_done(m);
	}
	if (depth == 0) {
		m->top_kind = 2;
		return 1;
	}
	if (depth == 2) {
		switch (m->key) {
		case KEY_PH:
			m->ph_is_m = kind == 's' && length == 1 && text[0] == 'M';
			m->ph_is_x = kind == 's' && length == 1 && text[0] == 'X';
			break;
		case KEY_PID:
			if (kind == 's' || kind == 'n')
				value_set(&m->pid, text, length, kind == 's');
			else
				m->pid.kind = VALUE_OTHER;
			break;
		case KEY_TS:
		case KEY_DUR: {
			mstx_value *value = m->key == KEY_TS ? &m->ts : &m->dur;
			if (kind == 's' || kind == 'n')
				value_set(value, text, length, kind == 's');
			else
				value->kind = VALUE_OTHER;
			break;
		}
		case KEY_ARGS:
			m->args_kind = VALUE_OTHER;
			m->args_is_overlap = 0;
			break;
		default:
			break;
		}
		return 1;
	}
	if (depth == 3 && m->key == KEY_ARGS && m->args_kind == VALUE_TEXT && m->args_name_key)
		m->args_is_overlap = kind == 's' && length == strlen("Overlap Analysis") &&
				     memcmp(text, "Overlap Analysis", length) == 0;
	return 1;
}

static int mstx_null(void *ctx) { return mstx_scalar(ctx, NULL, 0, 'z'); }
static int mstx_bool(void *ctx, int value) { (void)value; return mstx_scalar(ctx, NULL, 0, 'b'); }
static int mstx_number(void *ctx, const char *text, size_t length)
{
	return mstx_scalar(ctx, text, length, 'n');
}
static int mstx_string(void *ctx, const unsigned char *text, size_t length)
{
	return mstx_scalar(ctx, (const char *)text, length, 's');
}

/* An event's keys by length first: this runs for every key of every event. */
static int event_key(const unsigned char *key, size_t length)
{
	switch (length) {
	case 2:
		if (key[0] == 'p' && key[1] == 'h')
			return KEY_PH;
		if (key[0] == 't' && key[1] == 's')
			return KEY_TS;
		return KEY_OTHER;
	case 3:
		if (key[1] == 'i' && key[2] == 'd')
			return key[0] == 'p' ? KEY_PID : key[0] == 't' ? KEY_TID : KEY_OTHER;
		return memcmp(key, "dur", 3) == 0 ? KEY_DUR : KEY_OTHER;
	case 4:
		if (memcmp(key, "name", 4) == 0)
			return KEY_NAME;
		return memcmp(key, "args", 4) == 0 ? KEY_ARGS : KEY_OTHER;
	default:
		return KEY_OTHER;
	}
}

static int mstx_key(void *ctx, const unsigned char *key, size_t length)
{
	mstx_ctx *m = ctx;
	if (m->json.depth == 2) {
		m->key = event_key(key, length);
		m->has[m->key] = 1;
	} else if (m->json.depth == 3 && m->key == KEY_ARGS) {
		m->args_name_key = length == 4 && memcmp(key, "name", 4) == 0;
	}
	return 1;
}

static int mstx_open(mstx_ctx *m, int is_map)
{
	int depth = m->json.depth;
	if (depth == 0)
		m->top_kind = is_map ? 2 : 1;
	else if (depth == 1)
		element_reset(m);
	else if (depth == 2) {
		/* A container as an element's value: only args may be one (an object). */
		if (m->key == KEY_ARGS) {
			m->args_kind = is_map ? VALUE_TEXT : VALUE_OTHER;
			m->args_is_overlap = 0;
		} else if (m->key == KEY_PID) {
			m->pid.kind = VALUE_OTHER;
		} else if (m->key == KEY_TS) {
			m->ts.kind = VALUE_OTHER;
		} else if (m->key == KEY_DUR) {
			m->dur.kind = VALUE_OTHER;
		} else if (m->key == KEY_PH) {
			m->ph_is_m = m->ph_is_x = 0;
		}
	} else if (depth == 3 && m->key == KEY_ARGS && m->args_name_key) {
		m->args_is_overlap = 0;
	}
	if (depth == 0 && is_map)
		return rli_json_halt(&m->json); /* not an event array: nothing more to learn */
	return rli_json_enter(&m->json);
}

static int mstx_start_map(void *ctx) { return mstx_open(ctx, 1); }
static int mstx_start_array(void *ctx) { return mstx_open(ctx, 0); }

static int mstx_close(void *ctx)
{
	mstx_ctx *m = ctx;
	rli_json_leave(&m->json);
	if (m->json.depth == 1)
		return element_done(m);
	if (m->json.depth == 2)
		m->args_name_key = 0;
	return 1;
}

static const yajl_callbacks mstx_callbacks = {
	mstx_null, mstx_bool, NULL, NULL, mstx_number, mstx_string,
	mstx_start_map, mstx_key, mstx_close, mstx_start_array, mstx_close};

/* profiler_info_<N>.json: a non-empty object with the keys the checker asks for. */
typedef struct {
	rli_json *json;
	int top_kind; /* 0 none, 1 object, 2 other */
	uint64_t keys;
	unsigned found; /* bit per required key */
} info_ctx;

static const char *const info_keys[] = {"config",       "start_info",  "end_info",
					"torch_npu_version", "cann_version", "rank_id"};

static int info_top(info_ctx *info, int kind)
{
	if (info->json->depth == 0 && info->top_kind == 0)
		info->top_kind = kind;
	return 1;
}
static int info_null(void *ctx) { return info_top(ctx, 2); }
static int info_bool(void *ctx, int value) { (void)value; return info_top(ctx, 2); }
static int info_number(void *ctx, const char *text, size_t length)
{
	(void)text;
	(void)length;
	return info_top(ctx, 2);
}
static int info_string(void *ctx, const unsigned char *text, size_t length)
{
	(void)text;
	(void)length;
	return info_top(ctx, 2);
}
static int info_start_map(void *ctx)
{
	info_ctx *info = ctx;
	info_top(info, 1);
	return rli_json_enter(info->json);
}
static int info_start_array(void *ctx)
{
	info_ctx *info = ctx;
	info_top(info, 2);
	return rli_json_enter(info->json);
}
static int info_key(void *ctx, const unsigned char *key, size_t length)
{
	info_ctx *info = ctx;
	if (info->json->depth != 1 || info->top_kind != 1)
		return 1;
	info->keys++;
	for (size_t i = 0; i < sizeof(info_keys) / sizeof(info_keys[0]); i++)
		if (strlen(info_keys[i]) == length && memcmp(info_keys[i], key, length) == 0)
			info->found |= 1u << i;
	return 1;
}
static int info_end(void *ctx)
{
	info_ctx *info = ctx;
	rli_json_leave(info->json);
	return 1;
}

static const yajl_callbacks info_callbacks = {
	info_null, info_bool, NULL, NULL, info_number, info_string,
	info_start_map, info_key, info_end, info_start_array, info_end};

static int check_info_file(rli_unit *unit, const char *path)
{
	rli_json json;
	info_ctx info;
	char *failure = NULL;
	rli_read_result result;
	memset(&info, 0, sizeof(info));
	info.json = &json;
	if (rli_json_open(&json, &info_callbacks, &info, 1) < 0)
		return RLI_ERROR;
	result = rli_json_read_file(&json, path, &failure);
	rli_json_close(&json);
	switch (result) {
	case RLI_READ_OOM:
		return RLI_ERROR;
	case RLI_READ_EMPTY:
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
		return RLI_OK;
	case RLI_READ_FAILED:
	case RLI_READ_HALTED:
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", failure ? failure : path);
		free(failure);
		return RLI_OK;
	case RLI_READ_OK:
		break;
	}
	if (info.top_kind != 1) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR,
			      "Failed to parse JSON file %s: expected a JSON object", path);
	} else if (info.keys == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
	} else if (info.found != (1u << 6) - 1) {
		char list[160] = "";
		for (size_t i = 0; i < 6; i++) {
			if (info.found & (1u << i))
				continue;
			if (list[0])
				strcat(list, ", ");
			strcat(list, "'");
			strcat(list, info_keys[i]);
			strcat(list, "'");
		}
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File field is missing: {%s} in FilePath: %s",
			      list, path);
	}
	return RLI_OK;
}

/* The unit's one row, appended to rows. */
static void emit_row(mstx_ctx *m, rli_events *rows)
{
	rli_unit *unit = m->unit;
	pid_envelope *envelope = &m->envelopes[m->target];
	const char *pid_key = rli_strpool_get(&m->pids, m->target);
	rli_event_in row;
	long long rank = (long long)unit->rank;

	if (envelope->missing)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "Row missing required fields: ts or dur. Skipping row.%s",
			      envelope->missing > 1 ? " (repeated for more rows)" : "");
	if (envelope->invalid)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "Row has a ts or dur that is not a number. Skipping row.%s",
			      envelope->invalid > 1 ? " (repeated for more rows)" : "");
	if (envelope->valid == 0) {
		rli_notes_add(&unit->log, RLI_LOG_WARN, "Rank %lld: No valid timing rows for Overlap Analysis",
			      rank);
		return;
	}
	memset(&row, 0, sizeof(row));
	row.name = unit->role;
	row.role = unit->role;
	row.tid = pid_key + 1;
	row.tid_is_text = pid_key[0] == 's';
	row.rank_id = unit->rank;
	row.start_ms = envelope->min_ts / 1000;
	row.duration_ms = (envelope->max_end - envelope->min_ts) / 1000;
	if (rli_events_append(rows, &row) < 0)
		unit->status = RLI_ERROR;
}

void rli_mstx_parse_unit(rli_unit *unit, rli_events *rows)
{
	mstx_ctx m;
	char *failure = NULL;
	rli_read_result result;

	for (size_t i = 0; i < unit->info_count; i++) {
		if (check_info_file(unit, unit->info_files[i]) < 0) {
			unit->status = RLI_ERROR;
			return;
		}
	}
	memset(&m, 0, sizeof(m));
	m.unit = unit;
	rli_strpool_init(&m.pids);
	if (rli_json_open(&m.json, &mstx_callbacks, &m, 1) < 0) {
		unit->status = RLI_ERROR;
		goto done;
	}
	result = rli_json_read_file(&m.json, unit->path, &failure);
	if (result == RLI_READ_OOM || m.oom) {
		unit->status = RLI_ERROR;
		goto done;
	}
	if (result == RLI_READ_EMPTY) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", unit->path);
		goto done;
	}
	if (result == RLI_READ_FAILED) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", failure);
		goto done;
	}
	if (unit->failures.count)
		goto done; /* a missing field or a bad profiler_info: the unit failed */
	if (m.top_kind != 1) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR,
			      "Failed to parse JSON file %s: expected a JSON array of trace events", unit->path);
		goto done;
	}
	if (m.elements == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", unit->path);
		goto done;
	}
	if (!m.target_found) {
		rli_notes_add(&unit->log, RLI_LOG_WARN, "Rank %lld: Overlap Analysis process not found in json",
			      (long long)unit->rank);
		goto done;
	}
	emit_row(&m, rows);
done:
	if (unit->log.oom || unit->failures.oom)
		unit->status = RLI_ERROR;
	free(failure);
	rli_json_close(&m.json);
	rli_strpool_dispose(&m.pids);
	free(m.envelopes);
}

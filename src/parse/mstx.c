/* mstx.c: Ascend MSTX profiles: find the *ascend_pt folders, then stream each trace_view.json into one bar. */
#include "parse_internal.h"
#include "ascend_capture.h"
#include "format.h"
#include "json_stream.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- discovery (timeline.md §3.2, §7) ----------------------------------- */

/* The structural rules for one capture folder; *keep when it becomes a unit. */
static int inspect_capture(rli_ascend_capture *capture, rli_discovery *discovery, rli_notes *missing_trace,
			   char **metadata_failure, int *keep, const rli_rank_filter *ranks, int auto_detected)
{
	char *output_dir = NULL, *trace = NULL;
	rli_ascend_metadata metadata;
	struct stat st;
	int have_trace, error = RLI_OK;

	*keep = 0;
	if (capture->unsearched)
		return RLI_OK; /* its unit is the folder's failure already */
	output_dir = rli_ascend_output_path(capture, NULL);
	trace = rli_ascend_output_path(capture, "trace_view.json");
	if (!output_dir || !trace) {
		error = rli_error_oom();
		goto done;
	}
	/* Only a trace that is not there is missing: one that cannot be looked at fails its unit, with why. */
	have_trace = stat(trace, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
	if (!have_trace && auto_detected && rli_ascend_holds_memory(capture->dir) > 0) {
		/* Found, not asked for: memory records without a trace are the memory analysis's alone. */
		rli_notes_add(&discovery->log, RLI_LOG_INFO,
			      "%s: no trace_view.json; its memory records are for the memory analysis", output_dir);
		goto done;
	}
	if (!have_trace) {
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
			      "trace_view.json does not exist in: %s", output_dir);
		rli_notes_add(missing_trace, RLI_LOG_ERROR, "Missing trace_view.json in: %s", output_dir);
	}
	/*
	 * No profiler_info_*.json, which the reference refuses, is no failure: the rank is the
	 * folder's (ascend_capture.h). A profiler_info whose name gives no rank is one.
	 */
	if (capture->rank < 0) {
		/* A capture that cannot say its rank is a failed unit, named with the reason. */
		rli_unit *unit = capture->info_count ? rli_discovery_add(discovery) : NULL;
		if (capture->info_count && !unit) {
			error = rli_error_oom();
			goto done;
		}
		if (unit) {
			unit->rank = -1;
			if (!(unit->path = rli_strdup(trace))) {
				error = rli_error_oom();
				goto done;
			}
			rli_notes_add(&unit->failures, RLI_LOG_ERROR,
				      "%s: no valid rank id: %s is not profiler_info_<rank>.json with a whole-number rank",
				      capture->dir, capture->info_files[0]);
		}
		goto done;
	}
	if (!rli_rank_filter_keeps(ranks, capture->rank)) {
		rli_notes_add(&discovery->log, RLI_LOG_DEBUG, "Rank %lld not in the rank list: skipping %s",
			      (long long)capture->rank, capture->dir);
		error = rli_discovery_saw_rank(discovery, capture->rank);
		goto done;
	}
	if (!have_trace)
		goto done;
	error = rli_ascend_read_metadata(&metadata, capture);
	if (error < 0)
		goto done;
	if (metadata.warning)
		rli_notes_add(&discovery->log, RLI_LOG_WARN, "%s", metadata.warning);
	*metadata_failure = metadata.failure; /* becomes the unit's failure */
	metadata.failure = NULL;
	rli_ascend_metadata_dispose(&metadata);
	*keep = 1;
done:
	free(output_dir);
	free(trace);
	return error;
}

/*
 * The ranks of the kept captures without profiler_info, said once. Found, not asked for, a
 * capture that also holds memory records is the memory analysis's to speak of: the run says it once.
 */
static int note_ranks(rli_discovery *discovery, rli_ascend_capture **kept, size_t count,
		      const rli_discover_options *options)
{
	rli_ascend_capture **own = calloc(count ? count : 1, sizeof(*own));
	size_t own_count = 0;
	int error = RLI_OK;
	if (!own)
		return rli_error_oom();
	for (size_t i = 0; i < count; i++) {
		int holds = options->auto_detected ? rli_ascend_holds_memory(kept[i]->dir) : 0;
		if (holds < 0) {
			error = RLI_ERROR;
			goto done;
		}
		if (!holds)
			own[own_count++] = kept[i];
	}
	error = rli_ascend_note_ranks(&discovery->log, own, own_count);
done:
	free(own);
	return error;
}

static int mstx_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	const rli_rank_filter *ranks = options->ranks;
	rli_ascend_captures captures;
	rli_ascend_capture **kept = NULL;
	char **metadata_failures = NULL; /* by discovery order */
	size_t kept_count = 0;
	rli_notes missing_trace;
	int error;

	rli_notes_init(&missing_trace);
	error = rli_ascend_find(&captures, root, discovery);
	if (error < 0)
		goto done;
	if (captures.count == 0) {
		/* With a folder unread, "none found" may not be so: that folder's failure says why. */
		if (captures.unsearched == 0)
			rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "No *_ascend_pt path in %s", root);
		goto done;
	}
	kept = calloc(captures.count, sizeof(*kept));
	metadata_failures = calloc(captures.count, sizeof(*metadata_failures));
	if (!kept || !metadata_failures) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < captures.count; i++) {
		rli_ascend_capture *capture = &captures.items[i];
		int keep;
		error = inspect_capture(capture, discovery, &missing_trace, &metadata_failures[i], &keep, ranks,
					options->auto_detected);
		if (error < 0)
			goto done;
		if (keep)
			kept[kept_count++] = capture;
	}
	/* The checker's third rule repeats the missing trace_view.json, after the second rule's messages. */
	for (size_t i = 0; i < missing_trace.count; i++)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "%s", missing_trace.items[i].text);
	if ((error = rli_ascend_order(kept, kept_count)) < 0 ||
	    (error = note_ranks(discovery, kept, kept_count, options)) < 0)
		goto done;
	for (size_t i = 0; i < kept_count; i++) {
		rli_ascend_capture *capture = kept[i];
		rli_unit *unit = rli_ascend_add_unit(discovery, capture, "trace_view.json");
		if (!unit) {
			error = rli_error_oom();
			goto done;
		}
		if (metadata_failures[capture->order])
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", metadata_failures[capture->order]);
		/* Detected, not named: a capture of memory records may have no timeline (see rli_parse). */
		if (options->auto_detected && (unit->holds_memory = rli_ascend_holds_memory(capture->dir)) < 0) {
			error = RLI_ERROR;
			goto done;
		}
	}
	if (discovery->structural.oom || discovery->log.oom || missing_trace.oom)
		error = rli_error_oom();
done:
	for (size_t i = 0; metadata_failures && i < captures.count; i++)
		free(metadata_failures[i]);
	free(metadata_failures);
	free(kept);
	rli_ascend_captures_dispose(&captures);
	rli_notes_dispose(&missing_trace);
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
	uint64_t valid, missing, invalid, overflow;
	/* events with a negative ts or dur (decisions.md: nonsense that would mislead), and the first's place */
	uint64_t nonsense, nonsense_event;
	double nonsense_ts, nonsense_dur;
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
	static const char *const names[] = {"ph", "name", "pid", "tid"};
	char list[64];
	uint64_t present = 0;
	for (size_t i = 0; i < 4; i++)
		present |= (uint64_t)(m->has[required[i]] != 0) << i;
	/* Every event comes here: the list is made only when something is missing. */
	if (present == 0xf || !rli_missing_keys(list, sizeof(list), names, 4, present))
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
	/*
	 * The reference skips X events without an args object; torch_npu writes the Overlap Analysis
	 * lanes without args (decisions.md), and a bar needs only ts and dur: every X event counts.
	 */
	if (!m->ph_is_x)
		return 1;
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
	if (!isfinite(ts + dur)) {
		envelope->overflow++; /* 1e308 + 1e308: an end no double holds */
		return 1;
	}
	/* A bar before the clock's start or ending before it starts would draw a phase that never was. */
	if (ts < 0 || dur < 0) {
		if (envelope->nonsense++ == 0) {
			envelope->nonsense_event = m->elements;
			envelope->nonsense_ts = ts;
			envelope->nonsense_dur = dur;
		}
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

/*
 * profiler_info_<N>.json: a non-empty object with the keys the checker asks for. The reference
 * also asks for the two version fields, which nothing drawn needs and which torch_npu's own
 * exports lack at times (decisions.md): their absence is said at -v, the unit is read.
 */
static const char *const info_keys[] = {"config",       "start_info",  "end_info",
					"rank_id", "torch_npu_version", "cann_version"};
#define INFO_REQUIRED 4 /* the first four of info_keys */
#define INFO_KEYS 6

static int check_info_file(rli_unit *unit, const char *path)
{
	rli_json_top info;
	char *failure = NULL;
	rli_read_result result = rli_json_read_top(&info, path, info_keys, INFO_KEYS, &failure);
	const unsigned required = (1u << INFO_REQUIRED) - 1;
	char list[160];
	free(info.role);
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
		return RLI_OK;
	}
	if (info.keys == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
		return RLI_OK;
	}
	if ((info.found & required) != required) {
		rli_missing_keys(list, sizeof(list), info_keys, INFO_REQUIRED, info.found);
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File field is missing: {%s} in FilePath: %s",
			      list, path);
	}
	/* The version fields are what is left to miss: listed alone, at -v. */
	if (rli_missing_keys(list, sizeof(list), info_keys + INFO_REQUIRED, INFO_KEYS - INFO_REQUIRED,
			     info.found >> INFO_REQUIRED))
		rli_notes_add(&unit->log, RLI_LOG_INFO, "%s lacks %s, which nothing drawn needs: read all the same",
			      path, list);
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
			      "%s: Row missing required fields: ts or dur. Skipping row.%s", unit->path,
			      envelope->missing > 1 ? " (repeated for more rows)" : "");
	if (envelope->invalid)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "%s: Row has a ts or dur that is not a number. Skipping row.%s", unit->path,
			      envelope->invalid > 1 ? " (repeated for more rows)" : "");
	if (envelope->overflow)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "%s: Row whose end (ts + dur) is too large for a double. Skipping row.%s", unit->path,
			      envelope->overflow > 1 ? " (repeated for more rows)" : "");
	if (envelope->nonsense)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "%s: %llu event(s) with a negative ts or dur skipped (the first: event %llu of the array, "
			      "ts %.17g us, dur %.17g us)", unit->path, (unsigned long long)envelope->nonsense,
			      (unsigned long long)envelope->nonsense_event, envelope->nonsense_ts, envelope->nonsense_dur);
	if (envelope->valid == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR,
			      "Rank %lld: No valid timing rows for Overlap Analysis in %s", rank, unit->path);
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

static void mstx_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	mstx_ctx m;
	char *failure = NULL;
	rli_read_result result;

	memset(&m, 0, sizeof(m));
	m.unit = unit;
	rli_strpool_init(&m.pids);
	if (rli_json_open(&m.json, &mstx_callbacks, &m, 1) < 0) {
		unit->status = RLI_ERROR;
		goto done;
	}
	result = rli_json_read(&m.json, source, &failure);
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
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Rank %lld: Overlap Analysis process not found in %s",
			      (long long)unit->rank, unit->path);
		unit->no_timeline = 1;
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

static void mstx_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_bytes *source;
	for (size_t i = 0; i < unit->info_count; i++) {
		if (check_info_file(unit, unit->info_files[i]) < 0) {
			unit->status = RLI_ERROR;
			return;
		}
	}
	if (!(source = rli_unit_open(unit, unit->path))) {
		if (unit->failures.oom)
			unit->status = RLI_ERROR;
		return;
	}
	mstx_parse_bytes(unit, source, rows);
	rli_bytes_close(source);
}

/* An Ascend capture folder: what is inside belongs to it, MSTX or memory, never to another format. */
static rli_shows mstx_detect(const rli_walk_entry *entry)
{
	return rli_ascend_is_capture(entry) ? RLI_SHOWS_FORMAT_ONLY : RLI_SHOWS_NOTHING;
}

const rli_format rli_format_mstx = {
	RLI_PROFILER_MSTX, "mstx", "multi_json_mstx", "*ascend_pt folder", "*ascend_pt folders", 1,
	mstx_detect, mstx_discover, mstx_parse_unit, mstx_parse_bytes, NULL, 0,
};

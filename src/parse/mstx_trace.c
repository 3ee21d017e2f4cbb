/* mstx_trace.c: one trace_view.json read into its one bar: the Overlap Analysis process's span (timeline.md §3.3). */
#include "mstx_internal.h"
#include "json_chunks.h"
#include "json_tee.h"
#include "trace_share.h"
#include "json_stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	/*
	 * A chunk of the file: no process is known to be the target yet, so every pid's events are
	 * gathered even after an Overlap Analysis process shows (a later chunk may meet another one
	 * first, and only the first in the file counts); the chunks' envelopes join by pid.
	 */
	int gather_all;
	rli_unit chunk_unit; /* a chunk's own notes: a chunk that says anything is read again whole */
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
	if (m->target_found && !m->gather_all) {
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

/* ---- reading: in chunks, by the scanner, or by yajl alone ------------------ */

static int mstx_ctx_open(mstx_ctx *m, rli_unit *unit)
{
	memset(m, 0, sizeof(*m));
	m->unit = unit;
	rli_strpool_init(&m->pids);
	return rli_json_open(&m->json, &mstx_callbacks, m, 1);
}

static void mstx_ctx_close(mstx_ctx *m)
{
	rli_json_close(&m->json);
	rli_strpool_dispose(&m->pids);
	free(m->envelopes);
	if (m->gather_all) {
		rli_notes_dispose(&m->chunk_unit.log);
		rli_notes_dispose(&m->chunk_unit.failures);
	}
}

static void *chunk_open(void *owner)
{
	mstx_ctx *whole = owner, *m = malloc(sizeof(*m));
	if (!m)
		return NULL;
	if (mstx_ctx_open(m, &m->chunk_unit) < 0) {
		mstx_ctx_close(m);
		free(m);
		return NULL;
	}
	m->chunk_unit = *whole->unit;
	rli_notes_init(&m->chunk_unit.log);
	rli_notes_init(&m->chunk_unit.failures);
	m->gather_all = 1;
	return m;
}

static rli_json *chunk_json(void *chunk)
{
	return &((mstx_ctx *)chunk)->json;
}

static void chunk_close(void *chunk)
{
	mstx_ctx_close(chunk);
	free(chunk);
}

/* A chunk's envelopes joined into the whole's by pid, as one reading would have gathered them. */
static int chunk_append(void *owner, void *chunk, uint64_t items_before)
{
	mstx_ctx *whole = owner, *m = chunk;
	if (m->oom || m->chunk_unit.log.count || m->chunk_unit.failures.count)
		return RLI_ERROR; /* said before the whole is: cannot happen once every chunk read cleanly */
	whole->top_kind = 1;
	whole->elements += m->elements;
	for (uint32_t id = 0; id < (uint32_t)m->pids.count; id++) {
		const char *key = rli_strpool_get(&m->pids, id);
		size_t length = rli_strpool_length(&m->pids, id);
		const pid_envelope *from = &m->envelopes[id];
		pid_envelope *to;
		uint32_t to_id;
		/* The whole's lookup goes by its element's pid: set it from the key. */
		whole->pid.string = key[0] == 's';
		whole->pid.length = length - 1;
		memcpy(whole->pid.text, key + 1, length - 1);
		if (!(to = envelope_for(whole, &to_id)))
			return RLI_ERROR;
		if (from->valid) {
			if (to->valid == 0 || from->min_ts < to->min_ts)
				to->min_ts = from->min_ts;
			if (to->valid == 0 || from->max_end > to->max_end)
				to->max_end = from->max_end;
			to->valid += from->valid;
		}
		to->missing += from->missing;
		to->invalid += from->invalid;
		to->overflow += from->overflow;
		if (from->nonsense && to->nonsense == 0) {
			to->nonsense_event = from->nonsense_event + items_before;
			to->nonsense_ts = from->nonsense_ts;
			to->nonsense_dur = from->nonsense_dur;
		}
		to->nonsense += from->nonsense;
		if (m->target_found && !whole->target_found && id == m->target) {
			whole->target_found = 1;
			whole->target = to_id;
			memcpy(whole->target_key, key, length);
			whole->target_key_length = length;
		}
	}
	return RLI_OK;
}

static const rli_json_chunking mstx_chunking = {&mstx_callbacks, chunk_open, chunk_json, chunk_append, chunk_close};

/*
 * The trace into m: cut into chunks on the unit's spare threads when it is large and plain, else
 * by the scanner, and by yajl alone from the start when either declines (on a fresh m).
 */
/*
 * The trace into m and, in the same reading, its call stacks into the unit's share for the
 * memory analysis (one read of the file for both). RLI_ITEMS_DECLINED when the fast readings
 * could not judge the file: nothing is shared, and m is read again alone.
 */
static int read_with_stacks(mstx_ctx *m, rli_bytes *source, unsigned chunks, unsigned threads, int mode,
			    char **failure)
{
	rli_stack_index stacks;
	rli_stack_reader *reader;
	rli_stack_outcome outcome;
	rli_json_tee tee;
	uint64_t size;
	unsigned read;
	int result = RLI_ITEMS_DECLINED;

	rli_stack_index_init(&stacks);
	if (!(reader = rli_stack_reader_new(&stacks)))
		return RLI_READ_OOM;
	if (chunks > 1 && rli_bytes_plain_size(source, &size) == 0) {
		rli_json_tee_owner owner = {{&mstx_chunking, &rli_stack_chunking}, {m, reader}};
		result = rli_json_chunks_read(&rli_json_tee_chunking, &owner, source, size, chunks, threads, &read);
		if (result == RLI_READ_OK && mode == RLI_JSON_READ_AUTO)
			rli_notes_add(&m->unit->log, RLI_LOG_DEBUG, "%s: read in %u chunks on %u threads, with its call stacks",
				      m->unit->path, read, threads);
	}
	if (result == RLI_ITEMS_DECLINED) {
		if (rli_json_tee_open(&tee, &mstx_callbacks, m, &m->json, rli_stack_reader_callbacks(), reader,
				      rli_stack_reader_json(reader)) < 0) {
			result = RLI_READ_OOM;
			goto done;
		}
		result = rli_json_items_read(&tee.json, &rli_json_tee_callbacks, &tee, source, failure);
		rli_json_tee_close(&tee);
	}
	rli_stack_reader_outcome(reader, &outcome);
	if (outcome.oom)
		result = RLI_READ_OOM;
	else if (result == RLI_READ_HALTED && !m->json.halted)
		result = RLI_ITEMS_DECLINED; /* the stacks' reading stopped, not the timeline's */
	else if (result == RLI_READ_OK && rli_trace_share_put(m->unit->share, m->unit->path, &stacks, &outcome) < 0)
		result = RLI_READ_OOM;
done:
	rli_stack_reader_free(reader);
	rli_stack_index_dispose(&stacks);
	return result;
}

static rli_read_result read_trace(mstx_ctx *m, rli_bytes *source, int mode, char **failure)
{
	rli_unit *unit = m->unit;
	uint64_t size;
	int result = RLI_ITEMS_DECLINED;
	unsigned chunks = mode >= 2 ? (unsigned)mode : 1, threads = unit->spare_threads + 1, read = 0;
	if (mode == RLI_JSON_READ_AUTO && unit->spare_threads && rli_bytes_plain_size(source, &size) == 0)
		chunks = rli_json_chunk_count(size, threads);
	if (mode == RLI_JSON_READ_YAJL)
		goto yajl;
	if (unit->share && rli_json_scan_enabled())
		result = read_with_stacks(m, source, chunks, threads, mode, failure);
	else if (chunks > 1 && rli_bytes_plain_size(source, &size) == 0 &&
		 (result = rli_json_chunks_read(&mstx_chunking, m, source, size, chunks, threads, &read)) == RLI_READ_OK &&
		 mode == RLI_JSON_READ_AUTO)
		rli_notes_add(&unit->log, RLI_LOG_DEBUG, "%s: read in %u chunks on %u threads", unit->path, read, threads);
	if (result == RLI_ITEMS_DECLINED && unit->share)
		goto yajl; /* m has seen part of the file: read it again alone */
	if (result == RLI_ITEMS_DECLINED)
		result = rli_json_items_read(&m->json, &mstx_callbacks, m, source, failure);
	if (result != RLI_ITEMS_DECLINED)
		return (rli_read_result)result;
yajl:
	/* Whatever a reading half-gathered is dropped: yajl reads the file from its first byte. */
	mstx_ctx_close(m);
	if (mstx_ctx_open(m, unit) < 0)
		return RLI_READ_OOM;
	if (rli_bytes_seek(source, 0) < 0) {
		*failure = rli_strdup(rli_bytes_failure(source) ? rli_bytes_failure(source) : "out of memory");
		return *failure ? RLI_READ_FAILED : RLI_READ_OOM;
	}
	return rli_json_read(&m->json, source, failure);
}

void rli_mstx_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, RLI_JSON_READ_AUTO);
}

void rli_mstx_parse_bytes_as(rli_unit *unit, rli_bytes *source, rli_events *rows, int mode)
{
	mstx_ctx m;
	char *failure = NULL;
	rli_read_result result;

	if (mstx_ctx_open(&m, unit) < 0) {
		unit->status = RLI_ERROR;
		goto done;
	}
	result = read_trace(&m, source, mode, &failure);
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
	mstx_ctx_close(&m);
}

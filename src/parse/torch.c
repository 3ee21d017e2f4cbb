/* torch.c: PyTorch (Kineto) profiles: every *.json.gz streams through the byte source, yajl and the items scanner into one bar. */
#include "parse_internal.h"
#include "format.h"
#include "json_items.h"
#include "json_member.h"
#include "json_stream.h"
#include "torch_memory.h"
#include "torch_read.h"
#include "walk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- discovery (timeline.md §4.2, §7) ----------------------------------- */

typedef struct {
	rli_discovery *discovery;
	const char *root;
	size_t root_length;
	char **top_dirs; /* the root's sub-folders, each of which must hold a trace */
	unsigned char *top_has_trace;
	size_t top_count;
	rli_strpool roles;
} torch_walk;

/* Marks the root sub-folder that path lies under, or is (is_dir). */
static void mark_top_dir(torch_walk *walk, const char *path, int is_dir)
{
	const char *rest = path + walk->root_length;
	const char *slash;
	size_t length;
	while (*rest == '/')
		rest++;
	slash = strchr(rest, '/');
	if (!slash && !is_dir)
		return;
	length = slash ? (size_t)(slash - rest) : strlen(rest);
	for (size_t i = 0; i < walk->top_count; i++) {
		const char *name = walk->top_dirs[i];
		if (strlen(name) == length && memcmp(name, rest, length) == 0) {
			walk->top_has_trace[i] = 1;
			return;
		}
	}
}

/*
 * A folder that could not be read fails as a unit of its own; the root sub-folder it is or lies
 * under may hold its trace there, so no "has no PyTorch trace" is said of it as well.
 */
static int unsearched(void *ctx, const char *dir, const char *why)
{
	torch_walk *walk = ctx;
	mark_top_dir(walk, dir, 1);
	return rli_discovery_unsearched(walk->discovery, dir, why);
}

static int visit(void *ctx, const rli_walk_entry *entry)
{
	torch_walk *walk = ctx;
	int named_trace = rli_ends_with(entry->name, ".json.gz");
	rli_unit *unit;
	uint32_t group;
	if (entry->depth == 1 && entry->is_dir && !named_trace) {
		char **names = realloc(walk->top_dirs, (walk->top_count + 1) * sizeof(*names));
		unsigned char *flags;
		if (!names)
			return rli_error_oom();
		walk->top_dirs = names;
		flags = realloc(walk->top_has_trace, walk->top_count + 1);
		if (!flags)
			return rli_error_oom();
		walk->top_has_trace = flags;
		walk->top_dirs[walk->top_count] = rli_strdup(entry->name);
		if (!walk->top_dirs[walk->top_count])
			return rli_error_oom();
		walk->top_has_trace[walk->top_count++] = 0;
		return 0;
	}
	/*
	 * Whatever it is: a FIFO, a dangling symlink or a folder named like a trace is a unit that
	 * fails, said by the byte source ("not a regular file but a FIFO"), never one left out unsaid.
	 */
	if (!named_trace)
		return 0;
	mark_top_dir(walk, entry->path, 0);
	if (strstr(entry->name, "async_llm"))
		return 0;
	unit = rli_discovery_add(walk->discovery);
	if (!unit)
		return rli_error_oom();
	unit->path = rli_strdup(entry->path);
	unit->role = rli_dir_label(entry->dir);
	if (!unit->path || !unit->role)
		return rli_error_oom();
	group = rli_strpool_intern(&walk->roles, unit->role, strlen(unit->role));
	if (group == RLI_STRPOOL_NONE)
		return rli_error_oom();
	unit->group = group;
	return 0;
}

static int torch_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	torch_walk walk;
	int error;

	(void)options;
	memset(&walk, 0, sizeof(walk));
	walk.discovery = discovery;
	walk.root = root;
	walk.root_length = strlen(root);
	rli_strpool_init(&walk.roles);
	error = rli_walk(root, visit, unsearched, &walk);
	if (error < 0)
		goto done;
	/* Each sub-folder of the root must hold a trace (below it, at any depth): one line each. */
	for (size_t i = 0; i < walk.top_count; i++)
		if (!walk.top_has_trace[i])
			rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
				      "The path '%s/%s' has no PyTorch trace: no *.json.gz file at any depth "
				      "(such as prof_rank-0_120000.json.gz or host_1234.1700000000.pt.trace.json.gz)",
				      root, walk.top_dirs[i]);
	error = rli_discovery_group(discovery);
	if (error == RLI_OK && discovery->structural.oom)
		error = rli_error_oom();
done:
	for (size_t i = 0; i < walk.top_count; i++)
		free(walk.top_dirs[i]);
	free(walk.top_dirs);
	free(walk.top_has_trace);
	rli_strpool_dispose(&walk.roles);
	return error;
}

/* ---- parsing one .json.gz (timeline.md §4.3) ------------------------------ */

enum { TOP_OTHER = 0, TOP_DISTRIBUTED, TOP_EVENTS };
enum { EV_OTHER = 0, EV_PH, EV_NAME, EV_PID, EV_TID, EV_TS, EV_DUR, EV_ARGS, EV_CAT, EV_COUNT };
enum { DI_RANK = 0, DI_WORLD_SIZE, DI_BACKEND, DI_COUNT };

/* Longest pid text kept as the bar's tid. */
#define TORCH_PID_MAX 64

typedef struct {
	rli_json json;
	rli_unit *unit;
	int top_kind; /* 0 none, 1 object, 2 something else */
	uint64_t top_keys;
	int top_key;
	/* distributedInfo */
	int distributed_seen, distributed_is_object;
	unsigned distributed_found;
	int distributed_key;
	int have_rank;
	int64_t rank;
	/* traceEvents */
	int events_is_array;
	uint64_t events;
	int event_key;
	int event_has[EV_COUNT];
	int event_has_ts_value, event_has_dur_value;
	double event_ts, event_dur;
	/* from the first event */
	int tid_state; /* 0 unknown, 1 number, 2 not a number */
	char tid[TORCH_PID_MAX + 1];
	/* the envelope */
	uint64_t valid;
	double min_ts, max_end;
	uint64_t negative, first_negative; /* events left out for a negative ts or dur, and the first */
	torch_memory memory; /* the [memory] events, read in the same pass when the unit asks for them */
	int scanned;         /* traceEvents was read by the items scanner */
} torch_ctx;

static const char *kind_name(int kind)
{
	switch (kind) {
	case 's': return "a string";
	case 'z': return "null";
	case 'b': return "a boolean";
	case '{': return "an object";
	case '[': return "an array";
	default: return "a number too large for a double";
	}
}

static void event_reset(torch_ctx *t)
{
	t->event_key = EV_OTHER;
	memset(t->event_has, 0, sizeof(t->event_has));
	t->event_has_ts_value = t->event_has_dur_value = 0;
	torch_memory_event_reset(&t->memory);
}

static int event_done(torch_ctx *t)
{
	static const int required[] = {EV_PH, EV_NAME, EV_PID, EV_TID, EV_TS};
	static const char *const names[] = {"ph", "name", "pid", "tid", "ts"};
	char list[64];
	uint64_t present = 0;
	double ts, dur;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		present |= (uint64_t)(t->event_has[required[i]] != 0) << i;
	t->events++;
	/* Every event comes here: the list is made only when something is missing. */
	if (present != 0x1f && rli_missing_keys(list, sizeof(list), names, sizeof(names) / sizeof(names[0]), present)) {
		rli_notes_add(&t->unit->failures, RLI_LOG_ERROR,
			      "The 'traceEvents' field missing: {%s} in FilePath: %s", list, t->unit->path);
		return rli_json_halt(&t->json);
	}
	if (t->events == 1 && t->tid_state == 0)
		t->tid_state = 2;
	/* An instant event has no dur: the memory events are taken before the bar's rule leaves them out. */
	if (torch_memory_event_done(&t->memory, t->event_has_ts_value, t->event_ts, t->event_has_dur_value,
				    t->event_dur) < 0) {
		t->unit->status = RLI_ERROR;
		return rli_json_halt(&t->json);
	}
	/* ts and dur default to -1, so an event without them falls out below. */
	ts = t->event_has_ts_value ? t->event_ts : -1;
	dur = t->event_has_dur_value ? t->event_dur : -1;
	if (ts < 0 || dur < 0 || ts + dur < 0) {
		/* Left out as the reference leaves them out; a value written negative is said (see torch_verdict). */
		if (((t->event_has_ts_value && ts < 0) || (t->event_has_dur_value && dur < 0)) && t->negative++ == 0)
			t->first_negative = t->events;
		return 1;
	}
	if (!isfinite(ts + dur))
		return rli_json_stop(&t->json, "'ts' + 'dur' of trace event %llu is too large for a double",
				     (unsigned long long)t->events);
	if (t->valid == 0 || ts < t->min_ts)
		t->min_ts = ts;
	if (t->valid == 0 || ts + dur > t->max_end)
		t->max_end = ts + dur;
	t->valid++;
	return 1;
}

/* Out of memory while keeping a memory event: the unit fails as a whole. */
static int memory_failed(torch_ctx *t)
{
	t->unit->status = RLI_ERROR;
	return rli_json_halt(&t->json);
}

static int torch_value(torch_ctx *t, const char *text, size_t length, int kind)
{
	int depth = t->json.depth;
	if (depth == 0) {
		t->top_kind = 2;
		return 1;
	}
	if (depth == 1) {
		if (t->top_key == TOP_DISTRIBUTED) {
			t->distributed_seen = 1;
			t->distributed_is_object = 0;
			t->distributed_found = 0;
		} else if (t->top_key == TOP_EVENTS) {
			return rli_json_stop(&t->json, "'traceEvents' must be an array, got %s",
					     kind_name(kind));
		}
		return 1;
	}
	if (depth == 2 && t->top_key == TOP_DISTRIBUTED && t->distributed_key == DI_RANK) {
		double rank;
		/* The range test comes first: converting a double beyond int64 is undefined. */
		if (kind != 'n' || rli_text_to_double(&rank, text, length) < 0 || rank < -9.2e18 ||
		    rank > 9.2e18 || rank != (double)(int64_t)rank)
			return rli_json_stop(&t->json, "'rank' in 'distributedInfo' must be an integer, got %s",
					     kind == 'n' ? "another number" : kind_name(kind));
		t->have_rank = 1;
		t->rank = (int64_t)rank;
		return 1;
	}
	if (depth == 2 && t->top_key == TOP_EVENTS) {
		/* A bare value in traceEvents is an event without any of the required keys. */
		event_reset(t);
		return event_done(t);
	}
	if (depth == 3 && t->top_key == TOP_EVENTS) {
		double value;
		switch (t->event_key) {
		case EV_PID:
			if (t->events == 0 && t->tid_state == 0) {
				if (kind == 'n' && length <= TORCH_PID_MAX) {
					memcpy(t->tid, text, length);
					t->tid[length] = '\0';
					t->tid_state = text[0] == '-' ? 2 : 1;
				} else {
					t->tid_state = 2;
				}
			}
			break;
		case EV_NAME:
			if (kind == 's' && torch_memory_name(&t->memory, text, length) < 0)
				return memory_failed(t);
			break;
		case EV_CAT:
			if (kind == 's')
				torch_memory_cat(&t->memory, text, length);
			break;
		case EV_TID:
			if ((kind == 'n' || kind == 's') && torch_memory_tid(&t->memory, text, length) < 0)
				return memory_failed(t);
			break;
		case EV_TS:
		case EV_DUR:
			if (kind != 'n' || rli_text_to_double(&value, text, length) < 0)
				return rli_json_stop(&t->json, "'%s' of trace event %llu must be a number, got %s",
						     t->event_key == EV_TS ? "ts" : "dur",
						     (unsigned long long)t->events + 1, kind_name(kind));
			if (t->event_key == EV_TS) {
				t->event_ts = value;
				t->event_has_ts_value = 1;
			} else {
				t->event_dur = value;
				t->event_has_dur_value = 1;
			}
			break;
		default:
			break;
		}
	}
	if (depth == 4 && t->top_key == TOP_EVENTS && t->event_key == EV_ARGS)
		torch_memory_arg_value(&t->memory, text, length, kind);
	return 1;
}

static int torch_null(void *ctx) { return torch_value(ctx, NULL, 0, 'z'); }
static int torch_bool(void *ctx, int value) { (void)value; return torch_value(ctx, NULL, 0, 'b'); }
static int torch_number(void *ctx, const char *text, size_t length)
{
	return torch_value(ctx, text, length, 'n');
}
static int torch_string(void *ctx, const unsigned char *text, size_t length)
{
	return torch_value(ctx, (const char *)text, length, 's');
}

static int match(const unsigned char *key, size_t length, const char *name)
{
	return strlen(name) == length && memcmp(key, name, length) == 0;
}

/* A trace event's keys by length first: this runs for every key of millions of events. */
static int event_key(const unsigned char *key, size_t length)
{
	switch (length) {
	case 2:
		if (key[0] == 'p' && key[1] == 'h')
			return EV_PH;
		return key[0] == 't' && key[1] == 's' ? EV_TS : EV_OTHER;
	case 3:
		if (key[1] == 'i' && key[2] == 'd')
			return key[0] == 'p' ? EV_PID : key[0] == 't' ? EV_TID : EV_OTHER;
		if (memcmp(key, "cat", 3) == 0)
			return EV_CAT;
		return memcmp(key, "dur", 3) == 0 ? EV_DUR : EV_OTHER;
	case 4:
		if (memcmp(key, "name", 4) == 0)
			return EV_NAME;
		return memcmp(key, "args", 4) == 0 ? EV_ARGS : EV_OTHER;
	default:
		return EV_OTHER;
	}
}

static int torch_key(void *ctx, const unsigned char *key, size_t length)
{
	static const char *const distributed_keys[DI_COUNT] = {"rank", "world_size", "backend"};
	torch_ctx *t = ctx;
	int depth = t->json.depth;
	if (depth == 1) {
		t->top_keys++;
		t->top_key = match(key, length, "distributedInfo") ? TOP_DISTRIBUTED
			     : match(key, length, "traceEvents")   ? TOP_EVENTS
								   : TOP_OTHER;
	} else if (depth == 2 && t->top_key == TOP_DISTRIBUTED) {
		t->distributed_key = -1;
		for (int i = 0; i < DI_COUNT; i++) {
			if (match(key, length, distributed_keys[i])) {
				t->distributed_key = i;
				t->distributed_found |= 1u << i;
			}
		}
	} else if (depth == 3 && t->top_key == TOP_EVENTS) {
		t->event_key = event_key(key, length);
		t->event_has[t->event_key] = 1;
	} else if (depth == 4 && t->top_key == TOP_EVENTS && t->event_key == EV_ARGS) {
		torch_memory_arg_key(&t->memory, key, length);
	}
	return 1;
}

static int torch_open(torch_ctx *t, int is_map)
{
	int depth = t->json.depth;
	if (depth == 0) {
		t->top_kind = is_map ? 1 : 2;
		if (!is_map)
			return rli_json_halt(&t->json);
	} else if (depth == 1 && t->top_key == TOP_DISTRIBUTED) {
		/* A repeated key replaces the earlier value, as in a JSON object loaded whole. */
		t->distributed_seen = 1;
		t->distributed_is_object = is_map;
		t->distributed_found = 0;
		t->have_rank = 0;
		t->distributed_key = -1;
	} else if (depth == 1 && t->top_key == TOP_EVENTS) {
		if (is_map)
			return rli_json_stop(&t->json, "'traceEvents' must be an array, got an object");
		t->events_is_array = 1;
		t->events = 0;
		t->valid = 0;
		t->tid_state = 0;
	} else if (depth == 2 && t->top_key == TOP_DISTRIBUTED && t->distributed_key == DI_RANK) {
		return rli_json_stop(&t->json, "'rank' in 'distributedInfo' must be an integer, got %s",
				     kind_name(is_map ? '{' : '['));
	} else if (depth == 2 && t->top_key == TOP_EVENTS) {
		event_reset(t);
	} else if (depth == 3 && t->top_key == TOP_EVENTS) {
		if (t->event_key == EV_TS || t->event_key == EV_DUR)
			return rli_json_stop(&t->json, "'%s' of trace event %llu must be a number, got %s",
					     t->event_key == EV_TS ? "ts" : "dur",
					     (unsigned long long)t->events + 1, kind_name(is_map ? '{' : '['));
		if (t->event_key == EV_PID && t->events == 0 && t->tid_state == 0)
			t->tid_state = 2;
	}
	return rli_json_enter(&t->json);
}

static int torch_start_map(void *ctx) { return torch_open(ctx, 1); }
static int torch_start_array(void *ctx) { return torch_open(ctx, 0); }

static int torch_close(void *ctx)
{
	torch_ctx *t = ctx;
	rli_json_leave(&t->json);
	if (t->json.depth == 2 && t->top_key == TOP_EVENTS && t->events_is_array)
		return event_done(t);
	return 1;
}

static const yajl_callbacks torch_callbacks = {
	torch_null, torch_bool, NULL, NULL, torch_number, torch_string,
	torch_start_map, torch_key, torch_close, torch_start_array, torch_close};

/* A failed feed or finish: 0 when a callback stopped the parse and said why, else -1 with the failure recorded. */
static int parse_failed(torch_ctx *t)
{
	if (t->json.halted)
		return 0; /* the callback recorded why, or the top level is not an object */
	if (!t->json.message)
		t->unit->status = RLI_ERROR;
	else
		rli_notes_add(&t->unit->failures, RLI_LOG_ERROR, "Failed to parse JSON file %s: %s", t->unit->path,
			      t->json.message);
	return -1;
}

/* The source failed: a read error, a truncated or corrupt gzip, which the source words, naming the file. */
static int source_failed(torch_ctx *t, rli_bytes *source)
{
	if (rli_bytes_failure(source))
		rli_notes_add(&t->unit->failures, RLI_LOG_ERROR, "%s", rli_bytes_failure(source));
	else
		t->unit->status = RLI_ERROR;
	return -1;
}

/* What read_trace returns when the trace must be read again, by yajl alone. */
#define READ_AGAIN 1

/*
 * Streams the source through the parser; 0, or -1 with the unit's failure recorded / status set.
 * scan: the traceEvents array, nearly all the bytes, is read by the items scanner, yajl reading
 * the rest (as it reads every byte with scan 0); READ_AGAIN when the scanner could not judge the
 * bytes, or a failure needs yajl's reading of every byte to be placed: the callbacks have seen
 * part of the trace, which must be read again with scan 0.
 */
static int read_trace(torch_ctx *t, rli_bytes *source, uint64_t *decompressed, int scan)
{
	rli_unit *unit = t->unit;
	rli_member_finder finder;
	rli_items_reader *items = NULL;
	rli_items_source fill = {source, NULL, 0, 0};
	const unsigned char *data;
	size_t length, at;
	int got, result;

	*decompressed = 0;
	rli_member_finder_init(&finder, "traceEvents");
	finder.done = !scan;
	rli_bytes_set_content(source, "JSON");
	/*
	 * A core the other units leave idle inflates on its own thread while this one parses. The
	 * [memory] events' pairing helper may share it: with igzip the inflating takes a tenth of a
	 * core or so, the pairing less than half.
	 */
	if (unit->spare_threads)
		rli_bytes_inflate_ahead(source);
	while ((got = rli_bytes_next(source, &data, &length)) > 0) {
		*decompressed += length;
		at = finder.done ? (size_t)-1 : rli_member_finder_scan(&finder, data, length);
		if (at == (size_t)-1) {
			if (rli_json_feed(&t->json, data, length) < 0)
				return t->scanned && !t->json.halted ? READ_AGAIN : parse_failed(t);
			continue;
		}
		if (rli_json_feed(&t->json, data, at) < 0)
			return parse_failed(t);
		/* yajl stands where the finder says, inside traceEvents: the scanner reads the array. */
		if (!(t->json.depth == 2 && t->top_key == TOP_EVENTS && t->events_is_array)) {
			if (rli_json_feed(&t->json, data + at, length - at) < 0)
				return parse_failed(t);
			continue;
		}
		fill.data = data + at;
		fill.length = length - at;
		if (!(items = rli_items_new(&t->json, &torch_callbacks, t, rli_items_fill_from_source, &fill,
					    *decompressed - fill.length, RLI_ITEMS_IN_MEMBER))) {
			unit->status = RLI_ERROR;
			return -1;
		}
		result = rli_items_read(items, UINT64_MAX, &(uint64_t){ 0 });
		if (result == RLI_READ_OK) {
			/* yajl reads on after the array: what the scanner read past its "]", then the chunk's rest */
			rli_items_rest(items, &data, &length);
			result = rli_json_feed(&t->json, data, length) < 0 ||
					 rli_json_feed(&t->json, fill.data, fill.length) < 0 ? RLI_READ_FAILED : RLI_READ_OK;
		}
		rli_items_free(items);
		if (result == RLI_READ_HALTED || (result == RLI_READ_FAILED && t->json.halted))
			return 0; /* a callback stopped the parse and recorded why, as yajl's reading would */
		if (result == RLI_READ_OOM) {
			unit->status = RLI_ERROR;
			return -1;
		}
		if (result != RLI_READ_OK)
			return READ_AGAIN;
		t->scanned = 1;
	}
	if (got < 0)
		return source_failed(t, source);
	if (*decompressed == 0 || rli_json_finish(&t->json) == 0)
		return 0;
	/* A failure's line and column are yajl's to say where yajl has not read every byte. */
	return t->scanned && !t->json.halted ? READ_AGAIN : parse_failed(t);
}

static void torch_verdict(torch_ctx *t, rli_events *rows)
{
	rli_unit *unit = t->unit;
	rli_event_in row;
	if (t->top_kind != 1) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR,
			      "Failed to parse JSON file %s: expected a JSON object with traceEvents", unit->path);
		return;
	}
	if (t->top_keys == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", unit->path);
		return;
	}
	/* A distributedInfo that is there must be whole, as the reference asks; one that is not is no failure. */
	if (t->distributed_seen && (!t->distributed_is_object || t->distributed_found != (1u << DI_COUNT) - 1)) {
		static const char *const names[DI_COUNT] = {"rank", "world_size", "backend"};
		char list[64];
		rli_missing_keys(list, sizeof(list), names, DI_COUNT, t->distributed_is_object ? t->distributed_found : 0);
		rli_notes_add(&unit->failures, RLI_LOG_ERROR,
			      "The 'distributedInfo' field missing: {%s} in FilePath: %s", list, unit->path);
	}
	if (!t->events_is_array || t->events == 0)
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "The 'traceEvents' field is empty in FilePath: %s",
			      unit->path);
	if (unit->failures.count)
		return;
	if (!t->distributed_seen) {
		/*
		 * A single-process run, or a profiler older than distributedInfo (kineto's 2021 samples):
		 * the rank its file is named by, else 0; the run says once which traces had none.
		 */
		t->rank = 0;
		t->have_rank = 1;
		unit->rank_from = rli_rank_from_file_name(unit->path, &t->rank) ? RLI_RANK_FROM_NAME : RLI_RANK_DEFAULT;
	}
	if (!t->have_rank || t->rank < 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Path %s: No valid distributedInfo for Analysis "
			      "(a rank of 0 or more)", unit->path);
		return;
	}
	if (t->tid_state != 1) {
		/* tid stays the negative pid, or -1 (the reference's default) when it is not a number. */
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: No valid pid in traceEvents; tid is -1", unit->path);
	}
	if (t->negative)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "%s: %llu trace event(s) with a negative 'ts' or 'dur' left out (the first: trace event %llu)",
			      unit->path, (unsigned long long)t->negative, (unsigned long long)t->first_negative);
	if (t->valid == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Path %s: No valid timing in traceEvents for Analysis",
			      unit->path);
		return;
	}
	memset(&row, 0, sizeof(row));
	row.name = unit->role;
	row.role = unit->role;
	row.tid = t->tid;
	row.rank_id = t->rank;
	row.start_ms = t->min_ts / 1000;
	row.duration_ms = (t->max_end - t->min_ts) / 1000;
	if (rows && rli_events_append(rows, &row) < 0)
		unit->status = RLI_ERROR;
}

/* A fresh parser state for the unit: 0, or -1 out of memory. */
static int torch_ctx_open(torch_ctx *t, rli_unit *unit)
{
	memset(t, 0, sizeof(*t));
	t->unit = unit;
	strcpy(t->tid, "-1");
	torch_memory_init(&t->memory, unit->memory_devices, unit->role ? unit->role : "", unit->spare_threads);
	if (rli_json_open(&t->json, &torch_callbacks, t, 1) < 0) {
		torch_memory_dispose(&t->memory);
		return -1;
	}
	return 0;
}

static void torch_ctx_close(torch_ctx *t)
{
	torch_memory_dispose(&t->memory);
	rli_json_close(&t->json);
}

void rli_torch_parse_bytes_as(rli_unit *unit, rli_bytes *source, rli_events *rows, int mode)
{
	torch_ctx t;
	uint64_t decompressed = 0;
	int read;

	if (torch_ctx_open(&t, unit) < 0) {
		unit->status = RLI_ERROR;
		return;
	}
	read = read_trace(&t, source, &decompressed, mode != RLI_JSON_READ_YAJL && rli_json_scan_enabled());
	if (read == READ_AGAIN) {
		/* Whatever the scanning reading half-gathered is dropped: yajl reads the trace from its first byte. */
		torch_ctx_close(&t);
		if (torch_ctx_open(&t, unit) < 0) {
			unit->status = RLI_ERROR;
			return;
		}
		if (rli_bytes_seek(source, 0) < 0)
			read = source_failed(&t, source);
		else
			read = read_trace(&t, source, &decompressed, 0);
	}
	if (read == 0 && t.scanned && mode == RLI_JSON_READ_AUTO)
		rli_notes_add(&unit->log, RLI_LOG_DEBUG, "%s: traceEvents read by the scanner", unit->path);
	if (read == 0 && unit->status == RLI_OK && unit->failures.count == 0) {
		if (decompressed == 0)
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", unit->path);
		else
			torch_verdict(&t, rows);
	}
	if (unit->status == RLI_OK && unit->failures.count == 0 && unit->memory_devices) {
		if (torch_memory_finish(&t.memory, t.rank, &unit->memory) < 0)
			unit->status = RLI_ERROR;
		else
			torch_memory_notes(&t.memory, unit);
	}
	if (unit->log.oom || unit->failures.oom)
		unit->status = RLI_ERROR;
	torch_ctx_close(&t);
}

static void torch_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_torch_parse_bytes_as(unit, source, rows, RLI_JSON_READ_AUTO);
}

static void torch_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_unit_parse_file(unit, rows, torch_parse_bytes);
}

static rli_shows torch_detect(const rli_walk_entry *entry)
{
	/* A FIFO or a dangling symlink named so shows the format too: discovery then says what it is. */
	return !entry->is_dir && rli_ends_with(entry->name, ".json.gz") ? RLI_SHOWS_FORMAT : RLI_SHOWS_NOTHING;
}

const rli_format rli_format_torch = {
	RLI_PROFILER_TORCH, "torch", "multi_json_torch", "*.json.gz file", "*.json.gz files", 1,
	torch_detect, torch_discover, torch_parse_unit, torch_parse_bytes, NULL, 0,
};

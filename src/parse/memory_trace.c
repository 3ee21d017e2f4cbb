/* memory_trace.c: the call-stack index of a trace_view.json: cpu_op events with a "Call stack", streamed with yajl. */
#include "memory_internal.h"
#include "json_chunks.h"
#include "json_stream.h"
#include "common/bigmem.h"
#include "common/grow.h"
#include "common/sort.h"

#include <stdlib.h>
#include <string.h>

/* Longest ts or dur text kept; longer values are not numbers a profiler writes. */
#define TRACE_NUMBER_MAX 64
/* Longest op name kept; a longer one is interned right away. */
#define TRACE_NAME_MAX 256

enum { KEY_OTHER = 0, KEY_NAME, KEY_TS, KEY_DUR, KEY_CAT, KEY_ARGS };
enum { NUMBER_ABSENT = 0, NUMBER_TEXT, NUMBER_BAD };

typedef struct {
	int kind; /* NUMBER_* */
	size_t length;
	char text[TRACE_NUMBER_MAX];
} trace_number;

typedef struct {
	rli_json json;
	rli_stack_index *index;
	int top_kind;    /* 0 none yet, 1 an array, 2 something else */
	uint64_t events; /* values in the top-level array */
	/* the event being read (depth 2 keys, depth 3 inside args) */
	int key;
	int name_ok, cat_cpu_op, args_object, stack_key, has_stack;
	int wrong_type; /* a name, cat, args or "Call stack" of a type no trace writes */
	uint32_t stack;                 /* interned as it comes: no copy of a stack already known */
	char name[TRACE_NAME_MAX];      /* copied: most events are no cpu_op, and a copy is cheaper than a hash */
	size_t name_length;             /* SIZE_MAX: too long to copy, long_name holds its id */
	uint32_t long_name;
	trace_number ts, dur;
	int oom;
} trace_ctx;

static void number_set(trace_number *number, const char *text, size_t length)
{
	if (length > TRACE_NUMBER_MAX) {
		number->kind = NUMBER_BAD;
		return;
	}
	number->kind = NUMBER_TEXT;
	number->length = length;
	memcpy(number->text, text, length);
}

static void event_reset(trace_ctx *t)
{
	t->key = KEY_OTHER;
	t->name_ok = t->cat_cpu_op = t->args_object = t->stack_key = t->has_stack = t->wrong_type = 0;
	t->ts.kind = t->dur.kind = NUMBER_ABSENT;
}

static int oom(trace_ctx *t)
{
	t->oom = 1;
	return rli_json_halt(&t->json);
}

static int add_op(trace_ctx *t)
{
	rli_stack_index *index = t->index;
	rli_stack_op *op;
	double ts, dur = 0;
	if (t->ts.kind != NUMBER_TEXT || rli_text_to_double(&ts, t->ts.text, t->ts.length) < 0) {
		index->no_ts++; /* the reference fails the whole capture here; the stacks are a bonus, so we go on */
		return 1;
	}
	/* dur only tells whether the op was still running: a bad one counts as 0, and is said. */
	if (t->dur.kind == NUMBER_BAD ||
	    (t->dur.kind == NUMBER_TEXT && (rli_text_to_double(&dur, t->dur.text, t->dur.length) < 0 || dur < 0))) {
		index->bad_dur++;
		dur = 0;
	}
	if (RLI_GROW_BIG(&index->ops, &index->capacity, index->count + 1, 1024) < 0)
		return oom(t);
	op = &index->ops[index->count];
	op->ts = ts;
	op->dur = dur;
	op->name = t->name_length == SIZE_MAX ? t->long_name
						 : rli_strpool_intern(&index->names, t->name, t->name_length);
	if (op->name == RLI_STRPOOL_NONE)
		return oom(t);
	op->stack = t->stack;
	index->count++;
	return 1;
}

/* A call stack interned as it comes; one holding \u0000 as text first (U+FFFD), since it shows in the outputs. */
static uint32_t intern_stack(trace_ctx *t, const char *text, size_t length)
{
	size_t clean_length;
	char *clean;
	if (!memchr(text, '\0', length))
		return t->stack = rli_strpool_intern(&t->index->stacks, text, length);
	if (!(clean = rli_text_copy(text, length, &clean_length)))
		return RLI_STRPOOL_NONE;
	t->stack = rli_strpool_intern(&t->index->stacks, clean, clean_length);
	free(clean);
	return t->stack;
}

/* A scalar: kind 's' string, 'n' number, 'o' null or boolean. */
static int trace_scalar(trace_ctx *t, const char *text, size_t length, int kind)
{
	int depth = t->json.depth;
	if (depth == 0) {
		t->top_kind = 2;
		return 1;
	}
	if (depth == 1) {
		t->events++; /* an item that is no object: not an event, but the array is not empty */
		return 1;
	}
	if (depth == 2) {
		switch (t->key) {
		case KEY_NAME:
			/* A name that is no string can never equal a CSV name. */
			t->name_ok = kind == 's';
			t->wrong_type |= kind != 's';
			if (t->name_ok && length <= TRACE_NAME_MAX) {
				memcpy(t->name, text, length);
				t->name_length = length;
			} else if (t->name_ok) {
				t->name_length = SIZE_MAX;
				if ((t->long_name = rli_strpool_intern(&t->index->names, text, length)) == RLI_STRPOOL_NONE)
					return oom(t);
			}
			break;
		case KEY_TS:
		case KEY_DUR: {
			trace_number *number = t->key == KEY_TS ? &t->ts : &t->dur;
			if (kind == 'o')
				number->kind = NUMBER_BAD;
			else
				number_set(number, text, length);
			break;
		}
		case KEY_CAT:
			t->cat_cpu_op = kind == 's' && length == 6 && memcmp(text, "cpu_op", 6) == 0;
			t->wrong_type |= kind != 's';
			break;
		case KEY_ARGS:
			t->args_object = t->has_stack = 0;
			t->wrong_type = 1;
			break;
		default:
			break;
		}
		return 1;
	}
	if (depth == 3 && t->key == KEY_ARGS && t->args_object && t->stack_key) {
		/* A stack that is no string has no first frame: the event is left out. */
		t->has_stack = kind == 's';
		t->wrong_type |= kind != 's';
		if (t->has_stack && intern_stack(t, text, length) == RLI_STRPOOL_NONE)
			return oom(t);
	}
	return 1;
}

static int trace_null(void *ctx) { return trace_scalar(ctx, NULL, 0, 'o'); }
static int trace_bool(void *ctx, int value) { (void)value; return trace_scalar(ctx, NULL, 0, 'o'); }
static int trace_number_cb(void *ctx, const char *text, size_t length)
{
	return trace_scalar(ctx, text, length, 'n');
}
static int trace_string(void *ctx, const unsigned char *text, size_t length)
{
	return trace_scalar(ctx, (const char *)text, length, 's');
}

static int trace_open(trace_ctx *t, int is_map)
{
	int depth = t->json.depth;
	if (depth == 0) {
		t->top_kind = is_map ? 2 : 1;
		if (is_map) /* {"traceEvents": ...} has no top-level items: the reference reads none */
			return rli_json_halt(&t->json);
	} else if (depth == 1) {
		t->events++;
		event_reset(t);
	} else if (depth == 2) {
		/* A container as an event's value: only args may be one (an object). */
		if (t->key == KEY_ARGS) {
			t->args_object = is_map;
			t->has_stack = 0;
			t->wrong_type |= !is_map;
		} else if (t->key == KEY_NAME) {
			t->name_ok = 0;
			t->wrong_type = 1;
		} else if (t->key == KEY_TS || t->key == KEY_DUR) {
			(t->key == KEY_TS ? &t->ts : &t->dur)->kind = NUMBER_BAD;
		} else if (t->key == KEY_CAT) {
			t->cat_cpu_op = 0;
			t->wrong_type = 1;
		}
	} else if (depth == 3 && t->key == KEY_ARGS && t->args_object && t->stack_key) {
		t->has_stack = 0;
		t->wrong_type = 1;
	}
	return rli_json_enter(&t->json);
}

static int trace_start_map(void *ctx) { return trace_open(ctx, 1); }
static int trace_start_array(void *ctx) { return trace_open(ctx, 0); }

static int trace_key(void *ctx, const unsigned char *key, size_t length)
{
	trace_ctx *t = ctx;
	if (t->json.depth == 2) {
		t->key = KEY_OTHER;
		if (length == 4 && memcmp(key, "name", 4) == 0)
			t->key = KEY_NAME;
		else if (length == 2 && memcmp(key, "ts", 2) == 0)
			t->key = KEY_TS;
		else if (length == 3 && memcmp(key, "dur", 3) == 0)
			t->key = KEY_DUR;
		else if (length == 3 && memcmp(key, "cat", 3) == 0)
			t->key = KEY_CAT;
		else if (length == 4 && memcmp(key, "args", 4) == 0)
			t->key = KEY_ARGS;
	} else if (t->json.depth == 3 && t->key == KEY_ARGS) {
		t->stack_key = length == 10 && memcmp(key, "Call stack", 10) == 0;
	}
	return 1;
}

static int trace_end_map(void *ctx)
{
	trace_ctx *t = ctx;
	rli_json_leave(&t->json);
	if (t->json.depth != 1)
		return 1;
	if (t->wrong_type && t->index->wrong_type++ == 0)
		t->index->first_wrong_type = t->events;
	if (t->cat_cpu_op && t->has_stack && t->name_ok)
		return add_op(t);
	return 1;
}

static int trace_end_array(void *ctx)
{
	trace_ctx *t = ctx;
	rli_json_leave(&t->json);
	return 1;
}

static const yajl_callbacks trace_callbacks = {
	trace_null, trace_bool, NULL, NULL, trace_number_cb, trace_string,
	trace_start_map, trace_key, trace_end_map, trace_start_array, trace_end_array};

void rli_stack_index_init(rli_stack_index *index)
{
	memset(index, 0, sizeof(*index));
	rli_strpool_init(&index->names);
	rli_strpool_init(&index->stacks);
}

void rli_stack_index_dispose(rli_stack_index *index)
{
	rli_strpool_dispose(&index->names);
	rli_strpool_dispose(&index->stacks);
	rli_bigmem_free(index->ops);
	free(index->group_begin);
	memset(index, 0, sizeof(*index));
}

/* Orders one group by ts, stably (equal ts keep file order); scratch holds room for the largest group. */
static void sort_group(rli_stack_op *ops, size_t count, size_t *order, size_t *tmp, double *ts, rli_stack_op *copy)
{
	for (size_t i = 0; i < count; i++)
		ts[i] = ops[i].ts;
	/* One thread's ops come in time order; the file lists thread after thread: runs to merge. */
	rli_stable_sort_items(ops, count, sizeof(*ops), ts, order, tmp, copy);
}

/* Groups the ops by name (a stable counting sort), then orders each group by ts, stably. */
static int build_groups(rli_stack_index *index)
{
	size_t groups = index->names.count, n = index->count, largest = 0;
	size_t *next = calloc(groups + 1, sizeof(*next)), *order = NULL, *tmp = NULL;
	rli_stack_op *sorted = rli_bigmem_resize(NULL, (n ? n : 1) * sizeof(*sorted)), *copy = NULL;
	double *ts = NULL;
	int error = RLI_OK;

	index->group_begin = malloc((groups + 1) * sizeof(*index->group_begin));
	if (!next || !sorted || !index->group_begin) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		next[index->ops[i].name + 1]++;
	for (size_t g = 0; g < groups; g++)
		next[g + 1] += next[g];
	memcpy(index->group_begin, next, (groups + 1) * sizeof(*next));
	for (size_t i = 0; i < n; i++)
		sorted[next[index->ops[i].name]++] = index->ops[i];
	rli_bigmem_free(index->ops);
	index->ops = sorted;
	index->capacity = n ? n : 1;
	sorted = NULL;
	for (size_t g = 0; g < groups; g++) {
		rli_stack_op *ops = index->ops + index->group_begin[g];
		size_t count = index->group_begin[g + 1] - index->group_begin[g];
		int in_order = 1;
		for (size_t i = 1; i < count && in_order; i++)
			in_order = ops[i - 1].ts <= ops[i].ts;
		if (in_order)
			continue;
		if (!order) {
			for (size_t k = 0; k < groups; k++)
				if (index->group_begin[k + 1] - index->group_begin[k] > largest)
					largest = index->group_begin[k + 1] - index->group_begin[k];
			order = malloc(largest * sizeof(*order));
			tmp = malloc(largest * sizeof(*tmp));
			ts = malloc(largest * sizeof(*ts));
			copy = malloc(largest * sizeof(*copy));
			if (!order || !tmp || !ts || !copy) {
				error = rli_error_oom();
				goto done;
			}
		}
		sort_group(ops, count, order, tmp, ts, copy);
	}
done:
	free(next);
	rli_bigmem_free(sorted);
	free(order);
	free(tmp);
	free(ts);
	free(copy);
	return error;
}

/* ---- reading: by another format's reading, in chunks, by the scanner or by yajl ---- */

struct rli_stack_reader {
	trace_ctx t;
};

static int trace_ctx_open(trace_ctx *t, rli_stack_index *index)
{
	memset(t, 0, sizeof(*t));
	t->index = index;
	return rli_json_open(&t->json, &trace_callbacks, t, 1);
}

rli_stack_reader *rli_stack_reader_new(rli_stack_index *index)
{
	rli_stack_reader *reader = malloc(sizeof(*reader));
	if (reader && trace_ctx_open(&reader->t, index) < 0) {
		rli_stack_reader_free(reader);
		return NULL;
	}
	return reader;
}

void rli_stack_reader_free(rli_stack_reader *reader)
{
	if (!reader)
		return;
	rli_json_close(&reader->t.json);
	free(reader);
}

const yajl_callbacks *rli_stack_reader_callbacks(void)
{
	return &trace_callbacks;
}

rli_json *rli_stack_reader_json(rli_stack_reader *reader)
{
	return &reader->t.json;
}

void rli_stack_reader_outcome(const rli_stack_reader *reader, rli_stack_outcome *outcome)
{
	outcome->top_kind = reader->t.top_kind;
	outcome->events = reader->t.events;
	outcome->oom = reader->t.oom;
}

/* A chunk: its own index, joined into the whole's by rli_stack_chunking's append. */
typedef struct {
	rli_stack_reader reader;
	rli_stack_index index;
} stack_chunk;

static void *chunk_open(void *owner)
{
	stack_chunk *c = malloc(sizeof(*c));
	(void)owner;
	if (!c)
		return NULL;
	rli_stack_index_init(&c->index);
	if (trace_ctx_open(&c->reader.t, &c->index) < 0) {
		rli_stack_index_dispose(&c->index);
		free(c);
		return NULL;
	}
	return c;
}

static rli_json *chunk_json(void *chunk)
{
	return &((stack_chunk *)chunk)->reader.t.json;
}

static void chunk_close(void *chunk)
{
	stack_chunk *c = chunk;
	rli_json_close(&c->reader.t.json);
	rli_stack_index_dispose(&c->index);
	free(c);
}

/* Ids of one pool in another, interned there: the chunk's names and stacks as the whole's. */
static uint32_t *remap(rli_strpool *into, const rli_strpool *from)
{
	uint32_t *ids = malloc(((size_t)from->count + 1) * sizeof(*ids));
	if (!ids)
		return NULL;
	for (uint32_t id = 0; id < from->count; id++)
		if ((ids[id] = rli_strpool_intern(into, rli_strpool_get(from, id), rli_strpool_length(from, id))) ==
		    RLI_STRPOOL_NONE) {
			free(ids);
			return NULL;
		}
	return ids;
}

/* The chunk's ops after the whole's, their names and stacks in the whole's pools; its counts added. */
static int chunk_append(void *owner, void *chunk, uint64_t items_before)
{
	rli_stack_reader *whole = owner;
	stack_chunk *c = chunk;
	rli_stack_index *to = whole->t.index, *from = &c->index;
	uint32_t *names = NULL, *stacks = NULL;
	int error = RLI_ERROR;
	if (c->reader.t.oom || whole->t.oom)
		return RLI_ERROR;
	whole->t.top_kind = 1;
	whole->t.events += c->reader.t.events;
	to->no_ts += from->no_ts;
	to->bad_dur += from->bad_dur;
	if (from->wrong_type && to->wrong_type == 0)
		to->first_wrong_type = from->first_wrong_type + items_before;
	to->wrong_type += from->wrong_type;
	if (!(names = remap(&to->names, &from->names)) || !(stacks = remap(&to->stacks, &from->stacks)) ||
	    RLI_GROW_BIG(&to->ops, &to->capacity, to->count + from->count, 1024) < 0)
		goto done;
	for (size_t i = 0; i < from->count; i++) {
		rli_stack_op op = from->ops[i];
		op.name = names[op.name];
		op.stack = stacks[op.stack];
		to->ops[to->count++] = op;
	}
	error = RLI_OK;
done:
	free(names);
	free(stacks);
	return error;
}

const rli_json_chunking rli_stack_chunking = {&trace_callbacks, chunk_open, chunk_json, chunk_append, chunk_close};

/* Room for the ops of a trace of size bytes: a cpu_op with its stack takes several hundred. */
static int reserve_ops(rli_stack_index *index, uint64_t size)
{
	if (!index->ops && size / 256 > 1024) {
		size_t ops = size / 256 < RLI_MEMORY_RESERVE_MAX ? (size_t)(size / 256) : RLI_MEMORY_RESERVE_MAX;
		/* In 2 MiB pages (common/bigmem.h): a million ops are written once, and first touches cost. */
		if (!(index->ops = rli_bigmem_resize(NULL, ops * sizeof(*index->ops))))
			return rli_error_oom();
		index->capacity = ops;
	}
	return RLI_OK;
}

int rli_stack_index_finish(rli_stack_index *index, rli_unit *unit, const char *path, const rli_stack_outcome *outcome)
{
	if (outcome->top_kind != 1 || outcome->events == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "trace_view.json has no events: %s", path);
		return RLI_OK;
	}
	if (index->no_ts)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "%s: %llu cpu_op event(s) with a call stack have no 'ts' that is a number; "
			      "left out of the call-stack index",
			      path, (unsigned long long)index->no_ts);
	if (index->bad_dur)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "%s: %llu cpu_op event(s) with a call stack have a 'dur' that is no number or is "
			      "negative; taken as 0",
			      path, (unsigned long long)index->bad_dur);
	if (index->wrong_type)
		rli_notes_add(&unit->log, RLI_LOG_WARN,
			      "%s: %llu event(s) with a 'name', 'cat', 'args' or 'Call stack' of the wrong type "
			      "(the first: event %llu of the array); left out of the call-stack index",
			      path, (unsigned long long)index->wrong_type, (unsigned long long)index->first_wrong_type);
	return build_groups(index);
}

int rli_stack_index_read_as(rli_stack_index *index, rli_unit *unit, rli_bytes *source, size_t size, int mode)
{
	const char *path = rli_bytes_name(source);
	rli_stack_reader *reader;
	rli_stack_outcome outcome;
	char *failure = NULL;
	int result = RLI_ITEMS_DECLINED, error = RLI_OK;
	unsigned chunks = mode >= 2 ? (unsigned)mode : 1, threads = unit->spare_threads + 1;
	uint64_t plain;

	if (reserve_ops(index, size) < 0 || !(reader = rli_stack_reader_new(index)))
		return rli_error_oom();
	if (mode == RLI_JSON_READ_AUTO && unit->spare_threads)
		chunks = rli_json_chunk_count(size, threads);
	if (chunks > 1 && rli_bytes_plain_size(source, &plain) == 0)
		result = rli_json_chunks_read(&rli_stack_chunking, reader, source, plain, chunks, threads, NULL);
	if (result == RLI_ITEMS_DECLINED && mode != RLI_JSON_READ_YAJL)
		result = rli_json_items_read(&reader->t.json, &trace_callbacks, &reader->t, source, &failure);
	if (result == RLI_ITEMS_DECLINED) {
		/* What a fast reading half-gathered is dropped: yajl reads the file from its first byte. */
		rli_stack_reader_free(reader);
		rli_stack_index_dispose(index);
		rli_stack_index_init(index);
		if (reserve_ops(index, size) < 0 || !(reader = rli_stack_reader_new(index)))
			return rli_error_oom();
		result = rli_bytes_seek(source, 0) < 0 ? RLI_READ_FAILED : rli_json_read(&reader->t.json, source, &failure);
		if (result == RLI_READ_FAILED && !failure && !reader->t.json.message)
			failure = rli_strdup(rli_bytes_failure(source) ? rli_bytes_failure(source) : path);
	}
	rli_stack_reader_outcome(reader, &outcome);
	if (result == RLI_READ_OOM || outcome.oom) {
		error = rli_error_oom();
	} else if (result == RLI_READ_EMPTY) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
	} else if (result == RLI_READ_FAILED) {
		/* A parse error in the reference's words; a read error (no parse message) as it is. */
		if (reader->t.json.message)
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Failed to parse trace_view.json %s: %s", path,
				      reader->t.json.message);
		else
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", failure);
	} else {
		error = rli_stack_index_finish(index, unit, path, &outcome);
	}
	free(failure);
	rli_stack_reader_free(reader);
	return error;
}

int rli_stack_index_read(rli_stack_index *index, rli_unit *unit, rli_bytes *source, size_t size)
{
	return rli_stack_index_read_as(index, unit, source, size, RLI_JSON_READ_AUTO);
}

const rli_stack_op *rli_stack_index_match(const rli_stack_index *index, uint32_t group, double us, size_t *hint)
{
	const rli_stack_op *ops;
	size_t n, lo, hi, step = 1, from;
	if (group == RLI_STRPOOL_NONE || !index->group_begin || group >= index->names.count)
		return NULL;
	ops = index->ops + index->group_begin[group];
	n = index->group_begin[group + 1] - index->group_begin[group];
	from = *hint < n ? *hint : n;
	/*
	 * The answer is the first op that starts after us (the match is the one before it). Rows come
	 * in time order, so it is at or just after the last answer: gallop from there, then bisect.
	 */
	if (from < n && !(us < ops[from].ts)) {
		lo = from + 1;
		while (lo + step - 1 < n && !(us < ops[lo + step - 1].ts)) {
			lo += step;
			step *= 2;
		}
		hi = lo + step - 1 < n ? lo + step - 1 : n;
	} else {
		hi = from;
		while (hi >= step && us < ops[hi - step].ts) {
			hi -= step;
			step *= 2;
		}
		lo = hi >= step ? hi - step + 1 : 0;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (us < ops[mid].ts)
			hi = mid;
		else
			lo = mid + 1;
	}
	*hint = lo;
	return lo ? &ops[lo - 1] : NULL;
}

/* nvtx.c: Nsight Systems jsonl exports: one bar per NVTX push/pop range, read line by line. */
#include "parse_internal.h"
#include "format.h"
#include "json_stream.h"
#include "walk.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- discovery (timeline.md §5.2, §7) ----------------------------------- */

typedef struct {
	rli_discovery *discovery;
	rli_strpool groups;
	int worker_files; /* files the checker's worker_process_*.*.jsonl glob would match */
} nvtx_walk;

static int visit(void *ctx, const rli_walk_entry *entry)
{
	nvtx_walk *walk = ctx;
	const char *name = entry->name;
	const char *first_dot, *second_dot, *underscore;
	size_t length = strlen(name);
	rli_unit *unit;
	uint32_t group;

	if (!entry->is_file || length < 6 || strcmp(name + length - 6, ".jsonl") != 0)
		return 0;
	first_dot = strchr(name, '.');
	second_dot = strchr(first_dot + 1, '.');
	/* Exactly three parts: "<worker>.<id>.jsonl". */
	if (second_dot != name + length - 6 || strchr(second_dot + 1, '.'))
		return 0;
	if (fnmatch("worker_process_*.*.jsonl", name, 0) == 0)
		walk->worker_files++;
	unit = rli_discovery_add(walk->discovery);
	if (!unit)
		return rli_error_oom();
	unit->path = rli_strdup(entry->path);
	/* The PID is what follows the last '_' of the first part ("worker_process_70000" -> "70000"). */
	underscore = first_dot;
	while (underscore > name && underscore[-1] != '_')
		underscore--;
	unit->tid = rli_strfmt("%.*s", (int)(first_dot - underscore), underscore);
	if (!unit->path || !unit->tid)
		return rli_error_oom();
	/* The middle part groups units, as the reference's provisional role does. */
	group = rli_strpool_intern(&walk->groups, first_dot + 1, (size_t)(second_dot - first_dot - 1));
	if (group == RLI_STRPOOL_NONE)
		return rli_error_oom();
	unit->group = group;
	return 0;
}

static int nvtx_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	nvtx_walk walk;
	int error;

	(void)options;
	memset(&walk, 0, sizeof(walk));
	walk.discovery = discovery;
	rli_strpool_init(&walk.groups);
	error = rli_walk(root, visit, &walk);
	if (error < 0)
		goto done;
	if (walk.worker_files == 0)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
			      "No worker_process_*.*.jsonl file found in: %s", root);
	error = rli_discovery_group(discovery);
	if (discovery->structural.oom)
		error = rli_error_oom();
done:
	rli_strpool_dispose(&walk.groups);
	return error;
}

/* The most rows the NVTX units could give, by their files' sizes (capped): room to reserve ahead. */
static size_t nvtx_rows_hint(const rli_discovery *discovery)
{
	const off_t shortest_range_line = 40; /* {"end":1,"eventType":60,"start":1,"textId":1} */
	const size_t most = (size_t)1 << 24;    /* rows, whatever the files */
	size_t rows = 0;
	for (size_t u = 0; u < discovery->count && rows < most; u++) {
		struct stat st;
		if (stat(discovery->units[u].path, &st) == 0 && S_ISREG(st.st_mode))
			rows += (size_t)(st.st_size / shortest_range_line);
	}
	return rows < most ? rows : most;
}

/* ---- numbers with Python's arithmetic (timeline.md §5.3) ------------------- */

/* A JSON number as Python holds it: an int when written as one, else a float. */
typedef struct {
	union {
		int64_t i;
		double d;
	};
	int is_int;
} py_number;

static int py_number_from_text(py_number *out, const char *text, size_t length)
{
	if (rli_text_to_int64(&out->i, text, length) == 0) {
		out->is_int = 1;
		return 0;
	}
	out->is_int = 0;
	return rli_text_to_double(&out->d, text, length);
}

static double py_as_double(const py_number *x)
{
	return x->is_int ? (double)x->i : x->d;
}

/* a + b (or a - b): exact when both are ints, like Python's unbounded ints. */
static py_number py_add(const py_number *a, const py_number *b, int subtract)
{
	py_number r;
	memset(&r, 0, sizeof(r));
	if (a->is_int && b->is_int) {
		int64_t v;
		int overflow = subtract ? __builtin_sub_overflow(a->i, b->i, &v)
					: __builtin_add_overflow(a->i, b->i, &v);
		if (!overflow) {
			r.is_int = 1;
			r.i = v;
			return r;
		}
		/* Beyond int64 no profiler goes; long double keeps it close. */
		r.d = (double)(subtract ? (long double)a->i - (long double)b->i
					: (long double)a->i + (long double)b->i);
		return r;
	}
	r.d = subtract ? py_as_double(a) - py_as_double(b) : py_as_double(a) + py_as_double(b);
	return r;
}

/* x / 1000 as Python divides: an int is divided exactly and rounded once. */
static double py_div1000(const py_number *x)
{
	const int64_t exact = (int64_t)1 << 53;
	if (!x->is_int)
		return x->d / 1000;
	if (x->i > -exact && x->i < exact)
		return (double)x->i / 1000; /* both operands exact, so one IEEE rounding */
	return (double)((long double)x->i / 1000.0L);
}

/* ---- parsing one .jsonl --------------------------------------------------- */

enum { F_OTHER = 0, F_TABLE, F_ID, F_VALUE, F_NAME, F_START_TIME, F_EVENT_TYPE, F_START, F_END, F_TEXT_ID, F_COUNT };
enum { V_ABSENT = 0, V_STRING, V_NUMBER, V_NULL, V_OTHER };
/* The tables a line may belong to that matter here. */
enum { T_OTHER = 0, T_STRING_IDS, T_META_DATA, T_ANALYSIS };

/* Longest text kept for table names, ids and numbers; longer ones match nothing. */
#define NVTX_SHORT_MAX 128

typedef struct {
	size_t length;
	char text[NVTX_SHORT_MAX];
} short_value;

/* A string that may be long (StringIds values, metadata names and values). */
typedef struct {
	int kind;
	char *text;
	size_t length, capacity;
} long_value;

/*
 * Ranges are kept until the file ends (rank, labels and the global start may come last), and
 * there can be millions: each waits in the very row of the table it will become, so that no
 * other copy of it is ever made. Until the file ends such a row holds, instead of its final
 * values (settle_rows):
 *   name         the textId's key in string_ids (RLI_STRPOOL_NONE if textId is no string or number)
 *   start_ms     the start as read: the bits of a range_value (an int64 or a double)
 *   duration_ms  the end as read, likewise
 *   tid_is_text  the kinds of both and which member holds each (RANGE_* below)
 * A start or end that is no number keeps, instead of its value, the line it was on, for the
 * message that names it.
 */
typedef union {
	int64_t i;
	double d;
} range_value;

#define RANGE_KIND_MASK 0x7u /* V_* */
#define RANGE_IS_INT 0x8u
#define RANGE_END_SHIFT 4 /* the start's bits are the low four, the end's the high four */

/*
 * A line's start or end. Plain digits (kernels and other tables have a start and an end too) are
 * only kept, right-aligned behind zeros, and read once the line is known to be a range; any
 * other number is read in its callback.
 */
typedef struct {
	range_value value;     /* when read: which member as is_int */
	uint8_t is_int;
	uint8_t digits_length; /* 1 to 16: not read yet, the last digits_length bytes of digits */
	char digits[16];
} time_field;

/* textIds seen lately, by their value's low bits: a capture's ranges cycle through a few labels. */
#define TEXT_ID_CACHE 64

typedef struct nvtx_ctx nvtx_ctx;
typedef int (*value_handler)(nvtx_ctx *n, const char *text, size_t length);
typedef struct field_desc field_desc;

/* A key of the line's object: its field, and what a number or a string after it does. */
struct field_desc {
	int field; /* F_* */
	value_handler on_number, on_string;
};

struct nvtx_ctx {
	rli_json json;
	rli_unit *unit;
	uint64_t line;
	const field_desc *key; /* the key whose value comes next, or where the parser is (top_level, nothing) */
	/*
	 * The line's fields as they come, each read or copied in its callback, so that the end of a
	 * line has nothing left to parse: kind[] holds each field's V_* (V_ABSENT until seen).
	 */
	uint8_t kind[F_COUNT];
	short_value id, start_time, text_id; /* as written: keys of string_ids, the global start */
	int text_id_plain;                   /* textId is plain decimal digits: text_id_number, no text */
	uint32_t text_id_number;
	int table; /* T_* */
	int event_type_is_60;
	time_field start, end;
	long_value value, name;
	/* across lines */
	int any_start_time, any_range;
	int64_t rank;
	int have_global_start;
	short_value global_start;
	uint8_t global_start_kind;
	uint64_t global_start_line;
	rli_strpool string_ids;
	char **string_values; /* id -> value, later wins */
	size_t string_capacity;
	struct {
		uint32_t number_plus_1; /* 0: empty */
		uint32_t id;            /* in string_ids */
	} text_id_cache[TEXT_ID_CACHE];
	rli_events *rows;  /* the table the ranges wait in, from row first_row on */
	size_t first_row, range_count;
	int oom;
	/* One parser for the whole file (see read_shared): anything but one object per line leaves it. */
	int shared;
	const unsigned char *chunk; /* what the shared parser is being fed, starting at file offset chunk_at */
	off_t chunk_at;
	size_t chunk_length;
	size_t next_newline;        /* the first newline not yet counted in line (chunk_length: none) */
	off_t line_at;              /* file offset where line `line` starts */
	int pending;                /* an object ended on this line; it counts once the line ends */
	int stopped;                /* line_done failed inside a callback */
};

/* Kept as text (kind says what it was); too long to be an id or a timestamp, it is V_OTHER. */
static int short_set(short_value *v, int kind, const char *text, size_t length)
{
	v->length = 0;
	if (!text)
		return kind;
	if (length > NVTX_SHORT_MAX)
		return V_OTHER;
	memcpy(v->text, text, length);
	v->length = length;
	return kind;
}

static int long_set(nvtx_ctx *n, long_value *v, int kind, const char *text, size_t length)
{
	v->kind = kind;
	v->length = 0;
	if (!text)
		return 1;
	if (length + 1 > v->capacity) {
		char *p = realloc(v->text, length + 1);
		if (!p) {
			n->oom = 1;
			return rli_json_halt(&n->json);
		}
		v->text = p;
		v->capacity = length + 1;
	}
	memcpy(v->text, text, length);
	v->text[length] = '\0';
	v->length = length;
	return 1;
}

static void handle_top_level(nvtx_ctx *n);

static void line_reset(nvtx_ctx *n)
{
	handle_top_level(n);
	memset(n->kind, V_ABSENT, sizeof(n->kind));
	n->table = T_OTHER;
	n->value.kind = n->name.kind = V_ABSENT;
}

/* A table name: only three matter, the rest are T_OTHER. */
static int table_of(int kind, const char *text, size_t length)
{
#define TABLE_IS(literal) (length == sizeof(literal) - 1 && memcmp(text, literal, sizeof(literal) - 1) == 0)
	if (kind != V_STRING)
		return T_OTHER;
	return TABLE_IS("StringIds") ? T_STRING_IDS
	       : TABLE_IS("META_DATA_CAPTURE") ? T_META_DATA
	       : TABLE_IS("ANALYSIS_DETAILS") ? T_ANALYSIS
					       : T_OTHER;
#undef TABLE_IS
}

/* A range's start or end read as Python holds a number: V_NUMBER, or V_OTHER if no int64 or double holds it. */
static int read_time(range_value *value, uint8_t *is_int, const char *text, size_t length)
{
	py_number x;
	if (length > NVTX_SHORT_MAX || py_number_from_text(&x, text, length) < 0)
		return V_OTHER; /* as when kept as text, too long is no number */
	*is_int = (uint8_t)x.is_int;
	if (x.is_int)
		value->i = x.i;
	else
		value->d = x.d;
	return V_NUMBER;
}

/* textId written as 1 to 9 digits without a leading zero: its key in string_ids follows from its value. */
static int plain_text_id(uint32_t *out, const char *text, size_t length)
{
	uint32_t v = 0;
	if (length == 0 || length > 9 || (text[0] == '0' && length > 1))
		return 0;
	for (size_t i = 0; i < length; i++) {
		unsigned digit = (unsigned)(unsigned char)text[i] - (unsigned)'0';
		if (digit > 9)
			return 0;
		v = v * 10 + digit;
	}
	*out = v;
	return 1;
}

/* A field's value at the line's top level, read or copied now; kind is V_*. */
static __attribute__((noinline)) int set_field(nvtx_ctx *n, int kind, const char *text, size_t length)
{
	switch (n->key->field) {
	case F_TABLE:
		n->table = table_of(kind, text, length);
		break;
	case F_VALUE:
		return long_set(n, &n->value, kind, text, length);
	case F_NAME:
		return long_set(n, &n->name, kind, text, length);
	case F_EVENT_TYPE:
		if (text && length > NVTX_SHORT_MAX)
			kind = V_OTHER; /* as a kept text has it */
		if (kind == V_NUMBER) {
			double event_type;
			n->event_type_is_60 = (length == 2 && text[0] == '6' && text[1] == '0') ||
					      (rli_text_to_double(&event_type, text, length) == 0 && event_type == 60);
		}
		break;
	case F_START:
		n->start.digits_length = 0;
		if (kind == V_NUMBER)
			kind = read_time(&n->start.value, &n->start.is_int, text, length);
		break;
	case F_END:
		n->end.digits_length = 0;
		if (kind == V_NUMBER)
			kind = read_time(&n->end.value, &n->end.is_int, text, length);
		break;
	case F_TEXT_ID:
		/* A plain one is read in nvtx_number without its text: its key follows from its value. */
		kind = short_set(&n->text_id, kind, text, length);
		n->text_id_plain = 0;
		break;
	case F_ID:
		kind = short_set(&n->id, kind, text, length);
		break;
	case F_START_TIME:
		kind = short_set(&n->start_time, kind, text, length);
		break;
	default:
		return 1;
	}
	n->kind[n->key->field] = (uint8_t)kind;
	return 1;
}

/* Out of line: the callbacks below return early for the keys nobody reads, which is most of them. */
static __attribute__((noinline)) int nvtx_value(nvtx_ctx *n, const char *text, size_t length, int kind)
{
	if (n->json.depth == 0)
		return n->shared ? 0 : rli_json_stop(&n->json, "expected a JSON object");
	if (n->json.depth != 1 || n->key->field == F_OTHER)
		return 1; /* nothing reads another key's value */
	return set_field(n, kind, text, length);
}

static int nvtx_null(void *ctx) { return nvtx_value(ctx, NULL, 0, V_NULL); }
static int nvtx_bool(void *ctx, int value) { (void)value; return nvtx_value(ctx, NULL, 0, V_OTHER); }

/*
 * Numbers and strings go straight to the handler their key chose (on_number, on_string): a line
 * has some twenty of them, and most belong to keys nobody reads. The handlers mirror nvtx_value:
 * a value at the top level is no object, one inside a nested value is nobody's, and at the
 * line's top level the key decides. The common cases of the fields every range line has are
 * read in place (an integer start or end, eventType 60, a plain textId, the table); anything
 * else goes through set_field.
 */
static int ignore_value(nvtx_ctx *n, const char *text, size_t length)
{
	(void)n;
	(void)text;
	(void)length;
	return 1;
}
static int top_number(nvtx_ctx *n, const char *text, size_t length) { return nvtx_value(n, text, length, V_NUMBER); }
static int top_string(nvtx_ctx *n, const char *text, size_t length) { return nvtx_value(n, text, length, V_STRING); }
static int any_number(nvtx_ctx *n, const char *text, size_t length) { return set_field(n, V_NUMBER, text, length); }
static int any_string(nvtx_ctx *n, const char *text, size_t length) { return set_field(n, V_STRING, text, length); }

/* Up to 16 characters, kept right-aligned behind zeros: a few fixed-size copies, never past text[length - 1]. */
static void keep_digits(time_field *t, const char *text, size_t length)
{
	char *to = t->digits + sizeof(t->digits) - length;
	memcpy(t->digits, "0000000000000000", sizeof(t->digits));
	if (length >= 8) {
		memcpy(to, text, 8);
		memcpy(t->digits + 8, text + length - 8, 8);
	} else if (length >= 4) {
		memcpy(to, text, 4);
		memcpy(t->digits + 12, text + length - 4, 4);
	} else {
		for (size_t i = 0; i < length; i++)
			to[i] = text[i];
	}
	t->digits_length = (uint8_t)length;
}

/* A kept start or end read now: V_NUMBER, or V_OTHER as read_time has it. */
static int read_digits(time_field *t)
{
	const size_t length = t->digits_length;
	t->digits_length = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		/* The zeros in front make any length two blocks of eight digits, or one. */
		int64_t high = length > 8 ? rli_eight_digits(t->digits) : 0, low = rli_eight_digits(t->digits + 8);
		if (high >= 0 && low >= 0) {
			t->value.i = high * 100000000 + low;
			t->is_int = 1;
			return V_NUMBER;
		}
	}
#endif
	/* A fraction or an exponent: the text as written. */
	return read_time(&t->value, &t->is_int, t->digits + sizeof(t->digits) - length, length);
}

static int time_number(nvtx_ctx *n, time_field *t, int field, const char *text, size_t length)
{
	if (length == 0 || length > sizeof(t->digits) || text[0] == '-')
		return set_field(n, V_NUMBER, text, length);
	keep_digits(t, text, length);
	n->kind[field] = V_NUMBER;
	return 1;
}

static int start_number(nvtx_ctx *n, const char *text, size_t length)
{
	return time_number(n, &n->start, F_START, text, length);
}

static int end_number(nvtx_ctx *n, const char *text, size_t length)
{
	return time_number(n, &n->end, F_END, text, length);
}

static int event_type_number(nvtx_ctx *n, const char *text, size_t length)
{
	/* One or two digits say their value: only 60 is a push/pop range. */
	if (length == 0 || length > 2 || (unsigned)(text[0] - '0') > 9 ||
	    (length == 2 && (unsigned)(text[1] - '0') > 9))
		return set_field(n, V_NUMBER, text, length);
	n->event_type_is_60 = length == 2 && text[0] == '6' && text[1] == '0';
	n->kind[F_EVENT_TYPE] = V_NUMBER;
	return 1;
}

static int text_id_number(nvtx_ctx *n, const char *text, size_t length)
{
	if (!plain_text_id(&n->text_id_number, text, length))
		return set_field(n, V_NUMBER, text, length);
	n->text_id_plain = 1;
	n->kind[F_TEXT_ID] = V_NUMBER;
	return 1;
}

static int table_string(nvtx_ctx *n, const char *text, size_t length)
{
	n->table = table_of(V_STRING, text, length);
	n->kind[F_TABLE] = V_STRING;
	return 1;
}

static const field_desc fields[F_COUNT] = {
	[F_OTHER] = {F_OTHER, ignore_value, ignore_value},
	[F_TABLE] = {F_TABLE, any_number, table_string},
	[F_ID] = {F_ID, any_number, any_string},
	[F_VALUE] = {F_VALUE, any_number, any_string},
	[F_NAME] = {F_NAME, any_number, any_string},
	[F_START_TIME] = {F_START_TIME, any_number, any_string},
	[F_EVENT_TYPE] = {F_EVENT_TYPE, event_type_number, any_string},
	[F_START] = {F_START, start_number, any_string},
	[F_END] = {F_END, end_number, any_string},
	[F_TEXT_ID] = {F_TEXT_ID, text_id_number, any_string},
};

/* Where the parser is when no key of the line's object applies: the top level, or inside a value. */
static const field_desc top_level = {F_OTHER, top_number, top_string};
static const field_desc nothing = {F_OTHER, ignore_value, ignore_value};

static void handle_top_level(nvtx_ctx *n)
{
	n->key = &top_level;
}

static int nvtx_number(void *ctx, const char *text, size_t length)
{
	nvtx_ctx *n = ctx;
	return n->key->on_number(n, text, length);
}

static int nvtx_string(void *ctx, const unsigned char *text, size_t length)
{
	nvtx_ctx *n = ctx;
	return n->key->on_string(n, (const char *)text, length);
}

/*
 * A line's keys by length, then first letter: this runs for every key of every line, and most
 * keys (color, domainId, rangeId, globalTid...) are told apart by a jump and a compare or two.
 */
static int field_of(const unsigned char *key, size_t length)
{
#define KEY_IS(literal) (memcmp(key, literal, sizeof(literal) - 1) == 0)
	switch (length) {
	case 2:
		return KEY_IS("id") ? F_ID : F_OTHER;
	case 3:
		return KEY_IS("end") ? F_END : F_OTHER;
	case 4:
		return KEY_IS("name") ? F_NAME : F_OTHER;
	case 5:
		return key[0] == 's' ? (KEY_IS("start") ? F_START : F_OTHER)
		       : key[0] == 't' ? (KEY_IS("table") ? F_TABLE : F_OTHER)
		       : key[0] == 'v' ? (KEY_IS("value") ? F_VALUE : F_OTHER)
				       : F_OTHER;
	case 6:
		return KEY_IS("textId") ? F_TEXT_ID : F_OTHER;
	case 9:
		return key[0] == 'e' ? (KEY_IS("eventType") ? F_EVENT_TYPE : F_OTHER)
		       : key[0] == 's' ? (KEY_IS("startTime") ? F_START_TIME : F_OTHER)
				       : F_OTHER;
	default:
		return F_OTHER;
	}
#undef KEY_IS
}

static int nvtx_key(void *ctx, const unsigned char *key, size_t length)
{
	nvtx_ctx *n = ctx;
	if (n->json.depth == 1)
		n->key = &fields[field_of(key, length)];
	return 1;
}

static int line_done(nvtx_ctx *n);

/*
 * The shared parser's line keeping: counts the newlines of the chunk up to `to`. The first one
 * after an object ends its line, which then counts (line_done), so an object is taken only once
 * its line is known to hold nothing else. -1 when line_done failed.
 */
static void find_next_newline(nvtx_ctx *n, size_t from)
{
	const unsigned char *p =
		from < n->chunk_length ? memchr(n->chunk + from, '\n', n->chunk_length - from) : NULL;
	n->next_newline = p ? (size_t)(p - n->chunk) : n->chunk_length;
}

static int shared_advance(nvtx_ctx *n, size_t to)
{
	while (n->next_newline < to) {
		if (n->pending) {
			n->pending = 0;
			if (line_done(n) < 0) {
				n->stopped = 1;
				return -1;
			}
		}
		n->line++;
		n->line_at = n->chunk_at + (off_t)n->next_newline + 1;
		find_next_newline(n, n->next_newline + 1);
	}
	return 0;
}

static int nvtx_open(nvtx_ctx *n, int is_map)
{
	if (n->json.depth == 0) {
		/*
		 * The shared parser gives way on a second value on a line or a non-object; the line is
		 * then read alone. yajl has just consumed the '{', so the bytes before it are known.
		 */
		if (n->shared && (shared_advance(n, yajl_get_bytes_consumed(n->json.handle)) < 0 ||
				  n->pending || !is_map))
			return 0;
		if (n->shared)
			line_reset(n);
		if (!is_map)
			return rli_json_stop(&n->json, "expected a JSON object");
	} else if (n->json.depth == 1 && n->key->field != F_OTHER && !set_field(n, V_OTHER, NULL, 0)) {
		return 0;
	}
	/* Inside: nothing is read until a key of the line's object says so. */
	n->key = &nothing;
	return rli_json_enter(&n->json);
}

static int nvtx_start_map(void *ctx) { return nvtx_open(ctx, 1); }
static int nvtx_start_array(void *ctx) { return nvtx_open(ctx, 0); }
static int nvtx_close(void *ctx)
{
	nvtx_ctx *n = ctx;
	rli_json_leave(&n->json);
	if (n->json.depth == 0)
		handle_top_level(n);
	if (n->shared && n->json.depth == 0) {
		/* yajl has just consumed the '}': an object that went on past its line is not ours. */
		if (n->next_newline < yajl_get_bytes_consumed(n->json.handle))
			return 0;
		n->pending = 1;
	}
	return 1;
}

static const yajl_callbacks nvtx_callbacks = {
	nvtx_null, nvtx_bool, NULL, NULL, nvtx_number, nvtx_string,
	nvtx_start_map, nvtx_key, nvtx_close, nvtx_start_array, nvtx_close};

static int contains(const char *hay, size_t length, const char *needle)
{
	size_t m = strlen(needle);
	for (size_t i = 0; i + m <= length; i++)
		if (memcmp(hay + i, needle, m) == 0)
			return 1;
	return 0;
}

/* re.match(r'^RANK="?(\d+)"?$', value.strip(), re.IGNORECASE) */
static int rank_from_env(int64_t *rank, const char *text, size_t length)
{
	size_t i = 0, digits;
	while (length && isspace((unsigned char)text[length - 1]))
		length--;
	while (i < length && isspace((unsigned char)text[i]))
		i++;
	if (length - i < 6 || (text[i] != 'R' && text[i] != 'r') || (text[i + 1] != 'A' && text[i + 1] != 'a') ||
	    (text[i + 2] != 'N' && text[i + 2] != 'n') || (text[i + 3] != 'K' && text[i + 3] != 'k') ||
	    text[i + 4] != '=')
		return -1;
	i += 5;
	if (i < length && text[i] == '"')
		i++;
	digits = i;
	while (i < length && isdigit((unsigned char)text[i]))
		i++;
	if (i == digits)
		return -1;
	if (rli_text_to_int64(rank, text + digits, i - digits) < 0)
		return -1;
	if (i < length && text[i] == '"')
		i++;
	return i == length ? 0 : -1;
}

/* The key string_ids knows a value by: its kind, then its text. */
static int key_of(char *key, int kind, const short_value *v)
{
	key[0] = kind == V_STRING ? 's' : kind == V_NUMBER ? 'n' : 'o';
	memcpy(key + 1, v->text, v->length);
	return (int)v->length + 1;
}

static int remember_string(nvtx_ctx *n)
{
	char key[NVTX_SHORT_MAX + 1];
	int key_length = key_of(key, n->kind[F_ID], &n->id);
	uint32_t id = rli_strpool_intern(&n->string_ids, key, (size_t)key_length);
	char *value;
	if (id == RLI_STRPOOL_NONE)
		return -1;
	if (id >= n->string_capacity) {
		size_t grown = n->string_capacity ? n->string_capacity * 2 : 64;
		char **p;
		while (grown <= id)
			grown *= 2;
		p = realloc(n->string_values, grown * sizeof(*p));
		if (!p)
			return -1;
		memset(p + n->string_capacity, 0, (grown - n->string_capacity) * sizeof(*p));
		n->string_values = p;
		n->string_capacity = grown;
	}
	/* A label is the string itself; a number shows as its digits; anything else as nothing. */
	if (n->value.kind == V_STRING || n->value.kind == V_NUMBER)
		value = rli_strfmt("%.*s", (int)n->value.length, n->value.text);
	else
		value = rli_strdup("");
	if (!value)
		return -1;
	free(n->string_values[id]);
	n->string_values[id] = value;
	return 0;
}

/* A number kept as Python would hold it; V_OTHER for a numeral no int64 or double can hold. */
static uint8_t number_value(py_number *out, int kind, const short_value *v)
{
	if (kind != V_NUMBER)
		return (uint8_t)kind;
	return py_number_from_text(out, v->text, v->length) == 0 ? V_NUMBER : V_OTHER;
}

/* A range's start or end as its row keeps it (see range_value); returns its RANGE_* flags. */
static unsigned keep_value(double *slot, int kind, range_value value, uint8_t is_int, uint64_t line)
{
	if (kind != V_NUMBER)
		value.i = (int64_t)line;
	memcpy(slot, &value, sizeof(value));
	return (unsigned)kind | (kind == V_NUMBER && is_int ? RANGE_IS_INT : 0u);
}

/* What keep_value kept: the flags, and the number (or line) from the slot. */
static py_number kept_value(const double *slot, unsigned flags)
{
	py_number x;
	range_value value;
	memcpy(&value, slot, sizeof(value));
	memset(&x, 0, sizeof(x));
	x.is_int = (flags & RANGE_IS_INT) != 0;
	if (x.is_int || (flags & RANGE_KIND_MASK) != V_NUMBER)
		x.i = value.i;
	else
		x.d = value.d;
	return x;
}

/* The line's textId as a key of string_ids; RLI_STRPOOL_NONE if it is no string or number, or memory ran out. */
static uint32_t text_id_key(nvtx_ctx *n)
{
	char key[NVTX_SHORT_MAX + 1];
	int kind = n->kind[F_TEXT_ID], key_length;
	uint32_t id;
	if (kind != V_STRING && kind != V_NUMBER)
		return RLI_STRPOOL_NONE;
	if (n->text_id_plain) {
		/* Plain digits say the same key whatever the line: no hashing for the labels seen lately. */
		uint32_t slot = n->text_id_number % TEXT_ID_CACHE;
		if (n->text_id_cache[slot].number_plus_1 == n->text_id_number + 1)
			return n->text_id_cache[slot].id;
		key_length = snprintf(key, sizeof(key), "n%" PRIu32, n->text_id_number);
		id = rli_strpool_intern(&n->string_ids, key, (size_t)key_length);
		if (id != RLI_STRPOOL_NONE) {
			n->text_id_cache[slot].number_plus_1 = n->text_id_number + 1;
			n->text_id_cache[slot].id = id;
		}
		return id;
	}
	key_length = key_of(key, kind, &n->text_id);
	return rli_strpool_intern(&n->string_ids, key, (size_t)key_length);
}

/* A range line: its row, waiting for the end of the file. 0, or -1 when memory ran out. */
static int keep_range(nvtx_ctx *n)
{
	rli_events *rows = n->rows;
	uint32_t text_id = text_id_key(n);
	unsigned start_flags, end_flags;
	int start_kind, end_kind;
	size_t i;
	if (text_id == RLI_STRPOOL_NONE && (n->kind[F_TEXT_ID] == V_STRING || n->kind[F_TEXT_ID] == V_NUMBER))
		return -1;
	if (rows->count == rows->capacity && rli_events_reserve(rows, 1) < 0)
		return -1;
	i = rows->count++;
	n->range_count++;
	rows->name[i] = text_id;
	start_kind = n->kind[F_START] == V_NUMBER && n->start.digits_length ? read_digits(&n->start) : n->kind[F_START];
	end_kind = n->kind[F_END] == V_NUMBER && n->end.digits_length ? read_digits(&n->end) : n->kind[F_END];
	start_flags = keep_value(&rows->start_ms[i], start_kind, n->start.value, n->start.is_int, n->line);
	end_flags = keep_value(&rows->duration_ms[i], end_kind, n->end.value, n->end.is_int, n->line);
	rows->tid_is_text[i] = (uint8_t)(start_flags | end_flags << RANGE_END_SHIFT);
	return 0;
}

/* Everything one line contributes; 0, or -1 when the unit failed or memory ran out. */
static int line_done(nvtx_ctx *n)
{
	const uint8_t *kind = n->kind;
	rli_unit *unit = n->unit;
	if (kind[F_START_TIME] != V_ABSENT)
		n->any_start_time = 1;
	if (kind[F_EVENT_TYPE] == V_NUMBER && n->event_type_is_60) {
		n->any_range = 1;
		if (kind[F_START] == V_ABSENT || kind[F_END] == V_ABSENT || kind[F_TEXT_ID] == V_ABSENT) {
			static const int required[] = {F_START, F_END, F_TEXT_ID};
			static const char *const names[] = {"start", "end", "textId"};
			char list[48];
			uint64_t present = 0;
			for (size_t i = 0; i < 3; i++)
				present |= (uint64_t)(kind[required[i]] != V_ABSENT) << i;
			rli_missing_keys(list, sizeof(list), names, 3, present);
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File field is missing: [%s] in FilePath: %s",
				      list, unit->path);
			return -1;
		}
		if (keep_range(n) < 0)
			goto oom;
	}
	switch (n->table) {
	case T_STRING_IDS:
		if (kind[F_ID] != V_ABSENT && n->value.kind != V_ABSENT && remember_string(n) < 0)
			goto oom;
		break;
	case T_META_DATA:
		if (n->name.kind == V_STRING && contains(n->name.text, n->name.length, "ENVIRONMENT_VARIABLE") &&
		    n->value.kind == V_STRING) {
			int64_t rank;
			if (rank_from_env(&rank, n->value.text, n->value.length) == 0)
				n->rank = rank;
		}
		break;
	case T_ANALYSIS:
		n->have_global_start = kind[F_START_TIME] != V_ABSENT && kind[F_START_TIME] != V_NULL;
		n->global_start = n->start_time;
		n->global_start_kind = kind[F_START_TIME];
		n->global_start_line = n->line;
		break;
	default:
		break;
	}
	return 0;
oom:
	n->oom = 1;
	return -1;
}

typedef enum { LINE_IDLE, LINE_ACTIVE } line_state;

/* The source could not give its bytes: its message names the file and the cause. */
static void read_failure(nvtx_ctx *n, const rli_bytes *source)
{
	if (rli_bytes_failure(source))
		rli_notes_add(&n->unit->failures, RLI_LOG_ERROR, "%s", rli_bytes_failure(source));
	else
		n->oom = 1;
}

/*
 * One parser per non-blank line, from byte `from` (where line n->line starts) to the end of the
 * file: the reference reading, which places every error. 0, or -1 (failure recorded or oom).
 */
static int read_lines_alone(nvtx_ctx *n, rli_bytes *source, off_t from)
{
	rli_unit *unit = n->unit;
	line_state state = LINE_IDLE;
	uint64_t column = 0;
	int result = -1;

	if (rli_bytes_seek(source, (uint64_t)from) < 0) {
		read_failure(n, source);
		goto stopped;
	}
	for (;;) {
		const unsigned char *buffer = NULL;
		size_t got = 0, at = 0;
		int more = rli_bytes_next(source, &buffer, &got);
		if (more < 0) {
			read_failure(n, source);
			goto stopped;
		}
		while (at < got || got == 0) {
			const unsigned char *nl = got ? memchr(buffer + at, '\n', got - at) : NULL;
			size_t end = nl ? (size_t)(nl - buffer) : got;
			int line_ends = nl != NULL || got == 0;
			if (state == LINE_IDLE) {
				while (at < end && isspace(buffer[at])) {
					at++;
					column++;
				}
				if (at < end) {
					if (rli_json_open(&n->json, &nvtx_callbacks, n, n->line) < 0)
						goto oom;
					n->json.column = column;
					line_reset(n);
					state = LINE_ACTIVE;
				}
			}
			if (state == LINE_ACTIVE && at < end && rli_json_feed(&n->json, buffer + at, end - at) < 0)
				goto parse_failed;
			column += end - at;
			at = end;
			if (!line_ends)
				break;
			if (state == LINE_ACTIVE) {
				if (rli_json_finish(&n->json) < 0)
					goto parse_failed;
				rli_json_close(&n->json);
				state = LINE_IDLE;
				if (line_done(n) < 0)
					goto stopped;
			}
			if (got == 0)
				break;
			at++; /* past the newline */
			n->line++;
			column = 0;
		}
		if (got == 0)
			break;
	}
	result = 0;
	goto done;
parse_failed:
	if (n->oom || !n->json.message)
		goto oom;
	rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Failed to parse JSON file %s: %s", unit->path,
		      n->json.message);
	goto done;
stopped:
	if (n->oom)
		goto oom;
	goto done;
oom:
	unit->status = RLI_ERROR;
done:
	if (state == LINE_ACTIVE)
		rli_json_close(&n->json);
	return result;
}

/*
 * The fast reading: one parser for the whole file (yajl_allow_multiple_values, as a stream of
 * values), fed whole chunks. The callbacks keep the line count from yajl's position at each
 * object's '{' and '}', and an object counts (line_done) only when its line has ended with
 * nothing else on it, so the result is what a parser per line gives, minus the cost of a
 * parse call per line. A line holding anything but exactly one object (a parse error, a second
 * value, a non-object, an object that goes on past its line) stops it: *resume is then where
 * the first line not yet counted starts, and 1 is returned, for read_lines_alone to read from
 * there and say exactly what is wrong. 0 at the end of the file, -1 on failure.
 */
static int read_shared(nvtx_ctx *n, rli_bytes *source, off_t *resume)
{
	off_t chunk_at = 0;
	int result = 1;
	const unsigned char *buffer;
	size_t got;
	int more;

	if (rli_json_open(&n->json, &nvtx_callbacks, n, 1) < 0) {
		n->unit->status = RLI_ERROR;
		return -1;
	}
	yajl_config(n->json.handle, yajl_allow_multiple_values, 1);
	handle_top_level(n);
	n->shared = 1;
	n->line_at = 0;
	n->pending = 0;
	n->stopped = 0;
	while ((more = rli_bytes_next(source, &buffer, &got)) > 0) {
		n->chunk = buffer;
		n->chunk_at = chunk_at;
		n->chunk_length = got;
		find_next_newline(n, 0);
		if (yajl_parse(n->json.handle, buffer, got) != yajl_status_ok)
			goto stopped;
		if (n->json.depth > 0) {
			/* An object open across the chunk's end may not cross a newline either. */
			if (n->next_newline < got)
				goto stopped;
		} else if (shared_advance(n, got) < 0) {
			goto stopped;
		}
		chunk_at += (off_t)got;
	}
	if (more < 0) {
		read_failure(n, source);
		result = -1;
		goto done;
	}
	n->chunk = NULL;
	if (yajl_complete_parse(n->json.handle) != yajl_status_ok || n->json.depth != 0)
		goto stopped;
	/* The last line needs no newline. */
	if (n->pending) {
		n->pending = 0;
		if (line_done(n) < 0) {
			result = -1;
			goto done;
		}
	}
	result = 0;
	goto done;
stopped:
	if (n->stopped) {
		result = -1;
		goto done;
	}
	*resume = n->line_at;
	result = 1;
done:
	if (result < 0 && n->oom)
		n->unit->status = RLI_ERROR;
	rli_json_close(&n->json);
	n->shared = 0;
	return result;
}

/* Reads the source line by line. 0, or -1 (failure recorded or oom); *empty when it holds no byte. */
static int read_lines(nvtx_ctx *n, rli_bytes *source, int *empty)
{
	off_t resume = 0;
	int result;

	n->line = 1;
	result = read_shared(n, source, &resume);
	if (result == 1)
		result = read_lines_alone(n, source, resume);
	*empty = result == 0 && rli_bytes_offset(source) == 0;
	return result;
}

/* A range's start, end or the global start must be a number; -1 records the failure. */
static int require_number(nvtx_ctx *n, int kind, const char *what, uint64_t line)
{
	if (kind == V_NUMBER)
		return 0;
	rli_notes_add(&n->unit->failures, RLI_LOG_ERROR,
		      "Failed to parse JSON file %s: '%s' must be a number, got %s at line %llu", n->unit->path,
		      what, kind == V_STRING ? "a string" : kind == V_OTHER ? "a non-number" : "nothing",
		      (unsigned long long)line);
	return -1;
}

/*
 * Row i made final, any row: 1, or 0 when the unit's rows end before it (a warning or a failure
 * was recorded, or memory ran out). label_of, domain and tid are the strings settled so far.
 */
static int settle_row(nvtx_ctx *n, size_t i, const py_number *global_start, uint32_t *label_of, uint32_t *domain,
		      uint32_t *tid)
{
	rli_unit *unit = n->unit;
	rli_events *rows = n->rows;
	const uint32_t text_id = rows->name[i];
	const unsigned start_flags = rows->tid_is_text[i] & 0xfu;
	const unsigned end_flags = rows->tid_is_text[i] >> RANGE_END_SHIFT;
	const unsigned start_kind = start_flags & RANGE_KIND_MASK, end_kind = end_flags & RANGE_KIND_MASK;
	const char *label = text_id < n->string_capacity ? n->string_values[text_id] : NULL;
	py_number start, stop, sum, length;
	double start_ms, duration_ms;
	start = kept_value(&rows->start_ms[i], start_flags);
	stop = kept_value(&rows->duration_ms[i], end_flags);
	if (!label || !label[0]) {
		/* Stop at the first bad range and keep what came before, as the reference does. */
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: No valid role for Analysis; the unit's later ranges "
			      "are skipped", unit->path);
		return 0;
	}
	if (start_kind == V_NULL || end_kind == V_NULL) {
		/* A value that is no number keeps its line in its slot. */
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s:%llu: No valid timing for Analysis; the unit's later "
			      "ranges are skipped", unit->path,
			      (unsigned long long)(start_kind == V_NULL ? start.i : stop.i));
		return 0;
	}
	if (require_number(n, (int)start_kind, "start", (uint64_t)start.i) < 0 ||
	    require_number(n, (int)end_kind, "end", (uint64_t)stop.i) < 0)
		return 0;
	sum = py_add(&start, global_start, 0);
	length = py_add(&stop, &start, 1);
	start_ms = py_div1000(&sum) / 1000;
	duration_ms = py_div1000(&length) / 1000;
	if (!isfinite(start_ms) || !isfinite(duration_ms)) {
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: No valid timing for Analysis; the unit's later ranges "
			      "are skipped", unit->path);
		return 0;
	}
	/* Strings in the order rows used to bring them: the label, then for the first row domain and tid. */
	if (label_of[text_id] == RLI_STRPOOL_NONE) {
		label_of[text_id] = rli_strpool_intern(&rows->strings, label, strlen(label));
		if (*domain == RLI_STRPOOL_NONE && label_of[text_id] != RLI_STRPOOL_NONE)
			*domain = rli_strpool_intern(&rows->strings, "default", strlen("default"));
		if (*tid == RLI_STRPOOL_NONE && *domain != RLI_STRPOOL_NONE)
			*tid = rli_strpool_intern(&rows->strings, unit->tid, strlen(unit->tid));
		if (label_of[text_id] == RLI_STRPOOL_NONE || *domain == RLI_STRPOOL_NONE || *tid == RLI_STRPOOL_NONE) {
			unit->status = RLI_ERROR;
			return 0;
		}
	}
	rows->name[i] = rows->role[i] = label_of[text_id];
	rows->domain[i] = *domain;
	rows->tid[i] = *tid;
	rows->tid_is_text[i] = 1;
	rows->rank_id[i] = n->rank;
	rows->start_ms[i] = start_ms;
	rows->duration_ms[i] = duration_ms;
	return 1;
}

/*
 * Rows from..to-1 hold the start and the length in ns, as doubles: made ms as py_div1000 and the
 * division after it do for an integer below 2^53, (double)x / 1000 / 1000, exactly. Apart from
 * the rest, as a loop of divisions alone runs them side by side (a division takes some 13 cycles
 * to come out, four a row were most of the settling).
 */
static void divide_ns(rli_events *rows, size_t from, size_t to)
{
	double *start = rows->start_ms, *duration = rows->duration_ms;
	for (size_t i = from; i < to; i++)
		start[i] = start[i] / 1000 / 1000;
	for (size_t i = from; i < to; i++)
		duration[i] = duration[i] / 1000 / 1000;
}

/*
 * The ranges' rows made final, in place, now that the file has ended: times from the global start,
 * labels, tid and rank. A range that cannot be a row ends the unit's rows there, as the
 * reference stops at it and keeps what came before.
 */
static void settle_rows(nvtx_ctx *n)
{
	rli_unit *unit = n->unit;
	rli_events *rows = n->rows;
	const size_t end = n->first_row + n->range_count;
	py_number global_start;
	int global_kind;
	uint32_t *label_of = NULL; /* textId key -> the label's id in the table's strings */
	uint32_t domain = RLI_STRPOOL_NONE, tid = RLI_STRPOOL_NONE;
	const unsigned both_integers = (V_NUMBER | RANGE_IS_INT) | (V_NUMBER | RANGE_IS_INT) << RANGE_END_SHIFT;
	size_t i = n->first_row, pending = n->first_row; /* rows pending..i-1 hold ns still to divide */
	memset(&global_start, 0, sizeof(global_start));
	if (n->rank < 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Path %s: No valid rank for Analysis", unit->path);
		goto done;
	}
	if (!n->have_global_start) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Path %s: No valid global start time for Analysis",
			      unit->path);
		goto done;
	}
	global_kind = number_value(&global_start, n->global_start_kind, &n->global_start);
	if (n->range_count && require_number(n, global_kind, "startTime", n->global_start_line) < 0)
		goto done;
	if (n->string_capacity) {
		label_of = malloc(n->string_capacity * sizeof(*label_of));
		if (!label_of) {
			unit->status = RLI_ERROR;
			goto done;
		}
		for (size_t id = 0; id < n->string_capacity; id++)
			label_of[id] = RLI_STRPOOL_NONE;
	}
	for (; i < end; i++) {
		const uint32_t text_id = rows->name[i];
		/*
		 * The common row first: a label already used, and integers for start, end and the global
		 * start, well inside 2^53: py_add and py_div1000 come to exactly this.
		 */
		if (text_id < n->string_capacity && label_of[text_id] != RLI_STRPOOL_NONE &&
		    rows->tid_is_text[i] == both_integers && global_start.is_int) {
			const int64_t exact = (int64_t)1 << 53;
			int64_t first, last, sum, length;
			memcpy(&first, &rows->start_ms[i], sizeof(first));
			memcpy(&last, &rows->duration_ms[i], sizeof(last));
			if (!__builtin_add_overflow(first, global_start.i, &sum) &&
			    !__builtin_sub_overflow(last, first, &length) && sum > -exact && sum < exact &&
			    length > -exact && length < exact) {
				rows->name[i] = rows->role[i] = label_of[text_id];
				rows->domain[i] = domain;
				rows->tid[i] = tid;
				rows->tid_is_text[i] = 1;
				rows->rank_id[i] = n->rank;
				rows->start_ms[i] = (double)sum; /* divided by divide_ns, below */
				rows->duration_ms[i] = (double)length;
				continue;
			}
		}
		divide_ns(rows, pending, i);
		pending = i + 1; /* settle_row leaves its row final, or the rows end before it */
		if (!settle_row(n, i, &global_start, label_of, &domain, &tid))
			break;
	}
	if (pending < i)
		divide_ns(rows, pending, i);
done:
	rli_events_truncate(rows, i);
	free(label_of);
}

static void nvtx_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	nvtx_ctx n;
	int empty = 0, settled = 0;
	memset(&n, 0, sizeof(n));
	n.unit = unit;
	n.rows = rows;
	n.first_row = rows->count;
	n.rank = -1;
	rli_strpool_init(&n.string_ids);
	if (read_lines(&n, source, &empty) == 0 && unit->status == RLI_OK) {
		if (empty) {
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "JSONL file is empty: %s", unit->path);
		} else {
			if (!n.any_start_time)
				rli_notes_add(&unit->failures, RLI_LOG_ERROR, "No 'startTime' found in file: %s",
					      unit->path);
			if (!n.any_range)
				rli_notes_add(&unit->failures, RLI_LOG_ERROR,
					      "No 'eventType' which equals to 60 found in file: %s", unit->path);
			if (unit->failures.count == 0) {
				settle_rows(&n);
				settled = 1;
			}
		}
	}
	/* Rows never stay as ranges wait in them: a failed unit leaves none. */
	if (!settled)
		rli_events_truncate(rows, n.first_row);
	if (unit->log.oom || unit->failures.oom)
		unit->status = RLI_ERROR;
	for (size_t i = 0; i < n.string_capacity; i++)
		free(n.string_values[i]);
	free(n.string_values);
	free(n.value.text);
	free(n.name.text);
	rli_strpool_dispose(&n.string_ids);
}

static void nvtx_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_bytes *source = rli_unit_open(unit, unit->path);
	if (!source) {
		if (unit->failures.oom)
			unit->status = RLI_ERROR;
		return;
	}
	nvtx_parse_bytes(unit, source, rows);
	rli_bytes_close(source);
}

static rli_shows nvtx_detect(const rli_walk_entry *entry)
{
	return entry->is_file && fnmatch("worker_process_*.*.jsonl", entry->name, 0) == 0 ? RLI_SHOWS_FORMAT
											   : RLI_SHOWS_NOTHING;
}

const rli_format rli_format_nvtx = {
	RLI_PROFILER_NVTX, "nvtx", "multi_json_nvtx", "worker_process_*.*.jsonl file",
	"worker_process_*.*.jsonl files", 1,
	nvtx_detect, nvtx_discover, nvtx_parse_unit, nvtx_parse_bytes, nvtx_rows_hint,
};

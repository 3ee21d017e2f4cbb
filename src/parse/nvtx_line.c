/* nvtx_line.c: one NVTX jsonl line through yajl: each field read in its callback, and what the line leaves behind. */
#include "nvtx_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void rli_nvtx_line_reset(nvtx_ctx *n)
{
	rli_nvtx_top_level(n);
	memset(n->kind, V_ABSENT, sizeof(n->kind));
	n->past_int64 = 0;
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

/*
 * An id written as an integer (no fraction, no exponent) that no int64 holds. Python would key
 * its dict by it all the same; we would not match it to its label, so it is said, not dropped.
 */
static void note_past_int64(nvtx_ctx *n, int field, int kind, const char *text, size_t length)
{
	int64_t value;
	/* 18 characters or fewer always fit: the ids of every line pass the first test. */
	if (kind != V_NUMBER || !text || length <= 18 || memchr(text, '.', length) || memchr(text, 'e', length) ||
	    memchr(text, 'E', length) || rli_text_to_int64(&value, text, length) == 0)
		return;
	n->past_int64 |= 1u << field;
	n->past_int64_length[field == F_TEXT_ID] = length;
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
		note_past_int64(n, F_TEXT_ID, kind, text, length);
		kind = short_set(&n->text_id, kind, text, length);
		n->text_id_plain = 0;
		break;
	case F_ID:
		note_past_int64(n, F_ID, kind, text, length);
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
		return rli_json_stop(&n->json, "expected a JSON object");
	if (n->json.depth != 1 || n->key->field == F_OTHER)
		return 1; /* nothing reads another key's value */
	return set_field(n, kind, text, length);
}

static int nvtx_null(void *ctx) { return nvtx_value(ctx, NULL, 0, V_NULL); }
static int nvtx_bool(void *ctx, int value) { (void)value; return nvtx_value(ctx, NULL, 0, V_BOOL); }

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

void rli_nvtx_top_level(nvtx_ctx *n)
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

void rli_nvtx_top_key(nvtx_ctx *n, const char *key, size_t length)
{
	n->key = &fields[field_of((const unsigned char *)key, length)];
}

/* A null, a boolean, an object or an array as the value of a key of the line's object (as nvtx_value and nvtx_open). */
int rli_nvtx_top_other(nvtx_ctx *n, int kind)
{
	return n->key->field == F_OTHER ? 1 : set_field(n, kind, NULL, 0);
}

static int nvtx_open(nvtx_ctx *n, int is_map)
{
	if (n->json.depth == 0) {
		if (!is_map)
			return rli_json_stop(&n->json, "expected a JSON object");
	} else if (n->json.depth == 1 && !rli_nvtx_top_other(n, is_map ? V_OBJECT : V_ARRAY)) {
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
		rli_nvtx_top_level(n);
	return 1;
}

const yajl_callbacks rli_nvtx_callbacks = {
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

/* A range's start or end as its row keeps it (see range_value); returns its RANGE_* flags. */
static unsigned keep_value(double *slot, int kind, range_value value, uint8_t is_int, uint64_t line)
{
	if (kind != V_NUMBER)
		value.i = (int64_t)line;
	memcpy(slot, &value, sizeof(value));
	return (unsigned)kind | (kind == V_NUMBER && is_int ? RANGE_IS_INT : 0u);
}

/* Notes the line as where textId id was first used by a range. The id, or RLI_STRPOOL_NONE when memory ran out. */
static uint32_t note_text_id_line(nvtx_ctx *n, uint32_t id)
{
	if (id == RLI_STRPOOL_NONE)
		return id;
	if (id >= n->text_id_line_capacity) {
		size_t grown = n->text_id_line_capacity ? n->text_id_line_capacity * 2 : 64;
		uint64_t *p;
		while (grown <= id)
			grown *= 2;
		if (!(p = realloc(n->text_id_line, grown * sizeof(*p))))
			return RLI_STRPOOL_NONE;
		memset(p + n->text_id_line_capacity, 0, (grown - n->text_id_line_capacity) * sizeof(*p));
		n->text_id_line = p;
		n->text_id_line_capacity = grown;
	}
	if (n->text_id_line[id] == 0)
		n->text_id_line[id] = n->line;
	return id;
}

/* The line's textId as a key of string_ids; RLI_STRPOOL_NONE if it is no string or number, or memory ran out. */
static uint32_t text_id_key(nvtx_ctx *n)
{
	char key[NVTX_SHORT_MAX + 1];
	int kind = n->kind[F_TEXT_ID], key_length;
	uint32_t id;
	if (kind != V_STRING && kind != V_NUMBER) {
		if (n->bad_text_id_line == 0)
			n->bad_text_id_line = n->line;
		return RLI_STRPOOL_NONE;
	}
	if (n->text_id_plain) {
		/* Plain digits say the same key whatever the line: no hashing for the labels seen lately. */
		uint32_t slot = n->text_id_number % TEXT_ID_CACHE;
		if (n->text_id_cache[slot].number_plus_1 == n->text_id_number + 1)
			return n->text_id_cache[slot].id;
		key_length = snprintf(key, sizeof(key), "n%" PRIu32, n->text_id_number);
		/* Not cached yet: perhaps the first range with this textId (a cached one has had its line noted). */
		id = note_text_id_line(n, rli_strpool_intern(&n->string_ids, key, (size_t)key_length));
		if (id != RLI_STRPOOL_NONE) {
			n->text_id_cache[slot].number_plus_1 = n->text_id_number + 1;
			n->text_id_cache[slot].id = id;
		}
		return id;
	}
	key_length = key_of(key, kind, &n->text_id);
	return note_text_id_line(n, rli_strpool_intern(&n->string_ids, key, (size_t)key_length));
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

/* A range's textId or a StringIds line's id past int64: the unit fails, naming the line. -1. */
static int fail_past_int64(nvtx_ctx *n, int field)
{
	const short_value *v = field == F_TEXT_ID ? &n->text_id : &n->id;
	size_t length = n->past_int64_length[field == F_TEXT_ID];
	char got[64];
	/* The numeral itself when short enough to read; a count of its digits when not. */
	if (length <= 40 && v->length == length)
		snprintf(got, sizeof(got), "%.*s", (int)length, v->text);
	else
		snprintf(got, sizeof(got), "an integer of %zu characters", length);
	rli_notes_add(&n->unit->failures, RLI_LOG_ERROR,
		      "Failed to parse JSON file %s: '%s' must be an integer that fits in 64 bits, got %s at line %llu",
		      n->unit->path, field == F_TEXT_ID ? "textId" : "id", got, (unsigned long long)n->line);
	return -1;
}

/* Everything one line contributes; 0, or -1 when the unit failed or memory ran out. */
int rli_nvtx_line_done(nvtx_ctx *n)
{
	const uint8_t *kind = n->kind;
	rli_unit *unit = n->unit;
	if (kind[F_START_TIME] != V_ABSENT)
		n->any_start_time = 1;
	if (n->past_int64 & (1u << F_ID) && n->table == T_STRING_IDS)
		return fail_past_int64(n, F_ID);
	if (kind[F_EVENT_TYPE] == V_NUMBER && n->event_type_is_60) {
		n->any_range = 1;
		if (n->past_int64 & (1u << F_TEXT_ID))
			return fail_past_int64(n, F_TEXT_ID);
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
		if (kind[F_ID] != V_ABSENT && n->value.kind != V_ABSENT && rli_nvtx_remember_string(n) < 0)
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
		n->analysis_seen = 1;
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


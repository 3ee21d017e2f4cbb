/* json_items.c: a JSON array's items scanned fast and replayed into yajl's callbacks; what the scanner declines goes to yajl. */
#include "json_items.h"
#include "json_scan.h"
#include "common/grow.h"

#include <stdlib.h>
#include <string.h>

const unsigned char rli_scan_escaped[256] = {
	['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* Read this much at a time; an item longer than the buffer grows it, up to ITEM_MAX. */
#define BUFFER_FIRST ((size_t)1 << 20)
/* An item longer than this is no trace event: yajl reads the file and judges it. */
#define ITEM_MAX ((size_t)64 << 20)
/* Deeper items go to yajl (which bounds nesting through the callbacks). */
#define SCAN_NESTING 64

enum { TOK_NULL, TOK_BOOL, TOK_NUMBER, TOK_STRING, TOK_KEY, TOK_START_MAP, TOK_END_MAP, TOK_START_ARRAY,
       TOK_END_ARRAY };

/* One token of the item being read: text in the buffer, or (escapes undone) at an offset in scratch. */
typedef struct {
	unsigned char kind;
	unsigned char in_scratch;
	unsigned char truth; /* TOK_BOOL */
	size_t length;
	union {
		const unsigned char *text;
		size_t offset;
	} at;
} token;

/* Where the reader is in the array. */
enum { S_BEFORE, S_FIRST, S_ITEM, S_AFTER, S_END };

struct rli_items_reader {
	rli_json *json;
	const yajl_callbacks *callbacks;
	void *ctx;
	rli_items_fill_fn fill;
	void *src;
	unsigned char *buffer;
	size_t capacity, have, at; /* buffer holds `have` bytes, the first `at` read */
	uint64_t base;             /* the file offset of buffer[0] */
	int eof, any_bytes;
	int state;
	int fed_open;              /* "[" given to yajl */
	int in_member;             /* RLI_ITEMS_IN_MEMBER: the array ends the reading, the rest is the caller's */
	uint64_t items, declined;
	token *tokens;
	size_t token_count, token_capacity;
	char *scratch;
	size_t scratch_used, scratch_capacity;
	int oom;
};

int rli_json_scan_enabled(void)
{
	const char *value = getenv("RLI_JSON_SCAN");
	return !(value && strcmp(value, "0") == 0);
}

rli_items_reader *rli_items_new(rli_json *json, const yajl_callbacks *callbacks, void *ctx, rli_items_fill_fn fill,
				void *src, uint64_t offset, int at)
{
	rli_items_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->json = json;
	r->callbacks = callbacks;
	r->ctx = ctx;
	r->fill = fill;
	r->src = src;
	r->base = offset;
	r->state = at == RLI_ITEMS_AT_ITEM ? S_ITEM : at == RLI_ITEMS_IN_MEMBER ? S_FIRST : S_BEFORE;
	r->in_member = at == RLI_ITEMS_IN_MEMBER;
	r->fed_open = r->in_member; /* the caller gave yajl the document up to the array's "[" */
	if (!(r->buffer = malloc(BUFFER_FIRST))) {
		free(r);
		return NULL;
	}
	r->capacity = BUFFER_FIRST;
	return r;
}

void rli_items_free(rli_items_reader *reader)
{
	if (!reader)
		return;
	free(reader->buffer);
	free(reader->tokens);
	free(reader->scratch);
	free(reader);
}

uint64_t rli_items_count(const rli_items_reader *reader)
{
	return reader->items;
}

uint64_t rli_items_declined(const rli_items_reader *reader)
{
	return reader->declined;
}

void rli_items_rest(const rli_items_reader *reader, const unsigned char **data, size_t *length)
{
	*data = reader->buffer + reader->at;
	*length = reader->have - reader->at;
}

/* ---- one item: its tokens, recorded ------------------------------------ */

static token *push(rli_items_reader *r, int kind)
{
	token *t;
	if (r->token_count == r->token_capacity &&
	    RLI_GROW(&r->tokens, &r->token_capacity, r->token_count + 1, 64) < 0) {
		r->oom = 1;
		return NULL;
	}
	t = &r->tokens[r->token_count++];
	t->kind = (unsigned char)kind;
	t->in_scratch = 0;
	t->length = 0;
	return t;
}

/* A string (or key) token whose text runs from `from` to its closing quote `to`. */
static int push_text(rli_items_reader *r, int kind, const unsigned char *from, const unsigned char *to, int escapes)
{
	token *t = push(r, kind);
	size_t raw = (size_t)(to - from);
	if (!t)
		return -1;
	if (!escapes) {
		t->at.text = from;
		t->length = raw;
		return 0;
	}
	if (r->scratch_used + raw > r->scratch_capacity &&
	    RLI_GROW(&r->scratch, &r->scratch_capacity, r->scratch_used + raw, 4096) < 0) {
		r->oom = 1;
		return -1;
	}
	t->in_scratch = 1;
	t->at.offset = r->scratch_used;
	t->length = rli_scan_unescape(r->scratch + r->scratch_used, from, to);
	r->scratch_used += t->length;
	return 0;
}

/* A string at p (its opening quote), recorded as `kind`; *after past its closing quote. */
static int scan_text(rli_items_reader *r, int kind, const unsigned char *p, const unsigned char *end,
		     const unsigned char **after)
{
	const unsigned char *close;
	int escapes = 0, status = rli_scan_string(p + 1, end, &close, &escapes);
	if (status != RLI_SCAN_OK)
		return status;
	if (push_text(r, kind, p + 1, close, escapes) < 0)
		return RLI_SCAN_DECLINED;
	*after = close + 1;
	return RLI_SCAN_OK;
}

/* `"key" :` and the blanks after it, p at the key's quote; *after at the value. */
static int scan_key(rli_items_reader *r, const unsigned char *p, const unsigned char *end, const unsigned char **after)
{
	int status;
	if (*p != '"')
		return RLI_SCAN_DECLINED;
	if ((status = scan_text(r, TOK_KEY, p, end, &p)) != RLI_SCAN_OK)
		return status;
	p = rli_scan_blanks(p, end);
	if (p == end)
		return RLI_SCAN_MORE;
	if (*p != ':')
		return RLI_SCAN_DECLINED;
	p = rli_scan_blanks(p + 1, end);
	if (p == end)
		return RLI_SCAN_MORE;
	*after = p;
	return RLI_SCAN_OK;
}

/* A scalar at p, recorded; *after past it. */
static int scan_scalar(rli_items_reader *r, const unsigned char *p, const unsigned char *end,
		       const unsigned char **after)
{
	token *t;
	int status, kind;
	if (*p == '"')
		return scan_text(r, TOK_STRING, p, end, after);
	if (*p == '-' || rli_scan_is_digit(*p)) {
		if ((status = rli_scan_number(p, end, after)) != RLI_SCAN_OK)
			return status;
		if (!(t = push(r, TOK_NUMBER)))
			return RLI_SCAN_DECLINED;
		t->at.text = p;
		t->length = (size_t)(*after - p);
		return RLI_SCAN_OK;
	}
	if ((status = rli_scan_literal(p, end, after, &kind)) != RLI_SCAN_OK)
		return status;
	if (!(t = push(r, kind == 'n' ? TOK_NULL : TOK_BOOL)))
		return RLI_SCAN_DECLINED;
	t->truth = kind == 't';
	return RLI_SCAN_OK;
}

/*
 * The item (an object or array) starting at p, its tokens recorded: RLI_SCAN_OK with *after past
 * it, RLI_SCAN_MORE when the bytes end inside it, RLI_SCAN_DECLINED when yajl must read it.
 */
static int scan_item(rli_items_reader *r, const unsigned char *p, const unsigned char *end,
		     const unsigned char **after)
{
	uint64_t is_object = 0; /* bit 0: the innermost open level */
	int depth = 0, status;
	r->token_count = 0;
	r->scratch_used = 0;
	for (;;) {
		/* p is at a value. */
		if (*p == '{' || *p == '[') {
			int object = *p == '{';
			if (depth == SCAN_NESTING)
				return RLI_SCAN_DECLINED;
			if (!push(r, object ? TOK_START_MAP : TOK_START_ARRAY))
				return RLI_SCAN_DECLINED;
			is_object = is_object << 1 | (uint64_t)object;
			depth++;
			p = rli_scan_blanks(p + 1, end);
			if (p == end)
				return RLI_SCAN_MORE;
			if (*p != (object ? '}' : ']')) {
				if (object && (status = scan_key(r, p, end, &p)) != RLI_SCAN_OK)
					return status;
				continue;
			}
			/* Empty: the level closes where it opened. */
			if (!push(r, object ? TOK_END_MAP : TOK_END_ARRAY))
				return RLI_SCAN_DECLINED;
			p++;
			is_object >>= 1;
			depth--;
		} else if ((status = scan_scalar(r, p, end, &p)) != RLI_SCAN_OK) {
			return status;
		}
		/* After a value: a comma leads to the next one, closers end levels. */
		for (;;) {
			if (depth == 0) {
				*after = p;
				return RLI_SCAN_OK;
			}
			p = rli_scan_blanks(p, end);
			if (p == end)
				return RLI_SCAN_MORE;
			if (*p == ',') {
				p = rli_scan_blanks(p + 1, end);
				if (p == end)
					return RLI_SCAN_MORE;
				if ((is_object & 1) && (status = scan_key(r, p, end, &p)) != RLI_SCAN_OK)
					return status;
				break;
			}
			if (*p != ((is_object & 1) ? '}' : ']'))
				return RLI_SCAN_DECLINED;
			if (!push(r, (is_object & 1) ? TOK_END_MAP : TOK_END_ARRAY))
				return RLI_SCAN_DECLINED;
			p++;
			is_object >>= 1;
			depth--;
		}
	}
}

/* The recorded item into the callbacks: 1, or 0 when one of them stopped the parse. */
static int replay(rli_items_reader *r)
{
	const yajl_callbacks *cb = r->callbacks;
	void *ctx = r->ctx;
	for (size_t i = 0; i < r->token_count; i++) {
		const token *t = &r->tokens[i];
		const unsigned char *text = t->in_scratch ? (const unsigned char *)r->scratch + t->at.offset : t->at.text;
		int go = 1;
		switch (t->kind) {
		case TOK_NULL:
			go = !cb->yajl_null || cb->yajl_null(ctx);
			break;
		case TOK_BOOL:
			go = !cb->yajl_boolean || cb->yajl_boolean(ctx, t->truth);
			break;
		case TOK_NUMBER:
			go = cb->yajl_number(ctx, (const char *)text, t->length);
			break;
		case TOK_STRING:
			go = !cb->yajl_string || cb->yajl_string(ctx, text, t->length);
			break;
		case TOK_KEY:
			go = !cb->yajl_map_key || cb->yajl_map_key(ctx, text, t->length);
			break;
		case TOK_START_MAP:
			go = !cb->yajl_start_map || cb->yajl_start_map(ctx);
			break;
		case TOK_END_MAP:
			go = !cb->yajl_end_map || cb->yajl_end_map(ctx);
			break;
		case TOK_START_ARRAY:
			go = !cb->yajl_start_array || cb->yajl_start_array(ctx);
			break;
		case TOK_END_ARRAY:
			go = !cb->yajl_end_array || cb->yajl_end_array(ctx);
			break;
		}
		if (!go)
			return 0;
	}
	return 1;
}

/*
 * Where an item the scanner declined ends: its closer, strings skipped by their quotes and
 * escapes. Only a boundary to hand yajl: yajl checks every byte of it.
 */
static int skim_item(const unsigned char *p, const unsigned char *end, const unsigned char **after)
{
	int depth = 0;
	for (; p < end; p++) {
		unsigned char c = *p;
		if (c == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= end)
				return RLI_SCAN_MORE;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth == 0) {
				*after = p + 1;
				return RLI_SCAN_OK;
			}
		}
	}
	return RLI_SCAN_MORE;
}

/* ---- the array ---------------------------------------------------------- */

/* Gives yajl bytes of the array's own ("[", ",", "]"): 0, or -1 when it refused them. */
static int feed_yajl(rli_items_reader *r, const char *text)
{
	return rli_json_feed(r->json, (const unsigned char *)text, strlen(text));
}

/* An item yajl must read, from p to after: 0 when it read it whole, -1 otherwise. */
static int feed_item(rli_items_reader *r, const unsigned char *p, const unsigned char *after)
{
	int depth = r->json->depth;
	if (r->declined && feed_yajl(r, ",") < 0)
		return -1;
	if (rli_json_feed(r->json, p, (size_t)(after - p)) < 0)
		return -1;
	/* The bytes closed the item, as the skim said, or yajl is still inside it: then it is no item. */
	if (r->json->depth != depth)
		return -1;
	r->declined++;
	return 0;
}

/* More bytes, keeping buffer[keep..have): 1 with more, 0 at the end, -1 on failure or an item too long. */
static int refill(rli_items_reader *r, size_t keep)
{
	size_t got;
	if (r->eof)
		return 0;
	if (keep > 0) {
		memmove(r->buffer, r->buffer + keep, r->have - keep);
		r->have -= keep;
		r->base += keep;
	}
	r->at = 0;
	if (r->have == r->capacity) {
		unsigned char *grown;
		if (r->capacity >= ITEM_MAX)
			return -1;
		if (!(grown = realloc(r->buffer, r->capacity * 2))) {
			r->oom = 1;
			return -1;
		}
		r->buffer = grown;
		r->capacity *= 2;
	}
	if (r->fill(r->src, r->buffer + r->have, r->capacity - r->have, &got) < 0)
		return -1;
	if (got == 0) {
		r->eof = 1;
		return 0;
	}
	r->have += got;
	r->any_bytes = 1;
	return 1;
}

/* The callbacks stopped: on purpose (halted), or with a reason only yajl's reading places. */
static int stopped_result(rli_items_reader *r)
{
	if (r->oom)
		return RLI_READ_OOM;
	return r->json->halted ? RLI_READ_HALTED : RLI_ITEMS_DECLINED;
}

int rli_items_read(rli_items_reader *r, uint64_t stop_at, uint64_t *stopped)
{
	if (r->state == S_ITEM && !r->fed_open) {
		/* A chunk starts inside the array: yajl and the callbacks are put there. */
		if (feed_yajl(r, "[") < 0)
			return stopped_result(r);
		r->fed_open = 1;
	}
	for (;;) {
		const unsigned char *p = rli_scan_blanks(r->buffer + r->at, r->buffer + r->have), *end, *after = NULL;
		int status, more;
		r->at = (size_t)(p - r->buffer);
		if (p == r->buffer + r->have) {
			if ((more = refill(r, r->at)) < 0)
				return r->oom ? RLI_READ_OOM : RLI_ITEMS_DECLINED;
			if (more)
				continue;
			/* The bytes' end: right only after the array. */
			if (r->state == S_BEFORE && !r->any_bytes)
				return RLI_READ_EMPTY;
			if (r->state != S_END)
				return RLI_ITEMS_DECLINED;
			if (rli_json_finish(r->json) < 0)
				return r->oom ? RLI_READ_OOM : RLI_ITEMS_DECLINED;
			return RLI_READ_OK;
		}
		end = r->buffer + r->have;
		switch (r->state) {
		case S_BEFORE:
			if (*p != '[')
				return RLI_ITEMS_DECLINED;
			if (feed_yajl(r, "[") < 0)
				return stopped_result(r);
			r->fed_open = 1;
			r->at++;
			r->state = S_FIRST;
			continue;
		case S_AFTER:
		case S_FIRST:
			if (r->state == S_AFTER && *p == ',') {
				r->at++;
				r->state = S_ITEM;
				continue;
			}
			/* After an item a comma or the closer; before the first, the closer or an item. */
			if (*p == ']') {
				if (feed_yajl(r, "]") < 0)
					return stopped_result(r);
				r->at++;
				r->state = S_END;
				if (r->in_member)
					return RLI_READ_OK;
				continue;
			}
			if (r->state == S_AFTER)
				return RLI_ITEMS_DECLINED;
			break;
		case S_ITEM:
			break;
		case S_END:
			return RLI_ITEMS_DECLINED; /* something after the array */
		}
		/* An item starts at p. */
		if (r->base + r->at >= stop_at) {
			*stopped = r->base + r->at;
			return RLI_READ_OK;
		}
		if (*p != '{' && *p != '[')
			return RLI_ITEMS_DECLINED; /* a bare value: yajl's to read with the file */
		status = scan_item(r, p, end, &after);
		if (status == RLI_SCAN_DECLINED && !r->oom)
			status = skim_item(p, end, &after) == RLI_SCAN_OK ? RLI_SCAN_DECLINED : RLI_SCAN_MORE;
		if (r->oom)
			return RLI_READ_OOM;
		if (status == RLI_SCAN_MORE) {
			if ((more = refill(r, r->at)) < 0)
				return r->oom ? RLI_READ_OOM : RLI_ITEMS_DECLINED;
			if (!more)
				return RLI_ITEMS_DECLINED; /* cut short: yajl says where */
			continue;
		}
		if (status == RLI_SCAN_OK) {
			if (!replay(r))
				return stopped_result(r);
		} else if (feed_item(r, p, after) < 0) {
			return r->json->halted ? RLI_READ_HALTED : r->oom ? RLI_READ_OOM : RLI_ITEMS_DECLINED;
		}
		r->items++;
		r->at = (size_t)(after - r->buffer);
		r->state = S_AFTER;
	}
}

/* ---- a whole source ------------------------------------------------------ */

int rli_items_fill_from_source(void *src, unsigned char *into, size_t room, size_t *got)
{
	rli_items_source *f = src;
	*got = 0;
	while (*got < room) {
		size_t take;
		if (f->length == 0) {
			int next = rli_bytes_next(f->source, &f->data, &f->length);
			if (next < 0) {
				f->failed = 1;
				return -1;
			}
			if (next == 0)
				break;
		}
		take = f->length < room - *got ? f->length : room - *got;
		memcpy(into + *got, f->data, take);
		*got += take;
		f->data += take;
		f->length -= take;
	}
	return 0;
}

int rli_json_items_read(rli_json *json, const yajl_callbacks *callbacks, void *ctx, rli_bytes *source,
			char **failure)
{
	rli_items_source fill = {source, NULL, 0, 0};
	rli_items_reader *reader;
	uint64_t stopped;
	int result;
	(void)failure; /* a failing source is read again by yajl, which meets the failure where it is */
	if (!rli_json_scan_enabled() || !callbacks->yajl_number)
		return RLI_ITEMS_DECLINED;
	rli_bytes_set_content(source, "JSON");
	if (!(reader = rli_items_new(json, callbacks, ctx, rli_items_fill_from_source, &fill, 0, RLI_ITEMS_AT_START)))
		return RLI_READ_OOM;
	result = rli_items_read(reader, UINT64_MAX, &stopped);
	rli_items_free(reader);
	return result;
}

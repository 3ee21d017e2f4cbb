/* pt_pickle.c: the pickle reader for torch.save's tensors: the opcodes of gmm.md §2.4, a few globals by name, never a call. */
#include "pt_pickle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Bounds: a tensor's pickle holds some thirty values. These leave room for any tensor torch
 * writes (a 64-dimensional one among them) and stop a crafted pickle long before it could
 * cost memory or time worth mentioning.
 */
#define MAX_VALUES 65536
#define MAX_LINKS 65536
#define MAX_DEPTH 4096
#define MAX_MEMO 65536

/* The opcodes read (pickle protocols 2 to 5); every other byte is refused. */
enum {
	OP_MARK = '(', OP_STOP = '.', OP_BININT = 'J', OP_BININT1 = 'K', OP_BININT2 = 'M', OP_NONE = 'N',
	OP_BINUNICODE = 'X', OP_SHORT_BINSTRING = 'U', OP_APPEND = 'a', OP_APPENDS = 'e', OP_BINGET = 'h',
	OP_LONG_BINGET = 'j', OP_BINPUT = 'q', OP_LONG_BINPUT = 'r', OP_SETITEM = 's', OP_TUPLE = 't',
	OP_SETITEMS = 'u', OP_EMPTY_DICT = '}', OP_EMPTY_LIST = ']', OP_EMPTY_TUPLE = ')', OP_BINPERSID = 'Q',
	OP_GLOBAL = 'c', OP_REDUCE = 'R', OP_BINFLOAT = 'G', OP_PROTO = 0x80, OP_TUPLE1 = 0x85, OP_TUPLE2 = 0x86,
	OP_TUPLE3 = 0x87, OP_NEWTRUE = 0x88, OP_NEWFALSE = 0x89, OP_LONG1 = 0x8a, OP_SHORT_BINUNICODE = 0x8c,
	OP_MEMOIZE = 0x94, OP_FRAME = 0x95
};

/* Names of the opcodes a tensor's pickle never holds, for the message that refuses one. */
static const char *refused_name(int op)
{
	static const struct {
		int op;
		const char *name;
	} names[] = {
		{ 'b', "BUILD" }, { 'i', "INST" }, { 'o', "OBJ" }, { 0x81, "NEWOBJ" }, { 0x92, "NEWOBJ_EX" },
		{ 0x93, "STACK_GLOBAL" }, { 0x82, "EXT1" }, { 0x83, "EXT2" }, { 0x84, "EXT4" }, { 'P', "PERSID" },
		{ 'g', "GET" }, { 'p', "PUT" }, { 'S', "STRING" }, { 'V', "UNICODE" }, { 'T', "BINSTRING" },
		{ 'B', "BINBYTES" }, { 'C', "SHORT_BINBYTES" }, { 0x8e, "BINBYTES8" }, { 0x8d, "BINUNICODE8" },
		{ 'I', "INT" }, { 'L', "LONG" }, { 'F', "FLOAT" }, { 0x8b, "LONG4" }, { '0', "POP" }, { '1', "POP_MARK" },
		{ '2', "DUP" }, { 'd', "DICT" }, { 'l', "LIST" }, { 0x8f, "EMPTY_SET" }, { 0x90, "ADDITEMS" },
		{ 0x91, "FROZENSET" }, { 0x96, "BYTEARRAY8" }, { 0x97, "NEXT_BUFFER" }, { 0x98, "READONLY_BUFFER" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].op == op)
			return names[i].name;
	return NULL;
}

void rli_pickle_init(rli_pickle *p, const unsigned char *data, size_t size, const char *where, size_t base,
		     int legacy, char *why, size_t why_size)
{
	memset(p, 0, sizeof(*p));
	p->data = data;
	p->size = size;
	p->where = where;
	p->base = base;
	p->legacy = legacy;
	p->why = why;
	p->why_size = why_size;
}

void rli_pickle_dispose(rli_pickle *p)
{
	free(p->values);
	free(p->links);
	free(p->stack);
	free(p->memo);
	p->values = NULL;
	p->links = NULL;
	p->stack = NULL;
	p->memo = NULL;
}

/* "<where>, byte N: <what>" into why; returns -1. at: the opcode's offset in data. */
int rli_pickle_fail(rli_pickle *p, size_t at, const char *fmt, ...)
{
	va_list ap;
	int used = snprintf(p->why, p->why_size, "%s, byte %zu: ", p->where, p->base + at);
	if (used >= 0 && (size_t)used < p->why_size) {
		va_start(ap, fmt);
		vsnprintf(p->why + used, p->why_size - (size_t)used, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Grows an array of `size`-byte items to hold needed; -2 when out of memory. */
static int grow(void **items, size_t *capacity, size_t needed, size_t size)
{
	size_t grown = *capacity ? *capacity : 32;
	void *moved;
	if (needed <= *capacity)
		return 0;
	while (grown < needed)
		grown *= 2;
	if (!(moved = realloc(*items, grown * size)))
		return -2;
	*items = moved;
	*capacity = grown;
	return 0;
}

/* A new value of kind; *id its id. */
static int new_value(rli_pickle *p, size_t at, uint8_t kind, uint32_t *id)
{
	if (p->value_count >= MAX_VALUES)
		return rli_pickle_fail(p, at, "the pickle makes more than %d objects, far more than a tensor's", MAX_VALUES);
	if (grow((void **)&p->values, &p->value_capacity, p->value_count + 1, sizeof(*p->values)) < 0)
		return -2;
	memset(&p->values[p->value_count], 0, sizeof(*p->values));
	p->values[p->value_count].kind = kind;
	p->values[p->value_count].head = p->values[p->value_count].tail = RLI_PK_NO_LINK;
	*id = (uint32_t)p->value_count++;
	return 0;
}

int rli_pickle_push(rli_pickle *p, size_t at, uint32_t id)
{
	if (p->depth >= MAX_DEPTH)
		return rli_pickle_fail(p, at, "the pickle's stack grows past %d values, far past a tensor's", MAX_DEPTH);
	if (grow((void **)&p->stack, &p->stack_capacity, p->depth + 1, sizeof(*p->stack)) < 0)
		return -2;
	p->stack[p->depth++] = id;
	return 0;
}

int rli_pickle_push_new(rli_pickle *p, size_t at, uint8_t kind, uint32_t *id)
{
	int error = new_value(p, at, kind, id);
	return error < 0 ? error : rli_pickle_push(p, at, *id);
}

/* Pops a value that is not a MARK. */
int rli_pickle_pop(rli_pickle *p, size_t at, uint32_t *id)
{
	if (p->depth == 0 || p->values[p->stack[p->depth - 1]].kind == RLI_PK_MARK)
		return rli_pickle_fail(p, at, "the opcode needs a value and the pickle's stack has none");
	*id = p->stack[--p->depth];
	return 0;
}

/* Where the topmost MARK is on the stack: the items above it are stack[*mark + 1 ..]. */
static int find_mark(rli_pickle *p, size_t at, size_t *mark)
{
	for (size_t i = p->depth; i-- > 0;)
		if (p->values[p->stack[i]].kind == RLI_PK_MARK) {
			*mark = i;
			return 0;
		}
	return rli_pickle_fail(p, at, "the opcode needs a MARK and the pickle's stack has none");
}

/* Appends value to a tuple or list's chain. */
static int link_item(rli_pickle *p, size_t at, uint32_t container, uint32_t value)
{
	rli_pk_value *c;
	if (p->link_count >= MAX_LINKS)
		return rli_pickle_fail(p, at, "the pickle's containers hold more than %d items, far more than a tensor's", MAX_LINKS);
	if (grow((void **)&p->links, &p->link_capacity, p->link_count + 1, sizeof(*p->links)) < 0)
		return -2;
	p->links[p->link_count] = (rli_pk_link){ value, RLI_PK_NO_LINK };
	c = &p->values[container];
	if (c->tail == RLI_PK_NO_LINK)
		c->head = (uint32_t)p->link_count;
	else
		p->links[c->tail].next = (uint32_t)p->link_count;
	c->tail = (uint32_t)p->link_count++;
	c->count++;
	return 0;
}

const rli_pk_value *rli_pickle_item(const rli_pickle *p, const rli_pk_value *container, uint32_t i)
{
	uint32_t link = container->head;
	while (i-- > 0)
		link = p->links[link].next;
	return &p->values[p->links[link].value];
}

/* A tuple of the n values on top of the stack, which it replaces. */
static int make_tuple(rli_pickle *p, size_t at, size_t n)
{
	uint32_t id = 0;
	size_t from;
	int error;
	if (p->depth < n)
		return rli_pickle_fail(p, at, "the opcode needs %zu values and the pickle's stack has %zu", n, p->depth);
	from = p->depth - n;
	for (size_t i = from; i < p->depth; i++)
		if (p->values[p->stack[i]].kind == RLI_PK_MARK)
			return rli_pickle_fail(p, at, "a MARK where the opcode needs a value");
	if ((error = new_value(p, at, RLI_PK_TUPLE, &id)) < 0)
		return error;
	for (size_t i = from; i < p->depth; i++)
		if ((error = link_item(p, at, id, p->stack[i])) < 0)
			return error;
	p->depth = from;
	return rli_pickle_push(p, at, id);
}

/* ---- reading the operands ------------------------------------------------------------ */

static int need(rli_pickle *p, size_t at, size_t n)
{
	if (p->size - p->pos < n)
		return rli_pickle_fail(p, at, "the pickle ends inside an opcode's operand (it is truncated)");
	return 0;
}

static uint64_t little(const unsigned char *bytes, size_t n)
{
	uint64_t v = 0;
	for (size_t i = n; i-- > 0;)
		v = v << 8 | bytes[i];
	return v;
}

static int push_int(rli_pickle *p, size_t at, int64_t value)
{
	uint32_t id = 0;
	int error = rli_pickle_push_new(p, at, RLI_PK_INT, &id);
	if (error == 0)
		p->values[id].integer = value;
	return error;
}

/* LONG1: n bytes of two's complement, little-endian; more than 8 is no integer a tensor holds. */
static int read_long1(rli_pickle *p, size_t at)
{
	size_t n;
	uint64_t v;
	int error;
	if ((error = need(p, at, 1)) < 0)
		return error;
	n = p->data[p->pos++];
	if ((error = need(p, at, n)) < 0)
		return error;
	if (n > 8)
		return rli_pickle_fail(p, at, "an integer of %zu bytes, larger than any a tensor's pickle holds", n);
	v = little(p->data + p->pos, n);
	if (n > 0 && n < 8 && (p->data[p->pos + n - 1] & 0x80))
		v |= ~(uint64_t)0 << (8 * n); /* sign-extended */
	p->pos += n;
	return push_int(p, at, (int64_t)v);
}

static int push_text(rli_pickle *p, size_t at, size_t length)
{
	uint32_t id = 0;
	int error;
	if ((error = need(p, at, length)) < 0 || (error = rli_pickle_push_new(p, at, RLI_PK_TEXT, &id)) < 0)
		return error;
	p->values[id].text_at = p->pos;
	p->values[id].text_length = length;
	p->pos += length;
	return 0;
}

int rli_pickle_text_is(const rli_pickle *p, const rli_pk_value *v, const char *text)
{
	return v->kind == RLI_PK_TEXT && v->text_length == strlen(text) &&
	       memcmp(p->data + v->text_at, text, v->text_length) == 0;
}

/* ---- memo, containers -------------------------------------------------------------- */

static int memo_put(rli_pickle *p, size_t at, size_t index)
{
	if (p->depth == 0 || p->values[p->stack[p->depth - 1]].kind == RLI_PK_MARK)
		return rli_pickle_fail(p, at, "a memo store with no value on the pickle's stack");
	if (index >= MAX_MEMO)
		return rli_pickle_fail(p, at, "memo index %zu, far past what a tensor's pickle uses", index);
	if (index >= p->memo_capacity) {
		size_t old = p->memo_capacity;
		if (grow((void **)&p->memo, &p->memo_capacity, index + 1, sizeof(*p->memo)) < 0)
			return -2;
		memset(p->memo + old, 0, (p->memo_capacity - old) * sizeof(*p->memo));
	}
	if (p->memo[index] == 0)
		p->memo_count++;
	p->memo[index] = p->stack[p->depth - 1] + 1;
	return 0;
}

static int memo_get(rli_pickle *p, size_t at, size_t index)
{
	if (index >= p->memo_capacity || p->memo[index] == 0)
		return rli_pickle_fail(p, at, "memo index %zu was never stored", index);
	return rli_pickle_push(p, at, p->memo[index] - 1);
}

/* APPEND, APPENDS: items onto the list below them. */
static int append_items(rli_pickle *p, size_t at, size_t from)
{
	uint32_t list;
	int error;
	if (from == 0 || p->values[p->stack[from - 1]].kind != RLI_PK_LIST)
		return rli_pickle_fail(p, at, "APPEND onto something that is not a list");
	list = p->stack[from - 1];
	for (size_t i = from; i < p->depth; i++)
		if ((error = link_item(p, at, list, p->stack[i])) < 0)
			return error;
	p->depth = from;
	return 0;
}

/* SETITEM, SETITEMS: pairs into the dict below them; their values are data already, and not kept. */
static int set_items(rli_pickle *p, size_t at, size_t from)
{
	if (from == 0 || p->values[p->stack[from - 1]].kind != RLI_PK_DICT || (p->depth - from) % 2)
		return rli_pickle_fail(p, at, "SETITEM onto something that is not a dict, or without a value for a key");
	p->values[p->stack[from - 1]].count += (uint32_t)((p->depth - from) / 2);
	p->depth = from;
	return 0;
}

/* ---- the loop ---------------------------------------------------------------------- */

static int step(rli_pickle *p, int op, size_t at, int *stop)
{
	uint32_t id = 0;
	size_t mark = 0;
	int error = 0;
	switch (op) {
	case OP_PROTO:
		if ((error = need(p, at, 1)) < 0)
			return error;
		if (p->data[p->pos] < 2 || p->data[p->pos] > 5)
			return rli_pickle_fail(p, at, "pickle protocol %d; torch.save writes protocol 2", p->data[p->pos]);
		p->pos++;
		return 0;
	case OP_FRAME:
		if ((error = need(p, at, 8)) < 0)
			return error;
		p->pos += 8; /* a frame's length: the opcodes inside are read as they come */
		return 0;
	case OP_STOP:
		*stop = 1;
		return 0;
	case OP_MARK:
		return rli_pickle_push_new(p, at, RLI_PK_MARK, &id);
	case OP_NONE:
		return rli_pickle_push_new(p, at, RLI_PK_NONE, &id);
	case OP_NEWTRUE:
	case OP_NEWFALSE:
		if ((error = rli_pickle_push_new(p, at, RLI_PK_BOOL, &id)) == 0)
			p->values[id].integer = op == OP_NEWTRUE;
		return error;
	case OP_BININT1:
	case OP_BININT2:
	case OP_BININT: {
		size_t n = op == OP_BININT1 ? 1 : op == OP_BININT2 ? 2 : 4;
		uint64_t v;
		if ((error = need(p, at, n)) < 0)
			return error;
		v = little(p->data + p->pos, n);
		p->pos += n;
		return push_int(p, at, n == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v);
	}
	case OP_LONG1:
		return read_long1(p, at);
	case OP_BINFLOAT: {
		uint64_t bits = 0;
		if ((error = need(p, at, 8)) < 0 || (error = rli_pickle_push_new(p, at, RLI_PK_FLOAT, &id)) < 0)
			return error;
		for (int i = 0; i < 8; i++)
			bits = bits << 8 | p->data[p->pos + (size_t)i]; /* big-endian, as pickle writes it */
		memcpy(&p->values[id].real, &bits, sizeof(bits));
		p->pos += 8;
		return 0;
	}
	case OP_BINUNICODE:
		if ((error = need(p, at, 4)) < 0)
			return error;
		p->pos += 4;
		return push_text(p, at, (size_t)little(p->data + p->pos - 4, 4));
	case OP_SHORT_BINUNICODE:
	case OP_SHORT_BINSTRING:
		if ((error = need(p, at, 1)) < 0)
			return error;
		p->pos++;
		return push_text(p, at, p->data[p->pos - 1]);
	case OP_GLOBAL:
		return rli_pickle_global(p, at);
	case OP_EMPTY_TUPLE:
		return make_tuple(p, at, 0);
	case OP_TUPLE1:
	case OP_TUPLE2:
	case OP_TUPLE3:
		return make_tuple(p, at, (size_t)(op - OP_TUPLE1 + 1));
	case OP_TUPLE:
		if ((error = find_mark(p, at, &mark)) < 0)
			return error;
		/* The MARK goes too: the items are moved down over it. */
		memmove(p->stack + mark, p->stack + mark + 1, (p->depth - mark - 1) * sizeof(*p->stack));
		p->depth--;
		return make_tuple(p, at, p->depth - mark);
	case OP_EMPTY_LIST:
		return rli_pickle_push_new(p, at, RLI_PK_LIST, &id);
	case OP_EMPTY_DICT:
		return rli_pickle_push_new(p, at, RLI_PK_DICT, &id);
	case OP_APPEND:
		if (p->depth == 0 || p->values[p->stack[p->depth - 1]].kind == RLI_PK_MARK)
			return rli_pickle_fail(p, at, "APPEND without a value");
		return append_items(p, at, p->depth - 1);
	case OP_APPENDS:
		if ((error = find_mark(p, at, &mark)) < 0)
			return error;
		memmove(p->stack + mark, p->stack + mark + 1, (p->depth - mark - 1) * sizeof(*p->stack));
		p->depth--;
		return append_items(p, at, mark);
	case OP_SETITEM:
		if (p->depth < 2)
			return rli_pickle_fail(p, at, "SETITEM without a key and a value");
		for (size_t i = p->depth - 2; i < p->depth; i++)
			if (p->values[p->stack[i]].kind == RLI_PK_MARK)
				return rli_pickle_fail(p, at, "a MARK where SETITEM needs a key or a value");
		return set_items(p, at, p->depth - 2);
	case OP_SETITEMS:
		if ((error = find_mark(p, at, &mark)) < 0)
			return error;
		memmove(p->stack + mark, p->stack + mark + 1, (p->depth - mark - 1) * sizeof(*p->stack));
		p->depth--;
		return set_items(p, at, mark);
	case OP_BINPUT:
	case OP_LONG_BINPUT: {
		size_t n = op == OP_BINPUT ? 1 : 4;
		if ((error = need(p, at, n)) < 0)
			return error;
		p->pos += n;
		return memo_put(p, at, (size_t)little(p->data + p->pos - n, n));
	}
	case OP_MEMOIZE:
		return memo_put(p, at, p->memo_count);
	case OP_BINGET:
	case OP_LONG_BINGET: {
		size_t n = op == OP_BINGET ? 1 : 4;
		if ((error = need(p, at, n)) < 0)
			return error;
		p->pos += n;
		return memo_get(p, at, (size_t)little(p->data + p->pos - n, n));
	}
	case OP_BINPERSID:
		return rli_pickle_persid(p, at);
	case OP_REDUCE:
		return rli_pickle_reduce(p, at);
	default:
		if (refused_name(op))
			return rli_pickle_fail(p, at, "pickle opcode %s (0x%02x), which torch.save does not write for a tensor: "
				    "refused, nothing in the file was run", refused_name(op), op);
		return rli_pickle_fail(p, at, "byte 0x%02x is no pickle opcode a tensor's pickle holds", op);
	}
}

int rli_pickle_load(rli_pickle *p, uint32_t *root)
{
	int stop = 0, error;
	size_t start = p->pos;
	p->depth = 0;
	/* Each pickle of a stream has a memo of its own. */
	p->memo_count = 0;
	if (p->memo)
		memset(p->memo, 0, p->memo_capacity * sizeof(*p->memo));
	while (!stop) {
		size_t at = p->pos;
		if (p->pos >= p->size)
			return rli_pickle_fail(p, at, p->pos == start ? "no pickle: the bytes end here"
							   : "the pickle ends before its STOP (it is truncated)");
		if ((error = step(p, p->data[p->pos++], at, &stop)) < 0)
			return error;
	}
	if (p->depth != 1 || p->values[p->stack[0]].kind == RLI_PK_MARK)
		return rli_pickle_fail(p, p->pos - 1, "the pickle stops with %zu values on its stack, not the one object it saves",
			    p->depth);
	*root = p->stack[0];
	return 0;
}

const char *rli_pickle_kind_name(const rli_pk_value *value)
{
	static const char *const names[] = { "None", "bool", "int", "float", "str", "tuple", "list", "dict",
					     "global", "storage", "tensor", "mark" };
	return value->kind < sizeof(names) / sizeof(names[0]) ? names[value->kind] : "object";
}

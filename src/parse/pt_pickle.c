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
#define MAX_GLOBAL_NAME 128

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

/* The storage types, by the name after "torch." (gmm.md §2.3). */
static const char *const storage_names[RLI_PT_DTYPES] = {
	"LongStorage", "IntStorage", "ShortStorage", "CharStorage", "ByteStorage",
	"BoolStorage", "DoubleStorage", "FloatStorage", "HalfStorage", "BFloat16Storage",
};

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
static int fail(rli_pickle *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(rli_pickle *p, size_t at, const char *fmt, ...)
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
		return fail(p, at, "the pickle makes more than %d objects, far more than a tensor's", MAX_VALUES);
	if (grow((void **)&p->values, &p->value_capacity, p->value_count + 1, sizeof(*p->values)) < 0)
		return -2;
	memset(&p->values[p->value_count], 0, sizeof(*p->values));
	p->values[p->value_count].kind = kind;
	p->values[p->value_count].head = p->values[p->value_count].tail = RLI_PK_NO_LINK;
	*id = (uint32_t)p->value_count++;
	return 0;
}

static int push(rli_pickle *p, size_t at, uint32_t id)
{
	if (p->depth >= MAX_DEPTH)
		return fail(p, at, "the pickle's stack grows past %d values, far past a tensor's", MAX_DEPTH);
	if (grow((void **)&p->stack, &p->stack_capacity, p->depth + 1, sizeof(*p->stack)) < 0)
		return -2;
	p->stack[p->depth++] = id;
	return 0;
}

static int push_new(rli_pickle *p, size_t at, uint8_t kind, uint32_t *id)
{
	int error = new_value(p, at, kind, id);
	return error < 0 ? error : push(p, at, *id);
}

/* Pops a value that is not a MARK. */
static int pop(rli_pickle *p, size_t at, uint32_t *id)
{
	if (p->depth == 0 || p->values[p->stack[p->depth - 1]].kind == RLI_PK_MARK)
		return fail(p, at, "the opcode needs a value and the pickle's stack has none");
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
	return fail(p, at, "the opcode needs a MARK and the pickle's stack has none");
}

/* Appends value to a tuple or list's chain. */
static int link_item(rli_pickle *p, size_t at, uint32_t container, uint32_t value)
{
	rli_pk_value *c;
	if (p->link_count >= MAX_LINKS)
		return fail(p, at, "the pickle's containers hold more than %d items, far more than a tensor's", MAX_LINKS);
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
		return fail(p, at, "the opcode needs %zu values and the pickle's stack has %zu", n, p->depth);
	from = p->depth - n;
	for (size_t i = from; i < p->depth; i++)
		if (p->values[p->stack[i]].kind == RLI_PK_MARK)
			return fail(p, at, "a MARK where the opcode needs a value");
	if ((error = new_value(p, at, RLI_PK_TUPLE, &id)) < 0)
		return error;
	for (size_t i = from; i < p->depth; i++)
		if ((error = link_item(p, at, id, p->stack[i])) < 0)
			return error;
	p->depth = from;
	return push(p, at, id);
}

/* ---- reading the operands ------------------------------------------------------------ */

static int need(rli_pickle *p, size_t at, size_t n)
{
	if (p->size - p->pos < n)
		return fail(p, at, "the pickle ends inside an opcode's operand (it is truncated)");
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
	int error = push_new(p, at, RLI_PK_INT, &id);
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
		return fail(p, at, "an integer of %zu bytes, larger than any a tensor's pickle holds", n);
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
	if ((error = need(p, at, length)) < 0 || (error = push_new(p, at, RLI_PK_TEXT, &id)) < 0)
		return error;
	p->values[id].text_at = p->pos;
	p->values[id].text_length = length;
	p->pos += length;
	return 0;
}

static int text_is(const rli_pickle *p, const rli_pk_value *v, const char *text)
{
	return v->kind == RLI_PK_TEXT && v->text_length == strlen(text) &&
	       memcmp(p->data + v->text_at, text, v->text_length) == 0;
}

/* One line of a GLOBAL's operand ("module\n" or "name\n"), its length in *length. */
static int global_line(rli_pickle *p, size_t at, const char **line, size_t *length)
{
	const unsigned char *start = p->data + p->pos;
	const unsigned char *end = memchr(start, '\n', p->size - p->pos);
	if (!end)
		return fail(p, at, "the pickle ends inside a GLOBAL's name (it is truncated)");
	if ((size_t)(end - start) > MAX_GLOBAL_NAME)
		return fail(p, at, "a GLOBAL whose name is longer than %d bytes: no global a tensor's pickle names",
			    MAX_GLOBAL_NAME);
	*line = (const char *)start;
	*length = (size_t)(end - start);
	p->pos += *length + 1;
	return 0;
}

/* The name as text a message may show: bytes that are not printable ASCII as \xNN. */
static void printable(char *out, size_t size, const char *text, size_t length)
{
	size_t used = 0;
	for (size_t i = 0; i < length && used + 5 < size; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c >= 0x20 && c < 0x7f)
			out[used++] = (char)c;
		else
			used += (size_t)snprintf(out + used, size - used, "\\x%02x", c);
	}
	out[used] = '\0';
}

static int equals(const char *text, size_t length, const char *name)
{
	return strlen(name) == length && memcmp(text, name, length) == 0;
}

/* GLOBAL: only the allowed names make a value; any other is refused by name, nothing imported. */
static int read_global(rli_pickle *p, size_t at)
{
	const char *module = NULL, *name = NULL;
	size_t module_length = 0, name_length = 0;
	char shown_module[4 * MAX_GLOBAL_NAME + 8], shown_name[4 * MAX_GLOBAL_NAME + 8];
	int global = -1, dtype = 0, error;
	uint32_t id = 0;

	if ((error = global_line(p, at, &module, &module_length)) < 0 ||
	    (error = global_line(p, at, &name, &name_length)) < 0)
		return error;
	if (equals(module, module_length, "torch._utils")) {
		if (equals(name, name_length, "_rebuild_tensor_v2"))
			global = RLI_PK_G_REBUILD_V2;
		else if (equals(name, name_length, "_rebuild_tensor"))
			global = RLI_PK_G_REBUILD;
		else if (equals(name, name_length, "_rebuild_parameter"))
			global = RLI_PK_G_PARAMETER;
	} else if (equals(module, module_length, "collections") && equals(name, name_length, "OrderedDict")) {
		global = RLI_PK_G_ORDERED_DICT;
	} else if (equals(module, module_length, "torch")) {
		for (int t = 0; t < RLI_PT_DTYPES && global < 0; t++)
			if (equals(name, name_length, storage_names[t])) {
				global = RLI_PK_G_STORAGE;
				dtype = t;
			}
	}
	if (global < 0) {
		printable(shown_module, sizeof(shown_module), module, module_length);
		printable(shown_name, sizeof(shown_name), name, name_length);
		return fail(p, at, "the pickle names the global %s.%s, which no tensor saved by torch.save names (only "
			    "torch._utils._rebuild_tensor_v2, torch's storage types and collections.OrderedDict): "
			    "refused, nothing in the file was run", shown_module, shown_name);
	}
	if ((error = push_new(p, at, RLI_PK_GLOBAL, &id)) < 0)
		return error;
	p->values[id].global = (uint8_t)global;
	p->values[id].dtype = (uint8_t)dtype;
	return 0;
}

/* ---- the persistent id and the calls -------------------------------------------------- */

/* BINPERSID: ('storage', torch.<Type>Storage, key, location, numel[, None]) becomes the storage. */
static int read_persid(rli_pickle *p, size_t at)
{
	uint32_t pid = 0, id = 0;
	const rli_pk_value *t, *type, *key, *location, *numel;
	rli_pk_value made;
	uint32_t want = p->legacy ? 6 : 5;
	int error;
	if ((error = pop(p, at, &pid)) < 0)
		return error;
	t = &p->values[pid];
	if (t->kind != RLI_PK_TUPLE || t->count != want || !text_is(p, rli_pickle_item(p, t, 0), "storage"))
		return fail(p, at, "a persistent id that is not the ('storage', type, key, location, size%s) torch.save "
			    "writes", p->legacy ? ", view" : "");
	type = rli_pickle_item(p, t, 1);
	key = rli_pickle_item(p, t, 2);
	location = rli_pickle_item(p, t, 3);
	numel = rli_pickle_item(p, t, 4);
	if (type->kind != RLI_PK_GLOBAL || type->global != RLI_PK_G_STORAGE)
		return fail(p, at, "a storage whose type is not one of torch's storage types");
	if (key->kind != RLI_PK_TEXT || key->text_length == 0 || key->text_length > 64 || location->kind != RLI_PK_TEXT)
		return fail(p, at, "a storage whose key or location is not a short text");
	if (numel->kind != RLI_PK_INT || numel->integer < 0)
		return fail(p, at, "a storage whose size is not a count of elements");
	if (p->legacy && rli_pickle_item(p, t, 5)->kind != RLI_PK_NONE)
		return fail(p, at, "a storage that is a view of another (the format of torch before 0.4): not read");
	/* Copied first: a new value may move the array the pointers point into. */
	made = (rli_pk_value){ .kind = RLI_PK_STORAGE, .dtype = type->dtype, .text_at = key->text_at,
			       .text_length = key->text_length, .integer = numel->integer,
			       .head = RLI_PK_NO_LINK, .tail = RLI_PK_NO_LINK };
	if ((error = push_new(p, at, RLI_PK_STORAGE, &id)) < 0)
		return error;
	p->values[id] = made;
	return 0;
}

/* A tuple of integers (a size or a stride): at most RLI_PT_MAX_DIMS of them, none negative. */
static int dims(const rli_pickle *p, const rli_pk_value *v)
{
	if (v->kind != RLI_PK_TUPLE || v->count > RLI_PT_MAX_DIMS)
		return 0;
	for (uint32_t i = 0; i < v->count; i++) {
		const rli_pk_value *d = rli_pickle_item(p, v, i);
		if (d->kind != RLI_PK_INT || d->integer < 0)
			return 0;
	}
	return 1;
}

/* _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata]) or _rebuild_tensor's first four. */
static int rebuild(rli_pickle *p, size_t at, const rli_pk_value *args, int v2)
{
	uint32_t id = 0;
	const rli_pk_value *storage, *offset, *size, *stride;
	rli_pk_value made;
	int error;
	if (v2 ? args->count != 6 && args->count != 7 : args->count != 4)
		return fail(p, at, "the tensor is rebuilt from %u arguments, not the %s torch.save writes", args->count,
			    v2 ? "6 (or 7)" : "4");
	storage = rli_pickle_item(p, args, 0);
	offset = rli_pickle_item(p, args, 1);
	size = rli_pickle_item(p, args, 2);
	stride = rli_pickle_item(p, args, 3);
	if (storage->kind != RLI_PK_STORAGE)
		return fail(p, at, "the tensor is rebuilt from something that is not a storage");
	if (offset->kind != RLI_PK_INT || offset->integer < 0)
		return fail(p, at, "the tensor's storage offset is not a count of elements");
	if (!dims(p, size) || !dims(p, stride) || size->count != stride->count)
		return fail(p, at, "the tensor's size and stride are not two tuples of at most %d counts, as long as "
			    "each other", RLI_PT_MAX_DIMS);
	if (v2 && (rli_pickle_item(p, args, 4)->kind != RLI_PK_BOOL || rli_pickle_item(p, args, 5)->kind != RLI_PK_DICT ||
		   (args->count == 7 && rli_pickle_item(p, args, 6)->kind != RLI_PK_DICT)))
		return fail(p, at, "the tensor's requires_grad, backward hooks or metadata are not what torch.save writes");
	/* By id, worked out first: a new value may move the array that storage and the tuples live in. */
	made = (rli_pk_value){ .kind = RLI_PK_TENSOR, .storage = (uint32_t)(storage - p->values),
			       .size = (uint32_t)(size - p->values), .stride = (uint32_t)(stride - p->values),
			       .integer = offset->integer, .head = RLI_PK_NO_LINK, .tail = RLI_PK_NO_LINK };
	if ((error = push_new(p, at, RLI_PK_TENSOR, &id)) < 0)
		return error;
	p->values[id] = made;
	return 0;
}

/* REDUCE: only the allowed callables, each checked for the arguments torch.save gives it. */
static int reduce(rli_pickle *p, size_t at)
{
	uint32_t args_id = 0, callable_id = 0, id = 0;
	const rli_pk_value *args, *callable;
	int error;
	if ((error = pop(p, at, &args_id)) < 0 || (error = pop(p, at, &callable_id)) < 0)
		return error;
	args = &p->values[args_id];
	callable = &p->values[callable_id];
	if (callable->kind != RLI_PK_GLOBAL || callable->global == RLI_PK_G_STORAGE)
		return fail(p, at, "REDUCE calls something other than torch's tensor rebuilders or OrderedDict: refused");
	if (args->kind != RLI_PK_TUPLE)
		return fail(p, at, "REDUCE's arguments are not a tuple");
	switch (callable->global) {
	case RLI_PK_G_ORDERED_DICT:
		if (args->count != 0)
			return fail(p, at, "OrderedDict is called with arguments; torch.save calls it with none");
		return push_new(p, at, RLI_PK_DICT, &id);
	case RLI_PK_G_PARAMETER:
		/* _rebuild_parameter(data, requires_grad, backward_hooks): the data is the tensor. */
		if (args->count != 3 || rli_pickle_item(p, args, 0)->kind != RLI_PK_TENSOR ||
		    rli_pickle_item(p, args, 1)->kind != RLI_PK_BOOL || rli_pickle_item(p, args, 2)->kind != RLI_PK_DICT)
			return fail(p, at, "a Parameter rebuilt from arguments other than (tensor, requires_grad, hooks)");
		return push(p, at, p->links[args->head].value);
	default:
		return rebuild(p, at, args, callable->global == RLI_PK_G_REBUILD_V2);
	}
}

/* ---- memo, containers -------------------------------------------------------------- */

static int memo_put(rli_pickle *p, size_t at, size_t index)
{
	if (p->depth == 0 || p->values[p->stack[p->depth - 1]].kind == RLI_PK_MARK)
		return fail(p, at, "a memo store with no value on the pickle's stack");
	if (index >= MAX_MEMO)
		return fail(p, at, "memo index %zu, far past what a tensor's pickle uses", index);
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
		return fail(p, at, "memo index %zu was never stored", index);
	return push(p, at, p->memo[index] - 1);
}

/* APPEND, APPENDS: items onto the list below them. */
static int append_items(rli_pickle *p, size_t at, size_t from)
{
	uint32_t list;
	int error;
	if (from == 0 || p->values[p->stack[from - 1]].kind != RLI_PK_LIST)
		return fail(p, at, "APPEND onto something that is not a list");
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
		return fail(p, at, "SETITEM onto something that is not a dict, or without a value for a key");
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
			return fail(p, at, "pickle protocol %d; torch.save writes protocol 2", p->data[p->pos]);
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
		return push_new(p, at, RLI_PK_MARK, &id);
	case OP_NONE:
		return push_new(p, at, RLI_PK_NONE, &id);
	case OP_NEWTRUE:
	case OP_NEWFALSE:
		if ((error = push_new(p, at, RLI_PK_BOOL, &id)) == 0)
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
		if ((error = need(p, at, 8)) < 0 || (error = push_new(p, at, RLI_PK_FLOAT, &id)) < 0)
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
		return read_global(p, at);
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
		return push_new(p, at, RLI_PK_LIST, &id);
	case OP_EMPTY_DICT:
		return push_new(p, at, RLI_PK_DICT, &id);
	case OP_APPEND:
		if (p->depth == 0 || p->values[p->stack[p->depth - 1]].kind == RLI_PK_MARK)
			return fail(p, at, "APPEND without a value");
		return append_items(p, at, p->depth - 1);
	case OP_APPENDS:
		if ((error = find_mark(p, at, &mark)) < 0)
			return error;
		memmove(p->stack + mark, p->stack + mark + 1, (p->depth - mark - 1) * sizeof(*p->stack));
		p->depth--;
		return append_items(p, at, mark);
	case OP_SETITEM:
		if (p->depth < 2)
			return fail(p, at, "SETITEM without a key and a value");
		for (size_t i = p->depth - 2; i < p->depth; i++)
			if (p->values[p->stack[i]].kind == RLI_PK_MARK)
				return fail(p, at, "a MARK where SETITEM needs a key or a value");
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
		return read_persid(p, at);
	case OP_REDUCE:
		return reduce(p, at);
	default:
		if (refused_name(op))
			return fail(p, at, "pickle opcode %s (0x%02x), which torch.save does not write for a tensor: "
				    "refused, nothing in the file was run", refused_name(op), op);
		return fail(p, at, "byte 0x%02x is no pickle opcode a tensor's pickle holds", op);
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
			return fail(p, at, p->pos == start ? "no pickle: the bytes end here"
							   : "the pickle ends before its STOP (it is truncated)");
		if ((error = step(p, p->data[p->pos++], at, &stop)) < 0)
			return error;
	}
	if (p->depth != 1 || p->values[p->stack[0]].kind == RLI_PK_MARK)
		return fail(p, p->pos - 1, "the pickle stops with %zu values on its stack, not the one object it saves",
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

/* pt_pickle_torch.c: what a tensor's pickle needs beyond data: the globals allowed by name, the storage's persistent id, the rebuild calls. */
#include "pt_pickle.h"

#include <stdio.h>
#include <string.h>

/* The longest module or name of a GLOBAL read: torch's are under 40 bytes. */
#define MAX_GLOBAL_NAME 128

/* The storage types, by the name after "torch." (gmm.md §2.3). */
static const char *const storage_names[RLI_PT_DTYPES] = {
	"LongStorage", "IntStorage", "ShortStorage", "CharStorage", "ByteStorage",
	"BoolStorage", "DoubleStorage", "FloatStorage", "HalfStorage", "BFloat16Storage",
};

/* One line of a GLOBAL's operand ("module\n" or "name\n"), its length in *length. */
static int global_line(rli_pickle *p, size_t at, const char **line, size_t *length)
{
	const unsigned char *start = p->data + p->pos;
	const unsigned char *end = memchr(start, '\n', p->size - p->pos);
	if (!end)
		return rli_pickle_fail(p, at, "the pickle ends inside a GLOBAL's name (it is truncated)");
	if ((size_t)(end - start) > MAX_GLOBAL_NAME)
		return rli_pickle_fail(p, at, "a GLOBAL whose name is longer than %d bytes: no global a tensor's pickle names",
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
int rli_pickle_global(rli_pickle *p, size_t at)
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
		return rli_pickle_fail(p, at, "the pickle names the global %s.%s, which no tensor saved by torch.save names (only "
			    "torch._utils._rebuild_tensor_v2, torch's storage types and collections.OrderedDict): "
			    "refused, nothing in the file was run", shown_module, shown_name);
	}
	if ((error = rli_pickle_push_new(p, at, RLI_PK_GLOBAL, &id)) < 0)
		return error;
	p->values[id].global = (uint8_t)global;
	p->values[id].dtype = (uint8_t)dtype;
	return 0;
}

/* ---- the persistent id and the calls -------------------------------------------------- */

/* BINPERSID: ('storage', torch.<Type>Storage, key, location, numel[, None]) becomes the storage. */
int rli_pickle_persid(rli_pickle *p, size_t at)
{
	uint32_t pid = 0, id = 0;
	const rli_pk_value *t, *type, *key, *location, *numel;
	rli_pk_value made;
	uint32_t want = p->legacy ? 6 : 5;
	int error;
	if ((error = rli_pickle_pop(p, at, &pid)) < 0)
		return error;
	t = &p->values[pid];
	if (t->kind != RLI_PK_TUPLE || t->count != want || !rli_pickle_text_is(p, rli_pickle_item(p, t, 0), "storage"))
		return rli_pickle_fail(p, at, "a persistent id that is not the ('storage', type, key, location, size%s) torch.save "
			    "writes", p->legacy ? ", view" : "");
	type = rli_pickle_item(p, t, 1);
	key = rli_pickle_item(p, t, 2);
	location = rli_pickle_item(p, t, 3);
	numel = rli_pickle_item(p, t, 4);
	if (type->kind != RLI_PK_GLOBAL || type->global != RLI_PK_G_STORAGE)
		return rli_pickle_fail(p, at, "a storage whose type is not one of torch's storage types");
	if (key->kind != RLI_PK_TEXT || key->text_length == 0 || key->text_length > 64 || location->kind != RLI_PK_TEXT)
		return rli_pickle_fail(p, at, "a storage whose key or location is not a short text");
	if (numel->kind != RLI_PK_INT || numel->integer < 0)
		return rli_pickle_fail(p, at, "a storage whose size is not a count of elements");
	if (p->legacy && rli_pickle_item(p, t, 5)->kind != RLI_PK_NONE)
		return rli_pickle_fail(p, at, "a storage that is a view of another (the format of torch before 0.4): not read");
	/* Copied first: a new value may move the array the pointers point into. */
	made = (rli_pk_value){ .kind = RLI_PK_STORAGE, .dtype = type->dtype, .text_at = key->text_at,
			       .text_length = key->text_length, .integer = numel->integer,
			       .head = RLI_PK_NO_LINK, .tail = RLI_PK_NO_LINK };
	if ((error = rli_pickle_push_new(p, at, RLI_PK_STORAGE, &id)) < 0)
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
		return rli_pickle_fail(p, at, "the tensor is rebuilt from %u arguments, not the %s torch.save writes", args->count,
			    v2 ? "6 (or 7)" : "4");
	storage = rli_pickle_item(p, args, 0);
	offset = rli_pickle_item(p, args, 1);
	size = rli_pickle_item(p, args, 2);
	stride = rli_pickle_item(p, args, 3);
	if (storage->kind != RLI_PK_STORAGE)
		return rli_pickle_fail(p, at, "the tensor is rebuilt from something that is not a storage");
	if (offset->kind != RLI_PK_INT || offset->integer < 0)
		return rli_pickle_fail(p, at, "the tensor's storage offset is not a count of elements");
	if (!dims(p, size) || !dims(p, stride) || size->count != stride->count)
		return rli_pickle_fail(p, at, "the tensor's size and stride are not two tuples of at most %d counts, as long as "
			    "each other", RLI_PT_MAX_DIMS);
	if (v2 && (rli_pickle_item(p, args, 4)->kind != RLI_PK_BOOL || rli_pickle_item(p, args, 5)->kind != RLI_PK_DICT ||
		   (args->count == 7 && rli_pickle_item(p, args, 6)->kind != RLI_PK_DICT)))
		return rli_pickle_fail(p, at, "the tensor's requires_grad, backward hooks or metadata are not what torch.save writes");
	/* By id, worked out first: a new value may move the array that storage and the tuples live in. */
	made = (rli_pk_value){ .kind = RLI_PK_TENSOR, .storage = (uint32_t)(storage - p->values),
			       .size = (uint32_t)(size - p->values), .stride = (uint32_t)(stride - p->values),
			       .integer = offset->integer, .head = RLI_PK_NO_LINK, .tail = RLI_PK_NO_LINK };
	if ((error = rli_pickle_push_new(p, at, RLI_PK_TENSOR, &id)) < 0)
		return error;
	p->values[id] = made;
	return 0;
}

/* REDUCE: only the allowed callables, each checked for the arguments torch.save gives it. */
int rli_pickle_reduce(rli_pickle *p, size_t at)
{
	uint32_t args_id = 0, callable_id = 0, id = 0;
	const rli_pk_value *args, *callable;
	int error;
	if ((error = rli_pickle_pop(p, at, &args_id)) < 0 || (error = rli_pickle_pop(p, at, &callable_id)) < 0)
		return error;
	args = &p->values[args_id];
	callable = &p->values[callable_id];
	if (callable->kind != RLI_PK_GLOBAL || callable->global == RLI_PK_G_STORAGE)
		return rli_pickle_fail(p, at, "REDUCE calls something other than torch's tensor rebuilders or OrderedDict: refused");
	if (args->kind != RLI_PK_TUPLE)
		return rli_pickle_fail(p, at, "REDUCE's arguments are not a tuple");
	switch (callable->global) {
	case RLI_PK_G_ORDERED_DICT:
		if (args->count != 0)
			return rli_pickle_fail(p, at, "OrderedDict is called with arguments; torch.save calls it with none");
		return rli_pickle_push_new(p, at, RLI_PK_DICT, &id);
	case RLI_PK_G_PARAMETER:
		/* _rebuild_parameter(data, requires_grad, backward_hooks): the data is the tensor. */
		if (args->count != 3 || rli_pickle_item(p, args, 0)->kind != RLI_PK_TENSOR ||
		    rli_pickle_item(p, args, 1)->kind != RLI_PK_BOOL || rli_pickle_item(p, args, 2)->kind != RLI_PK_DICT)
			return rli_pickle_fail(p, at, "a Parameter rebuilt from arguments other than (tensor, requires_grad, hooks)");
		return rli_pickle_push(p, at, p->links[args->head].value);
	default:
		return rebuild(p, at, args, callable->global == RLI_PK_G_REBUILD_V2);
	}
}

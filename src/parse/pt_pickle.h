/* pt_pickle.h: a reader of the pickles torch.save writes for a tensor: data only, a fixed set of globals, nothing executed. */
#ifndef RLI_PARSE_PT_PICKLE_H
#define RLI_PARSE_PT_PICKLE_H

#include "pt_read.h"

#include <stddef.h>
#include <stdint.h>

/* What a value is. */
typedef enum {
	RLI_PK_NONE = 0,
	RLI_PK_BOOL,    /* integer 0 or 1 */
	RLI_PK_INT,     /* integer */
	RLI_PK_FLOAT,   /* real */
	RLI_PK_TEXT,    /* text_at, text_length: bytes of the pickle (BINUNICODE, SHORT_BINSTRING) */
	RLI_PK_TUPLE,   /* count items, head..: in the links */
	RLI_PK_LIST,
	RLI_PK_DICT,    /* count pairs; what they hold is checked to be data and not kept */
	RLI_PK_GLOBAL,  /* global: one of the allowed (RLI_PK_G_*) */
	RLI_PK_STORAGE, /* a persistent id ('storage', type, key, location, numel[, view]): dtype, key in text_*, numel in integer */
	RLI_PK_TENSOR,  /* _rebuild_tensor(_v2) called: storage, offset (integer), size and stride (tuples) */
	RLI_PK_MARK     /* on the stack only */
} rli_pk_kind;

/* The globals a tensor's pickle may name (gmm.md §2.4); any other is refused. */
enum {
	RLI_PK_G_REBUILD_V2 = 0, /* torch._utils._rebuild_tensor_v2 */
	RLI_PK_G_REBUILD,        /* torch._utils._rebuild_tensor */
	RLI_PK_G_PARAMETER,      /* torch._utils._rebuild_parameter: unwrapped to its tensor */
	RLI_PK_G_ORDERED_DICT,   /* collections.OrderedDict, called with no argument */
	RLI_PK_G_STORAGE         /* torch.<Type>Storage: dtype says which */
};

#define RLI_PK_NO_LINK UINT32_MAX

typedef struct {
	uint8_t kind, global, dtype;
	uint32_t count;          /* containers: items (a dict: pairs) */
	uint32_t head, tail;     /* tuples, lists: the first and last link */
	int64_t integer;
	double real;
	size_t text_at, text_length;
	uint32_t storage, size, stride; /* RLI_PK_TENSOR: value ids */
} rli_pk_value;

typedef struct {
	uint32_t value, next;
} rli_pk_link;

typedef struct {
	const unsigned char *data;
	size_t size, pos;    /* pos: the next byte; after a load, the byte after STOP */
	size_t base;         /* where data starts in what messages count bytes of */
	const char *where;   /* "data.pkl", or the file for the legacy stream's pickles */
	int legacy;          /* persistent ids have a sixth item, the view (None) */
	rli_pk_value *values;
	size_t value_count, value_capacity;
	rli_pk_link *links;
	size_t link_count, link_capacity;
	uint32_t *stack;
	size_t depth, stack_capacity;
	uint32_t *memo;      /* value id + 1 by memo index; 0 unset */
	size_t memo_capacity, memo_count;
	char *why;
	size_t why_size;
} rli_pickle;

/*
 * Over size bytes at data (which must outlive the reader); where names them in messages, base
 * is their offset there. Failures are written into why (why_size bytes).
 */
void rli_pickle_init(rli_pickle *p, const unsigned char *data, size_t size, const char *where, size_t base,
		     int legacy, char *why, size_t why_size);
void rli_pickle_dispose(rli_pickle *p);

/*
 * Reads one pickle from p->pos up to its STOP: *root is the value it makes. 0; -1 with why
 * saying what and where (an opcode or a global a tensor's pickle never holds, a truncated
 * pickle, a value of the wrong kind); -2 out of memory. Values of earlier loads stay valid.
 */
int rli_pickle_load(rli_pickle *p, uint32_t *root);

/* Item i (< count) of a tuple or list. */
const rli_pk_value *rli_pickle_item(const rli_pickle *p, const rli_pk_value *container, uint32_t i);

/* ---- the reader's steps, shared by pt_pickle.c (data) and pt_pickle_torch.c (torch's globals and calls) ---- */

/* "<where>, byte N: <what>" into p->why (at: the opcode's offset in the bytes read); returns -1. */
int rli_pickle_fail(rli_pickle *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Pushes value id; a new value of kind (its id in *id) pushed. 0, -1 (past a bound, said) or -2. */
int rli_pickle_push(rli_pickle *p, size_t at, uint32_t id);
int rli_pickle_push_new(rli_pickle *p, size_t at, uint8_t kind, uint32_t *id);
/* Pops a value that is not a MARK into *id. 0 or -1 (said). */
int rli_pickle_pop(rli_pickle *p, size_t at, uint32_t *id);
/* v is the text `text`. */
int rli_pickle_text_is(const rli_pickle *p, const rli_pk_value *v, const char *text);
/* GLOBAL, BINPERSID and REDUCE at byte at (the operands follow p->pos). 0, -1 (refused, said) or -2. */
int rli_pickle_global(rli_pickle *p, size_t at);
int rli_pickle_persid(rli_pickle *p, size_t at);
int rli_pickle_reduce(rli_pickle *p, size_t at);

/* A top-level value's kind as Python names it ("list", "dict", "int", ...), for "not a tensor" messages. */
const char *rli_pickle_kind_name(const rli_pk_value *value);

#endif

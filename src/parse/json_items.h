/* json_items.h: a JSON array of items read by a fast scanner that gives yajl's callbacks yajl's calls, yajl reading what it declines. */
#ifndef RLI_PARSE_JSON_ITEMS_H
#define RLI_PARSE_JSON_ITEMS_H

#include "json_stream.h"

#include <stdint.h>

/*
 * A trace_view.json is one array of small flat objects. yajl reads it through a state machine
 * and a callback per token at about 450 MB/s; this reader finds the same tokens at several times
 * that, records an item's tokens, and only when the whole item read cleanly replays them into
 * the same callbacks, in yajl's order, with yajl's text (escapes undone). An item it does not
 * take (a \u escape, bytes that are no UTF-8, a nesting past 64 levels) goes to the callbacks'
 * own yajl handle instead, so callbacks never see half an item. Anything it cannot place at the
 * array's level, and every syntax error, is RLI_ITEMS_DECLINED: the caller reads the file again
 * with yajl alone (rli_json_read), which words the error and places it.
 */
#define RLI_ITEMS_DECLINED (-1)

/*
 * Where reading starts: before the array (a whole file), at an item inside it (a chunk), or just
 * after the "[" of an array that is a member's value, every byte before it already given to yajl
 * (a PyTorch trace's traceEvents): the reading then ends at the array's "]", which it gives yajl,
 * and rli_items_rest holds the bytes after it for the caller's yajl.
 */
enum { RLI_ITEMS_AT_START = 0, RLI_ITEMS_AT_ITEM, RLI_ITEMS_IN_MEMBER };

/* Bytes for the reader: fills into[0..room) with *got bytes (0 at the end). 0, or -1 on failure. */
typedef int (*rli_items_fill_fn)(void *src, unsigned char *into, size_t room, size_t *got);

typedef struct rli_items_reader rli_items_reader;

/*
 * A reader feeding callbacks(ctx), whose rli_json is json (opened on the same callbacks and ctx;
 * the callbacks keep its depth). Every callback must take yajl_number, not integer/double. Bytes
 * come from fill(src) and start at file offset `offset`. NULL when out of memory.
 */
rli_items_reader *rli_items_new(rli_json *json, const yajl_callbacks *callbacks, void *ctx, rli_items_fill_fn fill,
				void *src, uint64_t offset, int at);
void rli_items_free(rli_items_reader *reader);

/*
 * Reads items until the array ends (then whitespace, then the bytes' end) or until an item would
 * start at or past stop_at (UINT64_MAX: no stop); there *stopped is that item's offset.
 * Returns RLI_READ_OK, RLI_READ_EMPTY (no bytes but blanks), RLI_READ_HALTED (a callback halted:
 * rli_json_halt), RLI_READ_OOM, RLI_READ_FAILED (fill failed), or RLI_ITEMS_DECLINED.
 */
int rli_items_read(rli_items_reader *reader, uint64_t stop_at, uint64_t *stopped);
/* After an RLI_ITEMS_IN_MEMBER reading: the bytes read after the array's "]", not yet given to anyone. */
void rli_items_rest(const rli_items_reader *reader, const unsigned char **data, size_t *length);
/* Items read so far, and how many of them went to yajl. */
uint64_t rli_items_count(const rli_items_reader *reader);
uint64_t rli_items_declined(const rli_items_reader *reader);

/* Bytes from a byte source for a reader (rli_items_fill_fn): first data[0..length), the rest of a chunk already taken. */
typedef struct {
	rli_bytes *source;
	const unsigned char *data;
	size_t length;
	int failed; /* the source failed: its failure is met again by yajl's reading */
} rli_items_source;
int rli_items_fill_from_source(void *src, unsigned char *into, size_t room, size_t *got);

/*
 * The whole of source through json's callbacks as rli_json_read would read it: RLI_READ_* as
 * rli_json_read gives them, or RLI_ITEMS_DECLINED (callbacks have seen part of it: start over).
 * RLI_READ_FAILED carries the source's failure in *failure.
 */
int rli_json_items_read(rli_json *json, const yajl_callbacks *callbacks, void *ctx, rli_bytes *source,
			char **failure);

/*
 * How a format reading items is to read, for tests and fuzzers that compare the readings:
 * RLI_JSON_READ_AUTO as the size and threads say, RLI_JSON_READ_YAJL yajl alone,
 * RLI_JSON_READ_SCAN the scanner on this thread, or any n >= 2: in n chunks whatever the size.
 */
enum { RLI_JSON_READ_YAJL = -1, RLI_JSON_READ_AUTO = 0, RLI_JSON_READ_SCAN = 1 };

/* Set RLI_JSON_SCAN=0 and every reader declines at once: the yajl reading, for tests and comparisons. */
int rli_json_scan_enabled(void);

#endif

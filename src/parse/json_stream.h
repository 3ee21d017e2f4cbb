/* json_stream.h: yajl fed chunk by chunk, with nesting bounded and errors placed at line and column. */
#ifndef RLI_PARSE_JSON_STREAM_H
#define RLI_PARSE_JSON_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "byte_source.h"

/* Profiler traces nest a few levels; anything deeper is garbage, and refusing it bounds memory. */
#define RLI_JSON_MAX_DEPTH 512
/*
 * The longest single value (a string, a numeral) a trace may hold. yajl keeps a value that spans
 * reads in one buffer and rescans it from its start on every read, so a value this long costs
 * time and memory no profile needs: the longest call stacks seen are a few hundred KiB.
 */
#define RLI_JSON_MAX_VALUE (16u << 20)
/* From this buffer size on, a value spanning reads is held back until it can be fed in one go. */
#define RLI_JSON_LONG_VALUE (1u << 20)

typedef struct {
	yajl_handle handle;
	uint64_t line;   /* 1-based line of the next byte fed */
	uint64_t column; /* 0-based column of the next byte fed */
	int depth;       /* maintained by rli_json_enter/leave */
	char *reason;    /* why a callback stopped the parse (no position) */
	char *message;   /* after a failure: "<reason> at line L, column C" */
	int halted;      /* a callback stopped the parse on purpose and reported why itself */
	size_t largest;  /* the largest buffer yajl asked for: past RLI_JSON_LONG_VALUE, a long value is being read */
	unsigned char *held; /* bytes not yet fed while a long value is read (see rli_json_feed) */
	size_t held_used, held_capacity;
} rli_json;

/* RLI_OK or RLI_ERROR (out of memory). line is where the text starts (1 for a file). */
int rli_json_open(rli_json *json, const yajl_callbacks *callbacks, void *ctx, uint64_t line);
void rli_json_close(rli_json *json);

/* 0, or -1 with json->message set (NULL message means out of memory). */
int rli_json_feed(rli_json *json, const unsigned char *data, size_t length);
int rli_json_finish(rli_json *json);

/* For callbacks: stop the parse with this reason; returns 0 so callbacks can `return rli_json_stop(...)`. */
int rli_json_stop(rli_json *json, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* For callbacks: count nesting; 0 (stop the parse) when too deep. Inline: every object and array calls them. */
static inline int rli_json_enter(rli_json *json)
{
	if (++json->depth > RLI_JSON_MAX_DEPTH)
		return rli_json_stop(json, "nesting deeper than %d levels", RLI_JSON_MAX_DEPTH);
	return 1;
}

static inline void rli_json_leave(rli_json *json)
{
	json->depth--;
}

/* For callbacks: stop the parse because the unit already failed for a reason recorded elsewhere. */
int rli_json_halt(rli_json *json);

/*
 * Streams the rest of source through json. On RLI_READ_FAILED, *failure is "Failed to parse
 * JSON file <name>: <why> at line L, column C", or the source's read or gzip failure (free it).
 */
rli_read_result rli_json_read(rli_json *json, rli_bytes *source, char **failure);
/* The same for the file at path (rli_bytes_open's failures too). */
rli_read_result rli_json_read_file(rli_json *json, const char *path, char **failure);

/*
 * A number as Python's float() reads a JSON number or a numeric string:
 * decimal only, surrounding blanks allowed, finite. 0 on success, -1 if not a number.
 */
int rli_text_to_double(double *out, const char *text, size_t length);

/* An integer written in decimal (JSON integer syntax) that fits int64. 0 or -1. */
static inline int rli_text_to_int64(int64_t *out, const char *text, size_t length);
/* The same for any length, through strtoll. */
int rli_text_to_int64_long(int64_t *out, const char *text, size_t length);

/* Eight ASCII digits at once (the first in the lowest byte), or -1 if any byte is no digit. */
static inline int64_t rli_eight_digits(const char *text)
{
	uint64_t block;
	memcpy(&block, text, sizeof(block));
	if (((block & 0xf0f0f0f0f0f0f0f0u) | (((block + 0x0606060606060606u) & 0xf0f0f0f0f0f0f0f0u) >> 4)) !=
	    0x3333333333333333u)
		return -1;
	block -= 0x3030303030303030u;
	block = block * 10 + (block >> 8);                    /* pairs of digits */
	block = ((block & 0x000000ff000000ffu) * 0x000f424000000064u +   /* 100, 1000000 */
		 ((block >> 16) & 0x000000ff000000ffu) * 0x0000271000000001u) >> 32; /* 1, 10000 */
	return (int64_t)block;
}

static inline int rli_text_to_int64(int64_t *out, const char *text, size_t length)
{
	/* Up to 18 digits cannot overflow: read inline, as a trace has millions of them. */
	int negative = length && text[0] == '-';
	size_t i = (size_t)negative, head;
	uint64_t digits = 0;
	if (length > 18 || length == i)
		return rli_text_to_int64_long(out, text, length);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	head = i + (length - i) % 8;
#else
	head = length;
#endif
	for (; i < head; i++) {
		unsigned digit = (unsigned)(unsigned char)text[i] - (unsigned)'0';
		if (digit > 9)
			return -1;
		digits = digits * 10 + digit;
	}
	for (; i < length; i += 8) {
		int64_t eight = rli_eight_digits(text + i);
		if (eight < 0)
			return -1;
		digits = digits * 100000000u + (uint64_t)eight;
	}
	*out = negative ? -(int64_t)digits : (int64_t)digits;
	return 0;
}

#endif

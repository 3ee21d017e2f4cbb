/* nvtx_read.c: an NVTX jsonl file's bytes, line by line: scanned where the line is plain, else read by yajl alone. */
#include "nvtx_internal.h"
#include "common/grow.h"

#include <ctype.h>
#include <stdlib.h>

typedef enum { LINE_IDLE, LINE_ACTIVE } line_state;

/* The source could not give its bytes: its message names the file and the cause. */
static void read_failure(nvtx_ctx *n, const rli_bytes *source)
{
	if (rli_bytes_failure(source))
		rli_notes_add(&n->unit->failures, RLI_LOG_ERROR, "%s", rli_bytes_failure(source));
	else
		n->oom = 1;
}

/* yajl refused the line (or a callback stopped it): the unit fails with yajl's words and place. */
static void parse_failure(nvtx_ctx *n)
{
	if (n->oom || !n->json.message)
		n->oom = 1;
	else
		rli_notes_add(&n->unit->failures, RLI_LOG_ERROR, "Failed to parse JSON file %s: %s", n->unit->path,
			      n->json.message);
}

/* A new parser for line n->line, its first byte at column: 0, or -1 when memory ran out. */
static int open_line(nvtx_ctx *n, uint64_t column)
{
	if (rli_json_open(&n->json, &rli_nvtx_callbacks, n, n->line) < 0) {
		n->oom = 1;
		return -1;
	}
	n->json.column = column;
	rli_nvtx_line_reset(n);
	return 0;
}

/*
 * One parser per non-blank line, from byte `from` (where line n->line starts) to the end of the
 * file: the reference reading, which places every error, and the one for lines too long to hold.
 * A line is fed as it comes, never held whole. 0, or -1 (failure recorded or oom).
 */
static int read_lines_alone(nvtx_ctx *n, rli_bytes *source, uint64_t from)
{
	line_state state = LINE_IDLE;
	uint64_t column = 0;
	int result = -1;

	if (rli_bytes_seek(source, from) < 0) {
		read_failure(n, source);
		goto done;
	}
	for (;;) {
		const unsigned char *buffer = NULL;
		size_t got = 0, at = 0;
		int more = rli_bytes_next(source, &buffer, &got);
		if (more < 0) {
			read_failure(n, source);
			goto done;
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
					if (open_line(n, column) < 0)
						goto done;
					state = LINE_ACTIVE;
				}
			}
			if (state == LINE_ACTIVE && at < end && rli_json_feed(&n->json, buffer + at, end - at) < 0) {
				parse_failure(n);
				goto done;
			}
			column += end - at;
			at = end;
			if (!line_ends)
				break;
			if (state == LINE_ACTIVE) {
				if (rli_json_finish(&n->json) < 0) {
					parse_failure(n);
					goto done;
				}
				rli_json_close(&n->json);
				state = LINE_IDLE;
				if (rli_nvtx_line_done(n) < 0)
					goto done;
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
done:
	if (state == LINE_ACTIVE)
		rli_json_close(&n->json);
	return result;
}

/* A whole line (no newline) the scanner declined, read by yajl as read_lines_alone reads it. 0 or -1. */
static int read_held_line(nvtx_ctx *n, const unsigned char *line, size_t length)
{
	size_t at = 0;
	int failed;
	while (at < length && isspace(line[at]))
		at++;
	if (at == length)
		return 0;
	if (open_line(n, at) < 0)
		return -1;
	failed = rli_json_feed(&n->json, line + at, length - at) < 0 || rli_json_finish(&n->json) < 0;
	if (failed)
		parse_failure(n);
	rli_json_close(&n->json);
	return failed ? -1 : rli_nvtx_line_done(n);
}

/* One whole line: scanned, or read by yajl when the scanner declines. 0, or -1 (failure recorded or oom). */
static int read_line(nvtx_ctx *n, const unsigned char *line, size_t length)
{
	switch (rli_nvtx_scan_line(n, line, length)) {
	case NVTX_SCAN_OBJECT:
		return rli_nvtx_line_done(n);
	case NVTX_SCAN_BLANK:
		return 0;
	case NVTX_SCAN_DECLINED:
		return read_held_line(n, line, length);
	default:
		n->oom = 1;
		return -1;
	}
}

/* A line's start from an earlier chunk, held until its newline comes. */
typedef struct {
	unsigned char *bytes;
	size_t used, capacity;
} held_line;

/* Appends to the held line: 0, 1 when it would pass the longest line held, -1 when memory ran out. */
static int hold(held_line *held, const unsigned char *bytes, size_t length)
{
	if (length > RLI_JSON_LONG_VALUE - held->used)
		return 1;
	if (RLI_GROW(&held->bytes, &held->capacity, held->used + length, 4096) < 0)
		return -1;
	memcpy(held->bytes + held->used, bytes, length);
	held->used += length;
	return 0;
}

/*
 * The fast reading: whole lines, each straight from the chunk (or held across a chunk's end),
 * scanned or read by yajl alone. A line longer than RLI_JSON_LONG_VALUE is not held: 1 is then
 * returned with *resume where it starts, for read_lines_alone to go on from there, feeding yajl
 * as the bytes come. 0 at the end of the file, -1 on failure.
 */
static int read_scanned(nvtx_ctx *n, rli_bytes *source, uint64_t *resume)
{
	held_line held = {NULL, 0, 0};
	uint64_t chunk_at = 0, line_at = 0;
	const unsigned char *buffer;
	size_t got;
	int more, result = -1, kept;

	while ((more = rli_bytes_next(source, &buffer, &got)) > 0) {
		size_t at = 0;
		while (at < got) {
			const unsigned char *nl = memchr(buffer + at, '\n', got - at);
			size_t end = nl ? (size_t)(nl - buffer) : got;
			if (!nl || held.used) {
				if ((kept = hold(&held, buffer + at, end - at)) != 0)
					goto not_held;
				if (!nl)
					break;
				if (read_line(n, held.bytes, held.used) < 0)
					goto done;
				held.used = 0;
			} else if (read_line(n, buffer + at, end - at) < 0) {
				goto done;
			}
			at = end + 1;
			n->line++;
			line_at = chunk_at + at;
		}
		chunk_at += got;
	}
	if (more < 0) {
		read_failure(n, source);
		goto done;
	}
	/* The last line needs no newline. */
	if (held.used && read_line(n, held.bytes, held.used) < 0)
		goto done;
	result = 0;
	goto done;
not_held:
	if (kept < 0) {
		n->oom = 1;
		goto done;
	}
	*resume = line_at;
	result = 1;
done:
	free(held.bytes);
	return result;
}

int rli_nvtx_read_lines(nvtx_ctx *n, rli_bytes *source, int scan, int *empty)
{
	uint64_t resume = 0;
	int result = 1;

	n->line = 1;
	if (scan)
		result = read_scanned(n, source, &resume);
	if (result == 1 && n->no_resume)
		return 1; /* a part of a file: its whole reading places the long line */
	if (result == 1)
		result = read_lines_alone(n, source, resume);
	if (result < 0 && n->oom)
		n->unit->status = RLI_ERROR;
	*empty = result == 0 && rli_bytes_offset(source) == 0;
	return result;
}

/* nvtx_read.c: an NVTX jsonl file's bytes, one parser for the whole file, or one per line where that cannot serve. */
#include "nvtx_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
					if (rli_json_open(&n->json, &rli_nvtx_callbacks, n, n->line) < 0)
						goto oom;
					n->json.column = column;
					rli_nvtx_line_reset(n);
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
				if (rli_nvtx_line_done(n) < 0)
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
 * object's '{' and '}', and an object counts (rli_nvtx_line_done) only when its line has ended with
 * nothing else on it, so the result is what a parser per line gives, minus the cost of a
 * parse call per line. A line holding anything but exactly one object (a parse error, a second
 * value, a non-object, an object that goes on past its line), or a value longer than a MiB, stops it: *resume is then where
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

	if (rli_json_open(&n->json, &rli_nvtx_callbacks, n, 1) < 0) {
		n->unit->status = RLI_ERROR;
		return -1;
	}
	yajl_config(n->json.handle, yajl_allow_multiple_values, 1);
	rli_nvtx_top_level(n);
	n->shared = 1;
	n->line_at = 0;
	n->pending = 0;
	n->stopped = 0;
	while ((more = rli_bytes_next(source, &buffer, &got)) > 0) {
		n->chunk = buffer;
		n->chunk_at = chunk_at;
		n->chunk_length = got;
		rli_nvtx_next_newline(n, 0);
		if (yajl_parse(n->json.handle, buffer, got) != yajl_status_ok)
			goto stopped;
		/*
		 * A value that spans chunks is rescanned by yajl from its start on every chunk, and kept
		 * whole: past a MiB it is left to the line-by-line reading, which holds bytes back to stay
		 * linear and refuses a value past RLI_JSON_MAX_VALUE (json_stream.c). Fed here, a 4 GiB
		 * string from a small gzip went on for hours.
		 */
		if (n->json.largest >= RLI_JSON_LONG_VALUE)
			goto stopped;
		if (n->json.depth > 0) {
			/* An object open across the chunk's end may not cross a newline either. */
			if (n->next_newline < got)
				goto stopped;
		} else if (rli_nvtx_shared_advance(n, got) < 0) {
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
		if (rli_nvtx_line_done(n) < 0) {
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
int rli_nvtx_read_lines(nvtx_ctx *n, rli_bytes *source, int *empty)
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


/*
 * fuzz_gzip.c: libFuzzer target: the byte source's gzip reading, checked by properties: inflating
 * ahead on a thread gives the same bytes and the same message as inflating on the reader's, and
 * where the build has ISA-L, what zlib reads whole igzip reads whole, to the same bytes.
 */
#include "parse/byte_source.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(condition) do { if (!(condition)) abort(); } while (0)

/* Bounds each reading: a small gzip may stand for gigabytes. */
#define FUZZ_INFLATE_LIMIT ((uint64_t)1 << 20)

typedef struct {
	unsigned char *bytes;
	size_t length;
	int result;    /* 0: read whole; -1: failed */
	char *failure; /* the message, or NULL */
} reading;

static void read_all(reading *r, const uint8_t *data, size_t size, int ahead)
{
	rli_bytes *source;
	const unsigned char *chunk;
	size_t got, capacity = 0;
	int more;
	memset(r, 0, sizeof(*r));
	if (rli_bytes_from_memory(&source, "fuzz.gz", data, size) < 0)
		abort();
	rli_bytes_set_content(source, "JSON");
	rli_bytes_set_inflate_limit(source, FUZZ_INFLATE_LIMIT);
	if (ahead)
		rli_bytes_inflate_ahead(source);
	while ((more = rli_bytes_next(source, &chunk, &got)) > 0) {
		CHECK(got > 0 && got <= RLI_PARSE_CHUNK);
		if (r->length + got > capacity) {
			capacity = 2 * (r->length + got);
			CHECK((r->bytes = realloc(r->bytes, capacity)) != NULL);
		}
		memcpy(r->bytes + r->length, chunk, got);
		r->length += got;
	}
	CHECK(r->length <= FUZZ_INFLATE_LIMIT);
	CHECK(rli_bytes_offset(source) == r->length);
	r->result = more;
	if (more < 0 && rli_bytes_failure(source))
		CHECK((r->failure = strdup(rli_bytes_failure(source))) != NULL);
	rli_bytes_close(source);
}

static void same(const reading *a, const reading *b)
{
	CHECK(a->result == b->result);
	CHECK(a->length == b->length);
	CHECK(a->length == 0 || memcmp(a->bytes, b->bytes, a->length) == 0);
	CHECK((a->failure == NULL) == (b->failure == NULL));
	CHECK(!a->failure || strcmp(a->failure, b->failure) == 0);
}

static void dispose(reading *r)
{
	free(r->bytes);
	free(r->failure);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	reading inline_default, ahead_default, inline_zlib, ahead_zlib;
	unsetenv("RLI_GZIP");
	read_all(&inline_default, data, size, 0);
	read_all(&ahead_default, data, size, 1);
	same(&inline_default, &ahead_default);
	setenv("RLI_GZIP", "zlib", 1);
	read_all(&inline_zlib, data, size, 0);
	read_all(&ahead_zlib, data, size, 1);
	same(&inline_zlib, &ahead_zlib);
	/*
	 * Two libraries may stop at a corruption in different places, and igzip lets pass a deflate
	 * header zlib refuses (an incomplete set of distance codes, in a block that uses none), but
	 * what zlib reads whole igzip reads whole, to the same bytes.
	 */
	if (inline_zlib.result == 0)
		same(&inline_default, &inline_zlib);
	unsetenv("RLI_GZIP");
	dispose(&inline_default);
	dispose(&ahead_default);
	dispose(&inline_zlib);
	dispose(&ahead_zlib);
	return 0;
}

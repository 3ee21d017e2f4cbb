/* test_gzip_source.c: gzip edge cases through both inflaters (igzip, zlib), inflated on the reader's thread and ahead on one of its own. */
#include "harness.h"
#include "parse/byte_source.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* data as one gzip member at level 6 (name, comment, extra field and header CRC when fancy); the caller frees it. */
static unsigned char *gzip(const void *data, size_t length, size_t *out_length, int fancy)
{
	z_stream z;
	gz_header header;
	size_t capacity = deflateBound(NULL, (uLong)length) + 256;
	unsigned char *out = malloc(capacity);
	static unsigned char extra[] = {'R', 'L', 4, 0, 1, 2, 3, 4};
	memset(&z, 0, sizeof(z));
	if (!out || deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
	if (fancy) {
		memset(&header, 0, sizeof(header));
		header.name = (Bytef *)"trace.json";
		header.comment = (Bytef *)"made by a test";
		header.extra = extra;
		header.extra_len = sizeof(extra);
		header.hcrc = 1;
		deflateSetHeader(&z, &header);
	}
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)length;
	z.next_out = out;
	z.avail_out = (uInt)capacity;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		exit(1);
	*out_length = capacity - z.avail_out;
	deflateEnd(&z);
	return out;
}

/* A buffer that grows as bytes are appended. */
typedef struct {
	unsigned char *bytes;
	size_t length, capacity;
} buffer;

static void append(buffer *b, const void *data, size_t length)
{
	if (b->length + length > b->capacity) {
		b->capacity = 2 * (b->length + length) + 64;
		b->bytes = realloc(b->bytes, b->capacity);
		if (!b->bytes)
			exit(1);
	}
	memcpy(b->bytes + b->length, data, length);
	b->length += length;
}

static void append_gzip(buffer *b, const void *data, size_t length, int fancy)
{
	size_t n;
	unsigned char *packed = gzip(data, length, &n, fancy);
	append(b, packed, n);
	free(packed);
}

/* The settings a case runs under. */
static int ahead;
static const char *library;

/* Drains the gzip in memory; returns what came out, *failure the message (a copy) or NULL. */
static unsigned char *drain(const buffer *gz, size_t *length, char **failure)
{
	rli_bytes *source;
	buffer all = {0};
	const unsigned char *data;
	size_t got;
	int more;
	*failure = NULL;
	*length = 0;
	CHECK_INT(rli_bytes_from_memory(&source, "case.gz", gz->bytes, gz->length), 0);
	rli_bytes_set_content(source, "JSON");
	CHECK_STR(rli_bytes_inflater(source), library);
	if (ahead)
		CHECK_INT(rli_bytes_inflate_ahead(source), 1);
	while ((more = rli_bytes_next(source, &data, &got)) > 0) {
		CHECK(got > 0 && got <= RLI_PARSE_CHUNK);
		append(&all, data, got);
	}
	/* The end stays the end, and a failure stays the same failure. */
	CHECK_INT(rli_bytes_next(source, &data, &got), more);
	if (more < 0)
		*failure = strdup(rli_bytes_failure(source) ? rli_bytes_failure(source) : "(no memory)");
	*length = all.length;
	rli_bytes_close(source);
	append(&all, "", 1);
	return all.bytes;
}

/* The gzip gives exactly want. */
static void expect_content(const char *what, const buffer *gz, const unsigned char *want, size_t want_length)
{
	char *failure;
	size_t length;
	unsigned char *got = drain(gz, &length, &failure);
	if (failure || length != want_length || memcmp(got, want, want_length) != 0)
		fprintf(stderr, "%s (%s%s): %zu bytes of %zu, %s\n", what, library, ahead ? ", ahead" : "", length,
			want_length, failure ? failure : "no failure");
	CHECK(failure == NULL);
	CHECK_INT(length, want_length);
	CHECK(length == want_length && memcmp(got, want, want_length) == 0);
	free(got);
	free(failure);
}

/* The gzip fails with a message holding why, after handing out what came before (returned). */
static size_t expect_failure(const char *what, const buffer *gz, const char *why)
{
	char *failure;
	size_t length;
	unsigned char *got = drain(gz, &length, &failure);
	CHECK(failure != NULL);
	if (failure) {
		CHECK(strncmp(failure, "Failed to decompress case.gz: ", 30) == 0);
		CHECK(strstr(failure, "(the gzip file is truncated or corrupt)") != NULL);
		if (!strstr(failure, why)) {
			fprintf(stderr, "%s (%s%s): %s\n  want: %s\n", what, library, ahead ? ", ahead" : "", failure, why);
			CHECK(0);
		}
	}
	free(got);
	free(failure);
	return length;
}

static void run_cases(const unsigned char *text, size_t size)
{
	buffer one = {0}, gz = {0};
	unsigned char *twice = malloc(3 * size);
	char want[128];
	size_t length;

	append_gzip(&one, text, size, 0);
	memcpy(twice, text, size);
	memcpy(twice + size, text, size);

	/* Members end to end, an empty one between, one with every optional header field. */
	append(&gz, one.bytes, one.length);
	append_gzip(&gz, "", 0, 0);
	append_gzip(&gz, text, size, 1);
	expect_content("concatenated members", &gz, twice, 2 * size);

	/* Trailing bytes that are no gzip are ignored: one byte, the magic's first half, plain text. */
	static const char *const trailing[] = {"x", "\x1f", "garbage after the last member\n"};
	for (size_t i = 0; i < sizeof(trailing) / sizeof(trailing[0]); i++) {
		gz.length = 0;
		append(&gz, one.bytes, one.length);
		append(&gz, trailing[i], strlen(trailing[i]));
		expect_content("trailing garbage", &gz, text, size);
	}
	/* Trailing zeros, as a tape or a block device pads a file. */
	gz.length = 0;
	append(&gz, one.bytes, one.length);
	{
		static const unsigned char zeros[512];
		append(&gz, zeros, sizeof(zeros));
	}
	expect_content("trailing zeros", &gz, text, size);

	/* Cut anywhere: inside the deflate data, the trailer, the next member's header. */
	static const size_t keep_back[] = {8, 4, 1};
	for (size_t i = 0; i < sizeof(keep_back) / sizeof(keep_back[0]); i++) {
		gz.length = 0;
		append(&gz, one.bytes, one.length - keep_back[i]);
		length = expect_failure("truncated trailer", &gz, "unexpected end of file after ");
		CHECK(length <= size);
		snprintf(want, sizeof(want), "after %zu bytes of JSON", length);
		gz.length = 0;
		append(&gz, one.bytes, one.length - keep_back[i]);
		expect_failure("truncated trailer", &gz, want);
	}
	gz.length = 0;
	append(&gz, one.bytes, one.length / 2);
	length = expect_failure("truncated data", &gz, "unexpected end of file");
	CHECK(length < size);
	gz.length = 0;
	append(&gz, one.bytes, one.length);
	append(&gz, one.bytes, 6); /* a second member's header, cut */
	length = expect_failure("truncated second header", &gz, "unexpected end of file");
	CHECK_INT(length, size);

	/* The trailer's CRC-32 is checked; corrupt data says so after the bytes before it. */
	gz.length = 0;
	append(&gz, one.bytes, one.length);
	gz.bytes[gz.length - 8] ^= 0x55;
	length = expect_failure("bad CRC", &gz, "incorrect data check");
	CHECK(length <= size);
	/* ... and so is its length, modulo 2^32. */
	gz.length = 0;
	append(&gz, one.bytes, one.length);
	gz.bytes[gz.length - 1] ^= 0x01;
	length = expect_failure("bad length", &gz, "after ");
	CHECK(length <= size);
	gz.length = 0;
	append(&gz, one.bytes, one.length);
	memset(gz.bytes + one.length / 2, 0xff, 64);
	expect_failure("corrupt data", &gz, "after ");
	/* The magic bytes, then no deflate at all: a second member that is garbage. */
	gz.length = 0;
	append(&gz, one.bytes, one.length);
	append(&gz, "\x1f\x8b\x09\x00garbage", 11);
	length = expect_failure("bad second member", &gz, "after ");
	CHECK_INT(length, size);

	free(one.bytes);
	free(gz.bytes);
	free(twice);
}

/* Closing the source before its end stops the thread that inflates ahead, never waits for the whole file. */
static void test_close_early(const unsigned char *text, size_t size)
{
	buffer gz = {0};
	for (int i = 0; i < 40; i++)
		append_gzip(&gz, text, size, 0);
	for (int reads = 0; reads < 3; reads++) {
		rli_bytes *source;
		const unsigned char *data;
		size_t got;
		CHECK_INT(rli_bytes_from_memory(&source, "long.gz", gz.bytes, gz.length), 0);
		CHECK_INT(rli_bytes_inflate_ahead(source), 1);
		for (int r = 0; r < reads; r++)
			CHECK_INT(rli_bytes_next(source, &data, &got), 1);
		rli_bytes_close(source);
	}
	/* Seeking while inflating ahead: the bytes from there, the thread gone. */
	{
		rli_bytes *source;
		const unsigned char *data;
		size_t got;
		CHECK_INT(rli_bytes_from_memory(&source, "long.gz", gz.bytes, gz.length), 0);
		CHECK_INT(rli_bytes_inflate_ahead(source), 1);
		CHECK_INT(rli_bytes_next(source, &data, &got), 1);
		CHECK_INT(rli_bytes_seek(source, size + 3), 0);
		CHECK_INT(rli_bytes_next(source, &data, &got), 1);
		CHECK(got > 0 && memcmp(data, text + 3, got < size - 3 ? got : size - 3) == 0);
		CHECK_INT(rli_bytes_offset(source), size + 3 + got);
		rli_bytes_close(source);
	}
	/* The inflate bound holds ahead too. */
	{
		rli_bytes *source;
		const unsigned char *data;
		size_t got, total = 0;
		int more;
		CHECK_INT(rli_bytes_from_memory(&source, "long.gz", gz.bytes, gz.length), 0);
		rli_bytes_set_inflate_limit(source, 3 * (uint64_t)size);
		CHECK_INT(rli_bytes_inflate_ahead(source), 1);
		while ((more = rli_bytes_next(source, &data, &got)) > 0)
			total += got;
		CHECK_INT(more, -1);
		CHECK(total <= 3 * size);
		CHECK(rli_bytes_failure(source) && strstr(rli_bytes_failure(source), "it inflates to more than") != NULL);
		rli_bytes_close(source);
	}
	free(gz.bytes);
}

int main(void)
{
	enum { SIZE = 700000 };
	unsigned char *text = malloc(SIZE);
	uint64_t seed = 7;

	/* Compressible text with some noise, so that members hold several deflate blocks. */
	for (size_t i = 0; i < SIZE; i++)
		text[i] = i % 97 == 0 ? (unsigned char)('a' + rli_test_random(&seed) % 26)
				      : (unsigned char)("{\"ph\":\"X\",\"ts\":12345.678,\"dur\":9}\n"[i % 35]);
#ifdef RLI_HAVE_ISAL_TEST
	const int libraries = 2;
#else
	const int libraries = 1;
#endif
	for (int l = 0; l < libraries; l++) {
		/* The default first: igzip where the build has it; then zlib, as RLI_GZIP=zlib asks. */
		if (l == 0) {
			unsetenv("RLI_GZIP");
			library = libraries == 2 ? "igzip" : "zlib";
		} else {
			setenv("RLI_GZIP", "zlib", 1);
			library = "zlib";
		}
		for (ahead = 0; ahead < 2; ahead++)
			run_cases(text, SIZE);
		test_close_early(text, SIZE);
	}
	free(text);
	TEST_DONE();
}

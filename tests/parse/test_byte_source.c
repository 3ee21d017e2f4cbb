/* test_byte_source.c: the byte source: plain, gzip, bounds, special files, memory, seeking, EINTR. */
#include "harness.h"
#include "parse/byte_source.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/*
 * The test links with -Wl,--wrap=read: every other read() of the library fails with EINTR
 * first, as a signal arriving mid-read makes it, and must be retried, never reported.
 */
ssize_t __real_read(int fd, void *buffer, size_t count);
ssize_t __wrap_read(int fd, void *buffer, size_t count);
static int interrupt_reads;
static unsigned long interrupted;

ssize_t __wrap_read(int fd, void *buffer, size_t count)
{
	static int flip;
	if (interrupt_reads && (flip ^= 1)) {
		interrupted++;
		errno = EINTR;
		return -1;
	}
	return __real_read(fd, buffer, count);
}

static int ignore(void *ctx, const unsigned char *data, size_t length)
{
	(void)ctx;
	(void)data;
	(void)length;
	return 0;
}

static char dir[] = "/tmp/rli-bytes-XXXXXX";

static const char *at(const char *name)
{
	static char paths[4][512];
	static int next;
	char *path = paths[next++ % 4];
	snprintf(path, 512, "%s/%s", dir, name);
	return path;
}

static void write_file(const char *name, const void *data, size_t length)
{
	FILE *fp = fopen(at(name), "wb");
	if (!fp || fwrite(data, 1, length, fp) != length || fclose(fp) != 0) {
		perror(at(name));
		exit(1);
	}
}

/* data as one gzip member; the caller frees it. */
static unsigned char *gzip(const void *data, size_t length, size_t *out_length)
{
	z_stream z;
	size_t capacity = deflateBound(NULL, (uLong)length) + 64;
	unsigned char *out = malloc(capacity);
	memset(&z, 0, sizeof(z));
	if (!out || deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
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

/* Everything the source gives, or NULL with *failure (a copy) when it fails. */
static unsigned char *drain(rli_bytes *source, size_t *length, char **failure, size_t *chunks)
{
	unsigned char *all = NULL;
	const unsigned char *data;
	size_t got, total = 0, capacity = 0;
	int more;
	*failure = NULL;
	if (chunks)
		*chunks = 0;
	while ((more = rli_bytes_next(source, &data, &got)) > 0) {
		CHECK(got > 0 && got <= RLI_PARSE_CHUNK);
		/* doubling: a realloc per chunk copies the whole so far each time (under ASan, always) */
		if (total + got + 1 > capacity) {
			capacity = 2 * (total + got + 1);
			all = realloc(all, capacity);
		}
		memcpy(all + total, data, got);
		total += got;
		if (chunks)
			(*chunks)++;
	}
	*length = total;
	if (more < 0) {
		*failure = strdup(rli_bytes_failure(source) ? rli_bytes_failure(source) : "(no memory)");
		free(all);
		return NULL;
	}
	if (!all)
		all = calloc(1, 1);
	return all;
}

/* Opens name and drains it; checks the content is want. */
static void expect_file(const char *name, const unsigned char *want, size_t want_length, int is_gzip)
{
	rli_bytes *source;
	char *failure = NULL;
	size_t length;
	unsigned char *got;
	CHECK_INT(rli_bytes_open(&source, at(name), &failure), RLI_READ_OK);
	if (!source)
		return;
	CHECK_INT(rli_bytes_is_gzip(source), is_gzip);
	got = drain(source, &length, &failure, NULL);
	CHECK(got != NULL);
	CHECK_INT(length, want_length);
	CHECK(got && memcmp(got, want, want_length) == 0);
	CHECK_INT(rli_bytes_offset(source), want_length);
	free(got);
	free(failure);
	rli_bytes_close(source);
}

/* Opening name fails with exactly "Failed to read <path>: <why>". */
static void expect_open_failure(const char *path, const char *why)
{
	rli_bytes *source = NULL;
	char *failure = NULL, want[1024];
	CHECK_INT(rli_bytes_open(&source, path, &failure), RLI_READ_FAILED);
	CHECK(source == NULL);
	snprintf(want, sizeof(want), "Failed to read %s: %s", path, why);
	CHECK_STR(failure, want);
	free(failure);
}

/* Draining fails with a message that starts with prefix; returns the bytes given before. */
static size_t expect_drain_failure(rli_bytes *source, const char *prefix)
{
	char *failure = NULL;
	size_t length = 0;
	unsigned char *got = drain(source, &length, &failure, NULL);
	CHECK(got == NULL);
	CHECK(failure && strncmp(failure, prefix, strlen(prefix)) == 0);
	if (failure && strncmp(failure, prefix, strlen(prefix)) != 0)
		fprintf(stderr, "  got: %s\n  want: %s...\n", failure, prefix);
	free(failure);
	return length;
}

static void test_seek(rli_bytes *source, const unsigned char *want, size_t length)
{
	static const uint64_t offsets[] = {0, 1, RLI_PARSE_CHUNK - 1, RLI_PARSE_CHUNK, 100000};
	for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		char *failure = NULL;
		size_t got_length;
		unsigned char *got;
		if (offsets[i] > length)
			continue;
		CHECK_INT(rli_bytes_seek(source, offsets[i]), 0);
		got = drain(source, &got_length, &failure, NULL);
		CHECK_INT(got_length, length - offsets[i]);
		CHECK(got && memcmp(got, want + offsets[i], length - offsets[i]) == 0);
		free(got);
		free(failure);
	}
}

int main(void)
{
	enum { BIG = 300000 };
	unsigned char *text = malloc(BIG), *packed, *two;
	size_t packed_length, chunks, length;
	rli_bytes *source;
	char *failure = NULL, want[1024];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (size_t i = 0; i < BIG; i++)
		text[i] = (unsigned char)("{\"ph\":\"X\",\"ts\":12345}\n"[i % 23] + (i / 23 % 7 == 0));
	packed = gzip(text, BIG, &packed_length);

	/* Plain: in chunks, every byte once; EINTR on every other read is retried. */
	write_file("plain.json", text, BIG);
	interrupt_reads = 1;
	expect_file("plain.json", text, BIG, 0);
	interrupt_reads = 0;
	CHECK(interrupted > 0);

	/* gzip by its magic bytes, whatever the name; two members read as one content. */
	write_file("trace.json", packed, packed_length);
	expect_file("trace.json", text, BIG, 1);
	two = malloc(2 * packed_length + 7);
	memcpy(two, packed, packed_length);
	memcpy(two + packed_length, packed, packed_length);
	write_file("two.gz", two, 2 * packed_length);
	{
		unsigned char *twice = malloc(2 * BIG);
		memcpy(twice, text, BIG);
		memcpy(twice + BIG, text, BIG);
		expect_file("two.gz", twice, 2 * BIG, 1);
		/* Bytes after the last member that are no gzip are ignored, as gzread ignores them. */
		memcpy(two + packed_length, "garbage", 7);
		write_file("trailing.gz", two, packed_length + 7);
		expect_file("trailing.gz", text, BIG, 1);
		free(twice);
	}

	/* Empty: a plain file with no byte, a gzip of nothing. */
	write_file("empty.json", "", 0);
	CHECK_INT(rli_bytes_open(&source, at("empty.json"), &failure), RLI_READ_OK);
	CHECK_INT(rli_bytes_stream(source, ignore, NULL, &failure), RLI_READ_EMPTY);
	rli_bytes_close(source);
	{
		size_t n;
		unsigned char *nothing = gzip("", 0, &n);
		write_file("empty.gz", nothing, n);
		CHECK_INT(rli_bytes_open(&source, at("empty.gz"), &failure), RLI_READ_OK);
		CHECK_INT(rli_bytes_stream(source, ignore, NULL, &failure), RLI_READ_EMPTY);
		rli_bytes_close(source);
		free(nothing);
	}

	/* Truncated: the bytes before the cut come out, then the failure names the file and the count. */
	write_file("cut.gz", packed, packed_length / 2);
	CHECK_INT(rli_bytes_open(&source, at("cut.gz"), &failure), RLI_READ_OK);
	rli_bytes_set_content(source, "JSON");
	snprintf(want, sizeof(want), "Failed to decompress %s: unexpected end of file after ", at("cut.gz"));
	length = expect_drain_failure(source, want);
	CHECK(length > 0 && length < BIG);
	snprintf(want, sizeof(want), "after %zu bytes of JSON (the gzip file is truncated or corrupt)", length);
	CHECK(rli_bytes_failure(source) && strstr(rli_bytes_failure(source), want) != NULL);
	rli_bytes_close(source);

	/* Corrupt: deflate data overwritten in the middle. */
	memcpy(two, packed, packed_length);
	memset(two + packed_length / 2, 0xff, 64);
	write_file("corrupt.gz", two, packed_length);
	CHECK_INT(rli_bytes_open(&source, at("corrupt.gz"), &failure), RLI_READ_OK);
	snprintf(want, sizeof(want), "Failed to decompress %s: ", at("corrupt.gz"));
	expect_drain_failure(source, want);
	rli_bytes_close(source);

	/* A gzip bomb: 32 MiB of zeros in 32 KiB stops at the bound, naming the file. */
	{
		size_t zeros_length = (size_t)32 << 20, bomb_length;
		unsigned char *zeros = calloc(1, zeros_length), *bomb = gzip(zeros, zeros_length, &bomb_length);
		write_file("bomb.json.gz", bomb, bomb_length);
		CHECK(bomb_length < zeros_length / 500);
		CHECK_INT(rli_bytes_open(&source, at("bomb.json.gz"), &failure), RLI_READ_OK);
		rli_bytes_set_inflate_limit(source, (uint64_t)1 << 20);
		snprintf(want, sizeof(want), "Failed to decompress %s: it inflates to more than 1048576 bytes", at("bomb.json.gz"));
		length = expect_drain_failure(source, want);
		CHECK(length <= (size_t)1 << 20);
		rli_bytes_close(source);
		/* Under the default bound the same file reads whole. */
		CHECK_INT(rli_bytes_open(&source, at("bomb.json.gz"), &failure), RLI_READ_OK);
		free(drain(source, &length, &failure, NULL));
		CHECK_INT(length, zeros_length);
		free(failure);
		rli_bytes_close(source);
		CHECK(RLI_GZIP_INFLATE_MAX >= ((uint64_t)1 << 30));
		free(zeros);
		free(bomb);
	}

	/* Special files where a file belongs: a clear message at once, never a read that waits. */
	alarm(20);
	if (mkfifo(at("fifo"), 0600) == 0)
		expect_open_failure(at("fifo"), "not a regular file but a FIFO (named pipe)");
	expect_open_failure(dir, "not a regular file but a directory");
	expect_open_failure("/dev/null", "not a regular file but a device");
	if (symlink(at("nowhere"), at("dangling")) == 0)
		expect_open_failure(at("dangling"), "a symbolic link to a file that does not exist");
	expect_open_failure(at("missing.json"), "No such file or directory");
	write_file("secret.json", "{}", 2);
	chmod(at("secret.json"), 0);
	if (geteuid() != 0) /* root reads any file */
		expect_open_failure(at("secret.json"), "Permission denied");
	alarm(0);

	/* rli_read_file: the content named in the gzip message. */
	CHECK_INT(rli_read_file(at("cut.gz"), "CSV", ignore, NULL, &failure), RLI_READ_FAILED);
	CHECK(failure && strstr(failure, " bytes of CSV (the gzip file") != NULL);
	free(failure);
	failure = NULL;

	/* In memory: plain and gzip, in the same chunks a file gives; seeking in all four. */
	CHECK_INT(rli_bytes_from_memory(&source, "trace in memory", text, BIG), 0);
	{
		unsigned char *got = drain(source, &length, &failure, &chunks);
		CHECK_INT(length, BIG);
		CHECK_INT(chunks, (BIG + RLI_PARSE_CHUNK - 1) / RLI_PARSE_CHUNK);
		CHECK(got && memcmp(got, text, BIG) == 0);
		free(got);
	}
	test_seek(source, text, BIG);
	CHECK_STR(rli_bytes_name(source), "trace in memory");
	rli_bytes_close(source);
	CHECK_INT(rli_bytes_from_memory(&source, "gz in memory", packed, packed_length), 0);
	CHECK_INT(rli_bytes_is_gzip(source), 1);
	test_seek(source, text, BIG);
	rli_bytes_close(source);
	CHECK_INT(rli_bytes_from_memory(&source, "cut in memory", packed, packed_length / 3), 0);
	expect_drain_failure(source, "Failed to decompress cut in memory: unexpected end of file after ");
	rli_bytes_close(source);
	CHECK_INT(rli_bytes_from_memory(&source, "nothing", NULL, 0), 0);
	CHECK_INT(rli_bytes_stream(source, ignore, NULL, &failure), RLI_READ_EMPTY);
	rli_bytes_close(source);
	CHECK_INT(rli_bytes_open(&source, at("plain.json"), &failure), RLI_READ_OK);
	test_seek(source, text, BIG);
	rli_bytes_close(source);
	CHECK_INT(rli_bytes_open(&source, at("trace.json"), &failure), RLI_READ_OK);
	test_seek(source, text, BIG);
	rli_bytes_close(source);

	free(text);
	free(packed);
	free(two);
	snprintf(want, sizeof(want), "rm -rf '%s'", dir);
	if (system(want) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	TEST_DONE();
}

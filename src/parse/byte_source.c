/* byte_source.c: a file or memory, plain or gzip (by magic bytes), handed out in chunks with one wording for failures. */
#include "byte_source_internal.h"
#include "common/strutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the process has read from files, for -v and for the tests that count reads: all threads add to it. */
static atomic_uint_least64_t files_opened, bytes_read;

void rli_input_totals(uint64_t *files, uint64_t *bytes)
{
	if (files)
		*files = atomic_load(&files_opened);
	if (bytes)
		*bytes = atomic_load(&bytes_read);
}

/* ---- raw bytes --------------------------------------------------------------- */

int rli_bytes_fail_errno(rli_bytes *s, int error)
{
	free(s->failure);
	s->failure = rli_strfmt("Failed to read %s: %s", s->name, strerror(error));
	s->failed = 1;
	return -1;
}

int rli_bytes_raw_fill(rli_bytes *s)
{
	ssize_t got;
	size_t want = RLI_PARSE_CHUNK;
	s->in_at = s->in_length = 0;
	if (s->raw_end - s->raw_pos < want)
		want = (size_t)(s->raw_end - s->raw_pos);
	if (s->raw_eof || want == 0)
		return 0;
	do
		got = read(s->fd, s->in, want);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return rli_bytes_fail_errno(s, errno);
	if (got == 0) {
		s->raw_eof = 1;
		return 0;
	}
	s->in_length = (size_t)got;
	s->raw_pos += (uint64_t)got;
	atomic_fetch_add(&bytes_read, (uint64_t)got);
	return 1;
}

/* ---- opening ------------------------------------------------------------------ */

static rli_bytes *bytes_new(const char *name)
{
	rli_bytes *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->fd = -1;
	s->content = "data";
	s->limit = RLI_GZIP_INFLATE_MAX;
	s->raw_end = UINT64_MAX;
	if (!(s->name = rli_strdup(name ? name : "(memory)"))) {
		free(s);
		return NULL;
	}
	return s;
}

/* Why a path that exists is no file to read, or NULL when it is one. */
static const char *not_a_file(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISDIR(mode))
		return "not a regular file but a directory";
	if (S_ISFIFO(mode))
		return "not a regular file but a FIFO (named pipe)";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "not a regular file but a device";
	if (S_ISSOCK(mode))
		return "not a regular file but a socket";
	return "not a regular file";
}

/* Opens path as a regular file into s (counted as a file read when count). 0, or -1 with *failure (NULL: out of memory). */
static int open_file(rli_bytes *s, const char *path, char **failure)
{
	struct stat st;
	const char *why;
	/*
	 * Classified before opening: open() on a FIFO waits for a writer, forever. A dangling
	 * symlink is said as such, not as a file that does not exist when ls shows it.
	 */
	if (stat(path, &st) != 0) {
		int error = errno;
		if (error == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			*failure = rli_strfmt("Failed to read %s: a symbolic link to a file that does not exist", path);
		else
			*failure = rli_strfmt("Failed to read %s: %s", path, strerror(error));
		return -1;
	}
	if ((why = not_a_file(st.st_mode))) {
		*failure = rli_strfmt("Failed to read %s: %s", path, why);
		return -1;
	}
	/* O_NONBLOCK: should the path become a FIFO after the stat, open still returns. */
	s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (s->fd < 0) {
		*failure = rli_strfmt("Failed to read %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(s->fd, &st) != 0 || (why = not_a_file(st.st_mode))) {
		*failure = rli_strfmt("Failed to read %s: %s", path, why ? why : strerror(errno));
		return -1;
	}
	if (!(s->in = malloc(RLI_PARSE_CHUNK)))
		return -1;
	return 0;
}

rli_read_result rli_bytes_open(rli_bytes **out, const char *path, char **failure)
{
	rli_bytes *s = bytes_new(path);

	*out = NULL;
	*failure = NULL;
	if (!s)
		return RLI_READ_OOM;
	if (open_file(s, path, failure) < 0)
		goto failed;
	atomic_fetch_add(&files_opened, 1);
	/* The first chunk says whether the file is a gzip; read as a plain file, it is the first handed out. */
	if (rli_bytes_raw_fill(s) < 0) {
		*failure = s->failure;
		s->failure = NULL;
		goto failed;
	}
	if (rli_gzip_start(s, s->in, s->in_length) < 0)
		goto oom;
	*out = s;
	return RLI_READ_OK;
failed:
	rli_bytes_close(s);
	return *failure ? RLI_READ_FAILED : RLI_READ_OOM;
oom:
	rli_bytes_close(s);
	return RLI_READ_OOM;
}

rli_read_result rli_bytes_open_range(rli_bytes **out, const char *path, uint64_t begin, uint64_t end, char **failure)
{
	rli_bytes *s = bytes_new(path);

	*out = NULL;
	*failure = NULL;
	if (!s)
		return RLI_READ_OOM;
	if (open_file(s, path, failure) < 0)
		goto failed;
	/* A part of a file another source counted: plain bytes, no gzip looked for. */
	if (lseek(s->fd, (off_t)begin, SEEK_SET) != (off_t)begin) {
		*failure = rli_strfmt("Failed to read %s: %s", path, strerror(errno));
		goto failed;
	}
	s->raw_pos = s->raw_begin = begin;
	s->raw_end = end < begin ? begin : end;
	*out = s;
	return RLI_READ_OK;
failed:
	rli_bytes_close(s);
	return *failure ? RLI_READ_FAILED : RLI_READ_OOM;
}

int rli_bytes_limit(rli_bytes *s, uint64_t end)
{
	uint64_t buffered_from;
	if (s->gzip || s->fd < 0)
		return -1;
	/* What was read past the end is dropped: the content stops at byte `end` of it. */
	end += s->raw_begin;
	buffered_from = s->raw_pos - s->in_length;
	if (end < s->raw_pos)
		s->in_length = end > buffered_from ? (size_t)(end - buffered_from) : 0;
	if (s->in_at > s->in_length)
		s->in_at = s->in_length;
	s->raw_end = end;
	if (s->raw_pos > end)
		s->raw_pos = end; /* no more reads: the next one would want nothing */
	return 0;
}

int rli_bytes_from_memory(rli_bytes **out, const char *name, const void *data, size_t size)
{
	rli_bytes *s = bytes_new(name);
	*out = NULL;
	if (!s)
		return -1;
	s->memory = data;
	s->memory_size = data ? size : 0;
	if (rli_gzip_start(s, s->memory, s->memory_size) < 0) {
		rli_bytes_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void rli_bytes_close(rli_bytes *s)
{
	if (!s)
		return;
	rli_gzip_dispose(s);
	if (s->fd >= 0)
		close(s->fd);
	free(s->in);
	free(s->name);
	free(s->failure);
	free(s);
}

void rli_bytes_set_content(rli_bytes *s, const char *content)
{
	s->content = content;
}

void rli_bytes_set_inflate_limit(rli_bytes *s, uint64_t limit)
{
	s->limit = limit;
}

const char *rli_bytes_name(const rli_bytes *s)
{
	return s->name;
}

int rli_bytes_is_gzip(const rli_bytes *s)
{
	return s->gzip;
}

uint64_t rli_bytes_offset(const rli_bytes *s)
{
	return s->offset;
}

const char *rli_bytes_failure(const rli_bytes *s)
{
	return s->failure;
}

/* ---- reading -------------------------------------------------------------------- */

int rli_bytes_next(rli_bytes *s, const unsigned char **data, size_t *length)
{
	/* Inflating ahead, the thread owns the failure until it ends: the ring says when. */
	if (s->ahead)
		return rli_gzip_next(s, data, length);
	if (s->failed)
		return -1;
	if (s->gzip)
		return rli_gzip_next(s, data, length);
	if (s->fd < 0) {
		size_t rest = s->memory_size - s->raw_at;
		if (rest == 0)
			return 0;
		*data = s->memory + s->raw_at;
		*length = rest < RLI_PARSE_CHUNK ? rest : RLI_PARSE_CHUNK;
		s->raw_at += *length;
		s->offset += *length;
		return 1;
	}
	if (s->in_at >= s->in_length) {
		int got = rli_bytes_raw_fill(s);
		if (got <= 0)
			return got;
	}
	*data = s->in + s->in_at;
	*length = s->in_length - s->in_at;
	s->in_at = s->in_length;
	s->offset += *length;
	return 1;
}

int rli_bytes_seek(rli_bytes *s, uint64_t offset)
{
	/* Inflating ahead, the thread may have met a failure the reader has not reached: the seek ends it first. */
	if (s->ahead || (s->gzip && s->out))
		return rli_gzip_seek(s, offset);
	if (s->failed)
		return -1;
	if (!s->gzip && s->fd < 0) {
		s->raw_at = offset < s->memory_size ? (size_t)offset : s->memory_size;
		s->offset = s->raw_at;
		return 0;
	}
	if (!s->gzip) {
		/* A part of a file (rli_bytes_open_range) counts its offsets from where it begins. */
		uint64_t begin = s->raw_begin;
		if (lseek(s->fd, (off_t)(begin + offset), SEEK_SET) != (off_t)(begin + offset))
			return rli_bytes_fail_errno(s, errno);
		s->in_at = s->in_length = 0;
		s->raw_eof = 0;
		s->raw_pos = begin + offset;
		s->offset = offset;
		return 0;
	}
	return rli_gzip_seek(s, offset);
}

rli_read_result rli_bytes_stream(rli_bytes *s, rli_chunk_fn fn, void *ctx, char **failure)
{
	const unsigned char *data;
	size_t length;
	int any = 0, got;

	*failure = NULL;
	while ((got = rli_bytes_next(s, &data, &length)) > 0) {
		any = 1;
		if (fn(ctx, data, length) != 0)
			return RLI_READ_HALTED;
	}
	if (got == 0)
		return any ? RLI_READ_OK : RLI_READ_EMPTY;
	if (!s->failure || !(*failure = rli_strdup(s->failure)))
		return RLI_READ_OOM;
	return RLI_READ_FAILED;
}

rli_read_result rli_read_file(const char *path, const char *content, rli_chunk_fn fn, void *ctx, char **failure)
{
	rli_bytes *source;
	rli_read_result result = rli_bytes_open(&source, path, failure);
	if (result != RLI_READ_OK)
		return result;
	rli_bytes_set_content(source, content);
	result = rli_bytes_stream(source, fn, ctx, failure);
	rli_bytes_close(source);
	return result;
}

/* ---- reads at an offset, from any thread ------------------------------------ */

int rli_bytes_plain_size(const rli_bytes *s, uint64_t *size)
{
	struct stat st;
	if (s->gzip)
		return -1;
	if (s->fd < 0) {
		*size = s->memory_size;
		return 0;
	}
	if (fstat(s->fd, &st) != 0 || st.st_size < 0)
		return -1;
	*size = (uint64_t)st.st_size;
	return 0;
}

int rli_bytes_pread(rli_bytes *s, uint64_t offset, unsigned char *into, size_t room, size_t *got)
{
	ssize_t n;
	*got = 0;
	if (s->gzip)
		return -1;
	if (s->fd < 0) {
		if (offset < s->memory_size) {
			size_t rest = s->memory_size - (size_t)offset;
			*got = rest < room ? rest : room;
			memcpy(into, s->memory + offset, *got);
		}
		return 0;
	}
	do
		n = pread(s->fd, into, room, (off_t)offset);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	*got = (size_t)n;
	atomic_fetch_add(&bytes_read, (uint64_t)n);
	return 0;
}

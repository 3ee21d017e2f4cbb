/* byte_source.c: a file or memory, plain or gzip (by magic bytes), handed out in chunks with one wording for failures. */
#include "byte_source.h"
#include "common/strutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/*
 * A gzip is inflated this much at a time and handed out in RLI_PARSE_CHUNK slices: zlib copies
 * the last 32 KiB of every inflate call's output into its window, so a bigger output keeps that
 * copy small (a quarter of 128 KiB under gzread; an eighth here).
 */
#define GZIP_OUT (4 * RLI_PARSE_CHUNK)

struct rli_bytes {
	char *name;           /* the path, or what stands for it, in messages */
	const char *content;  /* "JSON", "CSV": what the bytes are */
	int fd;               /* -1 for memory */
	const unsigned char *memory;
	size_t memory_size;
	size_t raw_at;        /* raw bytes consumed from memory */
	int gzip;
	z_stream z;
	int z_ready;          /* inflateInit2 done */
	int member_ended;     /* the last gzip member ended: only another member may follow */
	int raw_eof;          /* no raw bytes left */
	unsigned char *in;    /* file: raw bytes read, in_length of them, first in_at not yet used */
	size_t in_length, in_at;
	unsigned char *out;   /* file or gzip: the chunk handed out */
	uint64_t offset;      /* content bytes handed out */
	uint64_t limit;
	char *failure;        /* after -1: why (NULL: out of memory) */
	char *deferred;       /* a gzip failure to report once the bytes before it are out */
	size_t out_at, out_have; /* gzip: out holds out_have inflated bytes, the first out_at handed out */
	uint64_t inflated;    /* gzip: bytes inflated so far */
	int failed;
};

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

static int fail_errno(rli_bytes *s, int error)
{
	free(s->failure);
	s->failure = rli_strfmt("Failed to read %s: %s", s->name, strerror(error));
	s->failed = 1;
	return -1;
}

/* Fills s->in from the file (EINTR retried). 1 with bytes, 0 at the end, -1 on failure. */
static int raw_fill(rli_bytes *s)
{
	ssize_t got;
	s->in_at = s->in_length = 0;
	if (s->raw_eof)
		return 0;
	do
		got = read(s->fd, s->in, RLI_PARSE_CHUNK);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return fail_errno(s, errno);
	if (got == 0) {
		s->raw_eof = 1;
		return 0;
	}
	s->in_length = (size_t)got;
	atomic_fetch_add(&bytes_read, (uint64_t)got);
	return 1;
}

/* Points the inflater at more raw bytes. 1, 0 at the end, -1 on failure. */
static int raw_feed(rli_bytes *s)
{
	if (s->fd < 0) {
		size_t rest = s->memory_size - s->raw_at;
		/* zlib counts input in 32 bits. */
		size_t take = rest < RLI_PARSE_CHUNK ? rest : RLI_PARSE_CHUNK;
		if (take == 0) {
			s->raw_eof = 1;
			return 0;
		}
		s->z.next_in = (unsigned char *)s->memory + s->raw_at;
		s->z.avail_in = (uInt)take;
		s->raw_at += take;
		return 1;
	}
	if (s->in_at < s->in_length) {
		/* Bytes read when the magic was looked for, not yet inflated. */
		s->z.next_in = s->in + s->in_at;
		s->z.avail_in = (uInt)(s->in_length - s->in_at);
		s->in_at = s->in_length;
		return 1;
	}
	int got = raw_fill(s);
	if (got <= 0)
		return got;
	s->z.next_in = s->in;
	s->z.avail_in = (uInt)s->in_length;
	s->in_at = s->in_length;
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
	if (!(s->name = rli_strdup(name ? name : "(memory)"))) {
		free(s);
		return NULL;
	}
	return s;
}

/* Sets up inflating when the content starts with the gzip magic bytes. 0, or -1 out of memory. */
static int start_gzip(rli_bytes *s, const unsigned char *head, size_t length)
{
	if (length < 2 || head[0] != 0x1f || head[1] != 0x8b)
		return 0;
	s->gzip = 1;
	if (!s->out && !(s->out = malloc(GZIP_OUT)))
		return -1;
	/* 16 + 15: a gzip wrapper and the largest window. */
	if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK)
		return -1;
	s->z_ready = 1;
	return 0;
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

rli_read_result rli_bytes_open(rli_bytes **out, const char *path, char **failure)
{
	rli_bytes *s = bytes_new(path);
	struct stat st;
	const char *why;

	*out = NULL;
	*failure = NULL;
	if (!s)
		return RLI_READ_OOM;
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
		goto failed;
	}
	if ((why = not_a_file(st.st_mode))) {
		*failure = rli_strfmt("Failed to read %s: %s", path, why);
		goto failed;
	}
	/* O_NONBLOCK: should the path become a FIFO after the stat, open still returns. */
	s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (s->fd < 0) {
		*failure = rli_strfmt("Failed to read %s: %s", path, strerror(errno));
		goto failed;
	}
	if (fstat(s->fd, &st) != 0 || (why = not_a_file(st.st_mode))) {
		*failure = rli_strfmt("Failed to read %s: %s", path, why ? why : strerror(errno));
		goto failed;
	}
	if (!(s->in = malloc(RLI_PARSE_CHUNK)))
		goto oom;
	atomic_fetch_add(&files_opened, 1);
	/* The first chunk says whether the file is a gzip; read as a plain file, it is the first handed out. */
	if (raw_fill(s) < 0) {
		*failure = s->failure;
		s->failure = NULL;
		goto failed;
	}
	if (start_gzip(s, s->in, s->in_length) < 0)
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

int rli_bytes_from_memory(rli_bytes **out, const char *name, const void *data, size_t size)
{
	rli_bytes *s = bytes_new(name);
	*out = NULL;
	if (!s)
		return -1;
	s->memory = data;
	s->memory_size = data ? size : 0;
	if (start_gzip(s, s->memory, s->memory_size) < 0) {
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
	if (s->z_ready)
		inflateEnd(&s->z);
	if (s->fd >= 0)
		close(s->fd);
	free(s->in);
	free(s->out);
	free(s->name);
	free(s->failure);
	free(s->deferred);
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

/* A gzip failure, worded as it always was for torch traces; kept until the bytes before it are out. */
static void gzip_failure(rli_bytes *s, const char *why, uint64_t at)
{
	free(s->deferred);
	s->deferred = rli_strfmt("Failed to decompress %s: %s after %llu bytes of %s (the gzip file is truncated or corrupt)",
				 s->name, why, (unsigned long long)at, s->content);
	if (!s->deferred)
		s->failed = 1; /* no memory for the message: fails now, as out of memory */
}

/* Makes sure at least two raw bytes are in view when there are that many. 0, or -1 on failure. */
static int raw_two(rli_bytes *s)
{
	if (s->z.avail_in >= 2)
		return 0;
	if (s->fd < 0) {
		size_t rest = s->memory_size - s->raw_at;
		size_t take = rest < RLI_PARSE_CHUNK ? rest : RLI_PARSE_CHUNK;
		if (s->z.avail_in == 0)
			s->z.next_in = (unsigned char *)s->memory + s->raw_at;
		s->z.avail_in += (uInt)take;
		s->raw_at += take;
		return 0;
	}
	if (s->z.avail_in == 0) {
		int fed = raw_feed(s);
		if (fed <= 0 || s->z.avail_in >= 2)
			return fed < 0 ? -1 : 0;
	}
	/* One byte left of the last read: it goes in front of the next one. */
	{
		ssize_t got;
		s->in[0] = s->z.next_in[0];
		do
			got = s->raw_eof ? 0 : read(s->fd, s->in + 1, RLI_PARSE_CHUNK - 1);
		while (got < 0 && errno == EINTR);
		if (got < 0)
			return fail_errno(s, errno);
		if (got == 0)
			s->raw_eof = 1;
		s->in_length = s->in_at = 1 + (size_t)got;
		s->z.next_in = s->in;
		s->z.avail_in = (uInt)s->in_length;
	}
	return 0;
}

/*
 * After a member's end: another member follows (1), or the content is over (0). Bytes after
 * the last member that are no gzip are ignored, as gzread ignores them.
 */
static int next_member(rli_bytes *s)
{
	if (raw_two(s) < 0)
		return -1;
	if (s->z.avail_in < 2 || s->z.next_in[0] != 0x1f || s->z.next_in[1] != 0x8b)
		return 0;
	inflateReset(&s->z);
	return 1;
}

/*
 * Inflates the next GZIP_OUT bytes into out. 1 with out_have > 0, 0 at the end, -1 on failure.
 * A failure after some bytes is kept (deferred) until they are handed out.
 */
static int gzip_fill(rli_bytes *s)
{
	size_t have;
	s->out_at = s->out_have = 0;
	s->z.next_out = s->out;
	s->z.avail_out = GZIP_OUT;
	while (s->z.avail_out > 0 && !s->deferred) {
		int ret;
		if (s->member_ended) {
			int more = next_member(s);
			if (more < 0)
				return -1;
			if (more == 0)
				break;
			s->member_ended = 0;
		}
		if (s->z.avail_in == 0) {
			int fed = raw_feed(s);
			if (fed < 0)
				return -1;
			if (fed == 0) {
				gzip_failure(s, "unexpected end of file", s->inflated + (GZIP_OUT - s->z.avail_out));
				break;
			}
		}
		ret = inflate(&s->z, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			s->member_ended = 1;
		} else if (ret == Z_MEM_ERROR) {
			s->failed = 1;
			return -1;
		} else if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_STREAM_ERROR) {
			gzip_failure(s, ret == Z_DATA_ERROR && s->z.msg ? s->z.msg : "compressed data error",
				     s->inflated + (GZIP_OUT - s->z.avail_out));
		}
	}
	if (s->failed)
		return -1;
	have = GZIP_OUT - s->z.avail_out;
	if (have > s->limit - s->inflated || s->inflated > s->limit) {
		free(s->failure);
		s->failure = rli_strfmt("Failed to decompress %s: it inflates to more than %llu bytes, the most "
					"rl-insight reads from one gzip file (a damaged file or a gzip bomb)",
					s->name, (unsigned long long)s->limit);
		s->failed = 1;
		return -1;
	}
	if (have == 0) {
		if (!s->deferred)
			return 0;
		s->failure = s->deferred;
		s->deferred = NULL;
		s->failed = 1;
		return -1;
	}
	s->inflated += have;
	s->out_have = have;
	return 1;
}

/* The next slice of what was inflated, RLI_PARSE_CHUNK at most. */
static int gzip_next(rli_bytes *s, const unsigned char **data, size_t *length)
{
	if (s->out_at == s->out_have) {
		int got = gzip_fill(s);
		if (got <= 0)
			return got;
	}
	*data = s->out + s->out_at;
	*length = s->out_have - s->out_at < RLI_PARSE_CHUNK ? s->out_have - s->out_at : RLI_PARSE_CHUNK;
	s->out_at += *length;
	s->offset += *length;
	return 1;
}

int rli_bytes_next(rli_bytes *s, const unsigned char **data, size_t *length)
{
	if (s->failed)
		return -1;
	if (s->gzip)
		return gzip_next(s, data, length);
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
		int got = raw_fill(s);
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
	if (s->failed)
		return -1;
	if (!s->gzip && s->fd < 0) {
		s->raw_at = offset < s->memory_size ? (size_t)offset : s->memory_size;
		s->offset = s->raw_at;
		return 0;
	}
	if (!s->gzip) {
		if (lseek(s->fd, (off_t)offset, SEEK_SET) != (off_t)offset)
			return fail_errno(s, errno);
		s->in_at = s->in_length = 0;
		s->raw_eof = 0;
		s->offset = offset;
		return 0;
	}
	/* A gzip has no index: inflate again from the start, dropping what comes before offset. */
	if (s->fd >= 0 && lseek(s->fd, 0, SEEK_SET) != 0)
		return fail_errno(s, errno);
	s->raw_at = 0;
	s->raw_eof = 0;
	s->in_at = s->in_length = 0;
	s->member_ended = 0;
	s->out_at = s->out_have = 0;
	s->inflated = 0;
	s->offset = 0;
	free(s->deferred);
	s->deferred = NULL;
	inflateReset(&s->z);
	s->z.avail_in = 0;
	while (s->offset < offset) {
		size_t take;
		if (s->out_at == s->out_have) {
			int got = gzip_fill(s);
			if (got <= 0)
				return got;
		}
		take = s->out_have - s->out_at;
		if (take > offset - s->offset)
			take = (size_t)(offset - s->offset);
		s->out_at += take;
		s->offset += take;
	}
	return 0;
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

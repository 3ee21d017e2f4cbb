/* byte_source.h: where every parser's bytes come from: a file or memory, plain or gzip, in chunks. */
#ifndef RLI_PARSE_BYTE_SOURCE_H
#define RLI_PARSE_BYTE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes are handed out in chunks of at most this size, so memory never follows the file size. */
#define RLI_PARSE_CHUNK (64 * 1024)

/*
 * The most one gzip stream may inflate to: 16 GiB, sixteen times the largest trace the
 * benchmarks read. Deflate packs about 1000:1, so a 20 MB file could otherwise keep the parser
 * busy on a terabyte of zeros; past this the file is named and refused (the work stays bounded
 * by the input, at most a few minutes of inflating).
 */
#define RLI_GZIP_INFLATE_MAX ((uint64_t)16 << 30)

/* What reading a whole source through a consumer came to. */
typedef enum {
	RLI_READ_OK = 0,
	RLI_READ_EMPTY,  /* the source has no bytes (a gzip: inflates to none) */
	RLI_READ_FAILED, /* *failure holds the complete message */
	RLI_READ_HALTED, /* the consumer stopped on purpose */
	RLI_READ_OOM
} rli_read_result;

/* A source of bytes. Opaque: one reader at a time, any thread. */
typedef struct rli_bytes rli_bytes;

/*
 * Opens the file at path. It must be a regular file (through symlinks): a FIFO, a device, a
 * directory or a dangling symlink gives RLI_READ_FAILED at once, never a read that blocks. A
 * file that starts with the gzip magic bytes is inflated, whatever its name. RLI_READ_OK,
 * RLI_READ_FAILED with *failure = "Failed to read <path>: <why>" (free it), or RLI_READ_OOM.
 */
rli_read_result rli_bytes_open(rli_bytes **out, const char *path, char **failure);

/*
 * Bytes begin..end-1 of the plain file at path, as a source of their own (offsets count from
 * begin): one part of a file that several threads read at once. Not counted as a file read
 * (rli_input_totals) again: its whole is opened by rli_bytes_open first. Failures as rli_bytes_open's.
 */
rli_read_result rli_bytes_open_range(rli_bytes **out, const char *path, uint64_t begin, uint64_t end, char **failure);
/* The content of a plain file's source ends at byte end: what it read past it is dropped. 0, or -1 (gzip or memory). */
int rli_bytes_limit(rli_bytes *source, uint64_t end);

/*
 * A source over size bytes at data (not copied: they must outlive the source), plain or gzip
 * as the file would be. name stands for the path in messages. RLI_OK or RLI_ERROR (no memory).
 */
int rli_bytes_from_memory(rli_bytes **out, const char *name, const void *data, size_t size);

void rli_bytes_close(rli_bytes *source);

/* What the bytes are ("JSON", "CSV"), for "Failed to decompress <path>: ... after N bytes of JSON". */
void rli_bytes_set_content(rli_bytes *source, const char *content);
/* The most a gzip may inflate to (RLI_GZIP_INFLATE_MAX unless set; a test sets less). */
void rli_bytes_set_inflate_limit(rli_bytes *source, uint64_t limit);

const char *rli_bytes_name(const rli_bytes *source);
int rli_bytes_is_gzip(const rli_bytes *source);
/* Bytes handed out so far (inflated bytes for a gzip). */
uint64_t rli_bytes_offset(const rli_bytes *source);

/*
 * The next chunk: 1 with *data and *length (1..RLI_PARSE_CHUNK bytes, valid until the next call),
 * 0 at the end, -1 on failure: rli_bytes_failure() then says why, NULL meaning out of memory.
 * Read failures read "Failed to read <path>: <strerror>" (EINTR is retried, never reported);
 * gzip ones "Failed to decompress <path>: <why> after N bytes of <content> (the gzip file is
 * truncated or corrupt)". Bytes inflated before a corruption are handed out first.
 */
int rli_bytes_next(rli_bytes *source, const unsigned char **data, size_t *length);
const char *rli_bytes_failure(const rli_bytes *source);

/*
 * A gzip source inflates from here on on a thread of its own, a few blocks (1 MiB) ahead of the
 * reader, so that inflating and parsing run side by side: for a parse that has a spare core
 * (rli_unit.spare_threads). Call before the first chunk, after rli_bytes_set_content and
 * rli_bytes_set_inflate_limit. The chunks, failures and messages are the same as without it.
 * 1 when the thread runs; 0 when not (no gzip, or no thread to be had: the reader inflates).
 */
int rli_bytes_inflate_ahead(rli_bytes *source);
/* The library a gzip source inflates with, "igzip" (ISA-L) or "zlib" (RLI_GZIP=zlib, or a build without ISA-L); NULL if no gzip. */
const char *rli_bytes_inflater(const rli_bytes *source);

/* Starts over so that the next chunk begins at byte offset of the content. 0, or -1 as rli_bytes_next. */
int rli_bytes_seek(rli_bytes *source, uint64_t offset);

/* Receives the next bytes; returns 0 to go on, anything else to stop the read. */
typedef int (*rli_chunk_fn)(void *ctx, const unsigned char *data, size_t length);

/*
 * Streams the rest of source to fn. No bytes at all gives RLI_READ_EMPTY without a call; on
 * RLI_READ_FAILED, *failure is the source's message, newly allocated (free it).
 */
rli_read_result rli_bytes_stream(rli_bytes *source, rli_chunk_fn fn, void *ctx, char **failure);

/* rli_bytes_open, rli_bytes_stream (content named for messages), rli_bytes_close. */
rli_read_result rli_read_file(const char *path, const char *content, rli_chunk_fn fn, void *ctx, char **failure);


/*
 * A plain source (a file or memory, not a gzip) read at any offset, from any thread at once,
 * for a file cut into chunks; the reads count as every read does. Its size: 0, or -1 for a gzip.
 */
int rli_bytes_plain_size(const rli_bytes *source, uint64_t *size);
/* Up to room bytes at offset into `into`, *got of them (0 at the end). 0, or -1 (errno) for a failed read or a gzip. */
int rli_bytes_pread(rli_bytes *source, uint64_t offset, unsigned char *into, size_t room, size_t *got);

#endif

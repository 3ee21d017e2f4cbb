/* read_chunks.h: a regular file read in fixed-size chunks and handed to a streaming consumer. */
#ifndef RLI_PARSE_READ_CHUNKS_H
#define RLI_PARSE_READ_CHUNKS_H

#include <stddef.h>

/* What reading a whole file through a consumer came to. */
typedef enum {
	RLI_READ_OK = 0,
	RLI_READ_EMPTY,  /* the file has no bytes */
	RLI_READ_FAILED, /* *failure holds the complete message */
	RLI_READ_HALTED, /* the consumer stopped on purpose */
	RLI_READ_OOM
} rli_read_result;

/* Receives the next bytes of the file; returns 0 to go on, anything else to stop the read. */
typedef int (*rli_chunk_fn)(void *ctx, const unsigned char *data, size_t length);

/*
 * Streams the file at path to fn in RLI_PARSE_CHUNK reads (EINTR retried). An empty file gives
 * RLI_READ_EMPTY without a call; on RLI_READ_FAILED, *failure is "Failed to read <path>: <why>"
 * (free it), also for something that is not a regular file.
 */
rli_read_result rli_read_chunks(const char *path, rli_chunk_fn fn, void *ctx, char **failure);

#endif

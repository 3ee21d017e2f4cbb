/* byte_source_internal.h: what the byte source's two files share: the source itself, raw reads, the gzip part. */
#ifndef RLI_PARSE_BYTE_SOURCE_INTERNAL_H
#define RLI_PARSE_BYTE_SOURCE_INTERNAL_H

#include "byte_source.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/*
 * A gzip is inflated this much at a time and handed out in RLI_PARSE_CHUNK slices: zlib copies
 * the last 32 KiB of every inflate call's output into its window, so a bigger output keeps that
 * copy small (a quarter of 128 KiB under gzread; an eighth here).
 */
#define GZIP_OUT (4 * RLI_PARSE_CHUNK)
/* Inflated blocks the inflating thread may hold ahead of the parse: 1 MiB, whatever the file's size. */
#define GZIP_AHEAD 4

/* Which library inflates: ISA-L's igzip where the build has it (several times zlib's speed), else zlib. */
enum { INFLATE_ZLIB = 0, INFLATE_ISAL };

typedef struct gzip_ahead gzip_ahead;

struct rli_bytes {
	char *name;           /* the path, or what stands for it, in messages */
	const char *content;  /* "JSON", "CSV": what the bytes are */
	int fd;               /* -1 for memory */
	const unsigned char *memory;
	size_t memory_size;
	size_t raw_at;        /* raw bytes consumed from memory */
	int raw_eof;          /* no raw bytes left */
	uint64_t raw_pos;     /* file: where the next read() reads */
	uint64_t raw_begin;   /* file: where the content starts (rli_bytes_open_range; 0 otherwise) */
	uint64_t raw_end;     /* file: where it ends (UINT64_MAX: at the file's end) */
	unsigned char *in;    /* file: raw bytes read, in_length of them, first in_at not yet used */
	size_t in_length, in_at;
	uint64_t offset;      /* content bytes handed out */
	char *failure;        /* after -1: why (NULL: out of memory) */
	int failed;
	/* gzip */
	int gzip;
	int inflater;         /* INFLATE_* */
	z_stream z;
	int z_ready;          /* inflateInit2 done */
	void *isal;           /* ISA-L's inflate state, when it inflates */
	const unsigned char *next_in; /* raw bytes in view for the inflater, avail_in of them */
	size_t avail_in;
	int member_ended;     /* the last gzip member ended: only another member may follow */
	uint64_t limit;
	char *deferred;       /* a gzip failure to report once the bytes before it are out */
	unsigned char *out;   /* the inflated block handed out in slices */
	size_t out_at, out_have; /* out holds out_have inflated bytes, the first out_at handed out */
	uint64_t inflated;    /* bytes inflated so far */
	gzip_ahead *ahead;    /* the inflating thread, when one runs (rli_bytes_inflate_ahead) */
};

/* Fills s->in from the file (EINTR retried). 1 with bytes, 0 at the end, -1 on failure. */
int rli_bytes_raw_fill(rli_bytes *s);
/* "Failed to read <name>: <strerror>": s fails; -1. */
int rli_bytes_fail_errno(rli_bytes *s, int error);

/* gzip_source.c: the gzip part of a source. */
/* Sets up inflating when the content starts with the gzip magic bytes. 0, or -1 out of memory. */
int rli_gzip_start(rli_bytes *s, const unsigned char *head, size_t length);
void rli_gzip_dispose(rli_bytes *s);
/* The next slice of the inflated content, as rli_bytes_next. */
int rli_gzip_next(rli_bytes *s, const unsigned char **data, size_t *length);
/* Starts over from the first member, as rli_bytes_seek; 0 or -1. */
int rli_gzip_seek(rli_bytes *s, uint64_t offset);

#endif

/* png_deflate.h: the zlib stream of a PNG's scanlines, compressed the way flat-colour charts repeat. */
#ifndef RLI_RENDER_PNG_DEFLATE_H
#define RLI_RENDER_PNG_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct rli_png_deflate rli_png_deflate;

/* Takes the next piece of the compressed stream (an IDAT chunk's data); anything but 0 stops the stream. */
typedef int (*rli_png_deflate_sink)(void *context, const unsigned char *bytes, size_t length);

/*
 * A stream for rows of row_bytes bytes each (3 a pixel for RGB), handed to
 * sink in pieces as they fill. Returns RLI_OK, or the out-of-memory error.
 */
int rli_png_deflate_new(rli_png_deflate **out, size_t row_bytes, rli_png_deflate_sink sink, void *context);

/* Where the caller writes the next row's row_bytes pixel bytes, before rli_png_deflate_commit. */
unsigned char *rli_png_deflate_row(rli_png_deflate *stream);

/* Filters and compresses the row written at rli_png_deflate_row; a non-zero sink answer is returned. */
int rli_png_deflate_commit(rli_png_deflate *stream);

/*
 * The next row is the same as the last one committed (at least one was): compressed as commit
 * would compress it, without it being written at rli_png_deflate_row, which stays where it was.
 */
int rli_png_deflate_repeat(rli_png_deflate *stream);
/* Ends the stream (the last block and the Adler-32 check) and hands over what is left. */
int rli_png_deflate_finish(rli_png_deflate *stream);

void rli_png_deflate_free(rli_png_deflate *stream);

/* The Adler-32 checksum of zlib (RFC 1950) continued over bytes: start from 1. */
uint32_t rli_adler32(uint32_t adler, const unsigned char *bytes, size_t length);

#endif

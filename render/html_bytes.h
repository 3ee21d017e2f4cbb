/* html_bytes.h: the compact number streams the HTML pages carry: LEB128 varints, zigzag, base64 and base85. */
#ifndef RLI_RENDER_HTML_BYTES_H
#define RLI_RENDER_HTML_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "layout/layout.h"

/* A growing byte buffer. Zero-initialise; free bytes when done. */
typedef struct {
	unsigned char *bytes;
	size_t used, capacity;
} rli_bytes;

int rli_bytes_reserve(rli_bytes *b, size_t extra);
/* length bytes copied onto the end. */
int rli_bytes_append(rli_bytes *b, const void *bytes, size_t length);
/*
 * LEB128: 7 bits a byte, low first, the high bit set on every byte but the last. Inline: the
 * memory pages write some ten million of them, a call each a tenth of their writing's own work.
 */
static inline int rli_bytes_varint(rli_bytes *b, uint64_t value)
{
	if (b->capacity - b->used < 10) {
		int error = rli_bytes_reserve(b, 10);
		if (error < 0)
			return error;
	}
	do {
		unsigned char byte = value & 0x7F;
		value >>= 7;
		b->bytes[b->used++] = byte | (value ? 0x80 : 0);
	} while (value);
	return RLI_OK;
}
int rli_bytes_float64_le(rli_bytes *b, double value);

/* Signed to unsigned, small magnitudes to small codes: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ... */
static inline uint64_t rli_zigzag(int64_t value)
{
	return value < 0 ? ((uint64_t)(-(value + 1)) << 1) | 1 : (uint64_t)value << 1;
}

/* Standard base64 with padding, no line breaks. */
void rli_write_base64(FILE *fp, const unsigned char *data, size_t length);
/*
 * Base 85 in Z85's alphabet, no line breaks: four bytes (big-endian) as five digits, most
 * significant first, and a last group of n < 4 bytes, zero-padded, as its first n + 1 digits
 * (its reader pads with the highest digit and keeps n bytes, as Ascii85 does). A quarter more
 * text than the bytes, where base64 writes a third more.
 */
void rli_write_base85(FILE *fp, const unsigned char *data, size_t length);

typedef enum { RLI_TEXT_BASE64, RLI_TEXT_BASE85 } rli_text_encoding;
/*
 * data deflated (zlib's format, RFC 1950) and written as base64 (or base85): what a page's
 * script inflates with the browser's DecompressionStream("deflate"). RLI_OK, or an error set.
 * rli_write_packed_as: the first text_length bytes are text, the rest binary streams (varints),
 * deflated each as suits it (html_bytes.c).
 */
int rli_write_packed(FILE *fp, const unsigned char *data, size_t length);
int rli_write_packed_as(FILE *fp, const unsigned char *data, size_t length, size_t text_length,
			rli_text_encoding encoding);

/* A stream written into memory (open_memstream): the text of what is then packed. */
typedef struct {
	FILE *fp;
	char *text;
	size_t length;
} rli_memfile;

int rli_memfile_open(rli_memfile *m);
/* Ends the stream: text and length hold what was written. RLI_OK, or out of memory. */
int rli_memfile_close(rli_memfile *m);
void rli_memfile_dispose(rli_memfile *m);

/* JSON: "#rrggbb"; "key":number; [x,y,w,h]; a placed text as an object. */
void rli_html_color(FILE *fp, rli_color color);
void rli_html_number(FILE *fp, const char *key, double value);
void rli_html_rect(FILE *fp, const rli_rect *rect);
void rli_html_text_item(FILE *fp, const rli_text *text);
/* [{"x","y"[,"radius"],"color","label"}...]: a panel's point marks; radius: write each one's radius too. */
void rli_html_points(FILE *fp, const rli_point_mark *points, size_t count, int radius);
/* [texts...] as JSON strings safe in a script element; NULL as "". */
void rli_html_strings(FILE *fp, const char *const *texts, size_t count);
/* ,"key":[{"value","label"}...]: an axis' ticks. */
void rli_html_ticks(FILE *fp, const char *key, const rli_tick *ticks, size_t count);
/*
 * Text escaped for HTML text and for a quoted attribute value: & < > " ' as
 * entities, and bytes that are not UTF-8 as U+FFFD.
 */
void rli_html_escape(FILE *fp, const char *text);

/*
 * RLI_ERROR unless every script could sit inside a script element (no
 * "</script", "<script" or "<!--") and the style sheet inside a style element.
 */
int rli_html_check_assets(const char *const *scripts, size_t count, const char *style);

#endif

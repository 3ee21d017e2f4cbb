/* html_bytes.c: the compact number streams the HTML pages carry: LEB128 varints, zigzag, base64 and base85. */
#include "html_bytes.h"
#include "common/error.h"
#include "common/json_write.h"
#include "common/utf8.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int rli_bytes_reserve(rli_bytes *b, size_t extra)
{
	size_t wanted = b->used + extra;
	if (wanted <= b->capacity)
		return RLI_OK;
	size_t capacity = b->capacity ? b->capacity : 4096;
	while (capacity < wanted)
		capacity *= 2;
	unsigned char *grown = realloc(b->bytes, capacity);
	if (!grown)
		return rli_error_oom();
	b->bytes = grown;
	b->capacity = capacity;
	return RLI_OK;
}

int rli_bytes_append(rli_bytes *b, const void *bytes, size_t length)
{
	int error = rli_bytes_reserve(b, length);
	if (error < 0)
		return error;
	if (length)
		memcpy(b->bytes + b->used, bytes, length);
	b->used += length;
	return RLI_OK;
}

int rli_bytes_float64_le(rli_bytes *b, double value)
{
	uint64_t bits;
	int error;
	if ((error = rli_bytes_reserve(b, 8)) < 0)
		return error;
	memcpy(&bits, &value, sizeof(bits));
	for (int i = 0; i < 8; i++)
		b->bytes[b->used++] = (unsigned char)(bits >> (8 * i));
	return RLI_OK;
}

void rli_write_base64(FILE *fp, const unsigned char *data, size_t length)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char line[4096];
	size_t filled = 0;
	for (size_t i = 0; i < length; i += 3) {
		uint32_t chunk = (uint32_t)data[i] << 16;
		size_t left = length - i;
		if (left > 1)
			chunk |= (uint32_t)data[i + 1] << 8;
		if (left > 2)
			chunk |= data[i + 2];
		line[filled++] = alphabet[(chunk >> 18) & 63];
		line[filled++] = alphabet[(chunk >> 12) & 63];
		line[filled++] = left > 1 ? alphabet[(chunk >> 6) & 63] : '=';
		line[filled++] = left > 2 ? alphabet[chunk & 63] : '=';
		if (filled + 4 > sizeof(line)) {
			fwrite(line, 1, filled, fp);
			filled = 0;
		}
	}
	fwrite(line, 1, filled, fp);
}

/*
 * Z85's alphabet (ZeroMQ RFC 32): no quote, backslash or control character, so the text sits in
 * a JavaScript string as it is.
 */
static const char base85_alphabet[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

void rli_write_base85(FILE *fp, const unsigned char *data, size_t length)
{
	char line[4096];
	size_t filled = 0;
	for (size_t i = 0; i < length; i += 4) {
		size_t left = length - i, take = left < 4 ? left : 4;
		uint32_t group = 0;
		char digits[5];
		for (size_t k = 0; k < 4; k++)
			group = group << 8 | (k < take ? data[i + k] : 0);
		for (int k = 4; k >= 0; k--) {
			digits[k] = base85_alphabet[group % 85];
			group /= 85;
		}
		/* A last group of n bytes keeps its first n + 1 digits (see the header). */
		memcpy(line + filled, digits, take + 1);
		filled += take + 1;
		if (filled + 5 > sizeof(line)) {
			fwrite(line, 1, filled, fp);
			filled = 0;
		}
	}
	fwrite(line, 1, filled, fp);
}

/*
 * Level 1, zlib's fastest: varints leave little for the slower levels to find, and the model's
 * text and the call stacks shrink to a fifth at any level. On the memory benches' pages level 6
 * (zlib's default) made them 0.7-1.9% smaller and took 15-40% longer to write: 410 -> 285 ms for
 * a million rows on one device, 109 -> 85 ms for deep stacks, 670 -> 480 ms for 16 ranks.
 *
 * Past the text, deflate's search for repeats finds little in varint streams but runs of a byte
 * and the bytes' frequencies, and was two thirds of the time of writing a memory page: a binary
 * part of 16 KiB or more is deflated with Z_RLE instead, which looks for runs only. On the
 * memory and torch benches' pages that packs 1.8-3.1x faster for 1-3% more bytes (a page of
 * 16 ranks' or 128 devices' holds 30-60 KB of streams). A smaller part keeps the search: it
 * costs little there, and a small page's streams repeat (the sample's pack 15% smaller so).
 */
#define PACK_RUNS_FROM (16 * 1024)

/* z writes into out's room left (zlib counts it in 32 bits). */
static void point_at_room(z_stream *z, rli_bytes *out)
{
	z->next_out = out->bytes + out->used;
	z->avail_out = (uInt)(out->capacity - out->used > UINT32_MAX ? UINT32_MAX : out->capacity - out->used);
}

/* Deflates what z has in with flush, the output growing as it needs. RLI_OK, or an error set. */
static int deflate_into(z_stream *z, rli_bytes *out, int flush)
{
	for (;;) {
		int status, error;
		if (out->capacity - out->used < 64 && (error = rli_bytes_reserve(out, out->capacity)) < 0)
			return error;
		point_at_room(z, out);
		status = deflate(z, flush);
		out->used = (size_t)(z->next_out - out->bytes);
		if (status == Z_STREAM_END || (flush != Z_FINISH && z->avail_in == 0 && z->avail_out > 0))
			return RLI_OK;
		if (status != Z_OK && status != Z_BUF_ERROR)
			return rli_error_set(RLI_ERROR, "html: zlib could not pack a page's data (status %d)", status);
	}
}

static int pack(rli_bytes *out, const unsigned char *data, size_t length, size_t text_length)
{
	z_stream z;
	int error, runs = text_length < length && length - text_length >= PACK_RUNS_FROM;

	memset(&z, 0, sizeof(z));
	if ((error = deflateInit(&z, Z_BEST_SPEED)) != Z_OK)
		return error == Z_MEM_ERROR ? rli_error_oom()
					    : rli_error_set(RLI_ERROR, "html: zlib could not start packing (status %d)", error);
	if ((error = rli_bytes_reserve(out, deflateBound(&z, (uLong)length) + 64)) < 0)
		goto done;
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)(runs ? text_length : length);
	if (runs) {
		/* The text's blocks end where the streams begin, and the streams are deflated as runs. */
		if ((error = deflate_into(&z, out, Z_BLOCK)) < 0)
			goto done;
		point_at_room(&z, out);
		if (deflateParams(&z, Z_BEST_SPEED, Z_RLE) != Z_OK) {
			error = rli_error_set(RLI_ERROR, "html: zlib could not pack a page's data as runs");
			goto done;
		}
		out->used = (size_t)(z.next_out - out->bytes);
		z.next_in = (unsigned char *)data + text_length;
		z.avail_in = (uInt)(length - text_length);
	}
	error = deflate_into(&z, out, Z_FINISH);
done:
	deflateEnd(&z);
	return error;
}

int rli_write_packed_as(FILE *fp, const unsigned char *data, size_t length, size_t text_length,
			rli_text_encoding encoding)
{
	rli_bytes packed = { 0 };
	int error;

	if (length > (size_t)UINT32_MAX)
		return rli_error_set(RLI_EUSAGE, "html: a page's data of %zu bytes is past what one page packs", length);
	if ((error = pack(&packed, data, length, text_length < length ? text_length : length)) == RLI_OK) {
		if (encoding == RLI_TEXT_BASE85)
			rli_write_base85(fp, packed.bytes, packed.used);
		else
			rli_write_base64(fp, packed.bytes, packed.used);
	}
	free(packed.bytes);
	return error;
}

int rli_write_packed(FILE *fp, const unsigned char *data, size_t length)
{
	return rli_write_packed_as(fp, data, length, length, RLI_TEXT_BASE64);
}

int rli_memfile_open(rli_memfile *m)
{
	memset(m, 0, sizeof(*m));
	if (!(m->fp = open_memstream(&m->text, &m->length)))
		return rli_error_oom();
	return RLI_OK;
}

int rli_memfile_close(rli_memfile *m)
{
	int failed = ferror(m->fp) != 0;
	failed |= fclose(m->fp) != 0;
	m->fp = NULL;
	return failed || !m->text ? rli_error_oom() : RLI_OK;
}

void rli_memfile_dispose(rli_memfile *m)
{
	if (m->fp)
		fclose(m->fp);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

/* ---- JSON and HTML pieces both page writers use ---- */

void rli_html_color(FILE *fp, rli_color color)
{
	fprintf(fp, "\"#%06" PRIx32 "\"", color & 0xFFFFFF);
}

void rli_html_number(FILE *fp, const char *key, double value)
{
	fprintf(fp, "\"%s\":", key);
	rli_json_write_double(fp, value);
}

void rli_html_rect(FILE *fp, const rli_rect *rect)
{
	putc('[', fp);
	rli_json_write_double(fp, rect->x);
	putc(',', fp);
	rli_json_write_double(fp, rect->y);
	putc(',', fp);
	rli_json_write_double(fp, rect->w);
	putc(',', fp);
	rli_json_write_double(fp, rect->h);
	putc(']', fp);
}

void rli_html_text_item(FILE *fp, const rli_text *text)
{
	fputs("{\"text\":", fp);
	rli_json_write_string(fp, text->text ? text->text : "", RLI_JSON_HTML_SAFE);
	putc(',', fp);
	rli_html_number(fp, "x", text->x);
	putc(',', fp);
	rli_html_number(fp, "y", text->y);
	putc(',', fp);
	rli_html_number(fp, "size", text->size);
	fprintf(fp, ",\"bold\":%s,\"color\":", text->bold ? "true" : "false");
	rli_html_color(fp, text->color);
	fprintf(fp, ",\"halign\":%d,\"valign\":%d,", (int)text->halign, (int)text->valign);
	rli_html_number(fp, "angle", text->angle);
	putc(',', fp);
	rli_html_number(fp, "maxWidth", text->max_width);
	putc('}', fp);
}

void rli_html_escape(FILE *fp, const char *text)
{
	const unsigned char *c = (const unsigned char *)text;
	while (c && *c) {
		uint32_t code_point;
		size_t length;
		switch (*c) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default:
			/* A page is UTF-8 throughout: bytes that are not text are written as U+FFFD. */
			if ((length = rli_utf8_sequence(c, &code_point)) == 0) {
				fputs(RLI_UTF8_REPLACEMENT, fp);
				c++;
			} else {
				fwrite(c, 1, length, fp);
				c += length;
			}
			continue;
		}
		c++;
	}
}

int rli_html_check_assets(const char *const *scripts, size_t count, const char *style)
{
	/* An asset that could close its own element (or open a comment state) would break the page. */
	for (size_t i = 0; i < count; i++)
		if (strstr(scripts[i], "</script") || strstr(scripts[i], "<!--") || strstr(scripts[i], "<script"))
			return rli_error_set(RLI_ERROR, "html: embedded renderer contains a closing tag");
	if (style && strstr(style, "</style"))
		return rli_error_set(RLI_ERROR, "html: embedded style sheet contains a closing tag");
	return RLI_OK;
}

void rli_html_ticks(FILE *fp, const char *key, const rli_tick *ticks, size_t count)
{
	fprintf(fp, ",\"%s\":[", key);
	for (size_t t = 0; t < count; t++) {
		char label[sizeof(ticks[t].label) + 1];
		memcpy(label, ticks[t].label, sizeof(ticks[t].label));
		label[sizeof(label) - 1] = '\0';
		fputs(t ? ",{\"value\":" : "{\"value\":", fp);
		rli_json_write_double(fp, ticks[t].value);
		fputs(",\"label\":", fp);
		rli_json_write_string(fp, label, RLI_JSON_HTML_SAFE);
		fputc('}', fp);
	}
	fputc(']', fp);
}

void rli_html_strings(FILE *fp, const char *const *texts, size_t count)
{
	putc('[', fp);
	for (size_t i = 0; i < count; i++) {
		if (i)
			putc(',', fp);
		rli_json_write_string(fp, texts[i] ? texts[i] : "", RLI_JSON_HTML_SAFE);
	}
	putc(']', fp);
}

void rli_html_points(FILE *fp, const rli_point_mark *points, size_t count, int radius)
{
	putc('[', fp);
	for (size_t i = 0; i < count; i++) {
		const rli_point_mark *point = &points[i];
		fputs(i ? ",{" : "{", fp);
		rli_html_number(fp, "x", point->x);
		fputc(',', fp);
		rli_html_number(fp, "y", point->y);
		if (radius) {
			fputc(',', fp);
			rli_html_number(fp, "radius", point->radius);
		}
		fputs(",\"color\":", fp);
		rli_html_color(fp, point->color);
		fputs(",\"label\":", fp);
		rli_html_text_item(fp, &point->label);
		fputc('}', fp);
	}
	putc(']', fp);
}

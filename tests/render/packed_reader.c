/* packed_reader.c: what html_bytes.c packs, read back without the writer's code: base64 or base85, then zlib's inflate. */
#include "packed_reader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/*
 * Base 85 as the data files carry it, read here without the writer's code: Z85's digits, five to
 * four bytes big-endian, a last group of n + 1 digits padded with the highest digit to n bytes.
 * The bytes written to packed; -1 on a character outside the alphabet or a lone last digit.
 */
static long base85_decode(unsigned char *packed, const char *text, size_t count)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
	long out = 0;
	if (count % 5 == 1)
		return -1;
	for (size_t i = 0; i < count; i += 5) {
		size_t group = count - i < 5 ? count - i : 5;
		uint64_t value = 0;
		for (size_t k = 0; k < 5; k++) {
			const char *d = k < group ? strchr(digits, text[i + k]) : digits + 84;
			if (!d || !*d)
				return -1;
			value = value * 85 + (uint64_t)(d - digits);
		}
		if (value > UINT32_MAX)
			return -1;
		for (size_t k = 0; k + 1 < group; k++)
			packed[out++] = (unsigned char)(value >> (24 - 8 * k));
	}
	return out;
}

unsigned char *rli_test_unpacked(const char *text, const char *marker, size_t *length)
{
	const char *at = text ? strstr(text, marker) : NULL;
	unsigned char *packed, *out = NULL;
	size_t packed_length = 0, capacity = 1 << 16;
	uint32_t acc = 0;
	int bits = 0, status = Z_OK;
	z_stream z = { 0 };

	*length = 0;
	if (!at)
		return NULL;
	at += strlen(marker);
	packed = malloc(strlen(at) + 1);
	if (strcmp(marker, "\"packed\":\"") == 0) {
		long decoded = base85_decode(packed, at, strcspn(at, "\""));
		if (decoded < 0)
			goto done;
		packed_length = (size_t)decoded;
		at += strlen(at); /* past the loop below */
	}
	for (; *at && *at != '"' && *at != '<'; at++) {
		int v = b64_value(*at);
		if (v < 0)
			continue;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			packed[packed_length++] = (unsigned char)(acc >> bits);
		}
	}
	if (inflateInit(&z) != Z_OK)
		goto done;
	z.next_in = packed;
	z.avail_in = (uInt)packed_length;
	while (status == Z_OK) {
		unsigned char *grown = realloc(out, capacity + 1);
		if (!grown)
			break;
		out = grown;
		z.next_out = out + *length;
		z.avail_out = (uInt)(capacity - *length);
		status = inflate(&z, Z_NO_FLUSH);
		*length = capacity - z.avail_out;
		capacity *= 2;
	}
	inflateEnd(&z);
	if (status != Z_STREAM_END || z.avail_in != 0) {
		free(out);
		out = NULL;
		*length = 0;
	} else {
		out[*length] = '\0';
	}
done:
	free(packed);
	return out;
}

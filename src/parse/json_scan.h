/* json_scan.h: the pieces of JSON text a fast scanner reads exactly as yajl would, and declines where yajl must judge. */
#ifndef RLI_PARSE_JSON_SCAN_H
#define RLI_PARSE_JSON_SCAN_H

#include "common/utf8.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Each reader here answers for a run of bytes: where it ends (RLI_SCAN_OK), that the bytes run
 * out before it ends (RLI_SCAN_MORE: read on, then look again), or that it holds something only
 * yajl may judge (RLI_SCAN_DECLINED: a \u escape, bytes that are no well-formed UTF-8, a control
 * character, a numeral off the grammar). What they accept is valid JSON yajl reads to the same
 * tokens; what they decline may still be valid, and yajl says.
 */
enum { RLI_SCAN_OK = 0, RLI_SCAN_MORE, RLI_SCAN_DECLINED };

/* JSON's blanks between tokens; yajl also takes \v and \f, which the scanners leave to it. */
static inline const unsigned char *rli_scan_blanks(const unsigned char *p, const unsigned char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

/* The one-letter escapes JSON has, each with the byte it stands for (0: none). */
extern const unsigned char rli_scan_escaped[256];

/*
 * The closing quote of a string whose opening quote is just before p, in *close. *escapes is
 * set when the string holds a one-letter escape (its text must be undone: rli_scan_unescape).
 */
/*
 * Whether any of the 8 bytes in v needs a look: a quote, a backslash, a control character, DEL,
 * or a byte of a multi-byte sequence. Call stacks are strings of thousands of plain bytes: eight
 * at a time, they cost an eighth of the byte-by-byte test.
 */
static inline int rli_scan_word_plain(uint64_t v)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
#define RLI_SCAN_HAS_ZERO(x) (((x) - ones) & ~(x) & highs)
	uint64_t special = (v & highs) | ((v - 0x2020202020202020u) & ~v & highs) |
			   RLI_SCAN_HAS_ZERO(v ^ 0x2222222222222222u) | RLI_SCAN_HAS_ZERO(v ^ 0x5c5c5c5c5c5c5c5cu) |
			   RLI_SCAN_HAS_ZERO(v ^ 0x7f7f7f7f7f7f7f7fu);
#undef RLI_SCAN_HAS_ZERO
	return special == 0;
}

static inline int rli_scan_string(const unsigned char *p, const unsigned char *end, const unsigned char **close,
				  int *escapes)
{
	for (; p < end; p++) {
		uint64_t word;
		while (end - p >= 8) {
			memcpy(&word, p, 8);
			if (!rli_scan_word_plain(word))
				break;
			p += 8;
		}
		if (p == end)
			break;
		unsigned char c = *p;
		if (c == '"') {
			*close = p;
			return RLI_SCAN_OK;
		}
		if (c == '\\') {
			if (++p == end)
				return RLI_SCAN_MORE;
			if (!rli_scan_escaped[*p])
				return RLI_SCAN_DECLINED;
			*escapes = 1;
		} else if (c >= 0x80) {
			uint32_t code_point;
			size_t length = rli_utf8_sequence_within(p, (size_t)(end - p), &code_point);
			if (length == 0)
				/* A sequence cut by the end of the bytes may be whole once more are read. */
				return (size_t)(end - p) < 4 ? RLI_SCAN_MORE : RLI_SCAN_DECLINED;
			p += length - 1;
		} else if (c < 0x20 || c == 0x7f) {
			return RLI_SCAN_DECLINED;
		}
	}
	return RLI_SCAN_MORE;
}

/* A string's text from `from` to its closing quote `to` with its escapes undone into out (room: to - from). */
static inline size_t rli_scan_unescape(char *out, const unsigned char *from, const unsigned char *to)
{
	size_t n = 0;
	for (const unsigned char *p = from; p < to; p++)
		out[n++] = *p == '\\' ? (char)rli_scan_escaped[*++p] : (char)*p;
	return n;
}

static inline int rli_scan_is_digit(unsigned char c)
{
	return (unsigned)(c - '0') <= 9;
}

/*
 * A numeral in JSON's grammar starting at p, its end in *after. Where the bytes end in it, more
 * digits may follow: RLI_SCAN_MORE.
 */
static inline int rli_scan_number(const unsigned char *p, const unsigned char *end, const unsigned char **after)
{
	if (p < end && *p == '-')
		p++;
	if (p == end)
		return RLI_SCAN_MORE;
	if (!rli_scan_is_digit(*p))
		return RLI_SCAN_DECLINED;
	if (*p++ != '0')
		while (p < end && rli_scan_is_digit(*p))
			p++;
	if (p < end && *p == '.') {
		if (++p == end)
			return RLI_SCAN_MORE;
		if (!rli_scan_is_digit(*p))
			return RLI_SCAN_DECLINED;
		while (p < end && rli_scan_is_digit(*p))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end)
			return RLI_SCAN_MORE;
		if (!rli_scan_is_digit(*p))
			return RLI_SCAN_DECLINED;
		while (p < end && rli_scan_is_digit(*p))
			p++;
	}
	if (p == end)
		return RLI_SCAN_MORE;
	*after = p;
	return RLI_SCAN_OK;
}

/* The literal true, false or null at p: 't', 'f' or 'n' in *kind, its end in *after. */
static inline int rli_scan_literal(const unsigned char *p, const unsigned char *end, const unsigned char **after,
				   int *kind)
{
	static const char *const literals[] = {"true", "false", "null"};
	for (size_t i = 0; i < 3; i++) {
		size_t length = strlen(literals[i]);
		if (*p != (unsigned char)literals[i][0])
			continue;
		if ((size_t)(end - p) < length)
			return memcmp(p, literals[i], (size_t)(end - p)) == 0 ? RLI_SCAN_MORE : RLI_SCAN_DECLINED;
		if (memcmp(p, literals[i], length) != 0)
			return RLI_SCAN_DECLINED;
		*kind = literals[i][0];
		*after = p + length;
		return RLI_SCAN_OK;
	}
	return RLI_SCAN_DECLINED;
}

#endif

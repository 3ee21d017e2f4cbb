/*
 * fuzz_escape.c: libFuzzer target: the escapers that put trace text into pages, checked by a property:
 * a strict reader of what they wrote gives back the text (bytes that are not UTF-8 as U+FFFD), and
 * nothing that could end a script, an element or an attribute is left raw.
 */
#include "common/json_write.h"
#include "html_bytes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(condition) do { if (!(condition)) abort(); } while (0)

/* The bytes of the well-formed UTF-8 sequence at s[0..n), or 0: Unicode's table 3-7, written out anew. */
static size_t reference_sequence(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t len;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xE0)
		lo = 0xA0;
	else if (s[0] == 0xED)
		hi = 0x9F;
	else if (s[0] == 0xF0)
		lo = 0x90;
	else if (s[0] == 0xF4)
		hi = 0x8F;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

/* What the escapers promise to keep: the text, with each byte that starts no sequence as U+FFFD. */
static size_t reference_text(char *out, const unsigned char *s, size_t n)
{
	size_t used = 0;
	for (size_t i = 0; i < n;) {
		size_t len = reference_sequence(s + i, n - i);
		if (len == 0) {
			memcpy(out + used, "\xEF\xBF\xBD", 3);
			used += 3;
			i++;
		} else {
			memcpy(out + used, s + i, len);
			used += len;
			i += len;
		}
	}
	return used;
}

/* Whether s[0..n) is UTF-8 throughout. */
static int reference_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0, len; i < n; i += len)
		if ((len = reference_sequence(s + i, n - i)) == 0)
			return 0;
	return 1;
}

static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	} else if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	} else if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* A strict JSON string reader (RFC 8259): aborts on anything a JSON parser would refuse. */
static size_t read_json_string(char *out, const char *in, size_t n)
{
	size_t used = 0, i = 1;
	CHECK(n >= 2 && in[0] == '"' && in[n - 1] == '"');
	CHECK(reference_valid((const unsigned char *)in, n)); /* the output itself is UTF-8 */
	while (i < n - 1) {
		unsigned char c = (unsigned char)in[i];
		CHECK(c >= 0x20 && c != '"');
		if (c != '\\') {
			out[used++] = (char)c;
			i++;
			continue;
		}
		CHECK(i + 1 < n - 1);
		switch (in[i + 1]) {
		case '"': case '\\': case '/': out[used++] = in[i + 1]; i += 2; break;
		case 'b': out[used++] = '\b'; i += 2; break;
		case 'f': out[used++] = '\f'; i += 2; break;
		case 'n': out[used++] = '\n'; i += 2; break;
		case 'r': out[used++] = '\r'; i += 2; break;
		case 't': out[used++] = '\t'; i += 2; break;
		case 'u': {
			uint32_t cp = 0;
			CHECK(i + 6 <= n - 1);
			for (int k = 0; k < 4; k++) {
				int h = hex_value(in[i + 2 + k]);
				CHECK(h >= 0);
				cp = cp << 4 | (uint32_t)h;
			}
			/* our writer escapes only characters below U+FFFF that are no surrogates */
			CHECK(cp < 0xD800 || cp > 0xDFFF);
			used += put_utf8(out + used, cp);
			i += 6;
			break;
		}
		default: abort();
		}
	}
	return used;
}

/* A strict reader of escaped HTML text: the five entities the escaper writes, nothing else after '&'. */
static size_t read_html_text(char *out, const char *in, size_t n)
{
	static const struct { const char *entity; char c; } entities[] = {
		{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
	size_t used = 0;
	CHECK(reference_valid((const unsigned char *)in, n));
	for (size_t i = 0; i < n;) {
		size_t k;
		CHECK(in[i] != '<' && in[i] != '>' && in[i] != '"' && in[i] != '\'');
		if (in[i] != '&') {
			out[used++] = in[i++];
			continue;
		}
		for (k = 0; k < sizeof(entities) / sizeof(entities[0]); k++) {
			size_t len = strlen(entities[k].entity);
			if (n - i >= len && memcmp(in + i, entities[k].entity, len) == 0) {
				out[used++] = entities[k].c;
				i += len;
				break;
			}
		}
		CHECK(k < sizeof(entities) / sizeof(entities[0]));
	}
	return used;
}

/* What fn wrote for text, through a memory stream. */
static char *written(size_t *length, void (*fn)(FILE *, const char *, int), const char *text, int flags)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, length);
	CHECK(fp);
	fn(fp, text, flags);
	CHECK(fclose(fp) == 0);
	return buf;
}

static void html_escape(FILE *fp, const char *text, int flags)
{
	(void)flags;
	rli_html_escape(fp, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The escapers take C strings: the text ends at the first NUL, as a parsed name does. */
	size_t n = strnlen((const char *)data, size), expected_length, length;
	char *text = malloc(n + 1), *expected = malloc(3 * n + 1), *decoded = malloc(3 * n + 1);
	char *escaped = malloc(RLI_JSON_ESCAPED_MAX(n)), *out;

	CHECK(text && expected && decoded && escaped);
	memcpy(text, data, n);
	text[n] = '\0';
	expected_length = reference_text(expected, (const unsigned char *)text, n);

	for (int flags = RLI_JSON_PLAIN; flags <= RLI_JSON_HTML_SAFE; flags++) {
		size_t escaped_length = rli_json_escape(escaped, text, flags);
		CHECK(escaped_length <= RLI_JSON_ESCAPED_MAX(n));
		CHECK(read_json_string(decoded, escaped, escaped_length) == expected_length);
		CHECK(memcmp(decoded, expected, expected_length) == 0);
		/* The streaming writer writes the very same bytes. */
		out = written(&length, rli_json_write_string, text, flags);
		CHECK(length == escaped_length && memcmp(out, escaped, length) == 0);
		free(out);
		if (flags == RLI_JSON_HTML_SAFE) {
			/* Inside <script>: nothing that opens a tag, a comment or an entity, no JS line terminator. */
			CHECK(!memchr(escaped, '<', escaped_length) && !memchr(escaped, '>', escaped_length) &&
			      !memchr(escaped, '&', escaped_length));
			for (size_t i = 0; i + 2 < escaped_length; i++)
				CHECK(!((unsigned char)escaped[i] == 0xE2 && (unsigned char)escaped[i + 1] == 0x80 &&
					((unsigned char)escaped[i + 2] == 0xA8 || (unsigned char)escaped[i + 2] == 0xA9)));
		}
	}

	out = written(&length, html_escape, text, 0);
	CHECK(read_html_text(decoded, out, length) == expected_length);
	CHECK(memcmp(decoded, expected, expected_length) == 0);
	free(out);

	free(text);
	free(expected);
	free(decoded);
	free(escaped);
	return 0;
}

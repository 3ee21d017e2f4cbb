/* json_write.c: writing JSON strings and numbers, safe to embed in HTML when asked. */
#include "json_write.h"
#include "shortest_double.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static size_t utf8_sequence_length(const unsigned char *s, uint32_t *code_point)
{
	size_t len;
	uint32_t cp;
	if (s[0] < 0x80) {
		*code_point = s[0];
		return 1;
	} else if ((s[0] & 0xE0) == 0xC0) {
		len = 2;
		cp = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		len = 3;
		cp = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	*code_point = cp;
	return len;
}

/* Escapes the UTF-8 sequence at *s into out (at most 6 bytes) and steps past it. */
static size_t escape_sequence(char *out, const unsigned char **s, int flags)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp;
	size_t len = utf8_sequence_length(*s, &cp);
	if (len == 0) {
		memcpy(out, "\\ufffd", 6);
		*s += 1;
		return 6;
	}
	*s += len;
	if (cp == '"' || cp == '\\') {
		out[0] = '\\';
		out[1] = (char)cp;
		return 2;
	} else if (cp == '\n' || cp == '\r' || cp == '\t') {
		out[0] = '\\';
		out[1] = cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't';
		return 2;
	} else if (cp < 0x20 || cp == 0x7F ||
		   ((flags & RLI_JSON_HTML_SAFE) &&
		    (cp == '<' || cp == '>' || cp == '&' || cp == 0x2028 || cp == 0x2029))) {
		out[0] = '\\';
		out[1] = 'u';
		for (int i = 0; i < 4; i++)
			out[2 + i] = hex[(cp >> (12 - 4 * i)) & 0xF];
		return 6;
	}
	memcpy(out, *s - len, len);
	return len;
}

/* Printable ASCII that stands for itself in a JSON string (and, with HTML_SAFE, in a <script>). */
static int plain_ascii(unsigned char c, int flags)
{
	return c >= 0x20 && c < 0x7F && c != '"' && c != '\\' &&
	       !((flags & RLI_JSON_HTML_SAFE) && (c == '<' || c == '>' || c == '&'));
}

size_t rli_json_escape(char *out, const char *text, int flags)
{
	const unsigned char *s = (const unsigned char *)text;
	char *p = out;
	*p++ = '"';
	while (*s) {
		if (plain_ascii(*s, flags))
			*p++ = (char)*s++;
		else
			p += escape_sequence(p, &s, flags);
	}
	*p++ = '"';
	return (size_t)(p - out);
}

void rli_json_write_string(FILE *fp, const char *text, int flags)
{
	const unsigned char *s = (const unsigned char *)text;
	char buf[1024];
	size_t used = 0;
	buf[used++] = '"';
	while (*s) {
		/* room for one escaped sequence and the closing quote */
		if (used > sizeof(buf) - 7) {
			fwrite(buf, 1, used, fp);
			used = 0;
		}
		if (plain_ascii(*s, flags))
			buf[used++] = (char)*s++;
		else
			used += escape_sequence(buf + used, &s, flags);
	}
	buf[used++] = '"';
	fwrite(buf, 1, used, fp);
}

void rli_json_write_double(FILE *fp, double value)
{
	char buf[RLI_DOUBLE_BUFSIZE];
	/* JSON has no NaN or Infinity; null is what JSON.stringify writes for them too. */
	if (!isfinite(value)) {
		fputs("null", fp);
		return;
	}
	fwrite(buf, 1, rli_format_double(buf, value), fp);
}

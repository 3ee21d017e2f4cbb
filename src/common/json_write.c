/* json_write.c: writing JSON strings and numbers, safe to embed in HTML when asked. */
#include "json_write.h"
#include "shortest_double.h"
#include "utf8.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Escapes the UTF-8 sequence at *s into out (at most 6 bytes) and steps past it. */
static size_t escape_sequence(char *out, const unsigned char **s, int flags)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp;
	size_t len = rli_utf8_sequence(*s, &cp);
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

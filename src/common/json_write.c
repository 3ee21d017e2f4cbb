/* json_write.c: writing JSON strings and numbers, safe to embed in HTML when asked. */
#include "json_write.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

void rli_json_write_string(FILE *fp, const char *text, int flags)
{
	const unsigned char *s = (const unsigned char *)text;
	putc('"', fp);
	while (*s) {
		uint32_t cp;
		size_t len = utf8_sequence_length(s, &cp);
		if (len == 0) {
			fputs("\\ufffd", fp);
			s++;
			continue;
		}
		if (cp == '"' || cp == '\\') {
			putc('\\', fp);
			putc((int)cp, fp);
		} else if (cp == '\n') {
			fputs("\\n", fp);
		} else if (cp == '\r') {
			fputs("\\r", fp);
		} else if (cp == '\t') {
			fputs("\\t", fp);
		} else if (cp < 0x20 || cp == 0x7F ||
			   ((flags & RLI_JSON_HTML_SAFE) &&
			    (cp == '<' || cp == '>' || cp == '&' || cp == 0x2028 || cp == 0x2029))) {
			fprintf(fp, "\\u%04x", (unsigned)cp);
		} else {
			fwrite(s, 1, len, fp);
		}
		s += len;
	}
	putc('"', fp);
}

void rli_format_shortest(char *buf, size_t size, double value)
{
	for (int precision = 1; precision <= 17; precision++) {
		snprintf(buf, size, "%.*g", precision, value);
		if (strtod(buf, NULL) == value)
			return;
	}
}

void rli_json_write_double(FILE *fp, double value)
{
	char buf[40];
	if (!isfinite(value)) {
		fputs("null", fp);
		return;
	}
	rli_format_shortest(buf, sizeof(buf), value);
	fputs(buf, fp);
}

/* utf8.c: telling well-formed UTF-8 sequences from bytes that are not text. */
#include "utf8.h"

size_t rli_utf8_sequence(const unsigned char *s, uint32_t *code_point)
{
	/* A NUL ends the string, and no sequence holds one past its first byte: four bytes are always there to read. */
	return rli_utf8_sequence_within(s, 4, code_point);
}

size_t rli_utf8_sequence_within(const unsigned char *s, size_t available, uint32_t *code_point)
{
	size_t len;
	uint32_t cp;
	if (available == 0)
		return 0;
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
	if (len > available)
		return 0;
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

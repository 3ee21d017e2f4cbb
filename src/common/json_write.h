/* json_write.h: writing JSON strings and numbers, safe to embed in HTML when asked. */
#ifndef RLI_COMMON_JSON_WRITE_H
#define RLI_COMMON_JSON_WRITE_H

#include <stdio.h>

/*
 * RLI_JSON_HTML_SAFE also escapes < > & and U+2028/U+2029, so the text can sit
 * inside an HTML <script> element (no "</script>", no "<!--") and be parsed by
 * JavaScript engines that predate ES2019.
 */
enum { RLI_JSON_PLAIN = 0, RLI_JSON_HTML_SAFE = 1 };

/* Writes text as a quoted JSON string. Invalid UTF-8 bytes become U+FFFD. */
void rli_json_write_string(FILE *fp, const char *text, int flags);

/* Writes the shortest decimal that reads back as exactly value ("null" if not finite). */
void rli_json_write_double(FILE *fp, double value);

/* Formats value as the shortest round-trip decimal into buf (at least 32 bytes). */
void rli_format_shortest(char *buf, size_t size, double value);

#endif

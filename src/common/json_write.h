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

/* The most bytes rli_json_escape writes for a text of length bytes (each byte may become 6). */
#define RLI_JSON_ESCAPED_MAX(length) (6 * (size_t)(length) + 2)

/* The same quoted string into out (room for RLI_JSON_ESCAPED_MAX(strlen(text))), no NUL; returns its length. */
size_t rli_json_escape(char *out, const char *text, int flags);

/* Writes value as rli_format_double does (shortest_double.h), or null if it is not finite. */
void rli_json_write_double(FILE *fp, double value);

#endif

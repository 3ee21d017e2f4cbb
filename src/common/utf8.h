/* utf8.h: telling well-formed UTF-8 sequences from bytes that are not text. */
#ifndef RLI_COMMON_UTF8_H
#define RLI_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* U+FFFD, what every byte that starts no well-formed sequence is written as. */
#define RLI_UTF8_REPLACEMENT "\xEF\xBF\xBD"

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence at the start of the
 * NUL-terminated s, with its code point in *code_point; 0 when s does not start
 * with one (a stray continuation byte, an overlong form, a surrogate, a value
 * past U+10FFFF, or a sequence cut short).
 */
size_t rli_utf8_sequence(const unsigned char *s, uint32_t *code_point);
/* The same for a sequence that must end within the `available` bytes at s (no NUL needed). */
size_t rli_utf8_sequence_within(const unsigned char *s, size_t available, uint32_t *code_point);

#endif

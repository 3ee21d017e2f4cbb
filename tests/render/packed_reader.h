/* packed_reader.h: the tests' reader of a page's packed bytes (html_bytes.c): decoded and inflated. */
#ifndef RLI_TEST_PACKED_READER_H
#define RLI_TEST_PACKED_READER_H

#include <stddef.h>

/*
 * What a page packed, from the base64 after marker in text, or the base85 when marker is a data
 * file's "packed":" : inflated, with a NUL after it so its JSON reads as a string. NULL if the
 * marker is missing or the bytes do not inflate. Free it.
 */
unsigned char *rli_test_unpacked(const char *text, const char *marker, size_t *length);

#endif

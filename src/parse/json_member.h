/* json_member.h: where the array that is a member of a document's top-level object begins, found in the bytes as they stream past. */
#ifndef RLI_PARSE_JSON_MEMBER_H
#define RLI_PARSE_JSON_MEMBER_H

#include <stddef.h>

/*
 * A PyTorch trace is one object whose "traceEvents" member holds nearly all its bytes. yajl reads
 * the rest; this finds the member's "[" so that the items scanner can read the array itself.
 * It only places a boundary: strings are skipped by their quotes and escapes, nesting counted,
 * and a key written with an escape is not recognised (yajl then reads the whole document). yajl
 * checks every byte before the boundary, and the caller checks that yajl stands where this says.
 */
typedef struct {
	const char *key;   /* the member's name, as written (no escapes) */
	size_t key_length;
	int depth;         /* objects and arrays open */
	int in_string, escaped;
	size_t matched;    /* bytes of a depth-1 string that match the key so far; past key_length: no match */
	int after_key;     /* 1: the key was read, a colon comes; 2: the colon was read, the value comes */
	int done;          /* found, or past any place it could be */
} rli_member_finder;

void rli_member_finder_init(rli_member_finder *finder, const char *key);

/*
 * Looks through the next bytes of the document: the offset in data just past the member array's
 * "[", or (size_t)-1 when it does not start in these bytes.
 */
size_t rli_member_finder_scan(rli_member_finder *finder, const unsigned char *data, size_t length);

#endif

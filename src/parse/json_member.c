/* json_member.c: the "[" of a top-level object's array member, found by quotes, escapes and nesting alone (json_member.h). */
#include "json_member.h"

#include <string.h>

#define NO_MATCH ((size_t)-1)

void rli_member_finder_init(rli_member_finder *finder, const char *key)
{
	memset(finder, 0, sizeof(*finder));
	finder->key = key;
	finder->key_length = strlen(key);
}

static int blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t rli_member_finder_scan(rli_member_finder *f, const unsigned char *data, size_t length)
{
	for (size_t i = 0; i < length && !f->done; i++) {
		unsigned char c = data[i];
		if (f->in_string) {
			if (f->escaped) {
				f->escaped = 0;
				f->matched = NO_MATCH; /* an escaped key is left to yajl */
			} else if (c == '\\') {
				f->escaped = 1;
			} else if (c == '"') {
				f->in_string = 0;
				f->after_key = f->depth == 1 && f->matched == f->key_length;
			} else if (f->depth == 1 && f->matched != NO_MATCH) {
				f->matched = f->matched < f->key_length && f->key[f->matched] == (char)c ? f->matched + 1 : NO_MATCH;
			}
			continue;
		}
		if (blank(c))
			continue;
		if (f->after_key == 1 && c == ':') {
			f->after_key = 2;
			continue;
		}
		if (f->after_key == 2 && c == '[' && f->depth == 1) {
			f->done = 1;
			return i + 1;
		}
		f->after_key = 0;
		if (c == '"') {
			f->in_string = 1;
			f->matched = 0;
		} else if (c == '{' || c == '[') {
			/* the document is an array, or the member is nowhere its object's first level can hold it */
			if (f->depth == 0 && c == '[')
				f->done = 1;
			f->depth++;
		} else if (c == '}' || c == ']') {
			if (--f->depth <= 0)
				f->done = 1; /* the top-level object ended without it */
		}
	}
	return NO_MATCH;
}

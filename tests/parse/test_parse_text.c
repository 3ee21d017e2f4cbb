/* test_parse_text.c: names made text for the outputs: U+FFFD for each NUL and each byte that starts no UTF-8 sequence. */
#include "harness.h"
#include "parse/parse_internal.h"

#define R "\xEF\xBF\xBD" /* U+FFFD */

/* text (length bytes) comes out as want, and its clean prefix is clean bytes long. */
static void expect_text(const char *text, size_t length, size_t clean, const char *want)
{
	size_t got_length = 0;
	char *got = rli_text_copy(text, length, &got_length);
	CHECK_INT((long long)rli_text_clean_length(text, length), (long long)clean);
	CHECK(got != NULL);
	if (!got)
		return;
	CHECK_STR(got, want);
	CHECK_INT((long long)got_length, (long long)strlen(want));
	free(got);
}

int main(void)
{
	/* Text already: copied as it is. */
	expect_text("", 0, 0, "");
	expect_text("actor", 5, 5, "actor");
	expect_text("角色 é", 9, 9, "角色 é");
	expect_text("\xF0\x9F\x98\x80", 4, 4, "\xF0\x9F\x98\x80");
	/* A NUL (a JSON \u0000) is no end of the text. */
	expect_text("act\0or", 6, 3, "act" R "or");
	expect_text("\0", 1, 0, R);
	/* Bytes that are no UTF-8: each one replaced, the rest kept. */
	expect_text("role-\xFF\xFE", 7, 5, "role-" R R);
	expect_text("a\x80" "b", 3, 1, "a" R "b");          /* a lone continuation byte */
	expect_text("\xC0\xAF", 2, 0, R R);                 /* an overlong '/' */
	expect_text("\xED\xA0\x80", 3, 0, R R R);           /* a surrogate */
	expect_text("\xF4\x90\x80\x80", 4, 0, R R R R);     /* past U+10FFFF */
	/* A sequence cut short by the end of the text, not by a NUL terminator. */
	expect_text("ok\xE8\xA7", 4, 2, "ok" R R);
	expect_text("\xE8\xA7\x92" "x\xF0\x9F\x98", 7, 4, "\xE8\xA7\x92" "x" R R R);
	/* The length, not a terminator, bounds the reading: the byte after it is never looked at. */
	expect_text("\xE8\xA7\x92", 2, 0, R R);
	TEST_DONE();
}

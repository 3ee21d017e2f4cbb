/* test_html_packed.c: a page's packed bytes (html_bytes.c) read back at every split of text and binary streams, and which part deflate searches for repeats. */
#include "harness.h"
#include "html_bytes.h"
#include "render/packed_reader.h"

#include <stdint.h>

#define BASE85_MARKER "\"packed\":\""
#define BASE64_MARKER "data-packed=\"deflate\">"

/* data packed as a page does, behind the marker its encoding is read after; the text (NUL-terminated) in *out. */
static size_t pack(char **out, const unsigned char *data, size_t length, size_t text_length, rli_text_encoding encoding)
{
	size_t size = 0;
	FILE *fp = open_memstream(out, &size);
	if (!fp)
		return 0;
	fputs(encoding == RLI_TEXT_BASE85 ? BASE85_MARKER : BASE64_MARKER, fp);
	CHECK_INT(rli_write_packed_as(fp, data, length, text_length, encoding), 0);
	fputc('"', fp);
	fclose(fp);
	return size;
}

/* Packed, read back, equal. The packed text's length, or 0 when it could not be read. */
static size_t round_trip(const unsigned char *data, size_t length, size_t text_length, rli_text_encoding encoding)
{
	char *text = NULL;
	size_t size = pack(&text, data, length, text_length, encoding), got = 0;
	unsigned char *back = text ? rli_test_unpacked(text, encoding == RLI_TEXT_BASE85 ? BASE85_MARKER : BASE64_MARKER,
							&got) : NULL;
	if (!back || got != length || (length && memcmp(back, data, length) != 0)) {
		fprintf(stderr, "packing %zu bytes (%zu of text, %s) did not read back: %s, %zu bytes\n", length,
			text_length, encoding == RLI_TEXT_BASE85 ? "base85" : "base64",
			back ? "different" : "unreadable", got);
		rli_test_failures++;
		size = 0;
	}
	free(back);
	free(text);
	return size;
}

/* A page's parts: JSON-like text with repeats, then varints of a xorshift sequence. */
static unsigned char *page_bytes(size_t text_length, size_t binary_length)
{
	unsigned char *data = malloc(text_length + binary_length + 1);
	uint64_t state = 0x9E3779B97F4A7C15ull;
	size_t at = 0;
	static const char frame[] = "{\"name\":\"aten::empty\",\"stack\":\"train.py(41): step\\nmodel.py(7): forward\"},";
	for (size_t i = 0; i < text_length; i++)
		data[at++] = (unsigned char)frame[i % (sizeof(frame) - 1)];
	while (at < text_length + binary_length) {
		uint64_t value = rli_test_random(&state) >> (rli_test_random(&state) % 60);
		do {
			data[at++] = (unsigned char)((value & 0x7F) | (value > 0x7F ? 0x80 : 0));
			value >>= 7;
		} while (value && at < text_length + binary_length);
	}
	return data;
}

static void test_round_trips(void)
{
	static const size_t texts[] = { 0, 1, 2000, 200000 };
	static const size_t binaries[] = { 0, 1, 3, 5000, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 300000 };
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		for (size_t b = 0; b < sizeof(binaries) / sizeof(binaries[0]); b++) {
			unsigned char *data = page_bytes(texts[t], binaries[b]);
			round_trip(data, texts[t] + binaries[b], texts[t], RLI_TEXT_BASE85);
			round_trip(data, texts[t] + binaries[b], texts[t], RLI_TEXT_BASE64);
			/* Said to be all text, or more text than there is: one part. */
			round_trip(data, texts[t] + binaries[b], SIZE_MAX, RLI_TEXT_BASE85);
			free(data);
		}
	{
		char *text = NULL;
		size_t got = 0;
		unsigned char *back;
		FILE *fp = open_memstream(&text, &got);
		static const unsigned char json[] = "{\"pages\":[1,2,3]}";
		fputs(BASE64_MARKER, fp);
		CHECK_INT(rli_write_packed(fp, json, sizeof(json) - 1), 0);
		fputc('"', fp);
		fclose(fp);
		back = rli_test_unpacked(text, BASE64_MARKER, &got);
		CHECK(back && got == sizeof(json) - 1 && memcmp(back, json, got) == 0);
		free(back);
		free(text);
	}
}

/*
 * Bytes that only repeat from afar (a block of 1,000 random bytes, again and again) shrink to a
 * small part of themselves where deflate searches for repeats: as text, and as a binary part too
 * small for runs. A large binary part is deflated as runs only, which finds none there.
 */
static void test_what_is_searched(void)
{
	const size_t block = 1000, length = 300 * block;
	unsigned char *data = malloc(length);
	uint64_t state = 12345;
	size_t as_text, as_small_binary, as_large_binary;
	for (size_t i = 0; i < block; i++)
		data[i] = (unsigned char)rli_test_random(&state);
	for (size_t i = block; i < length; i++)
		data[i] = data[i - block];
	as_text = round_trip(data, length, length, RLI_TEXT_BASE85);
	as_small_binary = round_trip(data, 12 * block, 0, RLI_TEXT_BASE85);
	as_large_binary = round_trip(data, length, 0, RLI_TEXT_BASE85);
	CHECK(as_text > 0 && as_text < length / 20);
	CHECK(as_small_binary > 0 && as_small_binary < 12 * block / 4);
	CHECK(as_large_binary > length); /* base85 writes 5 characters for 4 bytes: a quarter more */
	/* Text first, then a large binary part: the text is searched, the streams are not. */
	{
		unsigned char *page = malloc(2 * length);
		size_t mixed;
		memcpy(page, data, length);
		memcpy(page + length, data, length);
		mixed = round_trip(page, 2 * length, length, RLI_TEXT_BASE85);
		CHECK(mixed > length && mixed < as_large_binary + as_text + 64);
		free(page);
	}
	free(data);
}

int main(void)
{
	test_round_trips();
	test_what_is_searched();
	return rli_test_failures ? 1 : 0;
}

/* test_png_deflate.c: our PNG deflate stream inflates (by zlib) to the scanlines given, on charts, noise and odd sizes, the same when told of repeated rows; our Adler-32 is zlib's. */
#include "harness.h"
#include "png_deflate.h"

#include <zlib.h>

/* The compressed stream, gathered from the sink; `fail_at` > 0 makes that call fail. */
typedef struct {
	unsigned char *bytes;
	size_t length, capacity;
	int calls, fail_at;
} gathered;

static int gather(void *context, const unsigned char *bytes, size_t length)
{
	gathered *g = context;
	if (++g->calls == g->fail_at)
		return -7;
	if (g->length + length > g->capacity) {
		g->capacity = (g->length + length) * 2;
		g->bytes = realloc(g->bytes, g->capacity);
		if (!g->bytes)
			abort();
	}
	memcpy(g->bytes + g->length, bytes, length);
	g->length += length;
	return 0;
}

/*
 * Compresses `rows` rows of `row_bytes` from image, inflates the stream with
 * zlib, undoes the filters, and checks every byte came back. Returns the
 * compressed size (0 on failure).
 */
static size_t round_trip(const unsigned char *image, size_t row_bytes, size_t rows, const char *what)
{
	gathered g = { 0 }, told = { 0 };
	rli_png_deflate *stream = NULL, *told_stream = NULL;
	size_t repeats = 0;
	size_t line = row_bytes + 1, expected = rows * line, compressed = 0;
	uLongf inflated_length = (uLongf)expected;
	unsigned char *inflated = malloc(expected + 1);
	int bad_rows = 0;

	CHECK(inflated != NULL);
	CHECK_INT(rli_png_deflate_new(&stream, row_bytes, gather, &g), 0);
	if (!stream || !inflated)
		goto done;
	for (size_t y = 0; y < rows; y++) {
		memcpy(rli_png_deflate_row(stream), image + y * row_bytes, row_bytes);
		CHECK_INT(rli_png_deflate_commit(stream), 0);
	}
	CHECK_INT(rli_png_deflate_finish(stream), 0);
	/* Told of the repeated rows instead of given them, a stream writes the same bytes. */
	CHECK_INT(rli_png_deflate_new(&told_stream, row_bytes, gather, &told), 0);
	for (size_t y = 0; told_stream && y < rows; y++) {
		if (y > 0 && memcmp(image + y * row_bytes, image + (y - 1) * row_bytes, row_bytes) == 0) {
			CHECK_INT(rli_png_deflate_repeat(told_stream), 0);
			repeats++;
			continue;
		}
		memcpy(rli_png_deflate_row(told_stream), image + y * row_bytes, row_bytes);
		CHECK_INT(rli_png_deflate_commit(told_stream), 0);
	}
	if (told_stream) {
		CHECK_INT(rli_png_deflate_finish(told_stream), 0);
		if (told.length != g.length || memcmp(told.bytes, g.bytes, g.length) != 0) {
			fprintf(stderr, "%s: told of %zu repeated rows, the stream differs\n", what, repeats);
			rli_test_failures++;
		}
	}
	if (uncompress(inflated, &inflated_length, g.bytes, g.length) != Z_OK) {
		fprintf(stderr, "%s: zlib cannot inflate the stream (%zu bytes)\n", what, g.length);
		rli_test_failures++;
		goto done;
	}
	CHECK_INT(inflated_length, expected);
	for (size_t y = 0; y < rows && inflated_length == expected; y++) {
		const unsigned char *scanline = inflated + y * line, *want = image + y * row_bytes;
		int same;
		if (scanline[0] == 0)
			same = memcmp(scanline + 1, want, row_bytes) == 0;
		else if (scanline[0] == 2 && y > 0) /* Up: zeros here mean the row above again */
			same = memcmp(image + (y - 1) * row_bytes, want, row_bytes) == 0 &&
			       scanline[1] == 0 && memcmp(scanline + 1, scanline + 2, row_bytes - 1) == 0;
		else
			same = 0;
		bad_rows += !same;
	}
	if (bad_rows)
		fprintf(stderr, "%s: %d of %zu rows come back different\n", what, bad_rows, rows);
	CHECK_INT(bad_rows, 0);
	compressed = g.length;
done:
	rli_png_deflate_free(stream);
	rli_png_deflate_free(told_stream);
	free(told.bytes);
	free(g.bytes);
	free(inflated);
	return compressed;
}

/* A chart-like picture: runs of a few colours, rows repeated for a while, an odd pixel now and then. */
static unsigned char *chart(size_t width, size_t rows, uint64_t seed)
{
	static const unsigned char colours[5][3] = {
		{ 255, 255, 255 }, { 0x4c, 0x72, 0xb0 }, { 0xdd, 0x84, 0x52 }, { 0x55, 0xa8, 0x68 }, { 0x80, 0x80, 0x80 }
	};
	unsigned char *image = malloc(width * 3 * rows);
	uint64_t state = seed;

	for (size_t y = 0; y < rows; y++) {
		unsigned char *row = image + y * width * 3;
		if (y > 0 && rli_test_random(&state) % 4 != 0) {
			memcpy(row, row - width * 3, width * 3);
			continue;
		}
		for (size_t x = 0; x < width;) {
			const unsigned char *c = colours[rli_test_random(&state) % 5];
			size_t run = 1 + rli_test_random(&state) % 300;
			for (; run > 0 && x < width; run--, x++)
				memcpy(row + 3 * x, c, 3);
			if (x < width && rli_test_random(&state) % 3 == 0) { /* an anti-aliased edge */
				row[3 * x] = (unsigned char)rli_test_random(&state);
				row[3 * x + 1] = (unsigned char)rli_test_random(&state);
				row[3 * x + 2] = (unsigned char)rli_test_random(&state);
				x++;
			}
		}
	}
	return image;
}

static unsigned char *noise(size_t bytes, uint64_t seed)
{
	unsigned char *image = malloc(bytes);
	uint64_t state = seed;
	for (size_t i = 0; i < bytes; i++)
		image[i] = (unsigned char)rli_test_random(&state);
	return image;
}

static void test_adler32(void)
{
	static const size_t lengths[] = { 0, 1, 15, 16, 17, 100, 5535, 5536, 5537, 5552, 11072, 70001, 200000 };
	unsigned char *bytes = noise(200016, 3);

	/* All 0xff too: the largest sums, where the lanes would overflow first. */
	unsigned char *ones = malloc(200000);
	memset(ones, 0xff, 200000);
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		for (size_t offset = 0; offset < 16; offset += 5) {
			uint32_t start = (uint32_t)adler32(1, bytes + 200000, 16); /* a stream already under way */
			CHECK_INT(rli_adler32(1, bytes + offset, lengths[i]), adler32(1, bytes + offset, (uInt)lengths[i]));
			CHECK_INT(rli_adler32(start, bytes + offset, lengths[i]),
				  adler32(start, bytes + offset, (uInt)lengths[i]));
		}
		CHECK_INT(rli_adler32(1, ones, lengths[i]), adler32(1, ones, (uInt)lengths[i]));
	}
	free(bytes);
	free(ones);
}

static void test_shapes(void)
{
	unsigned char *image;
	size_t size;

	/* A chart 1000 pixels wide: small against the raw 3 MB, and every row back. */
	image = chart(1000, 1000, 11);
	size = round_trip(image, 3000, 1000, "chart");
	CHECK(size > 0 && size < 3000 * 1000 / 20);
	free(image);

	/* All white: the Up filter's zeros, a few bytes a row. */
	image = malloc(4000 * 3 * 300);
	memset(image, 0xff, 4000 * 3 * 300);
	size = round_trip(image, 12000, 300, "white");
	CHECK(size > 0 && size < 300 * 100);
	free(image);

	/* Noise: literals all the way, over several blocks, and no bigger than it came by much. */
	image = noise(301 * 3 * 400, 5);
	size = round_trip(image, 903, 400, "noise");
	CHECK(size > 0 && size < 904 * 400 + 904 * 400 / 20);
	free(image);

	/* One pixel wide: rows shorter than a match, the ring wrapping every 16 rows. */
	image = chart(1, 500, 13);
	CHECK(round_trip(image, 3, 500, "one pixel") > 0);
	free(image);

	/* Wider than deflate's window: no match with the row above, but Up and the runs still. */
	image = chart(12000, 40, 17);
	size = round_trip(image, 36000, 40, "wide");
	CHECK(size > 0 && size < 36000 * 40 / 20);
	free(image);

	/* Noise rows longer than a block's tokens: the block is written before each row. */
	image = noise(70002 * 3, 29);
	CHECK(round_trip(image, 70002, 3, "long noise rows") > 0);
	free(image);

	/* A motif of noise repeated along each row, shifted from row to row: neither the pixel on the
	 * left nor the row above repeats it, only the place it was seen before. */
	image = malloc(3000 * 200);
	for (size_t y = 0; y < 200; y++) {
		unsigned char *motif = noise(61, 31 + y);
		for (size_t x = 0; x < 3000; x++)
			image[y * 3000 + x] = motif[(x + y) % 61];
		free(motif);
	}
	size = round_trip(image, 3000, 200, "motif");
	CHECK(size > 0 && size < 3000 * 200 / 10);
	free(image);

	/* Rows of noise longer than the window, each 40 bytes seen again 35,000 bytes on: too far to reach. */
	image = noise(40000 * 4, 37);
	for (size_t y = 0; y < 4; y++)
		memcpy(image + y * 40000 + 35100, image + y * 40000 + 100, 40);
	CHECK(round_trip(image, 40000, 4, "noise past the window") > 0);
	free(image);

	/* No rows at all: an empty stream that inflates to nothing. */
	CHECK_INT(round_trip(NULL, 30, 0, "empty") > 0, 1);
}

/* Literal counts far apart (Fibonacci-like), so a Huffman tree deeper than 15 bits must be flattened. */
static void test_deep_codes(void)
{
	size_t total = 0, counts[40], rows = 0, row_bytes = 999, at = 0;
	uint64_t a = 1, b = 1, state = 19;
	unsigned char *bytes, *image;

	for (int k = 0; k < 26; k++) {
		counts[k] = (size_t)a;
		total += (size_t)a;
		uint64_t next = a + b;
		a = b;
		b = next;
	}
	rows = (total + row_bytes - 1) / row_bytes;
	bytes = malloc(rows * row_bytes);
	for (int k = 0; k < 26; k++)
		for (size_t n = 0; n < counts[k]; n++)
			bytes[at++] = (unsigned char)(k * 9 + 1);
	while (at < rows * row_bytes)
		bytes[at++] = 1;
	/* Shuffled, so runs are short and the skewed literals stay literals. */
	for (size_t i = rows * row_bytes; i > 1; i--) {
		size_t j = rli_test_random(&state) % i;
		unsigned char t = bytes[i - 1];
		bytes[i - 1] = bytes[j];
		bytes[j] = t;
	}
	image = bytes;
	CHECK(round_trip(image, row_bytes, rows, "skewed") > 0);
	free(image);
}

/* A sink that refuses: its answer comes back from the call that fed it, and the stream stops there. */
static void test_sink_failure(void)
{
	gathered g = { .fail_at = 1 };
	rli_png_deflate *stream = NULL;
	unsigned char *image = noise(3000 * 400, 23);
	int status = 0;

	CHECK_INT(rli_png_deflate_new(&stream, 3000, gather, &g), 0);
	for (size_t y = 0; y < 400 && status == 0 && stream; y++) {
		memcpy(rli_png_deflate_row(stream), image + y * 3000, 3000);
		status = rli_png_deflate_commit(stream);
	}
	CHECK_INT(status, -7);
	CHECK_INT(rli_png_deflate_finish(stream), -7);
	CHECK_INT(g.calls, 1);
	rli_png_deflate_free(stream);
	free(g.bytes);
	free(image);
}

int main(void)
{
	test_adler32();
	test_shapes();
	test_deep_codes();
	test_sink_failure();
	return rli_test_failures ? 1 : 0;
}

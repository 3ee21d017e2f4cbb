/* test_bigmem.c: big blocks keep what they held through a resize, come back zeroed when asked, and freed mappings serve the next block of their size. */
#include "harness.h"
#include "common/bigmem.h"

#include <stdint.h>
#include <string.h>

#define MB ((size_t)1 << 20)

static int all_bytes(const unsigned char *p, size_t n, unsigned char value)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != value)
			return 0;
	return 1;
}

int main(void)
{
	unsigned char *a, *b, *c;

	/* A small block and a mapped one grow and shrink keeping their bytes. */
	a = rli_bigmem_resize(NULL, 1000);
	CHECK(a != NULL);
	memset(a, 7, 1000);
	a = rli_bigmem_resize(a, 5 * MB); /* from the heap to a mapping */
	CHECK(a && all_bytes(a, 1000, 7));
	memset(a, 9, 5 * MB);
	a = rli_bigmem_resize(a, 9 * MB); /* the mapping grown */
	CHECK(a && all_bytes(a, 5 * MB, 9));
	a = rli_bigmem_resize(a, 3 * MB); /* shrunk, still mapped */
	CHECK(a && all_bytes(a, 3 * MB, 9));
	a = rli_bigmem_resize(a, 100); /* back to the heap */
	CHECK(a && all_bytes(a, 100, 9));
	rli_bigmem_free(a);

	/* A freed mapping is the next block of its size, at the same place where mappings are kept. */
	a = rli_bigmem_array(3 * MB, 1);
	CHECK(a != NULL);
	memset(a, 0x11, 3 * MB);
	rli_bigmem_free(a);
	b = rli_bigmem_array(3 * MB, 1);
	CHECK(b != NULL);
#if defined(__linux__)
	CHECK(b == a);
#endif
	/* asked zeroed, a reused block is cleared all the same */
	rli_bigmem_free(b);
	c = rli_bigmem_zeroed(3 * MB, 1);
	CHECK(c && all_bytes(c, 3 * MB, 0));
	/* grown within the spare's mapping, it keeps its bytes */
	memset(c, 0x22, 3 * MB);
	c = rli_bigmem_resize(c, 3 * MB + 4096);
	CHECK(c && all_bytes(c, 3 * MB, 0x22));
	rli_bigmem_free(c);

	/* A block far smaller than any spare gets a mapping of its own; trim gives the spares back. */
	a = rli_bigmem_array(2 * MB, 1);
	CHECK(a != NULL);
	memset(a, 1, 2 * MB);
	rli_bigmem_trim();
	b = rli_bigmem_zeroed(4 * MB, 1);
	CHECK(b && all_bytes(b, 4 * MB, 0));
	rli_bigmem_free(a);
	rli_bigmem_free(b);

	/* More than the spares may hold: every block still works, and freeing them all is safe. */
	{
		unsigned char *blocks[8];
		for (int i = 0; i < 8; i++) {
			blocks[i] = rli_bigmem_array(12 * MB, 1);
			CHECK(blocks[i] != NULL);
			if (blocks[i])
				memset(blocks[i], i, 12 * MB);
		}
		for (int i = 0; i < 8; i++)
			CHECK(blocks[i] && all_bytes(blocks[i], 12 * MB, (unsigned char)i));
		for (int i = 0; i < 8; i++)
			rli_bigmem_free(blocks[i]);
		for (int i = 0; i < 8; i++) {
			blocks[i] = rli_bigmem_zeroed(12 * MB, 1);
			CHECK(blocks[i] && all_bytes(blocks[i], 12 * MB, 0));
		}
		for (int i = 0; i < 8; i++)
			rli_bigmem_free(blocks[i]);
	}
	rli_bigmem_trim();
	CHECK(rli_bigmem_array(SIZE_MAX / 2, 4) == NULL); /* an overflowing size */
	TEST_DONE();
}

/* test_bigmem.c: big blocks keep what they held through a resize, come back zeroed when asked, freed mappings serve the next block of their size, and released bytes leave memory. */
#define _DEFAULT_SOURCE /* mincore */
#include "harness.h"
#include "common/bigmem.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MB ((size_t)1 << 20)

static int all_bytes(const unsigned char *p, size_t n, unsigned char value)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != value)
			return 0;
	return 1;
}

/* How many of the pages holding [p, p + n) are in memory (mincore); -1 when it cannot say. */
static long resident_pages(const unsigned char *p, size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = (uintptr_t)p & ~(uintptr_t)(page - 1), to = ((uintptr_t)p + n + page - 1) & ~(uintptr_t)(page - 1);
	unsigned char in[4096];
	long count = 0;
	if ((to - from) / page > sizeof(in) || mincore((void *)from, to - from, in) != 0)
		return -1;
	for (size_t i = 0; i < (to - from) / page; i++)
		count += in[i] & 1;
	return count;
}

/* The pages wholly inside [p + offset, p + offset + bytes), as offsets from p: what a release gives back. */
static void inner_pages(const unsigned char *p, size_t offset, size_t bytes, size_t *from, size_t *to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), base = (uintptr_t)p;
	*from = (size_t)(((base + offset + page - 1) & ~(page - 1)) - base);
	*to = (size_t)(((base + offset + bytes) & ~(page - 1)) - base);
}

/* Released bytes of a mapped block leave memory and read as zeros; the rest keeps its bytes; a heap block is left alone. */
static void check_release(void)
{
	unsigned char *a = rli_bigmem_array(8 * MB, 1), *small = rli_bigmem_array(1000, 1);
	size_t from, to;
	CHECK(a && small);
	if (!a || !small)
		return;
	memset(a, 3, 8 * MB);
	memset(small, 4, 1000);
	inner_pages(a, 2 * MB + 100, 4 * MB, &from, &to);
	CHECK(to - from >= 4 * MB - 8192 && resident_pages(a + from, to - from) == (long)((to - from) / (size_t)sysconf(_SC_PAGESIZE)));
	rli_bigmem_release(a, 2 * MB + 100, 4 * MB); /* the partial pages at either end stay */
	CHECK(resident_pages(a + from, to - from) == 0);
	CHECK(all_bytes(a, from, 3) && all_bytes(a + to, 8 * MB - to, 3));
	CHECK(all_bytes(a + from, to - from, 0));
	rli_bigmem_release(a, 7 * MB, 10 * MB); /* clamped to the block */
	inner_pages(a, 7 * MB, MB, &from, &to);
	CHECK(all_bytes(a + from, to - from, 0) && all_bytes(a + 7 * MB - 4096, 4096, 3) && a[7 * MB] == 3);
	memset(a, 5, 8 * MB); /* still the caller's to write */
	CHECK(all_bytes(a, 8 * MB, 5));
	rli_bigmem_release(small, 0, 1000);
	CHECK(all_bytes(small, 1000, 4));
	rli_bigmem_free(a);
	rli_bigmem_free(small);
}

int main(void)
{
	check_release();
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

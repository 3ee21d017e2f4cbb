/* bigmem.c: large growing arrays (event columns, kept ranges, sort scratch) in 2 MiB pages. */
#define _GNU_SOURCE /* mremap, MREMAP_MAYMOVE, MAP_ANONYMOUS and MADV_HUGEPAGE are Linux's */
#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/*
 * Why: a table of a million rows is some 40 MB written once, page by page, and every first touch
 * of a 4 KiB page is a page fault. Under virtualisation with shadow page tables a fault costs
 * some 10 us: on the benchmark machine 100 MB of fresh 4 KiB pages took 0.27 s to touch, against
 * 0.01-0.15 s in 2 MiB pages. malloc gives such blocks 4 KiB pages, and copies them when it grows
 * them inside its heap. Here they are mapped on their own, asked for huge pages (a hint: where the
 * kernel ignores it the cost is simply not saved), and grown by remapping, which copies nothing.
 */

/* Each block starts with its size, so that resizing and freeing know how it was allocated. */
typedef struct {
	size_t bytes;  /* what the caller asked for */
	size_t mapped; /* bytes mapped, 0 for a malloc block */
	max_align_t align;
} header;

#define HEADER_SIZE (offsetof(header, align))

#if defined(__linux__) && defined(MREMAP_MAYMOVE) && defined(MADV_HUGEPAGE)
#define BIGMEM_MAPS 1
static size_t huge_round(size_t bytes)
{
	const size_t huge = (size_t)2 << 20;
	return bytes > SIZE_MAX - huge ? 0 : (bytes + huge - 1) & ~(huge - 1);
}
#else
#define BIGMEM_MAPS 0
#endif

static void *data_of(header *h)
{
	return (char *)h + HEADER_SIZE;
}

static header *header_of(void *p)
{
	return (header *)(void *)((char *)p - HEADER_SIZE);
}

/* A new block of `bytes`, nothing copied into it. */
static header *block_new(size_t bytes)
{
	header *h;
	if (bytes > SIZE_MAX - HEADER_SIZE)
		return NULL;
#if BIGMEM_MAPS
	if (bytes >= RLI_BIGMEM_MAP_FROM) {
		size_t mapped = huge_round(bytes + HEADER_SIZE);
		void *p = mapped ? mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
				 : MAP_FAILED;
		if (p == MAP_FAILED)
			return NULL;
		(void)madvise(p, mapped, MADV_HUGEPAGE);
		h = p;
		h->mapped = mapped;
		h->bytes = bytes;
		return h;
	}
#endif
	h = malloc(bytes + HEADER_SIZE);
	if (!h)
		return NULL;
	h->mapped = 0;
	h->bytes = bytes;
	return h;
}

static void block_free(header *h)
{
#if BIGMEM_MAPS
	if (h->mapped) {
		(void)munmap(h, h->mapped);
		return;
	}
#endif
	free(h);
}

void *rli_bigmem_resize(void *p, size_t bytes)
{
	header *h, *grown;
	if (!p) {
		h = block_new(bytes);
		return h ? data_of(h) : NULL;
	}
	h = header_of(p);
#if BIGMEM_MAPS
	if (h->mapped && bytes >= RLI_BIGMEM_MAP_FROM) {
		/* The pages move with the mapping: nothing is copied, nothing touched again. */
		size_t mapped = bytes <= SIZE_MAX - HEADER_SIZE ? huge_round(bytes + HEADER_SIZE) : 0;
		void *q = mapped ? mremap(h, h->mapped, mapped, MREMAP_MAYMOVE) : MAP_FAILED;
		if (q == MAP_FAILED)
			return NULL;
		(void)madvise(q, mapped, MADV_HUGEPAGE);
		grown = q;
		grown->mapped = mapped;
		grown->bytes = bytes;
		return data_of(grown);
	}
#endif
	if (!h->mapped && (bytes < RLI_BIGMEM_MAP_FROM || !BIGMEM_MAPS)) {
		if (bytes > SIZE_MAX - HEADER_SIZE || !(grown = realloc(h, bytes + HEADER_SIZE)))
			return NULL;
		grown->bytes = bytes;
		return data_of(grown);
	}
	/* From the heap to a mapping or back: one copy of what both sizes hold. */
	if (!(grown = block_new(bytes)))
		return NULL;
	memcpy(data_of(grown), p, h->bytes < bytes ? h->bytes : bytes);
	block_free(h);
	return data_of(grown);
}

void rli_bigmem_free(void *p)
{
	if (p)
		block_free(header_of(p));
}

void *rli_bigmem_array(size_t count, size_t size)
{
	if (!count)
		count = 1;
	if (size > SIZE_MAX / count)
		return NULL;
	return rli_bigmem_resize(NULL, count * size);
}

void *rli_bigmem_zeroed(size_t count, size_t size)
{
	void *p = rli_bigmem_array(count, size);
	if (p && !header_of(p)->mapped)
		memset(p, 0, header_of(p)->bytes);
	return p;
}

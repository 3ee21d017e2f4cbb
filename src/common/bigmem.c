/* bigmem.c: large growing arrays (event columns, kept ranges, sort scratch) in 2 MiB pages. */
#define _GNU_SOURCE /* mremap, MREMAP_MAYMOVE, MAP_ANONYMOUS and MADV_HUGEPAGE are Linux's */
#include "bigmem.h"

#include <pthread.h>
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
	int reused;    /* made from a spare mapping: holds what its last owner wrote, not the kernel's zeros */
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

/*
 * Freed mappings kept for the next block of about their size. Why: a parser of many files maps
 * its scratch arrays afresh for every file, and the kernel zeroes each fresh page: 128 PyTorch
 * traces read with their [memory] events spent 0.29 s of CPU clearing pages none of them needed
 * cleared. Bounded so the peak grows by at most SPARE_BYTES, and emptied by rli_bigmem_trim.
 */
#define SPARE_BLOCKS 4
#define SPARE_BYTES ((size_t)32 << 20)
static struct {
	pthread_mutex_t lock;
	header *block[SPARE_BLOCKS];
	size_t count, bytes;
} spare = { PTHREAD_MUTEX_INITIALIZER, { NULL }, 0, 0 };

/* The smallest spare of at least `mapped` bytes and at most twice that, taken; NULL when none. */
static header *take_spare(size_t mapped)
{
	header *h = NULL;
	size_t best = 0;
	pthread_mutex_lock(&spare.lock);
	for (size_t i = 0; i < spare.count; i++)
		if (spare.block[i]->mapped >= mapped && spare.block[i]->mapped / 2 <= mapped &&
		    (!h || spare.block[i]->mapped < h->mapped)) {
			h = spare.block[i];
			best = i;
		}
	if (h) {
		spare.block[best] = spare.block[--spare.count];
		spare.bytes -= h->mapped;
	}
	pthread_mutex_unlock(&spare.lock);
	return h;
}

/* Keeps h when there is room, else gives it back to the system. */
static void give_spare(header *h)
{
	int kept = 0;
	pthread_mutex_lock(&spare.lock);
	if (spare.count < SPARE_BLOCKS && h->mapped <= SPARE_BYTES - spare.bytes) {
		spare.block[spare.count++] = h;
		spare.bytes += h->mapped;
		kept = 1;
	}
	pthread_mutex_unlock(&spare.lock);
	if (!kept)
		(void)munmap(h, h->mapped);
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
		void *p;
		if (mapped && (h = take_spare(mapped))) {
			h->bytes = bytes;
			h->reused = 1;
#ifndef NDEBUG
			/* What it held is the last owner's: a caller counting on zeros fails the tests. */
			memset(data_of(h), 0xA5, bytes);
#endif
			return h;
		}
		p = mapped ? mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : MAP_FAILED;
		if (p == MAP_FAILED)
			return NULL;
		(void)madvise(p, mapped, MADV_HUGEPAGE);
		h = p;
		h->mapped = mapped;
		h->bytes = bytes;
		h->reused = 0;
		return h;
	}
#endif
	h = malloc(bytes + HEADER_SIZE);
	if (!h)
		return NULL;
	h->mapped = 0;
	h->bytes = bytes;
	h->reused = 0;
	return h;
}

static void block_free(header *h)
{
#if BIGMEM_MAPS
	if (h->mapped) {
		give_spare(h);
		return;
	}
#endif
	free(h);
}

void rli_bigmem_trim(void)
{
#if BIGMEM_MAPS
	header *kept[SPARE_BLOCKS];
	size_t count;
	pthread_mutex_lock(&spare.lock);
	count = spare.count;
	memcpy(kept, spare.block, count * sizeof(*kept));
	spare.count = 0;
	spare.bytes = 0;
	pthread_mutex_unlock(&spare.lock);
	for (size_t i = 0; i < count; i++)
		(void)munmap(kept[i], kept[i]->mapped);
#endif
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
		void *q;
		/* Grown within the mapping (a spare's may be larger than asked): kept where it is. A
		   shrink still gives back what it no longer needs. */
		if (mapped && (mapped == h->mapped || (bytes >= h->bytes && mapped < h->mapped))) {
			h->bytes = bytes;
			return p;
		}
		q = mapped ? mremap(h, h->mapped, mapped, MREMAP_MAYMOVE) : MAP_FAILED;
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

void rli_bigmem_release(void *p, size_t offset, size_t bytes)
{
#if BIGMEM_MAPS
	const size_t page = 4096; /* the smallest page: a 2 MiB page partly released is split */
	header *h = header_of(p);
	uintptr_t from, to;
	if (!h->mapped || offset >= h->bytes)
		return;
	if (bytes > h->bytes - offset)
		bytes = h->bytes - offset;
	from = ((uintptr_t)p + offset + page - 1) & ~(uintptr_t)(page - 1);
	to = ((uintptr_t)p + offset + bytes) & ~(uintptr_t)(page - 1);
	if (from < to)
		(void)madvise((void *)from, to - from, MADV_DONTNEED);
#else
	(void)p;
	(void)offset;
	(void)bytes;
#endif
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
	if (p && (!header_of(p)->mapped || header_of(p)->reused))
		memset(p, 0, header_of(p)->bytes);
	return p;
}

/* test_prefault.c: the helper faults in what it is asked for and nothing else, changes no byte, and does nothing when off. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_* */
#include "harness.h"
#include "common/grow.h"
#include "common/bigmem.h"
#include "common/prefault.h"
#include "rl_insight.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)

static size_t page;

/* How many of the pages of [p, p + bytes) are resident (p page-aligned, or rounded down to one). */
static size_t resident(const void *p, size_t bytes)
{
	uintptr_t from = (uintptr_t)p & ~(uintptr_t)(page - 1), to = (uintptr_t)p + bytes;
	size_t pages = (to - from + page - 1) / page, count = 0;
	unsigned char vec[4096];
	for (size_t done = 0; done < pages; done += sizeof(vec)) {
		size_t n = pages - done < sizeof(vec) ? pages - done : sizeof(vec);
		if (mincore((void *)(from + done * page), n * page, vec) < 0)
			return SIZE_MAX;
		for (size_t i = 0; i < n; i++)
			count += vec[i] & 1;
	}
	return count;
}

/* A fresh mapping of 4 KiB pages, so residency is told page by page. */
static char *fresh(size_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, bytes, MADV_NOHUGEPAGE);
	return p;
}

int main(void)
{
	char *probe, *p, *gone;
	uint32_t *items = NULL;
	size_t capacity = 0;

	page = (size_t)sysconf(_SC_PAGESIZE);
	/* Kernels before 5.14 cannot populate without writing: nothing here can be shown there. */
	probe = fresh(page);
	if (!probe)
		return 1;
#ifdef MADV_POPULATE_WRITE
	if (madvise(probe, page, MADV_POPULATE_WRITE) < 0)
#endif
	{
		printf("skip: this kernel cannot populate pages without writing them\n");
		return 77;
	}
	munmap(probe, page);

	p = fresh(64 * MIB);
	CHECK(p != NULL);
	if (!p)
		TEST_DONE();
	CHECK_INT((int)resident(p, 64 * MIB), 0);

	/* Off, as it starts: a request is dropped. */
	rli_prefault(p, 4 * MIB);
	rli_prefault_wait();
	CHECK_INT((int)resident(p, 64 * MIB), 0);

	/* On: exactly the pages asked for, rounded out to whole pages. */
	rli_prefault_enable(1);
	rli_prefault(p + 8 * MIB + 100, 4 * MIB - 100);
	rli_prefault_wait();
	CHECK_INT((int)resident(p + 8 * MIB, 4 * MIB), (int)(4 * MIB / page));
	CHECK_INT((int)resident(p, 8 * MIB), 0);
	CHECK_INT((int)resident(p + 12 * MIB, 52 * MIB), 0);

	/* No byte changes, while the writer writes the same pages. */
	{
		size_t i = 0;
		for (; i < 4 * MIB; i += 997)
			p[16 * MIB + i] = (char)(i * 7 + 1);
		rli_prefault(p + 16 * MIB, 8 * MIB);
		for (; i < 8 * MIB; i += 997)
			p[16 * MIB + i] = (char)(i * 7 + 1);
	}
	rli_prefault_wait();
	{
		size_t wrong = 0;
		for (size_t i = 0; i < 8 * MIB; i++)
			wrong += p[16 * MIB + i] != (i % 997 == 0 ? (char)(i * 7 + 1) : 0);
		CHECK_INT((int)wrong, 0);
	}

	/* A writer at 5 MiB of an array of 64 MiB that has just entered its window: the next one, no more. */
	munmap(p, 64 * MIB);
	p = fresh(64 * MIB);
	CHECK(p != NULL);
	if (!p)
		TEST_DONE();
	rli_prefault_ahead(p, 5 * MIB - 8, 5 * MIB, 64 * MIB); /* inside window [4, 6): nothing */
	rli_prefault_wait();
	CHECK_INT((int)resident(p, 64 * MIB), 0);
	rli_prefault_ahead(p, 4 * MIB - 8, 4 * MIB, 64 * MIB); /* enters [4, 6): [6, 8) is asked for */
	rli_prefault_wait();
	CHECK_INT((int)resident(p + 6 * MIB, 2 * MIB), (int)(2 * MIB / page));
	CHECK_INT((int)resident(p, 6 * MIB) + (int)resident(p + 8 * MIB, 56 * MIB), 0);
	rli_prefault_ahead(p, 0, 8, 64 * MIB); /* a writer beginning: [2, 4) */
	rli_prefault_ahead(p, 63 * MIB - 8, 63 * MIB, 64 * MIB); /* the last window: nothing past the end */
	rli_prefault_wait();
	CHECK_INT((int)resident(p + 2 * MIB, 2 * MIB), (int)(2 * MIB / page));
	CHECK_INT((int)resident(p, 2 * MIB), 0);
	CHECK_INT((int)resident(p + 8 * MIB, 56 * MIB), 0);

	/* Memory unmapped before the helper gets to it: nothing happens. */
	gone = fresh(8 * MIB);
	CHECK(gone != NULL);
	if (gone) {
		munmap(gone, 8 * MIB);
		rli_prefault(gone, 8 * MIB);
		rli_prefault_wait();
	}

	/* An array grown by appends is faulted in ahead of its last item, within its window. */
	for (size_t i = 0; i < (5 * MIB) / sizeof(*items); i++) {
		CHECK_INT(RLI_GROW_BIG(&items, &capacity, i + 1, (32 * MIB) / sizeof(*items)), RLI_OK);
		items[i] = (uint32_t)i;
	}
	rli_prefault_wait();
	CHECK((size_t)capacity * sizeof(*items) == 32 * MIB);
	CHECK(resident((char *)items + 7 * MIB, page) >= 1); /* items + 7 MiB is not page-aligned: two pages */
	CHECK_INT((int)resident((char *)items + 12 * MIB, 20 * MIB - page), 0);
	rli_bigmem_free(items);

	/* Off again: the thread is joined, and requests are dropped. */
	rli_prefault_enable(0);
	rli_prefault(p + 40 * MIB, 4 * MIB);
	rli_prefault_wait();
	CHECK_INT((int)resident(p + 40 * MIB, 4 * MIB), 0);
	munmap(p, 64 * MIB);
	TEST_DONE();
}

/* bigmem.h: large growing arrays (event columns, kept ranges, sort scratch) in 2 MiB pages. */
#ifndef RLI_COMMON_BIGMEM_H
#define RLI_COMMON_BIGMEM_H

#include <stddef.h>

/* Blocks of this size or more are mapped apart and backed by 2 MiB pages where the kernel can. */
#define RLI_BIGMEM_MAP_FROM ((size_t)2 << 20)

/*
 * As realloc and free, for arrays that may grow large: rli_bigmem_resize(NULL, n) allocates, and a
 * failed resize (NULL) leaves the block as it was. Blocks from here are freed here only. As with
 * malloc, what a new block holds, and what a grown one holds past its old size, is unspecified.
 */
void *rli_bigmem_resize(void *p, size_t bytes);
void rli_bigmem_free(void *p);
/*
 * The bytes [offset, offset + bytes) of block p hold nothing its owner needs: where the block is
 * mapped, the pages wholly inside them go back to the system, and hold zeros when next touched;
 * elsewhere nothing happens. What a block no longer uses then stops counting in the process's
 * memory: a table whose columns moved when it grew leaves its old places behind.
 */
void rli_bigmem_release(void *p, size_t offset, size_t bytes);
/* A new array of `count` items of `size` bytes (at least one), as rli_bigmem_resize; NULL when the size overflows. */
void *rli_bigmem_array(size_t count, size_t size);
/* The same, every byte 0 (a fresh mapping is already: only a small or reused block is cleared). */
void *rli_bigmem_zeroed(size_t count, size_t size);
/*
 * Mapped blocks freed are kept (a few, 32 MiB in all) for the next blocks of about their size,
 * whose pages are then already faulted in; this gives them back to the system. Called between a
 * run's stages, so that what one stage freed does not add to the next one's peak.
 */
void rli_bigmem_trim(void);

#endif

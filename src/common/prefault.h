/* prefault.h: memory about to be written, faulted in by a helper thread ahead of the thread that writes it. */
#ifndef RLI_COMMON_PREFAULT_H
#define RLI_COMMON_PREFAULT_H

#include <stddef.h>

/* How far ahead a writer asks, in bytes: one 2 MiB page (common/bigmem.h), a power of two. */
#define RLI_PREFAULT_WINDOW ((size_t)2 << 20)

/*
 * On (1) or off (0, as it starts): the program's choice, as only it knows whether a core is
 * spare. Turned off, the requests still waiting are dropped and the helper thread is joined.
 */
void rli_prefault_enable(int on);

/*
 * Asks that the `bytes` at p be faulted in, writable, without their contents changing. A hint:
 * nothing happens when it is off, when too many requests wait already, or where p is not mapped.
 */
void rli_prefault(void *p, size_t bytes);

/*
 * For an array written front to back, `before` bytes of it written and now `after`, in a block of
 * `capacity` bytes: when the writer has just begun or entered a new window, the next one is asked
 * for, so the helper keeps one window ahead and never more (what it faults in is written soon).
 */
static inline void rli_prefault_ahead(void *base, size_t before, size_t after, size_t capacity)
{
	if (before == 0 || (before ^ after) >= RLI_PREFAULT_WINDOW) {
		size_t next = (after & ~(RLI_PREFAULT_WINDOW - 1)) + RLI_PREFAULT_WINDOW;
		if (next < capacity)
			rli_prefault((char *)base + next,
				     capacity - next < RLI_PREFAULT_WINDOW ? capacity - next : RLI_PREFAULT_WINDOW);
	}
}

/* Waits until every request made so far has been served or dropped (for tests). */
void rli_prefault_wait(void);

#endif

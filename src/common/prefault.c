/* prefault.c: memory about to be written, faulted in by a helper thread ahead of the thread that writes it. */
#define _GNU_SOURCE /* MADV_POPULATE_WRITE is Linux's */
#include "prefault.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/*
 * Why: on the virtual machines most of our runs take, the first write to a page costs a fault that
 * the host serves slowly, 1-4 ms a MB (bench/fresh-memory). A PyTorch trace with two million
 * [memory] events is read on one thread that keeps 200 MB of events and rows while the other core
 * waits, and that thread spent half a second in faults. madvise(MADV_POPULATE_WRITE) faults the
 * pages in as a write would but writes nothing, so a helper can take them while the reader
 * reads, and concurrent writes by the reader are safe. The requests are raw addresses: a block
 * freed or moved meanwhile makes madvise fail or fault in whatever is mapped there now,
 * both harmless, as no byte changes.
 */

#define QUEUE 32 /* requests waiting; past that they are dropped */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work, idle;
	pthread_t thread;
	int started, enabled, busy;
	atomic_int stop;
	size_t head, tail; /* requests head..tail-1 wait, in queue[i % QUEUE] */
	struct {
		char *p;
		size_t bytes;
	} queue[QUEUE];
} helper = { .lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER, .idle = PTHREAD_COND_INITIALIZER };

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
/* Whether this kernel (5.14 and later) populates without writing: tried once on a page of our own. */
static int kernel_can(void)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int can;
	if (p == MAP_FAILED)
		return 0;
	can = madvise(p, page, MADV_POPULATE_WRITE) == 0;
	munmap(p, page);
	return can;
}

/*
 * Faults in [p, p + bytes) a 2 MiB page at a time, so that turning it off waits for one at most.
 * Failures are the hint's: ENOMEM where nothing is mapped any more, EINVAL where what is mapped
 * now cannot be written.
 */
static void populate(char *p, size_t bytes)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = (uintptr_t)p & ~(uintptr_t)(page - 1), to = (uintptr_t)p + bytes;
	while (from < to && !atomic_load(&helper.stop)) {
		size_t step = to - from < RLI_PREFAULT_WINDOW ? to - from : RLI_PREFAULT_WINDOW;
		(void)madvise((void *)from, step, MADV_POPULATE_WRITE);
		from += step;
	}
}
#else
static int kernel_can(void)
{
	return 0;
}

static void populate(char *p, size_t bytes)
{
	(void)p;
	(void)bytes;
}
#endif

static void *serve(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&helper.lock);
	for (;;) {
		char *p;
		size_t bytes;
		while (helper.head == helper.tail && !atomic_load(&helper.stop))
			pthread_cond_wait(&helper.work, &helper.lock);
		if (atomic_load(&helper.stop))
			break;
		p = helper.queue[helper.head % QUEUE].p;
		bytes = helper.queue[helper.head % QUEUE].bytes;
		helper.head++;
		helper.busy = 1;
		pthread_mutex_unlock(&helper.lock);
		populate(p, bytes);
		pthread_mutex_lock(&helper.lock);
		helper.busy = 0;
		if (helper.head == helper.tail)
			pthread_cond_broadcast(&helper.idle);
	}
	pthread_cond_broadcast(&helper.idle);
	pthread_mutex_unlock(&helper.lock);
	return NULL;
}

void rli_prefault_enable(int on)
{
	int join = 0;
	if (on && !kernel_can())
		on = 0;
	pthread_mutex_lock(&helper.lock);
	helper.enabled = on;
	if (!helper.enabled) {
		helper.head = helper.tail;
		if (helper.started) {
			atomic_store(&helper.stop, 1);
			pthread_cond_signal(&helper.work);
			join = 1;
		}
	}
	pthread_mutex_unlock(&helper.lock);
	if (join) {
		pthread_join(helper.thread, NULL);
		pthread_mutex_lock(&helper.lock);
		helper.started = 0;
		atomic_store(&helper.stop, 0);
		pthread_mutex_unlock(&helper.lock);
	}
}

void rli_prefault(void *p, size_t bytes)
{
	if (!bytes)
		return;
	pthread_mutex_lock(&helper.lock);
	if (helper.enabled && !helper.started) {
		/* The thread starts with the first request; without one, the hints go unheeded. */
		if (pthread_create(&helper.thread, NULL, serve, NULL) == 0)
			helper.started = 1;
		else
			helper.enabled = 0;
	}
	if (helper.enabled && helper.tail - helper.head < QUEUE) {
		helper.queue[helper.tail % QUEUE].p = p;
		helper.queue[helper.tail % QUEUE].bytes = bytes;
		helper.tail++;
		pthread_cond_signal(&helper.work);
	}
	pthread_mutex_unlock(&helper.lock);
}

void rli_prefault_wait(void)
{
	pthread_mutex_lock(&helper.lock);
	while (helper.started && (helper.head != helper.tail || helper.busy))
		pthread_cond_wait(&helper.idle, &helper.lock);
	pthread_mutex_unlock(&helper.lock);
}

/* fresh_memory.c: what writing memory the process has not touched before costs on this machine, to read the other benchmarks by. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/*
 * Why: every table, sort and page of bars is memory written once. On bare metal a first touch
 * costs a page fault and the zeroing of the page, some 0.1-0.3 ms a MB. Under virtualisation it can
 * cost ten times that, and it depends on the host: a guest that hands its free pages back to the
 * host (free page reporting) pays again for memory freed a few seconds before. rl-insight's
 * figures compare runs that touch hundreds of MB with tools that touch none (yajl-bare,
 * csv-bare, the timeline alone), so a ratio there says as much about the machine as about the code.
 */

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Maps `bytes`, 2 MiB pages asked for or not, as rl-insight's bigmem does. NULL on failure. */
static char *map(size_t bytes, int huge)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (huge)
		(void)madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

/* Writes every byte once; the time in ms, or -1 when the mapping fails. */
static double touch(size_t bytes, int huge)
{
	char *p = map(bytes, huge);
	double t;
	if (!p)
		return -1;
	t = now_ms();
	memset(p, 1, bytes);
	t = now_ms() - t;
	munmap(p, bytes);
	return t;
}

typedef struct {
	size_t bytes;
	double ms;
} job;

static void *touch_job(void *arg)
{
	job *j = arg;
	j->ms = touch(j->bytes, 1);
	return NULL;
}

/* The same bytes split over two threads, at once: whether first touches run in parallel. */
static double touch_two_threads(size_t bytes)
{
	job jobs[2] = { { bytes / 2, 0 }, { bytes / 2, 0 } };
	pthread_t thread;
	double t = now_ms();
	if (pthread_create(&thread, NULL, touch_job, &jobs[1]) != 0)
		return -1;
	touch_job(&jobs[0]);
	pthread_join(thread, NULL);
	return jobs[0].ms < 0 || jobs[1].ms < 0 ? -1 : now_ms() - t;
}

static void report(const char *what, double ms, size_t mb)
{
	if (ms < 0)
		printf("%-44s cannot map %zu MB\n", what, mb);
	else
		printf("%-44s %8.1f ms  %6.2f ms/MB\n", what, ms, ms / (double)mb);
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
	size_t bytes = mb << 20;
	unsigned pause = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 3;

	if (argc > 3 || mb == 0) {
		fprintf(stderr, "usage: fresh-memory [MB [PAUSE_S]]  (default 256 MB, 3 s)\n");
		return 2;
	}
	printf("first touch of %zu MB on this machine (each figure after a %u s pause)\n", mb, pause);
	sleep(pause);
	report("4 KiB pages", touch(bytes, 0), mb);
	report("4 KiB pages, just freed by this process", touch(bytes, 0), mb);
	sleep(pause);
	report("2 MiB pages (MADV_HUGEPAGE)", touch(bytes, 1), mb);
	report("2 MiB pages, just freed by this process", touch(bytes, 1), mb);
	sleep(pause);
	report("2 MiB pages, freed a pause ago", touch(bytes, 1), mb);
	sleep(pause);
	report("2 MiB pages, half each on two threads", touch_two_threads(bytes), mb);
	return 0;
}

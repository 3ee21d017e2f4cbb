/* units.c: input units parsed on a pool of threads, each unit by one thread, progress logged in completion order. */
#include "parse_internal.h"
#include "common/task.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

/* More threads than this would only compete for the same disk and cores. */
#define RLI_MAX_WORKERS 256

typedef struct {
	rli_discovery *discovery;
	rli_unit_fn fn;
	void *ctx;
	rli_log_fn log;
	void *log_ctx;
	unsigned spare;   /* threads --jobs (or the CPUs) allow beyond the workers: a unit may start them */
	pthread_mutex_t lock;
	size_t next, completed;
} work_queue;

/* One worker: the queue, and its index, which it hands fn (for state kept per worker). */
typedef struct {
	work_queue *queue;
	unsigned index;
} worker;

static void *work(void *arg)
{
	worker *self = arg;
	work_queue *queue = self->queue;
	size_t total = queue->discovery->count;
	for (;;) {
		size_t index, done;
		rli_unit *unit;
		pthread_mutex_lock(&queue->lock);
		index = queue->next++;
		pthread_mutex_unlock(&queue->lock);
		if (index >= total)
			break;
		unit = &queue->discovery->units[index];
		unit->spare_threads = queue->spare;
		queue->fn(queue->ctx, self->index, unit);
		pthread_mutex_lock(&queue->lock);
		done = ++queue->completed;
		/* Progress in completion order, as the reference prints it; the lock keeps lines whole. */
		if (total < 10 || done % (total / 10 > 2 ? total / 10 : 2) == 0) {
			/* A torch or NVTX unit learns its rank only from its contents: it goes by its file. */
			if (unit->rank >= 0)
				rli_log_line(queue->log, queue->log_ctx, RLI_LOG_DEBUG, "Completed rank %lld: %zu/%zu (%.1f%%)",
					     (long long)unit->rank, done, total, 100.0 * (double)done / (double)total);
			else
				rli_log_line(queue->log, queue->log_ctx, RLI_LOG_DEBUG, "Completed %s: %zu/%zu (%.1f%%)",
					     unit->path, done, total, 100.0 * (double)done / (double)total);
		}
		pthread_mutex_unlock(&queue->lock);
	}
	return NULL;
}

unsigned rli_units_workers(unsigned jobs, size_t units)
{
	return rli_task_threads(jobs, units, RLI_MAX_WORKERS);
}

int rli_units_run(rli_discovery *discovery, rli_unit_fn fn, void *ctx, unsigned jobs, rli_log_fn log,
		  void *log_ctx)
{
	work_queue queue;
	pthread_t threads[RLI_MAX_WORKERS];
	worker workers[RLI_MAX_WORKERS];
	unsigned count = rli_units_workers(jobs, discovery->count), started = 0;

	memset(&queue, 0, sizeof(queue));
	queue.discovery = discovery;
	queue.fn = fn;
	queue.ctx = ctx;
	queue.log = log;
	queue.log_ctx = log_ctx;
	/*
	 * One unit (a single big trace) on a machine of two cores leaves one idle: its parser may use
	 * it. The threads left over are shared among the workers, each unit's parse starting its share
	 * at most, so that all of them together never ask for more than --jobs (or the CPUs).
	 */
	queue.spare = (rli_task_threads(jobs, SIZE_MAX, RLI_MAX_WORKERS) - count) / count;
	if (pthread_mutex_init(&queue.lock, NULL) != 0)
		return rli_error_set(RLI_ERROR, "cannot create a mutex");
	/* The calling thread is one of the workers; if a thread cannot start, the others do more. */
	for (unsigned i = 0; i < count; i++)
		workers[i] = (worker){ &queue, i };
	for (unsigned i = 1; i < count; i++) {
		if (pthread_create(&threads[started], NULL, work, &workers[i]) != 0)
			break;
		started++;
	}
	work(&workers[0]);
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&queue.lock);
	return RLI_OK;
}

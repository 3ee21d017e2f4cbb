/* task.c: one piece of work on a thread of its own, its result and error message carried back to the joiner. */
#include "task.h"
#include "error.h"
#include "strutil.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *run_thread(void *arg)
{
	rli_task *task = arg;
	task->result = task->run(task->arg);
	/* The message is the thread's own (thread-local): keep a copy for the joiner. */
	if (task->result < 0)
		task->message = rli_strdup(rli_error_last());
	return NULL;
}

void rli_task_start(rli_task *task, int (*run)(void *arg), void *arg, int threaded)
{
	memset(task, 0, sizeof(*task));
	task->run = run;
	task->arg = arg;
	if (threaded && pthread_create(&task->thread, NULL, run_thread, task) == 0) {
		task->started = 1;
		return;
	}
	run_thread(task);
}

int rli_task_join(rli_task *task)
{
	int threaded = task->started;
	if (threaded) {
		pthread_join(task->thread, NULL);
		task->started = 0;
	}
	if (task->result < 0 && task->message) {
		rli_error_set(task->result, "%s", task->message);
		free(task->message);
		task->message = NULL;
	} else if (task->result < 0 && threaded) {
		rli_error_oom(); /* the thread's message could not be copied */
	}
	return task->result;
}

#define EACH_MAX_THREADS 16

/* The items of one rli_task_each, shared by its threads. */
typedef struct {
	int (*each)(void *arg, size_t i);
	void *arg;
	size_t count;
	atomic_size_t next;
	atomic_int stop;
	pthread_mutex_t lock;
	size_t failed_at; /* under lock: the lowest item that failed, SIZE_MAX for none */
	int error;
	char *message;
} each_queue;

static int run_items(void *arg)
{
	each_queue *q = arg;
	size_t i;
	while (!atomic_load(&q->stop) && (i = atomic_fetch_add(&q->next, 1)) < q->count) {
		int error = q->each(q->arg, i);
		if (error == RLI_OK)
			continue;
		atomic_store(&q->stop, 1);
		pthread_mutex_lock(&q->lock);
		if (i < q->failed_at) {
			q->failed_at = i;
			q->error = error;
			free(q->message);
			q->message = rli_strdup(rli_error_last());
		}
		pthread_mutex_unlock(&q->lock);
	}
	return RLI_OK;
}

int rli_task_each(size_t count, unsigned threads, int (*each)(void *arg, size_t i), void *arg)
{
	each_queue q = { .each = each, .arg = arg, .count = count, .failed_at = SIZE_MAX };
	rli_task helpers[EACH_MAX_THREADS - 1];
	unsigned started = 0;

	if (!threads) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cpus > 1 ? (unsigned)(cpus < EACH_MAX_THREADS ? cpus : EACH_MAX_THREADS) : 1;
	}
	if (threads > EACH_MAX_THREADS)
		threads = EACH_MAX_THREADS;
	if (threads > count)
		threads = count ? (unsigned)count : 1;
	atomic_init(&q.next, 0);
	atomic_init(&q.stop, 0);
	if (pthread_mutex_init(&q.lock, NULL) != 0)
		return rli_error_set(RLI_ERROR, "cannot create a mutex");
	for (; started + 1 < threads; started++)
		rli_task_start(&helpers[started], run_items, &q, 1);
	run_items(&q);
	for (unsigned t = 0; t < started; t++)
		rli_task_join(&helpers[t]);
	pthread_mutex_destroy(&q.lock);
	if (q.failed_at == SIZE_MAX)
		return RLI_OK;
	if (q.message)
		rli_error_set(q.error, "%s", q.message);
	else
		rli_error_oom(); /* the message itself could not be kept */
	free(q.message);
	return q.error;
}

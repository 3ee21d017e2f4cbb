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

static void task_init(rli_task *task, int (*run)(void *arg), void *arg)
{
	memset(task, 0, sizeof(*task));
	task->run = run;
	task->arg = arg;
}

int rli_task_spawn(rli_task *task, int (*run)(void *arg), void *arg)
{
	task_init(task, run, arg);
	if (pthread_create(&task->thread, NULL, run_thread, task) != 0)
		return RLI_ERROR;
	task->started = 1;
	return RLI_OK;
}

void rli_task_start(rli_task *task, int (*run)(void *arg), void *arg, int threaded)
{
	if (threaded && rli_task_spawn(task, run, arg) == RLI_OK)
		return;
	task_init(task, run, arg);
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

unsigned rli_task_threads(unsigned asked, size_t items, unsigned most)
{
	unsigned threads = asked;
	if (!threads) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cpus > 1 ? (cpus < (long)most ? (unsigned)cpus : most) : 1;
	}
	if (threads > most)
		threads = most;
	if (threads > items)
		threads = (unsigned)items;
	return threads ? threads : 1;
}

void rli_task_together(unsigned threads, int (*run)(void *arg), void *arg)
{
	rli_task helpers[RLI_TASK_MAX_THREADS - 1];
	unsigned started = 0;
	if (threads > RLI_TASK_MAX_THREADS)
		threads = RLI_TASK_MAX_THREADS;
	for (; started + 1 < threads; started++)
		rli_task_start(&helpers[started], run, arg, 1);
	run(arg);
	for (unsigned t = 0; t < started; t++)
		rli_task_join(&helpers[t]);
}

void rli_first_failure_init(rli_first_failure *failure)
{
	failure->at = SIZE_MAX;
	failure->error = RLI_OK;
	failure->message = NULL;
}

void rli_first_failure_note(rli_first_failure *failure, size_t at, int error)
{
	if (at >= failure->at)
		return;
	failure->at = at;
	failure->error = error;
	free(failure->message);
	failure->message = rli_strdup(rli_error_last());
}

int rli_first_failure_raise(rli_first_failure *failure)
{
	int error = failure->error;
	if (failure->at == SIZE_MAX)
		return RLI_OK;
	if (failure->message)
		rli_error_set(error, "%s", failure->message);
	else
		rli_error_oom(); /* the message itself could not be kept */
	free(failure->message);
	failure->message = NULL;
	return error;
}

/* The items of one rli_task_each, shared by its threads. */
typedef struct {
	int (*each)(void *arg, size_t i);
	void *arg;
	size_t count;
	atomic_size_t next;
	atomic_int stop;
	pthread_mutex_t lock;
	rli_first_failure failed; /* under lock */
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
		rli_first_failure_note(&q->failed, i, error);
		pthread_mutex_unlock(&q->lock);
	}
	return RLI_OK;
}

int rli_task_each(size_t count, unsigned threads, int (*each)(void *arg, size_t i), void *arg)
{
	each_queue q = { .each = each, .arg = arg, .count = count };

	threads = rli_task_threads(threads, count, RLI_TASK_MAX_THREADS);
	atomic_init(&q.next, 0);
	atomic_init(&q.stop, 0);
	rli_first_failure_init(&q.failed);
	if (pthread_mutex_init(&q.lock, NULL) != 0)
		return rli_error_set(RLI_ERROR, "cannot create a mutex");
	rli_task_together(threads, run_items, &q);
	pthread_mutex_destroy(&q.lock);
	return rli_first_failure_raise(&q.failed);
}

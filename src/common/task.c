/* task.c: one piece of work on a thread of its own, its result and error message carried back to the joiner. */
#include "task.h"
#include "error.h"
#include "strutil.h"

#include <stdlib.h>
#include <string.h>

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

/* task.h: one piece of work on a thread of its own, its result and error message carried back to the joiner. */
#ifndef RLI_COMMON_TASK_H
#define RLI_COMMON_TASK_H

#include <pthread.h>
#include <stddef.h>

typedef struct {
	int (*run)(void *arg); /* returns a library code, with the thread's last error set on failure */
	void *arg;
	pthread_t thread;
	int started;           /* on a thread, not yet joined */
	int result;
	char *message;         /* the thread's error when result < 0; NULL otherwise */
} rli_task;

/*
 * Runs run(arg) on a new thread, or here and now when `threaded` is 0 or no thread can be had
 * (the work is done either way: the caller cannot tell but by the time it takes).
 */
void rli_task_start(rli_task *task, int (*run)(void *arg), void *arg, int threaded);
/*
 * Runs run(arg) on a new thread, or not at all: RLI_OK when it started, RLI_ERROR (no message
 * set, nothing run) when no thread can be had. For work that waits on the thread that starts it.
 */
int rli_task_spawn(rli_task *task, int (*run)(void *arg), void *arg);
/*
 * Waits for the work; returns its result. A failure's message becomes this thread's last error
 * (rli_error_last), as if the work had run here. Joining twice returns the result again.
 */
int rli_task_join(rli_task *task);

/*
 * How many threads to give `items` pieces of work: `asked`, or one a CPU when asked is 0; never
 * more than `most` or than the items, and at least one.
 */
unsigned rli_task_threads(unsigned asked, size_t items, unsigned most);

/* The most threads rli_task_together runs at once. */
#define RLI_TASK_MAX_THREADS 16

/*
 * Runs run(arg) on `threads` threads at once (at most RLI_TASK_MAX_THREADS), the caller's among
 * them, and waits for them all: they share out the work through arg, and leave their results there.
 */
void rli_task_together(unsigned threads, int (*run)(void *arg), void *arg);

/*
 * Of work shared out between threads, the failure of the lowest item that failed: the one a
 * single thread would have met first. The caller keeps it under a lock of its own.
 */
typedef struct {
	size_t at;     /* the item; SIZE_MAX while none has failed */
	int error;
	char *message; /* the failing thread's last error */
} rli_first_failure;

void rli_first_failure_init(rli_first_failure *failure);
/* Item `at` failed with error, this thread's last error saying why: kept if it is the lowest yet. */
void rli_first_failure_note(rli_first_failure *failure, size_t at, int error);
/* RLI_OK if nothing failed, else the failure, its message made this thread's last error. Frees the message. */
int rli_first_failure_raise(rli_first_failure *failure);

/*
 * Runs each(arg, i) once for every i below count, on up to `threads` threads (0: one a CPU),
 * the caller's among them, in no set order. Returns RLI_OK, or the failure of the lowest i that
 * failed, its message this thread's last error, as if the items had run one after another; once
 * an item has failed no new one is started.
 */
int rli_task_each(size_t count, unsigned threads, int (*each)(void *arg, size_t i), void *arg);

#endif

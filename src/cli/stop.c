/* stop.c: SIGTERM, SIGINT and SIGHUP end a run cleanly: temporaries removed, what was written left whole, exit 128+signal. */
#include "stop.h"
#include "common/atomic_file.h"
#include "output_lock.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * Why a thread and not a handler: what a stop must do (unlink, take the temporaries' lock,
 * format a line) is not async-signal-safe, and a handler can run on any thread in the middle of
 * malloc. With the signals blocked everywhere, sigwait hands them to this thread as ordinary
 * events; the other threads go on undisturbed until the process ends.
 */
static sigset_t stop_signals;
/* Taken by the thread that ends the process, the stopper or main: the other then waits for good. */
static pthread_mutex_t ending = PTHREAD_MUTEX_INITIALIZER;
static const char *stop_output_path;

static const char *signal_name(int sig)
{
	return sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

static void *wait_for_stop(void *arg)
{
	char line[512];
	size_t written;
	int sig = 0, length;

	(void)arg;
	while (sigwait(&stop_signals, &sig) != 0)
		;
	pthread_mutex_lock(&ending);
	/* Waits for a set's renames under way: the folder holds a whole set or none of it. */
	written = rli_atomic_abandon();
	cli_output_lock_abandon();
	if (written == 0)
		length = snprintf(line, sizeof(line), "rl-insight: stopped by %s; no output written\n", signal_name(sig));
	else
		length = snprintf(line, sizeof(line), "rl-insight: stopped by %s; the %zu output%s already written to %s "
				  "stay%s whole, nothing else was written\n", signal_name(sig), written,
				  written == 1 ? "" : "s", stop_output_path, written == 1 ? "s" : "");
	/* A progress line may be on the terminal: this line replaces it. */
	if (isatty(STDERR_FILENO) && write(STDERR_FILENO, "\r\033[K", 4) < 0)
		length = 0;
	if (length > 0 && write(STDERR_FILENO, line, (size_t)length < sizeof(line) ? (size_t)length : sizeof(line) - 1) < 0)
		length = 0;
	_exit(128 + sig);
	return NULL;
}

void cli_stop_start(const char *output_path)
{
	static const int wanted[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction now;
	pthread_attr_t attr;
	pthread_t thread;
	int any = 0;

	stop_output_path = output_path ? output_path : ".";
	sigemptyset(&stop_signals);
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
		/* An ignored signal stays so: nohup, or a shell's background job for SIGINT. */
		if (sigaction(wanted[i], NULL, &now) == 0 && now.sa_handler == SIG_IGN)
			continue;
		sigaddset(&stop_signals, wanted[i]);
		any = 1;
	}
	if (!any || pthread_sigmask(SIG_BLOCK, &stop_signals, NULL) != 0)
		return;
	if (pthread_attr_init(&attr) != 0)
		goto unblock;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* sigwait and a line need little: a small stack, as the rendering threads want the memory. */
	pthread_attr_setstacksize(&attr, 256 << 10);
	if (pthread_create(&thread, &attr, wait_for_stop, NULL) == 0) {
		pthread_attr_destroy(&attr);
		return;
	}
	pthread_attr_destroy(&attr);
unblock:
	/* No thread to take them: the signals kill the run as before rather than wait unseen. */
	pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
}

void cli_stop_end(void)
{
	/* Never let go: a stop that began finishes the process; one that comes now waits for our exit. */
	pthread_mutex_lock(&ending);
}

/* output_lock.c: one run at a time in an output folder, by a lock on a file in it that the kernel lets go when the run ends. */
#include "output_lock.h"
#include "common/error.h"
#include "common/strutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * One run a process: the lock's file, under state_lock because the stopping thread (stop.c)
 * removes it while the main thread may be taking or letting it go. fd is the file being waited
 * on or held; held says the lock is ours and the file is still the folder's.
 */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static char *lock_path;
static int lock_fd = -1, held;

/* The file at lock_path is the one fd has open: the last holder may have removed it meanwhile. */
static int still_the_folders(int fd)
{
	struct stat open_file, named;
	return fstat(fd, &open_file) == 0 && stat(lock_path, &named) == 0 && open_file.st_dev == named.st_dev &&
	       open_file.st_ino == named.st_ino;
}

static void forget_fd(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
	held = 0;
}

/* The lock file of another user's run may be read-only to us: flock needs no write permission. */
static int open_lock_file(void)
{
	int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0 && errno == EACCES)
		fd = open(lock_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	return fd;
}

int cli_output_lock(console *c, const char *output_path, int no_wait)
{
	int said = 0, error = RLI_OK, got;

	if (!(lock_path = rli_path_join(output_path, CLI_LOCK_NAME)))
		return rli_error_oom();
	/*
	 * Whoever holds the lock removes the file before letting go, so a run that waited on a file
	 * may get the lock of one no longer in the folder: it then starts again on the folder's own.
	 */
	for (;;) {
		pthread_mutex_lock(&state_lock);
		if ((lock_fd = open_lock_file()) < 0) {
			int err = errno;
			pthread_mutex_unlock(&state_lock);
			/* Not ours to write: the outputs will say so, each naming its file. */
			if (err != EACCES && err != EROFS && err != EPERM)
				cli_say(c, 0, "", "cannot lock %s (%s): another run may write there at the same time",
					output_path, strerror(err));
			goto done;
		}
		got = flock(lock_fd, LOCK_EX | LOCK_NB) == 0;
		if (!got && errno != EWOULDBLOCK) {
			int err = errno;
			forget_fd();
			pthread_mutex_unlock(&state_lock);
			cli_say(c, 0, "", "cannot lock %s (%s): another run may write there at the same time", output_path,
				strerror(err));
			goto done;
		}
		if (got && still_the_folders(lock_fd)) {
			held = 1;
			pthread_mutex_unlock(&state_lock);
			goto done;
		}
		if (got) {
			forget_fd();
			pthread_mutex_unlock(&state_lock);
			continue;
		}
		pthread_mutex_unlock(&state_lock);
		if (no_wait) {
			pthread_mutex_lock(&state_lock);
			forget_fd();
			pthread_mutex_unlock(&state_lock);
			error = rli_error_set(CLI_BUSY, "another rl-insight run is writing to %s; --no-wait: not waiting "
					      "for it", output_path);
			goto done;
		}
		if (!said) {
			cli_say(c, 0, "", "waiting for another rl-insight run to finish writing to %s", output_path);
			said = 1;
		}
		/* Outside state_lock: a stop while waiting must not wait for the other run too. */
		while (flock(lock_fd, LOCK_EX) != 0 && errno == EINTR)
			;
		pthread_mutex_lock(&state_lock);
		got = still_the_folders(lock_fd);
		if (got)
			held = 1;
		else
			forget_fd();
		pthread_mutex_unlock(&state_lock);
		if (got)
			goto done;
	}
done:
	return error;
}

void cli_output_unlock(void)
{
	pthread_mutex_lock(&state_lock);
	/* Removed while still held, so that no run can take the lock of a file that is going. */
	if (held)
		unlink(lock_path);
	forget_fd();
	free(lock_path);
	lock_path = NULL;
	pthread_mutex_unlock(&state_lock);
}

void cli_output_lock_abandon(void)
{
	pthread_mutex_lock(&state_lock);
	/*
	 * A stop while waiting: the lock is ours only if flock says so on our own file (it is then
	 * free or already ours), and the file is still the folder's. Never let go: the exit does.
	 */
	if (lock_fd >= 0 && (held || flock(lock_fd, LOCK_EX | LOCK_NB) == 0) && still_the_folders(lock_fd))
		unlink(lock_path);
}

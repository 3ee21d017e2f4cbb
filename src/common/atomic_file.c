/* atomic_file.c: outputs appear whole or not at all (temporary file, then rename). */
#define _GNU_SOURCE /* syncfs is Linux's */
#include "atomic_file.h"
#include "error.h"
#include "grow.h"
#include "strutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The stdio buffer of a file being written. */
#define WRITE_BUFFER ((size_t)64 << 10)

/*
 * Every temporary the process holds, by its temp_path pointer, so that a run stopped by a
 * signal finds them all (rli_atomic_abandon). A temporary is made, renamed and removed under
 * live_lock, so the list is what is on disk whenever the lock is free; a group of renames
 * (rli_atomic_group_begin) holds group_lock as well, taken first.
 */
static pthread_mutex_t group_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static const char **live;
static size_t live_count, live_capacity, renamed_count;

static void forget_temp(const char *temp_path)
{
	for (size_t i = live_count; i-- > 0;)
		if (live[i] == temp_path) {
			live[i] = live[--live_count];
			return;
		}
}

/* mkstemp under the lock, the name listed before the lock is let go; -1 with errno otherwise. */
static int make_temp(char *temp_path)
{
	int fd;
	pthread_mutex_lock(&live_lock);
	if (RLI_GROW(&live, &live_capacity, live_count + 1, 16) < 0) {
		pthread_mutex_unlock(&live_lock);
		errno = ENOMEM;
		return -1;
	}
	if ((fd = mkstemp(temp_path)) >= 0)
		live[live_count++] = temp_path;
	pthread_mutex_unlock(&live_lock);
	return fd;
}

static void remove_temp(const char *temp_path)
{
	pthread_mutex_lock(&live_lock);
	unlink(temp_path);
	forget_temp(temp_path);
	pthread_mutex_unlock(&live_lock);
}

void rli_atomic_group_begin(void)
{
	pthread_mutex_lock(&group_lock);
}

void rli_atomic_group_end(void)
{
	pthread_mutex_unlock(&group_lock);
}

size_t rli_atomic_abandon(void)
{
	pthread_mutex_lock(&group_lock);
	pthread_mutex_lock(&live_lock);
	for (size_t i = 0; i < live_count; i++)
		unlink(live[i]);
	live_count = 0;
	return renamed_count;
}

static char *temp_name_for(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
	return rli_strfmt("%.*s.%s.XXXXXX", (int)dir_len, path, path + dir_len);
}

int rli_atomic_open(rli_atomic_file *file, const char *path)
{
	int fd;
	memset(file, 0, sizeof(*file));
	file->path = strdup(path);
	file->temp_path = temp_name_for(path);
	if (!file->path || !file->temp_path) {
		rli_atomic_abort(file);
		return rli_error_oom();
	}
	fd = make_temp(file->temp_path);
	if (fd < 0) {
		int err = errno;
		free(file->temp_path);
		file->temp_path = NULL;
		rli_atomic_abort(file);
		return rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", path, strerror(err));
	}
	/* mkstemp makes 0600; outputs are ordinary files others may read. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	file->fp = fdopen(fd, "wb");
	if (!file->fp) {
		close(fd);
		rli_atomic_abort(file);
		return rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", path, strerror(errno));
	}
	/*
	 * stdio's own buffer is the file system's block, 4 KiB: the memory pages' 22 MB took 5,900
	 * writes. Without the memory for a larger one the file is written as it would have been.
	 */
	if ((file->buffer = malloc(WRITE_BUFFER)) && setvbuf(file->fp, file->buffer, _IOFBF, WRITE_BUFFER) != 0) {
		free(file->buffer);
		file->buffer = NULL;
	}
	return RLI_OK;
}

/* Removes the temporary and says why path could not be written. */
static int fail(rli_atomic_file *file, int err)
{
	char *path = file->path;
	file->path = NULL;
	rli_atomic_abort(file);
	rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", path, strerror(err));
	free(path);
	return RLI_EOUTPUT;
}

static int close_file(rli_atomic_file *file, int sync)
{
	int err = 0;
	if (fflush(file->fp) != 0 || ferror(file->fp))
		err = errno ? errno : EIO;
	if (!err && sync && fsync(fileno(file->fp)) != 0 && errno != EINVAL)
		err = errno;
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
	/*
	 * Unsynced, the file is synced with the rest of its set when the set is committed: its
	 * write-back starts now, without waiting, so that the commit's sync waits for the last
	 * files only (the memory pages' 19 MB took the commit 25 ms, the cores idle). A failure
	 * here is no failure: the sync still comes, and reports it.
	 */
	if (!err && !sync)
		(void)sync_file_range(fileno(file->fp), 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
	if (fclose(file->fp) != 0 && !err)
		err = errno ? errno : EIO;
	file->fp = NULL;
	free(file->buffer);
	file->buffer = NULL;
	return err ? fail(file, err) : RLI_OK;
}

int rli_atomic_close(rli_atomic_file *file)
{
	return close_file(file, 1);
}

int rli_atomic_close_unsynced(rli_atomic_file *file)
{
	return close_file(file, 0);
}

/*
 * Why a whole file system at once: a fsync costs this machine's disk about
 * 0.5 ms a file, and a run of 64 devices writes 451 files (0.24 s of fsyncs
 * on the threads that draw them, against 0.06 s for one syncfs after all).
 * syncfs reports a failed write back since Linux 5.8; a fsync each is the
 * way elsewhere.
 */
int rli_atomic_sync(const rli_atomic_file *file, rli_synced_devices *synced)
{
	struct stat st;
	int fd = open(file->temp_path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0 || fstat(fd, &st) != 0) {
		err = errno;
		goto done;
	}
	for (size_t i = 0; i < synced->count; i++)
		if (synced->device[i] == st.st_dev)
			goto done;
#ifdef __linux__
	if (synced->count < sizeof(synced->device) / sizeof(synced->device[0])) {
		if (syncfs(fd) == 0)
			synced->device[synced->count++] = st.st_dev;
		else
			err = errno;
		goto done;
	}
#endif
	if (fsync(fd) != 0 && errno != EINVAL)
		err = errno;
done:
	if (fd >= 0)
		close(fd);
	if (err)
		return rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", file->path, strerror(err));
	return RLI_OK;
}

int rli_atomic_publish(rli_atomic_file *file)
{
	int renamed, err;

	pthread_mutex_lock(&live_lock);
	renamed = rename(file->temp_path, file->path) == 0;
	err = errno;
	if (renamed) {
		forget_temp(file->temp_path);
		renamed_count++;
	}
	pthread_mutex_unlock(&live_lock);
	if (!renamed)
		return fail(file, err);
	free(file->temp_path);
	free(file->path);
	memset(file, 0, sizeof(*file));
	return RLI_OK;
}

int rli_atomic_commit(rli_atomic_file *file)
{
	int error = rli_atomic_close(file);
	return error < 0 ? error : rli_atomic_publish(file);
}

void rli_atomic_abort(rli_atomic_file *file)
{
	if (file->fp)
		fclose(file->fp);
	free(file->buffer);
	if (file->temp_path)
		remove_temp(file->temp_path);
	free(file->temp_path);
	free(file->path);
	memset(file, 0, sizeof(*file));
}

int rli_mkdir_p(const char *path)
{
	char *copy = strdup(path);
	struct stat st;
	if (!copy)
		return rli_error_oom();
	for (char *p = copy + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
			int err = errno;
			rli_error_set(RLI_EOUTPUT, "cannot create folder %s: %s", copy, strerror(err));
			free(copy);
			return RLI_EOUTPUT;
		}
		*p = saved;
		if (saved == '\0')
			break;
	}
	free(copy);
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return rli_error_set(RLI_EOUTPUT, "cannot create folder %s: not a directory", path);
	return RLI_OK;
}

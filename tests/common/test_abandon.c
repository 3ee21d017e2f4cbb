/* test_abandon.c: a process stopping on a signal removes every temporary it holds, open or kept, and waits for a set's renames under way. */
#include "common/atomic_file.h"
#include "common/output_set.h"
#include "harness.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/rli-abandon-XXXXXX";

/* Entries of dir: hidden ones (the temporaries) and the others. */
static void count_entries(int *hidden, int *shown)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	*hidden = *shown = 0;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			(*(e->d_name[0] == '.' ? hidden : shown))++;
	if (d)
		closedir(d);
}

static void open_file(rli_atomic_file *file, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_INT(rli_atomic_open(file, path), RLI_OK);
	fputs(name, file->fp);
}

static void keep(rli_output_set *set, const char *name)
{
	rli_atomic_file file;
	open_file(&file, name);
	CHECK_INT(rli_output_set_keep(set, &file), RLI_OK);
}

static atomic_int committing;
static rli_atomic_file closed[3];

/* Renames as a set's commit makes them, slowly: the stop must wait for all three, not cut them. */
static void *slow_commit(void *arg)
{
	struct timespec pause = { 0, 30 * 1000 * 1000 };
	(void)arg;
	rli_atomic_group_begin();
	atomic_store(&committing, 1);
	for (int i = 0; i < 3; i++) {
		nanosleep(&pause, NULL);
		CHECK_INT(rli_atomic_publish(&closed[i]), RLI_OK);
	}
	rli_atomic_group_end();
	return NULL;
}

/* In a child: abandon never gives its locks back, as the process it serves ends. */
static int stopped_child(void)
{
	rli_output_set *written = NULL, *pending = NULL;
	rli_atomic_file open_one;
	int hidden, shown;

	/* Two files already in place, one kept and one still open: 2 written, 2 temporaries. */
	CHECK_INT(rli_output_set_new(&written), RLI_OK);
	keep(written, "a.txt");
	keep(written, "b.txt");
	CHECK_INT(rli_output_set_commit(written), RLI_OK);
	CHECK_INT(rli_output_set_new(&pending), RLI_OK);
	keep(pending, "c.txt");
	open_file(&open_one, "d.txt");
	count_entries(&hidden, &shown);
	CHECK_INT(hidden, 2);
	CHECK_INT(shown, 2);
	CHECK_INT(rli_atomic_abandon(), 2);
	count_entries(&hidden, &shown);
	CHECK_INT(hidden, 0);
	CHECK_INT(shown, 2);
	return rli_test_failures;
}

/* A stop during a group of renames: they all end, and abandon counts them. */
static int stopped_during_commit(void)
{
	static const char *const names[] = { "e.txt", "f.txt", "g.txt" };
	pthread_t thread;
	int hidden, shown;

	for (int i = 0; i < 3; i++) {
		open_file(&closed[i], names[i]);
		CHECK_INT(rli_atomic_close_unsynced(&closed[i]), RLI_OK);
	}
	CHECK_INT(pthread_create(&thread, NULL, slow_commit, NULL), 0);
	while (!atomic_load(&committing))
		sched_yield();
	CHECK_INT(rli_atomic_abandon(), 3);
	count_entries(&hidden, &shown);
	CHECK_INT(hidden, 0);
	CHECK_INT(shown, 3);
	return rli_test_failures;
}

static int in_child(int (*test)(void))
{
	int status;
	pid_t pid = fork();
	if (pid == 0)
		_exit(test() ? 1 : 0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

int main(void)
{
	int failed;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	failed = in_child(stopped_child);
	CHECK_INT(failed, 0);
	test_empty_dir(dir);
	failed = in_child(stopped_during_commit);
	CHECK_INT(failed, 0);
	test_empty_dir(dir);
	rmdir(dir);
	return rli_test_failures ? 1 : 0;
}

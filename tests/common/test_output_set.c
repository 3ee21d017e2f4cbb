/* test_output_set.c: a run's files appear together once synced, or none of them (a temporary lost before the commit stops every rename). */
#include "common/atomic_file.h"
#include "common/output_set.h"
#include "harness.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

/* Files in dir whose name starts with a dot: the temporaries. */
static int hidden_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void keep(rli_output_set *set, const char *dir, const char *name, const char *text, char *temp_out, size_t room)
{
	rli_atomic_file file;
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_INT(rli_atomic_open(&file, path), RLI_OK);
	fputs(text, file.fp);
	if (temp_out)
		snprintf(temp_out, room, "%s", file.temp_path);
	CHECK_INT(rli_output_set_keep(set, &file), RLI_OK);
}

static int exists(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

int main(void)
{
	char dir[] = "/tmp/rli-output-set-XXXXXX", temp[4096];
	rli_output_set *set = NULL;
	size_t length = 0;
	char *text;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}

	/* Two files kept, committed: both in place with their bytes, no temporary left. */
	CHECK_INT(rli_output_set_new(&set), RLI_OK);
	keep(set, dir, "a.txt", "first", NULL, 0);
	keep(set, dir, "b.txt", "second", NULL, 0);
	CHECK(!exists(dir, "a.txt") && !exists(dir, "b.txt"));
	CHECK_INT(hidden_files(dir), 2);
	CHECK_INT(rli_output_set_commit(set), RLI_OK);
	CHECK_INT(hidden_files(dir), 0);
	snprintf(temp, sizeof(temp), "%s/b.txt", dir);
	text = test_read_file(temp, &length);
	CHECK_STR(text, "second");
	free(text);
	rli_output_set_free(set);
	unlink(temp);
	snprintf(temp, sizeof(temp), "%s/a.txt", dir);
	unlink(temp);

	/* The second temporary gone before the commit: its sync fails first, so not even the first is renamed. */
	CHECK_INT(rli_output_set_new(&set), RLI_OK);
	keep(set, dir, "c.txt", "third", NULL, 0);
	keep(set, dir, "d.txt", "fourth", temp, sizeof(temp));
	CHECK_INT(unlink(temp), 0);
	CHECK_INT(rli_output_set_commit(set), RLI_EOUTPUT);
	CHECK(strstr(rli_error_last(), "d.txt") != NULL);
	CHECK(!exists(dir, "c.txt") && !exists(dir, "d.txt"));
	rli_output_set_free(set);
	CHECK_INT(hidden_files(dir), 0);

	rmdir(dir);
	return rli_test_failures ? 1 : 0;
}

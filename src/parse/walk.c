/* walk.c: a directory walk in os.walk order, with entries sorted by name so output never depends on the filesystem. */
#include "walk.h"
#include "common/grow.h"
#include "parse_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Deeper trees than this are not profiler output; stopping (and saying so) keeps the stack bounded. */
#define RLI_WALK_MAX_DEPTH 64

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void rli_free_names(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

int rli_list_dir(char ***names, size_t *count, const char *dir)
{
	DIR *handle;
	struct dirent *entry;
	char **list = NULL;
	size_t used = 0, capacity = 0;
	int error = RLI_OK;

	*names = NULL;
	*count = 0;
	handle = opendir(dir);
	if (!handle)
		return RLI_EINVALID;
	for (;;) {
		/* readdir says a failure (EIO on a bad disk) only through errno: a listing cut short is no listing. */
		errno = 0;
		entry = readdir(handle);
		if (!entry) {
			if (errno != 0)
				error = RLI_EINVALID;
			break;
		}
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		if (RLI_GROW(&list, &capacity, used + 1, 32) < 0) {
			error = RLI_ERROR;
			goto done;
		}
		list[used] = rli_strdup(entry->d_name);
		if (!list[used]) {
			error = rli_error_oom();
			goto done;
		}
		used++;
	}
	if (used > 1 && error == RLI_OK)
		qsort(list, used, sizeof(*list), compare_names);
done:
	{
		int why = errno; /* closedir may change it */
		closedir(handle);
		errno = why;
	}
	if (error < 0) {
		rli_free_names(list, used);
		return error;
	}
	*names = list;
	*count = used;
	return RLI_OK;
}

typedef struct {
	rli_walk_fn fn;
	rli_walk_failed_fn failed;
	void *ctx;
} walk_visitor;

static int walk_dir(const char *dir, int depth, const walk_visitor *visitor)
{
	char **names = NULL;
	size_t count = 0;
	char *descend = NULL;
	int error;

	/* What the walk cannot search is said, never dropped unsaid: its data would be missing from the run. */
	if (depth - 1 > RLI_WALK_MAX_DEPTH) { /* dir is depth - 1 folders below the root */
		char why[80];
		snprintf(why, sizeof(why), "more than %d folders below the input path, not searched", RLI_WALK_MAX_DEPTH);
		return visitor->failed ? visitor->failed(visitor->ctx, dir, why) : RLI_OK;
	}
	error = rli_list_dir(&names, &count, dir);
	if (error == RLI_EINVALID)
		return visitor->failed ? visitor->failed(visitor->ctx, dir, strerror(errno)) : RLI_OK;
	if (error < 0)
		return error;
	descend = calloc(count ? count : 1, 1);
	if (!descend) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < count; i++) {
		struct stat st, lst;
		rli_walk_entry entry;
		char *path = rli_path_join(dir, names[i]);
		int verdict;
		if (!path) {
			error = rli_error_oom();
			goto done;
		}
		memset(&entry, 0, sizeof(entry));
		entry.dir = dir;
		entry.name = names[i];
		entry.path = path;
		entry.depth = depth;
		if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			entry.is_link = 1;
		if (stat(path, &st) == 0) {
			entry.is_dir = S_ISDIR(st.st_mode);
			entry.is_file = S_ISREG(st.st_mode);
		}
		verdict = visitor->fn(visitor->ctx, &entry);
		free(path);
		if (verdict < 0) {
			error = verdict;
			goto done;
		}
		if (entry.is_dir && !entry.is_link && verdict == 0)
			descend[i] = 1;
	}
	for (size_t i = 0; i < count; i++) {
		char *path;
		if (!descend[i])
			continue;
		path = rli_path_join(dir, names[i]);
		if (!path) {
			error = rli_error_oom();
			goto done;
		}
		error = walk_dir(path, depth + 1, visitor);
		free(path);
		if (error < 0)
			goto done;
	}
	error = RLI_OK;
done:
	free(descend);
	rli_free_names(names, count);
	return error;
}

int rli_walk(const char *root, rli_walk_fn fn, rli_walk_failed_fn failed, void *ctx)
{
	walk_visitor visitor = {fn, failed, ctx};
	return walk_dir(root, 1, &visitor);
}

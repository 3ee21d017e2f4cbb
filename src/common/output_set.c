/* output_set.c: the files of one run, kept under temporary names until every one is written. */
#include "output_set.h"
#include "error.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
	rli_atomic_file file; /* closed; temp_path holds the bytes until commit */
	char *path;           /* the final name, kept for the report after commit */
	uint64_t bytes;
	int published;
} kept_file;

struct rli_output_set {
	kept_file *files;
	size_t count, capacity;
};

int rli_output_set_new(rli_output_set **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? RLI_OK : rli_error_oom();
}

int rli_output_set_keep(rli_output_set *set, rli_atomic_file *file)
{
	kept_file *kept;
	struct stat st;
	int error;

	if ((error = RLI_GROW(&set->files, &set->capacity, set->count + 1, 8)) < 0) {
		rli_atomic_abort(file);
		return error;
	}
	kept = &set->files[set->count];
	memset(kept, 0, sizeof(*kept));
	if (!(kept->path = strdup(file->path))) {
		rli_atomic_abort(file);
		return rli_error_oom();
	}
	if ((error = rli_atomic_close_unsynced(file)) < 0) {
		free(kept->path);
		return error;
	}
	kept->file = *file;
	memset(file, 0, sizeof(*file));
	kept->bytes = stat(kept->file.temp_path, &st) == 0 ? (uint64_t)st.st_size : 0;
	set->count++;
	return RLI_OK;
}

int rli_output_finish(rli_output_set *set, rli_atomic_file *file)
{
	return set ? rli_output_set_keep(set, file) : rli_atomic_commit(file);
}

/*
 * Every file was written and closed before this runs. They are made durable
 * first, all of them (a file system at a time, see rli_atomic_sync), so no
 * name is taken before its bytes are on disk. What is left is a rename in
 * the same folder each. The one failure a rename there can still meet, a
 * folder in the way, is looked for first, so the set appears whole or not at
 * all; should a rename fail anyway, the files not yet renamed are removed and
 * the error says which.
 */
int rli_output_set_commit(rli_output_set *set)
{
	rli_synced_devices synced = { .count = 0 };
	int error = RLI_OK;
	struct stat st;

	for (size_t i = 0; i < set->count && error == RLI_OK; i++)
		if (!set->files[i].published)
			error = rli_atomic_sync(&set->files[i].file, &synced);
	for (size_t i = 0; i < set->count && error == RLI_OK; i++)
		if (!set->files[i].published && stat(set->files[i].path, &st) == 0 && S_ISDIR(st.st_mode))
			error = rli_error_set(RLI_EOUTPUT, "cannot write %s: a folder of that name is in the way",
					      set->files[i].path);
	/* A run stopped by a signal waits for these renames: its folder holds one set, never two halves. */
	rli_atomic_group_begin();
	for (size_t i = 0; i < set->count; i++) {
		kept_file *kept = &set->files[i];
		if (kept->published)
			continue;
		if (error < 0) {
			rli_atomic_abort(&kept->file);
			continue;
		}
		error = rli_atomic_publish(&kept->file);
		kept->published = error == RLI_OK;
	}
	rli_atomic_group_end();
	return error;
}

size_t rli_output_set_count(const rli_output_set *set)
{
	return set->count;
}

const char *rli_output_set_path(const rli_output_set *set, size_t index, uint64_t *bytes)
{
	if (index >= set->count)
		return NULL;
	if (bytes)
		*bytes = set->files[index].bytes;
	return set->files[index].path;
}

void rli_output_set_free(rli_output_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->count; i++) {
		if (!set->files[i].published)
			rli_atomic_abort(&set->files[i].file);
		free(set->files[i].path);
	}
	free(set->files);
	free(set);
}

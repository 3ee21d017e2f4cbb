/* atomic_file.h: outputs appear whole or not at all (temporary file, then rename). */
#ifndef RLI_COMMON_ATOMIC_FILE_H
#define RLI_COMMON_ATOMIC_FILE_H

#include <stdio.h>

typedef struct {
	FILE *fp;        /* write here between open and commit */
	char *path;      /* final name */
	char *temp_path; /* hidden sibling in the same folder, so rename is atomic */
} rli_atomic_file;

/* Creates the temporary file next to path. RLI_EOUTPUT with a message on failure. */
int rli_atomic_open(rli_atomic_file *file, const char *path);
/* Flushes, syncs and renames into place; on any failure removes the temporary. */
int rli_atomic_commit(rli_atomic_file *file);
/* The first half of commit: flushes, syncs and closes; on failure removes the temporary. */
int rli_atomic_close(rli_atomic_file *file);
/* The second half: renames the closed temporary into place; on failure removes it. */
int rli_atomic_publish(rli_atomic_file *file);
/* Removes the temporary file; safe after a failed open or a commit. */
void rli_atomic_abort(rli_atomic_file *file);

/* mkdir -p. RLI_EOUTPUT with a message on failure. */
int rli_mkdir_p(const char *path);

#endif

/* atomic_file.h: outputs appear whole or not at all (temporary file, then rename). */
#ifndef RLI_COMMON_ATOMIC_FILE_H
#define RLI_COMMON_ATOMIC_FILE_H

#include <stdio.h>
#include <sys/types.h>

typedef struct {
	FILE *fp;        /* write here between open and commit */
	char *path;      /* final name */
	char *temp_path; /* hidden sibling in the same folder, so rename is atomic */
	char *buffer;    /* fp's, while it is open */
} rli_atomic_file;

/* Creates the temporary file next to path. RLI_EOUTPUT with a message on failure. */
int rli_atomic_open(rli_atomic_file *file, const char *path);
/* Flushes, syncs and renames into place; on any failure removes the temporary. */
int rli_atomic_commit(rli_atomic_file *file);
/* The first half of commit: flushes, syncs and closes; on failure removes the temporary. */
int rli_atomic_close(rli_atomic_file *file);
/* As rli_atomic_close without the sync: rli_atomic_sync follows before the rename. */
int rli_atomic_close_unsynced(rli_atomic_file *file);

/* The file systems a run's outputs have been synced on, so each is synced once. */
typedef struct {
	dev_t device[8];
	size_t count;
} rli_synced_devices;

/*
 * Makes a temporary closed unsynced durable: the whole file system it is on at
 * once (syncfs) unless `synced` lists it already, or else the file alone. The
 * temporary stays on failure (RLI_EOUTPUT naming the file).
 */
int rli_atomic_sync(const rli_atomic_file *file, rli_synced_devices *synced);
/* The second half: renames the closed temporary into place; on failure removes it. */
int rli_atomic_publish(rli_atomic_file *file);
/* Removes the temporary file; safe after a failed open or a commit. */
void rli_atomic_abort(rli_atomic_file *file);

/*
 * A group of publishes that a stopping process must not cut in two (an output set's renames):
 * rli_atomic_abandon waits until rli_atomic_group_end.
 */
void rli_atomic_group_begin(void);
void rli_atomic_group_end(void);
/*
 * For a process about to _exit on a signal: waits for a group of publishes under way, removes
 * every temporary the process holds, open or closed, and from then on none is made, renamed or
 * removed (a thread that tries waits for the exit). Returns how many files the process renamed
 * into place, each whole. Not for a signal handler: call it from a thread.
 */
size_t rli_atomic_abandon(void);

/* mkdir -p. RLI_EOUTPUT with a message on failure. */
int rli_mkdir_p(const char *path);

#endif

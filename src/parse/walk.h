/* walk.h: a directory walk in os.walk order, with entries sorted by name so output never depends on the filesystem. */
#ifndef RLI_PARSE_WALK_H
#define RLI_PARSE_WALK_H

#include <stddef.h>

typedef struct {
	const char *dir;  /* the directory holding the entry */
	const char *name; /* the entry's own name */
	const char *path; /* dir + "/" + name */
	int is_dir;       /* a directory, possibly through a symlink */
	int is_file;      /* a regular file, possibly through a symlink */
	int is_link;      /* a symlink: listed, never descended into (no loops) */
	int depth;        /* 1 for the root's own entries */
} rli_walk_entry;

/* Return 0 to go on, 1 to skip descending into this directory, < 0 to stop the walk with that code. */
typedef int (*rli_walk_fn)(void *ctx, const rli_walk_entry *entry);

/*
 * A directory the walk could not search: dir, and why ("Permission denied"). What it holds is
 * not visited. Return 0 to go on, < 0 to stop the walk with that code.
 */
typedef int (*rli_walk_failed_fn)(void *ctx, const char *dir, const char *why);

/*
 * Visits every entry under root: first all entries of a directory (sorted by
 * name), then each sub-directory in turn, like Python's os.walk(topdown=True).
 * A directory that cannot be read (root included), or lies too deep, goes to
 * failed; with failed NULL it is skipped unsaid, as os.walk does, which only a
 * walk that merely looks (format detection) may do. RLI_OK, a callback's
 * negative code, or RLI_ERROR when out of memory.
 */
int rli_walk(const char *root, rli_walk_fn fn, rli_walk_failed_fn failed, void *ctx);

/* The names in dir, sorted, without "." and "..". RLI_EINVALID if dir cannot be read, errno saying why. */
int rli_list_dir(char ***names, size_t *count, const char *dir);
void rli_free_names(char **names, size_t count);

#endif

/* config_file.h: reads the YAML configuration files (config_path=FILE) of the Python tool. */
#ifndef RLI_CLI_CONFIG_FILE_H
#define RLI_CLI_CONFIG_FILE_H

#include <stddef.h>

/*
 * Called once per leaf, with its dotted key ("timeline.visualizer.type"), its value, the line of
 * its key, and list set when the value was a YAML list (its items then joined with commas).
 */
typedef int (*config_visit_fn)(void *ctx, const char *key, const char *value, int line, int list);

/*
 * Reads one YAML document with libyaml: block and flow mappings and lists, every scalar
 * style, comments, anchors and aliases (at most 10,000 values once expanded: an alias bomb
 * is refused). A null value (~, null, nothing) is skipped: the default stands. A key given
 * twice in one mapping, a second document, a top level that is not a mapping, a merge key
 * (<<) and a tag of another type are refused. Returns RLI_OK, the visitor's error, or
 * RLI_EUSAGE with "<path>:<line>:<column>: <what>".
 */
int config_file_read(const char *path, config_visit_fn visit, void *ctx);

/* The same on a file's bytes already in memory; path names it in messages. */
int config_text_read(const char *path, const char *text, size_t length, config_visit_fn visit, void *ctx);

/* The largest configuration file read (a real one is under a kilobyte). */
#define RLI_CONFIG_MAX_BYTES (1024 * 1024)

#endif

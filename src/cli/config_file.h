/* config_file.h: reads the YAML configuration files (config_path=FILE) of the Python tool. */
#ifndef RLI_CLI_CONFIG_FILE_H
#define RLI_CLI_CONFIG_FILE_H

#include <stddef.h>

/* Called once per leaf, with its dotted key ("timeline.visualizer.type") and its value. */
typedef int (*config_visit_fn)(void *ctx, const char *key, const char *value, int line);

/*
 * Reads the block-style YAML subset these files use: nested mappings by
 * indentation, scalar values (plain, 'single' or "double" quoted), # comments.
 * null and ~ values are skipped (the default stands). Returns RLI_OK, the
 * visitor's error, or RLI_EUSAGE with "<path>:<line>: <what>".
 */
int config_file_read(const char *path, config_visit_fn visit, void *ctx);

/* The same on a file's bytes already in memory; path names it in messages. */
int config_text_read(const char *path, const char *text, size_t length, config_visit_fn visit, void *ctx);

/* The largest configuration file read (a real one is under a kilobyte). */
#define RLI_CONFIG_MAX_BYTES (1024 * 1024)

#endif

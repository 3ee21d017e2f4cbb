/* table_origin.h: the profiles that exported tables were parsed from, as the summary.json written beside each names them. */
#ifndef RLI_PARSE_TABLE_ORIGIN_H
#define RLI_PARSE_TABLE_ORIGIN_H

/*
 * A run that wrote tables with --export also wrote summary.json beside them, naming its input
 * ("input": {"path", "profiler"}). When every folder under input_path (or the folder of the
 * table input_path names) that holds a table holds such a summary, and all name the same input
 * and profiler (or "memory": a shard without bars), *path and *profiler receive them (newly
 * allocated): the shards of one run give
 * the whole run's name to the outputs drawn from their merged tables. Otherwise both are NULL.
 * RLI_OK, RLI_EINVALID (message set, naming both folders) when two summaries name different
 * inputs or profilers, or RLI_ERROR when out of memory; a summary that cannot be read is no origin.
 */
int rli_table_origin(char **path, char **profiler, const char *input_path);

#endif

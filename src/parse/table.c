/* table.c: the tables --export writes as input: finding them (a file, or a folder searched recursively) and the formats that read them. */
#include "table_read.h"
#include "format.h"
#include "gmm_internal.h"
#include "memory_internal.h"
#include "walk.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * The merge. Each file is one unit; units are ordered by their paths (byte order; all share the
 * input's prefix, so this is the order of the paths relative to the input), and the driver
 * appends the rows of the units in that order and sorts them once by start, with the tie rule
 * (parse.c, memory_parse.c; events.c). Every table --export writes is already in that order, so
 * this is the k-way merge of the files. The tie rule depends on the rows alone: rows that start
 * together go by role, rank and thread (memory: device), and only the rows of one thread keep
 * the order of the files' paths, then of their rows. One thread's rows come from one input unit,
 * which one shard parses whole, so the tables of any shards merge into the table that one run
 * over the whole input writes. A file out of order is sorted all the same.
 */
enum { TABLE_NONE = 0, TABLE_EVENTS, TABLE_MEMORY, TABLE_GMM };

/* The tables' names without their extension, by kind. */
static const char *const table_names[] = { "", "rl_events", "memory_events", "gmm_events" };

static int table_kind(const char *name)
{
	if (strcmp(name, "rl_events.csv") == 0 || strcmp(name, "rl_events.jsonl") == 0)
		return TABLE_EVENTS;
	if (strcmp(name, "memory_events.csv") == 0 || strcmp(name, "memory_events.jsonl") == 0)
		return TABLE_MEMORY;
	if (strcmp(name, "gmm_events.csv") == 0 || strcmp(name, "gmm_events.jsonl") == 0)
		return TABLE_GMM;
	return TABLE_NONE;
}

int rli_table_file_name(const char *name)
{
	return table_kind(name) != TABLE_NONE;
}

/* The kind of the table at path, a file (not a folder); TABLE_NONE for another file, -1 when out of memory. */
static int file_kind(const char *path)
{
	char *base = rli_path_base(path);
	int kind;
	if (!base)
		return -1;
	kind = table_kind(base);
	free(base);
	return kind;
}

/* Any table shows the format: a folder of memory or GMM tables alone is table input too. */
static rli_shows table_detect(const rli_walk_entry *entry)
{
	return !entry->is_dir && table_kind(entry->name) != TABLE_NONE ? RLI_SHOWS_FORMAT : RLI_SHOWS_NOTHING;
}

static rli_shows memory_table_detect(const rli_walk_entry *entry)
{
	return !entry->is_dir && table_kind(entry->name) == TABLE_MEMORY ? RLI_SHOWS_FORMAT : RLI_SHOWS_NOTHING;
}

static rli_shows gmm_table_detect(const rli_walk_entry *entry)
{
	return !entry->is_dir && table_kind(entry->name) == TABLE_GMM ? RLI_SHOWS_FORMAT : RLI_SHOWS_NOTHING;
}

/*
 * --export csv,jsonl writes each table twice, as rl_events.csv and rl_events.jsonl (memory_events
 * likewise): one table, two spellings. Reading both would count every row twice, so a folder
 * holding both is read from its JSONL, which keeps the types (a role "007" stays a string).
 */
static int has_jsonl_twin(const char *path)
{
	size_t length = strlen(path);
	char *twin;
	struct stat st;
	int found;
	if (length < 4 || strcmp(path + length - 4, ".csv") != 0)
		return 0;
	if (!(twin = rli_strfmt("%.*s.jsonl", (int)(length - 4), path)))
		return -1;
	/* lstat: a FIFO or a dangling symlink so named is a table the walk finds too (find_visit); a folder is not */
	found = lstat(twin, &st) == 0 && !(stat(twin, &st) == 0 && S_ISDIR(st.st_mode));
	free(twin);
	return found;
}

/* ---- discovery ---------------------------------------------------------------- */

typedef struct {
	rli_discovery *discovery;
	const rli_discover_options *options;
	int kind;
} finder;

static int add_unit(finder *f, const char *path)
{
	rli_unit *unit = rli_discovery_add(f->discovery);
	if (!unit || !(unit->path = rli_strdup(path)))
		return rli_error_oom();
	unit->rank = -1;
	/* A memory table holds many ranks and roles: its rows are kept or left out one by one. */
	if (f->kind == TABLE_MEMORY) {
		unit->keep_ranks = f->options->ranks;
		unit->keep_roles = f->options->roles;
	}
	return RLI_OK;
}

static int find_visit(void *ctx, const rli_walk_entry *entry)
{
	finder *f = ctx;
	/* A FIFO or a dangling symlink so named is a unit too: its parse says what it is. */
	if (entry->is_dir || table_kind(entry->name) != f->kind)
		return 0;
	return add_unit(f, entry->path);
}

static int find_unsearched(void *ctx, const char *dir, const char *why)
{
	finder *f = ctx;
	return rli_discovery_unsearched(f->discovery, dir, why);
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(((const rli_unit *)a)->path, ((const rli_unit *)b)->path);
}

/* Drops each CSV table whose folder holds its JSONL too (has_jsonl_twin), said once, naming the first such folder. */
static int drop_csv_twins(rli_discovery *discovery, int kind)
{
	const char *table = table_names[kind];
	size_t kept = 0, dropped = 0;
	char *first = NULL;
	int error = RLI_OK;
	for (size_t i = 0; i < discovery->count; i++) {
		rli_unit *unit = &discovery->units[i];
		/* after a failure every unit left is kept as it is, so the list stays whole for its disposal */
		int twin = error == RLI_OK && !unit->unsearched ? has_jsonl_twin(unit->path) : 0;
		if (twin > 0 && !first) {
			const char *slash = strrchr(unit->path, '/');
			/* the walk names a table under its folder (root/.../rl_events.csv), so there is a slash */
			first = rli_strfmt("%.*s", slash ? (int)(slash - unit->path) : 1, slash ? unit->path : ".");
			twin = first ? 1 : -1;
		}
		if (twin < 0) {
			error = rli_error_oom();
			twin = 0;
		}
		if (twin) {
			dropped++;
			rli_unit_dispose(unit);
		} else {
			discovery->units[kept++] = *unit;
		}
	}
	discovery->count = kept;
	if (error == RLI_OK && dropped == 1)
		rli_notes_add(&discovery->log, RLI_LOG_NOTICE, "%s holds both %s.csv and %s.jsonl, one table: reading the "
			      "JSONL (it keeps the types), not the CSV", first, table, table);
	else if (error == RLI_OK && dropped > 1)
		rli_notes_add(&discovery->log, RLI_LOG_NOTICE, "%s and %zu more folder%s hold both %s.csv and %s.jsonl, "
			      "one table each: reading each JSONL (it keeps the types), not the CSV", first, dropped - 1,
			      dropped == 2 ? "" : "s", table, table);
	free(first);
	return error;
}

static int discover(rli_discovery *discovery, const char *root, const rli_discover_options *options, int kind)
{
	finder f = { discovery, options, kind };
	struct stat st;
	int error, found;

	if (stat(root, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if ((found = file_kind(root)) < 0)
			return rli_error_oom();
		if (found == kind)
			return add_unit(&f, root);
		if (found == TABLE_NONE)
			rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
				      "%s is no table written by --export: expected a file named rl_events.csv, "
				      "rl_events.jsonl, memory_events.csv, memory_events.jsonl, gmm_events.csv or "
				      "gmm_events.jsonl, or a folder of them",
				      root);
		return RLI_OK;
	}
	if ((error = rli_walk(root, find_visit, find_unsearched, &f)) < 0 || (error = drop_csv_twins(discovery, kind)) < 0)
		return error;
	if (discovery->count > 1)
		qsort(discovery->units, discovery->count, sizeof(*discovery->units), compare_paths);
	return RLI_OK;
}

static int events_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	return discover(discovery, root, options, TABLE_EVENTS);
}

static int memory_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	return discover(discovery, root, options, TABLE_MEMORY);
}

static int gmm_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	return discover(discovery, root, options, TABLE_GMM);
}

/* ---- parsing a unit ----------------------------------------------------------- */

static void events_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_unit_parse_file(unit, rows, rli_table_parse_events);
}

/* A memory table's rows go into unit->memory, not into the timeline's rows. */
static void memory_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	(void)rows;
	rli_table_parse_memory(unit, source);
}

static void memory_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_unit_parse_file(unit, rows, memory_parse_bytes);
}

/* A GMM table's rows go into unit->gmm. */
static void gmm_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	(void)rows;
	rli_table_parse_gmm(unit, source);
}

static void gmm_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_unit_parse_file(unit, rows, gmm_parse_bytes);
}

const rli_format rli_format_table = {
	RLI_PROFILER_TABLE, "table", "exported_table", "rl_events, memory_events or gmm_events table",
	"rl_events, memory_events or gmm_events tables", 1,
	table_detect, events_discover, events_parse_unit, rli_table_parse_events, NULL, 1,
};

const rli_format rli_format_table_memory = {
	RLI_PROFILER_AUTO, "memory_table", "exported_memory_table", "memory_events table", "memory_events tables", 0,
	memory_table_detect, memory_discover, memory_parse_unit, NULL, NULL, 1,
};

const rli_format rli_format_table_gmm = {
	RLI_PROFILER_AUTO, "gmm_table", "exported_gmm_table", "gmm_events table", "gmm_events tables", 0,
	gmm_table_detect, gmm_discover, gmm_parse_unit, gmm_parse_bytes, NULL, 1,
};

/* ---- what auto detection asks ------------------------------------------------- */

typedef struct {
	int kind;      /* the tables counted: TABLE_MEMORY or TABLE_GMM */
	size_t tables; /* of that kind */
	size_t others; /* entries that show another format */
} table_count;

static int count_visit(void *ctx, const rli_walk_entry *entry)
{
	table_count *count = ctx;
	for (size_t i = 0; rli_formats[i]; i++) {
		const rli_format *format = rli_formats[i];
		rli_shows shows;
		if (!format->timeline || (shows = format->detect(entry)) == RLI_SHOWS_NOTHING)
			continue;
		if (format == &rli_format_table) {
			/* a CSV beside its JSONL is one table with it, read from the JSONL (drop_csv_twins) */
			int twin = table_kind(entry->name) == count->kind ? has_jsonl_twin(entry->path) : 0;
			if (twin < 0)
				return rli_error_oom();
			count->tables += table_kind(entry->name) == count->kind && !twin;
		}
		else
			count->others++;
		return shows == RLI_SHOWS_FORMAT_ONLY;
	}
	return 0;
}

/* How many tables of kind input_path is or holds, when it is read as tables (see rl_insight.h). */
static int count_tables(const char *input_path, rli_profiler profiler, int kind)
{
	table_count count = { kind, 0, 0 };
	struct stat st;
	int found;

	if (!input_path || (profiler != RLI_PROFILER_AUTO && profiler != RLI_PROFILER_TABLE))
		return 0;
	if (stat(input_path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if ((found = file_kind(input_path)) < 0)
			return rli_error_oom();
		return found == kind;
	}
	if (rli_walk(input_path, count_visit, NULL, &count) < 0)
		return RLI_ERROR;
	if (profiler == RLI_PROFILER_AUTO && count.others)
		return 0;
	return count.tables > INT_MAX ? INT_MAX : (int)count.tables;
}

int rli_memory_table_count(const char *input_path, rli_profiler profiler)
{
	return count_tables(input_path, profiler, TABLE_MEMORY);
}

int rli_gmm_table_count(const char *input_path, rli_profiler profiler)
{
	return count_tables(input_path, profiler, TABLE_GMM);
}

/* parse.c: rli_parse: detect the profiler, discover units, validate, parse on threads, merge deterministically. */
#include "parse_internal.h"
#include "format.h"
#include "memory_internal.h"
#include "shard.h"
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- the profiler names: the registry's timeline formats, and auto ---------------- */

const char *rli_profiler_name(rli_profiler profiler)
{
	const rli_format *format = rli_format_of(profiler);
	return format ? format->name : profiler == RLI_PROFILER_AUTO ? "auto" : "unknown";
}

int rli_profiler_from_name(rli_profiler *out, const char *name)
{
	if (name && strcasecmp(name, "auto") == 0) {
		*out = RLI_PROFILER_AUTO;
		return RLI_OK;
	}
	for (size_t i = 0; name && rli_formats[i]; i++) {
		if (rli_formats[i]->timeline && strcasecmp(name, rli_formats[i]->name) == 0) {
			*out = rli_formats[i]->profiler;
			return RLI_OK;
		}
	}
	return rli_error_set(RLI_EUSAGE, "unknown profiler type '%s': expected mstx, torch, nvtx, table or auto",
			     name ? name : "(null)");
}

/* ---- detection ------------------------------------------------------------ */

/* How many timeline formats the registry lists at most. */
#define MAX_FORMATS 8

/* Per timeline format, in registry order: how many walk entries showed it, and the first. */
typedef struct {
	const rli_format *formats[MAX_FORMATS];
	size_t count;
	size_t seen[MAX_FORMATS];
	char *first[MAX_FORMATS];
	size_t unsearched;      /* folders the walk could not read */
	char *first_unsearched; /* the first, "<dir>: <why>" */
	int oom;
} detect_counts;

static void detect_dispose(detect_counts *counts)
{
	for (size_t i = 0; i < counts->count; i++)
		free(counts->first[i]);
	free(counts->first_unsearched);
}

static int detect_visit(void *ctx, const rli_walk_entry *entry)
{
	detect_counts *counts = ctx;
	for (size_t i = 0; i < counts->count; i++) {
		rli_shows shows = counts->formats[i]->detect(entry);
		if (shows == RLI_SHOWS_NOTHING)
			continue;
		counts->seen[i]++;
		if (!counts->first[i] && !(counts->first[i] = rli_strdup(entry->path)))
			counts->oom = 1;
		/* An Ascend folder's own files say nothing about other formats. */
		return shows == RLI_SHOWS_FORMAT_ONLY;
	}
	return 0;
}

/* Only counted: when nothing is recognised, what could not be searched may be why. */
static int detect_unsearched(void *ctx, const char *dir, const char *why)
{
	detect_counts *counts = ctx;
	if (counts->unsearched++ == 0 && !(counts->first_unsearched = rli_strfmt("%s: %s", dir, why)))
		counts->oom = 1;
	return 0;
}

static int detect_walk(detect_counts *counts, const char *root)
{
	int error;
	memset(counts, 0, sizeof(*counts));
	for (size_t i = 0; rli_formats[i] && counts->count < MAX_FORMATS; i++)
		if (rli_formats[i]->timeline)
			counts->formats[counts->count++] = rli_formats[i];
	error = rli_walk(root, detect_visit, detect_unsearched, counts);
	if (error == RLI_OK && counts->oom)
		error = rli_error_oom();
	if (error < 0)
		detect_dispose(counts);
	return error;
}

/* How many formats the walk showed; *only: the first of them. A format that yields counts when alone. */
static size_t detect_kinds(const detect_counts *counts, size_t *only)
{
	size_t kinds = 0, yielding = 0;
	for (size_t i = counts->count; i-- > 0;) {
		if (counts->seen[i] && counts->formats[i]->yields) {
			yielding++;
		} else if (counts->seen[i]) {
			kinds++;
			*only = i;
		}
	}
	for (size_t i = counts->count; kinds == 0 && yielding && i-- > 0;) {
		if (counts->seen[i]) {
			kinds++;
			*only = i;
		}
	}
	return kinds;
}

/*
 * After a named format failed: when the tree holds one other format only, a
 * last line of the report says so, with the path that shows it.
 */
static int hint_other_format(const char *root, rli_profiler asked)
{
	detect_counts counts;
	size_t only = 0;
	int error = detect_walk(&counts, root);
	if (error < 0)
		return error;
	if (detect_kinds(&counts, &only) == 1 && counts.formats[only]->profiler != asked)
		rli_error_append("\n  - this looks like %s data (found %s): try --profiler-type %s or auto",
				 counts.formats[only]->name, counts.first[only], counts.formats[only]->name);
	detect_dispose(&counts);
	return RLI_OK;
}

static int detect(const rli_format **out, const char *root)
{
	detect_counts counts;
	size_t only = 0, kinds;
	int error = detect_walk(&counts, root);
	if (error < 0)
		return error;
	kinds = detect_kinds(&counts, &only);
	if (kinds == 0) {
		rli_error_set(RLI_EINVALID, "nothing recognisable in %s: ", root);
		for (size_t i = 0; i < counts.count; i++)
			rli_error_append("%sno %s (%s)", i ? ", " : "", counts.formats[i]->shows_one, counts.formats[i]->name);
		if (counts.unsearched == 1)
			rli_error_append("; a folder could not be read: %s", counts.first_unsearched);
		else if (counts.unsearched > 1)
			rli_error_append("; %zu folders could not be read, the first %s", counts.unsearched,
					 counts.first_unsearched);
		detect_dispose(&counts);
		return RLI_EINVALID;
	}
	detect_dispose(&counts);
	if (kinds > 1) {
		rli_error_set(RLI_EUSAGE, "%s holds several kinds of profile (", root);
		/* A format that yields is none of the kinds: an exported table beside profiles. */
		for (size_t i = 0, listed = 0; i < counts.count; i++)
			if (!counts.formats[i]->yields)
				rli_error_append("%s%zu %s: %s", listed++ ? ", " : "", counts.seen[i],
						 counts.formats[i]->shows_many, counts.formats[i]->name);
		rli_error_append("); choose one with --profiler-type");
		return RLI_EUSAGE;
	}
	*out = counts.formats[only];
	return RLI_OK;
}

/* ---- the parallel part -------------------------------------------------- */

/*
 * A worker appends the rows of the units it takes to one table of its own, so that a single
 * worker's table is the merged table as it stands (no copy of a million rows), and rows never
 * wait in a table per unit.
 */
typedef struct {
	const rli_format *format;
	rli_events **tables;     /* one per worker */
	unsigned memory_devices; /* torch: the [memory] events of these devices are read too */
} parse_work;

static void parse_unit(void *ctx, unsigned worker, rli_unit *unit)
{
	const parse_work *work = ctx;
	rli_events *rows = work->tables[worker];
	size_t begin = rows->count;
	if (unit->failures.count)
		return; /* failed at discovery already (an unreadable profiler_metadata.json or folder) */
	unit->memory_devices = work->memory_devices;
	work->format->parse_unit(unit, rows);
	/* A failed unit contributes nothing, not even the rows before its failure. */
	if (unit->failures.count || unit->status != RLI_OK)
		rli_events_truncate(rows, begin);
	unit->rows = rows;
	unit->row_begin = begin;
	unit->row_end = rows->count;
}

/* Parses every unit; tables[0..*table_count) receive the rows (the caller frees them). */
static int run_units(rli_discovery *discovery, const rli_format *format, const rli_parse_options *options,
		     unsigned memory_devices, rli_events **tables, unsigned *table_count)
{
	parse_work work = { format, tables, format == &rli_format_torch ? memory_devices : 0 };
	unsigned count = rli_units_workers(options->jobs, discovery->count);

	*table_count = 0;
	for (unsigned i = 0; i < count; i++) {
		if (rli_events_new(&tables[i]) < 0)
			return RLI_ERROR;
		*table_count = i + 1;
	}
	/*
	 * NVTX gives a row per range, millions of them: room reserved ahead for the most the files
	 * could hold puts the columns in 2 MiB pages from the first row (common/bigmem.c) instead of
	 * growing through malloc's 4 KiB pages, a page fault each, and being copied into a mapping
	 * when they pass 2 MiB. Address space costs nothing until rows are written. A hint: when it
	 * cannot be had, rows grow as they come.
	 */
	if (format->rows_hint) {
		size_t rows = format->rows_hint(discovery) / count;
		for (unsigned i = 0; i < count; i++)
			if (rli_events_reserve(tables[i], rows) < 0)
				rli_error_clear();
	}
	return rli_units_run(discovery, parse_unit, &work, options->jobs, options->log, options->log_ctx);
}

/*
 * The rows of every unit that did not fail, in unit order (the order the final stable sort keeps
 * for ties). One worker's table already is that: it is taken as it is.
 */
static int merge_units(rli_events **out, rli_discovery *discovery, rli_events **tables, unsigned table_count)
{
	rli_events *merged = NULL;
	size_t rows = 0;
	int error;

	*out = NULL;
	if (table_count == 1) {
		*out = tables[0];
		tables[0] = NULL;
		return RLI_OK;
	}
	if ((error = rli_events_new(&merged)) < 0)
		return error;
	for (size_t u = 0; u < discovery->count; u++)
		if (discovery->units[u].rows)
			rows += discovery->units[u].row_end - discovery->units[u].row_begin;
	/* One allocation for every row: growing by doubling would copy the columns each time. */
	if ((error = rli_events_reserve(merged, rows)) < 0)
		goto failed;
	for (size_t u = 0; u < discovery->count; u++) {
		rli_unit *unit = &discovery->units[u];
		if (unit->rows && (error = rli_events_append_range(merged, unit->rows, unit->row_begin,
								   unit->row_end)) < 0)
			goto failed;
	}
	*out = merged;
	return RLI_OK;
failed:
	rli_events_free(merged);
	return error;
}

/* ---- the whole parse ------------------------------------------------------ */

/* Drops the rows of ranks the filter leaves out; when none is left, discovery learns what ranks there were. */
static int keep_ranks(rli_events *events, const rli_rank_filter *ranks, rli_discovery *discovery)
{
	uint8_t *keep;
	size_t kept = 0;
	int error = RLI_OK;

	if (ranks->all || events->count == 0)
		return RLI_OK;
	keep = malloc(events->count);
	if (!keep)
		return rli_error_oom();
	for (size_t i = 0; i < events->count; i++)
		kept += keep[i] = (uint8_t)rli_rank_filter_keeps(ranks, events->rank_id[i]);
	for (size_t i = 0; !kept && i < events->count && error == RLI_OK; i++)
		if (i == 0 || events->rank_id[i] != events->rank_id[i - 1])
			error = rli_discovery_saw_rank(discovery, events->rank_id[i]);
	rli_events_filter(events, keep);
	free(keep);
	return error;
}

static int compare_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Ranks as a person writes them: "0-3,8". */
static void append_ranks(int64_t *ranks, size_t count)
{
	qsort(ranks, count, sizeof(*ranks), compare_int64);
	for (size_t i = 0; i < count;) {
		size_t j = i;
		while (j + 1 < count && ranks[j + 1] <= ranks[j] + 1)
			j++;
		if (ranks[j] == ranks[i])
			rli_error_append("%s%lld", i ? "," : "", (long long)ranks[i]);
		else
			rli_error_append("%s%lld-%lld", i ? "," : "", (long long)ranks[i], (long long)ranks[j]);
		i = j + 1;
	}
}

/*
 * "Data validation failed" and one "\n  - <message>" per failure, in rule
 * then unit order. With no failure and no row, what was wrong is said: the
 * rank list matched nothing, or no unit gave a row.
 */
static void report_failures(rli_discovery *discovery, int no_rows, const char *rank_list)
{
	if (rli_discovery_report(discovery) > 0 || !no_rows)
		return;
	if (discovery->ranks_seen_count) {
		rli_error_append("\n  - no input unit matched the rank list %s; the input has ranks ", rank_list);
		append_ranks(discovery->ranks_seen, discovery->ranks_seen_count);
	} else if (discovery->count == 1) {
		/* one file (a table with its header alone, say): named, so the user knows which to look at */
		rli_error_append("\n  - nothing to draw: %s, the one input unit, gave no row", discovery->units[0].path);
	} else if (discovery->count) {
		rli_error_append("\n  - nothing to draw: none of the %zu input units gave a row (the first: %s)",
				 discovery->count, discovery->units[0].path);
	} else {
		rli_error_append("\n  - nothing to draw: no input unit to read was found");
	}
}

/*
 * Detected, not named: a capture that holds memory records and no timeline trace (its trace
 * has no Overlap Analysis process) is the memory analysis's unit, not a failed timeline unit.
 * Said at -v, and the unit counts as neither. When no unit is left, the tree holds no timeline
 * at all, and the failures stay to say so.
 */
static void leave_memory_captures(rli_discovery *discovery)
{
	size_t memory_only = 0;
	for (size_t u = 0; u < discovery->count; u++)
		memory_only += discovery->units[u].holds_memory && discovery->units[u].no_timeline &&
			       discovery->units[u].failures.count == 1;
	if (memory_only == 0 || memory_only == discovery->count)
		return;
	for (size_t u = 0; u < discovery->count; u++) {
		rli_unit *unit = &discovery->units[u];
		if (!unit->holds_memory || !unit->no_timeline || unit->failures.count != 1)
			continue;
		rli_notes_add(&unit->log, RLI_LOG_INFO,
			      "%s: no timeline trace (no Overlap Analysis process); its capture's memory records are "
			      "for the memory analysis", unit->path);
		rli_notes_dispose(&unit->failures);
		rli_notes_init(&unit->failures);
	}
}

/*
 * The memory tables the torch units read besides their bars, kept as the timeline keeps its rows
 * (the rank list, the units that did not fail) and by the memory options' roles.
 */
static int gather_memory(rli_memory **out, rli_discovery *discovery, const rli_rank_filter *ranks,
			 const rli_torch_memory_options *memory_options, unsigned jobs)
{
	rli_role_filter roles;
	int error;
	*out = NULL;
	if ((error = rli_role_filter_parse(&roles, memory_options->common.role_list)) < 0)
		return error;
	error = rli_memory_gather_units(out, discovery, ranks, &roles, jobs);
	rli_role_filter_dispose(&roles);
	if (error == RLI_OK && (*out)->count == 0) {
		rli_memory_free(*out);
		*out = NULL;
	}
	return error;
}

static int parse_tree(rli_events **out, rli_memory **memory, rli_profiler *detected, const char *input_path,
		      const rli_parse_options *options_in, const rli_torch_memory_options *memory_options)
{
	static const rli_parse_options defaults = {RLI_PROFILER_AUTO, NULL, 0, NULL, NULL, 0, 0, NULL};
	const rli_parse_options *options = options_in ? options_in : &defaults;
	const rli_format *format = rli_format_of(options->profiler);
	rli_discovery discovery;
	rli_rank_filter ranks;
	rli_events *merged = NULL;
	char *root = NULL;
	struct stat st;
	int exists, is_dir, error;
	size_t failed_units = 0;
	rli_events *tables[256];
	unsigned table_count = 0;
	rli_log_fn log = options->log;
	void *log_ctx = options->log_ctx;

	*out = NULL;
	if (memory)
		*memory = NULL;
	rli_discovery_init(&discovery);
	if ((error = rli_shard_check(options->shard_index, options->shard_count)) < 0)
		return error;
	error = rli_rank_filter_parse(&ranks, options->rank_list);
	if (error < 0)
		return error;
	if (!input_path || !*input_path) {
		error = rli_error_set(RLI_EUSAGE, "no input path given");
		goto done;
	}
	if (options->profiler != RLI_PROFILER_AUTO && !format) {
		error = rli_error_set(RLI_EUSAGE, "unknown profiler type %d", (int)options->profiler);
		goto done;
	}
	root = rli_path_trimmed(input_path);
	if (!root) {
		error = rli_error_oom();
		goto done;
	}
	exists = stat(root, &st) == 0;
	is_dir = exists && S_ISDIR(st.st_mode);
	/* An exported table is the one input that is a file: named, or found by its name. */
	if (!format && exists && !is_dir && rli_table_file_name(strrchr(root, '/') ? strrchr(root, '/') + 1 : root))
		format = &rli_format_table;
	if (!is_dir && !(exists && format == &rli_format_table))
		rli_notes_add(&discovery.structural, RLI_LOG_ERROR,
			      "Source path is not a directory or does not exist: %s", input_path);
	if (!exists)
		rli_notes_add(&discovery.structural, RLI_LOG_ERROR, "Source path does not exist: %s", input_path);

	if (!format) {
		if (!is_dir) {
			report_failures(&discovery, 0, options->rank_list);
			error = RLI_EINVALID;
			goto done;
		}
		error = detect(&format, root);
		if (error < 0)
			goto done;
	}
	if (detected)
		*detected = format->profiler;

	if (exists) {
		rli_discover_options discover = {&ranks, NULL, options->profiler == RLI_PROFILER_AUTO, NULL};
		if ((error = format->discover(&discovery, root, &discover)) < 0)
			goto done;
	}
	if (options->profiler == RLI_PROFILER_AUTO)
		rli_log_line(log, log_ctx, RLI_LOG_NOTICE, "detected %s profiles in %s (%zu input units)",
			     format->name, input_path, discovery.count);
	if (options->shard_count > 1) {
		size_t all = discovery.count;
		rli_discovery_keep_shard(&discovery, root, options->shard_index, options->shard_count);
		rli_log_line(log, log_ctx, RLI_LOG_NOTICE, "shard %u/%u: %zu of the %zu input units",
			     options->shard_index, options->shard_count, discovery.count, all);
	}
	rli_log_notes(log, log_ctx, &discovery.log);
	if (discovery.count == 0)
		rli_log_line(log, log_ctx, RLI_LOG_INFO, "No data maps to process");

	/* A capture the memory analysis reads next keeps its call stacks from this reading of its trace. */
	for (size_t u = 0; options->share && format == &rli_format_mstx && u < discovery.count; u++)
		if (discovery.units[u].holds_memory > 0)
			discovery.units[u].share = options->share;
	error = run_units(&discovery, format, options, memory ? memory_options->devices : 0, tables, &table_count);
	if (error < 0)
		goto done;
	if (options->profiler == RLI_PROFILER_AUTO)
		leave_memory_captures(&discovery);

	for (size_t u = 0; u < discovery.count; u++) {
		rli_unit *unit = &discovery.units[u];
		if (unit->status < 0 || unit->log.oom || unit->failures.oom) {
			error = rli_error_oom();
			goto done;
		}
		rli_log_notes(log, log_ctx, &unit->log);
		if (unit->failures.count)
			failed_units++; /* its messages go into the report or the error log below */
	}
	if (format == &rli_format_torch)
		rli_torch_run_notes(&discovery, memory ? memory_options->devices : 0, log, log_ctx);
	if ((error = merge_units(&merged, &discovery, tables, table_count)) < 0)
		goto done;
	/* merged: no need to hold every row twice */
	for (unsigned i = 0; i < table_count; i++) {
		rli_events_free(tables[i]);
		tables[i] = NULL;
	}
	for (size_t u = 0; u < discovery.count; u++)
		discovery.units[u].rows = NULL;
	if (discovery.structural.oom || discovery.log.oom) {
		error = rli_error_oom();
		goto done;
	}
	rli_log_line(log, log_ctx, RLI_LOG_INFO, "Parallel processing completed: %zu/%zu ranks processed",
		 discovery.count - failed_units, discovery.count);
	if (format != &rli_format_mstx && (error = keep_ranks(merged, &ranks, &discovery)) < 0)
		goto done;
	if ((error = rli_events_sort_by_start(merged)) < 0)
		goto done;

	if (merged->count == 0 && options->shard_count > 1 && !discovery.structural.count && !failed_units) {
		/* One shard of many may hold nothing (or nothing of the rank list): the merge judges the whole. */
		rli_log_line(log, log_ctx, RLI_LOG_INFO, "shard %u/%u holds no rows", options->shard_index,
			     options->shard_count);
		error = RLI_OK;
	} else if (discovery.structural.count || merged->count == 0) {
		/* The reference says this after parsing; a tree that failed its rules was not parsed. */
		if (merged->count == 0 && discovery.structural.count == 0 && !discovery.ranks_seen_count)
			rli_log_line(log, log_ctx, RLI_LOG_WARN, "No valid data collected from any rank");
		report_failures(&discovery, merged->count == 0, options->rank_list);
		error = RLI_EINVALID;
		if (options->profiler != RLI_PROFILER_AUTO && !discovery.ranks_seen_count &&
		    hint_other_format(root, format->profiler) < 0)
			error = RLI_ERROR;
		goto done;
	}
	if (failed_units) {
		report_failures(&discovery, 0, options->rank_list);
		for (size_t u = 0; u < discovery.count; u++)
			for (size_t i = 0; i < discovery.units[u].failures.count; i++)
				rli_log_line(log, log_ctx, RLI_LOG_ERROR, "%s", discovery.units[u].failures.items[i].text);
		error = RLI_EPARTIAL;
	} else {
		rli_log_line(log, log_ctx, RLI_LOG_INFO, "Data validation passed for %s", format->input_type);
		rli_error_clear();
		error = RLI_OK;
	}
	/* error holds RLI_OK or RLI_EPARTIAL here, which the gathering must not overwrite. */
	if (memory && format == &rli_format_torch) {
		int gathered = gather_memory(memory, &discovery, &ranks, memory_options, options->jobs);
		if (gathered < 0) {
			error = gathered;
			goto done;
		}
	}
	*out = merged;
	merged = NULL;
done:
	rli_events_free(merged);
	for (unsigned i = 0; i < table_count; i++)
		rli_events_free(tables[i]);
	rli_discovery_dispose(&discovery);
	rli_rank_filter_dispose(&ranks);
	free(root);
	return error;
}

void rli_parse_options_init(rli_parse_options *options)
{
	memset(options, 0, sizeof(*options));
	options->profiler = RLI_PROFILER_AUTO;
}

int rli_parse(rli_events **out, rli_profiler *detected, const char *input_path, const rli_parse_options *options)
{
	return parse_tree(out, NULL, detected, input_path, options, NULL);
}

int rli_parse_with_memory(rli_events **events, rli_memory **memory, rli_profiler *detected,
			  const char *input_path, const rli_parse_options *options,
			  const rli_torch_memory_options *memory_options)
{
	rli_torch_memory_options defaults;
	if (!memory_options) {
		rli_torch_memory_options_init(&defaults);
		memory_options = &defaults;
	}
	return parse_tree(events, memory, detected, input_path, options, memory_options);
}

/* parse.c: rli_parse: detect the profiler, discover units, validate, parse on threads, merge deterministically. */
#include "parse_internal.h"
#include "walk.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const struct {
	rli_profiler profiler;
	const char *name;
	const char *input_type; /* the reference's DataChecker type */
} profilers[] = {
	{RLI_PROFILER_AUTO, "auto", "auto"},
	{RLI_PROFILER_MSTX, "mstx", "multi_json_mstx"},
	{RLI_PROFILER_TORCH, "torch", "multi_json_torch"},
	{RLI_PROFILER_NVTX, "nvtx", "multi_json_nvtx"},
};

#define PROFILER_COUNT (sizeof(profilers) / sizeof(profilers[0]))

const char *rli_profiler_name(rli_profiler profiler)
{
	for (size_t i = 0; i < PROFILER_COUNT; i++)
		if (profilers[i].profiler == profiler)
			return profilers[i].name;
	return "unknown";
}

static const char *input_type(rli_profiler profiler)
{
	for (size_t i = 0; i < PROFILER_COUNT; i++)
		if (profilers[i].profiler == profiler)
			return profilers[i].input_type;
	return "unknown";
}

int rli_profiler_from_name(rli_profiler *out, const char *name)
{
	for (size_t i = 0; name && i < PROFILER_COUNT; i++) {
		if (strcasecmp(name, profilers[i].name) == 0) {
			*out = profilers[i].profiler;
			return RLI_OK;
		}
	}
	return rli_error_set(RLI_EUSAGE, "unknown profiler type '%s': expected mstx, torch, nvtx or auto",
			     name ? name : "(null)");
}

/* ---- logging ---------------------------------------------------------- */

static void log_line(const rli_parse_options *options, rli_log_level level, const char *fmt, ...)
	RLI_PRINTF(3, 4);

static void log_line(const rli_parse_options *options, rli_log_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rli_log_vline(options->log, options->log_ctx, level, fmt, ap);
	va_end(ap);
}

static void log_notes(const rli_parse_options *options, const rli_notes *notes)
{
	rli_log_notes(options->log, options->log_ctx, notes);
}

/* ---- detection ------------------------------------------------------------ */

typedef struct {
	size_t ascend_dirs, torch_files, nvtx_files;
	char *first[RLI_PROFILER_NVTX + 1]; /* per format, the first path that showed it */
	int oom;
} detect_counts;

static void detect_seen(detect_counts *counts, rli_profiler profiler, const char *path)
{
	if (!counts->first[profiler] && !(counts->first[profiler] = rli_strdup(path)))
		counts->oom = 1;
}

static void detect_dispose(detect_counts *counts)
{
	for (size_t i = 0; i < sizeof(counts->first) / sizeof(counts->first[0]); i++)
		free(counts->first[i]);
}

static int ends_with(const char *text, const char *suffix)
{
	size_t a = strlen(text), b = strlen(suffix);
	return a >= b && memcmp(text + a - b, suffix, b) == 0;
}

static int detect_visit(void *ctx, const rli_walk_entry *entry)
{
	detect_counts *counts = ctx;
	if (entry->is_dir && ends_with(entry->name, "ascend_pt")) {
		counts->ascend_dirs++;
		detect_seen(counts, RLI_PROFILER_MSTX, entry->path);
		return 1; /* an Ascend folder's own files say nothing about other formats */
	}
	if (!entry->is_file)
		return 0;
	if (ends_with(entry->name, ".json.gz")) {
		counts->torch_files++;
		detect_seen(counts, RLI_PROFILER_TORCH, entry->path);
	} else if (fnmatch("worker_process_*.*.jsonl", entry->name, 0) == 0) {
		counts->nvtx_files++;
		detect_seen(counts, RLI_PROFILER_NVTX, entry->path);
	}
	return 0;
}

static int detect_walk(detect_counts *counts, const char *root)
{
	int error;
	memset(counts, 0, sizeof(*counts));
	error = rli_walk(root, detect_visit, counts);
	if (error == RLI_OK && counts->oom)
		error = rli_error_oom();
	if (error < 0)
		detect_dispose(counts);
	return error;
}

/*
 * After a named format failed: when the tree holds one other format only, a
 * last line of the report says so, with the path that shows it.
 */
static int hint_other_format(const char *root, rli_profiler asked)
{
	detect_counts counts;
	rli_profiler other = RLI_PROFILER_AUTO;
	int error = detect_walk(&counts, root), kinds;
	if (error < 0)
		return error;
	kinds = (counts.ascend_dirs > 0) + (counts.torch_files > 0) + (counts.nvtx_files > 0);
	if (kinds == 1)
		other = counts.ascend_dirs ? RLI_PROFILER_MSTX : counts.torch_files ? RLI_PROFILER_TORCH
										 : RLI_PROFILER_NVTX;
	if (other != RLI_PROFILER_AUTO && other != asked)
		rli_error_append("\n  - this looks like %s data (found %s): try --profiler-type %s or auto",
				 rli_profiler_name(other), counts.first[other], rli_profiler_name(other));
	detect_dispose(&counts);
	return RLI_OK;
}

static int detect(rli_profiler *out, const char *root)
{
	detect_counts counts;
	int kinds, error = detect_walk(&counts, root);
	if (error < 0)
		return error;
	detect_dispose(&counts);
	kinds = (counts.ascend_dirs > 0) + (counts.torch_files > 0) + (counts.nvtx_files > 0);
	if (kinds > 1)
		return rli_error_set(RLI_EUSAGE,
				     "%s holds several kinds of profile (%zu *ascend_pt folders: mstx, "
				     "%zu *.json.gz files: torch, %zu worker_process_*.*.jsonl files: nvtx); "
				     "choose one with --profiler-type",
				     root, counts.ascend_dirs, counts.torch_files, counts.nvtx_files);
	if (kinds == 0)
		return rli_error_set(RLI_EINVALID,
				     "nothing recognisable in %s: no *ascend_pt folder (mstx), no *.json.gz "
				     "file (torch), no worker_process_*.*.jsonl file (nvtx)",
				     root);
	*out = counts.ascend_dirs ? RLI_PROFILER_MSTX
	       : counts.torch_files ? RLI_PROFILER_TORCH
				    : RLI_PROFILER_NVTX;
	return RLI_OK;
}

/* ---- the parallel part -------------------------------------------------- */

/*
 * A worker appends the rows of the units it takes to one table of its own, so that a single
 * worker's table is the merged table as it stands (no copy of a million rows), and rows never
 * wait in a table per unit.
 */
typedef struct {
	rli_profiler profiler;
	rli_events **tables; /* one per worker */
} parse_work;

static void parse_unit(void *ctx, unsigned worker, rli_unit *unit)
{
	const parse_work *work = ctx;
	rli_profiler profiler = work->profiler;
	rli_events *rows = work->tables[worker];
	size_t begin = rows->count;
	if (unit->failures.count)
		return; /* failed at discovery already (e.g. an unreadable profiler_metadata.json) */
	switch (profiler) {
	case RLI_PROFILER_MSTX:
		rli_mstx_parse_unit(unit, rows);
		break;
	case RLI_PROFILER_TORCH:
		rli_torch_parse_unit(unit, rows);
		break;
	default:
		rli_nvtx_parse_unit(unit, rows);
		break;
	}
	/* A failed unit contributes nothing, not even the rows before its failure. */
	if (unit->failures.count || unit->status != RLI_OK)
		rli_events_truncate(rows, begin);
	unit->rows = rows;
	unit->row_begin = begin;
	unit->row_end = rows->count;
}

/* Parses every unit; tables[0..*table_count) receive the rows (the caller frees them). */
static int run_units(rli_discovery *discovery, rli_profiler profiler, const rli_parse_options *options,
		     rli_events **tables, unsigned *table_count)
{
	parse_work work = { profiler, tables };
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
	if (profiler == RLI_PROFILER_NVTX) {
		size_t rows = rli_nvtx_rows_hint(discovery) / count;
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
	} else if (discovery->count) {
		rli_error_append("\n  - nothing to draw: none of the %zu input units gave a row", discovery->count);
	} else {
		rli_error_append("\n  - nothing to draw: no input unit to read was found");
	}
}

int rli_parse(rli_events **out, rli_profiler *detected, const char *input_path,
	      const rli_parse_options *options_in)
{
	static const rli_parse_options defaults = {RLI_PROFILER_AUTO, NULL, 0, NULL, NULL};
	const rli_parse_options *options = options_in ? options_in : &defaults;
	rli_profiler profiler = options->profiler;
	rli_discovery discovery;
	rli_rank_filter ranks;
	rli_events *merged = NULL;
	char *root = NULL;
	struct stat st;
	int exists, is_dir, error;
	size_t failed_units = 0;
	rli_events *tables[256];
	unsigned table_count = 0;

	*out = NULL;
	rli_discovery_init(&discovery);
	error = rli_rank_filter_parse(&ranks, options->rank_list);
	if (error < 0)
		return error;
	if (!input_path || !*input_path) {
		error = rli_error_set(RLI_EUSAGE, "no input path given");
		goto done;
	}
	if (profiler != RLI_PROFILER_AUTO && profiler != RLI_PROFILER_MSTX &&
	    profiler != RLI_PROFILER_TORCH && profiler != RLI_PROFILER_NVTX) {
		error = rli_error_set(RLI_EUSAGE, "unknown profiler type %d", (int)profiler);
		goto done;
	}
	root = rli_path_trimmed(input_path);
	if (!root) {
		error = rli_error_oom();
		goto done;
	}
	exists = stat(root, &st) == 0;
	is_dir = exists && S_ISDIR(st.st_mode);
	if (!is_dir)
		rli_notes_add(&discovery.structural, RLI_LOG_ERROR,
			      "Source path is not a directory or does not exist: %s", input_path);
	if (!exists)
		rli_notes_add(&discovery.structural, RLI_LOG_ERROR, "Source path does not exist: %s", input_path);

	if (profiler == RLI_PROFILER_AUTO) {
		if (!is_dir) {
			report_failures(&discovery, 0, options->rank_list);
			error = RLI_EINVALID;
			goto done;
		}
		error = detect(&profiler, root);
		if (error < 0)
			goto done;
	}
	if (detected)
		*detected = profiler;

	if (exists) {
		if (profiler == RLI_PROFILER_MSTX)
			error = rli_mstx_discover(&discovery, root, &ranks);
		else if (profiler == RLI_PROFILER_TORCH)
			error = rli_torch_discover(&discovery, root);
		else
			error = rli_nvtx_discover(&discovery, root);
		if (error < 0)
			goto done;
	}
	if (options->profiler == RLI_PROFILER_AUTO)
		log_line(options, RLI_LOG_NOTICE, "detected %s profiles in %s (%zu input units)",
			 rli_profiler_name(profiler), input_path, discovery.count);
	log_notes(options, &discovery.log);
	if (discovery.count == 0)
		log_line(options, RLI_LOG_INFO, "No data maps to process");

	error = run_units(&discovery, profiler, options, tables, &table_count);
	if (error < 0)
		goto done;

	for (size_t u = 0; u < discovery.count; u++) {
		rli_unit *unit = &discovery.units[u];
		if (unit->status < 0 || unit->log.oom || unit->failures.oom) {
			error = rli_error_oom();
			goto done;
		}
		log_notes(options, &unit->log);
		if (unit->failures.count)
			failed_units++; /* its messages go into the report or the error log below */
	}
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
	log_line(options, RLI_LOG_INFO, "Parallel processing completed: %zu/%zu ranks processed",
		 discovery.count - failed_units, discovery.count);
	if (profiler != RLI_PROFILER_MSTX && (error = keep_ranks(merged, &ranks, &discovery)) < 0)
		goto done;
	if ((error = rli_events_sort_by_start(merged)) < 0)
		goto done;

	if (discovery.structural.count || merged->count == 0) {
		/* The reference says this after parsing; a tree that failed its rules was not parsed. */
		if (merged->count == 0 && discovery.structural.count == 0 && !discovery.ranks_seen_count)
			log_line(options, RLI_LOG_WARN, "No valid data collected from any rank");
		report_failures(&discovery, merged->count == 0, options->rank_list);
		error = RLI_EINVALID;
		if (options->profiler != RLI_PROFILER_AUTO && !discovery.ranks_seen_count &&
		    hint_other_format(root, profiler) < 0)
			error = RLI_ERROR;
		goto done;
	}
	if (failed_units) {
		report_failures(&discovery, 0, options->rank_list);
		for (size_t u = 0; u < discovery.count; u++)
			for (size_t i = 0; i < discovery.units[u].failures.count; i++)
				log_line(options, RLI_LOG_ERROR, "%s", discovery.units[u].failures.items[i].text);
		error = RLI_EPARTIAL;
	} else {
		log_line(options, RLI_LOG_INFO, "Data validation passed for %s", input_type(profiler));
		rli_error_clear();
		error = RLI_OK;
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

/* parse.c: rli_parse: detect the profiler, discover units, validate, parse on threads, merge deterministically. */
#include "parse_internal.h"
#include "walk.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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
	char line[2048];
	va_list ap;
	if (!options->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	options->log(options->log_ctx, level, line);
}

static void log_notes(const rli_parse_options *options, const rli_notes *notes)
{
	for (size_t i = 0; options->log && i < notes->count; i++)
		options->log(options->log_ctx, notes->items[i].level, notes->items[i].text);
}

/* ---- detection ------------------------------------------------------------ */

typedef struct {
	size_t ascend_dirs, torch_files, nvtx_files;
} detect_counts;

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
		return 1; /* an Ascend folder's own files say nothing about other formats */
	}
	if (!entry->is_file)
		return 0;
	if (ends_with(entry->name, ".json.gz"))
		counts->torch_files++;
	else if (fnmatch("worker_process_*.*.jsonl", entry->name, 0) == 0)
		counts->nvtx_files++;
	return 0;
}

static int detect(rli_profiler *out, const char *root)
{
	detect_counts counts = {0, 0, 0};
	int kinds, error = rli_walk(root, detect_visit, &counts);
	if (error < 0)
		return error;
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

typedef struct {
	rli_discovery *discovery;
	rli_profiler profiler;
	const rli_parse_options *options;
	pthread_mutex_t lock;
	size_t next, completed;
} work_queue;

/*
 * A worker appends the rows of the units it takes to one table of its own, so that a single
 * worker's table is the merged table as it stands (no copy of a million rows), and rows never
 * wait in a table per unit.
 */
typedef struct {
	work_queue *queue;
	rli_events *rows;
} worker;

static void parse_unit(rli_profiler profiler, rli_unit *unit, rli_events *rows)
{
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

static void *work(void *arg)
{
	worker *self = arg;
	work_queue *queue = self->queue;
	size_t total = queue->discovery->count;
	for (;;) {
		size_t index, done;
		rli_unit *unit;
		pthread_mutex_lock(&queue->lock);
		index = queue->next++;
		pthread_mutex_unlock(&queue->lock);
		if (index >= total)
			break;
		unit = &queue->discovery->units[index];
		parse_unit(queue->profiler, unit, self->rows);
		pthread_mutex_lock(&queue->lock);
		done = ++queue->completed;
		/* Progress in completion order, as the reference prints it; the lock keeps lines whole. */
		if (total < 10 || done % (total / 10 > 2 ? total / 10 : 2) == 0)
			log_line(queue->options, RLI_LOG_DEBUG, "Completed rank %lld: %zu/%zu (%.1f%%)",
				 (long long)unit->rank, done, total, 100.0 * (double)done / (double)total);
		pthread_mutex_unlock(&queue->lock);
	}
	return NULL;
}

static unsigned worker_count(const rli_parse_options *options, size_t units)
{
	long cpus;
	unsigned jobs = options->jobs;
	if (jobs == 0) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 ? (unsigned)cpus : 1;
	}
	if (jobs > units)
		jobs = (unsigned)units;
	if (jobs > 256)
		jobs = 256;
	return jobs ? jobs : 1;
}

/* Parses every unit; tables[0..*table_count) receive the rows (the caller frees them). */
static int run_units(rli_discovery *discovery, rli_profiler profiler, const rli_parse_options *options,
		     rli_events **tables, unsigned *table_count)
{
	work_queue queue;
	pthread_t threads[256];
	worker workers[256];
	unsigned count = worker_count(options, discovery->count), started = 0;

	*table_count = 0;
	for (unsigned i = 0; i < count; i++) {
		if (rli_events_new(&tables[i]) < 0)
			return RLI_ERROR;
		*table_count = i + 1;
		workers[i].rows = tables[i];
		workers[i].queue = &queue;
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
	memset(&queue, 0, sizeof(queue));
	queue.discovery = discovery;
	queue.profiler = profiler;
	queue.options = options;
	if (pthread_mutex_init(&queue.lock, NULL) != 0)
		return rli_error_set(RLI_ERROR, "cannot create a mutex");
	/* The calling thread is one of the workers; if a thread cannot start, the others do more. */
	for (unsigned i = 1; i < count; i++) {
		if (pthread_create(&threads[started], NULL, work, &workers[i]) != 0)
			break;
		started++;
	}
	work(&workers[0]);
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&queue.lock);
	return RLI_OK;
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

static int keep_ranks(rli_events *events, const rli_rank_filter *ranks)
{
	uint8_t *keep;
	if (ranks->all || events->count == 0)
		return RLI_OK;
	keep = malloc(events->count);
	if (!keep)
		return rli_error_oom();
	for (size_t i = 0; i < events->count; i++)
		keep[i] = (uint8_t)rli_rank_filter_keeps(ranks, events->rank_id[i]);
	rli_events_filter(events, keep);
	free(keep);
	return RLI_OK;
}

/* "Data validation failed" and one "\n  - <message>" per failure, in rule then unit order. */
static void report_failures(const rli_discovery *discovery, int no_rows)
{
	int any = 0;
	rli_error_set(RLI_EINVALID, "Data validation failed");
	for (size_t i = 0; i < discovery->structural.count; i++, any = 1)
		rli_error_append("\n  - %s", discovery->structural.items[i].text);
	for (size_t u = 0; u < discovery->count; u++)
		for (size_t i = 0; i < discovery->units[u].failures.count; i++, any = 1)
			rli_error_append("\n  - %s", discovery->units[u].failures.items[i].text);
	if (!any && no_rows)
		rli_error_append("\n  - Parsing result must be a DataFrame, got NoneType instead.");
}

static char *trimmed_root(const char *path)
{
	char *root = rli_strdup(path);
	size_t length;
	if (!root)
		return NULL;
	length = strlen(root);
	while (length > 1 && root[length - 1] == '/')
		root[--length] = '\0';
	return root;
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
	root = trimmed_root(input_path);
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
			report_failures(&discovery, 0);
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
	log_notes(options, &discovery.log);
	if (options->profiler == RLI_PROFILER_AUTO)
		log_line(options, RLI_LOG_INFO, "detected %s profile: %zu input units in %s",
			 rli_profiler_name(profiler), discovery.count, input_path);
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
	if (profiler != RLI_PROFILER_MSTX && (error = keep_ranks(merged, &ranks)) < 0)
		goto done;
	if ((error = rli_events_sort_by_start(merged)) < 0)
		goto done;

	if (discovery.structural.count || merged->count == 0) {
		/* The reference says this after parsing; a tree that failed its rules was not parsed. */
		if (merged->count == 0 && discovery.structural.count == 0)
			log_line(options, RLI_LOG_WARN, "No valid data collected from any rank");
		report_failures(&discovery, merged->count == 0);
		error = RLI_EINVALID;
		goto done;
	}
	if (failed_units) {
		report_failures(&discovery, 0);
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

/* nvtx.c: Nsight Systems jsonl exports: one bar per NVTX push/pop range, read line by line. */
#include "parse_internal.h"
#include "format.h"
#include "json_stream.h"
#include "nvtx_internal.h"
#include "walk.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- discovery (timeline.md §5.2, §7) ----------------------------------- */

typedef struct {
	rli_discovery *discovery;
	rli_strpool groups;
	int worker_files; /* files the checker's worker_process_*.*.jsonl glob would match */
	int unsearched;   /* folders that could not be read */
} nvtx_walk;

static int unsearched(void *ctx, const char *dir, const char *why)
{
	nvtx_walk *walk = ctx;
	walk->unsearched++;
	return rli_discovery_unsearched(walk->discovery, dir, why);
}

static int visit(void *ctx, const rli_walk_entry *entry)
{
	nvtx_walk *walk = ctx;
	const char *name = entry->name;
	const char *first_dot, *second_dot, *underscore;
	size_t length = strlen(name);
	rli_unit *unit;
	uint32_t group;

	/*
	 * Whatever it is: a FIFO, a dangling symlink or a folder named like a unit is a unit that
	 * fails, said by the byte source ("not a regular file but a FIFO"), never one left out unsaid.
	 */
	if (length < 6 || strcmp(name + length - 6, ".jsonl") != 0)
		return 0;
	first_dot = strchr(name, '.');
	second_dot = strchr(first_dot + 1, '.');
	/* Exactly three parts: "<worker>.<id>.jsonl". */
	if (second_dot != name + length - 6 || strchr(second_dot + 1, '.'))
		return 0;
	if (fnmatch("worker_process_*.*.jsonl", name, 0) == 0)
		walk->worker_files++;
	unit = rli_discovery_add(walk->discovery);
	if (!unit)
		return rli_error_oom();
	unit->path = rli_strdup(entry->path);
	/* The PID is what follows the last '_' of the first part ("worker_process_70000" -> "70000"). */
	underscore = first_dot;
	while (underscore > name && underscore[-1] != '_')
		underscore--;
	/* The tid shows in the outputs: a file name's bytes that are no UTF-8 become U+FFFD. */
	unit->tid = rli_text_copy(underscore, (size_t)(first_dot - underscore), NULL);
	if (!unit->path || !unit->tid)
		return rli_error_oom();
	/* The middle part groups units, as the reference's provisional role does. */
	group = rli_strpool_intern(&walk->groups, first_dot + 1, (size_t)(second_dot - first_dot - 1));
	if (group == RLI_STRPOOL_NONE)
		return rli_error_oom();
	unit->group = group;
	return 0;
}

static int nvtx_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	nvtx_walk walk;
	int error;

	(void)options;
	memset(&walk, 0, sizeof(walk));
	walk.discovery = discovery;
	rli_strpool_init(&walk.groups);
	error = rli_walk(root, visit, unsearched, &walk);
	if (error < 0)
		goto done;
	/* With a folder unread, "none found" may not be so: that folder's failure says why. */
	if (walk.worker_files == 0 && walk.unsearched == 0)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
			      "No worker_process_*.*.jsonl file found in: %s", root);
	error = rli_discovery_group(discovery);
	if (discovery->structural.oom)
		error = rli_error_oom();
done:
	rli_strpool_dispose(&walk.groups);
	return error;
}

/* The most rows the NVTX units could give, by their files' sizes (capped): room to reserve ahead. */
static size_t nvtx_rows_hint(const rli_discovery *discovery)
{
	const off_t shortest_range_line = 40; /* {"end":1,"eventType":60,"start":1,"textId":1} */
	const size_t most = (size_t)1 << 24;    /* rows, whatever the files */
	size_t rows = 0;
	for (size_t u = 0; u < discovery->count && rows < most; u++) {
		struct stat st;
		if (stat(discovery->units[u].path, &st) == 0 && S_ISREG(st.st_mode))
			rows += (size_t)(st.st_size / shortest_range_line);
	}
	return rows < most ? rows : most;
}

void rli_nvtx_ctx_init(nvtx_ctx *n, rli_unit *unit, rli_events *rows)
{
	memset(n, 0, sizeof(*n));
	n->unit = unit;
	n->rows = rows;
	n->first_row = rows->count;
	n->rank = -1;
	rli_strpool_init(&n->string_ids);
}

void rli_nvtx_ctx_dispose(nvtx_ctx *n)
{
	for (size_t i = 0; i < n->string_capacity; i++)
		free(n->string_values[i]);
	free(n->string_values);
	free(n->text_id_line);
	free(n->value.text);
	free(n->name.text);
	free(n->unescaped);
	rli_strpool_dispose(&n->string_ids);
}

void rli_nvtx_conclude(nvtx_ctx *n, int read_whole, int empty)
{
	rli_unit *unit = n->unit;
	int settled = 0;
	if (read_whole && unit->status == RLI_OK) {
		if (empty) {
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "JSONL file is empty: %s", unit->path);
		} else {
			if (!n->any_start_time)
				rli_notes_add(&unit->failures, RLI_LOG_ERROR, "No 'startTime' found in file: %s",
					      unit->path);
			if (!n->any_range)
				rli_notes_add(&unit->failures, RLI_LOG_ERROR,
					      "No 'eventType' which equals to 60 found in file: %s", unit->path);
			if (unit->failures.count == 0) {
				rli_nvtx_settle_rows(n);
				settled = 1;
			}
		}
	}
	/* Rows never stay as ranges wait in them: a failed unit leaves none. */
	if (!settled)
		rli_events_truncate(n->rows, n->first_row);
	if (unit->log.oom || unit->failures.oom)
		unit->status = RLI_ERROR;
}

static void parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows, int scan)
{
	nvtx_ctx n;
	int empty = 0, read_whole;
	rli_nvtx_ctx_init(&n, unit, rows);
	read_whole = rli_nvtx_read_lines(&n, source, scan, &empty) == 0;
	rli_nvtx_conclude(&n, read_whole, empty);
	rli_nvtx_ctx_dispose(&n);
}

static void nvtx_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	parse_bytes(unit, source, rows, 1);
}

void rli_nvtx_parse_bytes_reference(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	parse_bytes(unit, source, rows, 0);
}

static void nvtx_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_bytes *source = rli_unit_open(unit, unit->path);
	if (!source) {
		if (unit->failures.oom)
			unit->status = RLI_ERROR;
		return;
	}
	/* A large plain file and threads to spare: parts of it on each (nvtx_parts.c); else, or when a part fails, whole. */
	if (rli_nvtx_parse_parts(unit, source, rows) == 0)
		nvtx_parse_bytes(unit, source, rows);
	rli_bytes_close(source);
}

static rli_shows nvtx_detect(const rli_walk_entry *entry)
{
	/* A FIFO or a dangling symlink named so shows the format too: discovery then says what it is. */
	return !entry->is_dir && fnmatch("worker_process_*.*.jsonl", entry->name, 0) == 0 ? RLI_SHOWS_FORMAT
											    : RLI_SHOWS_NOTHING;
}

const rli_format rli_format_nvtx = {
	RLI_PROFILER_NVTX, "nvtx", "multi_json_nvtx", "worker_process_*.*.jsonl file",
	"worker_process_*.*.jsonl files", 1,
	nvtx_detect, nvtx_discover, nvtx_parse_unit, nvtx_parse_bytes, nvtx_rows_hint, 0,
};

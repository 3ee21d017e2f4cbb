/* memory_discover.c: the memory parser's units: capture folders, their rules (memory.md §5.2), and one unit's parse. */
#include "memory_internal.h"
#include "ascend_capture.h"
#include "format.h"
#include "trace_share.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the role filter --------------------------------------------------------- */

int rli_role_filter_parse(rli_role_filter *out, const char *text)
{
	const char *p = text;
	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *end = strchr(p, ','), *stop = end ? end : p + strlen(p);
		const char *from = p;
		char **grown;
		while (from < stop && (*from == ' ' || *from == '\t'))
			from++;
		while (stop > from && (stop[-1] == ' ' || stop[-1] == '\t'))
			stop--;
		p = end ? end + 1 : NULL;
		if (stop == from)
			continue;
		grown = realloc(out->roles, (out->count + 1) * sizeof(*grown));
		if (!grown || !(grown[out->count] = rli_strfmt("%.*s", (int)(stop - from), from))) {
			if (grown)
				out->roles = grown;
			rli_role_filter_dispose(out);
			return rli_error_oom();
		}
		out->roles = grown;
		out->count++;
	}
	return RLI_OK;
}

void rli_role_filter_dispose(rli_role_filter *filter)
{
	for (size_t i = 0; i < filter->count; i++)
		free(filter->roles[i]);
	free(filter->roles);
	memset(filter, 0, sizeof(*filter));
}

int rli_role_filter_keeps(const rli_role_filter *filter, const char *role)
{
	if (filter->count == 0)
		return 1;
	for (size_t i = 0; i < filter->count; i++)
		if (strcmp(filter->roles[i], role) == 0)
			return 1;
	return 0;
}

/* ---- discovery --------------------------------------------------------------- */

/*
 * The size of a file, 0 if it cannot be looked at (a folder on the way unreadable: opening it
 * then says why), or -1 only if there is none.
 */
static long long file_size(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0)
		return (long long)st.st_size;
	return errno == ENOENT || errno == ENOTDIR ? -1 : 0;
}

/*
 * The file rules for one capture (every failure, not just the first), and its role. *keep is 0
 * when the rank or role filter leaves the folder out. failures receives the unit's messages;
 * *no_trace says the capture has no trace_view.json to take call stacks from.
 */
static int inspect(rli_ascend_capture *capture, rli_discovery *discovery, const rli_discover_options *options,
		   rli_notes *failures, int *keep, int *no_trace)
{
	const rli_rank_filter *ranks = options->ranks;
	const rli_role_filter *roles = options->roles;
	char *output_dir = rli_ascend_output_path(capture, NULL);
	char *csv = rli_ascend_output_path(capture, "operator_memory.csv");
	char *trace = rli_ascend_output_path(capture, "trace_view.json");
	char *metadata_path = rli_path_join(capture->dir, "profiler_metadata.json");
	rli_ascend_metadata metadata;
	struct stat st;
	int error = RLI_OK;

	*keep = *no_trace = 0;
	memset(&metadata, 0, sizeof(metadata));
	if (!output_dir || !csv || !trace || !metadata_path) {
		error = rli_error_oom();
		goto done;
	}
	if (capture->unsearched)
		goto done; /* the folder's failure is its unit already, or the timeline's to say */
	/* Found, not asked for: a capture without memory records is the timeline's, no failed memory unit. */
	if (options->auto_detected && stat(csv, &st) != 0) {
		rli_notes_add(&discovery->log, RLI_LOG_DEBUG, "No operator_memory.csv: %s is a timeline capture only",
			      capture->dir);
		goto done;
	}
	/* A folder of another rank is none of this run's business, whatever is wrong with it. */
	if (capture->rank >= 0 && !rli_rank_filter_keeps(ranks, capture->rank)) {
		rli_notes_add(&discovery->log, RLI_LOG_DEBUG, "Rank %lld not in the rank list: skipping %s",
			      (long long)capture->rank, capture->dir);
		goto done;
	}
	if ((error = rli_ascend_read_metadata(&metadata, capture)) < 0)
		goto done;
	if (!rli_role_filter_keeps(roles, capture->role)) {
		rli_notes_add(&discovery->log, RLI_LOG_DEBUG, "Role %s not in the role list: skipping %s",
			      capture->role, capture->dir);
		goto done;
	}
	*keep = 1;
	if (metadata.warning)
		rli_notes_add(&discovery->log, RLI_LOG_WARN, "%s", metadata.warning);
	/* No profiler_info_*.json, which the reference refuses: the rank is the folder's (ascend_capture.h). */
	if (!metadata.exists)
		rli_notes_add(failures, RLI_LOG_ERROR, "profiler_metadata.json does not exist in: %s", capture->dir);
	if (file_size(csv) < 0)
		rli_notes_add(failures, RLI_LOG_ERROR, "operator_memory.csv does not exist in: %s", output_dir);
	/* No trace_view.json, which the reference refuses: the rows are drawn without call stacks (said once a run). */
	*no_trace = file_size(trace) < 0;
	if (capture->info_count > 0 && capture->rank < 0)
		rli_notes_add(failures, RLI_LOG_ERROR, "direct:%s fail to get rankid or rankid invalid.", capture->dir);
	if (metadata.failure)
		rli_notes_add(failures, RLI_LOG_ERROR, "%s", metadata.failure);
	else if (metadata.exists && !metadata.is_object)
		rli_notes_add(failures, RLI_LOG_ERROR, "profiler_metadata.json is not a JSON object: %s", metadata_path);
done:
	rli_ascend_metadata_dispose(&metadata);
	free(output_dir);
	free(csv);
	free(trace);
	free(metadata_path);
	return error;
}

static int memory_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	static const rli_role_filter every_role = {NULL, 0};
	rli_discover_options filters = *options;
	rli_ascend_captures captures;
	rli_ascend_capture **kept = NULL;
	rli_notes *failures = NULL; /* by discovery order */
	const char **traceless = NULL; /* kept captures without trace_view.json */
	size_t kept_count = 0, traceless_count = 0;
	int error;

	if (!filters.roles)
		filters.roles = &every_role;
	/* Found, not asked for: the timeline analysis of the same run names the folders it cannot read. */
	error = rli_ascend_find(&captures, root, options->auto_detected ? NULL : discovery);
	if (error < 0)
		goto done;
	if (captures.count == 0) {
		/* With a folder unread, "none found" may not be so: that folder's failure says why. */
		if (captures.unsearched == 0)
			rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "No *_ascend_pt directory in %s", root);
		goto done;
	}
	kept = calloc(captures.count, sizeof(*kept));
	failures = calloc(captures.count, sizeof(*failures));
	traceless = calloc(captures.count, sizeof(*traceless));
	if (!kept || !failures || !traceless) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < captures.count; i++) {
		int keep, no_trace;
		if ((error = inspect(&captures.items[i], discovery, &filters, &failures[i], &keep, &no_trace)) < 0)
			goto done;
		if (keep)
			kept[kept_count++] = &captures.items[i];
		if (keep && no_trace)
			traceless[traceless_count++] = captures.items[i].dir;
	}
	if ((error = rli_ascend_order(kept, kept_count)) < 0 ||
	    (error = rli_ascend_note_ranks(&discovery->log, kept, kept_count)) < 0 ||
	    (error = rli_ascend_warn_folders(&discovery->log, traceless, traceless_count,
					     "no trace_view.json beside operator_memory.csv: memory drawn without "
					     "call stacks")) < 0)
		goto done;
	for (size_t i = 0; i < kept_count; i++) {
		rli_ascend_capture *capture = kept[i];
		rli_unit *unit = rli_ascend_add_unit(discovery, capture, NULL);
		if (!unit) {
			error = rli_error_oom();
			goto done;
		}
		unit->failures = failures[capture->order];
		rli_notes_init(&failures[capture->order]);
	}
	if (discovery->structural.oom || discovery->log.oom)
		error = rli_error_oom();
done:
	for (size_t i = 0; failures && i < captures.count; i++)
		rli_notes_dispose(&failures[i]);
	free(failures);
	free(kept);
	free(traceless);
	rli_ascend_captures_dispose(&captures);
	return error;
}

/* ---- one unit ---------------------------------------------------------------- */

/* The checker's rule for profiler_info_<N>.json (memory.md §5.2): an object with a rank_id. */
static int check_info_file(rli_unit *unit, const char *path)
{
	static const char *const wanted[] = {"rank_id"};
	rli_json_top info;
	char *failure = NULL;
	rli_read_result result = rli_json_read_top(&info, path, wanted, 1, &failure);
	free(info.role);
	if (result == RLI_READ_OOM)
		return RLI_ERROR;
	if (result == RLI_READ_EMPTY)
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
	else if (result != RLI_READ_OK)
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", failure ? failure : path);
	else if (info.top_kind != 1)
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "profiler_info JSON is not a dictionary: %s", path);
	else if (!info.found) {
		char list[16];
		rli_missing_keys(list, sizeof(list), wanted, 1, info.found);
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File field is missing: [%s] in FilePath: %s", list, path);
	}
	free(failure);
	return RLI_OK;
}

/* How the allocations found their call stacks: the reference attributes late ones silently. */
static void log_matches(rli_unit *unit, const rli_memory_match_counts *counts)
{
	char ended[128] = "";
	if (counts->matched_after_end)
		snprintf(ended, sizeof(ended), "%zu from an op that had already ended (up to %.3f ms earlier), ",
			 counts->matched_after_end, counts->max_gap_ms);
	rli_notes_add(&unit->log, RLI_LOG_INFO,
		      "Rank %lld Role %s: call stacks of %zu allocation(s): %zu from an op still running, %s%zu with no op",
		      (long long)unit->rank, unit->role, counts->allocations, counts->matched_inside, ended,
		      counts->unmatched);
}

static void memory_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_stack_index index;
	rli_stack_outcome outcome;
	rli_memory *table = NULL;
	rli_memory_match_counts counts;
	rli_bytes *source = NULL;
	long long size;
	char *csv = rli_path_join(unit->path, "operator_memory.csv");
	char *trace = rli_path_join(unit->path, "trace_view.json");
	char *record = rli_path_join(unit->path, "memory_record.csv");
	(void)rows; /* memory rows are no bars: they go into unit->memory */

	rli_stack_index_init(&index);
	if (!csv || !trace || !record)
		goto oom;
	/* Every file is checked even when another already failed: all the reasons at once. */
	for (size_t i = 0; i < unit->info_count; i++)
		if (check_info_file(unit, unit->info_files[i]) < 0)
			goto oom;
	if (unit->share && rli_trace_share_take(unit->share, trace, &index, &outcome)) {
		/* The timeline read this trace already: its call stacks, said and grouped as if read here. */
		if (rli_stack_index_finish(&index, unit, trace, &outcome) < 0)
			goto oom;
	} else if ((size = file_size(trace)) >= 0 && (source = rli_unit_open(unit, trace))) {
		int error = rli_stack_index_read(&index, unit, source, (size_t)size);
		rli_bytes_close(source);
		source = NULL;
		if (error < 0)
			goto oom;
	}
	if (unit->status < 0)
		goto oom;
	if ((size = file_size(csv)) >= 0 && (source = rli_unit_open(unit, csv))) {
		/*
		 * Ascend writes about 200 bytes a row: room for every row up front spares the copies of
		 * a growing table. Pages never written are never touched, so a guess too high costs nothing.
		 */
		size_t reserve = (size_t)size / 100 + 16;
		if (reserve > RLI_MEMORY_RESERVE_MAX)
			reserve = RLI_MEMORY_RESERVE_MAX;
		int error = rli_memory_new(&table) < 0 || rli_memory_reserve(table, reserve) < 0 ||
			    rli_memory_read_csv(table, unit, source, &index, &counts) < 0;
		rli_bytes_close(source);
		source = NULL;
		if (error)
			goto oom;
	}
	if (unit->status < 0)
		goto oom;
	if (unit->failures.count || !table)
		goto done;
	if (rli_memory_sort_by_start(table) < 0)
		goto oom;
	/* The device's own reserve beside the rows, when the capture has it: the figure's Reserved line. */
	if ((size = file_size(record)) >= 0 && (source = rli_unit_open(unit, record))) {
		int error = rli_memory_read_record(table, unit, source);
		rli_bytes_close(source);
		source = NULL;
		if (error < 0)
			goto oom;
	}
	rli_notes_add(&unit->log, RLI_LOG_INFO, "Rank %lld Role %s: parsed %zu memory events",
		      (long long)unit->rank, unit->role, table->count);
	log_matches(unit, &counts);
	unit->memory = table;
	table = NULL;
	goto done;
oom:
	unit->status = RLI_ERROR;
done:
	if (unit->log.oom || unit->failures.oom)
		unit->status = RLI_ERROR;
	rli_memory_free(table);
	rli_stack_index_dispose(&index);
	free(csv);
	free(trace);
	free(record);
}

/* A capture folder that holds memory records; nested captures are searched too. */
static rli_shows memory_detect(const rli_walk_entry *entry)
{
	if (!rli_ascend_is_capture(entry))
		return RLI_SHOWS_NOTHING;
	return rli_ascend_holds_memory(entry->path) > 0 ? RLI_SHOWS_FORMAT : RLI_SHOWS_NOTHING;
}

const rli_format rli_format_memory = {
	RLI_PROFILER_AUTO, "memory", "ascend_memory", "*ascend_pt folder with operator_memory.csv",
	"*ascend_pt folders with operator_memory.csv", 0,
	memory_detect, memory_discover, memory_parse_unit, NULL, NULL, 0,
};

static int count_memory(void *ctx, const rli_walk_entry *entry)
{
	int *found = ctx;
	if (rli_format_memory.detect(entry) != RLI_SHOWS_NOTHING)
		(*found)++;
	return 0;
}

int rli_memory_capture_count(const char *input_path)
{
	int found = 0;
	if (!input_path)
		return 0;
	if (rli_walk(input_path, count_memory, NULL, &found) < 0)
		return RLI_ERROR;
	return found;
}

/* mstx.c: Ascend MSTX profiles: find the *ascend_pt folders, then stream each trace_view.json into one bar. */
#include "mstx_internal.h"
#include "ascend_capture.h"
#include "format.h"
#include "json_stream.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- discovery (timeline.md §3.2, §7) ----------------------------------- */

/* The structural rules for one capture folder; *keep when it becomes a unit. */
static int inspect_capture(rli_ascend_capture *capture, rli_discovery *discovery, rli_notes *missing_trace,
			   char **metadata_failure, int *keep, const rli_rank_filter *ranks, int auto_detected)
{
	char *output_dir = NULL, *trace = NULL;
	rli_ascend_metadata metadata;
	struct stat st;
	int have_trace, error = RLI_OK;

	*keep = 0;
	if (capture->unsearched)
		return RLI_OK; /* its unit is the folder's failure already */
	output_dir = rli_ascend_output_path(capture, NULL);
	trace = rli_ascend_output_path(capture, "trace_view.json");
	if (!output_dir || !trace) {
		error = rli_error_oom();
		goto done;
	}
	/* Only a trace that is not there is missing: one that cannot be looked at fails its unit, with why. */
	have_trace = stat(trace, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
	if (!have_trace && auto_detected && rli_ascend_holds_memory(capture->dir) > 0) {
		/* Found, not asked for: memory records without a trace are the memory analysis's alone. */
		rli_notes_add(&discovery->log, RLI_LOG_INFO,
			      "%s: no trace_view.json; its memory records are for the memory analysis", output_dir);
		goto done;
	}
	if (!have_trace) {
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
			      "trace_view.json does not exist in: %s", output_dir);
		rli_notes_add(missing_trace, RLI_LOG_ERROR, "Missing trace_view.json in: %s", output_dir);
	}
	/*
	 * No profiler_info_*.json, which the reference refuses, is no failure: the rank is the
	 * folder's (ascend_capture.h). A profiler_info whose name gives no rank is one.
	 */
	if (capture->rank < 0) {
		/* A capture that cannot say its rank is a failed unit, named with the reason. */
		rli_unit *unit = capture->info_count ? rli_discovery_add(discovery) : NULL;
		if (capture->info_count && !unit) {
			error = rli_error_oom();
			goto done;
		}
		if (unit) {
			unit->rank = -1;
			if (!(unit->path = rli_strdup(trace))) {
				error = rli_error_oom();
				goto done;
			}
			rli_notes_add(&unit->failures, RLI_LOG_ERROR,
				      "%s: no valid rank id: %s is not profiler_info_<rank>.json with a whole-number rank",
				      capture->dir, capture->info_files[0]);
		}
		goto done;
	}
	if (!rli_rank_filter_keeps(ranks, capture->rank)) {
		rli_notes_add(&discovery->log, RLI_LOG_DEBUG, "Rank %lld not in the rank list: skipping %s",
			      (long long)capture->rank, capture->dir);
		error = rli_discovery_saw_rank(discovery, capture->rank);
		goto done;
	}
	if (!have_trace)
		goto done;
	error = rli_ascend_read_metadata(&metadata, capture);
	if (error < 0)
		goto done;
	if (metadata.warning)
		rli_notes_add(&discovery->log, RLI_LOG_WARN, "%s", metadata.warning);
	*metadata_failure = metadata.failure; /* becomes the unit's failure */
	metadata.failure = NULL;
	rli_ascend_metadata_dispose(&metadata);
	*keep = 1;
done:
	free(output_dir);
	free(trace);
	return error;
}

/*
 * The ranks of the kept captures without profiler_info, said once. Found, not asked for, a
 * capture that also holds memory records is the memory analysis's to speak of: the run says it once.
 */
static int note_ranks(rli_discovery *discovery, rli_ascend_capture **kept, size_t count,
		      const rli_discover_options *options)
{
	rli_ascend_capture **own = calloc(count ? count : 1, sizeof(*own));
	size_t own_count = 0;
	int error = RLI_OK;
	if (!own)
		return rli_error_oom();
	for (size_t i = 0; i < count; i++) {
		int holds = options->auto_detected ? rli_ascend_holds_memory(kept[i]->dir) : 0;
		if (holds < 0) {
			error = RLI_ERROR;
			goto done;
		}
		if (!holds)
			own[own_count++] = kept[i];
	}
	error = rli_ascend_note_ranks(&discovery->log, own, own_count);
done:
	free(own);
	return error;
}

static int mstx_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	const rli_rank_filter *ranks = options->ranks;
	rli_ascend_captures captures;
	rli_ascend_capture **kept = NULL;
	char **metadata_failures = NULL; /* by discovery order */
	size_t kept_count = 0;
	rli_notes missing_trace;
	int error;

	rli_notes_init(&missing_trace);
	error = rli_ascend_find(&captures, root, discovery);
	if (error < 0)
		goto done;
	if (captures.count == 0) {
		/* With a folder unread, "none found" may not be so: that folder's failure says why. */
		if (captures.unsearched == 0)
			rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "No *_ascend_pt path in %s", root);
		goto done;
	}
	kept = calloc(captures.count, sizeof(*kept));
	metadata_failures = calloc(captures.count, sizeof(*metadata_failures));
	if (!kept || !metadata_failures) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < captures.count; i++) {
		rli_ascend_capture *capture = &captures.items[i];
		int keep;
		error = inspect_capture(capture, discovery, &missing_trace, &metadata_failures[i], &keep, ranks,
					options->auto_detected);
		if (error < 0)
			goto done;
		if (keep)
			kept[kept_count++] = capture;
	}
	/* The checker's third rule repeats the missing trace_view.json, after the second rule's messages. */
	for (size_t i = 0; i < missing_trace.count; i++)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "%s", missing_trace.items[i].text);
	if ((error = rli_ascend_order(kept, kept_count)) < 0 ||
	    (error = note_ranks(discovery, kept, kept_count, options)) < 0)
		goto done;
	for (size_t i = 0; i < kept_count; i++) {
		rli_ascend_capture *capture = kept[i];
		rli_unit *unit = rli_ascend_add_unit(discovery, capture, "trace_view.json");
		if (!unit) {
			error = rli_error_oom();
			goto done;
		}
		if (metadata_failures[capture->order])
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", metadata_failures[capture->order]);
		/* Detected, not named: a capture of memory records may have no timeline (see rli_parse). */
		if (options->auto_detected && (unit->holds_memory = rli_ascend_holds_memory(capture->dir)) < 0) {
			error = RLI_ERROR;
			goto done;
		}
	}
	if (discovery->structural.oom || discovery->log.oom || missing_trace.oom)
		error = rli_error_oom();
done:
	for (size_t i = 0; metadata_failures && i < captures.count; i++)
		free(metadata_failures[i]);
	free(metadata_failures);
	free(kept);
	rli_ascend_captures_dispose(&captures);
	rli_notes_dispose(&missing_trace);
	return error;
}

/*
 * profiler_info_<N>.json: a non-empty object with the keys the checker asks for. The reference
 * also asks for the two version fields, which nothing drawn needs and which torch_npu's own
 * exports lack at times (decisions.md): their absence is said at -v, the unit is read.
 */
static const char *const info_keys[] = {"config",       "start_info",  "end_info",
					"rank_id", "torch_npu_version", "cann_version"};
#define INFO_REQUIRED 4 /* the first four of info_keys */
#define INFO_KEYS 6

static int check_info_file(rli_unit *unit, const char *path)
{
	rli_json_top info;
	char *failure = NULL;
	rli_read_result result = rli_json_read_top(&info, path, info_keys, INFO_KEYS, &failure);
	const unsigned required = (1u << INFO_REQUIRED) - 1;
	char list[160];
	free(info.role);
	switch (result) {
	case RLI_READ_OOM:
		return RLI_ERROR;
	case RLI_READ_EMPTY:
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
		return RLI_OK;
	case RLI_READ_FAILED:
	case RLI_READ_HALTED:
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", failure ? failure : path);
		free(failure);
		return RLI_OK;
	case RLI_READ_OK:
		break;
	}
	if (info.top_kind != 1) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR,
			      "Failed to parse JSON file %s: expected a JSON object", path);
		return RLI_OK;
	}
	if (info.keys == 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File is empty: %s", path);
		return RLI_OK;
	}
	if ((info.found & required) != required) {
		rli_missing_keys(list, sizeof(list), info_keys, INFO_REQUIRED, info.found);
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "File field is missing: {%s} in FilePath: %s",
			      list, path);
	}
	/* The version fields are what is left to miss: listed alone, at -v. */
	if (rli_missing_keys(list, sizeof(list), info_keys + INFO_REQUIRED, INFO_KEYS - INFO_REQUIRED,
			     info.found >> INFO_REQUIRED))
		rli_notes_add(&unit->log, RLI_LOG_INFO, "%s lacks %s, which nothing drawn needs: read all the same",
			      path, list);
	return RLI_OK;
}


static void mstx_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_bytes *source;
	for (size_t i = 0; i < unit->info_count; i++) {
		if (check_info_file(unit, unit->info_files[i]) < 0) {
			unit->status = RLI_ERROR;
			return;
		}
	}
	if (!(source = rli_unit_open(unit, unit->path))) {
		if (unit->failures.oom)
			unit->status = RLI_ERROR;
		return;
	}
	rli_mstx_parse_bytes(unit, source, rows);
	rli_bytes_close(source);
}

/* An Ascend capture folder: what is inside belongs to it, MSTX or memory, never to another format. */
static rli_shows mstx_detect(const rli_walk_entry *entry)
{
	return rli_ascend_is_capture(entry) ? RLI_SHOWS_FORMAT_ONLY : RLI_SHOWS_NOTHING;
}

const rli_format rli_format_mstx = {
	RLI_PROFILER_MSTX, "mstx", "multi_json_mstx", "*ascend_pt folder", "*ascend_pt folders", 1,
	mstx_detect, mstx_discover, mstx_parse_unit, rli_mstx_parse_bytes, NULL, 0,
};

/* parse_options.c: the parse and render options a request asks for, the same for the run and for its baseline. */
#include "analyses.h"
#include "common/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void cli_parse_options(rli_parse_options *options, rli_torch_memory_options *torch, const cli_request *request,
		       rli_log_fn log, void *log_ctx)
{
	rli_parse_options_init(options);
	options->profiler = request->profiler;
	options->rank_list = request->rank_list;
	options->jobs = request->jobs;
	options->log = log;
	options->log_ctx = log_ctx;
	options->shard_index = request->shard_index;
	options->shard_count = request->shard_count;
	rli_torch_memory_options_init(torch);
	torch->devices = request->memory_devices;
	torch->common.role_list = request->role_list;
	torch->common.shard_index = request->shard_index;
	torch->common.shard_count = request->shard_count;
}

void cli_memory_options(rli_memory_parse_options *options, const cli_request *request, rli_log_fn log, void *log_ctx)
{
	rli_memory_parse_options_init(options);
	options->rank_list = request->rank_list;
	options->role_list = request->role_list;
	options->jobs = request->jobs;
	options->log = log;
	options->log_ctx = log_ctx;
	options->auto_detected = request->analyses == 0;
	options->shard_index = request->shard_index;
	options->shard_count = request->shard_count;
}

void cli_gmm_options(rli_gmm_parse_options *options, const cli_request *request, rli_log_fn log, void *log_ctx)
{
	rli_gmm_parse_options_init(options);
	options->rank_list = request->rank_list;
	options->step_list = request->step_list;
	options->role_list = request->gmm_role_list;
	options->jobs = request->jobs;
	options->log = log;
	options->log_ctx = log_ctx;
	options->shard_index = request->shard_index;
	options->shard_count = request->shard_count;
}

const rli_render_options *cli_render_options(rli_render_options *options, const cli_request *request)
{
	rli_render_options_init(options);
	options->threads = request->jobs;
	return options;
}

const char *cli_pdf_date(char *buf, size_t size, const cli_request *request, double capture_start_ms)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t seconds;
	struct tm utc;

	if (request->pdf_date[0])
		return request->pdf_date;
	/* A build that pins the date wins over the capture's own, as reproducible builds expect. */
	if ((epoch && *epoch) || !rli_is_epoch_ms(capture_start_ms))
		return NULL;
	seconds = (time_t)floor(capture_start_ms / 1000.0);
	if (!gmtime_r(&seconds, &utc) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &utc))
		return NULL;
	return buf;
}

const rli_document *cli_dated(rli_document *copy, const rli_document *document, const char *date)
{
	if (!date || !document)
		return document;
	/* A shallow copy: the pages, and a lazy document's owner, stay the original's. */
	*copy = *document;
	copy->date = date;
	return copy;
}

double cli_capture_start(const cli_results *results, const rli_memory_devices *split)
{
	double start = 0;
	int found = 0;

	if (results->stats && rli_is_epoch_ms(results->stats->start_ms))
		return results->stats->start_ms;
	/* The memory's outputs are made before the timeline's statistics: its first bar then. */
	if (!results->stats && results->events && rli_is_epoch_ms(rli_timeline_first_ms(results->events)))
		return rli_timeline_first_ms(results->events);
	for (size_t d = 0; split && d < split->count; d++) {
		const rli_memory_device *device = &split->devices[d];
		/* Each device's allocations are in start order: its first is its earliest. */
		if (device->count && rli_is_epoch_ms(device->start_ms[0]) && (!found || device->start_ms[0] < start)) {
			start = device->start_ms[0];
			found = 1;
		}
	}
	if (!found && results->memory_stats)
		for (size_t d = 0; d < results->memory_stats->device_count; d++) {
			double first = results->memory_stats->devices[d].first_ms;
			if (rli_is_epoch_ms(first) && (!found || first < start)) {
				start = first;
				found = 1;
			}
		}
	return found ? start : 0;
}

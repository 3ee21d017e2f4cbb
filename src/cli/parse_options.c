/* parse_options.c: the parse and render options a request asks for, the same for the run and for its baseline. */
#include "analyses.h"

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

const rli_render_options *cli_render_options(rli_render_options *options, const cli_request *request)
{
	rli_render_options_init(options);
	options->threads = request->jobs;
	return options;
}

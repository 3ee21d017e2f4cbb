/* gmm.c: the MoE expert-load analysis: parse msprobe's group_list.pt dumps (or the tables --export wrote), export the table. */
#include "analyses.h"
#include "common/bigmem.h"
#include "common/strutil.h"

#include <stdlib.h>

/* With no analysis named: the dumps, else (the input is no dump tree) the tables --export wrote of them. */
static int detect(cli_run *run)
{
	const cli_request *request = run->request;
	int dumps = 0, tables = 0;

	if (request->profiler != RLI_PROFILER_TABLE && (dumps = rli_gmm_dump_count(request->input_path)) > 0) {
		cli_say(run->c, 0, "", "found %d group_list.pt dump%s (MoE expert load) under %s", dumps,
			dumps == 1 ? "" : "s", request->input_path);
		return 1;
	}
	if (dumps == 0 && (tables = rli_gmm_table_count(request->input_path, request->profiler)) > 0) {
		cli_say(run->c, 0, "", "found %d GMM table%s in %s", tables, tables == 1 ? "" : "s", request->input_path);
		run->found_tables = 1;
		return 1;
	}
	if (dumps < 0 || tables < 0) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return dumps < 0 ? dumps : tables;
	}
	return 0;
}

/* The input is the tables --export wrote: named so, or found so where no dump is. */
static int reads_tables(const cli_request *request)
{
	if (request->profiler == RLI_PROFILER_TABLE)
		return 1;
	return rli_gmm_dump_count(request->input_path) == 0 &&
	       rli_gmm_table_count(request->input_path, RLI_PROFILER_AUTO) > 0;
}

static int parse(cli_run *run, int optional)
{
	const cli_request *request = run->request;
	rli_gmm_parse_options options;
	double t = cli_now_ms();
	int from_tables = reads_tables(request), result;

	(void)optional; /* made only when named or found */
	/* The figure is the heatmap analysis's, still to come: a run that asks for one learns so before any work. */
	if (run->set && request->vis_count > 0) {
		cli_say(run->c, -1, "error: ", "rl-insight %s reads the MoE expert load (group_list.pt dumps) but draws no "
			"GMM heatmap yet: give --vis-type none with --export csv or jsonl to write its table, gmm_events.csv",
			RLI_VERSION);
		return RLI_EUSAGE;
	}
	cli_gmm_options(&options, request, cli_log_line, run->c);
	cli_show_status(run->c, from_tables ? "reading GMM tables" : "parsing group_list.pt dumps");
	result = from_tables ? rli_table_gmm_parse(&run->results->gmm, request->input_path, &options)
			     : rli_gmm_parse(&run->results->gmm, request->input_path, &options);
	if (result < 0 && result != RLI_EPARTIAL) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return result;
	}
	rli_bigmem_trim(); /* the parse's scratch is done with */
	cli_say(run->c, 1, "", "timing: gmm parse %.1f ms, %zu rows", cli_now_ms() - t, rli_gmm_count(run->results->gmm));
	return result;
}

static int export_table(console *c, const rli_gmm *gmm, rli_export_format format, const char *out_dir,
			const char *file_name, rli_output_set *set)
{
	char *path = rli_path_join(out_dir, file_name);
	int error;
	if (!path)
		return rli_error_oom();
	if ((error = rli_gmm_export(gmm, format, path, set)) < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	free(path);
	return error;
}

static int analyse(cli_run *run)
{
	const cli_request *request = run->request;
	int result = RLI_OK;
	if (request->export_csv)
		result = export_table(run->c, run->results->gmm, RLI_EXPORT_CSV, request->output_path, "gmm_events.csv",
				      run->set);
	if (result == RLI_OK && request->export_jsonl)
		result = export_table(run->c, run->results->gmm, RLI_EXPORT_JSONL, request->output_path,
				      "gmm_events.jsonl", run->set);
	return result;
}

/* No statistics yet: the run's summary.json has no part of it. */
static const void *statistics(const cli_results *results)
{
	(void)results;
	return NULL;
}

const cli_analysis cli_analysis_gmm = {
	.name = "gmm",
	.bit = CLI_GMM,
	.detect = detect,
	.parse = parse,
	.analyse = analyse,
	.statistics = statistics,
};

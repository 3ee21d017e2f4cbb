/* gmm.c: the MoE expert-load analysis: parse msprobe's group_list.pt dumps (or the tables --export wrote), export the table. */
#include "analyses.h"
#include "common/bigmem.h"
#include "common/strutil.h"

#include <stdlib.h>

static int export_table(console *c, const rli_gmm *gmm, rli_export_format format, const char *out_dir,
			const char *file_name, rli_output_set *set)
{
	char *path = rli_path_join(out_dir, file_name);
	double t = cli_now_ms();
	int error;
	if (!path)
		return rli_error_oom();
	if ((error = rli_gmm_export(gmm, format, path, set)) < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: gmm export %s %.1f ms", format == RLI_EXPORT_CSV ? "csv" : "jsonl",
			cli_now_ms() - t);
	free(path);
	return error;
}

int cli_run_gmm(console *c, const cli_request *request, rli_output_set *set, int from_tables, cli_results *results)
{
	rli_gmm_parse_options options;
	rli_gmm *gmm = NULL;
	double t = cli_now_ms();
	int parse_result, result = RLI_OK;

	/* The figure is the heatmap analysis's, still to come: a run that asks for one learns so before any work. */
	if (set && request->vis_count > 0) {
		cli_say(c, -1, "error: ", "rl-insight %s reads the MoE expert load (group_list.pt dumps) but draws no GMM "
			"heatmap yet: give --vis-type none with --export csv or jsonl to write its table, gmm_events.csv",
			RLI_VERSION);
		return RLI_EUSAGE;
	}
	cli_gmm_options(&options, request, cli_log_line, c);
	cli_show_status(c, from_tables ? "reading GMM tables" : "parsing group_list.pt dumps");
	parse_result = from_tables ? rli_table_gmm_parse(&gmm, request->input_path, &options)
				   : rli_gmm_parse(&gmm, request->input_path, &options);
	if (parse_result < 0 && parse_result != RLI_EPARTIAL) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		return parse_result;
	}
	results->gmm = gmm;
	rli_bigmem_trim(); /* the parse's scratch is done with */
	cli_say(c, 1, "", "timing: gmm parse %.1f ms, %zu rows", cli_now_ms() - t, rli_gmm_count(gmm));
	if (set && request->export_csv)
		result = export_table(c, gmm, RLI_EXPORT_CSV, request->output_path, "gmm_events.csv", set);
	if (set && result == RLI_OK && request->export_jsonl)
		result = export_table(c, gmm, RLI_EXPORT_JSONL, request->output_path, "gmm_events.jsonl", set);
	return result == RLI_OK ? parse_result : result;
}

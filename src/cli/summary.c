/* summary.c: the run's one summary.json: the head, then each analysis's part from its statistics, in the registry's order. */
#include "analyses.h"
#include "common/strutil.h"
#include "export/summary.h"

#include <stdlib.h>

int cli_write_summary(cli_run *run)
{
	const cli_results *results = run->results;
	rli_summary_info info = { run->request->input_path, cli_results_profiler(results), results->comparison };
	rli_summary_section sections[CLI_MAX_ANALYSES];
	size_t count = 0;
	char *path;
	double t = cli_now_ms();
	int error;

	for (size_t i = 0; cli_analyses[i]; i++) {
		const void *statistics = cli_analyses[i]->statistics(results);
		if (statistics)
			sections[count++] = (rli_summary_section){ cli_analyses[i]->summary, statistics };
	}
	/* Tables from shards name the whole run's input, as one run over it would. */
	if (results->origin_path) {
		info.input_path = results->origin_path;
		info.profiler = results->origin_profiler;
	}
	path = rli_path_join(run->request->output_path, "summary.json");
	error = path ? rli_summary_write_sections(sections, count, &info, path, run->set) : rli_error_oom();
	if (error < 0)
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(run->c, 1, "", "timing: summary.json %.1f ms", cli_now_ms() - t);
	free(path);
	return error;
}

/* compare_html.c: --baseline with html asked for: compare.html, both runs' timelines stacked and the table of changes, and the memory side. */
#include "analyses.h"
#include "layout/compare_page.h"

#include <stdio.h>

int cli_write_compare_html(cli_run *run, const cli_baseline *baseline)
{
	console *c = run->c;
	const cli_request *request = run->request;
	const cli_results *results = run->results;
	rli_timeline_options options = request->timeline;
	rli_compare_page *page = NULL;
	double t = cli_now_ms();
	int error;

	/* A comparison of timelines shows its phases, one of memory records its devices and call sites; either or both. */
	if (!run->set || !results->comparison || !(results->comparison->timeline || results->comparison->memory) ||
	    !cli_wants(request, "html"))
		return RLI_OK;
	options.medium = RLI_MEDIUM_VECTOR;
	cli_show_status(c, "writing compare.html");
	if ((error = rli_compare_page_layout(&page, results->comparison, baseline->results.events, baseline->results.stats,
					     results->events, results->stats, &options)) == RLI_OK)
		error = rli_compare_page_write_html(page, run->results->run.home, request->output_path, run->set);
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: compare.html %.1f ms", cli_now_ms() - t);
	rli_compare_page_free(page);
	return error;
}

/* main.c: the rl-insight command: the analyses the input holds, one set of outputs, and an honest exit status. */
#include "analyses.h"
#include "common/atomic_file.h"
#include "common/bigmem.h"
#include "common/prefault.h"
#include "common/task.h"
#include "output_lock.h"
#include "parse/table_origin.h"
#include "stop.h"

#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/*
 * What run() returns beyond library codes: the run succeeded, and the comparison found a
 * regression that --fail-on-regression makes the verdict (exit status 6).
 */
#define CLI_REGRESSED (RLI_EPARTIAL - 1)

/* Maps a library return code to the documented exit status. */
static int exit_status(int code)
{
	return code < 0 && code >= CLI_BUSY ? -code : (code < 0 ? 1 : 0);
}


/*
 * The analyses asked for, or with none named, every one the input holds:
 * the timeline always, the memory analysis when Ascend captures hold
 * operator_memory.csv, the MoE expert load when msprobe's group_list.pt
 * dumps are there (then a tree without a timeline is no error).
 */
static int run(console *c, const cli_request *request)
{
	rli_output_set *set = NULL;
	cli_results results = { 0 };
	cli_baseline baseline = { 0 };
	int timeline = request->analyses == 0 || (request->analyses & CLI_TIMELINE);
	int memory = (request->analyses & CLI_MEMORY) != 0, captures = 0, tables = 0, result = RLI_OK, outcome;
	int gmm = (request->analyses & CLI_GMM) != 0, dumps = 0, gmm_tables = 0;

	if (request->analyses == 0 && request->profiler != RLI_PROFILER_TABLE &&
	    (captures = rli_memory_capture_count(request->input_path)) > 0) {
		memory = 1;
		cli_say(c, 0, "", "found memory records in %d Ascend capture%s under %s", captures,
			captures == 1 ? "" : "s", request->input_path);
	} else if (request->analyses == 0 && captures == 0 &&
		   (tables = rli_memory_table_count(request->input_path, request->profiler)) > 0) {
		memory = 1;
		cli_say(c, 0, "", "found %d memory table%s in %s", tables, tables == 1 ? "" : "s", request->input_path);
	}
	if (captures < 0 || tables < 0) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		return captures < 0 ? captures : tables;
	}
	/* The dumps, else the tables --export wrote of them (named gmm, or found). */
	if ((gmm || request->analyses == 0) && request->profiler != RLI_PROFILER_TABLE)
		dumps = rli_gmm_dump_count(request->input_path);
	if ((gmm || request->analyses == 0) && dumps == 0)
		gmm_tables = rli_gmm_table_count(request->input_path, request->profiler);
	if (dumps < 0 || gmm_tables < 0) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		return dumps < 0 ? dumps : gmm_tables;
	}
	if (request->analyses == 0 && (dumps > 0 || gmm_tables > 0)) {
		gmm = 1;
		if (dumps > 0)
			cli_say(c, 0, "", "found %d group_list.pt dump%s (MoE expert load) under %s", dumps, dumps == 1 ? "" : "s",
				request->input_path);
		else
			cli_say(c, 0, "", "found %d GMM table%s in %s", gmm_tables, gmm_tables == 1 ? "" : "s",
				request->input_path);
	}
	/* Every run that parses writes summary.json (--vis-type none too), so every run has outputs. */
	if (timeline || memory || gmm) {
		if ((result = rli_mkdir_p(request->output_path)) < 0 ||
		    (result = cli_output_lock(c, request->output_path, request->no_wait)) < 0 ||
		    (result = rli_output_set_new(&set)) < 0) {
			cli_say(c, -1, "error: ", "%s", rli_error_last());
			goto done;
		}
	}
	/* The baseline is read on a thread of its own while this run is parsed. */
	if (request->baseline && (result = cli_baseline_start(&baseline, c, request)) < 0) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		goto done;
	}
	if (timeline) {
		outcome = cli_run_timeline(c, request, set, (memory || gmm) && request->analyses == 0, &results);
		if (outcome == CLI_SKIPPED)
			outcome = RLI_OK;
		result = cli_worse(result, outcome);
	}
	if (results.memory) {
		/* The PyTorch traces held [memory] events, read with the bars: the memory analysis draws them. */
		rli_memory_match_counts counts;
		rli_memory_count_matches(&counts, results.memory);
		if (counts.allocations) {
			memory = 1;
			cli_say(c, 0, "", "found %zu [memory] allocations in the PyTorch traces under %s", counts.allocations,
				request->input_path);
		} else {
			cli_say(c, 1, "", "the PyTorch traces' [memory] events hold no allocation: no memory analysis");
		}
	}
	if (memory && (result == RLI_OK || result == RLI_EPARTIAL))
		result = cli_worse(result, cli_run_memory(c, request, set, &results));
	if (gmm && (result == RLI_OK || result == RLI_EPARTIAL))
		result = cli_worse(result, cli_run_gmm(c, request, set, dumps == 0 && gmm_tables > 0, &results));
	if (request->baseline && (result == RLI_OK || result == RLI_EPARTIAL))
		result = cli_worse(result, cli_run_compare(c, request, &baseline, set, &results));
	if (request->baseline && (result == RLI_OK || result == RLI_EPARTIAL))
		result = cli_worse(result, cli_write_compare_html(c, request, &baseline, &results, set));
	if ((results.profiler == RLI_PROFILER_TABLE || tables > 0) && (result == RLI_OK || result == RLI_EPARTIAL)) {
		int found = rli_table_origin(&results.origin_path, &results.origin_profiler, request->input_path);
		if (found < 0) {
			cli_say(c, -1, "error: ", "%s", rli_error_last());
			result = found;
		} else if (results.origin_path)
			cli_say(c, 1, "", "the tables were parsed from %s (%s)", results.origin_path, results.origin_profiler);
	}
	if (set && (result == RLI_OK || result == RLI_EPARTIAL) && (results.stats || results.memory_stats)) {
		int written = cli_write_summary(c, request, &results, set);
		if (written < 0)
			result = written;
	}
	/* The report reads both analyses, so it is written when both are done. */
	if (set && (result == RLI_OK || result == RLI_EPARTIAL) && cli_wants(request, "pdf") &&
	    (results.timeline || results.memory_stats)) {
		int written = cli_write_report(c, request, &results, set);
		if (written < 0)
			result = written;
	}
	if (timeline || memory || gmm) {
		uint64_t files, bytes;
		rli_input_totals(&files, &bytes);
		/* The process's totals: with a baseline read beside the run, both sides' files. */
		cli_say(c, 1, "", "read: %llu input file%s, %.1f MiB%s", (unsigned long long)files,
			files == 1 ? "" : "s", (double)bytes / 1048576,
			request->baseline ? " (this run and its baseline)" : "");
	}
	if (set && (result == RLI_OK || result == RLI_EPARTIAL)) {
		int committed = rli_output_set_commit(set);
		if (committed < 0) {
			cli_say(c, -1, "error: ", "%s", rli_error_last());
			result = committed;
		} else {
			cli_clear_status(c);
			cli_report_outputs(c, set);
		}
	}
	/* The verdict a nightly job acts on, once every output is in place; a failed run says its failure instead. */
	if (result == RLI_OK && request->fail_on_regression && results.comparison && results.comparison->regressions)
		result = CLI_REGRESSED;
done:
	cli_clear_status(c);
	rli_output_set_free(set);
	/* Held until the set's last temporary is gone: the next run finds the folder as this one left it. */
	cli_output_unlock();
	cli_results_dispose(&results);
	cli_baseline_dispose(&baseline);
	return result;
}

/*
 * Why: glibc maps every block of 128 KiB and up apart and unmaps it when it is freed, so the
 * working buffers that each device, page and cairo fill are faulted in anew, 4 KiB at a time. A
 * fault costs about 20 us on the virtual machines that run most of our jobs, on memory just freed
 * as much as on new (bench/fresh-memory): 16 pages of a memory figure faulted 67,000 times. Blocks
 * under 2 MiB come from the heap instead, which is kept (up to 64 MiB free at its top) for the
 * next ones. Larger blocks are still mapped apart and returned when freed, ours in 2 MiB pages
 * (common/bigmem.h): keeping those too cost the memory figure 60 MB of peak for no time. The
 * library leaves malloc alone: this is the program's choice.
 */
static void tune_malloc(void)
{
#if defined(__GLIBC__)
	mallopt(M_MMAP_THRESHOLD, (int)RLI_BIGMEM_MAP_FROM);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 8 << 20);
#endif
}

int main(int argc, char **argv)
{
	cli_request request;
	console c = { 0 };
	int error;

	tune_malloc();
	error = cli_parse_args(&request, argc, argv);

	if (error < 0) {
		fputs("rl-insight: ", stderr);
		cli_put_message(stderr, rli_error_last());
		fputc('\n', stderr);
		error = exit_status(error);
	} else if (request.action == CLI_HELP) {
		cli_print_help(stdout);
	} else if (request.action == CLI_VERSION) {
		printf("rl-insight %s\n", RLI_VERSION);
	} else {
		c.verbosity = request.verbosity;
		/*
		 * A spare core faults in the pages that a reading thread is about to write
		 * (common/prefault.h); --jobs 1 keeps all the work on one thread.
		 */
		/* First, before any thread: they all start with the stop signals blocked. */
		cli_stop_start(request.output_path);
		rli_prefault_enable(rli_task_threads(request.jobs, 2, 2) > 1);
		error = exit_status(run(&c, &request));
		rli_prefault_enable(0);
		cli_stop_end();
	}
	cli_request_dispose(&request);
	return error;
}

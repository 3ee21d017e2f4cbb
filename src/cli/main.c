/* main.c: the rl-insight command: the analyses the input holds, one set of outputs, and an honest exit status. */
#include "analyses.h"
#include "common/atomic_file.h"
#include "common/bigmem.h"
#include "common/prefault.h"
#include "common/task.h"
#include "output_lock.h"
#include "parse/table_origin.h"
#include "run_history.h"
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
	return code < 0 && code >= CLI_HISTORY_FAILED ? -code : (code < 0 ? 1 : 0);
}


/*
 * Which analyses the run makes, before anything is parsed: those named, or with none named every
 * one that is always made or that the input tree holds. *found: one was found in the tree.
 */
static int choose(int *chosen, int *found, cli_run *run)
{
	int analyses = run->request->analyses;
	*found = 0;
	for (size_t i = 0; cli_analyses[i]; i++) {
		const cli_analysis *a = cli_analyses[i];
		chosen[i] = (analyses & a->bit) != 0 || (analyses == 0 && a->always);
		if (analyses == 0 && !a->always && a->detect) {
			int detected = a->detect(run);
			if (detected < 0)
				return detected;
			chosen[i] |= detected;
			*found |= detected;
		}
	}
	return RLI_OK;
}

/*
 * One analysis's parse. optional: an input without it is no failure (CLI_SKIPPED, said). *ready:
 * it parsed and has outputs to make (analyse), once every analysis has parsed.
 */
static int parse(const cli_analysis *a, cli_run *run, int optional, int *ready)
{
	int parsed = a->parse(run, optional);
	*ready = 0;
	if (parsed == CLI_SKIPPED)
		return RLI_OK;
	*ready = (parsed == RLI_OK || parsed == RLI_EPARTIAL) && run->set;
	return parsed;
}

/* Where an analysis stands in cli_analyses, which the run's choices follow. */
static size_t index_of(const cli_analysis *a)
{
	size_t i = 0;
	while (cli_analyses[i] && cli_analyses[i] != a)
		i++;
	return i;
}

static int going(int result)
{
	return result == RLI_OK || result == RLI_EPARTIAL;
}

/* --baseline: the comparison, then each analysis's figures of it. */
static int compare(cli_run *run, cli_baseline *baseline)
{
	int result = cli_run_compare(run, baseline);
	for (size_t i = 0; cli_analyses[i] && going(result); i++)
		if (cli_analyses[i]->compare_outputs)
			result = cli_worse(result, cli_analyses[i]->compare_outputs(run, baseline));
	return result;
}

/* Tables as the input: the profiles they were parsed from, named in summary.json and the report. */
static int name_origin(cli_run *run)
{
	cli_results *results = run->results;
	int found = rli_table_origin(&results->origin_path, &results->origin_profiler, run->request->input_path);
	if (found < 0) {
		cli_say(run->c, -1, "error: ", "%s", rli_error_last());
		return found;
	}
	if (results->origin_path)
		cli_say(run->c, 1, "", "the tables were parsed from %s (%s)", results->origin_path, results->origin_profiler);
	return RLI_OK;
}

static int has_statistics(const cli_results *results)
{
	for (size_t i = 0; cli_analyses[i]; i++)
		if (cli_analyses[i]->statistics(results))
			return 1;
	return 0;
}

/*
 * The run: choose the analyses, make each in the registry's order, then the run-level steps
 * that read them all (the comparison, summary.json, the report), then commit the set.
 */
static int run(console *c, const cli_request *request)
{
	cli_results results;
	cli_baseline baseline = { 0 };
	cli_history history = { 0 };
	cli_run r = { .c = c, .request = request, .results = &results };
	int chosen[CLI_MAX_ANALYSES] = { 0 }, ready[CLI_MAX_ANALYSES + 1] = { 0 }, found, any = 0, result;

	cli_results_init(&results);
	/* The run's home page lists every output, with the pages: each of them links back to it. */
	if (cli_wants(request, "html"))
		results.run.home = "index";
	if ((result = choose(chosen, &found, &r)) < 0)
		return result;
	for (size_t i = 0; cli_analyses[i]; i++)
		any |= chosen[i];
	/* Every run that parses writes summary.json (--vis-type none too), so every run has outputs. */
	if (any) {
		if ((result = rli_mkdir_p(request->output_path)) < 0 ||
		    (result = cli_output_lock(c, request->output_path, request->no_wait)) < 0 ||
		    (result = rli_output_set_new(&r.set)) < 0) {
			cli_say(c, -1, "error: ", "%s", rli_error_last());
			goto done;
		}
	}
	/* The baseline is read on a thread of its own while this run is parsed. */
	if (request->baseline && (result = cli_baseline_start(&baseline, c, request)) < 0) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		goto done;
	}
	for (size_t i = 0; cli_analyses[i]; i++) {
		const cli_analysis *a = cli_analyses[i];
		/* Found in what the analyses before it read, whatever became of them. An analysis made
		 * always is optional when another was found in the tree: a tree of memory records alone. */
		if (a->detect_read && a->detect_read(&r))
			chosen[i] = any = 1;
		if (chosen[i] && going(result))
			result = cli_worse(result, parse(a, &r, a->always && found, &ready[i]));
	}
	/* Every analysis parsed, so the run's t = 0 is known: their statistics and outputs. */
	for (size_t i = 0; cli_analyses_drawn[i] && going(result); i++)
		if (ready[index_of(cli_analyses_drawn[i])])
			result = cli_worse(result, cli_analyses_drawn[i]->analyse(&r));
	if (request->baseline && going(result))
		result = cli_worse(result, compare(&r, &baseline));
	if ((results.profiler == RLI_PROFILER_TABLE || r.found_tables) && going(result))
		result = cli_worse(result, name_origin(&r));
	/* --history: the verdict against the last runs, and the trend (trend.png, trend.html, the report's). */
	if (request->history_path && going(result))
		result = cli_worse(result, cli_history_before_commit(&r, &history));
	if (r.set && going(result) && has_statistics(&results)) {
		int written = cli_write_summary(&r);
		if (written < 0)
			result = written;
	}
	/* The report reads every analysis, so it is written when all are done. */
	if (r.set && going(result) && cli_wants(request, "pdf")) {
		int written = cli_write_report(&r);
		if (written < 0)
			result = written;
	}
	/* Last: it lists every file the run wrote. */
	if (r.set && going(result) && results.run.home) {
		int written = cli_write_home(&r);
		if (written < 0)
			result = written;
	}
	if (any) {
		uint64_t files, bytes;
		rli_input_totals(&files, &bytes);
		/* The process's totals: with a baseline read beside the run, both sides' files. */
		cli_say(c, 1, "", "read: %llu input file%s, %.1f MiB%s", (unsigned long long)files,
			files == 1 ? "" : "s", (double)bytes / 1048576,
			request->baseline ? " (this run and its baseline)" : "");
	}
	if (r.set && going(result)) {
		int committed = rli_output_set_commit(r.set);
		if (committed < 0) {
			cli_say(c, -1, "error: ", "%s", rli_error_last());
			result = committed;
		} else {
			cli_clear_status(c);
			cli_report_outputs(c, r.set);
		}
	}
	/* Appended once its outputs are written: a run that failed leaves no row. */
	if (request->history_path)
		result = cli_history_after_commit(&r, &history, result);
	/* The verdict a nightly job acts on, once every output is in place; a failed run says its failure instead. */
	if (result == RLI_OK && request->fail_on_regression && results.comparison && results.comparison->regressions)
		result = CLI_REGRESSED;
done:
	cli_clear_status(c);
	rli_output_set_free(r.set);
	/* Held until the set's last temporary is gone: the next run finds the folder as this one left it. */
	cli_output_unlock();
	cli_history_dispose(&history);
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
	/* `rl-insight history FILE ...`: the run history's own command. */
	if (argc > 1 && strcmp(argv[1], "history") == 0)
		return cli_history_command(argc - 1, argv + 1);
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

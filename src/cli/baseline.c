/* baseline.c: reading the baseline of a comparison: a summary.json as it is, anything else parsed as the current run is. */
#include "analyses.h"
#include "baseline.h"
#include "common/strutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The baseline's warnings, said as the current run's are, marked as the baseline's. */
static void baseline_log(void *ctx, rli_log_level level, const char *line)
{
	cli_baseline *b = ctx;
	char marked[2048];
	snprintf(marked, sizeof(marked), "baseline: %s", line);
	cli_log_line(b->c, level, marked);
}

static int ends_with(const char *text, const char *suffix)
{
	size_t n = strlen(text), m = strlen(suffix);
	return n >= m && strcmp(text + n - m, suffix) == 0;
}

/*
 * The summary.json to read, or NULL to parse the path: a .json file, or a folder of outputs that
 * holds a summary.json and no exported table (rl_events.* or memory_events.*: a table has the
 * rows, so it is read instead).
 */
static char *summary_path(const char *path)
{
	static const char *const tables[] = { "rl_events.csv", "rl_events.jsonl", "memory_events.csv", "memory_events.jsonl",
					      "gmm_events.csv", "gmm_events.jsonl" };
	struct stat st;
	char *summary;
	int has_table = 0;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return ends_with(path, ".json") ? strdup(path) : NULL;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && !has_table; i++) {
		char *table = rli_path_join(path, tables[i]);
		has_table = table && stat(table, &st) == 0;
		free(table);
	}
	summary = rli_path_join(path, "summary.json");
	if (summary && (has_table || stat(summary, &st) != 0 || !S_ISREG(st.st_mode))) {
		free(summary);
		summary = NULL;
	}
	return summary;
}

/* The profile tree (or tables): the timeline, the memory and the expert load it holds, as auto finds them. */
static int parse_tree(cli_baseline *b)
{
	const cli_request *request = b->request;
	rli_parse_options options;
	rli_torch_memory_options torch;
	int timeline, memory = RLI_OK, gmm = RLI_OK, captures, tables, dumps, gmm_tables;

	cli_parse_options(&options, &torch, request, baseline_log, b);
	timeline = rli_parse_with_memory(&b->results.events, &b->results.memory, &b->results.profiler, request->baseline,
					 &options, &torch);
	captures = rli_memory_capture_count(request->baseline);
	tables = captures > 0 ? 0 : rli_memory_table_count(request->baseline, request->profiler);
	if (captures < 0 || tables < 0)
		return RLI_ERROR;
	if ((captures > 0 || tables > 0) && !b->results.memory) {
		rli_memory_parse_options memory_options;
		cli_memory_options(&memory_options, request, baseline_log, b);
		memory_options.auto_detected = 1; /* found in the baseline, not asked for */
		memory = tables > 0 ? rli_table_memory_parse(&b->results.memory, request->baseline, &memory_options)
				    : rli_memory_parse(&b->results.memory, request->baseline, &memory_options);
		if (memory < 0 && memory != RLI_EPARTIAL)
			return memory;
	}
	/* The expert load: the dumps, else the tables --export wrote of them. */
	dumps = rli_gmm_dump_count(request->baseline);
	gmm_tables = dumps > 0 ? 0 : rli_gmm_table_count(request->baseline, request->profiler);
	if (dumps < 0 || gmm_tables < 0)
		return RLI_ERROR;
	if (dumps > 0 || gmm_tables > 0) {
		rli_gmm_parse_options gmm_options;
		cli_gmm_options(&gmm_options, request, baseline_log, b);
		gmm = gmm_tables > 0 ? rli_table_gmm_parse(&b->results.gmm, request->baseline, &gmm_options)
				     : rli_gmm_parse(&b->results.gmm, request->baseline, &gmm_options);
		if (gmm < 0 && gmm != RLI_EPARTIAL)
			return gmm;
	}
	/* A tree of memory records or expert-load dumps alone has no timeline: that is no failure. */
	if (timeline == RLI_EINVALID && (b->results.memory || b->results.gmm)) {
		rli_events_free(b->results.events);
		b->results.events = NULL;
		timeline = RLI_OK;
	}
	if (timeline < 0 && timeline != RLI_EPARTIAL)
		return timeline;
	return cli_worse(cli_worse(timeline, memory), gmm);
}

static int read_baseline(void *arg)
{
	cli_baseline *b = arg;
	char *summary = summary_path(b->request->baseline);
	int result;
	if (summary) {
		result = rli_compare_side_read_summary(&b->side, summary);
		free(summary);
		return result;
	}
	if ((result = parse_tree(b)) < 0 && result != RLI_EPARTIAL)
		return result;
	if (b->results.events && rli_stats_compute(&b->results.stats, b->results.events) < 0)
		return RLI_ERROR;
	if (b->results.memory && rli_memory_stats_compute(&b->results.memory_stats, b->results.memory) < 0)
		return RLI_ERROR;
	if (b->results.gmm && (rli_gmm_matrix_build(&b->results.gmm_matrix, b->results.gmm, b->request->gmm_per_layer,
						    NULL, NULL) < 0 ||
			       rli_gmm_stats_compute(&b->results.gmm_stats, b->results.gmm_matrix) < 0))
		return RLI_ERROR;
	/* Each analysis adds its part, as for the current run. */
	if (cli_results_side(&b->side, &b->results, b->request->baseline) < 0)
		return RLI_ERROR;
	return result;
}

int cli_baseline_start(cli_baseline *b, console *c, const cli_request *request)
{
	*b = (cli_baseline){ .c = c, .request = request };
	/* With --jobs 1, or no thread to spare, it is read here, before the current run. */
	rli_task_start(&b->task, read_baseline, b, request->jobs != 1);
	return RLI_OK;
}

int cli_baseline_join(cli_baseline *b)
{
	int result = rli_task_join(&b->task);
	if (result < 0 && result != RLI_EPARTIAL)
		cli_say(b->c, -1, "error: ", "baseline %s: %s", b->request->baseline, rli_error_last());
	else if (result == RLI_EPARTIAL)
		cli_say(b->c, 0, "warning: ", "baseline %s: some input units were skipped (named above); the comparison "
			"reads the rest", b->request->baseline);
	return result;
}

void cli_baseline_dispose(cli_baseline *b)
{
	if (b->task.started)
		cli_baseline_join(b);
	rli_compare_side_free(b->side);
	b->side = NULL;
	cli_results_dispose(&b->results);
}

/* analyses.h: the analyses a run can make, each parsing its input and writing its outputs into the run's set. */
#ifndef RLI_CLI_ANALYSES_H
#define RLI_CLI_ANALYSES_H

#include "args.h"
#include "baseline.h"
#include "compare/compare.h"
#include "console.h"
#include "layout/layout.h"
#include "memory/memory_devices.h"
#include "stats/memory_stats.h"
#include "stats/stats.h"

/* What an analysis returns besides library codes: it was optional and the input holds none of it. */
#define CLI_SKIPPED 1

/*
 * What the analyses leave for the run's summary.json, written once at the end
 * with whichever parts exist (NULL: not parsed). The statistics refer to
 * their tables, kept here as long as they are.
 */
typedef struct {
	rli_events *events;
	rli_stats *stats;
	rli_timeline *timeline;     /* laid out for a vector medium, when the report is asked for */
	rli_profiler profiler;      /* the format the timeline read */
	rli_memory *memory;
	rli_memory_stats *memory_stats;
	rli_gmm *gmm;               /* the MoE expert-load table (cli_run_gmm) */
	rli_compare_side *current_side; /* with --baseline: this run, as the comparison reads it */
	rli_comparison *comparison;
	/* tables as the input: the profiles they were parsed from (rli_table_origin), or NULL */
	char *origin_path, *origin_profiler;
} cli_results;

/*
 * The parse options the request asks for, logging to log(log_ctx): the timeline's, and those of
 * the PyTorch [memory] events read with it (parse_options.c; the run and its baseline share them).
 */
void cli_parse_options(rli_parse_options *options, rli_torch_memory_options *torch, const cli_request *request,
		       rli_log_fn log, void *log_ctx);
/* The memory records' parse options the request asks for (auto_detected: no analysis was named). */
void cli_memory_options(rli_memory_parse_options *options, const cli_request *request, rli_log_fn log, void *log_ctx);
/* The GMM dumps' parse options the request asks for (heatmap.parser.step and .role, the rank list). */
void cli_gmm_options(rli_gmm_parse_options *options, const cli_request *request, rli_log_fn log, void *log_ctx);
/* How to render: pages on --jobs threads (1: this one only). Returns options. */
const rli_render_options *cli_render_options(rli_render_options *options, const cli_request *request);

/*
 * The date in this run's PDFs' metadata: --pdf-date, else NULL where SOURCE_DATE_EPOCH is set
 * (the back-end reads it), else the capture's start (capture_start_ms, on the epoch) written into
 * buf, else NULL (the back-end's fixed date). The same input gives the same date, so the same bytes.
 */
const char *cli_pdf_date(char *buf, size_t size, const cli_request *request, double capture_start_ms);
/* document with the date set, copied into *copy when date is not NULL; document itself otherwise. */
const rli_document *cli_dated(rli_document *copy, const rli_document *document, const char *date);
/* The capture's start for the PDFs' date: the timeline's first bar, else the first allocation. */
double cli_capture_start(const cli_results *results, const rli_memory_devices *split);

/*
 * The timeline: parse, statistics, export (rl_events.*), lay out, render;
 * the table and its statistics left in results. set is NULL for a
 * validation-only run. optional: an input without a timeline is said in a
 * notice and gives CLI_SKIPPED instead of failing the run.
 */
int cli_run_timeline(console *c, const cli_request *request, rli_output_set *set, int optional, cli_results *results);

/*
 * The memory analysis: parse, statistics, export (memory_events.*), the
 * memory figure as PNG pages and a PDF, the pages; the table and its
 * statistics left in results.
 */
int cli_run_memory(console *c, const cli_request *request, rli_output_set *set, cli_results *results);

/*
 * The MoE expert load (gmm.c): parse msprobe's group_list.pt dumps (or the gmm_events tables
 * --export wrote: from_tables), export the table (gmm_events.*); the table left in results.
 */
int cli_run_gmm(console *c, const cli_request *request, rli_output_set *set, int from_tables, cli_results *results);

/* Writes summary.json from whichever statistics results holds. */
int cli_write_summary(console *c, const cli_request *request, const cli_results *results, rli_output_set *set);
void cli_results_dispose(cli_results *results);

/*
 * --baseline: waits for the baseline, compares, says each regression on a line of its own
 * (kept under -q when --fail-on-regression asks for a verdict), and leaves the comparison in
 * results for the summary and the report; with png asked for, compare.png into set.
 */
int cli_run_compare(console *c, const cli_request *request, cli_baseline *baseline, rli_output_set *set,
		    cli_results *results);

/*
 * compare.html (compare_html.c), when the run compares timelines and html is asked for:
 * both runs' timelines on one x range and the sortable table of phase changes.
 */
int cli_write_compare_html(console *c, const cli_request *request, const cli_baseline *baseline,
			   const cli_results *results, rli_output_set *set);

/* The report (rl_insight_report.pdf) from what the analyses kept. */
int cli_write_report(console *c, const cli_request *request, const cli_results *results, rli_output_set *set);

#endif

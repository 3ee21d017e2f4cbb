/* analyses.h: the analysis registry: what each analysis a run can make does at each stage of the run, and the run-level steps that read them all. */
#ifndef RLI_CLI_ANALYSES_H
#define RLI_CLI_ANALYSES_H

#include "args.h"
#include "baseline.h"
#include "compare/compare.h"
#include "console.h"
#include "layout/layout.h"
#include "memory/memory_devices.h"
#include "report/report.h"
#include "results.h"

#include <stdio.h>

/* What an analysis returns besides library codes: it was optional and the input holds none of it. */
#define CLI_SKIPPED 1

/* What each stage of a run is handed: the request, its outputs, and what the analyses leave. */
typedef struct {
	console *c;
	const cli_request *request;
	rli_output_set *set;       /* NULL: a validation-only run */
	cli_results *results;
	int found_tables;          /* detection found the tables --export wrote (their origin is named) */
} cli_run;

/*
 * One analysis a run can make, in the manner of the parsers' table (src/parse/formats.c): a
 * const table per analysis, defined in the analysis's own file and listed once in analyses.c.
 * The run loop (main.c) walks the list for every stage; a new analysis is one file and one line.
 */
typedef struct {
	const char *name;        /* "timeline", as messages name it */
	int bit;                 /* its bit of cli_request.analyses: the request names it */
	int always;              /* with no analysis named it is made, found in the tree or not */
	/*
	 * With no analysis named, before anything is parsed: whether the input tree holds it, said in
	 * a line. 1 found, 0 not, below 0 a failure (said). NULL: only named, or always.
	 */
	int (*detect)(cli_run *run);
	/*
	 * After the analyses before it have parsed: whether what they read holds it (the PyTorch
	 * traces' [memory] events), said in a line. 1 found, 0 not. NULL: nothing to look at.
	 */
	int (*detect_read)(cli_run *run);
	/*
	 * Parses its input into run->results. optional: another analysis was found and none was
	 * named, so an input without this one is said in a notice and gives CLI_SKIPPED. With an
	 * output set it names its first event (cli_results_saw_first), and the page the others
	 * link to: every analysis parses before any analyses, so all count from one t = 0.
	 */
	int (*parse)(cli_run *run, int optional);
	/*
	 * With an output set: its statistics, its tables (--export) and its figures into the set,
	 * the statistics left in run->results. The analysis orders them: the memory's statistics
	 * are worked out on a second core beside its outputs.
	 */
	int (*analyse)(cli_run *run);
	/* Its statistics in results, or NULL when it left none: the summary, comparison and report read them. */
	const void *(*statistics)(const cli_results *results);
	/* Its part of summary.json (rli_summary_section's writer) from its statistics. */
	int (*summary)(FILE *fp, const void *statistics);
	/* Its part of a side of a comparison, from its statistics (this run's and a parsed baseline's). NULL: none. */
	int (*compare_side)(rli_compare_side *side, const void *statistics);
	/* --baseline: its figures of the comparison (compare.png, compare.html). NULL: none. */
	int (*compare_outputs)(cli_run *run, const cli_baseline *baseline);
	/* Its part of the report's input; 1 when it gave one, 0 when it has nothing to report. NULL: none. */
	int (*report_input)(rli_report_input *input, const cli_results *results);
} cli_analysis;

extern const cli_analysis cli_analysis_timeline;
extern const cli_analysis cli_analysis_memory;
extern const cli_analysis cli_analysis_gmm;

/* The most analyses the registry holds (bits of cli_request.analyses). */
#define CLI_MAX_ANALYSES 8

/* Every analysis, in the order a run parses them (the memory reads what the timeline's parse found), NULL-terminated. */
extern const cli_analysis *const cli_analyses[];
/*
 * The same analyses in the order a run makes their outputs, once all have parsed (so that every
 * figure counts from the run's t = 0): the memory pages first, for the timeline's rows to link to.
 */
extern const cli_analysis *const cli_analyses_drawn[];

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

/* Writes summary.json from each analysis's statistics in results. */
int cli_write_summary(cli_run *run);

/*
 * --baseline: waits for the baseline, compares, says each regression on a line of its own
 * (kept under -q when --fail-on-regression asks for a verdict), and leaves the comparison in
 * results for the summary and the report; with png asked for, compare.png into set.
 */
int cli_run_compare(cli_run *run, cli_baseline *baseline);
/* One change on a line of its own: "<what>actor_update update_actor: median 812 ms -> 975 ms (+20.0%), beyond noise (...)". */
void cli_say_change(console *c, int verbosity, const char *what, const rli_phase_change *change);

/*
 * The timeline's figures of a comparison: compare.png with png asked for (compare.c), and
 * compare.html with html (compare_html.c): both runs' timelines on one x range and the sortable
 * table of phase changes. Nothing when the comparison has no timelines.
 */
int cli_draw_compare_png(cli_run *run);
int cli_write_compare_html(cli_run *run, const cli_baseline *baseline);

/* The report (rl_insight_report.pdf) from each analysis's part; CLI_SKIPPED when none has one. */
int cli_write_report(cli_run *run);

/*
 * The run's home page, index.html (home.c), when the run has one (results->run.home): what was
 * analysed, the findings, the memory devices with their peaks, and an entry for every file in
 * the run's set, which it must follow.
 */
int cli_write_home(cli_run *run);

#endif

/* args.h: the command line, both styles (flags and key=value), mapped to one request. */
#ifndef RLI_CLI_ARGS_H
#define RLI_CLI_ARGS_H

#include "rl_insight.h"
#include "layout/colormap.h"
#include "report/report.h"
#include "stats/gmm_matrix.h"

#include <stdio.h>

#define RLI_MAX_OUTPUTS 8

typedef enum { CLI_RUN = 0, CLI_HELP, CLI_VERSION } cli_action;

/* The analyses a run makes: bits; none named means every one the input holds. */
enum { CLI_TIMELINE = 1, CLI_MEMORY = 2, CLI_GMM = 4 };

typedef struct {
	cli_action action;
	const char *input_path;
	const char *output_path;        /* default "output" */
	const char *rank_list;          /* default "all" */
	rli_profiler profiler;          /* the timeline's format; default auto */
	int analyses;                   /* CLI_TIMELINE | CLI_MEMORY | CLI_GMM; 0: what the input holds */
	const char *role_list;          /* memory.parser.role: roles to keep, or NULL for all */
	const char *step_list;          /* heatmap.parser.step (--step): GMM dumps' steps to keep, or NULL for all */
	const char *gmm_role_list;      /* heatmap.parser.role (--role): GMM dumps' roles to keep, or NULL for all */
	int gmm_dpi;                    /* heatmap.visualizer.dpi (default 200) */
	rli_colormap gmm_cmap;          /* heatmap.visualizer.cmap (default viridis) */
	int gmm_per_layer;              /* heatmap.visualizer.gmm_per_layer (default 3) */
	int memory_torch;               /* the memory analysis reads PyTorch [memory] events, not Ascend records */
	unsigned memory_devices;        /* torch_memory: RLI_MEMORY_DEVICE_* bits (default the accelerators) */
	/* outputs, in the order given: png, html, pdf (the report), timeline_pdf, memory_pdf */
	const char *vis_types[RLI_MAX_OUTPUTS];
	int vis_count;
	int export_csv, export_jsonl;
	rli_timeline_options timeline;
	rli_report_options report;      /* page size, orientation, date; paths filled in by the run */
	char pdf_date[64];              /* --pdf-date as "YYYY-MM-DDTHH:MM:SSZ", or "" for the fixed date */
	const char *baseline;           /* --baseline: the run to compare with, or NULL */
	int fail_on_regression;         /* 1: a regression beyond regression_threshold exits 6 */
	double regression_threshold;    /* a ratio: 0.05 for 5% */
	unsigned jobs;                  /* 0 = CPU count */
	unsigned shard_index, shard_count; /* --shard K/N; shard_count 0: the whole input */
	int verbosity;                  /* -1 quiet, 0 default, 1 verbose, 2 debug */
	int no_wait;                    /* --no-wait: another run's output folder fails the run (exit 7) */
	const char *history_path;       /* --history: the run history (SQLite) to append to, or NULL */
	const char *run_label;          /* --run-label: this run's label there (a commit), or NULL */
	int history_window;             /* --history-window: the runs a verdict is made against (0: 7) */
	char **owned;                   /* values read from config_path files */
	size_t owned_count;
} cli_request;

/* The defaults: output "output", every rank, the format told from the input. */
void cli_request_init(cli_request *request);

/*
 * Applies the keys of a configuration file's bytes (as config_path=FILE does)
 * to a request; path names it in messages. The fuzzers' way in, on memory.
 */
int cli_apply_config_text(cli_request *request, const char *path, const char *text, size_t length);

/*
 * Fills *request from argv. Returns RLI_OK, or RLI_EUSAGE with a message in
 * rli_error_last(). Strings point into argv or static storage.
 */
int cli_parse_args(cli_request *request, int argc, char **argv);

/* 1: the request asks for this output (a vis_types name). */
int cli_wants(const cli_request *request, const char *output);

/* Frees what cli_parse_args allocated. */
void cli_request_dispose(cli_request *request);

/* The --help text. */
void cli_print_help(FILE *fp);

#endif

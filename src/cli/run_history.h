/* run_history.h: --history: this run appended to the run history, compared with the last runs, its trend drawn; and the `rl-insight history` command. */
#ifndef RLI_CLI_HISTORY_H
#define RLI_CLI_HISTORY_H

#include "analyses.h"
#include "history_args.h"
#include "history/trend.h"
#include "layout/trend_figure.h"

/* What a run returns beyond library codes: the history could not be read or written (exit status 8). */
#define CLI_HISTORY_FAILED (RLI_EPARTIAL - 3)
/* The verdict against the last runs found a regression (exit status 6, as main.c's CLI_REGRESSED). */
#define CLI_HISTORY_REGRESSED (RLI_EPARTIAL - 1)

typedef struct {
	rli_history *db;
	int failed;                     /* an error of the history was said: the run ends with status 8 */
	rli_history_run run;            /* this run's row, appended once its outputs are written */
	rli_compare_side *side;         /* this run as the history keeps it */
	rli_history_expert *experts;    /* its expert load's layers per step (the GMM analysis's), expert_count */
	size_t expert_count;
	rli_history_series series;      /* the runs before it, of its input and label family */
	rli_history_verdict *verdict;   /* NULL: no verdict (a --baseline run, or too few runs before) */
	rli_trend *trend;
	rli_trend_figure *report_trend; /* laid out for the report, when it is asked for */
} cli_history;

/*
 * Before the run's outputs are committed: the history opened (created, migrated), the runs before
 * this one read, the verdict said (without --baseline), trend.png and trend.html into set, the
 * report's trend left in results. A failure of the history is said and remembered, never stops
 * the other outputs: RLI_OK but for out of memory, and for an output of the set that failed.
 */
int cli_history_before_commit(cli_run *run, cli_history *h);
/*
 * After the commit, given the run's result: a run that succeeded is appended (one transaction);
 * one that failed or skipped units is not. Returns the run's result, or CLI_HISTORY_FAILED, or
 * CLI_HISTORY_REGRESSED with --fail-on-regression.
 */
int cli_history_after_commit(cli_run *run, cli_history *h, int result);
void cli_history_dispose(cli_history *h);

/* `rl-insight history FILE [list | show ID | delete ID | import SUMMARY...]`: the exit status. */
int cli_history_command(int argc, char **argv);

#endif

/* console.h: what the command says on stderr: errors always, warnings and notices unless -q, progress on a terminal. */
#ifndef RLI_CLI_CONSOLE_H
#define RLI_CLI_CONSOLE_H

#include "rl_insight.h"

#include <stdio.h>

typedef struct {
	int verbosity;   /* -1 quiet, 0 default, 1 verbose, 2 debug */
	int status_line; /* a transient progress line is on the terminal */
} console;

/* text on fp with its control characters escaped (\n, \x1b), but for the line breaks of a "  - " list. */
void cli_put_message(FILE *fp, const char *text);
/* Erases the progress line, if one is shown. */
void cli_clear_status(console *c);
/* "rl-insight: <what>..." on a terminal, replaced by the next line; nothing otherwise. */
void cli_show_status(console *c, const char *what);
/* One line, "rl-insight: <prefix><text>", when the verbosity is at least min_verbosity. */
void cli_say(console *c, int min_verbosity, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The library's log callback: ctx is the console. */
void cli_log_line(void *ctx, rli_log_level level, const char *line);
double cli_now_ms(void);

/* The worse of two results: a failure over a skipped unit over success, the first failure kept. */
static inline int cli_worse(int a, int b)
{
	if (a < 0 && a != RLI_EPARTIAL)
		return a;
	if (b < 0 && b != RLI_EPARTIAL)
		return b;
	return a == RLI_EPARTIAL || b == RLI_EPARTIAL ? RLI_EPARTIAL : RLI_OK;
}
/* On a terminal (or with -v) each output written, with its size; nothing for cron. */
void cli_report_outputs(console *c, const rli_output_set *set);

#endif

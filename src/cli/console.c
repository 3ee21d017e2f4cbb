/* console.c: what the command says on stderr: errors always, warnings and notices unless -q, progress on a terminal. */
#include "console.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

void cli_clear_status(console *c)
{
	if (c->status_line) {
		fputs("\r\033[K", stderr);
		c->status_line = 0;
	}
}

/* Progress goes to stderr only when it is a terminal, and is erased by the next line. */
void cli_show_status(console *c, const char *what)
{
	if (c->verbosity < 0 || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[Krl-insight: %s...", what);
	fflush(stderr);
	c->status_line = 1;
}

void cli_say(console *c, int min_verbosity, const char *prefix, const char *fmt, ...)
{
	va_list ap;
	if (c->verbosity < min_verbosity)
		return;
	cli_clear_status(c);
	fprintf(stderr, "rl-insight: %s", prefix);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Library log lines: errors always, warnings unless -q, details with -v. */
void cli_log_line(void *ctx, rli_log_level level, const char *line)
{
	console *c = ctx;
	switch (level) {
	case RLI_LOG_ERROR:
		cli_say(c, -1, "error: ", "%s", line);
		break;
	case RLI_LOG_WARN:
		cli_say(c, 0, "warning: ", "%s", line);
		break;
	case RLI_LOG_NOTICE:
		cli_say(c, 0, "", "%s", line);
		break;
	case RLI_LOG_INFO:
		cli_say(c, 1, "", "%s", line);
		break;
	default:
		cli_say(c, 2, "debug: ", "%s", line);
		break;
	}
}

double cli_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* "1.2 MB": sizes as a person reads them. */
static void format_size(char *out, size_t size, uint64_t bytes)
{
	static const char *const units[] = { "bytes", "kB", "MB", "GB", "TB" };
	double value = (double)bytes;
	size_t unit = 0;

	while (value >= 1000.0 && unit + 1 < sizeof(units) / sizeof(units[0])) {
		value /= 1000.0;
		unit++;
	}
	if (unit == 0)
		snprintf(out, size, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(out, size, "%.1f %s", value, units[unit]);
}

/* On a terminal (or with -v) each output written, with its size; nothing for cron. */
void cli_report_outputs(console *c, const rli_output_set *set)
{
	if (c->verbosity < 0 || (c->verbosity == 0 && !isatty(STDERR_FILENO)))
		return;
	for (size_t i = 0; i < rli_output_set_count(set); i++) {
		uint64_t bytes;
		const char *path = rli_output_set_path(set, i, &bytes);
		char size[32];
		format_size(size, sizeof(size), bytes);
		cli_say(c, 0, "", "wrote %s (%s)", path, size);
	}
}


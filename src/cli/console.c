/* console.c: what the command says on stderr: errors always, warnings and notices unless -q, progress on a terminal. */
#include "console.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * Every message goes out through here, so a name in it (a file called "a<newline>b.json.gz", a
 * role folder holding an escape sequence) cannot split the message or drive the terminal: control
 * characters are written as C writes them (\n, \t, \x1b), C1 controls (U+0080 to U+009F) as
 * \u0080. The one line break kept is a report's own, before each "  - " item of a list.
 */
void cli_put_message(FILE *fp, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '\n' && strncmp((const char *)p + 1, "  - ", 4) == 0)
			fputc('\n', fp);
		else if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p == '\r')
			fputs("\\r", fp);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(fp, "\\u%04x", *++p);
		else
			fputc(*p, fp);
	}
}

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
	fputs("\r\033[Krl-insight: ", stderr);
	cli_put_message(stderr, what);
	fputs("...", stderr);
	fflush(stderr);
	c->status_line = 1;
}

void cli_say(console *c, int min_verbosity, const char *prefix, const char *fmt, ...)
{
	va_list ap;
	char small[1024], *text = small;
	int length;
	if (c->verbosity < min_verbosity)
		return;
	cli_clear_status(c);
	va_start(ap, fmt);
	length = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	/* a validation report naming many files is longer: formatted again into room of its size */
	if (length >= (int)sizeof(small) && (text = malloc((size_t)length + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(text, (size_t)length + 1, fmt, ap);
		va_end(ap);
	}
	if (!text)
		text = small; /* out of memory: the message cut short, still said */
	/*
	 * One line at a time: stderr is unbuffered, so each piece is a write of its own, and the
	 * baseline's thread says its lines while this run's are said.
	 */
	flockfile(stderr);
	fprintf(stderr, "rl-insight: %s", prefix);
	if (length >= 0)
		cli_put_message(stderr, text);
	fputc('\n', stderr);
	funlockfile(stderr);
	if (text != small)
		free(text);
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


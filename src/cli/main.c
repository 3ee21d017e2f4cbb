/* main.c: the rl-insight command: parse, export, lay out, render, and an honest exit status. */
#include "args.h"
#include "common/atomic_file.h"
#include "common/strutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	int verbosity;   /* -1 quiet, 0 default, 1 verbose, 2 debug */
	int status_line; /* a transient progress line is on the terminal */
} console;

static void clear_status(console *c)
{
	if (c->status_line) {
		fputs("\r\033[K", stderr);
		c->status_line = 0;
	}
}

/* Progress goes to stderr only when it is a terminal, and is erased by the next line. */
static void show_status(console *c, const char *what)
{
	if (c->verbosity < 0 || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[Krl-insight: %s...", what);
	fflush(stderr);
	c->status_line = 1;
}

static void say(console *c, int min_verbosity, const char *prefix, const char *fmt, ...)
{
	va_list ap;
	if (c->verbosity < min_verbosity)
		return;
	clear_status(c);
	fprintf(stderr, "rl-insight: %s", prefix);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Library log lines: errors always, warnings unless -q, details with -v. */
static void log_line(void *ctx, rli_log_level level, const char *line)
{
	console *c = ctx;
	switch (level) {
	case RLI_LOG_ERROR:
		say(c, -1, "error: ", "%s", line);
		break;
	case RLI_LOG_WARN:
		say(c, 0, "warning: ", "%s", line);
		break;
	case RLI_LOG_INFO:
		say(c, 1, "", "%s", line);
		break;
	default:
		say(c, 2, "debug: ", "%s", line);
		break;
	}
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Maps a library return code to the documented exit status. */
static int exit_status(int code)
{
	return code < 0 && code >= RLI_EPARTIAL ? -code : (code < 0 ? 1 : 0);
}

/* Writes one output file into the output folder; returns a library code. */
static int write_export(console *c, const rli_events *events, rli_export_format format,
			const char *out_dir, const char *file_name)
{
	char *path = rli_path_join(out_dir, file_name);
	double t = now_ms();
	int error;
	if (!path)
		return RLI_ERROR;
	error = rli_events_export(events, format, path);
	if (error < 0) {
		say(c, -1, "error: ", "%s", rli_error_last());
	} else {
		say(c, 1, "", "timing: export %s %.1f ms", format == RLI_EXPORT_CSV ? "csv" : "jsonl", now_ms() - t);
		say(c, 1, "", "wrote %s", path);
	}
	free(path);
	return error;
}

static int render_all(console *c, const cli_request *request, const rli_events *events)
{
	rli_timeline *timeline = NULL;
	int worst = RLI_OK;
	double t = now_ms();
	int error;

	show_status(c, "laying out");
	error = rli_timeline_layout(&timeline, events, &request->timeline);
	if (error < 0) {
		say(c, -1, "error: ", "%s", rli_error_last());
		return error;
	}
	say(c, 1, "", "timing: layout %.1f ms", now_ms() - t);

	for (int i = 0; i < request->vis_count; i++) {
		const char *name = request->vis_types[i];
		char *path = rli_path_join(request->output_path, rli_backend_file_name(name));
		char what[64];
		if (!path) {
			worst = RLI_ERROR;
			break;
		}
		snprintf(what, sizeof(what), "writing %s", name);
		show_status(c, what);
		t = now_ms();
		error = rli_render(timeline, name, path);
		if (error < 0) {
			say(c, -1, "error: ", "%s", rli_error_last());
			/* keep going: one unwritable output should not cost the others */
			if (worst == RLI_OK || error == RLI_ERROR)
				worst = error;
		} else {
			say(c, 1, "", "timing: render %s %.1f ms", name, now_ms() - t);
			say(c, 1, "", "wrote %s", path);
		}
		free(path);
	}
	rli_timeline_free(timeline);
	return worst;
}

static int run(console *c, const cli_request *request)
{
	rli_parse_options options = { 0 };
	rli_events *events = NULL;
	rli_profiler detected = RLI_PROFILER_AUTO;
	int parse_result, result;
	double t = now_ms();

	options.profiler = request->profiler;
	options.rank_list = request->rank_list;
	options.jobs = request->jobs;
	options.log = log_line;
	options.log_ctx = c;

	show_status(c, "parsing");
	parse_result = rli_parse(&events, &detected, request->input_path, &options);
	if (parse_result < 0 && parse_result != RLI_EPARTIAL) {
		say(c, -1, "error: ", "%s", rli_error_last());
		rli_events_free(events);
		return parse_result;
	}
	/* With -v the library's own line says it, with the unit count. */
	if (request->profiler == RLI_PROFILER_AUTO && c->verbosity == 0)
		say(c, 0, "", "detected %s profiles in %s", rli_profiler_name(detected),
		    request->input_path);
	say(c, 1, "", "timing: parse %.1f ms, %zu events", now_ms() - t, rli_events_count(events));

	if (!request->export_csv && !request->export_jsonl && !request->vis_count) {
		result = RLI_OK; /* a validation-only run writes nothing, not even the folder */
		goto done;
	}
	if ((result = rli_mkdir_p(request->output_path)) < 0) {
		say(c, -1, "error: ", "%s", rli_error_last());
		goto done;
	}
	if (request->export_csv &&
	    (result = write_export(c, events, RLI_EXPORT_CSV, request->output_path, "rl_events.csv")) < 0)
		goto done;
	if (request->export_jsonl &&
	    (result = write_export(c, events, RLI_EXPORT_JSONL, request->output_path, "rl_events.jsonl")) < 0)
		goto done;
	result = request->vis_count ? render_all(c, request, events) : RLI_OK;

done:
	clear_status(c);
	rli_events_free(events);
	/* A failed output outranks a skipped input unit: the user must learn the worse news. */
	if (result == RLI_OK && parse_result == RLI_EPARTIAL)
		result = RLI_EPARTIAL;
	return result;
}

int main(int argc, char **argv)
{
	cli_request request;
	console c = { 0 };
	int error = cli_parse_args(&request, argc, argv);

	if (error < 0) {
		fprintf(stderr, "rl-insight: %s\n", rli_error_last());
		error = exit_status(error);
	} else if (request.action == CLI_HELP) {
		cli_print_help(stdout);
	} else if (request.action == CLI_VERSION) {
		printf("rl-insight %s\n", RLI_VERSION);
	} else {
		c.verbosity = request.verbosity;
		error = exit_status(run(&c, &request));
	}
	cli_request_dispose(&request);
	return error;
}

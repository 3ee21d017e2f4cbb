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
	case RLI_LOG_NOTICE:
		say(c, 0, "", "%s", line);
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

/* Writes the exported table into the run's output set; returns a library code. */
static int write_export(console *c, const rli_events *events, rli_export_format format,
			const char *out_dir, const char *file_name, rli_output_set *set)
{
	char *path = rli_path_join(out_dir, file_name);
	int error;
	if (!path)
		return rli_error_oom();
	error = rli_events_export(events, format, path, set);
	if (error < 0)
		say(c, -1, "error: ", "%s", rli_error_last());
	free(path);
	return error;
}

static int is_raster(const char *backend_name)
{
	return strcmp(backend_name, "png") == 0;
}

/*
 * Lays the timeline out for one medium. A PNG needs its own layout only when
 * the vector one is too tall for a raster; otherwise one layout serves all.
 */
static int lay_out(console *c, rli_timeline **out, const cli_request *request,
		   const rli_events *events, rli_medium medium)
{
	rli_timeline_options options = request->timeline;
	double t = now_ms();
	int error;

	options.medium = medium;
	show_status(c, "laying out");
	if ((error = rli_timeline_layout(out, events, &options)) < 0) {
		say(c, -1, "error: ", "%s", rli_error_last());
		return error;
	}
	say(c, 1, "", "timing: layout %.1f ms", now_ms() - t);
	return RLI_OK;
}

static int render_all(console *c, const cli_request *request, const rli_events *events,
		      rli_output_set *set)
{
	rli_timeline *vector = NULL, *raster = NULL;
	int wants_raster = 0, wants_vector = 0, error = RLI_OK;
	double scale;

	for (int i = 0; i < request->vis_count; i++) {
		if (is_raster(request->vis_types[i]))
			wants_raster = 1;
		else
			wants_vector = 1;
	}
	if (wants_vector && (error = lay_out(c, &vector, request, events, RLI_MEDIUM_VECTOR)) < 0)
		goto done;
	if (wants_raster && (!vector || rli_document_raster_scale(rli_timeline_document(vector)) == 0.0) &&
	    (error = lay_out(c, &raster, request, events, RLI_MEDIUM_RASTER)) < 0)
		goto done;
	if (wants_raster) {
		scale = rli_document_raster_scale(rli_timeline_document(raster ? raster : vector));
		if (scale < request->timeline.scale)
			say(c, 1, "", "the PNG is drawn at scale %g, not %d: a %d-px-wide page at scale %d "
			    "would pass the 32767-pixel limit of PNG images", scale, request->timeline.scale,
			    request->timeline.width, request->timeline.scale);
	}

	for (int i = 0; i < request->vis_count; i++) {
		const char *name = request->vis_types[i];
		const rli_timeline *timeline = is_raster(name) && raster ? raster : vector;
		char what[64];
		double t = now_ms();

		snprintf(what, sizeof(what), "writing %s", name);
		show_status(c, what);
		error = rli_render(rli_timeline_document(timeline), name, request->output_path, set);
		/* One failed output fails the run: the set is written whole or not at all. */
		if (error < 0) {
			say(c, -1, "error: ", "%s", rli_error_last());
			break;
		}
		say(c, 1, "", "timing: render %s %.1f ms", name, now_ms() - t);
	}

done:
	rli_timeline_free(vector);
	rli_timeline_free(raster);
	return error;
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
static void report_outputs(console *c, const rli_output_set *set)
{
	if (c->verbosity < 0 || (c->verbosity == 0 && !isatty(STDERR_FILENO)))
		return;
	for (size_t i = 0; i < rli_output_set_count(set); i++) {
		uint64_t bytes;
		const char *path = rli_output_set_path(set, i, &bytes);
		char size[32];
		format_size(size, sizeof(size), bytes);
		say(c, 0, "", "wrote %s (%s)", path, size);
	}
}

static int run(console *c, const cli_request *request)
{
	rli_parse_options options = { 0 };
	rli_events *events = NULL;
	rli_output_set *set = NULL;
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
	say(c, 1, "", "timing: parse %.1f ms, %zu events", now_ms() - t, rli_events_count(events));

	if (!request->export_csv && !request->export_jsonl && !request->vis_count) {
		result = RLI_OK; /* a validation-only run writes nothing, not even the folder */
		goto done;
	}
	if ((result = rli_mkdir_p(request->output_path)) < 0 || (result = rli_output_set_new(&set)) < 0) {
		say(c, -1, "error: ", "%s", rli_error_last());
		goto done;
	}
	if (request->export_csv &&
	    (result = write_export(c, events, RLI_EXPORT_CSV, request->output_path, "rl_events.csv", set)) < 0)
		goto done;
	if (request->export_jsonl &&
	    (result = write_export(c, events, RLI_EXPORT_JSONL, request->output_path, "rl_events.jsonl", set)) < 0)
		goto done;
	if (request->vis_count && (result = render_all(c, request, events, set)) < 0)
		goto done;
	if ((result = rli_output_set_commit(set)) < 0) {
		say(c, -1, "error: ", "%s", rli_error_last());
		goto done;
	}
	clear_status(c);
	report_outputs(c, set);

done:
	clear_status(c);
	rli_output_set_free(set);
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

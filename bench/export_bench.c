/* export_bench.c: throughput of the shortest-digits printer alone and of --export csv|jsonl on a parsed table. */
#include "common/shortest_double.h"
#include "events/events.h"
#include "rl_insight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall and CPU seconds: on a shared machine the CPU time is the steadier of the two. */
typedef struct {
	double wall, cpu;
} elapsed;

static elapsed now(void)
{
	elapsed e = { clock_s(CLOCK_MONOTONIC), clock_s(CLOCK_PROCESS_CPUTIME_ID) };
	return e;
}

/* The best of the runs so far, wall and CPU each on its own. */
static void keep_best(elapsed *best, elapsed start, int first)
{
	elapsed end = now();
	double wall = end.wall - start.wall, cpu = end.cpu - start.cpu;
	if (first || wall < best->wall)
		best->wall = wall;
	if (first || cpu < best->cpu)
		best->cpu = cpu;
}

static void usage(void)
{
	fprintf(stderr, "usage: export-bench --input PATH [--profiler mstx|torch|nvtx|auto] [--rows N]\n"
			"                    [--repeat R] --output DIR\n"
			"Parses PATH, repeats its rows until the table has at least N (default 1000000), then\n"
			"times the printer alone (every start, end and duration) and rli_events_export to DIR\n"
			"(on tmpfs such as /dev/shm the disk drops out; on a disk the fsync counts).\n");
	exit(2);
}

/* Best of repeat runs of the printer over the table's numbers: seconds for all of them. */
static elapsed time_printer(const rli_events *ev, int repeat, int use_printf, size_t *bytes)
{
	elapsed best = { 0, 0 };
	char buf[64];
	for (int r = 0; r < repeat; r++) {
		size_t total = 0;
		elapsed t = now();
		for (size_t i = 0; i < ev->count; i++) {
			double values[3] = { ev->start_ms[i], rli_events_end_ms(ev, i), ev->duration_ms[i] };
			for (int k = 0; k < 3; k++)
				total += use_printf ? (size_t)snprintf(buf, sizeof(buf), "%.17g", values[k])
						    : rli_format_double(buf, values[k]);
		}
		keep_best(&best, t, r == 0);
		*bytes = total;
	}
	return best;
}

/* Best of repeat exports; the file is removed before each, so no run pays for replacing the last. */
static elapsed time_export(const rli_events *ev, rli_export_format format, const char *path, int repeat)
{
	elapsed best = { 0, 0 };
	for (int r = 0; r < repeat; r++) {
		unlink(path);
		elapsed t = now();
		if (rli_events_export(ev, format, path, NULL) < 0) {
			fprintf(stderr, "export-bench: %s\n", rli_error_last());
			exit(1);
		}
		keep_best(&best, t, r == 0);
	}
	return best;
}

int main(int argc, char **argv)
{
	const char *input = NULL, *output = NULL;
	rli_parse_options options = { 0 };
	size_t rows = 1000000;
	int repeat = 3;
	rli_events *events = NULL, *table = NULL;

	options.profiler = RLI_PROFILER_AUTO;
	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "--input") == 0)
			input = argv[++i];
		else if (strcmp(argv[i], "--output") == 0)
			output = argv[++i];
		else if (strcmp(argv[i], "--rows") == 0)
			rows = (size_t)strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--repeat") == 0)
			repeat = atoi(argv[++i]);
		else if (strcmp(argv[i], "--profiler") == 0) {
			if (rli_profiler_from_name(&options.profiler, argv[++i]) < 0)
				usage();
		} else
			usage();
	}
	if (!input || !output || repeat < 1 || rows < 1)
		usage();

	int error = rli_parse(&events, NULL, input, &options);
	if (error < 0 && error != RLI_EPARTIAL) {
		fprintf(stderr, "export-bench: %s\n", rli_error_last());
		return 1;
	}
	if (rli_events_count(events) == 0) {
		fprintf(stderr, "export-bench: no rows in %s\n", input);
		return 1;
	}
	/* The same rows again and again: the numbers keep the input's shape, the count is what we ask. */
	if (rli_events_new(&table) < 0)
		return 1;
	while (rli_events_count(table) < rows)
		if (rli_events_append_all(table, events) < 0) {
			fprintf(stderr, "export-bench: %s\n", rli_error_last());
			return 1;
		}
	rli_events_free(events);

	size_t n = rli_events_count(table), numbers = 3 * n, bytes_shortest, bytes_printf;
	double millions = (double)n / 1e6;
	elapsed shortest = time_printer(table, repeat, 0, &bytes_shortest);
	elapsed printf_17g = time_printer(table, 1, 1, &bytes_printf);
	printf("input %s: %zu rows, %zu numbers (start, end, duration); best of %d, CPU time in brackets\n", input, n,
	       numbers, repeat);
	printf("printer rli_format_double  %5.1f M numbers/s  %5.1f ns a number [%5.1f]  %.3f s per million rows [%.3f]  "
	       "%.2f bytes a number\n",
	       numbers / shortest.wall / 1e6, shortest.wall / numbers * 1e9, shortest.cpu / numbers * 1e9,
	       shortest.wall / millions, shortest.cpu / millions, (double)bytes_shortest / numbers);
	printf("printer %%.17g (before)     %5.1f M numbers/s  %5.1f ns a number [%5.1f]  %.3f s per million rows [%.3f]  "
	       "%.2f bytes a number\n",
	       numbers / printf_17g.wall / 1e6, printf_17g.wall / numbers * 1e9, printf_17g.cpu / numbers * 1e9,
	       printf_17g.wall / millions, printf_17g.cpu / millions, (double)bytes_printf / numbers);

	const struct {
		rli_export_format format;
		const char *file;
	} formats[] = { { RLI_EXPORT_CSV, "rl_events.csv" }, { RLI_EXPORT_JSONL, "rl_events.jsonl" } };
	for (size_t f = 0; f < 2; f++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", output, formats[f].file);
		elapsed t = time_export(table, formats[f].format, path, repeat);
		FILE *fp = fopen(path, "rb");
		long size = 0;
		if (fp && fseek(fp, 0, SEEK_END) == 0)
			size = ftell(fp);
		if (fp)
			fclose(fp);
		printf("export %-5s               %5.1f M numbers/s  %5.1f MB/s            %.3f s per million rows [%.3f]  "
		       "%.1f MB\n",
		       f == 0 ? "csv" : "jsonl", numbers / t.wall / 1e6, size / t.wall / 1e6, t.wall / millions,
		       t.cpu / millions, size / 1e6);
	}
	struct rusage usage_now;
	getrusage(RUSAGE_SELF, &usage_now);
	printf("peak RSS %.1f MB\n", usage_now.ru_maxrss / 1024.0);
	rli_events_free(table);
	return 0;
}

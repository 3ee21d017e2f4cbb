/* stats_bench.c: rli_stats_compute alone on a parsed table: the fastest of R runs, wall and CPU, and the peak. */
#include "rl_insight.h"
#include "stats/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double clock_s(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr, "usage: stats-bench --input PATH [--profiler mstx|torch|nvtx|auto] [--repeat R]\n"
			"Parses PATH once, then computes its statistics R times (default 5) and prints the\n"
			"fastest run's wall and CPU time (CPU, the steadier on a shared machine), the rows a\n"
			"second, and the process's peak RSS before and after the statistics.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *input = NULL;
	int repeat = 5;
	rli_parse_options options;
	rli_events *events = NULL;
	struct rusage usage_now;
	double best_wall = 0, best_cpu = 0;
	long parsed_peak;

	rli_parse_options_init(&options);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--input") == 0 && i + 1 < argc)
			input = argv[++i];
		else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
			repeat = atoi(argv[++i]);
		else if (strcmp(argv[i], "--profiler") == 0 && i + 1 < argc) {
			if (rli_profiler_from_name(&options.profiler, argv[++i]) < 0)
				usage();
		} else
			usage();
	}
	if (!input || repeat < 1)
		usage();
	if (rli_parse(&events, NULL, input, &options) < 0) {
		fprintf(stderr, "stats-bench: %s\n", rli_error_last());
		return 1;
	}
	getrusage(RUSAGE_SELF, &usage_now);
	parsed_peak = usage_now.ru_maxrss;
	for (int r = 0; r < repeat; r++) {
		rli_stats *stats = NULL;
		double wall = clock_s(CLOCK_MONOTONIC), cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		if (rli_stats_compute(&stats, events) < 0) {
			fprintf(stderr, "stats-bench: %s\n", rli_error_last());
			rli_events_free(events);
			return 1;
		}
		wall = clock_s(CLOCK_MONOTONIC) - wall;
		cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu;
		if (r == 0 || wall < best_wall)
			best_wall = wall;
		if (r == 0 || cpu < best_cpu)
			best_cpu = cpu;
		rli_stats_free(stats);
	}
	getrusage(RUSAGE_SELF, &usage_now);
	printf("%zu rows: statistics %.1f ms wall, %.1f ms CPU (fastest of %d), %.2f M rows/s; peak RSS %.1f MB parsed, %.1f MB after\n",
	       rli_events_count(events), best_wall * 1e3, best_cpu * 1e3, repeat,
	       best_wall > 0 ? (double)rli_events_count(events) / best_wall / 1e6 : 0, parsed_peak / 1024.0,
	       usage_now.ru_maxrss / 1024.0);
	rli_events_free(events);
	return 0;
}

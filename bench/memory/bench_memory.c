/* bench_memory.c: rli_memory_parse timed on a tree, as the benchmark runs it (threads, rows, peak RSS); and the PNG figure's layout and render. */
#include "rl_insight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void log_line(void *ctx, rli_log_level level, const char *line)
{
	(void)ctx;
	if (level <= RLI_LOG_WARN)
		fprintf(stderr, "bench-memory: %s\n", line);
}

int main(int argc, char **argv)
{
	rli_memory_parse_options options;
	rli_memory_match_counts counts;
	rli_memory *memory = NULL;
	struct rusage usage;
	double start, seconds;
	int rc;

	if (argc < 2) {
		fputs("Usage: bench-memory DIR [JOBS] [EXPORT.csv | --figure=OUT_DIR]\nParses the memory captures under "
		      "DIR with rli_memory_parse; prints rows, seconds and peak RSS.\nWith --figure, also lays out the "
		      "PNG figure and renders it into OUT_DIR, each timed.\n", stderr);
		return 2;
	}
	rli_memory_parse_options_init(&options);
	options.jobs = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1;
	options.log = log_line;
	start = now_seconds();
	rc = rli_memory_parse(&memory, argv[1], &options);
	seconds = now_seconds() - start;
	if (rc != RLI_OK && rc != RLI_EPARTIAL) {
		fprintf(stderr, "bench-memory: %s\n", rli_error_last());
		return 1;
	}
	if (argc > 3 && strncmp(argv[3], "--figure=", 9) == 0) {
		/* The figure as the command line draws a PNG: a raster layout at the default width and scale. */
		rli_timeline_options figure_options;
		rli_memory_figure *figure = NULL;
		double laid_out;
		rli_timeline_options_init(&figure_options);
		figure_options.medium = RLI_MEDIUM_RASTER;
		start = now_seconds();
		rc = rli_memory_layout(&figure, memory, &figure_options);
		laid_out = now_seconds();
		if (rc == RLI_OK)
			rc = rli_render(rli_memory_figure_document(figure), "png", argv[3] + 9, NULL);
		if (rc != RLI_OK) {
			fprintf(stderr, "bench-memory: %s\n", rli_error_last());
			return 1;
		}
		printf("layout_seconds %.3f render_png_seconds %.3f ", laid_out - start, now_seconds() - laid_out);
		rli_memory_figure_free(figure);
	} else if (argc > 3 && rli_memory_export(memory, RLI_EXPORT_CSV, argv[3], NULL) != RLI_OK) {
		fprintf(stderr, "bench-memory: %s\n", rli_error_last());
		return 1;
	}
	rli_memory_count_matches(&counts, memory);
	getrusage(RUSAGE_SELF, &usage);
	printf("rows %zu seconds %.3f peak_rss_kb %ld inside %zu after_end %zu unmatched %zu\n",
	       rli_memory_count(memory), seconds, usage.ru_maxrss, counts.matched_inside, counts.matched_after_end,
	       counts.unmatched);
	rli_memory_free(memory);
	return 0;
}

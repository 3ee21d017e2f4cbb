/* csv_bare.c: the memory benchmark's CSV floor: libcsv with empty callbacks over the same bytes and chunks. */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Counting the fields keeps the callbacks from being optimised into nothing. */
static void on_field(void *data, size_t length, void *ctx)
{
	(void)data;
	(void)length;
	++*(unsigned long long *)ctx;
}

static void on_row(int terminator, void *ctx)
{
	(void)terminator;
	(void)ctx;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t chunk_size = 64 * 1024;
	unsigned char *chunk = malloc(chunk_size);
	unsigned long long fields = 0;
	long long bytes = 0;
	double start;
	struct rusage usage;

	if (argc < 2 || !chunk) {
		fputs("Usage: csv-bare FILE...\nParses CSV with libcsv (the memory parser's options) and empty callbacks;\n"
		      "prints bytes, seconds, MB/s and peak RSS.\n", stderr);
		return 2;
	}
	start = now_seconds();
	for (int i = 1; i < argc; i++) {
		struct csv_parser parser;
		int fd = open(argv[i], O_RDONLY);
		ssize_t got;
		if (fd < 0 || csv_init(&parser, CSV_STRICT | CSV_REPALL_NL | CSV_STRICT_FINI) != 0) {
			fprintf(stderr, "csv-bare: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		while ((got = read(fd, chunk, chunk_size)) > 0) {
			bytes += got;
			if (csv_parse(&parser, chunk, (size_t)got, on_field, on_row, &fields) != (size_t)got) {
				fprintf(stderr, "csv-bare: %s: %s\n", argv[i], csv_strerror(csv_error(&parser)));
				return 1;
			}
		}
		csv_fini(&parser, on_field, on_row, &fields);
		csv_free(&parser);
		close(fd);
	}
	double seconds = now_seconds() - start;
	getrusage(RUSAGE_SELF, &usage);
	printf("files %d bytes %lld seconds %.3f MB/s %.1f peak_rss_kb %ld fields %llu\n", argc - 1, bytes, seconds,
	       seconds > 0 ? (double)bytes / 1e6 / seconds : 0.0, usage.ru_maxrss, fields);
	free(chunk);
	return 0;
}

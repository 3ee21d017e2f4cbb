/* yajl_bare.c: the benchmark's floor: a yajl parse with empty callbacks over the same bytes and chunks. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

/* Every callback does nothing; yajl_number keeps yajl from converting numbers it would not need to. */
static int on_null(void *ctx) { (void)ctx; return 1; }
static int on_boolean(void *ctx, int value) { (void)ctx; (void)value; return 1; }
static int on_number(void *ctx, const char *text, size_t length) { (void)ctx; (void)text; (void)length; return 1; }
static int on_string(void *ctx, const unsigned char *text, size_t length) { (void)ctx; (void)text; (void)length; return 1; }
static int on_start_map(void *ctx) { (void)ctx; return 1; }
static int on_map_key(void *ctx, const unsigned char *key, size_t length) { (void)ctx; (void)key; (void)length; return 1; }
static int on_end_map(void *ctx) { (void)ctx; return 1; }
static int on_start_array(void *ctx) { (void)ctx; return 1; }
static int on_end_array(void *ctx) { (void)ctx; return 1; }

static const yajl_callbacks empty_callbacks = {
	on_null, on_boolean, NULL, NULL, on_number, on_string,
	on_start_map, on_map_key, on_end_map, on_start_array, on_end_array,
};

typedef struct {
	char **paths;
	size_t count;
	size_t capacity;
} file_list;

static int ends_with(const char *text, const char *suffix)
{
	size_t n = strlen(text), m = strlen(suffix);
	return n >= m && strcmp(text + n - m, suffix) == 0;
}

static int add_path(file_list *list, const char *path)
{
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? list->capacity * 2 : 64;
		char **grown = realloc(list->paths, capacity * sizeof(*grown));
		if (!grown)
			return -1;
		list->paths = grown;
		list->capacity = capacity;
	}
	if (!(list->paths[list->count] = strdup(path)))
		return -1;
	list->count++;
	return 0;
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory stands for every JSON, JSONL and .json.gz file under it. */
static int collect(file_list *list, const char *path)
{
	struct stat st;
	DIR *dir;
	struct dirent *entry;
	int result = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "yajl-bare: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return add_path(list, path);
	if (!(dir = opendir(path)))
		return -1;
	while (result == 0 && (entry = readdir(dir))) {
		char child[4096];
		if (entry->d_name[0] == '.')
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, entry->d_name);
		if (stat(child, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			result = collect(list, child);
		else if (ends_with(child, ".json") || ends_with(child, ".json.gz") || ends_with(child, ".jsonl"))
			result = add_path(list, child);
	}
	closedir(dir);
	return result;
}

/* Parses one file; adds the bytes handed to yajl to *bytes. */
static int parse_file(const char *path, size_t chunk_size, unsigned char *chunk, long long *bytes)
{
	int gzip = ends_with(path, ".gz");
	int fd = -1;
	gzFile gz = NULL;
	yajl_handle parser = yajl_alloc(&empty_callbacks, NULL, NULL);
	yajl_status status = yajl_status_ok;
	int result = -1;

	if (!parser)
		goto done;
	/* JSON Lines is a stream of values; a trace_view.json or Kineto file is one. */
	yajl_config(parser, yajl_allow_multiple_values, ends_with(path, ".jsonl"));
	if (gzip) {
		if (!(gz = gzopen(path, "rb")))
			goto done;
		gzbuffer(gz, (unsigned)chunk_size);
	} else if ((fd = open(path, O_RDONLY)) < 0) {
		goto done;
	}
	for (;;) {
		ssize_t got = gzip ? gzread(gz, chunk, (unsigned)chunk_size) : read(fd, chunk, chunk_size);
		if (got < 0)
			goto done;
		if (got == 0)
			break;
		*bytes += got;
		if ((status = yajl_parse(parser, chunk, (size_t)got)) != yajl_status_ok)
			break;
	}
	if (status == yajl_status_ok)
		status = yajl_complete_parse(parser);
	if (status != yajl_status_ok) {
		unsigned char *message = yajl_get_error(parser, 0, NULL, 0);
		fprintf(stderr, "yajl-bare: %s: %s\n", path, (const char *)message);
		yajl_free_error(parser, message);
		goto done;
	}
	result = 0;
done:
	if (result < 0 && status == yajl_status_ok)
		fprintf(stderr, "yajl-bare: cannot read %s: %s\n", path, strerror(errno));
	if (gz)
		gzclose(gz);
	if (fd >= 0)
		close(fd);
	if (parser)
		yajl_free(parser);
	return result;
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
	file_list files = { 0 };
	unsigned char *chunk = NULL;
	long long bytes = 0;
	int result = 1;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc) {
			chunk_size = (size_t)strtoull(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--help") == 0) {
			puts("Usage: yajl-bare [--chunk BYTES] FILE|DIR...\n"
			     "Parses with yajl and empty callbacks (gzread for .gz, read otherwise);\n"
			     "prints bytes, seconds, MB/s and peak RSS. Directories: every .json, .jsonl, .json.gz.");
			return 0;
		} else if (collect(&files, argv[i]) < 0) {
			goto done;
		}
	}
	if (files.count == 0 || chunk_size == 0) {
		fputs("Usage: yajl-bare [--chunk BYTES] FILE|DIR...\n", stderr);
		result = 2;
		goto done;
	}
	qsort(files.paths, files.count, sizeof(*files.paths), compare_paths);
	if (!(chunk = malloc(chunk_size)))
		goto done;

	double start = now_seconds();
	for (size_t i = 0; i < files.count; i++)
		if (parse_file(files.paths[i], chunk_size, chunk, &bytes) < 0)
			goto done;
	double seconds = now_seconds() - start;
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	printf("files %zu bytes %lld seconds %.3f MB/s %.1f peak_rss_kb %ld\n", files.count, bytes, seconds,
	       seconds > 0 ? (double)bytes / 1e6 / seconds : 0.0, usage.ru_maxrss);
	result = 0;
done:
	for (size_t i = 0; i < files.count; i++)
		free(files.paths[i]);
	free(files.paths);
	free(chunk);
	return result;
}

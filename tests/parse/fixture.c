/* fixture.c: throw-away input trees for the parser tests (files, gzip files, cleanup, captured log). */
#define _XOPEN_SOURCE 700
#include "fixture.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

char *fx_tempdir(void)
{
	const char *base = getenv("TMPDIR");
	char *path = malloc(4096);
	snprintf(path, 4096, "%s/rli-parse-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(path)) {
		perror("mkdtemp");
		exit(1);
	}
	return path;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void fx_remove(const char *path)
{
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fx_path(const char *root, const char *relative)
{
	static char buffer[4096];
	snprintf(buffer, sizeof(buffer), "%s/%s", root, relative);
	return buffer;
}

static void make_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			perror(path);
			exit(1);
		}
		*p = '/';
	}
}

void fx_mkdir(const char *root, const char *relative)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s/", root, relative);
	make_parents(path);
}

void fx_write_bytes(const char *root, const char *relative, const void *data, size_t length)
{
	char path[4096];
	FILE *file;
	snprintf(path, sizeof(path), "%s/%s", root, relative);
	make_parents(path);
	file = fopen(path, "wb");
	if (!file || fwrite(data, 1, length, file) != length || fclose(file) != 0) {
		perror(path);
		exit(1);
	}
}

void fx_write(const char *root, const char *relative, const char *text)
{
	fx_write_bytes(root, relative, text, strlen(text));
}

void fx_write_gz(const char *root, const char *relative, const char *text, int keep)
{
	uLong bound = compressBound((uLong)strlen(text)) + 64;
	unsigned char *out = malloc(bound);
	z_stream z;
	memset(&z, 0, sizeof(z));
	/* windowBits 15 + 16: a gzip wrapper, as torch writes. */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = out;
	z.avail_out = (uInt)bound;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		exit(1);
	fx_write_bytes(root, relative, out, keep >= 100 ? z.total_out : z.total_out * (uLong)keep / 100);
	deflateEnd(&z);
	free(out);
}

void fx_log_fn(void *ctx, rli_log_level level, const char *line)
{
	static const char *const names[] = {"ERROR", "WARN", "NOTICE", "INFO", "DEBUG"};
	fx_log *log = ctx;
	size_t add = strlen(line) + 16;
	log->text = realloc(log->text, log->length + add + 1);
	log->length += (size_t)snprintf(log->text + log->length, add + 1, "%s: %s\n", names[level], line);
}

int fx_log_has(const fx_log *log, const char *needle)
{
	return log->text && strstr(log->text, needle) != NULL;
}

void fx_log_reset(fx_log *log)
{
	free(log->text);
	log->text = NULL;
	log->length = 0;
}

int fx_parse(rli_events **out, const char *root, rli_profiler profiler, const char *rank_list,
	     unsigned jobs, fx_log *log)
{
	rli_parse_options options;
	memset(&options, 0, sizeof(options));
	options.profiler = profiler;
	options.rank_list = rank_list;
	options.jobs = jobs;
	if (log) {
		options.log = fx_log_fn;
		options.log_ctx = log;
	}
	return rli_parse(out, NULL, root, &options);
}

void fx_row(char *buffer, size_t size, const rli_events *events, size_t index)
{
	rli_event e;
	rli_events_get(&e, events, index);
	snprintf(buffer, size, "%s|%s|%s|%.17g|%.17g|%.17g|%lld|%s|%d", e.name, e.role, e.domain,
		 e.start_ms, e.end_ms, e.duration_ms, (long long)e.rank_id, e.tid, e.tid_is_text);
}

char *fx_text(const char *fmt, ...)
{
	static char buffer[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buffer, sizeof(buffer), fmt, ap);
	va_end(ap);
	return buffer;
}

/* fixture.h: throw-away input trees for the parser tests (files, gzip files, cleanup, captured log). */
#ifndef RLI_TEST_PARSE_FIXTURE_H
#define RLI_TEST_PARSE_FIXTURE_H

#include "rl_insight.h"

#include <stddef.h>

/* A fresh empty directory under $TMPDIR; the caller frees the string and calls fx_remove. */
char *fx_tempdir(void);
/* Removes a tree (like rm -rf). */
void fx_remove(const char *path);
/* Writes text to root/relative, creating the parent folders. */
void fx_write(const char *root, const char *relative, const char *text);
void fx_write_bytes(const char *root, const char *relative, const void *data, size_t length);
/* Writes text gzip-compressed; keep < 100 keeps only the first keep percent of the compressed bytes. */
void fx_write_gz(const char *root, const char *relative, const char *text, int keep);
void fx_mkdir(const char *root, const char *relative);
/* printf into a static buffer (one at a time). */
char *fx_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* root + "/" + relative, in a static buffer (one at a time). */
const char *fx_path(const char *root, const char *relative);

/* Every log line of a parse, "<level>: <text>\n" each. */
typedef struct {
	char *text;
	size_t length;
} fx_log;
void fx_log_fn(void *ctx, rli_log_level level, const char *line);
int fx_log_has(const fx_log *log, const char *needle);
void fx_log_reset(fx_log *log);

/* Parses root with these options (log captured into *log if not NULL). */
int fx_parse(rli_events **out, const char *root, rli_profiler profiler, const char *rank_list,
	     unsigned jobs, fx_log *log);

/* One row as "name|role|domain|start|end|duration|rank|tid|is_text" with %.17g doubles. */
void fx_row(char *buffer, size_t size, const rli_events *events, size_t index);

#endif

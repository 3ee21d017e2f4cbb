/* table_origin.c: the input and profiler that the summary.json beside each exported table names, when they all agree. */
#include "table_origin.h"
#include "parse_internal.h"
#include "format.h"
#include "json_stream.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- one summary's "input" ------------------------------------------------------ */

typedef struct {
	rli_json json;     /* its depth: 1 inside the summary's object */
	int in_input;      /* inside the top-level "input" object */
	int key;           /* in it: 1 path, 2 profiler, 0 another */
	int done, oom;
	char *path, *profiler;
} input_reader;

static int on_start(void *ctx)
{
	return rli_json_enter(&((input_reader *)ctx)->json);
}

static int on_end(void *ctx)
{
	input_reader *r = ctx;
	if (r->in_input && r->json.depth == 2) {
		r->done = 1;
		return rli_json_halt(&r->json); /* all that is wanted: the rest is not read */
	}
	rli_json_leave(&r->json);
	return 1;
}

static int on_key(void *ctx, const unsigned char *key, size_t length)
{
	input_reader *r = ctx;
	if (r->json.depth == 1)
		r->in_input = length == 5 && memcmp(key, "input", 5) == 0;
	else if (r->in_input && r->json.depth == 2)
		r->key = length == 4 && memcmp(key, "path", 4) == 0 ? 1
			 : length == 8 && memcmp(key, "profiler", 8) == 0 ? 2 : 0;
	return 1;
}

static int on_string(void *ctx, const unsigned char *text, size_t length)
{
	input_reader *r = ctx;
	char **slot;
	if (!r->in_input || r->json.depth != 2 || !r->key)
		return 1;
	slot = r->key == 1 ? &r->path : &r->profiler;
	free(*slot);
	if (!(*slot = rli_text_copy((const char *)text, length, NULL))) {
		r->oom = 1;
		return rli_json_halt(&r->json);
	}
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_start_map = on_start, .yajl_end_map = on_end, .yajl_start_array = on_start,
	.yajl_end_array = on_end, .yajl_map_key = on_key, .yajl_string = on_string,
};

/*
 * The input a summary names; RLI_OK with both NULL when it names none or cannot be read (a
 * FIFO so named is not waited on: rli_bytes_open refuses it), RLI_ERROR when out of memory.
 */
static int read_input(char **path, char **profiler, const char *summary)
{
	input_reader r = { .path = NULL };
	char *failure = NULL;
	rli_read_result result;

	*path = *profiler = NULL;
	if (rli_json_open(&r.json, &callbacks, &r, 1) < 0)
		return rli_error_oom();
	result = rli_json_read_file(&r.json, summary, &failure);
	rli_json_close(&r.json);
	free(failure);
	if (r.oom || result == RLI_READ_OOM) {
		free(r.path);
		free(r.profiler);
		return rli_error_oom();
	}
	if (!r.done || !r.path || !r.profiler) {
		free(r.path);
		free(r.profiler);
		return RLI_OK;
	}
	*path = r.path;
	*profiler = r.profiler;
	return RLI_OK;
}

/* ---- every table folder's summary --------------------------------------------------- */

typedef struct {
	char *dir;           /* the folder whose entries are being visited */
	int has_table, has_summary;
	char *path, *profiler; /* the origin so far */
	char *origin_dir;    /* the folder whose summary named it first */
	int folders;         /* table folders seen */
	int lost;            /* a table folder without a summary that names its input: no origin to give */
	int error;           /* RLI_EINVALID (message set): two summaries name different runs */
} origin_walk;

/* The same input, however the shard's command line ended it ("prof" and "prof/"). */
static int same_input(const char *a, const char *b)
{
	size_t m = strlen(a), n = strlen(b);
	while (m > 1 && a[m - 1] == '/')
		m--;
	while (n > 1 && b[n - 1] == '/')
		n--;
	return m == n && memcmp(a, b, m) == 0;
}

/*
 * Tables of two runs merged would draw one timeline of both (an MSTX shard and an NVTX shard
 * spanned 56 years): refused, naming both folders and what their summaries say.
 */
static void refuse(origin_walk *w, const char *what, const char *path, const char *profiler)
{
	w->error = rli_error_set(RLI_EINVALID, "%s and %s hold tables of different runs: their summary.json name "
				 "different %ss, %s (%s) and %s (%s); merge the shards of one run only", w->origin_dir,
				 w->dir, what, w->path, w->profiler, path, profiler);
}

/* What the folder just visited says: its summary agrees, or the origin is lost. */
static void folder_done(origin_walk *w)
{
	char *path = NULL, *profiler = NULL, *summary;
	if (!w->dir || !w->has_table || w->error)
		goto done;
	w->folders++;
	if (!w->has_summary) {
		w->lost = 1;
		goto done;
	}
	if (!(summary = rli_path_join(w->dir, "summary.json"))) {
		w->error = rli_error_oom();
		goto done;
	}
	w->error = read_input(&path, &profiler, summary);
	free(summary);
	if (w->error < 0)
		goto done;
	if (!path) {
		w->lost = 1;
	} else if (!w->path) {
		if (!(w->origin_dir = rli_strdup(w->dir))) {
			w->error = rli_error_oom();
			goto done;
		}
		w->path = path;
		w->profiler = profiler;
		path = profiler = NULL;
	} else if (!same_input(w->path, path)) {
		refuse(w, "input", path, profiler);
	} else if (strcmp(w->profiler, profiler) != 0) {
		/*
		 * A shard that held memory records and no bar says "memory"; one with bars names
		 * their format, as one run over both does: the format wins, and two formats differ.
		 */
		if (strcmp(w->profiler, "memory") == 0) {
			free(w->profiler);
			w->profiler = profiler;
			profiler = NULL;
		} else if (strcmp(profiler, "memory") != 0) {
			refuse(w, "profiler", path, profiler);
		}
	}
done:
	free(path);
	free(profiler);
	free(w->dir);
	w->dir = NULL;
	w->has_table = w->has_summary = 0;
}

static int visit(void *ctx, const rli_walk_entry *entry)
{
	origin_walk *w = ctx;
	if (!w->dir || strcmp(w->dir, entry->dir) != 0) {
		folder_done(w);
		if (!(w->dir = rli_strdup(entry->dir)))
			return w->error = rli_error_oom();
	}
	if (!entry->is_dir) {
		w->has_table |= rli_table_file_name(entry->name);
		w->has_summary |= strcmp(entry->name, "summary.json") == 0;
	}
	/* every table folder is seen, even with the origin lost: any two may name different runs */
	return w->error < 0 ? w->error : 0;
}

int rli_table_origin(char **path, char **profiler, const char *input_path)
{
	origin_walk w = { 0 };
	struct stat st;
	int walked;

	*path = *profiler = NULL;
	if (stat(input_path, &st) != 0)
		return RLI_OK;
	if (!S_ISDIR(st.st_mode)) {
		/* One table as the input: its folder's summary. */
		const char *slash = strrchr(input_path, '/');
		char *base = rli_path_base(input_path), *summary;
		struct stat beside;
		if (!base)
			return rli_error_oom();
		w.has_table = rli_table_file_name(base);
		free(base);
		w.dir = slash ? rli_strdup(input_path) : rli_strdup(".");
		if (!w.dir)
			return rli_error_oom();
		if (slash)
			w.dir[slash == input_path ? 1 : slash - input_path] = '\0';
		if (!(summary = rli_path_join(w.dir, "summary.json"))) {
			free(w.dir);
			return rli_error_oom();
		}
		w.has_summary = stat(summary, &beside) == 0 && S_ISREG(beside.st_mode);
		free(summary);
		folder_done(&w);
	} else {
		walked = rli_walk(input_path, visit, NULL, &w);
		if (walked < 0 && !w.error)
			w.error = walked;
		folder_done(&w);
	}
	free(w.origin_dir);
	free(w.dir);
	if (w.error < 0 || w.lost || !w.folders) {
		free(w.path);
		free(w.profiler);
		return w.error < 0 ? w.error : RLI_OK;
	}
	*path = w.path;
	*profiler = w.profiler;
	return RLI_OK;
}

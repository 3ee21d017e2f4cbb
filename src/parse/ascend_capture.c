/* ascend_capture.c: Ascend capture folders (*ascend_pt): where they are, their rank, their role, their order. */
#include "ascend_capture.h"
#include "common/grow.h"
#include "json_stream.h"
#include "parse_internal.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int starts_with(const char *text, const char *prefix)
{
	return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* ---- finding the folders ------------------------------------------------- */

int rli_ascend_is_capture(const rli_walk_entry *entry)
{
	return entry->is_dir && rli_ends_with(entry->name, "ascend_pt");
}

static int collect_capture(void *ctx, const rli_walk_entry *entry)
{
	rli_ascend_captures *list = ctx;
	rli_ascend_capture *capture;
	if (!rli_ascend_is_capture(entry))
		return 0; /* a capture's own sub-folders are searched too, as the reference's walk does */
	if (RLI_GROW(&list->items, &list->capacity, list->count + 1, 16) < 0)
		return RLI_ERROR;
	capture = &list->items[list->count];
	memset(capture, 0, sizeof(*capture));
	capture->dir = rli_strdup(entry->path);
	capture->role = rli_dir_label(entry->dir);
	capture->rank = -1;
	capture->order = list->count;
	list->count++;
	if (!capture->dir || !capture->role)
		return rli_error_oom();
	return 0;
}

/* A folder the walk could not read; a capture folder that is one has no rules checked. */
static int capture_unsearched(void *ctx, const char *dir, const char *why)
{
	rli_ascend_captures *list = ctx;
	list->unsearched++;
	/* Searched from the last found: the walk reads a folder soon after it has listed it. */
	for (size_t i = list->count; i-- > 0;) {
		if (strcmp(list->items[i].dir, dir) == 0) {
			list->items[i].unsearched = 1;
			break;
		}
	}
	return list->discovery ? rli_discovery_unsearched(list->discovery, dir, why) : RLI_OK;
}

/* "20250101_120000_ascend_pt" -> "20250101_120000"; "xxx_ascend_pt" -> "xxx"; else the name. */
static char *timestamp_key(const char *dir)
{
	char *base = rli_path_base(dir);
	const char *cut[4] = {NULL, NULL, NULL, NULL}; /* the last four '_' positions */
	size_t underscores = 0;
	char *key;
	if (!base)
		return NULL;
	for (const char *p = base; *p; p++) {
		if (*p != '_')
			continue;
		cut[0] = cut[1];
		cut[1] = cut[2];
		cut[2] = cut[3];
		cut[3] = p;
		underscores++;
	}
	if (underscores >= 3) {
		/* parts[-4] + "_" + parts[-3]: from after the 4th-last '_' (or the start) to the 2nd-last. */
		const char *from = underscores >= 4 ? cut[0] + 1 : base;
		key = rli_strfmt("%.*s", (int)(cut[2] - from), from);
	} else if (underscores == 2) {
		key = rli_strfmt("%.*s", (int)(cut[2] - base), base);
	} else {
		key = rli_strdup(base);
	}
	free(base);
	return key;
}

/* Python's int() on the middle of profiler_info_<N>.json, or -1. */
static int64_t rank_from_info_name(const char *name)
{
	const char *middle = name + strlen("profiler_info_");
	size_t length = strlen(middle) - strlen(".json");
	int64_t rank;
	const char *start = middle;
	size_t trimmed = length;
	if (trimmed && *start == '+') {
		start++;
		trimmed--;
	}
	if (rli_text_to_int64(&rank, start, trimmed) < 0)
		return -1;
	return rank;
}

int64_t rli_ascend_rank_from_name(const char *name)
{
	size_t length = strlen(name), digits = 0;
	int64_t rank;
	if (!rli_ends_with(name, "_ascend_pt"))
		return -1;
	length -= strlen("_ascend_pt");
	while (digits < length && name[length - digits - 1] >= '0' && name[length - digits - 1] <= '9')
		digits++;
	if (digits == 0 || digits > 18 || length - digits < 4 ||
	    memcmp(name + length - digits - 4, "rank", 4) != 0)
		return -1;
	/* "rank" starts the name or follows a '_': "prerank3" is no rank. */
	if (length - digits > 4 && name[length - digits - 5] != '_')
		return -1;
	if (rli_text_to_int64(&rank, name + length - digits, digits) < 0)
		return -1;
	return rank;
}

int rli_ascend_warn_folders(rli_notes *log, const char *const *dirs, size_t count, const char *what)
{
	enum { NAMED_MAX = 8 }; /* folders named; a tree of hundreds is said by its count */
	char *list = NULL;
	if (count == 0)
		return RLI_OK;
	for (size_t i = 0; i < count && i < NAMED_MAX; i++) {
		char *grown = rli_strfmt("%s%s%s", list ? list : "", list ? ", " : "", dirs[i]);
		free(list);
		if (!(list = grown))
			return rli_error_oom();
	}
	if (count > NAMED_MAX)
		rli_notes_add(log, RLI_LOG_WARN, "%s: %s and %zu more", what, list, count - NAMED_MAX);
	else
		rli_notes_add(log, RLI_LOG_WARN, "%s: %s", what, list);
	free(list);
	return log->oom ? rli_error_oom() : RLI_OK;
}

int rli_ascend_note_ranks(rli_notes *log, rli_ascend_capture *const *captures, size_t count)
{
	const char **unknown = calloc(count ? count : 1, sizeof(*unknown));
	size_t unknown_count = 0;
	int error;
	if (!unknown)
		return rli_error_oom();
	for (size_t i = 0; i < count; i++) {
		const rli_ascend_capture *capture = captures[i];
		if (capture->rank_from == RLI_ASCEND_RANK_FOLDER)
			rli_notes_add(log, RLI_LOG_INFO, "%s: no profiler_info_*.json; rank %lld from the folder's name",
				      capture->dir, (long long)capture->rank);
		else if (capture->rank_from == RLI_ASCEND_RANK_UNKNOWN)
			unknown[unknown_count++] = capture->dir;
	}
	error = rli_ascend_warn_folders(log, unknown, unknown_count,
					"no profiler_info_*.json and no rank in the folder's name (rank<N>_ascend_pt or "
					"..._rank<N>_ascend_pt): read as rank 0");
	free(unknown);
	return error < 0 || log->oom ? rli_error_oom() : RLI_OK;
}

/* The profiler_info_*.json files of a capture; the first by name gives the rank, else the folder's name. */
static int inspect(rli_ascend_capture *capture)
{
	char **names = NULL;
	size_t count = 0;
	int error = RLI_OK;

	if (!capture->unsearched && rli_list_dir(&names, &count, capture->dir) == RLI_ERROR)
		return RLI_ERROR;
	for (size_t i = 0; i < count; i++) {
		char **grown;
		if (!starts_with(names[i], "profiler_info_") || !rli_ends_with(names[i], ".json") ||
		    strlen(names[i]) < strlen("profiler_info_.json"))
			continue;
		if (capture->info_count == 0)
			capture->rank = rank_from_info_name(names[i]);
		grown = realloc(capture->info_files, (capture->info_count + 1) * sizeof(*grown));
		if (!grown) {
			error = rli_error_oom();
			goto done;
		}
		capture->info_files = grown;
		capture->info_files[capture->info_count] = rli_path_join(capture->dir, names[i]);
		if (!capture->info_files[capture->info_count]) {
			error = rli_error_oom();
			goto done;
		}
		capture->info_count++;
	}
	if (capture->info_count == 0 && !capture->unsearched) {
		char *base = rli_path_base(capture->dir);
		if (!base) {
			error = rli_error_oom();
			goto done;
		}
		capture->rank = rli_ascend_rank_from_name(base);
		capture->rank_from = capture->rank >= 0 ? RLI_ASCEND_RANK_FOLDER : RLI_ASCEND_RANK_UNKNOWN;
		if (capture->rank < 0)
			capture->rank = 0;
		free(base);
	}
	capture->sort_key = timestamp_key(capture->dir);
	if (!capture->sort_key)
		error = rli_error_oom();
done:
	rli_free_names(names, count);
	return error;
}

int rli_ascend_find(rli_ascend_captures *captures, const char *root, rli_discovery *discovery)
{
	int error;
	memset(captures, 0, sizeof(*captures));
	captures->discovery = discovery;
	error = rli_walk(root, collect_capture, capture_unsearched, captures);
	captures->discovery = NULL;
	for (size_t i = 0; error >= 0 && i < captures->count; i++)
		error = inspect(&captures->items[i]);
	return error < 0 ? error : RLI_OK;
}

void rli_ascend_captures_dispose(rli_ascend_captures *captures)
{
	for (size_t i = 0; i < captures->count; i++) {
		rli_ascend_capture *capture = &captures->items[i];
		free(capture->dir);
		free(capture->role);
		free(capture->sort_key);
		for (size_t k = 0; k < capture->info_count; k++)
			free(capture->info_files[k]);
		free(capture->info_files);
	}
	free(captures->items);
	memset(captures, 0, sizeof(*captures));
}

int rli_ascend_holds_memory(const char *dir)
{
	char *output = rli_path_join(dir, "ASCEND_PROFILER_OUTPUT");
	char *csv = output ? rli_path_join(output, "operator_memory.csv") : NULL;
	struct stat st;
	int holds = csv ? stat(csv, &st) == 0 && S_ISREG(st.st_mode) : rli_error_oom();
	free(output);
	free(csv);
	return holds;
}

char *rli_ascend_output_path(const rli_ascend_capture *capture, const char *name)
{
	char *output_dir = rli_path_join(capture->dir, "ASCEND_PROFILER_OUTPUT"), *path;
	if (!output_dir || !name)
		return output_dir;
	path = rli_path_join(output_dir, name);
	free(output_dir);
	return path;
}

rli_unit *rli_ascend_add_unit(rli_discovery *discovery, rli_ascend_capture *capture, const char *name)
{
	rli_unit *unit = rli_discovery_add(discovery);
	if (!unit)
		return NULL;
	unit->path = rli_ascend_output_path(capture, name);
	unit->role = capture->role;
	capture->role = NULL;
	unit->rank = capture->rank;
	unit->info_files = capture->info_files;
	unit->info_count = capture->info_count;
	capture->info_files = NULL;
	capture->info_count = 0;
	return unit->path ? unit : NULL;
}

/* ---- side files ------------------------------------------------------------ */

typedef struct {
	rli_json json;
	rli_json_top *top;
	const char *const *wanted;
	size_t wanted_count;
	int role_key; /* the current top-level key is "role" */
	int oom;
} top_ctx;

/* Any value: the file's kind at depth 0; at depth 1 it replaces an earlier "role". */
static int top_value(top_ctx *t, int kind)
{
	if (t->json.depth == 0 && t->top->top_kind == 0)
		t->top->top_kind = kind;
	/* A later non-string "role" replaces an earlier one, as a JSON object's last key wins. */
	if (t->json.depth == 1 && t->role_key) {
		free(t->top->role);
		t->top->role = NULL;
		t->top->role_not_text = 1; /* until top_string says it is a string */
	}
	return 1;
}

static int top_null(void *ctx) { return top_value(ctx, 2); }
static int top_bool(void *ctx, int value) { (void)value; return top_value(ctx, 2); }
static int top_number(void *ctx, const char *text, size_t length)
{
	(void)text;
	(void)length;
	return top_value(ctx, 2);
}

static int top_string(void *ctx, const unsigned char *text, size_t length)
{
	top_ctx *t = ctx;
	top_value(t, 2);
	if (t->json.depth == 1 && t->role_key)
		t->top->role_not_text = 0;
	if (t->json.depth == 1 && t->role_key && length) {
		/* A role shows in every output: a \u0000 in it becomes U+FFFD, not the end of the role. */
		t->top->role = rli_text_copy((const char *)text, length, NULL);
		if (!t->top->role) {
			t->oom = 1;
			return rli_json_halt(&t->json);
		}
	}
	return 1;
}

static int top_start_map(void *ctx)
{
	top_ctx *t = ctx;
	top_value(t, 1);
	return rli_json_enter(&t->json);
}

static int top_start_array(void *ctx)
{
	top_ctx *t = ctx;
	top_value(t, 2);
	return rli_json_enter(&t->json);
}

static int top_key(void *ctx, const unsigned char *key, size_t length)
{
	top_ctx *t = ctx;
	if (t->json.depth != 1)
		return 1;
	t->role_key = length == 4 && memcmp(key, "role", 4) == 0;
	if (t->top->top_kind != 1)
		return 1;
	t->top->keys++;
	for (size_t i = 0; i < t->wanted_count; i++)
		if (strlen(t->wanted[i]) == length && memcmp(t->wanted[i], key, length) == 0)
			t->top->found |= 1u << i;
	return 1;
}

static int top_end(void *ctx)
{
	top_ctx *t = ctx;
	rli_json_leave(&t->json);
	return 1;
}

static const yajl_callbacks top_callbacks = {
	top_null, top_bool, NULL, NULL, top_number, top_string,
	top_start_map, top_key, top_end, top_start_array, top_end};

rli_read_result rli_json_read_top_bytes(rli_json_top *top, rli_bytes *source, const char *const *wanted,
					size_t wanted_count, char **failure)
{
	top_ctx t;
	rli_read_result result;
	memset(top, 0, sizeof(*top));
	memset(&t, 0, sizeof(t));
	*failure = NULL;
	t.top = top;
	t.wanted = wanted;
	t.wanted_count = wanted_count < 32 ? wanted_count : 32;
	if (rli_json_open(&t.json, &top_callbacks, &t, 1) < 0)
		return RLI_READ_OOM;
	result = rli_json_read(&t.json, source, failure);
	rli_json_close(&t.json);
	if (t.oom)
		result = RLI_READ_OOM;
	if (result != RLI_READ_OK) {
		free(top->role);
		top->role = NULL;
	}
	return result;
}

rli_read_result rli_json_read_top(rli_json_top *top, const char *path, const char *const *wanted,
				  size_t wanted_count, char **failure)
{
	rli_bytes *source;
	rli_read_result result;
	memset(top, 0, sizeof(*top));
	if ((result = rli_bytes_open(&source, path, failure)) != RLI_READ_OK)
		return result;
	result = rli_json_read_top_bytes(top, source, wanted, wanted_count, failure);
	rli_bytes_close(source);
	return result;
}

int rli_ascend_read_metadata(rli_ascend_metadata *out, rli_ascend_capture *capture)
{
	char *path = rli_path_join(capture->dir, "profiler_metadata.json");
	rli_json_top top;
	rli_read_result result;
	struct stat st;
	int error = RLI_OK;

	memset(out, 0, sizeof(*out));
	if (!path)
		return rli_error_oom();
	if (stat(path, &st) != 0)
		goto done;
	out->exists = 1;
	result = rli_json_read_top(&top, path, NULL, 0, &out->failure);
	if (result == RLI_READ_OOM) {
		error = rli_error_oom();
		goto done;
	}
	if (result == RLI_READ_EMPTY && !(out->failure = rli_strfmt("File is empty: %s", path))) {
		error = rli_error_oom();
		goto done;
	}
	if (result != RLI_READ_OK)
		goto done;
	out->is_object = top.top_kind == 1;
	if (top.role_not_text && out->is_object &&
	    !(out->warning = rli_strfmt("%s: 'role' is not a string; the capture's role is its folder's name, %s",
					path, capture->role))) {
		free(top.role);
		error = rli_error_oom();
		goto done;
	}
	if (top.role) {
		free(capture->role);
		capture->role = top.role;
	}
done:
	free(path);
	return error;
}

void rli_ascend_metadata_dispose(rli_ascend_metadata *metadata)
{
	free(metadata->failure);
	free(metadata->warning);
	memset(metadata, 0, sizeof(*metadata));
}

/* ---- parse order ----------------------------------------------------------- */

static int compare_captures(const void *a, const void *b)
{
	const rli_ascend_capture *x = *(rli_ascend_capture *const *)a, *y = *(rli_ascend_capture *const *)b;
	int c;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	c = strcmp(x->sort_key, y->sort_key);
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

int rli_ascend_order(rli_ascend_capture **captures, size_t count)
{
	rli_strpool groups;
	int error = RLI_OK;
	rli_strpool_init(&groups);
	for (size_t i = 0; i < count; i++) {
		/* "<rank> <role>": the rank has no blank, so the key is unambiguous. */
		char *key = rli_strfmt("%lld %s", (long long)captures[i]->rank, captures[i]->role);
		if (!key) {
			error = rli_error_oom();
			goto done;
		}
		captures[i]->group = rli_strpool_intern(&groups, key, strlen(key));
		free(key);
		if (captures[i]->group == RLI_STRPOOL_NONE) {
			error = rli_error_oom();
			goto done;
		}
	}
	qsort(captures, count, sizeof(*captures), compare_captures);
done:
	rli_strpool_dispose(&groups);
	return error;
}

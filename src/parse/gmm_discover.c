/* gmm_discover.c: the GMM parser's units: msprobe's group_list.pt dumps where it puts them (gmm.md §1, decisions.md), filtered. */
#include "gmm_internal.h"
#include "ascend_capture.h" /* rli_ascend_warn_folders: a list of paths said once */
#include "common/grow.h"
#include "format.h"
#include "pt_read.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>

#define DUMP_SUFFIX "group_list.pt"
#define DUMP_FOLDER "dump_tensor_data"
/* The name that numbers a dump: <anything>npu_grouped_matmul.<op>.forward.kwargs.group_list.pt (gmm.md §1.3). */
#define STAGE_HEAD "npu_grouped_matmul."
#define STAGE_TAIL ".forward.kwargs.group_list.pt"

int rli_step_filter_parse(rli_rank_filter *out, const char *text)
{
	int error = rli_rank_filter_parse(out, text);
	if (error == RLI_EUSAGE)
		return rli_error_set(RLI_EUSAGE, "invalid step list '%s': expected steps and ranges separated by commas, "
				     "such as 1,2 or 1-4", text);
	return error;
}

/* Why a dump was left out (each said once, with the paths of the dumps it holds for). */
enum { OUT_FOLDER, OUT_STEP, OUT_ROLE, OUT_RANK, OUT_STAGE, OUT_REASONS };

static const char *const out_words[OUT_REASONS] = {
	"group_list.pt files in no " DUMP_FOLDER " folder below the input folder, left out",
	"group_list.pt dumps with no step_<N> folder on their path below the input folder, left out",
	"group_list.pt dumps with no role folder right below their step_<N> folder (step_<N>/<role>/.../rank<N>/), "
	"left out",
	"group_list.pt dumps with no rank<N> folder on their path below the input folder, left out",
	"group_list.pt dumps not named ...npu_grouped_matmul.<N>.forward.kwargs.group_list.pt, so with no op number "
	"to place them by, left out",
};

typedef struct {
	rli_discovery *discovery;
	const rli_discover_options *options;
	const char *root;
	size_t found;       /* files named *group_list.pt */
	size_t in_folder;   /* of them, in a dump_tensor_data folder */
	char **out[OUT_REASONS];
	size_t out_count[OUT_REASONS], out_capacity[OUT_REASONS];
} finder;

/* A component (length bytes at text) that is prefix and then 1 to 18 digits: 1 and *number, else 0. */
static int numbered(const char *text, size_t length, const char *prefix, int64_t *number)
{
	size_t head = strlen(prefix);
	int64_t value = 0;
	if (length <= head || length - head > 18 || memcmp(text, prefix, head) != 0)
		return 0;
	for (size_t i = head; i < length; i++) {
		if (text[i] < '0' || text[i] > '9')
			return 0;
		value = value * 10 + (text[i] - '0');
	}
	*number = value;
	return 1;
}

/* The op index a dump's name gives; 0 when it gives none. */
static int stage_of(const char *name, int64_t *stage)
{
	size_t length = strlen(name), tail = strlen(STAGE_TAIL), head = strlen(STAGE_HEAD), digits = 0;
	if (length < tail + 1 || strcmp(name + length - tail, STAGE_TAIL) != 0)
		return 0;
	while (digits < length - tail && name[length - tail - 1 - digits] >= '0' && name[length - tail - 1 - digits] <= '9')
		digits++;
	if (digits == 0 || digits > 18 || length - tail - digits < head ||
	    memcmp(name + length - tail - digits - head, STAGE_HEAD, head) != 0)
		return 0;
	return numbered(name + length - tail - digits - head, digits + head, STAGE_HEAD, stage);
}

/* The path below the root. */
static const char *relative(const finder *f, const char *path)
{
	size_t length = strlen(f->root);
	if (strncmp(path, f->root, length) == 0 && path[length] == '/')
		return path + length + 1;
	return length && f->root[length - 1] == '/' && strncmp(path, f->root, length) == 0 ? path + length : path;
}

static int left_out(finder *f, int reason, const char *path)
{
	char *copy = rli_strdup(path);
	if (!copy || RLI_GROW(&f->out[reason], &f->out_capacity[reason], f->out_count[reason] + 1, 16) < 0) {
		free(copy);
		return rli_error_oom();
	}
	f->out[reason][f->out_count[reason]++] = copy;
	return RLI_OK;
}

/* Where the dump lies says its step, role and rank: the first folders below the root that give them. */
typedef struct {
	int in_folder, has_step, has_rank;
	int64_t step, rank;
	const char *role;
	size_t role_length;
	int role_state; /* 0 none yet, 1 the folder after step_<N> is next, 2 taken */
} placement;

static void place(placement *at, const char *rel)
{
	memset(at, 0, sizeof(*at));
	for (const char *c = rel, *slash; (slash = strchr(c, '/')) != NULL; c = slash + 1) {
		size_t length = (size_t)(slash - c);
		int64_t number;
		if (at->role_state == 1) {
			at->role = c;
			at->role_length = length;
			at->role_state = 2;
		}
		if (length == strlen(DUMP_FOLDER) && memcmp(c, DUMP_FOLDER, length) == 0)
			at->in_folder = 1;
		if (!at->has_step && numbered(c, length, "step_", &number)) {
			at->has_step = 1;
			at->step = number;
			at->role_state = 1;
		}
		if (!at->has_rank && numbered(c, length, "rank", &number)) {
			at->has_rank = 1;
			at->rank = number;
		}
	}
}

/* The folder after step_<N> is a role: not a further step, a rank folder or the dump folder. */
static int is_role(const placement *at)
{
	int64_t ignored;
	if (at->role_state != 2 || at->role_length == 0)
		return 0;
	if (at->role_length >= 4 && memcmp(at->role, "step", 4) == 0)
		return 0;
	if (numbered(at->role, at->role_length, "rank", &ignored))
		return 0;
	return !(at->role_length == strlen(DUMP_FOLDER) && memcmp(at->role, DUMP_FOLDER, at->role_length) == 0);
}

static int add_dump(finder *f, const rli_walk_entry *entry, const placement *at, int64_t stage)
{
	rli_unit *unit = rli_discovery_add(f->discovery);
	if (!unit || !(unit->path = rli_strdup(entry->path)) ||
	    !(unit->role = rli_text_copy(at->role, at->role_length, NULL)))
		return rli_error_oom();
	unit->rank = at->rank;
	unit->step = at->step;
	unit->stage = stage;
	return RLI_OK;
}

static int visit(void *ctx, const rli_walk_entry *entry)
{
	finder *f = ctx;
	const rli_discover_options *options = f->options;
	const char *rel;
	placement at;
	int64_t stage = 0;

	/* A folder so named is searched like any other; a FIFO or a dangling link so named is a dump that fails. */
	if (entry->is_dir || !rli_ends_with(entry->name, DUMP_SUFFIX))
		return 0;
	f->found++;
	rel = relative(f, entry->path);
	place(&at, rel);
	if (!at.in_folder)
		return left_out(f, OUT_FOLDER, entry->path);
	f->in_folder++;
	if (!at.has_step)
		return left_out(f, OUT_STEP, entry->path);
	if (!is_role(&at))
		return left_out(f, OUT_ROLE, entry->path);
	if (!at.has_rank)
		return left_out(f, OUT_RANK, entry->path);
	if (!stage_of(entry->name, &stage))
		return left_out(f, OUT_STAGE, entry->path);
	/* Dumps the filters leave out are none of this run's business, and said only at -vv. */
	if (!rli_rank_filter_keeps(options->ranks, at.rank)) {
		rli_notes_add(&f->discovery->log, RLI_LOG_DEBUG, "Rank %lld not in the rank list: skipping %s",
			      (long long)at.rank, entry->path);
		return rli_discovery_saw_rank(f->discovery, at.rank);
	}
	if (options->steps && !rli_rank_filter_keeps(options->steps, at.step)) {
		rli_notes_add(&f->discovery->log, RLI_LOG_DEBUG, "Step %lld not in the step list: skipping %s",
			      (long long)at.step, entry->path);
		return RLI_OK;
	}
	if (options->roles) {
		char *role = rli_text_copy(at.role, at.role_length, NULL);
		int keep = role && rli_role_filter_keeps(options->roles, role);
		free(role);
		if (!role)
			return rli_error_oom();
		if (!keep) {
			rli_notes_add(&f->discovery->log, RLI_LOG_DEBUG, "Role %.*s not in the role list: skipping %s",
				      (int)at.role_length, at.role, entry->path);
			return RLI_OK;
		}
	}
	return add_dump(f, entry, &at, stage);
}

static int unsearched(void *ctx, const char *dir, const char *why)
{
	finder *f = ctx;
	return rli_discovery_unsearched(f->discovery, dir, why);
}

/* Units by step, role (code-point order), rank, stage, then path: the table's order, so also its messages'. */
static int compare_units(const void *pa, const void *pb)
{
	const rli_unit *a = pa, *b = pb;
	int role;
	if (a->unsearched != b->unsearched)
		return a->unsearched - b->unsearched;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->role && b->role && (role = strcmp(a->role, b->role)) != 0)
		return role;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->stage != b->stage)
		return a->stage < b->stage ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Two dumps of one (step, role, rank, stage): both are kept, and the user learns which. */
static void warn_twins(rli_discovery *discovery)
{
	size_t twins = 0;
	for (size_t u = 1; u < discovery->count; u++) {
		const rli_unit *a = &discovery->units[u - 1], *b = &discovery->units[u];
		if (a->unsearched || b->unsearched || a->step != b->step || a->rank != b->rank || a->stage != b->stage ||
		    strcmp(a->role, b->role) != 0)
			continue;
		if (twins++ < 8)
			rli_notes_add(&discovery->log, RLI_LOG_WARN, "%s and %s are both op %lld of step %lld, role %s, rank "
				      "%lld: their loads share one snapshot of the table", a->path, b->path,
				      (long long)a->stage, (long long)a->step, a->role, (long long)a->rank);
	}
	if (twins > 8)
		rli_notes_add(&discovery->log, RLI_LOG_WARN, "%zu more dumps share a snapshot with another", twins - 8);
}

static int gmm_discover(rli_discovery *discovery, const char *root, const rli_discover_options *options)
{
	finder f;
	int error;

	memset(&f, 0, sizeof(f));
	f.discovery = discovery;
	f.options = options;
	f.root = root;
	if ((error = rli_walk(root, visit, unsearched, &f)) < 0)
		goto done;
	if (discovery->count > 1)
		qsort(discovery->units, discovery->count, sizeof(*discovery->units), compare_units);
	warn_twins(discovery);
	for (int r = 0; r < OUT_REASONS && error == RLI_OK; r++)
		error = rli_ascend_warn_folders(&discovery->log, (const char *const *)f.out[r], f.out_count[r], out_words[r]);
	if (error < 0)
		goto done;
	/* The reference's input rules (gmm.md §4.1), which look for the files and not where they lie. */
	if (f.found == 0)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR, "No group_list.pt files found in: %s", root);
	else if (f.in_folder == 0)
		rli_notes_add(&discovery->structural, RLI_LOG_ERROR,
			      "No group_list.pt files found in dump_tensor_data directories under: %s", root);
	if (discovery->structural.oom || discovery->log.oom)
		error = rli_error_oom();
done:
	for (int r = 0; r < OUT_REASONS; r++) {
		for (size_t i = 0; i < f.out_count[r]; i++)
			free(f.out[r][i]);
		free(f.out[r]);
	}
	return error;
}

/* ---- one unit ---------------------------------------------------------------------- */

/* The whole file, bounded: a .pt is read at once (its zip directory is at its end). */
static void gmm_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	unsigned char *data = NULL, *grown;
	const unsigned char *chunk;
	size_t used = 0, capacity = 0, length;
	int more;
	(void)rows; /* GMM rows are no bars: they go into unit->gmm */

	if (rli_bytes_is_gzip(source)) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Failed to parse %s: the file is gzip-compressed; torch.save "
			      "writes a zip archive or its legacy stream, never gzip", unit->path);
		return;
	}
	while ((more = rli_bytes_next(source, &chunk, &length)) == 1) {
		if (length > RLI_PT_MAX_BYTES - used) {
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Failed to parse %s: the file is larger than the %zu "
				      "bytes a tensor dump this reader takes can be", unit->path, RLI_PT_MAX_BYTES);
			free(data);
			return;
		}
		if (used + length > capacity) {
			size_t want = capacity ? capacity : 4096;
			while (want < used + length)
				want *= 2;
			if (!(grown = realloc(data, want))) {
				unit->status = RLI_ERROR;
				free(data);
				return;
			}
			data = grown;
			capacity = want;
		}
		memcpy(data + used, chunk, length);
		used += length;
	}
	if (more < 0) {
		if (rli_bytes_failure(source))
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", rli_bytes_failure(source));
		else
			unit->status = RLI_ERROR;
	} else {
		rli_gmm_read_dump(unit, data, used);
	}
	free(data);
	if (unit->failures.oom || unit->log.oom)
		unit->status = RLI_ERROR;
}

static void gmm_parse_unit(rli_unit *unit, rli_events *rows)
{
	rli_unit_parse_file(unit, rows, gmm_parse_bytes);
}

/* A dump in a dump_tensor_data folder shows the format (the full rules are discovery's). */
static rli_shows gmm_detect(const rli_walk_entry *entry)
{
	size_t length = strlen(entry->dir), folder = strlen(DUMP_FOLDER);
	const char *in = strstr(entry->dir, "/" DUMP_FOLDER);
	if (entry->is_dir || !rli_ends_with(entry->name, DUMP_SUFFIX))
		return RLI_SHOWS_NOTHING;
	/* dump_tensor_data as a whole component of the folder: at its end, or followed by a slash */
	while (in && !(in[1 + folder] == '\0' || in[1 + folder] == '/'))
		in = strstr(in + 1, "/" DUMP_FOLDER);
	if (!in && !(length == folder && strcmp(entry->dir, DUMP_FOLDER) == 0))
		return RLI_SHOWS_NOTHING;
	return RLI_SHOWS_FORMAT;
}

const rli_format rli_format_gmm = {
	RLI_PROFILER_AUTO, "gmm", "gmm_data", "group_list.pt dump in a dump_tensor_data folder",
	"group_list.pt dumps in dump_tensor_data folders", 0,
	gmm_detect, gmm_discover, gmm_parse_unit, gmm_parse_bytes, NULL, 0,
};

static int count_dump(void *ctx, const rli_walk_entry *entry)
{
	size_t *found = ctx;
	if (gmm_detect(entry) != RLI_SHOWS_NOTHING)
		(*found)++;
	return 0;
}

int rli_gmm_dump_count(const char *input_path)
{
	size_t found = 0;
	if (!input_path)
		return 0;
	if (rli_walk(input_path, count_dump, NULL, &found) < 0)
		return RLI_ERROR;
	return found > 0x7fffffff ? 0x7fffffff : (int)found;
}

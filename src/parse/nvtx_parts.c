/* nvtx_parts.c: one large NVTX jsonl cut at line ends into parts read on a thread each, merged in file order. */
#include "nvtx_internal.h"
#include "common/task.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The smallest part worth a thread: below it, starting one and merging costs about what it
 * saves. RLI_NVTX_PART_BYTES sets it (tests cut small files into many parts).
 */
#define PART_BYTES_DEFAULT ((uint64_t)4 << 20)
#define PARTS_MAX RLI_TASK_MAX_THREADS
/* How far past a cut point a line end is looked for: a line longer than this is read whole. */
#define CUT_SEARCH ((uint64_t)2 << 20)

typedef struct {
	rli_unit shadow;  /* the unit as this part's reading sees it: its failures stay its own */
	nvtx_ctx n;
	rli_events *own;  /* the parts after the first: their rows' table (the first writes the unit's) */
	rli_bytes *source;
	uint64_t begin, end;
	int result;       /* rli_nvtx_read_lines: 0 read whole, 1 a line too long, -1 failed */
} nvtx_part;

typedef struct {
	const char *path;
	nvtx_part *parts;
	size_t count;
} part_work;

static uint64_t part_bytes(void)
{
	const char *set = getenv("RLI_NVTX_PART_BYTES");
	char *end;
	unsigned long long value;
	if (!set || !*set)
		return PART_BYTES_DEFAULT;
	errno = 0;
	value = strtoull(set, &end, 10);
	return errno == 0 && *end == '\0' && value > 0 ? value : PART_BYTES_DEFAULT;
}

/*
 * Where a part that should begin near `at` begins: just past the first newline at or after at - 1
 * (so a cut that falls at a line's start stays there). 0 when none is found within CUT_SEARCH, or
 * it cannot be read: the file is then read whole.
 */
static uint64_t cut_after(int fd, uint64_t at, uint64_t size)
{
	unsigned char window[64 * 1024];
	uint64_t from = at - 1;
	while (from < size && from < at + CUT_SEARCH) {
		ssize_t got = pread(fd, window, sizeof(window), (off_t)from);
		const unsigned char *nl;
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return 0;
		if ((nl = memchr(window, '\n', (size_t)got)))
			return from + (uint64_t)(nl - window) + 1;
		from += (uint64_t)got;
	}
	return 0;
}

/* Cuts [0, size) into up to `count` parts at line ends: parts[k].begin/end. The parts made (1: none worth it). */
static size_t cut_parts(nvtx_part *parts, size_t count, const char *path, uint64_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t made = 0;
	uint64_t begin = 0;
	if (fd < 0)
		return 1;
	for (size_t k = 1; k < count; k++) {
		uint64_t cut = cut_after(fd, size / count * k, size);
		if (cut == 0)
			break; /* no line end where one should be: fewer parts */
		if (cut <= begin || cut >= size)
			continue;
		parts[made].begin = begin;
		parts[made++].end = cut;
		begin = cut;
	}
	close(fd);
	parts[made].begin = begin;
	parts[made++].end = size;
	return made;
}

/* One part, on any thread: its lines read into its own state, nothing concluded. */
static int read_part(void *arg, size_t k)
{
	part_work *work = arg;
	nvtx_part *part = &work->parts[k];
	int empty = 0;
	if (k > 0) {
		char *failure = NULL;
		rli_read_result opened = rli_bytes_open_range(&part->source, work->path, part->begin, part->end, &failure);
		if (opened == RLI_READ_FAILED)
			rli_notes_add(&part->shadow.failures, RLI_LOG_ERROR, "%s", failure);
		else if (opened != RLI_READ_OK)
			part->shadow.status = RLI_ERROR;
		free(failure);
		if (!part->source) {
			part->result = -1;
			return RLI_OK;
		}
	}
	part->n.no_resume = 1;
	part->result = rli_nvtx_read_lines(&part->n, part->source, 1, &empty);
	return RLI_OK;
}

/* Room for string id `id` in n's per-id arrays. 0, or -1 when memory ran out. */
static int room_for_id(nvtx_ctx *n, uint32_t id)
{
	if (id >= n->string_capacity) {
		size_t grown = n->string_capacity ? n->string_capacity * 2 : 64;
		char **p;
		while (grown <= id)
			grown *= 2;
		if (!(p = realloc(n->string_values, grown * sizeof(*p))))
			return -1;
		memset(p + n->string_capacity, 0, (grown - n->string_capacity) * sizeof(*p));
		n->string_values = p;
		n->string_capacity = grown;
	}
	if (id >= n->text_id_line_capacity) {
		size_t grown = n->text_id_line_capacity ? n->text_id_line_capacity * 2 : 64;
		uint64_t *p;
		while (grown <= id)
			grown *= 2;
		if (!(p = realloc(n->text_id_line, grown * sizeof(*p))))
			return -1;
		memset(p + n->text_id_line_capacity, 0, (grown - n->text_id_line_capacity) * sizeof(*p));
		n->text_id_line = p;
		n->text_id_line_capacity = grown;
	}
	return 0;
}

/*
 * What a later part's lines said, added to the state of the parts before it (into), as one
 * reading of both would have left it: its lines numbered on from `lines` before it, its string
 * ids made into's, a later value of an id winning, its ranges appended. 0, or -1 out of memory.
 */
static int adopt(nvtx_ctx *into, nvtx_ctx *part, uint64_t lines)
{
	rli_events *to = into->rows, *from = part->rows;
	size_t ids = part->string_ids.count, at;
	uint32_t *id_of = malloc((ids ? ids : 1) * sizeof(*id_of));
	int result = -1;

	if (!id_of)
		return -1;
	into->any_start_time |= part->any_start_time;
	into->any_range |= part->any_range;
	if (part->rank >= 0)
		into->rank = part->rank;
	if (part->analysis_seen) {
		into->analysis_seen = 1;
		into->have_global_start = part->have_global_start;
		into->global_start = part->global_start;
		into->global_start_kind = part->global_start_kind;
		into->global_start_line = part->global_start_line + lines;
	}
	if (into->bad_text_id_line == 0 && part->bad_text_id_line)
		into->bad_text_id_line = part->bad_text_id_line + lines;
	for (uint32_t id = 0; id < ids; id++) {
		uint32_t to_id = rli_strpool_intern(&into->string_ids, rli_strpool_get(&part->string_ids, id),
						    rli_strpool_length(&part->string_ids, id));
		if (to_id == RLI_STRPOOL_NONE || room_for_id(into, to_id) < 0)
			goto done;
		id_of[id] = to_id;
		/* The first range's line of a textId: an earlier part's, if it had one. */
		if (id < part->text_id_line_capacity && part->text_id_line[id] && !into->text_id_line[to_id])
			into->text_id_line[to_id] = part->text_id_line[id] + lines;
		if (id < part->string_capacity && part->string_values[id]) {
			free(into->string_values[to_id]);
			into->string_values[to_id] = part->string_values[id];
			part->string_values[id] = NULL;
		}
	}
	if (part->range_count && rli_events_reserve(to, part->range_count) < 0)
		goto done;
	at = to->count;
	for (size_t i = part->first_row; i < part->first_row + part->range_count; i++, at++) {
		uint8_t flags = from->tid_is_text[i];
		uint32_t name = from->name[i];
		int64_t value;
		to->name[at] = name == RLI_STRPOOL_NONE ? name : id_of[name];
		to->tid_is_text[at] = flags;
		to->start_ms[at] = from->start_ms[i];
		to->duration_ms[at] = from->duration_ms[i];
		/* A start or end that is no number holds its line (nvtx_internal.h): numbered on. */
		if ((flags & RANGE_KIND_MASK) != V_NUMBER) {
			memcpy(&value, &to->start_ms[at], sizeof(value));
			value += (int64_t)lines;
			memcpy(&to->start_ms[at], &value, sizeof(value));
		}
		if (((flags >> RANGE_END_SHIFT) & RANGE_KIND_MASK) != V_NUMBER) {
			memcpy(&value, &to->duration_ms[at], sizeof(value));
			value += (int64_t)lines;
			memcpy(&to->duration_ms[at], &value, sizeof(value));
		}
	}
	to->count = at;
	into->range_count += part->range_count;
	result = 0;
done:
	free(id_of);
	return result;
}

/* How a parts reading ended. */
enum { PARTS_DONE = 1, PARTS_READ_WHOLE = 0 };

/* After every part was read: the merged reading concluded (PARTS_DONE), or the whole file to be read (PARTS_READ_WHOLE). */
static int merge_parts(rli_unit *unit, nvtx_part *parts, size_t count)
{
	uint64_t lines = 0;
	for (size_t k = 0; k < count; k++) {
		if (parts[k].shadow.status != RLI_OK || parts[k].shadow.failures.oom) {
			unit->status = RLI_ERROR;
			rli_events_truncate(parts[0].n.rows, parts[0].n.first_row);
			return PARTS_DONE;
		}
		/* A failure or a line too long: the whole reading says it, at its place, as with one thread. */
		if (parts[k].result != 0 || parts[k].shadow.failures.count) {
			rli_notes_add(&unit->log, RLI_LOG_DEBUG, "%s: part %zu of %zu met a failure or a line too long to "
				      "hold; read whole", unit->path, k + 1, count);
			return PARTS_READ_WHOLE;
		}
	}
	for (size_t k = 0; k < count; k++) {
		if (k > 0 && adopt(&parts[0].n, &parts[k].n, lines) < 0) {
			unit->status = RLI_ERROR;
			rli_events_truncate(parts[0].n.rows, parts[0].n.first_row);
			return PARTS_DONE;
		}
		/* Every part but the last ends with its newline: its lines are the newlines it read. */
		lines += parts[k].n.line - 1;
	}
	parts[0].n.unit = unit;
	rli_notes_add(&unit->log, RLI_LOG_DEBUG, "%s: read in %zu parts, a thread each", unit->path, count);
	rli_nvtx_conclude(&parts[0].n, 1, 0);
	return PARTS_DONE;
}

int rli_nvtx_parse_parts(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	nvtx_part *parts = NULL;
	part_work work = { unit->path, NULL, 0 };
	struct stat st;
	uint64_t smallest = part_bytes();
	size_t wanted = (size_t)unit->spare_threads + 1, count;
	int result = PARTS_READ_WHOLE, limited = 0;

	if (wanted < 2 || rli_bytes_is_gzip(source) || stat(unit->path, &st) != 0 || !S_ISREG(st.st_mode))
		return PARTS_READ_WHOLE;
	if ((uint64_t)st.st_size / smallest < wanted)
		wanted = (size_t)((uint64_t)st.st_size / smallest);
	if (wanted > PARTS_MAX)
		wanted = PARTS_MAX;
	if (wanted < 2 || !(parts = calloc(wanted, sizeof(*parts))))
		return PARTS_READ_WHOLE;
	count = cut_parts(parts, wanted, unit->path, (uint64_t)st.st_size);
	if (count < 2 || rli_bytes_limit(source, parts[0].end) < 0)
		goto done;
	limited = 1;
	for (size_t k = 0; k < count; k++) {
		nvtx_part *part = &parts[k];
		part->shadow.path = unit->path;
		part->shadow.tid = unit->tid;
		rli_notes_init(&part->shadow.failures);
		rli_notes_init(&part->shadow.log);
		if (k > 0 && rli_events_new(&part->own) < 0) {
			count = k;
			unit->status = RLI_ERROR;
			result = PARTS_DONE;
			goto done;
		}
		rli_nvtx_ctx_init(&part->n, &part->shadow, k ? part->own : rows);
	}
	parts[0].source = source;
	work.parts = parts;
	work.count = count;
	rli_task_each(count, (unsigned)count, read_part, &work);
	result = merge_parts(unit, parts, count);
done:
	for (size_t k = 0; parts && k < count; k++) {
		nvtx_part *part = &parts[k];
		if (result == PARTS_READ_WHOLE && k == 0)
			rli_events_truncate(rows, part->n.first_row);
		rli_nvtx_ctx_dispose(&part->n);
		rli_notes_dispose(&part->shadow.failures);
		rli_notes_dispose(&part->shadow.log);
		if (k > 0)
			rli_bytes_close(part->source);
		rli_events_free(part->own);
	}
	free(parts);
	if (result == PARTS_READ_WHOLE && limited &&
	    (rli_bytes_limit(source, UINT64_MAX) < 0 || rli_bytes_seek(source, 0) < 0)) {
		/* The whole reading starts over from the first byte; the source says why it cannot. */
		if (rli_bytes_failure(source))
			rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", rli_bytes_failure(source));
		else
			unit->status = RLI_ERROR;
		result = PARTS_DONE;
	}
	return result;
}

/* json_chunks.c: a JSON array of items cut into chunks at item starts, each read on a thread, the cuts checked, joined in order. */
#include "json_chunks.h"
#include "common/error.h"
#include "common/task.h"

#include <stdlib.h>
#include <string.h>

/* Where a cut is looked for: this much from its even share of the file. */
#define CUT_WINDOW ((size_t)64 << 10)

typedef struct {
	void *ctx;              /* the format's context */
	rli_items_reader *reader;
	int result;             /* RLI_READ_* or RLI_ITEMS_DECLINED */
	unsigned next;          /* the chunk its reading ended at (count: the file's end) */
	uint64_t items;
} chunk;

typedef struct {
	const rli_json_chunking *how;
	void *owner;
	rli_bytes *source;
	uint64_t *cuts;         /* cuts[i]: where chunk i starts; cuts[count] the file's size */
	unsigned count;
	chunk *chunks;
} job;

typedef struct {
	rli_bytes *source;
	uint64_t offset;
} range_fill;

static int fill_at(void *src, unsigned char *into, size_t room, size_t *got)
{
	range_fill *f = src;
	if (rli_bytes_pread(f->source, f->offset, into, room, got) < 0)
		return -1;
	f->offset += *got;
	return 0;
}

/* The smallest chunk: RLI_JSON_CHUNK_MIN, or the bytes RLI_JSON_CHUNK_BYTES sets (tests cut small files). */
static uint64_t chunk_min(void)
{
	const char *text = getenv("RLI_JSON_CHUNK_BYTES");
	char *end;
	unsigned long long bytes;
	if (!text || !*text)
		return RLI_JSON_CHUNK_MIN;
	bytes = strtoull(text, &end, 10);
	return *end || bytes < 64 ? RLI_JSON_CHUNK_MIN : (uint64_t)bytes;
}

unsigned rli_json_chunk_count(uint64_t size, unsigned threads)
{
	uint64_t by_size = size / chunk_min();
	/* Two chunks a thread: one that is slow to read (declined items, a cut that did not hold) is not waited for alone. */
	uint64_t wanted = (uint64_t)threads * 2;
	if (threads <= 1 || by_size < 2)
		return 1;
	return (unsigned)(wanted < by_size ? wanted : by_size);
}

/*
 * The first item start at or after `from` that looks like a cut: a '{' first on its line (after
 * blanks) whose line before ends in a comma. In valid JSON no string holds a raw newline, so it
 * is an object in some array; whether in the top array, the reading of the chunk before tells.
 * 0 when the window holds none.
 */
static uint64_t find_cut(rli_bytes *source, uint64_t from, unsigned char *window)
{
	size_t got;
	if (rli_bytes_pread(source, from, window, CUT_WINDOW, &got) < 0 || got < 2)
		return 0;
	for (size_t i = 1; i < got; i++) {
		size_t before, after;
		if (window[i] != '\n')
			continue;
		for (after = i + 1; after < got && (window[after] == ' ' || window[after] == '\t' || window[after] == '\r'); after++)
			;
		if (after == got || window[after] != '{')
			continue;
		for (before = i; before > 0 && (window[before - 1] == ' ' || window[before - 1] == '\t' ||
						 window[before - 1] == '\r'); before--)
			;
		if (before > 0 && window[before - 1] == ',')
			return from + after;
	}
	return 0;
}

/* Reads chunk i until the next cut that holds, or the file's end. */
static int read_chunk(void *arg, size_t i)
{
	job *j = arg;
	chunk *c = &j->chunks[i];
	range_fill fill = {j->source, j->cuts[i]};
	rli_json *json;
	unsigned next = (unsigned)i + 1;

	if (!(c->ctx = j->how->open(j->owner)))
		return rli_error_oom();
	json = j->how->json(c->ctx);
	if (!(c->reader = rli_items_new(json, j->how->callbacks, c->ctx, fill_at, &fill, j->cuts[i],
					i == 0 ? RLI_ITEMS_AT_START : RLI_ITEMS_AT_ITEM)))
		return rli_error_oom();
	for (;;) {
		uint64_t stopped = UINT64_MAX, stop = next < j->count ? j->cuts[next] : UINT64_MAX;
		c->result = rli_items_read(c->reader, stop, &stopped);
		if (c->result != RLI_READ_OK)
			break;
		if (stopped == UINT64_MAX) {
			next = j->count; /* the array and the file ended: the cuts after were inside its last items */
			break;
		}
		if (stopped == stop)
			break;
		/* The cut fell inside an item: it did not hold; this reading goes on to the next. */
		next++;
	}
	c->next = next;
	c->items = rli_items_count(c->reader);
	rli_items_free(c->reader);
	c->reader = NULL;
	return RLI_OK;
}

int rli_json_chunks_read(const rli_json_chunking *how, void *owner, rli_bytes *source, uint64_t size,
			 unsigned chunks, unsigned threads, unsigned *said)
{
	job j;
	unsigned char *window = NULL;
	uint64_t before = 0;
	unsigned read_count = 0;
	int result = RLI_ITEMS_DECLINED;

	memset(&j, 0, sizeof(j));
	j.how = how;
	j.owner = owner;
	j.source = source;
	if (!rli_json_scan_enabled() || !how->callbacks->yajl_number || chunks < 2)
		return RLI_ITEMS_DECLINED;
	j.cuts = calloc((size_t)chunks + 1, sizeof(*j.cuts));
	j.chunks = calloc(chunks, sizeof(*j.chunks));
	window = malloc(CUT_WINDOW);
	if (!j.cuts || !j.chunks || !window) {
		result = RLI_READ_OOM;
		goto done;
	}
	/* Cuts near even shares; a share whose window holds no item start is left to the chunk before. */
	j.count = 1;
	for (unsigned i = 1; i < chunks; i++) {
		uint64_t cut = find_cut(source, size / chunks * i, window);
		if (cut > j.cuts[j.count - 1] && cut < size)
			j.cuts[j.count++] = cut;
	}
	j.cuts[j.count] = size;
	if (j.count < 2)
		goto done;
	if (rli_task_each(j.count, threads, read_chunk, &j) < 0) {
		result = RLI_READ_OOM;
		goto done;
	}
	/* From chunk 0, each reading says where the next one that holds begins. */
	for (unsigned i = 0; i < j.count; i = j.chunks[i].next) {
		if (j.chunks[i].result != RLI_READ_OK) {
			result = j.chunks[i].result == RLI_READ_OOM ? RLI_READ_OOM : RLI_ITEMS_DECLINED;
			goto done;
		}
	}
	for (unsigned i = 0; i < j.count; i = j.chunks[i].next) {
		if (how->append(owner, j.chunks[i].ctx, before) < 0) {
			result = RLI_READ_OOM;
			goto done;
		}
		before += j.chunks[i].items;
	}
	result = RLI_READ_OK;
	for (unsigned i = 0; i < j.count; i = j.chunks[i].next)
		read_count++;
	if (said)
		*said = read_count;
done:
	for (unsigned i = 0; j.chunks && i < j.count; i++) {
		rli_items_free(j.chunks[i].reader);
		if (j.chunks[i].ctx)
			how->close(j.chunks[i].ctx);
	}
	free(j.chunks);
	free(j.cuts);
	free(window);
	return result;
}

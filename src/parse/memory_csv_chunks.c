/* memory_csv_chunks.c: a large operator_memory.csv cut at line starts, the chunks read on threads, joined as one reading. */
#include "memory_csv.h"
#include "json_chunks.h"
#include "common/error.h"
#include "common/task.h"

#include <stdlib.h>
#include <string.h>

/* Bytes read at a time into a chunk's reader; the header is looked for in the file's first block. */
#define BLOCK ((size_t)1 << 20)
/* libcsv's state between records (its ROW_NOT_BEGUN): a cut there is a cut between rows. */
#define CSV_BETWEEN_ROWS 0

typedef struct {
	csv_ctx c;
	rli_unit unit; /* the unit's rank and role, with notes of its own: a chunk that says anything is read again whole */
	rli_memory *table;
	rli_memory_match_counts counts;
	uint64_t start, end;
	uint64_t data_line; /* the reader's line where the chunk's own bytes begin */
	int opened, ok;
} csv_chunk;

typedef struct {
	csv_ctx *whole;
	rli_bytes *source;
	const unsigned char *header; /* the header line, fed to every chunk after the first */
	size_t header_length;
	csv_chunk *chunks;
	size_t count;
	/* the join: where each chunk's rows go in the whole's table, and its strings' ids there */
	size_t *base;
	uint32_t **remap;
} csv_job;

static int read_chunk(void *arg, size_t i)
{
	csv_job *j = arg;
	csv_chunk *ch = &j->chunks[i];
	csv_ctx *whole = j->whole;
	unsigned char *block = malloc(BLOCK);
	uint64_t at = ch->start;
	int stopped = 0;

	ch->unit = *whole->unit;
	rli_notes_init(&ch->unit.log);
	rli_notes_init(&ch->unit.failures);
	if (!block || rli_memory_new(&ch->table) < 0 ||
	    rli_memory_reserve(ch->table, (size_t)((ch->end - ch->start) / 100 + 16)) < 0 ||
	    rli_csv_open(&ch->c, ch->table, &ch->unit, whole->path, whole->index, &ch->counts) < 0) {
		free(block);
		return rli_error_oom();
	}
	ch->opened = 1;
	/* The header first, so the chunk knows its columns; the BOM, if any, goes with it. */
	if (i > 0) {
		stopped = rli_csv_feed(&ch->c, j->header, j->header_length);
		ch->c.bom_checked = 1;
	}
	ch->data_line = ch->c.line;
	while (!stopped && at < ch->end) {
		size_t want = ch->end - at < BLOCK ? (size_t)(ch->end - at) : BLOCK, got;
		if (rli_bytes_pread(j->source, at, block, want, &got) < 0 || got == 0)
			break;
		at += got;
		stopped = rli_csv_feed(&ch->c, block, got);
	}
	free(block);
	if (stopped || at < ch->end)
		return RLI_OK; /* not ok: the whole is read again, and says why */
	if (i + 1 == j->count)
		rli_csv_end(&ch->c);
	else if (ch->c.parser.pstate != CSV_BETWEEN_ROWS || ch->c.field != 0)
		return RLI_OK; /* the cut fell inside a quoted field: it does not hold */
	ch->ok = !ch->c.broken && !ch->c.oom && !ch->c.stop && ch->unit.failures.count == 0 &&
		 ch->unit.log.count == 0 && ch->c.header_done;
	return RLI_OK;
}

/* A finding of a chunk into the whole's: counts added, the first place the earliest chunk's, its line numbered on. */
static void join_finding(finding *into, const finding *from, uint64_t lines_before)
{
	if (from->count == 0)
		return;
	if (into->count == 0) {
		*into = *from;
		into->line += lines_before;
		return;
	}
	into->count += from->count;
}

/* Chunk i's rows written into the whole's table, where join made room for them. */
static int copy_rows(void *arg, size_t i)
{
	csv_job *j = arg;
	rli_memory_append_rows(j->whole->table, j->chunks[i].table, j->base[i], j->remap[i]);
	return RLI_OK;
}

/*
 * The chunks as one reading: their rows, counts and findings, in file order. The rows' copies,
 * a hundred bytes a row into the whole table's fresh pages (a million rows: 0.2-0.3 s, the run's
 * other core idle), are shared between the threads; the strings are interned on this one, chunk
 * after chunk, so that their ids are those of one reading.
 */
static int join(csv_job *j, unsigned threads)
{
	csv_ctx *c = j->whole;
	uint64_t file_line = 1; /* the file's line where the next chunk's own bytes begin */
	size_t rows = c->table->count;
	int error = RLI_OK;

	if (!(j->base = calloc(j->count, sizeof(*j->base))) || !(j->remap = calloc(j->count, sizeof(*j->remap))))
		return rli_error_oom();
	for (size_t i = 0; i < j->count; i++)
		rows += j->chunks[i].table->count;
	if (rli_memory_reserve(c->table, rows) < 0)
		return RLI_ERROR;
	for (size_t i = 0; i < j->count; i++) {
		csv_chunk *ch = &j->chunks[i];
		const csv_ctx *x = &ch->c;
		/* A chunk numbers its lines from data_line (after the header it was given): the file's are on by this. */
		uint64_t offset = file_line - ch->data_line;
		if (rli_memory_append_begin(c->table, ch->table, &j->remap[i], &j->base[i]) < 0)
			return RLI_ERROR;
		c->counts->allocations += ch->counts.allocations;
		c->counts->matched_inside += ch->counts.matched_inside;
		c->counts->matched_after_end += ch->counts.matched_after_end;
		c->counts->unmatched += ch->counts.unmatched;
		if (ch->counts.max_gap_ms > c->counts->max_gap_ms)
			c->counts->max_gap_ms = ch->counts.max_gap_ms;
		join_finding(&c->bad_number, &x->bad_number, offset);
		join_finding(&c->empty_value, &x->empty_value, offset);
		join_finding(&c->blank_name, &x->blank_name, offset);
		join_finding(&c->short_row, &x->short_row, offset);
		join_finding(&c->free_without_time, &x->free_without_time, offset);
		join_finding(&c->negative_duration, &x->negative_duration, offset);
		join_finding(&c->end_overflow, &x->end_overflow, offset);
		join_finding(&c->negative_total, &x->negative_total, offset);
		join_finding(&c->negative_release, &x->negative_release, offset);
		c->data_rows += x->data_rows;
		file_line += x->line - ch->data_line;
	}
	if ((error = rli_task_each(j->count, threads, copy_rows, j)) < 0)
		return error;
	c->header_done = 1;
	c->line = file_line;
	return RLI_OK;
}

int rli_csv_read_chunks(csv_ctx *c, rli_bytes *source, unsigned threads)
{
	csv_job j;
	unsigned char *head = NULL;
	uint64_t size, *cuts = NULL;
	size_t got, count;
	int result = 0;

	memset(&j, 0, sizeof(j));
	if (rli_bytes_plain_size(source, &size) < 0 || (count = rli_json_chunk_count(size, threads)) < 2)
		return 0;
	if (!(head = malloc(BLOCK)) || !(cuts = calloc(count + 1, sizeof(*cuts))) ||
	    !(j.chunks = calloc(count, sizeof(*j.chunks)))) {
		result = -1;
		goto done;
	}
	/* The header ends at the first line break: a header with a quoted one is read whole. */
	if (rli_bytes_pread(source, 0, head, BLOCK, &got) < 0 || !(j.header = memchr(head, '\n', got)) ||
	    memchr(head, '"', (size_t)(j.header - head)))
		goto done;
	j.header_length = (size_t)(j.header - head) + 1;
	j.header = head;
	/* Cuts after a line break near even shares; whether between rows, the chunk before tells. */
	j.count = 1;
	for (size_t i = 1; i < count; i++) {
		uint64_t from = size / count * i;
		const unsigned char *nl;
		size_t n;
		if (rli_bytes_pread(source, from, head + j.header_length, BLOCK - j.header_length, &n) < 0 ||
		    !(nl = memchr(head + j.header_length, '\n', n)))
			continue;
		from += (uint64_t)(nl - (head + j.header_length)) + 1;
		if (from > cuts[j.count - 1] && from > j.header_length && from < size)
			cuts[j.count++] = from;
	}
	cuts[j.count] = size;
	if (j.count < 2)
		goto done;
	for (size_t i = 0; i < j.count; i++) {
		j.chunks[i].start = cuts[i];
		j.chunks[i].end = cuts[i + 1];
	}
	j.whole = c;
	j.source = source;
	if (rli_task_each(j.count, threads, read_chunk, &j) < 0) {
		result = -1;
		goto done;
	}
	for (size_t i = 0; i < j.count; i++)
		if (!j.chunks[i].ok)
			goto done;
	result = join(&j, threads) < 0 ? -1 : 1;
	if (result > 0)
		rli_notes_add(&c->unit->log, RLI_LOG_DEBUG, "%s: read in %zu chunks on %u threads", c->path, j.count, threads);
done:
	for (size_t i = 0; j.chunks && i < j.count; i++) {
		if (j.chunks[i].opened)
			rli_csv_close(&j.chunks[i].c);
		rli_memory_free(j.chunks[i].table);
		rli_notes_dispose(&j.chunks[i].unit.log);
		rli_notes_dispose(&j.chunks[i].unit.failures);
	}
	for (size_t i = 0; j.remap && i < j.count; i++)
		free(j.remap[i]);
	free(j.remap);
	free(j.base);
	free(j.chunks);
	free(cuts);
	free(head);
	return result;
}

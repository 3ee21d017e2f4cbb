/* html_memory_data.c: a memory page's data file (detail_data_NN.js): its bars and what a click shows, as compact streams. */
#include "html_memory_data.h"
#include "html_bytes.h"
#include "common/error.h"
#include "common/json_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Per bar, in the panel's order (lane by lane, each lane by start), LEB128 varints:
 *   zigzag(start - the lane's previous start), end - start   (time units)
 *   the size's index in the size pool (most frequent first)
 *   zigzag(total allocated - the lane's previous total)        (0.01 MB: what the page shows)
 *   ((stack's index in the stack pool + 1, 0: none) * 3 + how it was found (rli_memory_match)) * 2
 *     + 1 when the block was never freed
 *   and when the op had already ended: how long before        (time units)
 * Sizes are bytes (KB * 1024). A million bars take about 8 bytes each before base64.
 */

typedef struct {
	uint64_t key;     /* a size in bytes, or a stack id */
	size_t count;
	size_t first;     /* first bar with it, to order ties */
	uint32_t index;   /* its place in the pool once sorted */
} pool_entry;

typedef struct {
	pool_entry *entries;
	size_t count, capacity;
	uint32_t *slots;  /* open addressing: entry index + 1 */
	size_t slot_count;
} pool;

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

/* Index of key's entry, counting one more use; -1 when out of memory. */
static long pool_add(pool *p, uint64_t key, size_t bar)
{
	if (2 * (p->count + 1) > p->slot_count) {
		size_t slots = p->slot_count ? 2 * p->slot_count : 256;
		uint32_t *grown = calloc(slots, sizeof(*grown));
		if (!grown)
			return -1;
		for (size_t i = 0; i < p->count; i++) {
			size_t s = mix(p->entries[i].key) & (slots - 1);
			while (grown[s])
				s = (s + 1) & (slots - 1);
			grown[s] = (uint32_t)i + 1;
		}
		free(p->slots);
		p->slots = grown;
		p->slot_count = slots;
	}
	size_t s = mix(key) & (p->slot_count - 1);
	while (p->slots[s]) {
		pool_entry *e = &p->entries[p->slots[s] - 1];
		if (e->key == key) {
			e->count++;
			return (long)(p->slots[s] - 1);
		}
		s = (s + 1) & (p->slot_count - 1);
	}
	if (p->count == p->capacity) {
		size_t capacity = p->capacity ? 2 * p->capacity : 64;
		pool_entry *grown = realloc(p->entries, capacity * sizeof(*grown));
		if (!grown)
			return -1;
		p->entries = grown;
		p->capacity = capacity;
	}
	p->entries[p->count] = (pool_entry){ key, 1, bar, 0 };
	p->slots[s] = (uint32_t)p->count + 1;
	return (long)p->count++;
}

/* Most used first, so the common ones take one byte; ties by first use, so the order is the same every run. */
static int compare_use(const void *a, const void *b)
{
	const pool_entry *x = *(pool_entry *const *)a, *y = *(pool_entry *const *)b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

/* Sorts the pool by use and records each entry's index; order[] lists entries in pool order. */
static int pool_rank(pool *p, pool_entry ***order)
{
	*order = malloc((p->count ? p->count : 1) * sizeof(**order));
	if (!*order)
		return rli_error_oom();
	for (size_t i = 0; i < p->count; i++)
		(*order)[i] = &p->entries[i];
	qsort(*order, p->count, sizeof(**order), compare_use);
	for (size_t i = 0; i < p->count; i++)
		(*order)[i]->index = (uint32_t)i;
	return RLI_OK;
}

static void pool_dispose(pool *p)
{
	free(p->entries);
	free(p->slots);
}

static int64_t units(double value, int decimals)
{
	return (int64_t)llround(value * pow(10.0, decimals));
}

/* A line as two streams: zigzag deltas of x (time units from the origin) and of y (value units). */
static int write_line(FILE *fp, const rli_line_mark *line, double origin, int64_t origin_units)
{
	rli_bytes xs = { 0 }, ys = { 0 };
	int64_t px = 0, py = 0;
	int error = RLI_OK;

	for (size_t i = 0; i < line->count && error == RLI_OK; i++) {
		int64_t x = units(origin + line->x[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
		int64_t y = units(line->y[i], RLI_MEMORY_VALUE_DECIMALS);
		if ((error = rli_bytes_varint(&xs, rli_zigzag(x - px))) == RLI_OK)
			error = rli_bytes_varint(&ys, rli_zigzag(y - py));
		px = x;
		py = y;
	}
	if (error == RLI_OK) {
		fprintf(fp, "{\"count\":%zu,\"color\":", line->count);
		rli_html_color(fp, line->color);
		fputc(',', fp);
		rli_html_number(fp, "width", line->width);
		fputc(',', fp);
		rli_html_number(fp, "fillAlpha", line->fill_alpha);
		fputs(",\"x\":\"", fp);
		rli_write_base64(fp, xs.bytes, xs.used);
		fputs("\",\"y\":\"", fp);
		rli_write_base64(fp, ys.bytes, ys.used);
		fputs("\"}", fp);
	}
	free(xs.bytes);
	free(ys.bytes);
	return error;
}

static int encode_bars(rli_bytes *out, const rli_panel *g, int64_t origin_units, double origin, const pool *sizes,
		       const uint32_t *size_of, const pool *stacks, const long *stack_of)
{
	const rli_bar_details *d = g->details;
	int error = RLI_OK;
	for (size_t r = 0; r < g->row_count && error == RLI_OK; r++) {
		int64_t previous_start = 0, previous_total = 0;
		for (size_t i = g->row_first_bar[r]; i < g->row_first_bar[r + 1] && error == RLI_OK; i++) {
			int64_t start = units(origin + g->bar_start[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
			int64_t end = units(origin + g->bar_end[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
			int64_t total = units(d->total_mb[i], 2);
			unsigned match = d->match[i] <= 2 ? d->match[i] : 0;
			uint64_t stack = stack_of[i] < 0 ? 0 : (uint64_t)stacks->entries[stack_of[i]].index + 1;
			if (end < start)
				end = start;
			if ((error = rli_bytes_varint(out, rli_zigzag(start - previous_start))) < 0 ||
			    (error = rli_bytes_varint(out, (uint64_t)(end - start))) < 0 ||
			    (error = rli_bytes_varint(out, sizes->entries[size_of[i]].index)) < 0 ||
			    (error = rli_bytes_varint(out, rli_zigzag(total - previous_total))) < 0 ||
			    (error = rli_bytes_varint(out, (stack * 3 + match) * 2 + (d->open_ended && d->open_ended[i]))) < 0)
				break;
			if (match == RLI_MEMORY_AFTER_END)
				error = rli_bytes_varint(out, (uint64_t)llabs(units(d->match_gap_ms[i],
										   RLI_MEMORY_TIME_DECIMALS)));
			previous_start = start;
			previous_total = total;
		}
	}
	return error;
}

int rli_html_write_memory_data(FILE *fp, const rli_panel *curve, const rli_panel *g, double origin,
			       const char *page_file)
{
	const rli_bar_details *d = g->details;
	size_t n = g->bar_count;
	int64_t origin_units = units(origin, RLI_MEMORY_TIME_DECIMALS);
	pool sizes = { 0 }, stacks = { 0 };
	pool_entry **size_order = NULL, **stack_order = NULL;
	uint32_t *size_of = malloc((n ? n : 1) * sizeof(*size_of));
	long *stack_of = malloc((n ? n : 1) * sizeof(*stack_of));
	rli_bytes bars = { 0 }, size_bytes = { 0 };
	int error = RLI_OK;

	if (!size_of || !stack_of) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		long s = pool_add(&sizes, (uint64_t)llround(fmax(0.0, d->size_kb[i]) * 1024.0), i);
		long k = d->stack[i] == UINT32_MAX || d->stack[i] >= d->stack_count ? -2 : pool_add(&stacks, d->stack[i], i);
		if (s < 0 || k == -1) {
			error = rli_error_oom();
			goto done;
		}
		size_of[i] = (uint32_t)s;
		stack_of[i] = k < 0 ? -1 : k;
	}
	if ((error = pool_rank(&sizes, &size_order)) < 0 || (error = pool_rank(&stacks, &stack_order)) < 0)
		goto done;
	for (size_t i = 0; i < sizes.count && error == RLI_OK; i++)
		error = rli_bytes_varint(&size_bytes, size_order[i]->key);
	if (error < 0 || (error = encode_bars(&bars, g, origin_units, origin, &sizes, size_of, &stacks, stack_of)) < 0)
		goto done;

	fputs("/* The data of ", fp);
	fputs(page_file, fp);
	fputs(", written by rl-insight " RLI_VERSION ". */\nwindow.rliMemoryData = {\"version\":1,\"page\":", fp);
	rli_json_write_string(fp, page_file, RLI_JSON_HTML_SAFE);
	fprintf(fp, ",\"timeDecimals\":%d,\"valueDecimals\":%d,\"originUnits\":\"%" PRId64 "\",\"count\":%zu,"
		"\"laneCounts\":[", RLI_MEMORY_TIME_DECIMALS, RLI_MEMORY_VALUE_DECIMALS, origin_units, n);
	for (size_t r = 0; r < g->row_count; r++)
		fprintf(fp, "%s%zu", r ? "," : "", g->row_first_bar[r + 1] - g->row_first_bar[r]);
	fprintf(fp, "],\"sizeCount\":%zu,\"sizes\":\"", sizes.count);
	rli_write_base64(fp, size_bytes.bytes, size_bytes.used);
	fputs("\",\"bars\":\"", fp);
	rli_write_base64(fp, bars.bytes, bars.used);
	fputs("\",\"stacks\":[", fp);
	for (size_t i = 0; i < stacks.count; i++) {
		if (i)
			fputc(',', fp);
		rli_json_write_string(fp, d->stacks[stack_order[i]->key], RLI_JSON_HTML_SAFE);
	}
	fputs("],\"lines\":[", fp);
	for (size_t l = 0; curve && l < curve->line_count && error == RLI_OK; l++) {
		if (l)
			fputc(',', fp);
		error = write_line(fp, &curve->lines[l], origin, origin_units);
	}
	fputs("]};\n", fp);
done:
	pool_dispose(&sizes);
	pool_dispose(&stacks);
	free(size_order);
	free(stack_order);
	free(size_of);
	free(stack_of);
	free(bars.bytes);
	free(size_bytes.bytes);
	return error;
}

/* html_memory_data.c: a memory page's data file (detail_data_NN.js): its bars and what a click shows, as packed compact streams. */
#include "html_memory_data.h"
#include "html_bytes.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/json_write.h"
#include "common/sort.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Bars go lane by lane in the panel's order (each lane by start), LEB128 varints, each field in
 * a stream of its own (BAR_STREAMS), where deflate finds a field's values alike. A bar
 * carried over from an earlier page (first in its lane) is drawn and counted here, its
 * details are on its own page:
 *   start: zigzag(start - the lane's previous start),
 *   length: 0 if never freed else 1 + end - start,
 *   size: size / sizeUnit
 * The page's own bars:
 *   start: zigzag(start - the lane's previous start),
 *   code: ((stack's index in the stack pool + 1, 0: none) * 3 + how it was found) * 2
 *         + 1 if never freed,
 *   length: end - start unless never freed,
 *   size: size / sizeUnit,
 *   gap: when the op had already ended, how long before.
 * Past the RLI_MEMORY_CARRIED_KEPT largest of a lane, carried blocks never freed are
 * summarised (summarise_carried) rather than listed.
 * Times are integers of 10^-RLI_MEMORY_TIME_DECIMALS ms from the origin, sizes of the
 * greatest common divisor of every size in bytes. The totals allocated (0.01 MB, what the
 * page shows) go in a stream of their own, in time order (start, then lane, then place),
 * where one differs little from the next: zigzag(total - the previous).
 *
 * The file sets window.rliMemoryData = {"version":3,"page":...,"packed":...}: packed is
 * html_bytes.c's deflate and base85 (version 2 had base64, a third more text than bytes where
 * base85 writes a quarter more: 6% smaller files) of a header, one line of JSON that gives each stream's
 * length in bytes (the bars' five, totals, each line's x and y) beside what is not a stream (lane counts,
 * the call stacks' text), then the streams in that order. Deflate takes little from the
 * varints but four fifths of the stacks' text, which repeats frame after frame.
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

/*
 * x rounded half away from zero, as llround does, without its call (a few percent of writing a
 * page, for every bar's times and size): below 2^52 a double less its integer part is exact.
 */
static int64_t rounded(double x)
{
	if (fabs(x) < 4503599627370496.0) {
		int64_t whole = (int64_t)x;
		double fraction = x - (double)whole;
		return whole + (fraction >= 0.5) - (fraction <= -0.5);
	}
	return (int64_t)llround(x);
}

/* value in units of 10^-decimals */
static int64_t units(double value, int decimals)
{
	return rounded(value * pow(10.0, decimals));
}

/*
 * A line as two streams: x (time units from the origin) as zigzag changes of
 * its step, a byte a point where the points are evenly spaced (the envelope's
 * columns), and y (value units) as zigzag deltas.
 */
static int encode_line(rli_bytes *xs, rli_bytes *ys, const rli_line_mark *line, double origin, int64_t origin_units)
{
	int64_t px = 0, py = 0, pstep = 0;
	int error = RLI_OK;

	for (size_t i = 0; i < line->count && error == RLI_OK; i++) {
		int64_t x = units(origin + line->x[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
		int64_t y = units(line->y[i], RLI_MEMORY_VALUE_DECIMALS);
		if ((error = rli_bytes_varint(xs, rli_zigzag(x - px - pstep))) == RLI_OK)
			error = rli_bytes_varint(ys, rli_zigzag(y - py));
		pstep = x - px;
		px = x;
		py = y;
	}
	return error;
}

/* A line's look, and the lengths of its two streams in the packed bytes. */
static void write_line(FILE *fp, const rli_line_mark *line, const rli_bytes *xs, const rli_bytes *ys)
{
	fprintf(fp, "{\"count\":%zu,\"color\":", line->count);
	rli_html_color(fp, line->color);
	fputc(',', fp);
	rli_html_number(fp, "width", line->width);
	fputc(',', fp);
	rli_html_number(fp, "fillAlpha", line->fill_alpha);
	if (line->name) { /* only the lines a legend names: the Ascend curve's have none */
		fputs(",\"name\":", fp);
		rli_json_write_string(fp, line->name, RLI_JSON_HTML_SAFE);
	}
	fprintf(fp, ",\"x\":%zu,\"y\":%zu}", xs->used, ys->used);
}

typedef struct {
	int64_t start, end;
	uint32_t lane;
	size_t bar;
} home_key;

static int compare_time(const void *a, const void *b)
{
	const home_key *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	return (x->bar > y->bar) - (x->bar < y->bar);
}

/*
 * The page's own bars in compare_time order. They come lane by lane, each lane in start order, so
 * the lane and the bar already rise through ties: a stable sort of the starts (a few runs merge,
 * many go through the radix sort) gives that order without qsort's comparisons. A start past 2^53
 * units, which no double holds exactly, leaves it to qsort.
 */
static int order_by_time(home_key *home, size_t n)
{
	const int64_t exact = (int64_t)1 << 53;
	double *keys;
	size_t *order, *tmp;
	home_key *copy;
	int error = RLI_OK;

	for (size_t i = 0; i < n; i++)
		if (home[i].start <= -exact || home[i].start >= exact) {
			qsort(home, n, sizeof(*home), compare_time);
			return RLI_OK;
		}
	if (n < 2)
		return RLI_OK;
	keys = rli_bigmem_array(n, sizeof(*keys));
	order = rli_bigmem_array(n, sizeof(*order));
	tmp = rli_bigmem_array(n, sizeof(*tmp));
	copy = rli_bigmem_array(n, sizeof(*copy));
	if (keys && order && tmp && copy) {
		for (size_t i = 0; i < n; i++)
			keys[i] = (double)home[i].start;
		rli_stable_sort_items(home, n, sizeof(*home), keys, order, tmp, copy);
	} else {
		error = rli_error_oom();
	}
	rli_bigmem_free(keys);
	rli_bigmem_free(order);
	rli_bigmem_free(tmp);
	rli_bigmem_free(copy);
	return error;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

typedef struct {
	double size_kb, start;
	size_t bar;
} carried_key;

/* The largest first, then the earliest: which carried blocks never freed a lane keeps one by one. */
static int carried_before(const carried_key *x, const carried_key *y)
{
	if (x->size_kb != y->size_kb)
		return x->size_kb > y->size_kb;
	if (x->start != y->start)
		return x->start < y->start;
	return x->bar < y->bar;
}

/*
 * Blocks never freed that came from earlier pages span the whole page and
 * cannot differ inside it: past the RLI_MEMORY_CARRIED_KEPT largest of a
 * lane, they travel as their count, total size and earliest start (*summary,
 * three numbers a lane) and are marked in omit[]. Only which ones are kept
 * matters, not their order: the kept few are found in one pass over the lane,
 * where sorting hundreds of thousands of them took most of the writing.
 */
static void summarise_carried(const rli_panel *g, int64_t origin_units, double origin, uint64_t size_unit,
			      uint8_t *omit, uint64_t *summary)
{
	const rli_bar_details *d = g->details;
	memset(omit, 0, g->bar_count ? g->bar_count : 1);
	for (size_t r = 0; r < g->row_count; r++) {
		carried_key best[RLI_MEMORY_CARRIED_KEPT]; /* the best so far, in order */
		size_t count = 0, kept = 0;
		summary[3 * r] = summary[3 * r + 1] = summary[3 * r + 2] = 0;
		if (!d->carried || !d->open_ended)
			continue;
		for (size_t i = g->row_first_bar[r]; i < g->row_first_bar[r + 1]; i++) {
			carried_key key = { d->size_kb[i], g->bar_start[i], i };
			size_t at;
			if (!d->carried[i] || !d->open_ended[i])
				continue;
			count++;
			omit[i] = 1;
			if (kept == RLI_MEMORY_CARRIED_KEPT && !carried_before(&key, &best[kept - 1]))
				continue;
			at = kept < RLI_MEMORY_CARRIED_KEPT ? kept++ : kept - 1;
			for (; at > 0 && carried_before(&key, &best[at - 1]); at--)
				best[at] = best[at - 1];
			best[at] = key;
		}
		for (size_t k = 0; k < kept; k++)
			omit[best[k].bar] = 0;
		if (count <= RLI_MEMORY_CARRIED_KEPT)
			continue;
		for (size_t i = g->row_first_bar[r]; i < g->row_first_bar[r + 1]; i++) {
			int64_t start;
			if (!omit[i])
				continue;
			start = units(origin + g->bar_start[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
			summary[3 * r]++;
			summary[3 * r + 1] += (uint64_t)rounded(fmax(0.0, d->size_kb[i]) * 1024.0) / size_unit;
			if (summary[3 * r] == 1 || (uint64_t)start < summary[3 * r + 2])
				summary[3 * r + 2] = (uint64_t)start;
		}
	}
}

enum { BAR_START, BAR_CODE, BAR_LENGTH, BAR_SIZE, BAR_GAP, BAR_STREAMS };

static int encode_bars(rli_bytes *out, rli_bytes *totals, const rli_panel *g, int64_t origin_units, double origin,
		       uint64_t size_unit, const pool *stacks, const long *stack_of, size_t *carried_counts,
		       const uint8_t *omit)
{
	const rli_bar_details *d = g->details;
	home_key *home = malloc((g->bar_count ? g->bar_count : 1) * sizeof(*home));
	size_t homes = 0;
	int64_t previous_total = 0;
	int error = RLI_OK;

	if (!home)
		return rli_error_oom();
	for (size_t r = 0; r < g->row_count && error == RLI_OK; r++) {
		int64_t previous_start = 0;
		int own = 0;
		carried_counts[r] = 0;
		for (size_t i = g->row_first_bar[r]; i < g->row_first_bar[r + 1] && error == RLI_OK; i++) {
			int64_t start = units(origin + g->bar_start[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
			int64_t end = units(origin + g->bar_end[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
			int open = d->open_ended && d->open_ended[i];
			uint64_t size = (uint64_t)rounded(fmax(0.0, d->size_kb[i]) * 1024.0) / size_unit;
			if (omit[i])
				continue;
			if (end < start)
				end = start;
			if ((error = rli_bytes_varint(&out[BAR_START], rli_zigzag(start - previous_start))) < 0)
				break;
			previous_start = start;
			if (d->carried && d->carried[i]) {
				if (own) {
					error = rli_error_set(RLI_EUSAGE, "html: a lane's carried bars come before its own");
					break;
				}
				carried_counts[r]++;
				if ((error = rli_bytes_varint(&out[BAR_LENGTH], open ? 0 : 1 + (uint64_t)(end - start))) == RLI_OK)
					error = rli_bytes_varint(&out[BAR_SIZE], size);
				continue;
			}
			own = 1;
			unsigned match = d->match[i] <= 2 ? d->match[i] : 0;
			uint64_t stack = stack_of[i] < 0 ? 0 : (uint64_t)stacks->entries[stack_of[i]].index + 1;
			if ((error = rli_bytes_varint(&out[BAR_CODE], (stack * 3 + match) * 2 + (unsigned)open)) < 0 ||
			    (!open && (error = rli_bytes_varint(&out[BAR_LENGTH], (uint64_t)(end - start))) < 0) ||
			    (error = rli_bytes_varint(&out[BAR_SIZE], size)) < 0)
				break;
			if (match == RLI_MEMORY_AFTER_END)
				error = rli_bytes_varint(&out[BAR_GAP], (uint64_t)llabs(units(d->match_gap_ms[i],
										   RLI_MEMORY_TIME_DECIMALS)));
			home[homes++] = (home_key){ start, end, (uint32_t)r, i };
		}
	}
	if (error == RLI_OK && (error = order_by_time(home, homes)) == RLI_OK)
		for (size_t h = 0; h < homes && error == RLI_OK; h++) {
			int64_t total = units(d->total_mb[home[h].bar], 2);
			error = rli_bytes_varint(totals, rli_zigzag(total - previous_total));
			previous_total = total;
		}
	free(home);
	return error;
}

int rli_html_write_memory_data(FILE *fp, const rli_panel *curve, const rli_panel *g, double origin,
			       const char *page_file)
{
	const rli_bar_details *d = g->details;
	size_t n = g->bar_count, line_count = curve ? curve->line_count : 0;
	int64_t origin_units = units(origin, RLI_MEMORY_TIME_DECIMALS);
	pool stacks = { 0 };
	pool_entry **stack_order = NULL;
	long *stack_of = malloc((n ? n : 1) * sizeof(*stack_of));
	size_t *carried = malloc((g->row_count ? g->row_count : 1) * sizeof(*carried));
	uint64_t *summary = malloc((g->row_count ? g->row_count : 1) * 3 * sizeof(*summary));
	uint8_t *omit = malloc(n ? n : 1);
	rli_bytes bars[BAR_STREAMS] = { { 0 } }, totals = { 0 }, inner = { 0 };
	rli_bytes *line_streams = calloc(2 * (line_count ? line_count : 1), sizeof(*line_streams));
	rli_bytes exact[2] = { { 0 } };
	const rli_line_mark *exact_line = curve && curve->exact && curve->exact->count ? curve->exact : NULL;
	rli_memfile header = { 0 };
	FILE *hp;
	uint64_t size_unit = 0;
	int64_t open_end = 0;
	int error = RLI_OK;

	if (!stack_of || !carried || !summary || !omit || !line_streams) {
		error = rli_error_oom();
		goto done;
	}
	/* Stacks of the page's own bars only: a carried bar's is on its own page. */
	for (size_t i = 0; i < n; i++) {
		int own = !(d->carried && d->carried[i]);
		long k = !own || d->stack[i] == UINT32_MAX || d->stack[i] >= d->stack_count ? -2
											 : pool_add(&stacks, d->stack[i], i);
		if (k == -1) {
			error = rli_error_oom();
			goto done;
		}
		stack_of[i] = k < 0 ? -1 : k;
		{
			uint64_t bytes = (uint64_t)rounded(fmax(0.0, d->size_kb[i]) * 1024.0);
			/* Most sizes are a multiple of the unit so far: one division rather than Euclid's two. */
			if (!size_unit || bytes % size_unit != 0)
				size_unit = gcd(size_unit, bytes);
		}
	}
	if (!size_unit)
		size_unit = 1;
	/* Blocks never freed all end where the capture does: said once, not per bar. */
	for (size_t i = 0; i < n; i++)
		if (d->open_ended && d->open_ended[i]) {
			int64_t end = units(origin + g->bar_end[i], RLI_MEMORY_TIME_DECIMALS) - origin_units;
			if (end > open_end)
				open_end = end;
		}
	summarise_carried(g, origin_units, origin, size_unit, omit, summary);
	if ((error = pool_rank(&stacks, &stack_order)) < 0 ||
	    (error = encode_bars(bars, &totals, g, origin_units, origin, size_unit, &stacks, stack_of, carried,
				 omit)) < 0)
		goto done;
	for (size_t l = 0; l < line_count && error == RLI_OK; l++)
		error = encode_line(&line_streams[2 * l], &line_streams[2 * l + 1], &curve->lines[l], origin,
				    origin_units);
	if (error == RLI_OK && exact_line)
		error = encode_line(&exact[0], &exact[1], exact_line, origin, origin_units);
	if (error < 0 || (error = rli_memfile_open(&header)) < 0)
		goto done;

	/* The version and the page are the wrapper's, outside the packed bytes, where the page checks them. */
	hp = header.fp;
	size_t written = 0;
	for (size_t i = 0; i < n; i++)
		written += !omit[i];
	fprintf(hp, "{\"timeDecimals\":%d,\"valueDecimals\":%d,\"originUnits\":\"%" PRId64 "\",\"count\":%zu,"
		"\"laneCounts\":[", RLI_MEMORY_TIME_DECIMALS, RLI_MEMORY_VALUE_DECIMALS, origin_units, written);
	for (size_t r = 0; r < g->row_count; r++) {
		size_t lane = 0;
		for (size_t i = g->row_first_bar[r]; i < g->row_first_bar[r + 1]; i++)
			lane += !omit[i];
		fprintf(hp, "%s%zu", r ? "," : "", lane);
	}
	fputs("],\"carriedCounts\":[", hp);
	for (size_t r = 0; r < g->row_count; r++)
		fprintf(hp, "%s%zu", r ? "," : "", carried[r]);
	fputs("],\"carriedSummary\":[", hp);
	for (size_t r = 0; r < g->row_count; r++)
		fprintf(hp, "%s[%" PRIu64 ",\"%" PRIu64 "\",\"%" PRIu64 "\"]", r ? "," : "", summary[3 * r],
			summary[3 * r + 1], summary[3 * r + 2]);
	fprintf(hp, "],\"sizeUnit\":%" PRIu64 ",\"openEndUnits\":\"%" PRId64 "\",\"bars\":[", size_unit, open_end);
	for (size_t b = 0; b < BAR_STREAMS; b++)
		fprintf(hp, "%s%zu", b ? "," : "", bars[b].used);
	fprintf(hp, "],\"totals\":%zu,\"stacks\":[", totals.used);
	for (size_t i = 0; i < stacks.count; i++) {
		if (i)
			fputc(',', hp);
		rli_json_write_string(hp, d->stacks[stack_order[i]->key], RLI_JSON_HTML_SAFE);
	}
	fputs("],\"lines\":[", hp);
	for (size_t l = 0; l < line_count; l++) {
		if (l)
			fputc(',', hp);
		write_line(hp, &curve->lines[l], &line_streams[2 * l], &line_streams[2 * l + 1]);
	}
	fputc(']', hp);
	/* The curve inside the segment where the page cannot sum it from its bars: the allocator's count. */
	if (exact_line)
		fprintf(hp, ",\"exact\":{\"count\":%zu,\"x\":%zu,\"y\":%zu}", exact_line->count, exact[0].used,
			exact[1].used);
	fputs("}\n", hp);
	/* What is packed: the header's JSON, a newline, then every stream it counts, in that order. */
	if ((error = rli_memfile_close(&header)) < 0 ||
	    (error = rli_bytes_append(&inner, header.text, header.length)) < 0)
		goto done;
	for (size_t b = 0; b < BAR_STREAMS && error == RLI_OK; b++)
		error = rli_bytes_append(&inner, bars[b].bytes, bars[b].used);
	if (error < 0 || (error = rli_bytes_append(&inner, totals.bytes, totals.used)) < 0)
		goto done;
	for (size_t l = 0; l < 2 * line_count && error == RLI_OK; l++)
		error = rli_bytes_append(&inner, line_streams[l].bytes, line_streams[l].used);
	for (size_t k = 0; k < 2 && exact_line && error == RLI_OK; k++)
		error = rli_bytes_append(&inner, exact[k].bytes, exact[k].used);
	if (error < 0)
		goto done;

	fputs("/* The data of ", fp);
	fputs(page_file, fp);
	fputs(", written by rl-insight " RLI_VERSION ". */\nwindow.rliMemoryData = {\"version\":3,\"page\":", fp);
	rli_json_write_string(fp, page_file, RLI_JSON_HTML_SAFE);
	fputs(",\"packed\":\"", fp);
	if ((error = rli_write_packed_as(fp, inner.bytes, inner.used, header.length, RLI_TEXT_BASE85)) < 0)
		goto done;
	fputs("\"};\n", fp);
done:
	pool_dispose(&stacks);
	free(stack_order);
	free(stack_of);
	free(carried);
	free(summary);
	free(omit);
	for (size_t b = 0; b < BAR_STREAMS; b++)
		free(bars[b].bytes);
	free(totals.bytes);
	free(exact[0].bytes);
	free(exact[1].bytes);
	free(inner.bytes);
	for (size_t l = 0; line_streams && l < 2 * line_count; l++)
		free(line_streams[l].bytes);
	free(line_streams);
	rli_memfile_dispose(&header);
	return error;
}

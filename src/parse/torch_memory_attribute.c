/* torch_memory_attribute.c: each memory row's operator (the innermost cpu_op on its thread around it) and Python stack (the python_function frames around it). */
#include "torch_memory.h"
#include "common/bigmem.h"
#include "common/grow.h"
#include "common/sort.h"
#include "memory/memory_table.h"

#include <stdlib.h>
#include <string.h>

/* The separator of the Ascend "Call stack" value, which the torch stacks are written with too. */
#define FRAME_SEPARATOR ";\r\n"

/*
 * The rows by thread, each thread's in time order. The table's rows come in time order already
 * (paired so), so a stable counting sort by thread (a handful of them) is all it takes. Row
 * numbers only: the sweep reads each row's time and thread where they are, in the order they are.
 */
static uint32_t *rows_by_thread(const torch_memory *tm, size_t count, const uint32_t *row_tid)
{
	size_t threads = tm->tids.count, *next = calloc(threads + 1, sizeof(*next));
	uint32_t *rows = rli_bigmem_array(count, sizeof(*rows));
	if (!next || !rows) {
		free(next);
		rli_bigmem_free(rows);
		return NULL;
	}
	for (size_t i = 0; i < count; i++)
		next[row_tid[i] + 1]++;
	for (size_t t = 1; t <= threads; t++)
		next[t] += next[t - 1];
	for (size_t i = 0; i < count; i++)
		rows[next[row_tid[i]]++] = (uint32_t)i;
	free(next);
	return rows;
}

/* By thread, then start; of spans starting together the longer first, so the inner one ends up on top. */
static int compare_spans(const void *a, const void *b)
{
	const torch_memory_span *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start_us != y->start_us)
		return x->start_us < y->start_us ? -1 : 1;
	if (x->end_us != y->end_us)
		return x->end_us > y->end_us ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* Of spans starting together, the longer first, then the file's order: by insertion, as they are a few. */
static void order_same_start(torch_memory_span *spans, size_t n)
{
	if (n > 32) { /* a trace of many spans at one instant is no reason to take quadratic time */
		qsort(spans, n, sizeof(*spans), compare_spans);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		torch_memory_span item = spans[i];
		size_t j = i;
		for (; j > 0 && compare_spans(&item, &spans[j - 1]) < 0; j--)
			spans[j] = spans[j - 1];
		spans[j] = item;
	}
}

/*
 * One thread's spans, in the file's order, put in compare_spans order: a stable sort of their
 * starts (rli_stable_order: a thread's spans come in the order they end, each one after those it
 * holds, which is nearly sorted, or sorted runs), then each run of equal starts by compare_spans.
 * Ties keep the file's order, compare_spans' last rule, so this is the order qsort gave, at a
 * fraction of its comparisons. spare: n spans no longer needed, keys, order and tmp: n each.
 */
static void order_thread(torch_memory_span *spans, size_t n, torch_memory_span *spare, double *keys,
			 size_t *order, size_t *tmp)
{
	for (size_t i = 0; i < n; i++)
		keys[i] = spans[i].start_us;
	rli_stable_sort_items(spans, n, sizeof(*spans), keys, order, tmp, spare);
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		for (hi = lo + 1; hi < n && spans[hi].start_us == spans[lo].start_us; hi++)
			;
		if (hi - lo > 1)
			order_same_start(spans + lo, hi - lo);
	}
}

/*
 * The spans in compare_spans order: first by thread (a counting sort, stable, of a handful of
 * threads), then each thread's run by time where it is not in that order already (order_thread).
 */
int torch_memory_sort_spans(torch_memory *tm)
{
	size_t n = tm->span_count, threads = tm->tids.count, longest = 0, *first = calloc(threads + 1, sizeof(*first));
	size_t *order = NULL, *tmp = NULL;
	double *keys = NULL;
	torch_memory_span *sorted = rli_bigmem_array(n, sizeof(*sorted));
	int result = -1;
	if (!first || !sorted)
		goto done;
	for (size_t i = 0; i < n; i++)
		first[tm->spans[i].tid + 1]++;
	for (size_t t = 1; t <= threads; t++) {
		longest = first[t] > longest ? first[t] : longest;
		first[t] += first[t - 1];
	}
	{
		size_t *fill = first; /* advanced to each run's end; the runs start where the previous ended */
		for (size_t i = 0; i < n; i++)
			sorted[fill[tm->spans[i].tid]++] = tm->spans[i];
	}
	for (size_t t = 0, lo = 0; t < threads; lo = first[t++]) {
		size_t hi = first[t], i = lo + 1;
		while (i < hi && compare_spans(&sorted[i - 1], &sorted[i]) < 0)
			i++;
		if (i >= hi)
			continue;
		if (!keys && (!(keys = rli_bigmem_array(longest, sizeof(*keys))) ||
			      !(order = rli_bigmem_array(longest, sizeof(*order))) ||
			      !(tmp = rli_bigmem_array(longest, sizeof(*tmp)))))
			goto done;
		/* The spans as read are all copied into sorted: their block is the spare. */
		order_thread(sorted + lo, hi - lo, tm->spans, keys, order, tmp);
	}
	rli_bigmem_free(tm->spans);
	tm->spans = sorted;
	tm->span_capacity = n;
	sorted = NULL;
	result = 0;
done:
	free(first);
	rli_bigmem_free(sorted);
	rli_bigmem_free(keys);
	rli_bigmem_free(order);
	rli_bigmem_free(tmp);
	return result;
}

/* The sweep's state: the spans begun and not yet known to have ended, and the last stack made. */
typedef struct {
	torch_memory *tm;
	rli_memory *memory;
	size_t *open;           /* indices into tm->spans, outermost first */
	size_t open_count, open_capacity;
	uint32_t *frames, *last_frames; /* the current and the previous row's frame names */
	size_t frame_count, last_frame_count, frames_capacity, last_capacity;
	uint32_t last_stack, last_top;
	char *text;
	size_t text_capacity;
} sweep;

/* The frames' names joined innermost first, interned in the table: the row's call stack and its top. */
static int make_stack(sweep *s, uint32_t *stack, uint32_t *top)
{
	size_t length = 0, first = 0;
	const rli_strpool *names = &s->tm->names;
	if (s->frame_count == 0) {
		*stack = *top = s->memory->empty;
		return RLI_OK;
	}
	if (s->frame_count == s->last_frame_count &&
	    memcmp(s->frames, s->last_frames, s->frame_count * sizeof(*s->frames)) == 0) {
		*stack = s->last_stack;
		*top = s->last_top;
		return RLI_OK;
	}
	for (size_t i = 0; i < s->frame_count; i++)
		length += rli_strpool_length(names, s->frames[i]) + strlen(FRAME_SEPARATOR);
	if (RLI_GROW(&s->text, &s->text_capacity, length + 1, 256) < 0)
		return RLI_ERROR;
	length = 0;
	for (size_t i = 0; i < s->frame_count; i++) {
		size_t n = rli_strpool_length(names, s->frames[i]);
		if (i) {
			memcpy(s->text + length, FRAME_SEPARATOR, strlen(FRAME_SEPARATOR));
			length += strlen(FRAME_SEPARATOR);
		}
		memcpy(s->text + length, rli_strpool_get(names, s->frames[i]), n);
		length += n;
		if (i == 0)
			first = n;
	}
	*stack = rli_memory_intern(s->memory, s->text, length);
	*top = rli_memory_intern(s->memory, s->text, first);
	if (*stack == RLI_STRPOOL_NONE || *top == RLI_STRPOOL_NONE)
		return rli_error_oom();
	/* Rows in a row mostly share a stack: the next one compares ids rather than joining text. */
	if (RLI_GROW(&s->last_frames, &s->last_capacity, s->frame_count, 64) < 0)
		return RLI_ERROR;
	memcpy(s->last_frames, s->frames, s->frame_count * sizeof(*s->frames));
	s->last_frame_count = s->frame_count;
	s->last_stack = *stack;
	s->last_top = *top;
	return RLI_OK;
}

/* The row at ts: its operator and frames from the open spans that contain ts. */
static int attribute_row(sweep *s, uint32_t row, double ts_us)
{
	const torch_memory_span *spans = s->tm->spans;
	const torch_memory_span *op = NULL;
	uint32_t stack, top;
	int error;

	s->frame_count = 0;
	for (size_t k = s->open_count; k-- > 0;) {
		const torch_memory_span *span = &spans[s->open[k]];
		if (span->end_us < ts_us)
			continue; /* ended; below a longer span that overlaps it, not nested in it */
		if (span->kind == TM_SPAN_OP) {
			if (!op)
				op = span;
			continue;
		}
		if (RLI_GROW(&s->frames, &s->frames_capacity, s->frame_count + 1, 64) < 0)
			return RLI_ERROR;
		s->frames[s->frame_count++] = span->name;
	}
	if (op) {
		const rli_strpool *names = &s->tm->names;
		uint32_t name = rli_memory_intern(s->memory, rli_strpool_get(names, op->name),
						  rli_strpool_length(names, op->name));
		if (name == RLI_STRPOOL_NONE)
			return rli_error_oom();
		s->memory->name[row] = name;
		s->memory->flags[row] = (uint8_t)((s->memory->flags[row] & RLI_MEMORY_RELEASED) |
						  ((unsigned)RLI_MEMORY_INSIDE << RLI_MEMORY_MATCH_SHIFT));
		s->tm->with_op++;
	}
	if ((error = make_stack(s, &stack, &top)) < 0)
		return error;
	s->memory->call_stack[row] = stack;
	s->memory->call_stack_top[row] = top;
	s->tm->with_stack += s->frame_count > 0;
	return RLI_OK;
}

/*
 * One sweep per thread through the rows and the spans, both in time order: a span is opened when
 * its start is reached and closed once it has ended before the current row, so each row sees the
 * spans around it. Profilers nest a thread's spans; one that overlaps without nesting is still
 * found, as it stays open until everything above it has ended.
 */
int torch_memory_attribute(torch_memory *tm, rli_memory *memory, const double *row_ts_us, const uint32_t *row_tid)
{
	sweep s;
	uint32_t *rows = NULL;
	size_t next = 0;
	uint32_t thread = UINT32_MAX;
	int error = RLI_OK;

	if (memory->count == 0 || tm->span_count == 0)
		return RLI_OK;
	memset(&s, 0, sizeof(s));
	s.tm = tm;
	s.memory = memory;
	if (!(rows = rows_by_thread(tm, memory->count, row_tid)))
		return rli_error_oom();
	if (torch_memory_sort_spans(tm) < 0) {
		rli_bigmem_free(rows);
		return rli_error_oom();
	}
	for (size_t i = 0; i < memory->count && error == RLI_OK; i++) {
		uint32_t row = rows[i];
		double ts = row_ts_us[row]; /* as written: start_ms went through a division */
		if (row_tid[row] != thread) {
			thread = row_tid[row];
			s.open_count = 0;
			while (next < tm->span_count && tm->spans[next].tid < thread)
				next++;
		}
		for (; next < tm->span_count && tm->spans[next].tid == thread && tm->spans[next].start_us <= ts; next++) {
			/* What ended before this span began ends before every row still to come. */
			while (s.open_count && tm->spans[s.open[s.open_count - 1]].end_us < tm->spans[next].start_us)
				s.open_count--;
			if (RLI_GROW(&s.open, &s.open_capacity, s.open_count + 1, 64) < 0) {
				error = RLI_ERROR;
				break;
			}
			s.open[s.open_count++] = next;
		}
		while (s.open_count && tm->spans[s.open[s.open_count - 1]].end_us < ts)
			s.open_count--;
		if (error == RLI_OK)
			error = attribute_row(&s, row, ts);
	}
	rli_bigmem_free(rows);
	free(s.open);
	free(s.frames);
	free(s.last_frames);
	free(s.text);
	return error;
}

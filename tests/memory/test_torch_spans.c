/* test_torch_spans.c: the torch trace's operator and frame spans come out of torch_memory_sort_spans in the order the attribution's rule states, whatever order the trace wrote them in. */
#include "harness.h"
#include "parse/torch_memory.h"
#include "common/bigmem.h"

#include <stdlib.h>
#include <string.h>

static uint64_t state = 0x2545F4914F6CDD1Dull;

/* The rule, stated apart from the parser's: thread, then start, then the longer first, then the file's order. */
static int rule(const void *a, const void *b)
{
	const torch_memory_span *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start_us < y->start_us || x->start_us > y->start_us)
		return x->start_us < y->start_us ? -1 : 1;
	if (x->end_us > y->end_us || x->end_us < y->end_us)
		return x->end_us > y->end_us ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* A torch_memory holding `threads` threads and the spans given (in the file's order: order is set here). */
static void fill(torch_memory *tm, unsigned threads, const torch_memory_span *spans, size_t n)
{
	char name[16];
	torch_memory_init(tm, 1, "role", 0);
	for (unsigned t = 0; t < threads; t++) {
		int length = snprintf(name, sizeof(name), "%u", 100 + t);
		if (rli_strpool_intern(&tm->tids, name, (size_t)length) != t)
			abort();
	}
	tm->spans = rli_bigmem_array(n ? n : 1, sizeof(*tm->spans));
	if (!tm->spans)
		abort();
	memcpy(tm->spans, spans, n * sizeof(*spans));
	for (size_t i = 0; i < n; i++)
		tm->spans[i].order = (uint32_t)i;
	tm->span_count = tm->span_capacity = n;
}

static int sorts_by_rule(const char *shape, unsigned threads, const torch_memory_span *spans, size_t n)
{
	torch_memory tm;
	torch_memory_span *expected = malloc((n ? n : 1) * sizeof(*expected));
	int same;
	fill(&tm, threads, spans, n);
	memcpy(expected, tm.spans, n * sizeof(*expected));
	qsort(expected, n, sizeof(*expected), rule);
	same = torch_memory_sort_spans(&tm) == 0 && tm.span_count == n &&
	       memcmp(tm.spans, expected, n * sizeof(*expected)) == 0;
	if (!same)
		fprintf(stderr, "%s: %zu spans not in the rule's order\n", shape, n);
	free(expected);
	torch_memory_dispose(&tm);
	return same;
}

/*
 * Nested calls as a trace writes them, each when it ends: a call's children, then the call.
 * Siblings may start at the call's own start, and some end with it: the rule's ties.
 */
static size_t write_calls(torch_memory_span *out, size_t at, size_t room, uint32_t tid, double start, double end,
			  int depth)
{
	double t = start;
	int children = depth > 0 ? (int)(rli_test_random(&state) % 4) : 0;
	for (int c = 0; c < children && at + 1 < room; c++) {
		double length = (end - t) * (double)(1 + rli_test_random(&state) % 3) / 4.0;
		double from = rli_test_random(&state) % 3 == 0 ? t : t + (double)(rli_test_random(&state) % 5);
		double to = rli_test_random(&state) % 4 == 0 ? end : from + length;
		if (to > end)
			to = end;
		at = write_calls(out, at, room, tid, from, to, depth - 1);
		t = to;
	}
	if (at < room)
		out[at++] = (torch_memory_span){ .start_us = start, .end_us = end, .tid = tid, .kind = TM_SPAN_OP };
	return at;
}

int main(void)
{
	const size_t n = 200000;
	torch_memory_span *spans = calloc(n, sizeof(*spans));
	size_t count;

	/* Shuffled starts on four threads, many of them equal, with equal ends among them. */
	for (size_t i = 0; i < n; i++) {
		double start = (double)(rli_test_random(&state) % 5000);
		spans[i] = (torch_memory_span){ .start_us = start,
						.end_us = start + (double)(rli_test_random(&state) % 4),
						.tid = (uint32_t)(rli_test_random(&state) % 4) };
	}
	CHECK(sorts_by_rule("shuffled, ties", 4, spans, n));

	/* Calls nested eight deep, each written when it ends, threads interleaved by blocks of calls. */
	count = 0;
	for (double t = 0; count < n; t += 1000.0)
		count = write_calls(spans, count, n, (uint32_t)(rli_test_random(&state) % 3), t, t + 900.0, 8);
	CHECK(sorts_by_rule("nested, written as they end", 3, spans, count));

	/* Already in order: nothing to do, and nothing may change. */
	for (size_t i = 0; i < n; i++)
		spans[i] = (torch_memory_span){ .start_us = (double)i, .end_us = (double)i + 2.0, .tid = 0 };
	CHECK(sorts_by_rule("in order", 1, spans, n));

	/* Thousands of spans at one instant on one thread: ordered by length, then as written. */
	for (size_t i = 0; i < 5000; i++)
		spans[i] = (torch_memory_span){ .start_us = 7.0,
						.end_us = 7.0 + (double)(rli_test_random(&state) % 50),
						.tid = 0 };
	CHECK(sorts_by_rule("one instant", 1, spans, 5000));

	/* -0 starts where 0 does, and a handful of spans: the small cases. */
	spans[0] = (torch_memory_span){ .start_us = 0.0, .end_us = 1.0, .tid = 1 };
	spans[1] = (torch_memory_span){ .start_us = -0.0, .end_us = 3.0, .tid = 1 };
	spans[2] = (torch_memory_span){ .start_us = -5.0, .end_us = 0.0, .tid = 0 };
	CHECK(sorts_by_rule("three", 2, spans, 3));
	CHECK(sorts_by_rule("none", 1, spans, 0));

	free(spans);
	TEST_DONE();
}

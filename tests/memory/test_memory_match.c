/* test_memory_match.c: the call-stack matching rule (memory.md §3.3) at its edges: no match, ties, repeats, ended ops. */
#include "harness.h"
#include "memory_fixture.h"

/* Parses one capture made of these rows and ops; the table, or NULL with the failure printed. */
static rli_memory *parse_capture(const char *root, const mf_row *rows, size_t row_count, const mf_op *ops,
				 size_t op_count)
{
	rli_memory *memory = NULL;
	char *csv = mf_csv(rows, row_count), *trace = mf_trace(ops, op_count);
	int rc;
	fx_remove(root);
	mf_capture(root, "20260101_000000_ascend_pt", 0, MF_METADATA, csv, trace);
	free(csv);
	free(trace);
	rc = mf_parse(&memory, root, NULL, NULL, 1, NULL);
	CHECK_INT(rc, RLI_OK);
	if (rc != RLI_OK)
		fprintf(stderr, "%s\n", rli_error_last());
	return memory;
}

static void expect_row(const rli_memory *memory, size_t i, const char *stack, rli_memory_match match,
		       double gap_ms, int line)
{
	rli_memory_row row = mf_get(memory, i);
	if (strcmp(row.call_stack, stack) != 0 || row.match != match || fabs(row.match_gap_ms - gap_ms) > 1e-9) {
		fprintf(stderr, "line %d: row %zu (%s at %.17g): stack \"%s\" match %d gap %.17g; want \"%s\" %d %.17g\n",
			line, i, row.name, row.start_time_ms, row.call_stack, (int)row.match, row.match_gap_ms, stack,
			(int)match, gap_ms);
		rli_test_failures++;
	}
}

#define EXPECT_ROW(memory, i, stack, match, gap) expect_row(memory, i, stack, match, gap, __LINE__)

/* memory.md §3.3's worked check: ts [50.5, 100.0 "first", 100 "second", 200], in a shuffled file. */
static void test_worked_example(const char *root)
{
	static const mf_op ops[] = {
		{"op", "\"200\"", "10", "at 200", NULL},
		{"op", "\"100.0\"", "10", "first", NULL},
		{"op", "\"50.5\"", "10", "at 50.5", NULL},
		{"op", "100", "10", "second", NULL}, /* a number, where Ascend writes strings: the same ts */
		{" op", "\"1\"", "1000", "padded", NULL}, /* trace names are not stripped: never "op" */
	};
	static const mf_row rows[] = {
		{"op", "1", "50.0", "5"},   {"op", "2", "50.5", "5"},  {"op", "3", "99.9", "5"},
		{"op", "4", "100.0", "5"}, {"op", "5", "150", "5"},   {"\" op \"", "6", "250", "5"},
	};
	rli_memory *memory = parse_capture(root, rows, 6, ops, 5);
	if (!memory)
		return;
	CHECK_INT(rli_memory_count(memory), 6);
	EXPECT_ROW(memory, 0, "", RLI_MEMORY_UNMATCHED, 0);              /* every op starts later */
	EXPECT_ROW(memory, 1, "at 50.5", RLI_MEMORY_INSIDE, 0);          /* ts == time counts */
	EXPECT_ROW(memory, 2, "at 50.5", RLI_MEMORY_AFTER_END, 0.0394);  /* ended at 60.5 */
	EXPECT_ROW(memory, 3, "second", RLI_MEMORY_INSIDE, 0);           /* a tie: the last in the file */
	EXPECT_ROW(memory, 4, "second", RLI_MEMORY_AFTER_END, 0.04);
	EXPECT_ROW(memory, 5, "at 200", RLI_MEMORY_AFTER_END, 0.04);     /* " op " in the CSV is stripped */
	CHECK_STR(mf_get(memory, 5).name, "op");
	rli_memory_free(memory);
}

/* One op name called a thousand times: each allocation finds its own call, inside it or just after. */
static void test_repeated_name(const char *root)
{
	enum { CALLS = 1000 };
	static mf_op ops[CALLS];
	static mf_row rows[2 * CALLS];
	static char texts[CALLS][3][32], times[2 * CALLS][32];
	rli_memory *memory;
	for (int i = 0; i < CALLS; i++) {
		/* Written newest first: the index must sort them. */
		int k = CALLS - 1 - i;
		snprintf(texts[k][0], 32, "\"%d.25\"", 10 * i);
		snprintf(texts[k][1], 32, "frame %d", i);
		ops[k] = (mf_op){"aten::add", texts[k][0], "5", texts[k][1], NULL};
		snprintf(times[2 * i], 32, "%d.25", 10 * i + 2);
		snprintf(times[2 * i + 1], 32, "%d.25", 10 * i + 7);
		rows[2 * i] = (mf_row){"aten::add", "8", times[2 * i], "3"};
		rows[2 * i + 1] = (mf_row){"aten::add", "-8", times[2 * i + 1], ""};
	}
	memory = parse_capture(root, rows, 2 * CALLS, ops, CALLS);
	if (!memory)
		return;
	CHECK_INT(rli_memory_count(memory), 2 * CALLS);
	for (int i = 0; i < CALLS; i++) {
		char frame[32];
		snprintf(frame, sizeof(frame), "frame %d", i);
		EXPECT_ROW(memory, (size_t)(2 * i), frame, RLI_MEMORY_INSIDE, 0);
		EXPECT_ROW(memory, (size_t)(2 * i + 1), frame, RLI_MEMORY_AFTER_END, 0.002); /* frees match too */
	}
	{
		rli_memory_match_counts counts;
		rli_memory_count_matches(&counts, memory);
		/* Counts are of allocations: the frees (negative sizes) are not among them. */
		CHECK_INT(counts.allocations, CALLS);
		CHECK_INT(counts.matched_inside, CALLS);
		CHECK_INT(counts.matched_after_end + counts.unmatched, 0);
	}
	rli_memory_free(memory);
}

/* Rows in random time order against ops with ties: each row's match is the naive scan's answer. */
static void test_random_order(const char *root)
{
	enum { OPS = 300, ROWS = 3000 };
	static mf_op ops[OPS];
	static mf_row rows[ROWS];
	static char op_ts[OPS][24], stacks[OPS][24], times[ROWS][24], sizes[ROWS][16];
	static int alloc[ROWS];
	uint32_t state = 99;
	rli_memory *memory;
	for (int i = 0; i < OPS; i++) {
		/* every fifth op shares its start with the one before: a tie, the later in the file wins */
		snprintf(op_ts[i], sizeof(op_ts[i]), "%d", 10 * (i - (i % 5 == 4)));
		snprintf(stacks[i], sizeof(stacks[i]), "call %d", i);
		ops[i] = (mf_op){"aten::x", op_ts[i], "4", stacks[i], NULL};
	}
	for (int r = 0; r < ROWS; r++) {
		state = state * 1103515245u + 12345u;
		alloc[r] = (int)((state >> 8) % (10 * OPS + 20)) - 10;
		snprintf(times[r], sizeof(times[r]), "%d", alloc[r]);
		snprintf(sizes[r], sizeof(sizes[r]), "%d", r + 1);
		rows[r] = (mf_row){"aten::x", sizes[r], times[r], "1"};
	}
	memory = parse_capture(root, rows, ROWS, ops, OPS);
	if (!memory)
		return;
	CHECK_INT(rli_memory_count(memory), ROWS);
	for (size_t i = 0; i < rli_memory_count(memory); i++) {
		rli_memory_row row = mf_get(memory, i);
		int r = (int)row.size_kb - 1, best = -1;
		for (int k = 0; k < OPS; k++) /* the latest start not after the row; the last one on ties */
			if (10 * (k - (k % 5 == 4)) <= alloc[r] &&
			    (best < 0 || 10 * (k - (k % 5 == 4)) >= 10 * (best - (best % 5 == 4))))
				best = k;
		if (best < 0) {
			EXPECT_ROW(memory, i, "", RLI_MEMORY_UNMATCHED, 0);
		} else {
			int start = 10 * (best - (best % 5 == 4));
			EXPECT_ROW(memory, i, stacks[best], alloc[r] <= start + 4 ? RLI_MEMORY_INSIDE : RLI_MEMORY_AFTER_END,
				   alloc[r] <= start + 4 ? 0 : (alloc[r] - start - 4) / 1000.0);
		}
	}
	rli_memory_free(memory);
}

/* Only cpu_op events with a "Call stack" count; the first frame is the text before ";\r\n". */
static void test_what_is_indexed(const char *root)
{
	static const mf_op ops[] = {
		{"aten::mul", "\"10\"", "5", "user.py(1): f;\r\nlib.py(2): g", NULL},
		{"aten::mul", "\"20\"", "5", "kernel stack", "kernel"},   /* not a cpu_op */
		{"aten::mul", "\"30\"", "5", NULL, NULL},                /* no call stack */
		{"aten::cat", "\"10\"", NULL, "x;y\r\n;\r\nz", NULL},      /* no dur: 0 */
		{"aten::pow", "\"10\"", "5", "one frame", NULL},
		{"aten::mean", "\"10\"", "5", "", NULL},                   /* an empty stack */
		{"aten::sum", NULL, "5", "no ts", NULL},                   /* no ts: left out, with a warning */
	};
	static const mf_row rows[] = {
		{"aten::cat", "1", "10", "1"},  {"aten::pow", "1", "11", "1"},   {"aten::mean", "1", "12", "1"},
		{"aten::sum", "1", "13", "1"},  {"aten::zeros", "1", "14", "1"}, {"aten::mul", "1", "40", "1"},
	};
	rli_memory *memory = parse_capture(root, rows, 6, ops, 7);
	if (!memory)
		return;
	CHECK_INT(rli_memory_count(memory), 6);
	EXPECT_ROW(memory, 0, "x;y\r\n;\r\nz", RLI_MEMORY_INSIDE, 0); /* ts 10, no dur, allocated at 10 */
	CHECK_STR(mf_get(memory, 0).call_stack_top, "x;y\r\n");
	EXPECT_ROW(memory, 1, "one frame", RLI_MEMORY_INSIDE, 0);
	CHECK_STR(mf_get(memory, 1).call_stack_top, "one frame");
	EXPECT_ROW(memory, 2, "", RLI_MEMORY_INSIDE, 0);
	CHECK_STR(mf_get(memory, 2).call_stack_top, "");
	EXPECT_ROW(memory, 3, "", RLI_MEMORY_UNMATCHED, 0);
	EXPECT_ROW(memory, 4, "", RLI_MEMORY_UNMATCHED, 0); /* no op of that name at all */
	CHECK_STR(mf_get(memory, 4).call_stack_top, "");
	EXPECT_ROW(memory, 5, "user.py(1): f;\r\nlib.py(2): g", RLI_MEMORY_AFTER_END, 0.025);
	CHECK_STR(mf_get(memory, 5).call_stack_top, "user.py(1): f");
	rli_memory_free(memory);
}

/* The warning for cpu_op events the index had to leave out. */
static void test_no_ts_warning(const char *root)
{
	static const mf_op ops[] = {{"aten::sum", NULL, "5", "s", NULL}, {"aten::sum", "\"x\"", "5", "s", NULL}};
	static const mf_row rows[] = {{"aten::sum", "1", "13", "1"}};
	char *csv = mf_csv(rows, 1), *trace = mf_trace(ops, 2);
	rli_memory *memory = NULL;
	fx_log log = {NULL, 0};
	fx_remove(root);
	mf_capture(root, "x_ascend_pt", 0, MF_METADATA, csv, trace);
	CHECK_INT(mf_parse(&memory, root, NULL, NULL, 1, &log), RLI_OK);
	CHECK(fx_log_has(&log, fx_text("WARN: %s/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json: 2 cpu_op event(s) "
				       "with a call stack have no 'ts' that is a number; left out of the call-stack index",
				       root)));
	CHECK(fx_log_has(&log, "INFO: Rank 0 Role "));
	CHECK(fx_log_has(&log, ": call stacks of 1 allocation(s): 0 from an op still running, 1 with no op\n"));
	rli_memory_free(memory);
	fx_log_reset(&log);
	free(csv);
	free(trace);
}

int main(void)
{
	char *root = fx_tempdir();
	test_worked_example(root);
	test_repeated_name(root);
	test_random_order(root);
	test_what_is_indexed(root);
	test_no_ts_warning(root);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

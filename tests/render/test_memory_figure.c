/* test_memory_figure.c: the static memory figure: its curve, peak, lanes and table against values worked out here, and its pictures against golden/. */
#include "harness.h"
#include "render_cases.h"
#include "layout/memory_figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Six blocks on one device, times in ms from 1000:
 *   matmul  512 KB  [0, 40)     add 64 KB [10, 20)   matmul 256 KB [15, 30)
 *   softmax 128 KB  [25, end)   never freed: lives to the last moment seen (50)
 *   add      32 KB  [30, 50)    weights 1024 KB [5, 12)
 * Live sizes: at 15: 512 + 64 + 256 = 832 (weights ended at 12) ... the peak is
 * 512 + 1024 + 64 = 1600 KB over [10, 12).
 */
static const double starts[] = { 1000, 1010, 1015, 1025, 1030, 1005 };
static const double durations[] = { 40, 10, 15, 0, 20, 7 };
static const double sizes[] = { 512, 64, 256, 128, 32, 1024 };
static const char *const ops[] = { "aclnnMatmul", "aclnnAdd", "aclnnMatmul", "aclnnSoftmax", "aclnnAdd",
				   "LoadWeights" };
static const char *const stacks[] = { "model.py(12): forward", "", "model.py(14): forward", "attn.py(3): softmax",
				      "", "loader.py(88): load" };

static rli_memory_device few_device(void)
{
	rli_memory_device d = { "actor_update", 3, 6, starts, durations, sizes, ops, stacks, 0, NULL, NULL, NULL, 0, RLI_MEMORY_TOTALS_NONE, NULL, NULL, NULL, NULL };
	return d;
}

static void test_few(const char *golden_dir, const char *actual_dir, int updating)
{
	rli_memory_device device = few_device();
	rli_memory_figure *figure = NULL;
	const rli_document *doc;
	const rli_memory_summary *summary;
	char golden[4096], actual[4096];

	CHECK_INT(rli_memory_figure_layout(&figure, &device, 1, NULL), RLI_OK);
	if (!figure)
		return;
	doc = rli_memory_figure_document(figure);
	summary = rli_memory_figure_summary(figure, 0);
	CHECK_INT((int)doc->page_count, 1);
	CHECK_STR(doc->name, "memory_timeline");
	CHECK(doc->pages[0].name == NULL);
	CHECK_NEAR(summary->t_min_ms, 1000, 0);
	CHECK_NEAR(summary->t_max_ms, 1050, 0);
	CHECK_NEAR(summary->peak_mb, 1600.0 / 1024, 1e-12);
	CHECK_NEAR(summary->peak_ms, 10, 0);
	CHECK_INT((int)summary->never_freed, 1);
	CHECK_NEAR(summary->never_freed_kb, 128, 0);
	{
		/* Items: title, curve, Gantt, table title, table. */
		const rli_page *page = &doc->pages[0];
		const rli_panel *gantt = page->items[2].u.panel;
		const rli_table *table = page->items[4].u.table;
		CHECK_INT((int)page->item_count, 5);
		CHECK_INT((int)gantt->row_count, 4);
		/* Lanes: the operator with the longest-lived block first (matmul 40, softmax 25, add 20, weights 7). */
		CHECK_STR(gantt->rows[0].label, "aclnnMatmul");
		CHECK_STR(gantt->rows[1].label, "aclnnSoftmax");
		CHECK_STR(gantt->rows[2].label, "aclnnAdd");
		CHECK_STR(gantt->rows[3].label, "LoadWeights");
		CHECK_INT((int)gantt->bar_count, 6);
		/* The never-freed block ends with the capture. */
		for (size_t b = gantt->row_first_bar[1]; b < gantt->row_first_bar[2]; b++)
			CHECK_NEAR(gantt->bar_end[b], 50, 0);
		/* At the peak (10 ms): weights 1024 KB, matmul 512 KB, add 64 KB, largest first. */
		CHECK_INT((int)table->row_count, 3);
		CHECK_STR(table->cells[0], "LoadWeights");
		CHECK_STR(table->cells[1], "1.0 MB");
		CHECK_STR(table->cells[4], "loader.py(88): load");
		CHECK_STR(table->cells[5], "aclnnMatmul");
		CHECK_STR(table->cells[10], "aclnnAdd");
		CHECK_STR(table->cells[14], "(no call stack)");
	}
	snprintf(golden, sizeof(golden), "%s/memory_few.png", golden_dir);
	snprintf(actual, sizeof(actual), "%s/memory_few.png", actual_dir);
	CHECK_INT(case_render_document(doc, "png", updating ? golden : actual), RLI_OK);
	if (!updating)
		CHECK(case_compare_png("memory_few", golden, actual) == 0);
	rli_memory_figure_free(figure);
}

/* A million blocks thinner than a pixel, on two devices: a page each, named by role and rank. */
static void test_million(const char *golden_dir, const char *actual_dir, int updating)
{
	enum { N = 1000000, OPS = 12 };
	double *start = malloc(N * sizeof(double)), *duration = malloc(N * sizeof(double));
	double *size = malloc(N * sizeof(double));
	const char **op = malloc(N * sizeof(char *)), **stack = malloc(N * sizeof(char *));
	static const char *names[OPS] = { "aclnnMatmul", "aclnnAdd", "aclnnMul", "aclnnSoftmax", "aclnnCast",
					  "aclnnGelu", "aclnnLayerNorm", "aclnnEmbedding", "aclnnCopy", "aclnnSilu",
					  "aclnnRope", "HcclAllReduce" };
	uint32_t state = 7;
	rli_memory_device devices[2];
	rli_memory_figure *figure = NULL;
	char golden[4096], actual[4096];

	if (!start || !duration || !size || !op || !stack)
		exit(1);
	for (size_t i = 0; i < N; i++) {
		state = state * 1664525u + 1013904223u;
		start[i] = 5000.0 + 60000.0 * (double)i / N;
		duration[i] = (i % 1000 == 0) ? 0 : 0.5 + (double)(state >> 24) / 8.0;
		size[i] = 4.0 + (double)((state >> 8) & 0xFFF);
		op[i] = names[(state >> 4) % OPS];
		stack[i] = "";
	}
	devices[0] = (rli_memory_device){ "rollout", 0, N / 2, start, duration, size, op, stack, 0, NULL, NULL, NULL, 0, RLI_MEMORY_TOTALS_NONE, NULL, NULL, NULL, NULL };
	devices[1] = (rli_memory_device){ "rollout/worker 1", 1, N / 2, start + N / 2, duration + N / 2, size + N / 2,
					  op + N / 2, stack + N / 2, 0, NULL, NULL, NULL, 0, RLI_MEMORY_TOTALS_NONE, NULL, NULL, NULL, NULL };
	CHECK_INT(rli_memory_figure_layout(&figure, devices, 2, NULL), RLI_OK);
	if (figure) {
		const rli_document *doc = rli_memory_figure_document(figure);
		CHECK_INT((int)doc->page_count, 2);
		CHECK_STR(doc->pages[0].name, "memory_timeline_rollout_rank0");
		CHECK_STR(doc->pages[1].name, "memory_timeline_rollout_worker_1_rank1");
		CHECK_INT((int)doc->pages[0].items[2].u.panel->bar_count, N / 2);
		snprintf(golden, sizeof(golden), "%s/memory_million.png", golden_dir);
		snprintf(actual, sizeof(actual), "%s/memory_million.png", actual_dir);
		{
			/* The first page as its own one-page document, to compare with the golden image. */
			rli_document first = *doc;
			first.page_count = 1;
			CHECK_INT(case_render_document(&first, "png", updating ? golden : actual), RLI_OK);
		}
		if (!updating)
			CHECK(case_compare_png("memory_million", golden, actual) == 0);
		/* Every device's page: a PNG each under its own name, one PDF of two pages. */
		CHECK_INT(rli_render(doc, "png", actual_dir, NULL), RLI_OK);
		CHECK_INT(rli_render(doc, "pdf", actual_dir, NULL), RLI_OK);
		snprintf(actual, sizeof(actual), "%s/memory_timeline_rollout_worker_1_rank1.png", actual_dir);
		CHECK(access(actual, F_OK) == 0);
		snprintf(actual, sizeof(actual), "pdfinfo '%s/memory_timeline.pdf' | grep -q '^Pages: *2$'", actual_dir);
		CHECK(system("command -v pdfinfo >/dev/null") != 0 || system(actual) == 0);
		rli_memory_figure_free(figure);
	}
	free(start);
	free(duration);
	free(size);
	free(op);
	free(stack);
}

int main(int argc, char **argv)
{
	int updating;

	if (case_golden_args(argc, argv, &updating))
		return 2;
	test_few(argv[1], argv[2], updating);
	test_million(argv[1], argv[2], updating);
	TEST_DONE();
}

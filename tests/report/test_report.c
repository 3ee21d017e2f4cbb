/* test_report.c: the run report as a reader gets it: page counts, every label and statistic in its text, the outline, page sizes, same bytes twice, golden pages. */
#include "harness.h"
#include "render/render_cases.h"
#include "layout/stats_tables.h"
#include "memory/memory_table.h"
#include "report/report.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A run: roles x ranks x steps, steps 1 s apart; rank 1 of the first role is the straggler (150 vs 100 ms). */
static rli_events *make_run(size_t roles, size_t ranks, size_t steps)
{
	static const char *const names[] = { "actor_update", "rollout", "ref_log_prob", "critic_update",
					     "reward", "old_log_prob" };
	rli_events *ev = NULL;
	if (rli_events_new(&ev) < 0)
		abort();
	for (size_t s = 0; s < steps; s++)
		for (size_t role = 0; role < roles; role++)
			for (size_t rank = 0; rank < ranks; rank++) {
				double duration = role == 0 && rank == 1 ? 150 : 100 + (double)(rank % 3);
				case_add(ev, names[role], names[role], (int64_t)rank,
					 1773285888353.098 + (double)s * 1000 + (double)role * 160, duration);
			}
	return ev;
}

/* The output of a shell command, at most size - 1 bytes; "" when it fails. */
static char *run(const char *command)
{
	FILE *p = popen(command, "r");
	size_t size = 1 << 20, used = 0, got;
	char *out = calloc(1, size);
	if (!p || !out)
		abort();
	while (used + 1 < size && (got = fread(out + used, 1, size - 1 - used, p)) > 0)
		used += got;
	out[used] = '\0';
	pclose(p);
	return out;
}

static int same_bytes(const char *a, const char *b)
{
	size_t na, nb;
	char *x = test_read_file(a, &na), *y = test_read_file(b, &nb);
	int same = x && y && na == nb && memcmp(x, y, na) == 0;
	free(x);
	free(y);
	return same;
}

#define STEP "train.py(10): step"
#define FORWARD STEP ";\r\nmodel.py(20): forward"

/* Two devices' allocations: frames shared by stacks, a block freed as another is allocated, one never freed. */
static rli_memory *make_memory(void)
{
	static const struct {
		const char *role, *op, *stack;
		int64_t rank;
		double kb, start, duration;
	} rows[] = {
		{ "actor_update", "aten::empty", FORWARD ";\r\nlinear.py(5): matmul", 0, 1024, 0, 10 },
		{ "actor_update", "aten::add", FORWARD ";\r\nact.py(7): gelu", 0, 2048, 10, 10 },
		{ "actor_update", "aten::zeros", STEP ";\r\noptim.py(3): zero_grad", 0, 512, 12, 0 },
		{ "rollout", "aten::empty", FORWARD ";\r\nlinear.py(5): matmul", 1, 4096, 5, 30 },
		{ "rollout", "aten::cat", "", 1, 256, 20, 5 },
	};
	rli_memory *m = NULL;
	if (rli_memory_new(&m) < 0)
		abort();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *top = rows[i].stack[0] ? STEP : "";
		rli_memory_in in = { rli_memory_intern(m, rows[i].op, strlen(rows[i].op)),
				     rli_memory_intern(m, rows[i].role, strlen(rows[i].role)),
				     rli_memory_intern(m, "NPU:0", 5),
				     rli_memory_intern(m, rows[i].stack, strlen(rows[i].stack)),
				     rli_memory_intern(m, top, strlen(top)), rows[i].rank, rows[i].kb,
				     1773285888353.098 + rows[i].start, rows[i].duration, 0, 0, 0, 0,
				     rows[i].duration > 0, rows[i].stack[0] ? RLI_MEMORY_INSIDE : RLI_MEMORY_UNMATCHED, NAN, 0 };
		if (rli_memory_append(m, &in) < 0)
			abort();
	}
	return m;
}

typedef struct {
	const char *name;
	size_t roles, ranks, steps;
	size_t min_timeline_pages, max_timeline_pages;
	int golden; /* compare the cover, the first statistics page and the first timeline page */
	int memory; /* with the memory section: its outline entries, text, and (golden) its first page */
} report_case;

static size_t section_page(const rli_document *doc, const char *title)
{
	for (size_t i = 0; i < doc->outline_count; i++)
		if (strcmp(doc->outline[i].title, title) == 0)
			return doc->outline[i].page;
	return SIZE_MAX;
}

static void check_memory(const report_case *c, const char *text, const char *xml)
{
	static const char *const outline[] = { "\">Memory</item>", "\">actor_update rank 0 (NPU:0)</item>",
						"\">rollout rank 1 (NPU:0)</item>" };
	/* the peak of actor_update: 1 MB, then 2 MB when add is allocated as empty is freed (not 3), + 0.5 MB zeros */
	static const char *const phrases[] = { "Peak memory 4.25 MB on rollout rank 1", "Largest blocks live at the peak",
					       "Call sites by bytes allocated", "train.py(10): step", "model.py(20): forward",
					       "Peak 2.50 MB at 12.0 ms", "(no call stack)" };
	for (size_t i = 0; i < sizeof(outline) / sizeof(outline[0]); i++)
		if (!strstr(xml, outline[i])) {
			fprintf(stderr, "%s: the outline lacks %s\n", c->name, outline[i]);
			rli_test_failures++;
		}
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if (!strstr(text, phrases[i])) {
			fprintf(stderr, "%s: the text lacks '%s'\n", c->name, phrases[i]);
			rli_test_failures++;
		}
}

static void check_text(const report_case *c, const rli_stats *stats, const rli_timeline *timeline, const char *text)
{
	/* every row's label, role and rank */
	for (size_t r = 0; r < timeline->panel.row_count; r++)
		if (!strstr(text, timeline->panel.rows[r].label)) {
			fprintf(stderr, "%s: the text lacks the row label '%s'\n", c->name, timeline->panel.rows[r].label);
			rli_test_failures++;
			break;
		}
	/* every cell of every role's phase table: each statistic is in the text as the table wrote it */
	for (size_t i = 0; i < stats->phase_count; i++) {
		rli_stats_table t = { 0 };
		CHECK_INT(rli_stats_table_phases(&t, stats, stats->phases[i].role), 0);
		for (size_t k = 0; k < t.row_count * t.column_count; k++)
			if (!strstr(text, t.cells[k])) {
				fprintf(stderr, "%s: the text lacks the statistic '%s' (%s)\n", c->name, t.cells[k],
					t.header[k % t.column_count]);
				rli_test_failures++;
			}
		rli_stats_table_dispose(&t);
	}
	CHECK(strstr(text, "actor_update: rank 1 was the slowest in") != NULL || c->ranks < 3);
}

static void check_outline(const report_case *c, const char *xml, const rli_stats *stats)
{
	const char *sections[] = { "Summary", "Statistics", "Slowest ranks", "Waits between roles",
				   "Roles running together", "Idle time", "Timeline" };
	char item[256];
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		snprintf(item, sizeof(item), "\">%s</item>", sections[i]);
		if (!strstr(xml, item)) {
			fprintf(stderr, "%s: the outline lacks %s\n", c->name, sections[i]);
			rli_test_failures++;
		}
	}
	for (size_t i = 0; i < stats->phase_count; i++) {
		snprintf(item, sizeof(item), "\">%s</item>", rli_strpool_get(&stats->events->strings, stats->phases[i].role));
		if (!strstr(xml, item)) {
			fprintf(stderr, "%s: the outline lacks the role %s\n", c->name, item);
			rli_test_failures++;
		}
	}
}

/* Every page within the readers' 14,400 units a side, as pdfinfo reads them. */
static void check_page_sizes(const report_case *c, const char *info, size_t pages)
{
	size_t seen = 0;
	for (const char *p = strstr(info, " size: "); p; p = strstr(p + 1, " size: ")) {
		double w = 0, h = 0;
		if (sscanf(p, " size: %lf x %lf", &w, &h) == 2) {
			seen++;
			if (w > 14400 || h > 14400 || w <= 0 || h <= 0) {
				fprintf(stderr, "%s: a page is %g x %g\n", c->name, w, h);
				rli_test_failures++;
			}
		}
	}
	CHECK_INT(seen, pages);
}

static void check_golden(const report_case *c, const char *pdf, const char *golden_dir, const char *dir, size_t page,
			 const char *what, int updating)
{
	char command[4096], actual[2048], golden[2048];
	snprintf(actual, sizeof(actual), "%s/%s_%s", dir, c->name, what);
	snprintf(golden, sizeof(golden), "%s/report_%s.png", golden_dir, what);
	snprintf(command, sizeof(command), "pdftoppm -png -r 60 -singlefile -f %zu -l %zu '%s' '%s'", page, page, pdf,
		 updating ? golden : actual);
	if (updating) {
		/* pdftoppm adds .png itself */
		snprintf(command, sizeof(command), "pdftoppm -png -r 60 -singlefile -f %zu -l %zu '%s' '%s/report_%s'",
			 page, page, pdf, golden_dir, what);
		CHECK_INT(system(command), 0);
		fprintf(stderr, "%s: rewrote %s\n", c->name, golden);
		return;
	}
	CHECK_INT(system(command), 0);
	strncat(actual, ".png", sizeof(actual) - strlen(actual) - 1);
	CHECK_INT(case_compare_png(what, golden, actual), 0);
}

static void run_case(const report_case *c, const char *golden_dir, const char *out_dir, int updating)
{
	rli_events *ev = make_run(c->roles, c->ranks, c->steps);
	rli_memory *memory = c->memory ? make_memory() : NULL;
	rli_memory_stats *memory_stats = NULL;
	rli_stats *stats = NULL;
	rli_timeline *timeline = NULL;
	rli_report *report = NULL;
	rli_timeline_options topt;
	rli_report_options ropt;
	char dir[1024], again[1024], pdf[2048], pdf_again[2048], command[8192];
	char *text, *info, *xml;
	const rli_document *doc;
	size_t first, timeline_pages;

	snprintf(dir, sizeof(dir), "%s/%s", out_dir, c->name);
	snprintf(again, sizeof(again), "%s/%s-again", out_dir, c->name);
	snprintf(command, sizeof(command), "rm -rf '%s' '%s' && mkdir -p '%s' '%s'", dir, again, dir, again);
	CHECK_INT(system(command), 0);
	rli_timeline_options_init(&topt);
	topt.medium = RLI_MEDIUM_VECTOR;
	rli_report_options_init(&ropt);
	ropt.input_path = "/runs/nightly";
	ropt.profiler = "mstx";
	CHECK_INT(rli_stats_compute(&stats, ev), 0);
	CHECK_INT(rli_timeline_layout(&timeline, ev, &topt), 0);
	if (memory)
		CHECK_INT(rli_memory_stats_compute(&memory_stats, memory), 0);
	{
		rli_report_input input = { .stats = stats, .timeline = timeline, .memory = memory, .memory_stats = memory_stats };
		CHECK_INT(rli_report_layout(&report, &input, &ropt), 0);
	}
	if (!report) {
		fprintf(stderr, "%s: %s\n", c->name, rli_error_last());
		goto done;
	}
	doc = rli_report_document(report);
	CHECK_INT(rli_render(doc, "pdf", dir, NULL), 0);
	CHECK_INT(rli_render(doc, "pdf", again, NULL), 0);
	snprintf(pdf, sizeof(pdf), "%s/rl_insight_report.pdf", dir);
	snprintf(pdf_again, sizeof(pdf_again), "%s/rl_insight_report.pdf", again);
	CHECK(same_bytes(pdf, pdf_again));

	/* the rows' pages: after the overview, when the rows need more than a page */
	first = section_page(doc, "Every rank") != SIZE_MAX ? section_page(doc, "Every rank") : section_page(doc, "Timeline");
	CHECK(first != SIZE_MAX);
	timeline_pages = (memory ? section_page(doc, "Memory") : doc->page_count) - first;
	CHECK((timeline_pages > 1) == (section_page(doc, "Overview") != SIZE_MAX));
	if (timeline_pages < c->min_timeline_pages || timeline_pages > c->max_timeline_pages) {
		fprintf(stderr, "%s: %zu timeline pages, expected %zu to %zu\n", c->name, timeline_pages,
			c->min_timeline_pages, c->max_timeline_pages);
		rli_test_failures++;
	}

	snprintf(command, sizeof(command), "pdfinfo -f 1 -l 100000 '%s'", pdf);
	info = run(command);
	{
		const char *pages = strstr(info, "Pages:");
		size_t count = 0;
		CHECK(pages && sscanf(pages, "Pages: %zu", &count) == 1);
		CHECK_INT(count, doc->page_count);
	}
	check_page_sizes(c, info, doc->page_count);
	snprintf(command, sizeof(command), "pdftotext '%s' -", pdf);
	text = run(command);
	check_text(c, stats, timeline, text);
	/* the continued mark on every timeline page but the last */
	if (timeline_pages > 1)
		CHECK(strstr(text, "continued on the next page") != NULL);
	snprintf(command, sizeof(command), "pdftohtml -q -xml -i -stdout '%s'", pdf);
	xml = run(command);
	check_outline(c, xml, stats);
	if (memory) {
		check_memory(c, text, xml);
		if (c->golden)
			check_golden(c, pdf, golden_dir, dir, section_page(doc, "Memory") + 1, "memory", updating);
	}
	if (c->golden) {
		check_golden(c, pdf, golden_dir, dir, 1, "cover", updating);
		check_golden(c, pdf, golden_dir, dir, 2, "statistics", updating);
		check_golden(c, pdf, golden_dir, dir, first + 1, "timeline", updating);
		check_golden(c, pdf, golden_dir, dir, section_page(doc, "Overview") + 1, "overview", updating);
	}
	free(text);
	free(info);
	free(xml);
done:
	rli_report_free(report);
	rli_timeline_free(timeline);
	rli_stats_free(stats);
	rli_events_free(ev);
	rli_memory_stats_free(memory_stats);
	rli_memory_free(memory);
}

/* --page-size letter --orientation portrait: every page 612 x 792 points. */
static void test_paper(const char *out_dir)
{
	rli_events *ev = make_run(2, 4, 2);
	rli_stats *stats = NULL;
	rli_timeline *timeline = NULL;
	rli_report *report = NULL;
	rli_timeline_options topt;
	rli_report_options ropt;
	rli_paper paper;
	char dir[1024];

	CHECK_INT(rli_paper_from_name(&paper, "LETTER"), 0);
	CHECK_INT(paper, RLI_PAPER_LETTER);
	CHECK_INT(rli_paper_from_name(&paper, "b5"), RLI_EUSAGE);
	rli_timeline_options_init(&topt);
	topt.medium = RLI_MEDIUM_VECTOR;
	rli_report_options_init(&ropt);
	ropt.paper = RLI_PAPER_LETTER;
	ropt.portrait = 1;
	ropt.date = "2026-03-12T03:24:48Z";
	CHECK_INT(rli_stats_compute(&stats, ev), 0);
	CHECK_INT(rli_timeline_layout(&timeline, ev, &topt), 0);
	{
		rli_report_input input = { .stats = stats, .timeline = timeline };
		CHECK_INT(rli_report_layout(&report, &input, &ropt), 0);
	}
	if (report) {
		char command[4096], *info;
		const rli_document *doc = rli_report_document(report);
		snprintf(dir, sizeof(dir), "%s/letter", out_dir);
		snprintf(command, sizeof(command), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
		CHECK_INT(system(command), 0);
		CHECK_INT(rli_render(doc, "pdf", dir, NULL), 0);
		snprintf(command, sizeof(command), "pdfinfo -f 1 -l 1000 '%s/rl_insight_report.pdf'", dir);
		info = run(command);
		size_t seen = 0;
		for (const char *at = strstr(info, " size: "); at; at = strstr(at + 1, " size: ")) {
			double w = 0, h = 0;
			if (sscanf(at, " size: %lf x %lf", &w, &h) == 2 && w == 612 && h == 792)
				seen++;
		}
		CHECK_INT(seen, doc->page_count);
		CHECK(strstr(info, "CreationDate:    Thu Mar 12 03:24:48 2026 UTC") != NULL);
		free(info);
	}
	rli_report_free(report);
	rli_timeline_free(timeline);
	rli_stats_free(stats);
	rli_events_free(ev);
}

int main(int argc, char **argv)
{
	static const report_case cases[] = {
		{ "one-page", 2, 2, 2, 1, 1, 0, 0 },
		{ "two-pages", 2, 25, 3, 2, 2, 1, 1 },
		{ "many-pages", 6, 64, 3, 9, 14, 0, 0 },
	};
	const char *update = getenv("RLI_UPDATE_GOLDEN");
	if (argc != 3) {
		fprintf(stderr, "usage: test_report GOLDEN_DIR OUT_DIR\n");
		return 2;
	}
	if (system("command -v pdfinfo >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 && "
		   "command -v pdftoppm >/dev/null 2>&1 && command -v pdftohtml >/dev/null 2>&1") != 0) {
		fprintf(stderr, "skipped: poppler-utils (pdfinfo, pdftotext, pdftoppm, pdftohtml) are needed\n");
		return 77;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i], argv[1], argv[2], update && *update);
	test_paper(argv[2]);
	TEST_DONE();
}

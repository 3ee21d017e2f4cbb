/* test_render_pages.c: a document of a file per page drawn on several threads gives one thread's files, in one thread's order, and fails as one would; pages made when drawn give the same files. */
#include "harness.h"
#include "common/atomic_file.h"
#include "layout/layout.h"
#include "layout/memory_pages.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"

#include <dirent.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEVICES 9   /* pages of the figure: more than threads, so each thread draws several */
#define ROWS_EACH 40

static uint32_t intern(rli_memory *m, const char *text)
{
	return rli_memory_intern(m, text, strlen(text));
}

/* DEVICES ranks of one role, each with its own pattern of allocations, so every page differs. */
static rli_memory *table(void)
{
	rli_memory *m = NULL;
	char device[32];
	CHECK_INT(rli_memory_new(&m), RLI_OK);
	if (!m)
		exit(1);
	for (int d = 0; d < DEVICES; d++) {
		snprintf(device, sizeof(device), "NPU:%d", d % 2);
		for (int i = 0; i < ROWS_EACH; i++) {
			const char *op = i % 3 == 0 ? "aclnnMatmul" : i % 3 == 1 ? "aclnnAdd" : "aclnnSoftmax";
			rli_memory_in in = { intern(m, op), intern(m, "actor_update"), intern(m, device), m->empty,
					     m->empty, d / 2, 64.0 * (1 + (i * 7 + d) % 11), 1000.0 + 5.0 * i + d,
					     i % 5 == 4 ? 0 : 3.0 + (i + d) % 9, 0, 0, 0, 0, i % 5 != 4,
					     RLI_MEMORY_UNMATCHED, NAN, 0 };
			CHECK_INT(rli_memory_append(m, &in), RLI_OK);
		}
	}
	return m;
}

/* Renders into dir/<threads> through a set, committed; the set's paths (file names only) in order. */
static char **render(const rli_document *doc, const char *backend, const char *dir, unsigned threads, size_t *count)
{
	rli_render_options options;
	rli_output_set *set = NULL;
	char **names;
	rli_render_options_init(&options);
	options.threads = threads;
	CHECK_INT(rli_mkdir_p(dir), RLI_OK);
	test_empty_dir(dir);
	CHECK_INT(rli_output_set_new(&set), RLI_OK);
	CHECK_INT(rli_render_with(doc, backend, dir, set, &options), RLI_OK);
	CHECK_INT(rli_output_set_commit(set), RLI_OK);
	*count = rli_output_set_count(set);
	names = calloc(*count + 1, sizeof(*names));
	for (size_t i = 0; names && i < *count; i++) {
		const char *path = rli_output_set_path(set, i, NULL), *slash = strrchr(path, '/');
		names[i] = strdup(slash ? slash + 1 : path);
	}
	rli_output_set_free(set);
	return names;
}

/* The files named in b_names under b_dir are those named in a_names under a_dir: same names, same order, same bytes. */
static void check_same_files(const char *a_dir, char **a_names, size_t a_count, const char *b_dir, char **b_names,
			     size_t b_count)
{
	char a[8448], b[8448];
	CHECK_INT((int)b_count, (int)a_count);
	for (size_t i = 0; a_names && b_names && i < a_count && i < b_count; i++) {
		size_t la = 0, lb = 0;
		char *x, *y;
		CHECK_STR(b_names[i], a_names[i]);
		snprintf(a, sizeof(a), "%s/%s", a_dir, a_names[i]);
		snprintf(b, sizeof(b), "%s/%s", b_dir, b_names[i]);
		x = test_read_file(a, &la);
		y = test_read_file(b, &lb);
		CHECK(x && y && la == lb && memcmp(x, y, la) == 0);
		free(x);
		free(y);
	}
}

static void free_names(char **names, size_t count)
{
	for (size_t i = 0; names && i < count; i++)
		free(names[i]);
	free(names);
}

/* Every thread count gives the files one thread gives, byte for byte, listed in the same order. */
static void test_same_as_one_thread(const rli_document *doc, const char *backend, const char *base,
				    size_t expected_files)
{
	char one_dir[4096], dir[4096];
	size_t one_count = 0;
	char **one;
	snprintf(one_dir, sizeof(one_dir), "%s/%s-1", base, backend);
	one = render(doc, backend, one_dir, 1, &one_count);
	CHECK_INT((int)one_count, (int)expected_files);
	for (unsigned threads = 0; threads <= 4; threads += 2) { /* 0: the default, one a CPU */
		size_t count = 0;
		char **names;
		snprintf(dir, sizeof(dir), "%s/%s-%u", base, backend, threads);
		names = render(doc, backend, dir, threads, &count);
		check_same_files(one_dir, one, one_count, dir, names, count);
		CHECK_INT(test_count_entries(dir), (int)count); /* nothing else: no temporary left */
		free_names(names, count);
	}
	free_names(one, one_count);
}

/*
 * The memory pages made only when drawn give the files of the pages made all at once, byte for
 * byte and in the same order, on any number of threads and when drawn again (the second time into
 * the columns the first left); each page is emptied once drawn; a back-end that is not a file a
 * page refuses such a document.
 */
static void test_made_when_drawn(const rli_memory *memory, const rli_timeline_options *options, const char *base)
{
	rli_memory_pages *whole = NULL, *lazy = NULL;
	rli_memory_devices split = { 0 };
	char whole_dir[4096], dir[4096], other_dir[4096];
	size_t whole_count = 0;
	char **whole_names;

	CHECK_INT(rli_memory_pages_layout(&whole, memory, options), RLI_OK);
	CHECK_INT(rli_memory_devices_split(&split, memory, 0), RLI_OK);
	CHECK_INT(rli_memory_pages_layout_lazy(&lazy, memory, &split, options), RLI_OK);
	if (!whole || !lazy)
		exit(1);
	CHECK(rli_memory_pages_document(lazy)->load_page != NULL);
	CHECK(rli_memory_pages_document(whole)->load_page == NULL);
	/* before it is drawn a page has its names but no items */
	CHECK(rli_memory_pages_document(lazy)->pages[0].name != NULL);
	CHECK_INT((int)rli_memory_pages_document(lazy)->pages[0].item_count, 0);
	snprintf(whole_dir, sizeof(whole_dir), "%s/whole", base);
	whole_names = render(rli_memory_pages_document(whole), "html", whole_dir, 1, &whole_count);
	CHECK_INT((int)whole_count, (int)(2 * (rli_memory_pages_document(whole)->page_count - 1) + 2));
	for (unsigned round = 0; round < 2; round++)
		for (unsigned threads = 1; threads <= 4; threads++) {
			const rli_document *doc = rli_memory_pages_document(lazy);
			size_t count = 0;
			char **names;
			snprintf(dir, sizeof(dir), "%s/lazy-%u-%u", base, round, threads);
			names = render(doc, "html", dir, threads, &count);
			check_same_files(whole_dir, whole_names, whole_count, dir, names, count);
			for (size_t p = 0; p + 1 < doc->page_count; p++) /* the index (last) is made with the document */
				CHECK_INT((int)doc->pages[p].item_count, 0);
			free_names(names, count);
		}
	/* As PDF: a file a page, the same bytes either way. */
	{
		size_t whole_pdfs = 0, lazy_pdfs = 0, length = 0;
		char **w, **l, path[8448], *first;
		snprintf(dir, sizeof(dir), "%s/whole-pdf", base);
		w = render(rli_memory_pages_document(whole), "pdf", dir, 2, &whole_pdfs);
		snprintf(other_dir, sizeof(other_dir), "%s/lazy-pdf", base);
		l = render(rli_memory_pages_document(lazy), "pdf", other_dir, 2, &lazy_pdfs);
		CHECK_INT((int)whole_pdfs, (int)rli_memory_pages_document(whole)->page_count);
		check_same_files(dir, w, whole_pdfs, other_dir, l, lazy_pdfs);
		snprintf(path, sizeof(path), "%s/%s", other_dir, l && lazy_pdfs ? l[0] : "none");
		first = test_read_file(path, &length);
		CHECK(first && length > 4 && memcmp(first, "%PDF", 4) == 0);
		free(first);
		free_names(w, whole_pdfs);
		free_names(l, lazy_pdfs);
	}
	/* One file of pages made when drawn would have its first page read before it is made: refused. */
	{
		rli_document one_file = *rli_memory_pages_document(lazy);
		one_file.file_per_page = 0;
		snprintf(dir, sizeof(dir), "%s/lazy-one-file", base);
		CHECK_INT(rli_mkdir_p(dir), RLI_OK);
		test_empty_dir(dir);
		CHECK_INT(rli_render_with(&one_file, "pdf", dir, NULL, NULL), RLI_EUSAGE);
		CHECK(strstr(rli_error_last(), "made when drawn") != NULL);
		CHECK_INT(test_count_entries(dir), 0);
	}
	free_names(whole_names, whole_count);
	rli_memory_pages_free(lazy);
	rli_memory_devices_dispose(&split);
	rli_memory_pages_free(whole);
}

/*
 * A page that cannot be drawn (too wide for a PNG) fails the render on any number of threads with
 * that page's message; into a set nothing is kept, and without one only the pages before it are
 * in place: none after it, and no temporary anywhere.
 */
static void test_failure(const rli_document *doc, const char *base)
{
	rli_document broken = *doc;
	rli_page *pages = malloc(doc->page_count * sizeof(*pages));
	const size_t bad = 4;
	char dir[4096], path[8448];
	if (!pages)
		exit(1);
	memcpy(pages, doc->pages, doc->page_count * sizeof(*pages));
	pages[bad].width = 40000;
	broken.pages = pages;
	for (unsigned threads = 1; threads <= 4; threads++) {
		rli_render_options options;
		rli_output_set *set = NULL;
		rli_render_options_init(&options);
		options.threads = threads;

		snprintf(dir, sizeof(dir), "%s/broken-set-%u", base, threads);
		CHECK_INT(rli_mkdir_p(dir), RLI_OK);
		test_empty_dir(dir);
		CHECK_INT(rli_output_set_new(&set), RLI_OK);
		CHECK_INT(rli_render_with(&broken, "png", dir, set, &options), RLI_EUSAGE);
		CHECK(strstr(rli_error_last(), "outside 1..32767") != NULL);
		rli_output_set_free(set); /* never committed: removes what it kept */
		CHECK_INT(test_count_entries(dir), 0);

		snprintf(dir, sizeof(dir), "%s/broken-%u", base, threads);
		CHECK_INT(rli_mkdir_p(dir), RLI_OK);
		test_empty_dir(dir);
		CHECK_INT(rli_render_with(&broken, "png", dir, NULL, &options), RLI_EUSAGE);
		CHECK(strstr(rli_error_last(), "outside 1..32767") != NULL);
		CHECK_INT(test_count_entries(dir), (int)bad);
		for (size_t p = 0; p < doc->page_count; p++) {
			struct stat st;
			snprintf(path, sizeof(path), "%s/%s.png", dir, pages[p].name);
			CHECK_INT(stat(path, &st) == 0, p < bad);
		}
	}
	free(pages);
}

int main(int argc, char **argv)
{
	rli_memory *memory = table();
	rli_memory_figure *figure = NULL;
	rli_memory_pages *pages = NULL;
	rli_timeline_options options;
	const rli_document *doc;

	if (argc != 2)
		return 2;
	rli_timeline_options_init(&options);
	options.width = 600;
	options.scale = 1;
	CHECK_INT(rli_memory_layout(&figure, memory, &options), RLI_OK);
	CHECK_INT(rli_memory_pages_layout(&pages, memory, &options), RLI_OK);
	if (!figure || !pages)
		TEST_DONE();
	doc = rli_memory_figure_document(figure);
	CHECK_INT((int)doc->page_count, DEVICES);
	/* PNG: a file a page. HTML pages: a page and its data file each, the viewer they share, and the index. */
	test_same_as_one_thread(doc, "png", argv[1], DEVICES);
	test_same_as_one_thread(rli_memory_pages_document(pages), "html", argv[1],
				2 * (rli_memory_pages_document(pages)->page_count - 1) + 2);
	test_failure(doc, argv[1]);
	test_made_when_drawn(memory, &options, argv[1]);
	rli_memory_pages_free(pages);
	rli_memory_figure_free(figure);
	rli_memory_free(memory);
	TEST_DONE();
}

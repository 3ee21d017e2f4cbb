/* test_pdf.c: the PDF back-end gives one page of the timeline, the same bytes every time, real text. */
#include "harness.h"
#include "render_cases.h"
#include "backend.h"
#include "common/atomic_file.h"
#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int contains(const char *data, size_t size, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= size; i++)
		if (memcmp(data + i, needle, n) == 0)
			return 1;
	return 0;
}

/* cairo 1.16 writes "(20000101000000Z)", later versions "(D:20000101000000Z)". */
static int has_date(const char *data, size_t size, const char *key, const char *digits)
{
	char with_prefix[128], without_prefix[128];
	snprintf(with_prefix, sizeof(with_prefix), "%s (D:%s", key, digits);
	snprintf(without_prefix, sizeof(without_prefix), "%s (%s", key, digits);
	return contains(data, size, with_prefix) || contains(data, size, without_prefix);
}

/* pdftotext (poppler) reads the text back; NULL when it fails. */
static char *extract_text(const char *pdf)
{
	char command[4200], *text = NULL;
	size_t used = 0, capacity = 0;
	FILE *pipe;
	int c;

	snprintf(command, sizeof(command), "pdftotext -enc UTF-8 '%s' -", pdf);
	if (!(pipe = popen(command, "r")))
		return NULL;
	while ((c = fgetc(pipe)) != EOF) {
		if (used + 2 > capacity) {
			char *grown = realloc(text, capacity = capacity ? capacity * 2 : 4096);
			if (!grown)
				break;
			text = grown;
		}
		text[used++] = (char)c;
		text[used] = '\0';
	}
	pclose(pipe);
	return text;
}

int main(int argc, char **argv)
{
	char first[4096], second[4096], dated[4096];
	char *a, *b, *text;
	size_t a_size, b_size;
	rli_events *events = case_few_rows();
	rli_timeline *timeline = NULL;

	if (argc != 2 || rli_mkdir_p(argv[1]) < 0)
		return 2;
	/* Without pdftotext the text checks cannot run, and a test that skips its checks must say so. */
	if (system("command -v pdftotext >/dev/null 2>&1") != 0) {
		fprintf(stderr, "skipped: pdftotext (poppler-utils) is needed to read the text back\n");
		rli_events_free(events);
		return RLI_TEST_SKIP;
	}
	snprintf(first, sizeof(first), "%s/first.pdf", argv[1]);
	snprintf(second, sizeof(second), "%s/second.pdf", argv[1]);
	snprintf(dated, sizeof(dated), "%s/dated.pdf", argv[1]);
	CHECK_INT(rli_timeline_layout(&timeline, events, NULL), RLI_OK);
	if (!timeline)
		TEST_DONE();

	CHECK_STR(rli_pdf_backend.name, "pdf");
	CHECK_STR(rli_pdf_backend.extension, ".pdf");
	unsetenv("SOURCE_DATE_EPOCH");
	CHECK_INT(case_render(timeline, "pdf", first), RLI_OK);
	CHECK_INT(case_render(timeline, "pdf", second), RLI_OK);
	a = test_read_file(first, &a_size);
	b = test_read_file(second, &b_size);
	CHECK(a && a_size > 1000 && memcmp(a, "%PDF-", 5) == 0);
	CHECK(a && b && a_size == b_size && memcmp(a, b, a_size) == 0);
	if (a) {
		/* One page of width x height points, and fixed dates. */
		CHECK(contains(a, a_size, "/MediaBox [ 0 0 2000 900 ]"));
		CHECK(contains(a, a_size, "/Count 1"));
		CHECK(has_date(a, a_size, "/CreationDate", "20000101000000"));
		CHECK(has_date(a, a_size, "/ModDate", "20000101000000"));
	}
	free(a);
	free(b);

	setenv("SOURCE_DATE_EPOCH", "1700000000", 1); /* 2023-11-14T22:13:20Z */
	CHECK_INT(case_render(timeline, "pdf", dated), RLI_OK);
	unsetenv("SOURCE_DATE_EPOCH");
	a = test_read_file(dated, &a_size);
	CHECK(a && has_date(a, a_size, "/CreationDate", "20231114221320"));
	free(a);

	text = extract_text(first);
	CHECK(text != NULL);
	if (text) {
		CHECK(strstr(text, "RL Timeline (t = 0 at 2026-03-12 03:24:48.699 UTC)") != NULL);
		CHECK(strstr(text, "\xe6\x9b\xb4\xe6\x96\xb0\xe7\xad\x96\xe7\x95\xa5 - Rank 1") != NULL);
		CHECK(strstr(text, "Task Type") != NULL);
		CHECK(strstr(text, "Time (s)") != NULL);
		free(text);
	}
	remove(first);
	remove(second);
	remove(dated);
	rli_timeline_free(timeline);
	rli_events_free(events);
	TEST_DONE();
}

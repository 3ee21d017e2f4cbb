/* test_parse_mstx_scan.c: a trace_view.json read by the scanner, in chunks and for two analyses at once against yajl's reading, item shape by item shape. */
#include "harness.h"
#include "fuzz_stacks.h"
#include "parse/json_items.h"
#include "parse/mstx_internal.h"

#include <stdio.h>

#define PATH "scan/trace_view.json"

static int cases;

static void read_yajl(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, RLI_JSON_READ_YAJL);
}

static void read_scan(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, RLI_JSON_READ_SCAN);
}

static void read_2(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, 2);
}

static void read_3(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, 3);
}

static void read_7(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, 7);
}

/* Every reading of text gives what yajl's gives: the same row, the same messages in order. */
static void agree(const char *text, size_t size, int line)
{
	static const struct {
		const char *name;
		fuzz_parse_fn fn;
	} readings[] = {{"scanner", read_scan}, {"2 chunks", read_2}, {"3 chunks", read_3}, {"7 chunks", read_7}};
	for (size_t i = 0; i < sizeof(readings) / sizeof(readings[0]); i++) {
		int result = fuzz_readings_agree(readings[i].fn, read_yajl, PATH, (const uint8_t *)text, size);
		cases++;
		if (result != 1) {
			fprintf(stderr, "line %d: the %s reading differs from yajl's (%d) on\n%.*s\n", line, readings[i].name,
				result, (int)(size < 2000 ? size : 2000), text);
			rli_test_failures++;
		}
	}
	/* The call stacks the memory analysis takes from the same bytes, read every way. */
	{
		int which = 0, result = fuzz_stack_readings_agree(PATH, (const uint8_t *)text, size, &which);
		cases++;
		if (result != 1) {
			fprintf(stderr, "line %d: the call stacks read as %d differ from yajl's (%d) on\n%.*s\n", line, which,
				result, (int)(size < 2000 ? size : 2000), text);
			rli_test_failures++;
		}
	}
}

/* A trace of `events` ordinary lines with `item` (one line or several) as the middle one. */
static char *trace_around(const char *item, int events, size_t *size)
{
	size_t capacity = strlen(item) + (size_t)events * 260 + 512, used = 0;
	char *text = malloc(capacity);
	used += (size_t)snprintf(text + used, capacity - used,
				 "[\n{\"name\": \"process_name\", \"pid\": 7, \"tid\": 0, \"ph\": \"M\", "
				 "\"args\": {\"name\": \"Overlap Analysis\"}}");
	for (int i = 0; i < events; i++) {
		if (i == events / 2)
			used += (size_t)snprintf(text + used, capacity - used, ",\n%s", item);
		used += (size_t)snprintf(text + used, capacity - used,
					 ",\n{\"ph\": \"X\", \"name\": \"op%d\", \"pid\": %d, \"tid\": 1, "
					 "\"ts\": \"%d.5\", \"dur\": %d.25, \"cat\": \"%s\", \"args\": {\"Call stack\": "
					 "\"s%d.py(1): f;\\r\\nmain.py(9): run\"}}",
					 i % 4, i % 3 ? 7 : 8, 1000 + i * 10, 3 + i % 5, i % 2 ? "cpu_op" : "kernel", i % 5);
	}
	used += (size_t)snprintf(text + used, capacity - used, "\n]\n");
	*size = used;
	return text;
}

static void agree_around(const char *item, int line)
{
	size_t size;
	char *text = trace_around(item, 40, &size);
	agree(text, size, line);
	free(text);
}

#define AROUND(literal) agree_around(literal, __LINE__)
#define WHOLE(literal) agree(literal, sizeof(literal) - 1, __LINE__)

static void test_items(void)
{
	/* Items the scanner reads. */
	AROUND("{\"ph\": \"X\", \"name\": \"a\\\"b\\\\c\\/d\\n\", \"pid\": 7, \"tid\": 1, \"ts\": 900, \"dur\": 1e2}");
	AROUND("{\"ph\":\"X\",\"pid\":7,\"tid\":1,\"name\":\"n\",\"ts\":\"  1.5 \",\"dur\":-0.0,\"args\":{\"a\":[1,[2,{}],null,true,false]}}");
	AROUND("{\"ph\": \"X\", \"name\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", \"pid\": \"7\", \"tid\": 1, \"ts\": 5, \"dur\": 1}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": -5, \"dur\": 1}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": \"abc\", \"dur\": 1}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": 5}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": 1e308, \"dur\": 1e308}");
	AROUND("{}");
	AROUND("[]");
	AROUND("[1, 2, {\"ph\": \"X\"}]");
	/* cpu_op events with call stacks, as memory captures write them, and of the wrong types. */
	AROUND("{\"ph\": \"X\", \"name\": \"aten::add\", \"pid\": 7, \"tid\": 1, \"ts\": \"900.5\", \"dur\": 3, "
	       "\"cat\": \"cpu_op\", \"args\": {\"Call stack\": \"a.py(1): f;\\r\\nb.py(2): g;\\r\\nc.py(3): h_with_a_long_name_"
	       "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\"}}");
	AROUND("{\"ph\": \"X\", \"name\": \"aten::add\", \"pid\": 7, \"tid\": 1, \"ts\": 901, \"cat\": \"cpu_op\", "
	       "\"args\": {\"Call stack\": \"\\u0041.py(1): f\"}}");
	AROUND("{\"ph\": \"X\", \"name\": \"aten::add\", \"pid\": 7, \"tid\": 1, \"ts\": 902, \"dur\": \"x\", "
	       "\"cat\": \"cpu_op\", \"args\": {\"Call stack\": 12}}");
	AROUND("{\"ph\": \"X\", \"name\": [1], \"pid\": 7, \"tid\": 1, \"ts\": 903, \"cat\": \"cpu_op\", "
	       "\"args\": {\"Call stack\": \"x\"}}");
	AROUND("{\"ph\": \"X\", \"name\": \"aten::mm\", \"pid\": 7, \"tid\": 1, \"cat\": \"cpu_op\", "
	       "\"args\": {\"Call stack\": \"x\"}}");
	/* Items it leaves to yajl: \\u escapes, bytes that are no UTF-8, control characters, deep nesting. */
	AROUND("{\"ph\": \"X\", \"name\": \"\\u00e9\\ud83d\\ude00\", \"pid\": 7, \"tid\": 1, \"ts\": 950, \"dur\": 2}");
	AROUND("{\"ph\": \"X\", \"name\": \"\xff\xfe\", \"pid\": 7, \"tid\": 1, \"ts\": 950, \"dur\": 2}");
	AROUND("{\"ph\": \"X\", \"name\": \"\xc3\", \"pid\": 7, \"tid\": 1, \"ts\": 950, \"dur\": 2}");
	AROUND("{\"ph\": \"X\", \"name\": \"tab\there\", \"pid\": 7, \"tid\": 1, \"ts\": 950, \"dur\": 2}");
	AROUND("{\"ph\": \"X\", \"pid\": 7, \"tid\": 1, \"name\": \"d\", \"ts\": 1, \"dur\": 1, \"args\": "
	       "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
	       "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": 01, \"dur\": 1}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": 1., \"dur\": 1}");
	/* Items that look like cuts inside: objects first on their lines after commas, nested. */
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": 2, \"dur\": 1, \"args\": {\"list\": [\n"
	       "{\"a\": 1},\n{\"b\": 2},\n{\"c\": 3}]}}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7, \"tid\": 1, \"ts\": 2, \"dur\": 1, \"args\": {\"k\": \",\n{\"}}");
	/* Missing fields: a failure the reading must word as yajl's does. */
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"ts\": 2, \"dur\": 1}");
	/* Broken items: every reading ends in the same message, placed. */
	AROUND("{\"ph\": \"X\", \"name\": \"x\" \"pid\": 7}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7,}");
	AROUND("{\"ph\": \"X\", \"name\": \"unclosed, \"pid\": 7}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\"]");
	AROUND("{\"ph\": \"X\", \"name\": \"x\"}}");
	AROUND("\"a bare string\"");
	AROUND("12");
}

static void test_whole_files(void)
{
	WHOLE("");
	WHOLE("   \n");
	WHOLE("[]");
	WHOLE("[\n]\n");
	WHOLE("{\"traceEvents\": []}");
	WHOLE("[\n{\"name\": \"process_name\", \"pid\": 7, \"tid\": 0, \"ph\": \"M\", \"args\": {\"name\": \"Overlap Analysis\"}}\n]");
	WHOLE("[\n{\"name\": \"process_name\", \"pid\": 7, \"tid\": 0, \"ph\": \"M\", \"args\": {\"name\": \"Overlap Analysis\"}},\n"
	      "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 7, \"tid\": 1, \"ts\": 1, \"dur\": 2}\n] trailing");
	WHOLE("[\n{\"name\": \"process_name\", \"pid\": 7, \"tid\": 0, \"ph\": \"M\", \"args\": {\"name\": \"Overlap Analysis\"}},\n"
	      "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 7, \"tid\": 1, \"ts\": 1, \"dur\": 2},\n");
	WHOLE("[\n{\"name\": \"process_name\", \"pid\": 7, \"tid\": 0, \"ph\": \"M\", \"args\": {\"name\": \"Overlap Analysis\"}},\n"
	      "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 7, \"tid\": 1, \"ts\": 1, \"dur\": 2},\n]");
	/* All on one line: no cut to be had. */
	WHOLE("[{\"name\":\"process_name\",\"pid\":7,\"tid\":0,\"ph\":\"M\",\"args\":{\"name\":\"Overlap Analysis\"}},"
	      "{\"ph\":\"X\",\"name\":\"a\",\"pid\":7,\"tid\":1,\"ts\":1,\"dur\":2},{\"ph\":\"X\",\"name\":\"a\",\"pid\":7,"
	      "\"tid\":1,\"ts\":5,\"dur\":2}]");
}

/* Two Overlap Analysis processes: only the first counts, its events all through the file, in every chunk. */
static void test_two_targets(void)
{
	size_t size;
	char *text = trace_around("{\"name\": \"process_name\", \"pid\": 8, \"tid\": 0, \"ph\": \"M\", \"args\": {\"name\": "
				  "\"Overlap Analysis\"}}",
				  60, &size);
	agree(text, size, __LINE__);
	free(text);
}

/* Items of every length around every cut: each cut lands before, inside and after an item by turns. */
static void test_every_cut(void)
{
	for (int events = 1; events < 40; events += 3) {
		size_t size;
		char *text = trace_around("{\"ph\": \"X\", \"name\": \"\\u0041\", \"pid\": 7, \"tid\": 1, \"ts\": 3, \"dur\": 1}",
					  events, &size);
		agree(text, size, __LINE__);
		free(text);
	}
}

int main(void)
{
	test_items();
	test_whole_files();
	test_two_targets();
	test_every_cut();
	printf("%d readings compared\n", cases);
	return rli_test_failures ? 1 : 0;
}

/* test_parse_nvtx_scan.c: the scanned NVTX reading against yajl's, line by line, on every shape a line may take. */
#include "harness.h"
#include "fuzz_common.h"
#include "parse/nvtx_internal.h"

#include <stdarg.h>
#include <stdio.h>

#define PATH "scan/worker_process_9.1.jsonl"

/* A capture around the line under test: labels, the start, the rank, and one range before and after. */
static const char head[] = "{\"id\":1,\"table\":\"StringIds\",\"value\":\"step\"}\n"
			   "{\"id\":2,\"table\":\"StringIds\",\"value\":\"other\"}\n"
			   "{\"startTime\":2000000,\"table\":\"ANALYSIS_DETAILS\"}\n"
			   "{\"name\":\"ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=3\"}\n"
			   "{\"end\":900,\"eventType\":60,\"start\":100,\"table\":\"NVTX_EVENTS\",\"textId\":1}\n";
static const char tail[] = "\n{\"end\":1900,\"eventType\":60,\"start\":1100,\"textId\":2}\n";

static int cases, declined;

static void agree(const char *line, size_t length, int test_line)
{
	size_t size = sizeof(head) - 1 + length + sizeof(tail) - 1;
	char *text = malloc(size);
	int result;
	memcpy(text, head, sizeof(head) - 1);
	memcpy(text + sizeof(head) - 1, line, length);
	memcpy(text + sizeof(head) - 1 + length, tail, sizeof(tail) - 1);
	result = fuzz_readings_agree(rli_format_nvtx.parse_bytes, rli_nvtx_parse_bytes_reference, PATH,
				     (const uint8_t *)text, size);
	cases++;
	if (result != 1) {
		fprintf(stderr, "line %d: the readings differ (%d) on %.*s\n", test_line, result, (int)length, line);
		rli_test_failures++;
	}
	free(text);
}

#define AGREE(literal) agree(literal, sizeof(literal) - 1, __LINE__)

/* Lines written by hand: each edge of the grammar the scanner reads, and each it leaves to yajl. */
static void test_chosen_lines(void)
{
	/* Plain ranges, every field in every kind. */
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100,\"textId\":1}");
	AGREE("  {  \"end\" : 2900 , \"eventType\" :60,\t\"start\": 2100,\"textId\":1 }  \r");
	AGREE("{\"end\":2.9e3,\"eventType\":60,\"start\":-0,\"textId\":1}");
	AGREE("{\"end\":2900,\"eventType\":60.0,\"start\":2100,\"textId\":1}");
	AGREE("{\"end\":2900,\"eventType\":6e1,\"start\":2100,\"textId\":\"1\"}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":\"2100\",\"textId\":1}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":null,\"textId\":1}");
	AGREE("{\"end\":true,\"eventType\":60,\"start\":2100,\"textId\":1}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100,\"textId\":false}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100,\"textId\":{}}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100,\"textId\":[1,2]}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100,\"textId\":99}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100,\"textId\":1,\"textId\":2}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":2100,\"textId\":123456789012345678901234}");
	AGREE("{\"end\":99999999999999999999,\"eventType\":60,\"start\":2100,\"textId\":1}");
	AGREE("{\"end\":1.5e400,\"eventType\":60,\"start\":2100,\"textId\":1}");
	AGREE("{\"end\":2900,\"eventType\":60,\"start\":0.000001,\"textId\":1}");
	/* Numerals off the grammar, for yajl to judge. */
	AGREE("{\"end\":01,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":1.,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":.5,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":1e,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":1e+,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":-,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":+1,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":1x,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":1.5.3,\"eventType\":60,\"start\":1,\"textId\":1}");
	AGREE("{\"end\":--1,\"eventType\":60,\"start\":1,\"textId\":1}");
	/* Literals, whole and broken. */
	AGREE("{\"a\":true,\"b\":false,\"c\":null}");
	AGREE("{\"a\":tru}");
	AGREE("{\"a\":truex}");
	AGREE("{\"a\":nul}");
	AGREE("{\"a\":nullnull}");
	AGREE("{\"a\":True}");
	/* Strings the scanner leaves to yajl: escapes, bytes past ASCII, control characters. */
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"a \\\"quoted\\\" name\"}\n{\"end\":5,\"eventType\":60,\"start\":4,\"textId\":3}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\\u0041\\u00e9\\n\"}\n{\"end\":5,\"eventType\":60,\"start\":4,\"textId\":3}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\xc3\xa9t\xc3\xa9\"}\n{\"end\":5,\"eventType\":60,\"start\":4,\"textId\":3}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\xc3(\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\xff\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\xc0\x80 overlong\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\xed\xa0\x80 surrogate\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\xf4\x90\x80\x80 past U+10FFFF\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"cut \xe2\x82\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80\"}\n{\"end\":5,\"eventType\":60,\"start\":4,\"textId\":3}");
	AGREE("{\"\xc3\xa9\":1,\"end\\/\":5,\"end\":5,\"eventType\":60,\"start\":4,\"textId\":1}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"a\tb\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"a\x7f\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"\\x\"}");
	AGREE("{\"te\\u0078tId\":1,\"end\":5,\"eventType\":60,\"start\":4}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":\"unterminated}");
	AGREE("{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=\\\"5\\\"\"}");
	AGREE("{\"name\":\"ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"rank=7\"}");
	AGREE("{\"startTime\":\"3000000\",\"table\":\"ANALYSIS_DETAILS\"}");
	AGREE("{\"startTime\":null,\"table\":\"ANALYSIS_DETAILS\"}");
	AGREE("{\"id\":\"3\",\"table\":\"StringIds\",\"value\":\"by text\"}");
	AGREE("{\"id\":99999999999999999999999,\"table\":\"StringIds\",\"value\":\"too big\"}");
	AGREE("{\"id\":3,\"table\":\"StringIds\",\"value\":4}");
	AGREE("{\"\":1,\"end\":5,\"eventType\":60,\"start\":4,\"textId\":1}");
	/* Nesting, shallow and deep. */
	AGREE("{\"nested\":{\"end\":0,\"x\":[1,{},[],{\"y\":[true,null,\"s\",-1.5e3]}]},\"end\":5,\"eventType\":60,\"start\":4,\"textId\":1}");
	AGREE("{\"n\":{ }, \"m\":[ ], \"o\":[ { } , [ ] ]}");
	AGREE("{\"n\":{\"a\" 1}}");
	AGREE("{\"n\":{\"a\":1,}}");
	AGREE("{\"n\":[1,]}");
	AGREE("{\"n\":[1 2]}");
	AGREE("{\"n\":{1:2}}");
	AGREE("{\"n\":[}");
	AGREE("{\"n\":[[]]]}");
	AGREE("{\"n\":[{}]}}");
	AGREE("{\"n\":{\"a\":{}}}}");
	AGREE("{\"n\":{]}");
	AGREE("{\"n\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}");
	AGREE("{\"n\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}");
	/* The object itself: empty, broken, not alone, not an object. */
	AGREE("{}");
	AGREE("{ \t}");
	AGREE("{");
	AGREE("}");
	AGREE("{\"a\":1,}");
	AGREE("{\"a\" 1}");
	AGREE("{\"a\":1 \"b\":2}");
	AGREE("{a:1}");
	AGREE("{'a':1}");
	AGREE("{\"a\":}");
	AGREE("{\"a\":1}{\"b\":2}");
	AGREE("{\"a\":1} x");
	AGREE("{\"a\":1},");
	AGREE("[1,2]");
	AGREE("\"text\"");
	AGREE("42");
	AGREE("null");
	AGREE("\xef\xbb\xbf{\"a\":1}");
	/* Blanks: the scanner's, and yajl's own \v and \f. */
	AGREE("");
	AGREE("   \t\r");
	AGREE("\v");
	AGREE("\f{\"a\":1}");
	AGREE("{\"a\":\v1}");
	AGREE("{\"a\":1}\f");
	AGREE("\r\n\r\n{\"end\":5,\"eventType\":60,\"start\":4,\"textId\":1}\r");
	AGREE("{\"a\":1\x00}");
	AGREE("{\"a\":\"b\x00\"}");
	/* The line left open at the end of the file. */
	AGREE("{\"end\":5,\"eventType\":60,\"start\":4,\"textId\":1");
}

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint32_t next_random(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state >> 11);
}

/*
 * Lines of the exporter's shape, each changed at a few random places by bytes a JSON line is made
 * of (and some it is not): both readings must agree on every one.
 */
static void test_mutated_lines(void)
{
	static const char *const shapes[] = {
		"{\"color\":4275690201,\"domainId\":0,\"end\":2487364321,\"eventType\":60,\"globalTid\":282747880941798,"
		"\"rangeId\":2,\"start\":18624241,\"table\":\"NVTX_EVENTS\",\"textId\":1}",
		"{\"id\":107,\"table\":\"StringIds\",\"value\":\"compute_values\"}",
		"{\"duration\":2576381525,\"globalVid\":281474976710656,\"startTime\":6589132262753728,"
		"\"stopTime\":6589134839135253,\"table\":\"ANALYSIS_DETAILS\"}",
		"{\"name\":\"PROCESS_0:ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=4\"}",
		"{\"x\":{\"y\":[1,2.5,{\"z\":null}],\"w\":true},\"end\":5,\"eventType\":60,\"start\":4,\"textId\":2}",
	};
	static const char alphabet[] = "{}[]\":,.-+eE0123456789 \t\r\n\\tfnul\"aZ\x01\x7f\xc3\xa9\v\f/";
	char line[512];
	for (int round = 0; round < 6000; round++) {
		const char *shape = shapes[round % (sizeof(shapes) / sizeof(shapes[0]))];
		size_t length = strlen(shape);
		int edits = 1 + (int)(next_random() % 3);
		memcpy(line, shape, length);
		for (int e = 0; e < edits && length > 1; e++) {
			size_t at = next_random() % length;
			char c = alphabet[next_random() % (sizeof(alphabet) - 1)];
			switch (next_random() % 3) {
			case 0: /* replace */
				line[at] = c;
				break;
			case 1: /* insert */
				memmove(line + at + 1, line + at, length - at);
				line[at] = c;
				length++;
				break;
			default: /* delete */
				memmove(line + at, line + at + 1, length - at - 1);
				length--;
				break;
			}
		}
		agree(line, length, __LINE__);
		/* The scanner must have read most of these, or the test says little about it. */
		{
			nvtx_ctx n;
			memset(&n, 0, sizeof(n));
			if (!memchr(line, '\n', length) && rli_nvtx_scan_line(&n, (const unsigned char *)line, length) ==
								     NVTX_SCAN_DECLINED)
				declined++;
			free(n.value.text);
			free(n.name.text);
			free(n.unescaped);
		}
	}
	/* About half of the lines stay plain JSON; a scanner that declined them all would pass the rest. */
	if (declined > 4500) {
		fprintf(stderr, "the scanner declined %d of 6000 lines\n", declined);
		rli_test_failures++;
	}
}

/* The scanner's own answers on a few lines: it reads what it should and declines what it should. */
static void test_scanner_answers(void)
{
	static const struct {
		const char *line;
		int want;
	} lines[] = {
		{"{\"end\":5,\"eventType\":60,\"start\":4,\"textId\":1}", NVTX_SCAN_OBJECT},
		{" {\"n\":[{\"a\":[]}],\"b\":-1.5E+3} \r", NVTX_SCAN_OBJECT},
		{"{}", NVTX_SCAN_OBJECT},
		{"{\"n\":[[]]]}", NVTX_SCAN_DECLINED},
		{"{\"n\":[{},[],{\"a\":[]}]}", NVTX_SCAN_OBJECT},
		{" \t\r", NVTX_SCAN_BLANK},
		{"", NVTX_SCAN_BLANK},
		{"{\"a\":\"\\n\\\"\\/\"}", NVTX_SCAN_OBJECT},
		{"{\"a\":\"\\u0041\"}", NVTX_SCAN_DECLINED},
		{"{\"a\":\"\\x\"}", NVTX_SCAN_DECLINED},
		{"{\"a\":\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}", NVTX_SCAN_OBJECT},
		{"{\"a\":\"\xc0\x80\"}", NVTX_SCAN_DECLINED},
		{"{\"a\":\"\xed\xa0\x80\"}", NVTX_SCAN_DECLINED},
		{"{\"a\":\"\xe2\x82\"}", NVTX_SCAN_DECLINED},
		{"{\"a\":01}", NVTX_SCAN_DECLINED},
		{"{\"a\":1}{}", NVTX_SCAN_DECLINED},
		{"\v{}", NVTX_SCAN_DECLINED},
		{"[1]", NVTX_SCAN_DECLINED},
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		nvtx_ctx n;
		int got;
		memset(&n, 0, sizeof(n));
		got = rli_nvtx_scan_line(&n, (const unsigned char *)lines[i].line, strlen(lines[i].line));
		if (got != lines[i].want) {
			fprintf(stderr, "scan of %s: %d, want %d\n", lines[i].line, got, lines[i].want);
			rli_test_failures++;
		}
		free(n.value.text);
		free(n.name.text);
		free(n.unescaped);
	}
}

int main(void)
{
	test_scanner_answers();
	test_chosen_lines();
	test_mutated_lines();
	printf("%d cases compared; the scanner declined %d of 6000 mutated lines\n", cases, declined);
	TEST_DONE();
}

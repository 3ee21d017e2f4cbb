/* test_parse_nvtx_lines.c: NVTX files read as one stream of lines: chunk edges, odd spacing, and errors placed far into a file. */
#include "harness.h"
#include "fixture.h"
#include "events/events.h"

#include <stdarg.h>

#define RANGES 6000 /* about 400 KB: lines cross several 64 KiB read chunks */

typedef struct {
	char *text;
	size_t length, capacity;
	int lines; /* complete lines so far */
} builder;

static void add(builder *b, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (b->capacity - b->length < 512) {
		b->capacity = b->capacity ? b->capacity * 2 : 1 << 16;
		b->text = realloc(b->text, b->capacity);
	}
	va_start(ap, fmt);
	n = vsnprintf(b->text + b->length, b->capacity - b->length, fmt, ap);
	va_end(ap);
	for (int i = 0; i < n; i++)
		b->lines += b->text[b->length + i] == '\n';
	b->length += (size_t)n;
}

/*
 * A valid capture with RANGES ranges, written in every way a line may look: leading blanks and
 * tabs, CRLF endings, blank lines, a key order that varies, and no newline after the last line.
 * Range i starts at i * 1000 ns and lasts 500 + i % 7 ns; startTime is 2,000,000 ns.
 */
static void valid_capture(builder *b)
{
	add(b, "{\"id\":1,\"table\":\"StringIds\",\"value\":\"step\"}\n");
	add(b, "\n   \n{\"startTime\":2000000,\"table\":\"ANALYSIS_DETAILS\"}\r\n");
	add(b, "{\"name\":\"ENVIRONMENT_VARIABLE\",\"table\":\"META_DATA_CAPTURE\",\"value\":\"RANK=3\"}\n");
	for (int i = 0; i < RANGES; i++) {
		const char *lead = i % 7 == 0 ? " \t " : "";
		const char *end = i == RANGES - 1 ? "" : i % 5 == 0 ? "\r\n" : i % 11 == 0 ? "\n\n" : "\n";
		if (i % 2)
			add(b, "%s{\"color\":4275690201,\"end\":%d,\"eventType\":60,\"rangeId\":%d,\"start\":%d,"
			       "\"table\":\"NVTX_EVENTS\",\"textId\":1}%s",
			    lead, i * 1000 + 500 + i % 7, i, i * 1000, end);
		else
			add(b, "%s{\"textId\":1, \"start\": %d, \"eventType\": 60, \"nested\": {\"end\": 0, \"x\": [1, {}]}, "
			       "\"end\": %d}  %s",
			    lead, i * 1000, i * 1000 + 500 + i % 7, end);
	}
}

static void test_valid(void)
{
	char *root = fx_tempdir();
	builder b = {0};
	rli_events *events = NULL;
	valid_capture(&b);
	fx_write_bytes(root, "worker_process_9.1.jsonl", b.text, b.length);
	CHECK_INT(fx_parse(&events, root, RLI_PROFILER_NVTX, NULL, 1, NULL), RLI_OK);
	CHECK(events != NULL);
	if (events) {
		CHECK_INT(events->count, RANGES);
		for (size_t i = 0; i < events->count && i < RANGES; i++) {
			double start = (double)((int64_t)i * 1000 + 2000000) / 1000 / 1000;
			double duration = (double)(500 + (int64_t)i % 7) / 1000 / 1000;
			if (events->start_ms[i] != start || events->duration_ms[i] != duration ||
			    events->rank_id[i] != 3) {
				fprintf(stderr, "row %zu: start %.17g duration %.17g rank %lld\n", i, events->start_ms[i],
					events->duration_ms[i], (long long)events->rank_id[i]);
				CHECK(0);
				break;
			}
		}
	}
	rli_events_free(events);
	fx_remove(root);
	free(root);
	free(b.text);
}

/*
 * A range without a label after the first 5000: the rows stop there, and the 5000 before it keep
 * their times (they are settled in place, the unlabelled one too far to be kept).
 */
static void test_rows_stop_at_a_bad_range(void)
{
	char *root = fx_tempdir();
	builder b = {0};
	rli_events *events = NULL;
	fx_log log = {0};
	char *at;
	valid_capture(&b);
	at = strstr(b.text, "\"rangeId\":5001,");
	CHECK(at != NULL);
	if (at) {
		/* rangeId 5001 is the 5002nd range (ids count from 0); its textId 1 becomes 2, which has no label. */
		at = strstr(at, "\"textId\":1}");
		at[9] = '2';
	}
	fx_write_bytes(root, "worker_process_9.1.jsonl", b.text, b.length);
	CHECK_INT(fx_parse(&events, root, RLI_PROFILER_NVTX, NULL, 1, &log), RLI_OK);
	CHECK(fx_log_has(&log, "No valid role for Analysis"));
	CHECK(events != NULL);
	if (events) {
		CHECK_INT(events->count, 5001);
		for (size_t i = 0; i < events->count; i++) {
			double start = (double)((int64_t)i * 1000 + 2000000) / 1000 / 1000;
			double duration = (double)(500 + (int64_t)i % 7) / 1000 / 1000;
			if (events->start_ms[i] != start || events->duration_ms[i] != duration) {
				fprintf(stderr, "row %zu: start %.17g duration %.17g\n", i, events->start_ms[i],
					events->duration_ms[i]);
				CHECK(0);
				break;
			}
		}
	}
	rli_events_free(events);
	fx_log_reset(&log);
	fx_remove(root);
	free(root);
	free(b.text);
}

/* The valid capture with `bad` as the line after the first 5000 ranges; checks the whole message. */
static void expect_failure(const char *bad, const char *want_fmt, int test_line)
{
	char *root = fx_tempdir();
	builder b = {0};
	rli_events *events = NULL;
	char path[4096], want[8192];
	int line, rc;
	valid_capture(&b);
	/* Cut after range 4999's line, well past the first read chunk. */
	{
		char marker[64];
		char *at;
		snprintf(marker, sizeof(marker), "\"rangeId\":%d,", 4999);
		at = strstr(b.text, marker);
		at = strchr(at, '\n') + 1;
		b.length = (size_t)(at - b.text);
		b.lines = 0;
		for (size_t i = 0; i < b.length; i++)
			b.lines += b.text[i] == '\n';
	}
	line = b.lines + 1;
	add(&b, "%s", bad);
	fx_write_bytes(root, "worker_process_9.1.jsonl", b.text, b.length);
	snprintf(path, sizeof(path), "%s/worker_process_9.1.jsonl", root);
	snprintf(want, sizeof(want), want_fmt, path, line);
	rc = fx_parse(&events, root, RLI_PROFILER_NVTX, NULL, 1, NULL);
	if (rc != RLI_EINVALID || strcmp(rli_error_last(), want) != 0) {
		fprintf(stderr, "line %d: rc %d\n got: %s\nwant: %s\n", test_line, rc, rli_error_last(), want);
		rli_test_failures++;
	}
	rli_events_free(events);
	fx_remove(root);
	free(root);
	free(b.text);
}

#define FAILS(bad, want) expect_failure(bad, "Data validation failed\n  - Failed to parse JSON file %s: " want, __LINE__)

int main(void)
{
	test_valid();
	test_rows_stop_at_a_bad_range();
	/* An object that goes on past its line is an error of that line, as when each line is parsed alone. */
	FAILS("{\"eventType\":60,\"start\":1,\n\"end\":2,\"textId\":1}\n", "premature EOF at line %d, column 27");
	/* Two values on a line, or a value after the object. */
	FAILS("{\"a\":1} {\"b\":2}\n{\"c\":3}\n", "trailing garbage at line %d, column 9");
	FAILS("  {\"a\":1} 5\n", "trailing garbage at line %d, column 12");
	FAILS("  [1]\n{\"a\":1}\n", "expected a JSON object at line %d, column 4");
	FAILS("\"text\"\n", "expected a JSON object at line %d, column 7");
	/* yajl places a bad word where its lexer gave up, after the brace. */
	FAILS("{\"a\":1, \"b\":tru}\n", "invalid string in json text at line %d, column 15");
	/* The last line, without a newline. */
	FAILS("{\"a\":", "premature EOF at line %d, column 6");
	TEST_DONE();
}

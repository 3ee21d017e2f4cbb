/* test_parse_torch_scan.c: PyTorch traces whose traceEvents the items scanner reads, against yajl's reading of every byte: rows, messages and [memory] rows, plain and gzip. */
#include "harness.h"
#include "fuzz_common.h"
#include "parse/json_items.h"
#include "parse/json_member.h"
#include "parse/torch_read.h"

#include <stdio.h>
#include <zlib.h>

#define PATH "scan/prof_rank-0_000001.json.gz"

static int cases;

static void read_yajl(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_torch_parse_bytes_as(unit, source, rows, RLI_JSON_READ_YAJL);
}

static void read_scan(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_torch_parse_bytes_as(unit, source, rows, RLI_JSON_READ_SCAN);
}

/* text as a gzip member (what Kineto writes), in *out (free it). */
static unsigned char *gzip_of(const char *text, size_t size, size_t *out_size)
{
	z_stream z;
	size_t room = size + size / 100 + 1024;
	unsigned char *out = malloc(room);
	memset(&z, 0, sizeof(z));
	if (!out || deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(out);
		return NULL;
	}
	z.next_in = (unsigned char *)text;
	z.avail_in = (unsigned)size;
	z.next_out = out;
	z.avail_out = (unsigned)room;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*out_size = z.total_out;
	deflateEnd(&z);
	return out;
}

/* What a reading said and kept, for the message of a failed comparison. */
static void show_reading(fuzz_parse_fn parse, const char *name, const uint8_t *data, size_t size)
{
	rli_unit unit;
	rli_events *rows = NULL;
	rli_bytes *source = NULL;
	fuzz_unit_init(&unit, PATH);
	if (rli_events_new(&rows) == 0 && rli_bytes_from_memory(&source, PATH, data, size) == 0) {
		parse(&unit, source, rows);
		fprintf(stderr, "  %s: status %d, %zu row(s), rank %lld\n", name, unit.status, rows->count, (long long)unit.rank);
		for (size_t i = 0; i < unit.failures.count; i++)
			fprintf(stderr, "    failure: %s\n", unit.failures.items[i].text);
		for (size_t i = 0; i < unit.log.count; i++)
			fprintf(stderr, "    log %d: %s\n", (int)unit.log.items[i].level, unit.log.items[i].text);
	}
	rli_bytes_close(source);
	rli_events_free(rows);
	fuzz_unit_dispose(&unit);
}

/* Both readings of text agree, plain and as gzip, with and without its [memory] events kept. */
static void agree(const char *text, size_t size, int line)
{
	size_t packed_size = 0;
	unsigned char *packed = gzip_of(text, size, &packed_size);
	const struct {
		const char *name;
		const uint8_t *data;
		size_t size;
	} forms[] = {{"plain", (const uint8_t *)text, size}, {"gzip", packed, packed_size}};
	CHECK(packed != NULL);
	for (size_t f = 0; f < 2 && packed; f++)
		for (int memory = 0; memory < 2; memory++) {
			int result = fuzz_readings_agree_on(read_scan, read_yajl, PATH, forms[f].data, forms[f].size,
							    memory ? RLI_MEMORY_DEVICE_ALL : 0);
			cases++;
			if (result != 1) {
				fprintf(stderr, "line %d: the scanner's reading (%s%s) differs from yajl's (%d) on\n%.*s\n", line,
					forms[f].name, memory ? ", [memory] kept" : "", result, (int)(size < 2000 ? size : 2000),
					text);
				show_reading(read_scan, "scanner", forms[f].data, forms[f].size);
				show_reading(read_yajl, "yajl", forms[f].data, forms[f].size);
				rli_test_failures++;
			}
		}
	free(packed);
}

/* Bytes as they are (a gzip cut short, say): both readings agree on them. */
static void agree_raw(const unsigned char *data, size_t size, int line)
{
	for (int memory = 0; memory < 2; memory++) {
		int result = fuzz_readings_agree_on(read_scan, read_yajl, PATH, data, size, memory ? RLI_MEMORY_DEVICE_ALL : 0);
		cases++;
		if (result != 1) {
			fprintf(stderr, "line %d: the scanner's reading of %zu raw bytes differs from yajl's (%d)\n", line, size,
				result);
			show_reading(read_scan, "scanner", data, size);
			show_reading(read_yajl, "yajl", data, size);
			rli_test_failures++;
		}
	}
}

/* A trace: head members, `events` ordinary events with item as the middle one, tail members. */
static char *trace_of(const char *head, const char *item, int events, const char *tail, size_t *size)
{
	size_t capacity = strlen(head) + strlen(item) + strlen(tail) + (size_t)events * 420 + 512, used = 0;
	char *text = malloc(capacity);
	used += (size_t)snprintf(text + used, capacity - used, "{%s\"traceEvents\": [\n", head);
	for (int i = 0; i < events; i++) {
		if (i == events / 2 && *item)
			used += (size_t)snprintf(text + used, capacity - used, "%s,\n", item);
		if (i % 7 == 3)
			used += (size_t)snprintf(text + used, capacity - used,
						 "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", "
						 "\"pid\": 11, \"tid\": 12, \"ts\": %d.5, \"s\": \"t\", \"args\": {\"Device Type\": 1, "
						 "\"Device Id\": 0, \"Addr\": %d, \"Bytes\": %d, \"Total Allocated\": %d, "
						 "\"Total Reserved\": 4194304}},\n",
						 1000 + i * 10, 94000 + (i / 14) * 64, i % 14 == 3 ? 512 : -512, 1024 + i);
		used += (size_t)snprintf(text + used, capacity - used,
					 "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"aten::op%d\", \"pid\": 11, \"tid\": %d, "
					 "\"ts\": %d.25, \"dur\": %d, \"args\": {\"External id\": %d, \"Input Dims\": [[%d, 3], []], "
					 "\"Input type\": [\"float\", \"\"]}}%s\n",
					 i % 2 ? "cpu_op" : "kernel", i % 5, 12 + i % 3, 1000 + i * 10, 2 + i % 4, i, i % 9,
					 i + 1 < events ? "," : "");
	}
	used += (size_t)snprintf(text + used, capacity - used, "]%s}\n", tail);
	*size = used;
	return text;
}

static void agree_on(const char *head, const char *item, int events, const char *tail, int line)
{
	size_t size;
	char *text = trace_of(head, item, events, tail, &size);
	agree(text, size, line);
	free(text);
}

#define DIST "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8}, "
#define AROUND(item) agree_on("\"schemaVersion\": 1, " DIST, item, 40, ", \"traceName\": \"t\"", __LINE__)
#define WHOLE(literal) agree(literal, sizeof(literal) - 1, __LINE__)

static void test_items(void)
{
	AROUND("");
	AROUND("{\"ph\": \"X\", \"name\": \"a\\\"b\\\\c\\/d\\n\", \"pid\": 11, \"tid\": 1, \"ts\": 900, \"dur\": 1e2}");
	AROUND("{\"ph\": \"X\", \"name\": \"\\u00e9\", \"pid\": 11, \"tid\": 1, \"ts\": 900, \"dur\": 2}");
	AROUND("{\"ph\": \"X\", \"name\": \"\xff\", \"pid\": 11, \"tid\": 1, \"ts\": 900, \"dur\": 2}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 11, \"tid\": 1, \"ts\": -5, \"dur\": 1}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 11, \"tid\": 1, \"ts\": \"5\", \"dur\": 1}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 11, \"tid\": 1, \"ts\": [5], \"dur\": 1}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 11, \"tid\": 1, \"ts\": 1e308, \"dur\": 1e308}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"tid\": 1, \"ts\": 5, \"dur\": 1}");
	AROUND("{}");
	AROUND("[]");
	AROUND("12");
	AROUND("{\"ph\": \"X\", \"pid\": 11, \"tid\": 1, \"name\": \"d\", \"ts\": 1, \"dur\": 1, \"args\": "
	       "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
	       "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}");
	/* Broken: yajl's reading of every byte words and places the failure. */
	AROUND("{\"ph\": \"X\", \"name\": \"x\" \"pid\": 7}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 7,}");
	AROUND("{\"ph\": \"X\", \"name\": \"x\"]");
}

static void test_members(void)
{
	/* The key elsewhere: in strings, nested, escaped, twice, not an array. */
	agree_on("\"traceName\": \"\\\"traceEvents\\\": [\", \"deviceProperties\": [{\"traceEvents\": [1, 2]}], " DIST, "",
		 30, "", __LINE__);
	agree_on("\"trace\\u0045vents\": [], " DIST, "", 30, "", __LINE__);
	agree_on(DIST "\"traceEvents\": [{\"ph\": \"X\", \"name\": \"early\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}], ",
		 "", 30, "", __LINE__);
	agree_on(DIST "\"traceEvents\": {}, ", "", 30, "", __LINE__);
	agree_on(DIST, "", 30, ", \"traceEvents\": 5", __LINE__);
	agree_on("", "", 30, ", " DIST "\"trailing\": [1, {\"x\": null}]", __LINE__);
	agree_on(DIST, "", 30, ", \"distributedInfo\": 5", __LINE__);
	agree_on(DIST, "", 30, "] [", __LINE__);
	agree_on(DIST, "", 30, ", \"k\": 1} x", __LINE__);
	agree_on(DIST, "", 30, ", \"k\": \"unclosed}", __LINE__);
	agree_on(DIST, "", 0, "", __LINE__);
	/* Long enough for the gzip to inflate in several blocks: the key and the array cross them. */
	agree_on("\"deviceProperties\": \"" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		 "\", " DIST, "", 4000, ", \"traceName\": \"t\"", __LINE__);
	WHOLE("");
	WHOLE("  ");
	WHOLE("[]");
	WHOLE("{}");
	WHOLE("{\"traceEvents\": []}");
	WHOLE("{\"traceEvents\": [");
	WHOLE("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}]");
	WHOLE("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}]}");
	WHOLE("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}],\"x\":[]}");
}

/* The finder alone, byte by byte: the "[" found across any split of the bytes. */
static void test_finder(void)
{
	static const char text[] = "{\"a\": \"traceEvents\", \"b\": {\"traceEvents\": [1]}, \"traceEvents\" : \t[ {} ] }";
	size_t expected = strlen("{\"a\": \"traceEvents\", \"b\": {\"traceEvents\": [1]}, \"traceEvents\" : \t[");
	for (size_t split = 0; split <= sizeof(text) - 1; split++) {
		rli_member_finder finder;
		size_t at;
		rli_member_finder_init(&finder, "traceEvents");
		at = rli_member_finder_scan(&finder, (const unsigned char *)text, split);
		if (at == (size_t)-1) {
			at = rli_member_finder_scan(&finder, (const unsigned char *)text + split, sizeof(text) - 1 - split);
			at = at == (size_t)-1 ? at : at + split;
		}
		CHECK_INT(at, expected);
	}
}

/* An ordinary trace read as a run reads it: traceEvents went to the scanner (the -vv line), not to yajl alone. */
static void test_scanner_reads(void)
{
	size_t size;
	char *text = trace_of(DIST, "", 100, "", &size);
	rli_unit unit;
	rli_events *rows = NULL;
	rli_bytes *source = NULL;
	int said = 0;
	fuzz_unit_init(&unit, PATH);
	CHECK_INT(rli_events_new(&rows), RLI_OK);
	CHECK_INT(rli_bytes_from_memory(&source, PATH, text, size), RLI_OK);
	rli_torch_parse_bytes_as(&unit, source, rows, RLI_JSON_READ_AUTO);
	for (size_t i = 0; i < unit.log.count; i++)
		said |= unit.log.items[i].level == RLI_LOG_DEBUG && strstr(unit.log.items[i].text, "by the scanner") != NULL;
	CHECK(said);
	CHECK_INT(rows->count, 1);
	CHECK_INT(unit.failures.count, 0);
	rli_bytes_close(source);
	rli_events_free(rows);
	fuzz_unit_dispose(&unit);
	free(text);
}

/* A gzip cut short whose JSON breaks before the cut (found by fuzz_torch). */
static void test_cut_gzip(void)
{
	static const unsigned char cut[] = {
		0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x35, 0x8c, 0x31, 0x0e, 0xc2, 0x30, 0x10, 0x04,
		0xff, 0xb2, 0xb5, 0x8b, 0x58, 0x82, 0xe6, 0x7a, 0x0a, 0x7e, 0x80, 0x84, 0x10, 0x72, 0x7c, 0x87, 0xb0, 0x12,
		0x2e, 0x91, 0xed, 0x80, 0x84, 0xe5, 0xbf, 0xe7, 0x9a, 0x54, 0xbb, 0xc5, 0xcc, 0x34, 0x70, 0x2a, 0x35, 0xa7,
		0x71, 0xab, 0xc2, 0x57, 0x7d, 0x2d, 0xa0, 0x86, 0x31, 0xc4, 0x49, 0x94, 0x41, 0xd0, 0x18, 0x67, 0x38, 0xe4,
		0xa0, 0x13, 0x68, 0x70, 0xf8, 0x2d, 0x79, 0xe6, 0x67, 0x49, 0x7f, 0x01, 0xf9, 0xee, 0x50, 0x73, 0x88, 0x72,
		0xf9, 0x8a, 0xd6, 0x02, 0xba, 0x37, 0xac, 0x6f, 0x93, 0x6e, 0x66, 0x68, 0xf8, 0x18, 0x82, 0x60, 0x77, 0x4d,
		0x56, 0xf2, 0xc6, 0x1e, 0x6b, 0xa8, 0x97, 0xd3, 0x60, 0x39, 0xde, 0x32, 0xe8, 0x7d, 0x1f, 0xdc, 0x07, 0x96,
		0x4f, 0x15, 0xdd, 0x87, 0x00, 0x00, 0x00,
	};
	agree_raw(cut, sizeof(cut), __LINE__);
}

int main(void)
{
	test_cut_gzip();
	test_items();
	test_members();
	test_finder();
	test_scanner_reads();
	printf("%d readings compared\n", cases);
	return rli_test_failures ? 1 : 0;
}

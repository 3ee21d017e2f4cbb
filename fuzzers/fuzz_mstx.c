/* fuzz_mstx.c: libFuzzer target: any bytes as one mstx unit (trace_view.json), from memory, read by yajl, the scanner and in chunks. */
#include "fuzz_common.h"
#include "parse/json_items.h"
#include "parse/mstx_internal.h"

#define PATH "fuzz/trace_view.json"

static void read_yajl(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, RLI_JSON_READ_YAJL);
}

static void read_scan(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, RLI_JSON_READ_SCAN);
}

/* Three chunks, whatever the size: the cuts land anywhere the bytes allow one. */
static void read_chunks(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_mstx_parse_bytes_as(unit, source, rows, 3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The fast readings read as yajl does: the same row, the same messages, in the same order. */
	if (fuzz_readings_agree(read_scan, read_yajl, PATH, data, size) == 0 ||
	    fuzz_readings_agree(read_chunks, read_yajl, PATH, data, size) == 0)
		abort();
	return fuzz_timeline(&rli_format_mstx, PATH, data, size);
}

/* fuzz_torch.c: libFuzzer target: any bytes as one torch unit (prof_rank-0_000001.json.gz), from memory, read by yajl and with the items scanner. */
#include "fuzz_common.h"
#include "parse/json_items.h"
#include "parse/torch_read.h"

#define PATH "fuzz/prof_rank-0_000001.json.gz"

static void read_yajl(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_torch_parse_bytes_as(unit, source, rows, RLI_JSON_READ_YAJL);
}

static void read_scan(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_torch_parse_bytes_as(unit, source, rows, RLI_JSON_READ_SCAN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The scanner's reading of traceEvents reads as yajl's: the same row, messages and order. */
	if (fuzz_readings_agree(read_scan, read_yajl, PATH, data, size) == 0)
		abort();
	return fuzz_timeline(&rli_format_torch, PATH, data, size);
}

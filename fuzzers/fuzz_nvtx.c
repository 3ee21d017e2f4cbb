/* fuzz_nvtx.c: libFuzzer target: any bytes as one nvtx unit (worker_process_70000.1.jsonl), from memory, read both ways. */
#include "fuzz_common.h"
#include "parse/nvtx_internal.h"

#define PATH "fuzz/worker_process_70000.1.jsonl"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The scanner reads a line only as yajl would: both readings give the same unit (and finite rows). */
	if (fuzz_readings_agree(rli_format_nvtx.parse_bytes, rli_nvtx_parse_bytes_reference, PATH, data, size) == 0)
		abort();
	return 0;
}

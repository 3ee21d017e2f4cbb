/* fuzz_nvtx.c: libFuzzer target: any bytes as one nvtx unit (worker_process_70000.1.jsonl), from memory. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_timeline(&rli_format_nvtx, "fuzz/worker_process_70000.1.jsonl", data, size);
}

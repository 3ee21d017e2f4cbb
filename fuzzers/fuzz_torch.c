/* fuzz_torch.c: libFuzzer target: any bytes as one torch unit (prof_rank-0_000001.json.gz), from memory. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_timeline(&rli_format_torch, "fuzz/prof_rank-0_000001.json.gz", data, size);
}

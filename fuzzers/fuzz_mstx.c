/* fuzz_mstx.c: libFuzzer target: any bytes as one mstx unit (trace_view.json), from memory. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_timeline(&rli_format_mstx, "fuzz/trace_view.json", data, size);
}

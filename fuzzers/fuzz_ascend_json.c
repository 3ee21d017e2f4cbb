/* fuzz_ascend_json.c: libFuzzer target: any bytes as profiler_info_<N>.json or profiler_metadata.json. */
#include "fuzz_common.h"
#include "parse/ascend_capture.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const wanted[] = {"config", "start_info", "end_info", "torch_npu_version", "cann_version",
					     "rank_id", "role"};
	rli_json_top top;
	rli_bytes *source = NULL;
	char *failure = NULL;
	if (rli_bytes_from_memory(&source, "fuzz/profiler_info_0.json", data, size) == 0)
		rli_json_read_top_bytes(&top, source, wanted, sizeof(wanted) / sizeof(wanted[0]), &failure);
	else
		memset(&top, 0, sizeof(top));
	free(top.role);
	free(failure);
	rli_bytes_close(source);
	return 0;
}

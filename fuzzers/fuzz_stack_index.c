/* fuzz_stack_index.c: libFuzzer target: any bytes as the trace_view.json a memory capture takes call stacks from, read every way. */
#include "fuzz_stacks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rli_unit unit;
	rli_stack_index index;
	rli_bytes *source = NULL;
	int which = 0;
	/* The scanner, the chunks and the timeline's shared reading gather what yajl's reading does. */
	if (fuzz_stack_readings_agree("fuzz/trace_view.json", data, size, &which) == 0)
		abort();
	fuzz_unit_init(&unit, "fuzz/trace_view.json");
	rli_stack_index_init(&index);
	if (rli_bytes_from_memory(&source, unit.path, data, size) == 0 &&
	    rli_stack_index_read(&index, &unit, source, size) == 0 && index.group_begin) {
		/* The matching rule on what was read: every op finds itself or an earlier one of its name. */
		for (size_t i = 0; i < index.count; i++) {
			size_t hint = 0;
			rli_stack_index_match(&index, index.ops[i].name, index.ops[i].ts, &hint);
		}
	}
	rli_bytes_close(source);
	rli_stack_index_dispose(&index);
	fuzz_unit_dispose(&unit);
	return 0;
}

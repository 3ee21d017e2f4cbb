/* fuzz_memory_csv.c: libFuzzer target: any bytes as operator_memory.csv (no call stacks to match), from memory. */
#include "fuzz_common.h"
#include "parse/memory_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rli_unit unit;
	rli_stack_index index;
	rli_memory *table = NULL;
	rli_bytes *source = NULL;
	rli_memory_match_counts counts;
	fuzz_unit_init(&unit, "fuzz/operator_memory.csv");
	rli_stack_index_init(&index);
	if (rli_memory_new(&table) == 0 && rli_bytes_from_memory(&source, unit.path, data, size) == 0)
		rli_memory_read_csv(table, &unit, source, &index, &counts);
	rli_bytes_close(source);
	rli_memory_free(table);
	rli_stack_index_dispose(&index);
	fuzz_unit_dispose(&unit);
	return 0;
}

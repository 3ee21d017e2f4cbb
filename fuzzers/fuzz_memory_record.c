/* fuzz_memory_record.c: libFuzzer target: any bytes as an Ascend memory_record.csv, its reserve samples checked, from memory. */
#include "fuzz_common.h"
#include "parse/memory_internal.h"

#include <math.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rli_unit unit;
	rli_memory *table = NULL;
	rli_bytes *source = NULL;
	fuzz_unit_init(&unit, "fuzz/memory_record.csv");
	if (rli_memory_new(&table) == 0 && rli_bytes_from_memory(&source, unit.path, data, size) == 0 &&
	    rli_memory_read_record(table, &unit, source) == 0) {
		/* what it keeps is a line to draw: finite times and values, in time order */
		for (size_t i = 0; i < table->reserve.count; i++) {
			const rli_memory_sample *k = &table->reserve.items[i];
			if (!isfinite(k->ms) || !isfinite(k->mb) || (i && k->ms < table->reserve.items[i - 1].ms))
				abort();
		}
	}
	rli_bytes_close(source);
	rli_memory_free(table);
	fuzz_unit_dispose(&unit);
	return 0;
}

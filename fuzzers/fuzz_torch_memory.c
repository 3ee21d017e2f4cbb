/* fuzz_torch_memory.c: libFuzzer target: any bytes as one torch unit read for its [memory] events too (every device), from memory, by yajl and with the items scanner. */
#include "fuzz_common.h"
#include "memory/memory_table.h"
#include "parse/json_items.h"
#include "parse/torch_read.h"

static void read_yajl(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_torch_parse_bytes_as(unit, source, rows, RLI_JSON_READ_YAJL);
}

static void read_scan(rli_unit *unit, rli_bytes *source, rli_events *rows)
{
	rli_torch_parse_bytes_as(unit, source, rows, RLI_JSON_READ_SCAN);
}

/*
 * What the memory rows of any trace keep to: a size that is a finite number other than 0, a
 * finite start, and a block closed by its free no earlier than it began (pairs are made in time
 * order); a free of its own (size < 0) is never released.
 */
static void check_memory_rows(const rli_memory *memory)
{
	for (size_t i = 0; i < memory->count; i++) {
		int released = (memory->flags[i] & RLI_MEMORY_RELEASED) != 0;
		if (!isfinite(memory->size_kb[i]) || memory->size_kb[i] == 0 || !isfinite(memory->start_ms[i]))
			abort();
		if (released && (memory->size_kb[i] < 0 || !(memory->duration_ms[i] >= 0)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = "fuzz/prof_rank-0_000001.json.gz";
	rli_unit unit;
	rli_events *rows = NULL;
	rli_bytes *source = NULL;
	/* Both readings keep the same memory rows too, to the bit. */
	if (fuzz_readings_agree_on(read_scan, read_yajl, path, data, size, RLI_MEMORY_DEVICE_ALL) == 0)
		abort();
	fuzz_unit_init(&unit, path);
	unit.memory_devices = RLI_MEMORY_DEVICE_ALL;
	if (rli_events_new(&rows) == 0 && rli_bytes_from_memory(&source, path, data, size) == 0) {
		rli_format_torch.parse_bytes(&unit, source, rows);
		if (unit.status == 0 && unit.failures.count == 0) {
			fuzz_check_rows(rows);
			if (unit.memory)
				check_memory_rows(unit.memory);
		}
	}
	rli_memory_free(unit.memory);
	rli_bytes_close(source);
	rli_events_free(rows);
	fuzz_unit_dispose(&unit);
	return 0;
}

/* fuzz_table.c: libFuzzer target: any bytes as one exported table (rl_events, memory_events or gmm_events, CSV or JSONL, chosen by the first byte), from memory. */
#include "fuzz_common.h"
#include "parse/gmm_internal.h"
#include "parse/table_read.h"
#include "memory/memory_table.h"

/* By the first byte: its two low bits for the first four (as the corpus was seeded), its high bit for gmm_events. */
static const char *const table_names[] = {
	"fuzz/rl_events.csv", "fuzz/rl_events.jsonl", "fuzz/memory_events.csv", "fuzz/memory_events.jsonl",
	"fuzz/gmm_events.csv", "fuzz/gmm_events.jsonl",
};

/* What the reader promises of the GMM rows it accepts: experts in bounds, counts not below 0. */
static void check_gmm(const rli_gmm *gmm)
{
	for (size_t k = 0; gmm && k < gmm->snapshot_count; k++)
		if (gmm->snapshots[k].rank_id < 0 || gmm->snapshots[k].step < 0 || gmm->snapshots[k].stage < 0)
			abort();
	for (size_t i = 0; gmm && i < gmm->count; i++)
		if (gmm->expert_index[i] >= RLI_GMM_MAX_EXPERTS)
			abort();
}

/* What the reader promises of the memory rows it accepts: finite numbers, a duration not below 0. */
static void check_memory(const rli_memory *memory)
{
	for (size_t i = 0; memory && i < memory->count; i++)
		if (!isfinite(memory->start_ms[i]) || !isfinite(memory->size_kb[i]) || !(memory->duration_ms[i] >= 0) ||
		    !isfinite(memory->start_ms[i] + memory->duration_ms[i]))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rli_unit unit;
	rli_events *rows = NULL;
	rli_bytes *source = NULL;
	unsigned which;
	if (size == 0)
		return 0;
	which = data[0] & 0x80 ? 4 + (data[0] & 1u) : data[0] & 3u;
	fuzz_unit_init(&unit, table_names[which]);
	if (rli_events_new(&rows) == 0 && rli_bytes_from_memory(&source, unit.path, data + 1, size - 1) == 0) {
		if (which < 2)
			rli_table_parse_events(&unit, source, rows);
		else if (which < 4)
			rli_table_parse_memory(&unit, source);
		else
			rli_table_parse_gmm(&unit, source);
		if (unit.status == 0 && unit.failures.count == 0) {
			fuzz_check_rows(rows);
			check_memory(unit.memory);
			check_gmm(unit.gmm);
		}
	}
	rli_memory_free(unit.memory);
	rli_gmm_free(unit.gmm);
	rli_bytes_close(source);
	rli_events_free(rows);
	fuzz_unit_dispose(&unit);
	return 0;
}

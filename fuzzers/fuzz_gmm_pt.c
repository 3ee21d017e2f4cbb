/* fuzz_gmm_pt.c: libFuzzer target: any bytes as one group_list.pt dump (a zip archive or the legacy stream), read as a run reads it, from memory. */
#include "fuzz_common.h"
#include "gmm/gmm_table.h"
#include "parse/pt_read.h"

#define DUMP_PATH "fuzz/step_2/actor_update/rank3/dump_tensor_data/NPU.npu_grouped_matmul.5.forward.kwargs.group_list.pt"

/*
 * What the reader promises: a dump it accepts is one snapshot under the unit's keys, its rows
 * the experts 0 .. n-1 of a bounded tensor; one it refuses is one failure naming the file.
 */
static void check(const rli_unit *unit)
{
	const rli_gmm *gmm = unit->gmm;
	if (unit->failures.count) {
		if (gmm || unit->failures.count != 1 || strncmp(unit->failures.items[0].text, "Failed to parse " DUMP_PATH ": ",
								 strlen("Failed to parse " DUMP_PATH ": ")) != 0)
			abort();
		return;
	}
	if (!gmm || gmm->snapshot_count > 1 || gmm->count > RLI_GMM_MAX_EXPERTS)
		abort();
	for (size_t k = 0; k < gmm->snapshot_count; k++) {
		const rli_gmm_snapshot *s = &gmm->snapshots[k];
		if (s->first != 0 || s->count != gmm->count || s->rank_id != 3 || s->step != 2 || s->stage != 5 ||
		    strcmp(rli_gmm_role(gmm, s), "actor_update") != 0)
			abort();
		for (size_t i = 0; i < s->count; i++)
			if (gmm->expert_index[i] != i)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rli_unit unit;
	rli_bytes *source = NULL;
	fuzz_unit_init(&unit, DUMP_PATH);
	unit.rank = 3;
	unit.step = 2;
	unit.stage = 5;
	if (rli_bytes_from_memory(&source, unit.path, data, size) == 0) {
		rli_format_gmm.parse_bytes(&unit, source, NULL);
		if (unit.status == 0)
			check(&unit);
	}
	rli_gmm_free(unit.gmm);
	rli_bytes_close(source);
	fuzz_unit_dispose(&unit);
	return 0;
}

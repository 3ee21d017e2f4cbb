/* fuzz_summary.c: libFuzzer target: any bytes as a summary.json read back as a comparison's baseline, then compared with itself. */
#include "fuzz_common.h"
#include "compare/compare.h"

#include <string.h>

/* What a side read back keeps to: every list sorted, and every range inside its list. */
static void check_side(const rli_compare_side *s)
{
	for (size_t i = 1; i < s->phase_count; i++) {
		int order = strcmp(s->phases[i - 1].role, s->phases[i].role);
		if (order > 0 || (order == 0 && strcmp(s->phases[i - 1].name, s->phases[i].name) > 0))
			abort();
	}
	for (size_t i = 0; i < s->role_count; i++)
		if (s->roles[i].first_rank + s->roles[i].rank_count > s->rank_id_count)
			abort();
	for (size_t i = 0; i < s->device_count; i++)
		if (s->devices[i].first_site + s->devices[i].site_count > s->site_count)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rli_compare_side *side = NULL;
	rli_comparison *comparison = NULL;
	if (rli_compare_side_read_summary_memory(&side, "fuzz/summary.json", data, size) == RLI_OK) {
		check_side(side);
		/* A run against itself changed nothing. */
		if (rli_compare(&comparison, side, side, NULL) == RLI_OK &&
		    (comparison->regressions || comparison->improvements))
			abort();
		for (size_t i = 0; comparison && i < comparison->phase_count; i++)
			if (comparison->phases[i].presence != RLI_IN_BOTH)
				abort();
	}
	rli_comparison_free(comparison);
	rli_compare_side_free(side);
	return 0;
}

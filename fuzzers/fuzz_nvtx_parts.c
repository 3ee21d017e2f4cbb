/*
 * fuzz_nvtx_parts.c: libFuzzer target: any bytes as one NVTX file read in parts on several threads
 * (nvtx_parts.c, cut every few bytes) and read whole: the same status, messages and rows.
 */
#include "fuzz_common.h"
#include "parse/nvtx_internal.h"

#include <stdio.h>
#include <unistd.h>

/* The messages alike, the -vv lines that say how the file was read left aside. */
static int same_notes_but_debug(const rli_notes *a, const rli_notes *b)
{
	size_t i = 0, j = 0;
	for (;;) {
		while (i < a->count && a->items[i].level == RLI_LOG_DEBUG)
			i++;
		while (j < b->count && b->items[j].level == RLI_LOG_DEBUG)
			j++;
		if (i == a->count || j == b->count)
			return i == a->count && j == b->count && a->oom == b->oom;
		if (a->items[i].level != b->items[j].level || strcmp(a->items[i].text, b->items[j].text) != 0)
			return 0;
		i++;
		j++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[256];
	rli_unit unit[2];
	rli_events *rows[2] = {NULL, NULL};
	FILE *fp;
	if (!path[0]) {
		char dir[] = "/tmp/rli-fuzz-parts-XXXXXX";
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/worker_process_70000.1.jsonl", dir);
		/* Parts of a few bytes: cuts fall everywhere, in the first line and the last. */
		setenv("RLI_NVTX_PART_BYTES", "24", 1);
	}
	if (!(fp = fopen(path, "wb")) || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	for (int k = 0; k < 2; k++) {
		fuzz_unit_init(&unit[k], path);
		/* Four threads' parts, then the whole file on one. */
		unit[k].spare_threads = k == 0 ? 3 : 0;
		if (rli_events_new(&rows[k]) != 0)
			abort();
		rli_format_nvtx.parse_unit(&unit[k], rows[k]);
	}
	if (unit[0].status == 0 && unit[1].status == 0) {
		if (unit[0].failures.count == 0)
			fuzz_check_rows(rows[0]);
		if (!fuzz_same_notes(&unit[0].failures, &unit[1].failures) || !same_notes_but_debug(&unit[0].log, &unit[1].log) ||
		    !fuzz_same_rows(rows[0], rows[1]))
			abort();
	}
	for (int k = 0; k < 2; k++) {
		rli_events_free(rows[k]);
		fuzz_unit_dispose(&unit[k]);
	}
	return 0;
}

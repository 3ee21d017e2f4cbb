/* fuzz_memory_csv.c: libFuzzer target: any bytes as operator_memory.csv (no call stacks to match), read whole and in chunks. */
#include "fuzz_common.h"
#include "parse/memory_internal.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
	rli_unit unit;
	rli_memory *table;
	rli_memory_match_counts counts;
	int error;
} csv_reading;

static void read_csv(csv_reading *r, const uint8_t *data, size_t size, unsigned spare)
{
	rli_stack_index index;
	rli_bytes *source = NULL;
	fuzz_unit_init(&r->unit, "fuzz/operator_memory.csv");
	r->unit.spare_threads = spare;
	r->table = NULL;
	r->error = -1;
	rli_stack_index_init(&index);
	if (rli_memory_new(&r->table) == 0 && rli_bytes_from_memory(&source, r->unit.path, data, size) == 0)
		r->error = rli_memory_read_csv(r->table, &r->unit, source, &index, &r->counts);
	rli_bytes_close(source);
	rli_stack_index_dispose(&index);
}

/* The same notes, but for the debug line that says the file was read in chunks. */
static int same_said(const rli_notes *a, const rli_notes *b)
{
	size_t i = 0, j = 0;
	for (;;) {
		while (i < a->count && a->items[i].level == RLI_LOG_DEBUG)
			i++;
		while (j < b->count && b->items[j].level == RLI_LOG_DEBUG)
			j++;
		if (i == a->count || j == b->count)
			return i == a->count && j == b->count;
		if (a->items[i].level != b->items[j].level || strcmp(a->items[i].text, b->items[j].text) != 0)
			return 0;
		i++;
		j++;
	}
}

static int same_readings(const csv_reading *a, const csv_reading *b)
{
	return a->error == b->error && !memcmp(&a->counts, &b->counts, sizeof(a->counts)) &&
	       fuzz_same_notes(&a->unit.failures, &b->unit.failures) && same_said(&a->unit.log, &b->unit.log) &&
	       fuzz_same_memory(a->table, b->table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	csv_reading whole, chunks;
	/* Chunks of 64 bytes and up: the cuts land anywhere a line starts, quoted fields and all. */
	setenv("RLI_JSON_CHUNK_BYTES", "64", 1);
	read_csv(&whole, data, size, 0);
	read_csv(&chunks, data, size, 1);
	if (whole.error == 0 && chunks.error == 0 && whole.unit.status == 0 && chunks.unit.status == 0 &&
	    !same_readings(&whole, &chunks)) {
		if (getenv("FUZZ_SAY")) {
			for (int k = 0; k < 2; k++) {
				csv_reading *r = k ? &chunks : &whole;
				fprintf(stderr, "reading %d: %zu rows, error %d\n", k, rli_memory_count(r->table), r->error);
				for (size_t i = 0; i < r->unit.failures.count; i++)
					fprintf(stderr, "  F %s\n", r->unit.failures.items[i].text);
				for (size_t i = 0; i < r->unit.log.count; i++)
					fprintf(stderr, "  L %s\n", r->unit.log.items[i].text);
			}
		}
		abort();
	}
	for (int k = 0; k < 2; k++) {
		csv_reading *r = k ? &chunks : &whole;
		rli_memory_free(r->table);
		fuzz_unit_dispose(&r->unit);
	}
	return 0;
}

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

static int same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
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
	size_t n = rli_memory_count(a->table);
	if (a->error != b->error || n != rli_memory_count(b->table) || memcmp(&a->counts, &b->counts, sizeof(a->counts)) ||
	    !fuzz_same_notes(&a->unit.failures, &b->unit.failures) || !same_said(&a->unit.log, &b->unit.log))
		return 0;
	for (size_t i = 0; i < n; i++) {
		rli_memory_row x, y;
		rli_memory_get(&x, a->table, i);
		rli_memory_get(&y, b->table, i);
		if (!same_text(x.name, y.name) || !same_text(x.role, y.role) || !same_text(x.device_type, y.device_type) ||
		    x.rank_id != y.rank_id || memcmp(&x.size_kb, &y.size_kb, sizeof(double)) ||
		    memcmp(&x.start_time_ms, &y.start_time_ms, sizeof(double)) ||
		    memcmp(&x.duration_ms, &y.duration_ms, sizeof(double)) ||
		    memcmp(&x.total_allocated_mb, &y.total_allocated_mb, sizeof(double)) ||
		    memcmp(&x.release_total_allocated_mb, &y.release_total_allocated_mb, sizeof(double)) ||
		    x.released != y.released || x.second_pool != y.second_pool)
			return 0;
	}
	return 1;
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

/* fuzz_common.h: what the per-format fuzz targets share: a unit to parse into, fed from the fuzzer's bytes. */
#ifndef RLI_FUZZ_COMMON_H
#define RLI_FUZZ_COMMON_H

#include "parse/format.h"
#include "parse/byte_source.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A unit as discovery would make it, its file named path (messages only: nothing is opened). */
static inline void fuzz_unit_init(rli_unit *unit, const char *path)
{
	memset(unit, 0, sizeof(*unit));
	unit->path = (char *)path;
	unit->role = (char *)"actor_update";
	unit->tid = (char *)"70000";
	unit->rank = 0;
	rli_notes_init(&unit->log);
	rli_notes_init(&unit->failures);
}

static inline void fuzz_unit_dispose(rli_unit *unit)
{
	rli_notes_dispose(&unit->log);
	rli_notes_dispose(&unit->failures);
}

/*
 * What every parser promises of the rows it accepts: times that are finite numbers. (A bar that
 * ends before it starts is kept, as the reference keeps it, and left undrawn.)
 */
static inline void fuzz_check_rows(const rli_events *rows)
{
	for (size_t i = 0; i < rows->count; i++)
		if (!isfinite(rows->start_ms[i]) || !isfinite(rows->duration_ms[i]))
			abort();
}

/* Parses the bytes as one unit of a timeline format and checks the rows it accepted. */
static inline int fuzz_timeline(const rli_format *format, const char *path, const uint8_t *data, size_t size)
{
	rli_unit unit;
	rli_events *rows = NULL;
	rli_bytes *source = NULL;
	fuzz_unit_init(&unit, path);
	if (rli_events_new(&rows) == 0 && rli_bytes_from_memory(&source, path, data, size) == 0) {
		format->parse_bytes(&unit, source, rows);
		if (unit.status == 0 && unit.failures.count == 0)
			fuzz_check_rows(rows);
	}
	rli_bytes_close(source);
	rli_events_free(rows);
	fuzz_unit_dispose(&unit);
	return 0;
}

typedef void (*fuzz_parse_fn)(rli_unit *unit, rli_bytes *source, rli_events *rows);

static inline int fuzz_same_notes(const rli_notes *a, const rli_notes *b)
{
	if (a->count != b->count || a->oom != b->oom)
		return 0;
	for (size_t i = 0; i < a->count; i++)
		if (a->items[i].level != b->items[i].level || strcmp(a->items[i].text, b->items[i].text) != 0)
			return 0;
	return 1;
}

static inline int fuzz_same_text(const rli_events *a, uint32_t ida, const rli_events *b, uint32_t idb)
{
	const char *x = rli_strpool_get(&a->strings, ida), *y = rli_strpool_get(&b->strings, idb);
	return x == y || (x && y && strcmp(x, y) == 0);
}

/* Every row alike in every column, the times to the bit. */
static inline int fuzz_same_rows(const rli_events *a, const rli_events *b)
{
	if (a->count != b->count)
		return 0;
	for (size_t i = 0; i < a->count; i++)
		if (!fuzz_same_text(a, a->name[i], b, b->name[i]) || !fuzz_same_text(a, a->role[i], b, b->role[i]) ||
		    !fuzz_same_text(a, a->domain[i], b, b->domain[i]) || !fuzz_same_text(a, a->tid[i], b, b->tid[i]) ||
		    a->tid_is_text[i] != b->tid_is_text[i] || a->rank_id[i] != b->rank_id[i] ||
		    memcmp(&a->start_ms[i], &b->start_ms[i], sizeof(double)) != 0 ||
		    memcmp(&a->duration_ms[i], &b->duration_ms[i], sizeof(double)) != 0)
			return 0;
	return 1;
}

static inline int fuzz_same_string(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Two memory tables alike row by row, the numbers to the bit; two NULL tables alike too. */
static inline int fuzz_same_memory(const rli_memory *a, const rli_memory *b)
{
	size_t n = a ? rli_memory_count(a) : 0;
	if (!a || !b)
		return !a && !b;
	if (n != rli_memory_count(b))
		return 0;
	for (size_t i = 0; i < n; i++) {
		rli_memory_row x, y;
		rli_memory_get(&x, a, i);
		rli_memory_get(&y, b, i);
		if (!fuzz_same_string(x.name, y.name) || !fuzz_same_string(x.role, y.role) ||
		    !fuzz_same_string(x.device_type, y.device_type) || x.rank_id != y.rank_id ||
		    memcmp(&x.size_kb, &y.size_kb, sizeof(double)) ||
		    memcmp(&x.start_time_ms, &y.start_time_ms, sizeof(double)) ||
		    memcmp(&x.duration_ms, &y.duration_ms, sizeof(double)) ||
		    memcmp(&x.total_allocated_mb, &y.total_allocated_mb, sizeof(double)) ||
		    memcmp(&x.release_total_allocated_mb, &y.release_total_allocated_mb, sizeof(double)) ||
		    x.released != y.released || x.second_pool != y.second_pool)
			return 0;
	}
	return 1;
}

/*
 * Two readings of the same bytes as one unit: 1 when they agree on everything a run sees (the
 * status, every message in order, every row, and with memory_devices the memory rows the unit
 * keeps), 0 when not; -1 when memory ran out on the way. The rows the first reading accepts are
 * held to fuzz_check_rows, as fuzz_timeline holds them.
 */
static inline int fuzz_readings_agree_on(fuzz_parse_fn first, fuzz_parse_fn second, const char *path,
					 const uint8_t *data, size_t size, uint32_t memory_devices)
{
	rli_unit unit[2];
	rli_events *rows[2] = {NULL, NULL};
	fuzz_parse_fn parse[2] = {first, second};
	int agree = -1;
	/* Both made first: a failure before the second parse disposes of both. */
	fuzz_unit_init(&unit[0], path);
	fuzz_unit_init(&unit[1], path);
	unit[0].memory_devices = unit[1].memory_devices = memory_devices;
	for (int k = 0; k < 2; k++) {
		rli_bytes *source = NULL;
		if (rli_events_new(&rows[k]) != 0 || rli_bytes_from_memory(&source, path, data, size) != 0) {
			rli_bytes_close(source);
			goto done;
		}
		parse[k](&unit[k], source, rows[k]);
		rli_bytes_close(source);
	}
	if (unit[0].status != 0 || unit[1].status != 0)
		goto done; /* out of memory: nothing to compare */
	if (unit[0].failures.count == 0)
		fuzz_check_rows(rows[0]);
	agree = fuzz_same_notes(&unit[0].failures, &unit[1].failures) && fuzz_same_notes(&unit[0].log, &unit[1].log) &&
		unit[0].rank == unit[1].rank && fuzz_same_rows(rows[0], rows[1]) &&
		fuzz_same_memory(unit[0].memory, unit[1].memory);
done:
	for (int k = 0; k < 2; k++) {
		rli_events_free(rows[k]);
		rli_memory_free(unit[k].memory);
		fuzz_unit_dispose(&unit[k]);
	}
	return agree;
}

static inline int fuzz_readings_agree(fuzz_parse_fn first, fuzz_parse_fn second, const char *path,
				      const uint8_t *data, size_t size)
{
	return fuzz_readings_agree_on(first, second, path, data, size, 0);
}

#endif

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

#endif

/* mstx_internal.h: what the MSTX format's discovery (mstx.c) and its trace reader (mstx_trace.c) share. */
#ifndef RLI_PARSE_MSTX_INTERNAL_H
#define RLI_PARSE_MSTX_INTERNAL_H

#include "parse_internal.h"

/*
 * One trace_view.json into the unit's one row: the Overlap Analysis process's span, or the
 * unit's failure. On unit->spare_threads, a large plain file is read in chunks on them.
 */
void rli_mstx_parse_bytes(rli_unit *unit, rli_bytes *source, rli_events *rows);
/* The same, read as mode says (json_items.h: RLI_JSON_READ_*, or a count of chunks). */
void rli_mstx_parse_bytes_as(rli_unit *unit, rli_bytes *source, rli_events *rows, int mode);

#endif

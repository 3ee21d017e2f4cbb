/* torch_read.h: one PyTorch trace read as a test or fuzzer asks: by yajl alone, or with the items scanner on traceEvents. */
#ifndef RLI_PARSE_TORCH_READ_H
#define RLI_PARSE_TORCH_READ_H

#include "parse_internal.h"

/* One trace into the unit's one row (and [memory] events), read as mode says (json_items.h: RLI_JSON_READ_*). */
void rli_torch_parse_bytes_as(rli_unit *unit, rli_bytes *source, rli_events *rows, int mode);

#endif

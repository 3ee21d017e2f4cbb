/* report_memory.h: the report's memory section: per device its facts, the memory figure, the blocks live at the peak, the call sites, and the icicle of bytes by call stack. */
#ifndef RLI_REPORT_MEMORY_H
#define RLI_REPORT_MEMORY_H

#include "report_book.h"
#include "stats/memory_stats.h"

/*
 * A section "Memory", a subsection per device (role, rank), in the
 * statistics' order. The figures are laid out here from the table's
 * devices and kept by the book; memory must outlive the book.
 */
int rli_report_memory(rli_book *book, const rli_memory *memory, const rli_memory_stats *stats);

#endif

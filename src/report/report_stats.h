/* report_stats.h: the report's statistics section: per role its phases and steps, then the slowest ranks, the waits, the overlaps and the idle time. */
#ifndef RLI_REPORT_STATS_H
#define RLI_REPORT_STATS_H

#include "report_book.h"
#include "stats/stats.h"

int rli_report_stats(rli_book *book, const rli_stats *stats);

#endif

/* html_memory_data.h: a memory page's data file (detail_data_NN.js): its bars and what a click shows, as compact streams. */
#ifndef RLI_RENDER_HTML_MEMORY_DATA_H
#define RLI_RENDER_HTML_MEMORY_DATA_H

#include "layout/layout.h"

#include <stdio.h>

/* Times travel as integers of 10^-RLI_MEMORY_TIME_DECIMALS ms (1 us), the precision the page shows. */
#define RLI_MEMORY_TIME_DECIMALS 3
/* Carried blocks never freed a lane lists one by one; the rest of them it sums up. */
#define RLI_MEMORY_CARRIED_KEPT 10
/* Curve values (MB) as integers of 10^-2 MB: the envelope is drawn, never read out. */
#define RLI_MEMORY_VALUE_DECIMALS 2

/*
 * Writes the script that sets window.rliMemoryData: the gantt panel's bars
 * lane by lane (start, length, size, total allocated, call stack and how it
 * was found), the curve panel's lines, and the pools they index. origin is
 * the document's: absolute times are origin + x. page_file names the page it
 * belongs to, for the page to check it was given its own data.
 */
int rli_html_write_memory_data(FILE *fp, const rli_panel *curve, const rli_panel *gantt, double origin,
			       const char *page_file);

#endif

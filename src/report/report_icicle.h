/* report_icicle.h: bytes allocated by call stack as an icicle chart: the first frame on top, each frame as wide as the bytes allocated under it. */
#ifndef RLI_REPORT_ICICLE_H
#define RLI_REPORT_ICICLE_H

#include "report_book.h"
#include "stats/memory_stats.h"

/*
 * Sets the device's stacks as an icicle at the book's y: a lane per frame
 * depth (the first frame of a stack, its call_stack_top, at the top, as the
 * stacks list their frames), a box per distinct frame path as wide as the
 * bytes allocated under it, labelled where the box holds text. Stacks deeper
 * than the page allows are cut at that depth (the chart says so). A device
 * whose allocations have no stack gets a line saying so.
 */
int rli_report_icicle(rli_book *book, const rli_memory_device_stats *device);

#endif

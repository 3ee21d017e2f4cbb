/* memory_figure.h: the static memory figure, a page per device: the memory curve over the allocation Gantt, and the blocks live at the peak. */
#ifndef RLI_LAYOUT_MEMORY_FIGURE_H
#define RLI_LAYOUT_MEMORY_FIGURE_H

#include "layout.h"
#include "memory/memory_curve.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Lays out one page per device, in the order given. A device with no
 * allocation gets no page; RLI_EINVALID when no device has one. Options as
 * the timeline's: width, scale and medium (merge_short_ms is not used).
 */
int rli_memory_figure_layout(rli_memory_figure **out, const rli_memory_device *devices, size_t device_count,
			     const rli_timeline_options *options);
/* The summary of page index's device. */
const rli_memory_summary *rli_memory_figure_summary(const rli_memory_figure *figure, size_t page);

#endif

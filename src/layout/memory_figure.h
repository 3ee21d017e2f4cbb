/* memory_figure.h: the static memory figure, a page per device: the memory curve over the allocation Gantt, and the blocks live at the peak. */
#ifndef RLI_LAYOUT_MEMORY_FIGURE_H
#define RLI_LAYOUT_MEMORY_FIGURE_H

#include "layout.h"

#include <stddef.h>
#include <stdint.h>

/* One device's allocations (blocks of size > 0), as the figure reads them. */
typedef struct {
	const char *role;
	int64_t rank;
	size_t count;
	const double *start_ms;             /* absolute */
	const double *duration_ms;          /* <= 0: never freed in the capture, live to its end */
	const double *size_kb;
	const char *const *op_name;
	const char *const *call_stack_top;  /* "" when unknown */
} rli_memory_device;

/* What the figure found on a device's curve: also what the report's statistics quote. */
typedef struct {
	double t_min_ms;    /* absolute time of the first allocation: x = 0 */
	double t_max_ms;    /* absolute end of the last block */
	double peak_mb;
	double peak_ms;     /* relative to t_min_ms, the first moment the peak is reached */
	size_t never_freed;
	double never_freed_kb;
} rli_memory_summary;

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

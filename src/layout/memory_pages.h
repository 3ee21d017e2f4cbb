/* memory_pages.h: the interactive memory pages' document, shared by its two parts: the devices' segment pages and the index. */
#ifndef RLI_LAYOUT_MEMORY_PAGES_H
#define RLI_LAYOUT_MEMORY_PAGES_H

#include "layout.h"
#include "memory/memory_curve.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"

#include <stddef.h>
#include <stdint.h>

/* Page geometry, in page units (CSS px: the HTML draws the model at one unit a pixel). */
#define MP_TITLE_Y 26.0
#define MP_CURVE_TOP 60.0
#define MP_CURVE_HEIGHT 300.0
#define MP_PANEL_GAP 36.0
#define MP_LANE_PITCH 26.0
#define MP_MIN_GANTT 120.0
#define MP_RIGHT 40.0
#define MP_CURVE_COLOR 0x4e79a7
#define MP_PEAK_COLOR 0xd62728
#define MP_RESERVED_SLICES 16 /* the reserved line: at most four points a sixteenth of a plot column */

/*
 * Bars' columns: a device's, for all its pages at once (a bar is on each page whose segment it
 * overlaps), and each page's run of them. One block per column per device: millions of bars in
 * 2 MiB pages (common/bigmem.h), where a page's own small blocks would each fault in 4 KiB at a time.
 */
typedef struct {
	uint32_t *row, *series, *stack;
	double *start, *end, *size_kb, *total_mb, *gap_ms;
	uint8_t *match, *open_ended, *carried;
} mp_bars;

/* One segment's page: the curve over the Gantt of the segment's allocations, and the links between segments. */
typedef struct {
	rli_item items[4];
	rli_text title;
	rli_panel curve;
	rli_panel gantt;
	rli_point_mark peak;
	rli_nav nav;              /* its links are the device's */
	rli_bar_details details;  /* its bars' columns are a run of the device's, not its own */
	char *name, *data_name;
} mp_page;

/* One device, that is one (role, rank, device type): its operators, curve, segments and pages. */
typedef struct {
	char *label;              /* "<role> - Rank <rank>", and " <type>" where the (role, rank) has several */
	char *suffix;             /* "" for the only device, else "_<role>_rank<r>[_<type>]" made file-safe */
	const char *role;
	int64_t rank;
	const char *tag;          /* its device type where its (role, rank) has other devices, else "" */
	rli_series *series;       /* operators, in order of first appearance: colours as the PNG's */
	size_t series_count;
	/* the curve's per-column max and min over the whole device; [2] its Total Reserved, when shown (count 0 if not) */
	rli_line_mark envelope[3];
	double reserved_mb;       /* the greatest Total Reserved drawn, 0 without the line */
	rli_link *links;          /* a link per segment; target NULL for an empty one */
	size_t segment_count;
	double t_min, span, peak_mb, peak_ms; /* absolute first allocation; the rest relative to it */
	double shift;             /* t_min less the document's origin: where the device's x = 0 is on the panels */
	size_t bars, never_freed;
	mp_bars columns;          /* every page's bars, page after page */
	const uint32_t *row;      /* a block's table row by its index, while the device is laid out */
	mp_page *seg;             /* its pages, one a segment that holds any (page_count of them) */
	rli_page *page;           /* the same as the document's pages, copied into it device after device */
	size_t page_count;
	double label_width;       /* the widest lane label, capped */
} mp_device;

struct rli_memory_pages {
	rli_document document;
	rli_page *pages;          /* every device's pages, device after device, then the index's */
	mp_device *devices;
	size_t device_count;
	const char **stacks;      /* the table's string ids to text, for the details */
	size_t stack_count;
	/* with several devices, the index: a title, a table of devices, a list of pages each */
	rli_item *index_items;
	rli_text index_title;
	rli_table index_table;
	const char **index_links;
	rli_nav *index_navs;
};

/*
 * rli_memory_pages_layout from the table already split by device (rli_memory_devices_split),
 * which the layout only reads: the split may be shared with the figure and the statistics.
 */
int rli_memory_pages_layout_split(rli_memory_pages **out, const rli_memory *memory, const rli_memory_devices *split,
				  const rli_timeline_options *options);
/*
 * The device's allocations (split from memory, in start order, and their
 * table rows): its operators (text_context measures their labels), curve,
 * segments and a page for each one that holds any, the pages on up to
 * `threads` threads. The panels' x is relative to origin, the document's. It
 * reads the table and writes the device only, so that devices may be laid out
 * on threads of their own.
 */
int mp_lay_out_device(mp_device *device, double origin, const rli_memory *memory, const rli_memory_device *from,
		      const uint32_t *rows, double width, void *text_context, unsigned threads);
/*
 * The device's Total Reserved (its rows', a table that shows it) as
 * envelope[2], the figure's step line on the pages' x, named with the curve
 * for the legend, and d->reserved_mb; none (count 0) otherwise. columns: the
 * plot's, for thinning a line of many changes.
 */
int mp_reserved_line(mp_device *d, const rli_memory_summary *summary, const rli_memory_device *device,
		     size_t columns);
/* The device's part of every file name: "" for the only device, else "_<role>_rank<r>[_<type>]" made file-safe. */
int mp_device_suffix(mp_device *device, int several);
void mp_page_dispose(mp_page *page);
void mp_device_dispose(mp_device *device);

#endif

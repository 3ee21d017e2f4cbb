/* memory_pages.h: the interactive memory pages' document, shared by its two parts: the devices' segment pages and the index. */
#ifndef RLI_LAYOUT_MEMORY_PAGES_H
#define RLI_LAYOUT_MEMORY_PAGES_H

#include "layout.h"
#include "memory/memory_curve.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"
#include "memory_segments.h"

#include <pthread.h>

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
#define MP_SPARE_BARS 8       /* dropped pages' columns kept for reuse, at most (more than the drawing threads) */

/*
 * A page's bars' columns (a bar is on each page whose segment it overlaps), room for `capacity`,
 * and its slice of the device's exact curve, two points a moment, room for `exact_capacity`.
 * Big ones in 2 MiB pages (common/bigmem.h); a page drawn and dropped hands its columns on to the
 * next page made, whose bars then go into memory already faulted in.
 */
typedef struct {
	uint32_t *row, *series, *stack;
	double *start, *end, *size_kb, *total_mb, *gap_ms;
	uint8_t *match, *open_ended, *carried;
	size_t capacity;
	double *exact_x, *exact_y;
	size_t exact_capacity;
} mp_bars;

/* One segment's page: the curve over the Gantt of the segment's allocations, and the links between segments. */
typedef struct {
	rli_item items[5];
	rli_text title;
	rli_text origin;          /* where t = 0 is, under the title */
	rli_panel curve;
	rli_panel gantt;
	rli_point_mark peak;
	rli_line_mark exact;      /* the curve.exact: the device's steps in the segment, drawn out in bars.exact_* */
	rli_nav nav;              /* its links are the device's */
	rli_bar_details details;  /* the bars' columns are `bars` */
	mp_bars bars;             /* while the page is made */
	int made;                 /* 1 from mp_make_page to mp_unmake_page */
	char *name, *data_name;   /* from the device's layout on */
} mp_page;

/* One device, that is one (role, rank, device type): its operators, curve, segments and pages. */
typedef struct {
	char *label;              /* "<role> - Rank <rank>", and " <type>" where the (role, rank) has several */
	char *suffix;             /* "" for the only device, else "_<role>_rank<r>[_<type>]" made file-safe */
	const char *role;
	int64_t rank;
	const char *tag;          /* its device type where its (role, rank) has other devices, else "" */
	rli_row named;            /* label, role and rank, as its pages name the timeline's row of it */
	rli_series *series;       /* operators, in order of first appearance: colours as the PNG's */
	size_t series_count;
	/* the curve's per-column max and min over the whole device; [2] its Total Reserved, when shown (count 0 if not) */
	rli_line_mark envelope[3];
	/*
	 * Where the curve is the allocator's count, the pages' exact slices: its start (0, start) and
	 * then the value after each moment (x on the panels), one point a moment. The curve draws
	 * two there (rli_memory_curve_each: the value before, then after), the one before being the
	 * last one's after, so a page draws its slice out again (exact_points, memory_pages_device.c): half the memory.
	 */
	rli_line_mark steps;
	double reserved_mb;       /* the greatest Total Reserved drawn, 0 without the line */
	rli_link *links;          /* a link per segment; target NULL for an empty one */
	size_t segment_count;
	double t_min, span, peak_mb, peak_ms; /* absolute first allocation; the rest relative to it */
	rli_memory_summary summary; /* its curve's, as swept for the envelope */
	size_t split_index;       /* its place in the split laid out */
	double shift;             /* t_min less the document's origin: where the device's x = 0 is on the panels */
	double origin;            /* the document's origin: the absolute ms of t = 0 */
	size_t bars, never_freed;
	mp_page *seg;             /* its pages, one a segment that holds any (page_count of them) */
	size_t page_count;
	size_t first_page;        /* its first page's place in the document */
	double label_width;       /* the widest lane label, capped */
	/*
	 * What its pages are made from, kept while a page may still be made (made when drawn: until
	 * rli_memory_pages_free; all at once: until the last is made): the table and its rows (a
	 * block's row by its index: the split's, which must outlive the pages), the blocks, each
	 * block's first segment, the segments' members (block indices in start order, segment after
	 * segment from offset[s]) and each page's segment.
	 */
	const rli_memory *memory;
	const uint32_t *row;
	rli_memory_block *blocks;
	uint8_t *first_segment;
	uint32_t *members;
	size_t offset[RLI_MEMORY_MAX_SEGMENTS + 1];
	size_t segment_of_page[RLI_MEMORY_MAX_SEGMENTS];
	double width;
} mp_device;

struct rli_memory_pages {
	rli_document document;
	rli_page *pages;          /* every device's pages, device after device, then the index's */
	size_t *page_device;      /* the device of each of the devices' pages */
	size_t device_pages;      /* the devices' pages, before the index */
	/* columns of dropped pages, for the next pages made (pages are made on several threads) */
	pthread_mutex_t spare_lock;
	int spare_lock_made;
	mp_bars spare[MP_SPARE_BARS];
	size_t spare_count;
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
	const char *up;           /* what a page's "up" link opens: the run's home page, the index, or nothing */
	const char *timeline;     /* the run's timeline page, or NULL */
};

/*
 * rli_memory_pages_layout from the table already split by device (rli_memory_devices_split),
 * which the layout only reads: the split may be shared with the figure and the statistics.
 */
int rli_memory_pages_layout_split(rli_memory_pages **out, const rli_memory *memory, const rli_memory_devices *split,
				  const rli_timeline_options *options);
/*
 * The same, its devices' pages made only when drawn (rli_document.load_page): the memory of
 * a few pages' bars at a time, where every page made at once holds all of them. The pages
 * read memory and split until rli_memory_pages_free.
 */
int rli_memory_pages_layout_lazy(rli_memory_pages **out, const rli_memory *memory, const rli_memory_devices *split,
				 const rli_timeline_options *options);
/*
 * The pages' devices as the run's other pages link to them (rli_run_context.devices): labels,
 * pages, their spans on the run's time and peaks, copied into *out (count of them), so that the
 * pages may be freed first. rli_run_devices_free frees the copy.
 */
int rli_memory_pages_run_devices(const rli_memory_pages *pages, rli_run_device **out, size_t *count);
void rli_run_devices_free(rli_run_device *devices, size_t count);

/*
 * Each device's curve summary as the layout swept it, for the statistics not to sweep it again,
 * copied (the pages may be freed first): for the split's device i (split_count of them),
 * copies[i] filled and known[i] pointing at it, known[i] NULL for one the pages do not show.
 */
void rli_memory_pages_summaries(const rli_memory_pages *pages, rli_memory_summary *copies,
				const rli_memory_summary **known, size_t split_count);
/*
 * The device's allocations (split from memory, in start order, and their
 * table rows): its operators (text_context measures their labels), curve,
 * segments, and the names of a page for each segment that holds any, which
 * mp_make_page makes. The panels' x is relative to origin, the document's. It
 * reads the table and writes the device only, so that devices may be laid out
 * on threads of their own. threads: how many it may use itself (0: one a CPU),
 * the segments beside the curve where not 1.
 */
int mp_lay_out_device(mp_device *device, double origin, const rli_memory *memory, const rli_memory_device *from,
		      const uint32_t *rows, double width, void *text_context, unsigned threads);
/*
 * The device's page j into `page`, its bars into `bars` (grown as needed; the page keeps them
 * until mp_unmake_page). Pages of one device may be made at once on several threads.
 */
int mp_make_page(mp_device *device, size_t j, rli_page *page, mp_bars *bars);
/* Page j's parts freed but for its names; its bars handed back in *bars. */
void mp_unmake_page(mp_device *device, size_t j, rli_page *page, mp_bars *bars);
/* What the device's pages are made from, freed once every page is made for good. */
void mp_device_drop_sources(mp_device *device);
void mp_bars_free(mp_bars *bars);
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

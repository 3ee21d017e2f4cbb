/* memory_parts.h: the memory figure's pieces fitted to the page width (axes, titles, the peak's label, the table at the peak), and the devices laid out on threads. */
#ifndef RLI_LAYOUT_MEMORY_PARTS_H
#define RLI_LAYOUT_MEMORY_PARTS_H

#include "memory_figure.h"

#include <pango/pango.h>
#include <stddef.h>
#include <stdint.h>

/*
 * lay_out(arg, k, text, inner) for every device k below count, devices[shown[k]], on up to
 * `threads` threads (0: one a CPU; 1 where one device holds more than a quarter of their blocks,
 * whose work at once would add up at the peak), text a context of the thread's own. inner: the
 * threads a device may share its own parts out to, `threads` when the devices go one at a time,
 * else 1. devices NULL: as many threads as asked whatever the devices hold, for a layout that
 * keeps little of its own while it runs. As rli_task_each.
 */
int rli_memory_lay_out_devices(const rli_memory_device *devices, const size_t *shown, size_t count, unsigned threads,
			       int (*lay_out)(void *arg, size_t k, PangoContext *text, unsigned inner), void *arg);

#define MEM_TABLE_ROWS 10  /* blocks listed at the peak, at most */
#define MEM_TABLE_ROW 22.0 /* page units a table row, the header's too */

/* The curve's two lines, as a legend names them when the table shows the Total Reserved (PyTorch's). */
#define RLI_MEMORY_ALLOCATED_NAME "Allocated (from the blocks)"
/* The same line where it is the allocator's own count (rli_memory_summary's totals). */
#define RLI_MEMORY_TOTAL_NAME "Total Allocated (allocator)"
#define RLI_MEMORY_CURVE_NAME(totals) ((totals) != RLI_MEMORY_TOTALS_NONE ? RLI_MEMORY_TOTAL_NAME : RLI_MEMORY_ALLOCATED_NAME)
#define RLI_MEMORY_RESERVED_NAME "Reserved (allocator cache)"
#define RLI_MEMORY_RESERVED_COLOR 0xf28e2b
/* The value axis: what the blocks hold, or with the Reserved line beside it, both; its title names the unit too. */
#define RLI_MEMORY_Y_QUANTITY(reserved_shown) ((reserved_shown) ? "Memory" : "Allocated")

/*
 * The x axis both panels share, ticks as dense as TICK_SPACING asks but
 * thinned until the widest label fits between neighbours, and a label that
 * would leave the page blanked (its grid line stays). Only the lower panel's
 * ticks carry labels. Panels' plot rectangles must be set.
 */
/* A panel's x axis over [lo, hi] with these ticks (copied), unlabelled unless `labelled`, in the theme's look. */
int rli_memory_panel_x_axis(rli_panel *panel, const rli_tick *ticks, size_t count, int target, double lo, double hi,
			    int labelled);
/* Ticks of [x_min, x_max] (ms) in the unit the span reads best in (rli_time_unit_for), labels separated. */
int rli_memory_x_ticks(rli_panel *curve, rli_panel *gantt, double x_min, double x_max, double page_width,
		       PangoContext *text);

/*
 * The value axis of the curve, 0 to a little above the peak (values in MB), its ticks labelled in
 * the unit the peak reads best in (rli_size_unit_for: KB, MB, GB) with thousands separators, and
 * its title ("Memory (GB)") written into title.
 */
int rli_memory_y_ticks(rli_panel *curve, double peak_mb, int reserved_shown, char *title, size_t title_size);

/* The widest label rli_memory_y_ticks gave, in page units. */
double rli_memory_y_label_width(const rli_panel *curve, PangoContext *text);

/*
 * The page title centred at height y and, on a page too narrow for it on
 * one line, the origin on a line of its own under it (subtitle->text NULL
 * when not needed). Where the curve is the allocator's own count (summary's
 * totals), the line under the title says so, and how much was allocated when
 * the capture began (the origin joins it when the title has no room).
 * Both shrink down to MIN_TITLE_SIZE, then end in "…".
 */
int rli_memory_titles(rli_text *title, rli_text *subtitle, const rli_memory_device *device,
		      const rli_memory_summary *summary, double origin,
		      double y, double width, PangoContext *text);

/*
 * Where t = 0 is, as a title says it once: "t = 0 at 2026-03-12 03:24:48.353 UTC" for an epoch
 * clock, else "origin 1234.567 ms" (origin: the absolute ms of x = 0).
 */
char *rli_memory_origin_text(char *out, size_t size, double origin);

/* "1,525 – 1,579 ms": [lo, hi] of the run's time in the unit of a unit_span axis, the decimals its width needs; malloc'ed. */
char *rli_memory_span_label(double lo, double hi, double unit_span);

/*
 * The peak's label texts: "peak 1,261.04 MB at 48.772 ms" and "peak 1,261.04 MB", the size in
 * the unit the y axis counts (top_mb its top), the time in the unit of a span_ms axis.
 */
void rli_memory_peak_texts(char *full, size_t full_size, char *brief, size_t brief_size, double peak_mb,
			   double peak_ms, double top_mb, double span_ms);

/*
 * A legend of the named lines (the curve's Allocated and Reserved), an
 * entry each (a short bar in the line's colour, then its name): in one row
 * from the plot's left edge where it fits before the page's pad, else from
 * the page's pad, else an entry a row (a name too long for even that cut
 * with "…"). The last row's middle is at y. series: one per named line (its
 * colour); the legend's parts malloc'ed (rli_memory_legend_dispose).
 */
int rli_memory_line_legend(rli_legend *legend, rli_series *series, const rli_line_mark *lines, size_t count,
			   double plot_x, double y, double page_width, PangoContext *text);
/* The rows rli_memory_line_legend takes on a page this wide: 0 without a named line. */
size_t rli_memory_legend_rows(const rli_line_mark *lines, size_t count, double page_width, PangoContext *text);
void rli_memory_legend_dispose(rli_legend *legend);

/* The x title ("Time (s)", the ticks' unit) under the Gantt's tick labels at top y, moved along to stay on the page. */
int rli_memory_x_title(rli_panel *gantt, double y, double page_width, PangoContext *text);

/*
 * The peak's label on the side of the point with room for it, inside the
 * page and the plot's left edge: the full "peak V MB at T ms", or "peak V
 * MB", or that cut with "…".
 */
int rli_memory_peak_label(rli_point_mark *peak, const rli_panel *curve, double page_width, PangoContext *text);

/*
 * The largest blocks live at peak_ms (at most MEM_TABLE_ROWS) as a table at
 * (x, y), `width` wide. Columns keep their fixed shares of the width while
 * every one holds its contents; otherwise they are fitted to their contents,
 * the call stack and operator ellipsized, and on the narrowest pages the
 * duration, then the start, then the call stack left out.
 */
int rli_memory_peak_table(rli_table *table, const rli_memory_device *device, const rli_memory_block *blocks,
			  size_t count, double peak_ms, double shift, double x, double y, double width, PangoContext *text);
void rli_memory_table_dispose(rli_table *table);

#endif

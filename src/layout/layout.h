/* layout.h: the document model (pages of placed items) and the timeline figure, plain data every back-end draws. */
#ifndef RLI_LAYOUT_H
#define RLI_LAYOUT_H

#include "rl_insight.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Two coordinate systems (architecture.md):
 *  - page units: CSS pixels, origin top-left, y down. Raster back-ends multiply
 *    by `scale`; the PDF maps one page unit to one point.
 *  - data units: x in milliseconds relative to t0_ms, y in row index (0 = top).
 * The plot rectangle maps one onto the other: x_min..x_max spans plot.w and
 * row r is centred at plot.y + (r + 0.5) * row_pitch.
 */

typedef uint32_t rli_color; /* 0xRRGGBB */

typedef struct {
	double x, y, w, h;
} rli_rect;

typedef enum {
	RLI_ALIGN_START = 0, /* left, or top */
	RLI_ALIGN_MIDDLE,
	RLI_ALIGN_END        /* right, or bottom */
} rli_align;

typedef struct {
	char *text;        /* UTF-8, owned by the model */
	double x, y;       /* anchor, page units */
	double size;       /* font size, page units */
	int bold;
	rli_color color;
	rli_align halign;  /* where the anchor sits on the text's box, before rotation */
	rli_align valign;
	double angle;      /* degrees counter-clockwise about the anchor (90: reads upward) */
	double max_width;  /* > 0: ellipsize at the end beyond this width */
} rli_text;

typedef struct {
	char *label;   /* "<role> - Rank <rank>" */
	char *role;
	int64_t rank;
} rli_row;

typedef struct {
	char *name;      /* bar name: legend entry and colour key */
	rli_color color;
} rli_series;

typedef struct {
	double value;   /* data units (ms relative to t0) */
	char label[32];
} rli_tick;

/* ---- items: what a page is made of ------------------------------------- */

typedef enum {
	RLI_ITEM_TEXT = 0, /* a text block */
	RLI_ITEM_PANEL,    /* a plot panel: axes, grid, lane labels and marks */
	RLI_ITEM_LEGEND,   /* swatches and names of series */
	RLI_ITEM_TABLE,    /* a header row and rows of cells in columns */
	RLI_ITEM_NAV,      /* links to other pages of the document (the memory pages' segments) */
	RLI_ITEM_FIGURE    /* a page of another document, drawn scaled into a frame (the report's figures) */
} rli_item_kind;

/* What a panel's y axis measures. */
typedef enum {
	RLI_Y_LANES = 0, /* lanes of bars, lane 0 at the top */
	RLI_Y_VALUES     /* a continuous value, y_min at the bottom */
} rli_y_scale;

/* A line through points in data units (x ascending), and optionally the area under it. */
typedef struct {
	size_t count;
	double *x, *y;
	rli_color color;
	double width;       /* page units; 0: no line, the area alone */
	double fill_alpha;  /* > 0: the area down to y_min is filled in the line's colour at this alpha */
	/* what a legend calls it (the memory curve's Allocated and Reserved); NULL: no entry, as for most lines */
	const char *name;
	/* with fill_alpha: NULL, or count values the area is filled down to instead (a band from y_low to y) */
	const double *y_low;
} rli_line_mark;

/* One point marked and labelled, such as a curve's peak. */
typedef struct {
	double x, y;        /* data units */
	rli_color color;
	double radius;      /* page units */
	rli_text label;     /* placed in page units */
} rli_point_mark;

/*
 * What a page can show of each bar on demand (hover, click) beyond its lane
 * and times: the memory pages' allocations. Arrays in the panel's bar order;
 * the strings belong to whoever made the panel's data and outlive the document.
 */
typedef struct {
	const double *size_kb;
	const double *total_mb;       /* the device's total allocated at that moment */
	const uint32_t *stack;        /* index into stacks, UINT32_MAX: no call stack */
	const uint8_t *match;         /* rli_memory_match: how the stack was found */
	const double *match_gap_ms;   /* RLI_MEMORY_AFTER_END: how long before the op had ended */
	const uint8_t *open_ended;    /* 1: never freed in the capture, drawn to its end */
	/*
	 * 1: the bar started on an earlier page, which shows the rest of its
	 * details; such bars come first in their lane. NULL: none is.
	 */
	const uint8_t *carried;
	size_t stack_count;
	const char *const *stacks;
} rli_bar_details;

/*
 * A grid of cells filling a panel's plot rectangle (the GMM heatmap): columns across, rows down
 * from the top, each cell's colour decided by the layout. A back-end maps cells to device pixels
 * and, where cells are smaller than a pixel, averages them (its level of detail).
 */
typedef struct {
	size_t columns, rows;
	const rli_color *colors;    /* rows * columns, row by row */
	const uint8_t *present;     /* NULL: every cell has a colour; else 0 leaves the cell unpainted */
} rli_cell_grid;

/*
 * A plot panel whose y scale is lanes (rows of bars), as the timeline draws.
 * Data units: x in the panel's unit (ms relative to the figure's origin), y in
 * lane index (0 = top). plot maps one onto the other: x_min..x_max spans
 * plot.w, and lane r is centred at plot.y + (r + 0.5) * row_pitch.
 */
typedef struct {
	rli_rect plot;              /* the data area, page units */
	double x_min, x_max;        /* data range across plot.w */

	/* lanes, in display order (the timeline's: by rank, then label) */
	size_t row_count;
	rli_row *rows;
	/* the reference HTML's "Sort: Default" order: row indices sorted by (role, rank) */
	uint32_t *order_by_role;
	double row_pitch;           /* page units between row centres */
	double bar_thickness;       /* page units, follows row_pitch */
	rli_color bar_outline;      /* thin outline between touching bars */
	double bar_outline_width;   /* page units */
	/* A bar thinner than this (page units, either way) gets no outline: it would be all outline. */
	double bar_outline_min_size;

	/* the series the bars are coloured by (the figure's) */
	size_t series_count;
	const rli_series *series;

	/*
	 * Bars sorted by (row, series, start). Bars of row r are
	 * [row_first_bar[r], row_first_bar[r + 1]); within a row, series are drawn
	 * in index order, later ones on top, as the reference overlays traces.
	 */
	size_t bar_count;
	uint32_t *bar_row;
	uint32_t *bar_series;
	double *bar_start;          /* data units */
	double *bar_end;
	size_t *row_first_bar;      /* row_count + 1 entries */

	/* the x axis: vertical grid lines and labels at these ticks */
	size_t xtick_count;
	rli_tick *xticks;
	/*
	 * How dense ticks are: rli_nice_ticks(.., xtick_max, lo, hi, xtick_target).
	 * Carried in the model so a back-end that re-ticks on zoom (the HTML)
	 * keeps the density the layout chose.
	 */
	int xtick_target;
	int xtick_max;
	rli_color grid_color;
	double grid_width;          /* page units */
	double tick_label_size;     /* font size of the x tick labels */
	double tick_label_gap;      /* page units between plot bottom and tick label tops */

	rli_text x_title;
	rli_text y_title;
	/*
	 * row_count entries, right-aligned left of the plot. When rows are closer
	 * than a label is tall (pages capped at 32767 device pixels), only every
	 * k-th row keeps its text; the others have text "" (rows[r].label still
	 * names them).
	 */
	rli_text *row_labels;

	/* RLI_Y_VALUES panels: the value axis, its ticks (horizontal grid lines and labels left of the plot) */
	rli_y_scale y_scale;
	double y_min, y_max;
	size_t ytick_count;
	rli_tick *yticks;
	rli_line_mark *lines;       /* line_count, drawn in order after the bars */
	size_t line_count;
	rli_point_mark *points;     /* point_count, drawn last */
	size_t point_count;

	/* NULL, or cells filling the plot, drawn over the grid and under the bars and lines */
	const rli_cell_grid *cells;

	/* NULL, or what the page shows of each bar on demand (the memory pages) */
	const rli_bar_details *details;
	/*
	 * A memory page's curve as it is exactly inside the page's segment, where it is the allocator's
	 * count (the page cannot work it out from its bars); NULL or no point: the page sums its bars.
	 * Steps as the curve's points: the moment before the segment's first, then each in it.
	 */
	const rli_line_mark *exact;
} rli_panel;

/*
 * series_count entries each. Entries the page cannot hold have text "" and a
 * zero-size swatch; the last entry shown then reads "… N more" with a
 * zero-size swatch. Draw a swatch only when w > 0 and h > 0.
 */
typedef struct {
	rli_text title;
	size_t series_count;
	const rli_series *series;   /* the swatches' colours */
	rli_rect *swatches;
	rli_text *labels;
} rli_legend;

/*
 * A table: a header row over row_count rows of column_count cells, each
 * column at column_x with column_width, its cells aligned by align and
 * ellipsized past the width. Rules under the header and between rows.
 */
typedef struct {
	double x, y;                /* the header row's top left, page units */
	size_t column_count, row_count;
	char **header;              /* column_count */
	char **cells;               /* row_count * column_count, row by row */
	double *column_x;           /* page units */
	double *column_width;
	rli_align *align;
	double font_size;
	double row_height;          /* page units, the header's too */
	rli_color text_color;
	rli_color rule_color;
	/* NULL, or row_count * column_count file stems a cell opens (NULL entries: plain text) */
	const char *const *links;
	/*
	 * An aside's table (RLI_PLACE_ASIDE) has no geometry (x, y, column_x,
	 * column_width, font_size, row_height unused): the back-end lays it
	 * out. It may carry a caption over it, a note under it ("... 12 more
	 * steps"), and a link from each row to a lane of the page's panel.
	 */
	const char *caption;        /* NULL: none */
	const char *note;           /* NULL: none */
	const uint32_t *row_lane;   /* NULL, or row_count lanes a row names (UINT32_MAX: none) */
	size_t link_column;         /* with row_lane: the column whose cell is the link's text */
	const uint8_t *row_emphasis; /* NULL, or row_count flags: 1 marks a row the reader should see first (a finding) */
} rli_table;

/* A link to another file of the document: a page, a span of the x axis it shows. */
typedef struct {
	char *label;
	const char *target;        /* the page's file stem; NULL: nothing to open (an empty segment) */
	double x_min, x_max;       /* the span of the panels' x axis (data units) the target shows */
	size_t count;              /* what the target holds (the segment's bars) */
} rli_link;

/*
 * Links between the pages of a document: a device's segments in order, the
 * page's own among them (current), and the pages one step back and on that
 * have something to show. The reader jumps with them; a back-end without
 * links (PNG, PDF) skips the item.
 */
typedef struct {
	rli_text title;            /* a heading over the links, or text "" */
	size_t link_count;
	rli_link *links;
	size_t current;            /* this page's link, or SIZE_MAX */
	size_t previous, next;     /* links to step to, SIZE_MAX: none */
	const char *up;            /* the page listing every device (index), or NULL */
	size_t total;              /* what all the targets hold together (the device's bars) */
	rli_text note;             /* a line under the heading (what the memory curve counts), or text NULL */
	/* the run's timeline page (file stem), which shows the same time as these pages, or NULL */
	const char *timeline;
	/* NULL, or a timeline's links: the row (lane) of the panel each link belongs to, UINT32_MAX none */
	const uint32_t *link_row;
	/* NULL, or the (role, rank) the pages show: a memory page's device, the timeline's row to open */
	const rli_row *device;
} rli_nav;

/*
 * A page of another figure drawn inside this page: the part of it inside
 * source (its page units) scaled uniformly by frame.w / source.w and placed
 * at frame's top left, clipped to frame. The layout gives frame the source's
 * aspect. The embedded page must outlive this document.
 */
typedef struct {
	const struct rli_page *page;
	rli_rect source;
	rli_rect frame;
} rli_figure;

/* Where an item goes. */
typedef enum {
	RLI_PLACE_PAGE = 0, /* on the page, at its coordinates: every back-end draws it */
	/*
	 * Beside the page, for a reader to open (the HTML timeline's statistics
	 * panel), in the order the items come; no coordinates. Back-ends without
	 * interaction (PNG, PDF) skip it, as they skip RLI_ITEM_NAV.
	 */
	RLI_PLACE_ASIDE
} rli_placement;

typedef struct {
	rli_item_kind kind;
	rli_placement placement;
	union {
		const rli_text *text;
		const rli_panel *panel;
		const rli_legend *legend;
		const rli_table *table;
		const rli_nav *nav;
		const rli_figure *figure;
	} u;
} rli_item;

/* ---- pages and the document ------------------------------------------- */

typedef struct rli_page {
	double width, height;       /* page units */
	/* a page that is a file of its own (PNG) is named this; NULL: the document's name, _NN with several */
	const char *name;
	/* a back-end that writes the page's data beside it (HTML) names that file so; NULL: inside the page */
	const char *data_name;
	size_t item_count;
	const rli_item *items;      /* drawn in order, later ones on top */
} rli_page;

/*
 * A bookmark of the document's outline: it opens page at y (page units from
 * the top). level 0 is a section; level 1 sits under the last level-0 entry
 * before it.
 */
typedef struct {
	const char *title;
	size_t page;
	double y;
	int level;
} rli_outline_entry;

/*
 * What every back-end draws from: metadata, the file names, and pages of
 * placed items. The back-ends decide nothing about content.
 */
struct rli_document {
	const char *name;           /* file stem every output is named after: "rl_timeline" */
	const char *title;          /* the document's metadata title */
	/*
	 * The creation date written into the file's metadata, "YYYY-MM-DDTHH:MM:SSZ";
	 * NULL: a fixed date (SOURCE_DATE_EPOCH when set), so the same input gives the same bytes;
	 * the command sets the capture's start here (cli_pdf_date).
	 */
	const char *date;
	/* bookmarks, in page order; a back-end without an outline (PNG, HTML) ignores them */
	size_t outline_count;
	const rli_outline_entry *outline;
	int scale;                  /* device pixels per page unit asked for raster output */
	/* What a raster back-end draws at: scale, brought within 32767 px a side; 0: too tall. */
	double raster_scale;
	rli_color background;
	rli_color text_color;
	const char *font_family;    /* pango/CSS family list, e.g. "DejaVu Sans, Droid Sans Fallback" */
	double origin;              /* absolute value of x = 0 in the panels' unit (the timeline's t0, ms) */
	/* page units an inch: 96 (CSS px) when 0, 72 for a figure set in points; a PNG records its dpi from it */
	double units_per_inch;
	/*
	 * 1: every page is a file of its own in every back-end that writes files,
	 * named by the page (the memory pages); 0: as the back-end writes.
	 */
	int file_per_page;
	size_t page_count;
	const rli_page *pages;
	/*
	 * Pages made when drawn, as mupdf loads a page and drops it: with load_page set, pages[p]
	 * has its name and data_name from the start but its size and items only between
	 * load_page(owner, p) and drop_page(owner, p), which the renderer calls on the thread that
	 * draws the page, just before and just after. A document of millions of bars then holds
	 * a few pages' at a time. Such a document is drawn a file a page. NULL: every page is whole.
	 */
	void *owner;
	int (*load_page)(void *owner, size_t p);
	void (*drop_page)(void *owner, size_t p);
	/*
	 * The title a page on screen shows (the HTML's, in its head and over the figure) where it is
	 * not the printed one; NULL: the title. The layout decides it as it decides every word.
	 */
	const char *screen_title;
};

/*
 * Frees what a figure allocated for a panel: rows and their labels, bars,
 * ticks, axis titles. Lines and points belong to the figure that made them.
 */
void rli_panel_dispose(rli_panel *panel);

/* ---- the timeline figure: one page of a title, one panel and a legend ---- */

struct rli_timeline {
	rli_document document;      /* first, so a timeline is its document */
	rli_page page;
	rli_item items[3];
	rli_text title;
	rli_panel panel;
	rli_legend legend;
	/* one series per distinct name, sorted by name; colour by name (rli_palette_assign) */
	size_t series_count;
	rli_series *series;
	/*
	 * Non-NULL: the rows did not fit readably (more than readable_rows) and
	 * the page shows the overview instead (timeline_overview.h): its items
	 * are page_items after the title; the panel and legend are not drawn.
	 */
	struct rli_timeline_overview *overview;
	rli_item *page_items;
	size_t page_item_count;
	size_t readable_rows;       /* the most rows the page shows readably */

	/* the headline finding under the figure (timeline_caption.c); text NULL: none */
	rli_text caption;
	rli_item *captioned_items;
	/* NULL, or the statistics beside the figure (timeline_stats.c), whose items follow the page's */
	struct rli_timeline_aside *aside;
	/* NULL, or the links to the run's other pages (timeline_links.c), an item after the page's */
	struct rli_timeline_links *links;
};

/* 1 when the figure shows the overview instead of its rows (too many, and options.overview asked for it). */
int rli_timeline_shows_overview(const rli_timeline *timeline);
/*
 * 1 when a legend would only repeat the row labels: every row's bars carry
 * one name, and that name is the row's role (as MSTX and torch give).
 */
int rli_timeline_legend_repeats_rows(const rli_timeline *timeline);

struct rli_stats;
/*
 * rli_timeline_layout with the run's statistics at hand, for the parts of the
 * figure that show them; stats may be NULL (then those parts are left out).
 * The statistics must be of the same table and outlive the figure.
 */
int rli_timeline_layout_stats(rli_timeline **out, const rli_events *events, const struct rli_stats *stats,
			      const rli_timeline_options *options);

/*
 * The first drawable bar's start (absolute ms): the timeline's own t = 0, which a run's t = 0
 * (rli_run_context) takes when no other analysis has an earlier event. INFINITY without one.
 */
double rli_timeline_first_ms(const rli_events *events);

/*
 * Statistics that may still be being computed on another thread: get(ctx) waits for them and
 * returns them, or NULL when they failed (the reason then this thread's last error). The layout
 * asks only once it reaches a part that shows them (the overview, the caption, the aside), so
 * that the rows and bars are laid out while the statistics are computed.
 */
typedef struct {
	const struct rli_stats *(*get)(void *ctx);
	void *ctx;
} rli_stats_source;

/* rli_timeline_layout_stats with statistics from source (NULL: none given, as stats NULL). */
int rli_timeline_layout_from(rli_timeline **out, const rli_events *events, const rli_stats_source *source,
			     const rli_timeline_options *options);

/* Ten colours, every two at least 15 apart in CIEDE2000; index wraps. */
rli_color rli_palette_color(size_t index);
/* How many colours the palette holds before rli_palette_color repeats. */
size_t rli_palette_size(void);
/* Colour `index`'s shade `shade` (0: the colour itself; then lighter and darker in turn; wraps). */
rli_color rli_palette_shade(size_t index, size_t shade);
/* FNV-1a (32 bits) of a NUL-terminated name: where its colour lives in the palette. */
uint32_t rli_name_hash(const char *name);
/*
 * The colour of every name drawn together, the one rule every figure and
 * output uses: colors[n] for names[n], in any order (the colours depend on
 * the set of names only; a name given twice gets one colour). Each name
 * prefers the slot rli_name_hash % rli_palette_size; a name whose slot an
 * earlier name (in text order) prefers too takes the next free one, so up to
 * ten names all differ, and a name keeps its colour when another is renamed
 * unless the two prefer the same slot. Past ten names with groups[] (each
 * name's role) of two to ten groups, a group's names share its colour (the
 * groups placed as names would be) in shades of it; past ten otherwise each
 * colour is used once before its shades are. groups may be NULL. Returns
 * RLI_OK, or an error when out of memory.
 */
int rli_palette_assign_grouped(rli_color *colors, const char *const *names, const char *const *groups, size_t count);
/* rli_palette_assign_grouped without groups. */
int rli_palette_assign(rli_color *colors, const char *const *names, size_t count);
/*
 * A series colour for text on white: the colour itself where it reads at 4.5:1 (WCAG 2), else
 * darkened (its hue kept) until it does; a label in its line's colour stays readable.
 */
rli_color rli_text_color_on_white(rli_color color);
/* series[0, count).color from their names, drawn together (rli_palette_assign). */
int rli_series_colors(rli_series *series, size_t count);

/*
 * "Nice" axis ticks for [lo, hi] in about `target` steps: 1, 2, 5 x 10^k,
 * labelled with the decimals the step needs. Shared by every back-end (the
 * HTML renderer ports the same rule) so zoomed axes read alike. Returns the
 * count written (at most max).
 * The rule exactly: raw = (hi - lo) / target; step = the first of 1, 2, 5, 10
 * times 10^floor(log10(raw)) that is >= raw (1e-9 relative slack); ticks at
 * every integer multiple of step in [lo, hi] (1e-9 slack in step units);
 * labels "%.*f" with 0 decimals when step >= 1, else ceil(-log10(step)).
 * lo == hi gives one tick; hi < lo or a non-finite bound gives none.
 */
size_t rli_nice_ticks(rli_tick *out, size_t max, double lo, double hi, int target);

/*
 * A time axis: lo, hi and the ticks' values in ms, the ticks placed by the
 * same rule on [lo / unit_ms, hi / unit_ms] (the unit rli_time_unit_for
 * chooses for the span: 1, 1000, 60000) and labelled in that unit with
 * thousands separators ("1,500", "2.5"). render/js/core.js timeTicks ports it.
 */
size_t rli_time_ticks(rli_tick *out, size_t max, double lo, double hi, int target, double unit_ms);

/*
 * The same rule for any quantity counted in a unit: ticks of [lo, hi] (values as given) placed
 * on [lo / unit, hi / unit] and labelled in the unit with thousands separators (a memory axis
 * in MB, its ticks in GB: unit 1024). render/js/core.js unitTicks ports it.
 */
size_t rli_unit_ticks(rli_tick *out, size_t max, double lo, double hi, int target, double unit);

#endif

/* theme.h: the look of every figure in one place: sizes, margins, gaps and colours, in page units. */
#ifndef RLI_LAYOUT_THEME_H
#define RLI_LAYOUT_THEME_H

#include "rl_insight.h"

/* Geometry of the reference PNG (timeline.md §9), in page units. */
#define PAGE_UNITS_PER_ROW 50.0
#define MIN_PAGE_HEIGHT 900.0
#define MARGIN_LEFT 240.0
#define MARGIN_RIGHT 60.0
#define MARGIN_TOP 120.0
#define MARGIN_BOTTOM 80.0
#define BAR_FRACTION_OF_PITCH 0.42
#define BAR_OUTLINE_WIDTH 0.8
#define X_RANGE_PAD 1.05
#define MERGE_MAX_GAP_MS 2.0

#define TITLE_SIZE 24.0
#define AXIS_TITLE_SIZE 18.0
#define TICK_LABEL_SIZE 14.0
#define ROW_LABEL_SIZE 13.0
#define LEGEND_SIZE 12.0

#define PAGE_PAD 16.0           /* blank border kept around decorations */
#define ROW_LABEL_GAP 10.0      /* plot edge to the right end of row labels */
#define Y_TITLE_GAP 14.0        /* row labels to the rotated y title */
#define TICK_LABEL_GAP 6.0
#define X_TITLE_GAP 10.0
#define LEGEND_GAP 24.0         /* plot edge to the legend */
#define LEGEND_LINE 22.0        /* one legend entry */
#define LEGEND_SWATCH_W 20.0
#define LEGEND_SWATCH_H 12.0
#define LEGEND_TEXT_GAP 6.0
#define LEGEND_COLUMN_GAP 16.0
#define TICK_SPACING 110.0      /* page units per x tick, roughly */
#define MAX_TICKS 64
#define OUTLINE_MIN_BAR_RATIO 3.0 /* a bar gets its outline from this many outline widths */
#define MIN_PLOT_SHARE 0.2      /* of the page width: below it the legend moves under the plot */
#define LEGEND_BELOW_GAP 12.0   /* x title to a legend under the plot */
#define LEGEND_BELOW_MAX_LINES 8 /* lines of a legend under the plot; past them "… N more" */
#define MIN_TEXT_ROOM 12.0      /* page units: a label cut shorter would show nothing but "…" */
#define MIN_TITLE_SIZE 12.0     /* a long title on a narrow page shrinks down to this */

/* cairo's image surfaces, and most PNG viewers, stop at 32767 pixels a side. */
#define MAX_DEVICE_PIXELS 32767

/*
 * One timeline style's geometry and text sizes, in page units. The default
 * style is the reference PNG's (the defines above, CSS px); the paper styles
 * are in points, for a journal column at 300 dpi.
 */
typedef struct {
	double units_per_inch;    /* 96: CSS px; 72: points (a PDF unit) */
	double page_width;        /* > 0: the page is this wide whatever the options say */
	double raster_scale;      /* > 0: device pixels per unit in a PNG (300 dpi at 72 units per inch) */
	double units_per_row;     /* > 0: the reference's fixed row pitch; 0: as tall as the row label needs */
	double row_text_pad;      /* units_per_row 0: added to a row label's height for the pitch */
	double min_page_height;
	double max_page_height;   /* > 0: the tallest page that still reads (past it: the overview) */
	double margin_left, margin_right, margin_top;
	double margin_bottom;     /* > 0: fixed; 0: what the tick labels and x title need */
	double title_size, min_title_size, axis_title_size, tick_label_size, row_label_size, legend_size;
	double page_pad, row_label_gap, y_title_gap, tick_label_gap, x_title_gap;
	double legend_gap, legend_line, legend_swatch_w, legend_swatch_h, legend_text_gap;
	double legend_column_gap, legend_below_gap;
	double tick_spacing, bar_outline_width, grid_width;
	double label_share;       /* of the page width: row labels are ellipsized past it */
	int legend_below;         /* 1: the legend always goes under the plot (costs no plot width) */
	int no_y_title;           /* 1: no "Module - Rank" (the row labels say it; a short plot cannot hold it) */
} timeline_theme;

/* The geometry of a style; an unknown style gets the default's. */
const timeline_theme *rli_timeline_theme(rli_timeline_style style);

#define TEXT_COLOR 0x2a3f5f
#define GRID_COLOR 0xEAEAEA
#define WHITE 0xFFFFFF
/* A comparison's verdicts, in every output that shows them: slower in red, faster in green. */
#define REGRESSION_COLOR 0xc62828
#define IMPROVEMENT_COLOR 0x2e7d32

#endif

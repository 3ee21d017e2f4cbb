/* trend_parts.h: what the trend figure's files share: the page being laid out, the marks a panel owns, the panels' builders. */
#ifndef RLI_LAYOUT_TREND_PARTS_H
#define RLI_LAYOUT_TREND_PARTS_H

#include "trend_figure.h"

#include <pango/pango.h>

#define TREND_PLOT_HEIGHT 170.0     /* a value panel's plot */
#define TREND_PANEL_TITLE 16.0      /* a panel's title, bold */
#define TREND_NOTE_SIZE 13.0        /* the line beside a panel's title, the direct labels */
#define TREND_LANE 24.0             /* a lane of the straggler strip */
#define TREND_LABEL_ROOM 300.0      /* right of the plots (a quarter of a narrow page at most): each line's name and last value */
#define TREND_SECTION_GAP 26.0

/* The lines and points of one panel, and the arrays they point into. */
typedef struct trend_marks {
	rli_line_mark *lines;
	size_t line_count, line_capacity;
	rli_point_mark *points;
	size_t point_count, point_capacity;
	double **arrays;
	size_t array_count, array_capacity;
	rli_series *series;            /* the strip's ranks */
	size_t series_count;
} trend_marks;

/* The page under construction. */
typedef struct {
	rli_trend_figure *f;
	const rli_trend *trend;
	PangoContext *text;
	double width;
	double left, right;            /* every plot's x extent, so the runs line up from panel to panel */
	double y;                      /* where the next section starts */
	rli_tick *xticks;              /* the runs' axis, shared */
	size_t xtick_count;
	int xtick_target;
	size_t panel_next;             /* the next of f->panels to fill */
} trend_page;

/* A text of the page (kept until the items are made); NULL when out of memory (the error set). */
rli_text *trend_text(trend_page *page, const char *text, double x, double y, double size, int bold, rli_color color,
		     rli_align halign, rli_align valign, double max_width);
double trend_text_width(const trend_page *page, const char *text, double size, int bold);
/* A panel's title at page->y, bold, and its note beside it in note_color, both cut to the page (the note left out with no room). */
int trend_title(trend_page *page, const char *title, const char *note, rli_color note_color);
/* A run's value in a unit that fits max_ms: the unit's ms and its name ("s"). */
double trend_unit(double max_ms, const char **name);

/* A line, a point, an array of n doubles the marks own; NULL when out of memory. */
rli_line_mark *trend_line(trend_marks *m);
rli_point_mark *trend_point(trend_marks *m);
double *trend_array(trend_marks *m, size_t n);
void trend_marks_dispose(trend_marks *m);

/* A name placed at the right of a plot, beside its line's last value. */
typedef struct {
	double y;
	char text[160];
	rli_color color;
} trend_label;

#define TREND_LINE_WIDTH 1.8
#define RLI_TREND_MEMORY_COLOR 0x4e79a7 /* the memory panel's band and median, many devices */

/* A value panel's plot at top: the shared x axis, a value axis over [lo, hi]. */
int trend_value_axes(trend_page *page, rli_panel *panel, double top, double lo, double hi);
/* name added to the names (count of them, room for capacity) unless there: each once, in text order. */
int trend_add_name(const char ***names, size_t *count, size_t *capacity, const char *name);
/* qsort's orders: C strings (by pointer) by their text, doubles ascending. */
int trend_by_text(const void *pa, const void *pb);
int trend_ascending(const void *pa, const void *pb);
/* Of n values (sorted here): their median, least and greatest; NAN each for none. */
void trend_median_range(double *values, size_t n, double *median, double *low, double *high);
/*
 * A value panel finished: every point labelled, its lines and points handed to the panel,
 * page->y past it, the runs' axis title under it when x_title is not NULL. Returns error, or
 * the first failure after it.
 */
int trend_panel_done(trend_page *page, rli_panel *panel, trend_marks *m, const char *x_title, int error);
/* Where value sits on a value panel's plot, in page units. */
double trend_page_y(const rli_panel *panel, double value);
/* [lo, hi] around the values, padded, never flat, never below 0 for values that are not. */
void trend_padded(double *lo, double *hi);
/*
 * A series over the points (value NAN where a point has none) as lines: a segment a stretch of
 * points that have it, with a band from low to high when low is not NULL.
 */
int trend_series_marks(trend_marks *m, const double *value, const double *low, const double *high, size_t n,
		       rli_color color, double width);
/* A dot at (x, y), ringed dark for this run and red for a regression. */
int trend_mark_point(trend_marks *m, double x, double y, rli_color color, int current, int regressed);
/* Every point without a label gets an empty one (the back-ends draw each point's label). */
int trend_blank_labels(trend_marks *m);
/* The runs' axis title under the last panel's tick labels, kept on the page; page->y moves past it. */
int trend_x_title(trend_page *page, rli_panel *panel, const char *x_title);
/* The labels right of the plot, moved apart where they would overlap, kept within its height. */
int trend_direct_labels(trend_page *page, const rli_panel *panel, trend_label *labels, size_t n);

/* The panels (trend_panels.c): each its title, plot and marks at page->y, which moves past them. */
int trend_role_panel(trend_page *page, const char *role);
/* x_title: the memory panel is the last (no role to strip), it carries the runs' axis title; else NULL. */
int trend_memory_panel(trend_page *page, const char *x_title);
/* The expert load's imbalance per role over the runs (trend_experts.c); x_title as the memory panel's. */
int trend_experts_panel(trend_page *page, const char *x_title);
/* The strip is the last panel: its x axis carries x_title. */
int trend_strip_panel(trend_page *page, const char *x_title);

#endif

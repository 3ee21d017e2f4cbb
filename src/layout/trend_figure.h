/* trend_figure.h: trend.png and trend.html laid out: per role its phases' medians over the runs with their quartile bands, the memory peaks, the expert imbalance, the stragglers as a strip. */
#ifndef RLI_LAYOUT_TREND_FIGURE_H
#define RLI_LAYOUT_TREND_FIGURE_H

#include "history/trend.h"
#include "layout.h"

/* A role panel shows at most this many phases: the longest (by their greatest median). */
#define RLI_TREND_MAX_PHASES 8
/* The memory panel draws a line per device up to this many devices, else their range and median. */
#define RLI_TREND_MAX_DEVICE_LINES 8
#define RLI_TREND_RUN_COLUMNS 6
/* trend.html's page width (CSS px) unless --width asks for less: a laptop's window, the script scales it to the window. */
#define RLI_TREND_HTML_WIDTH 1240

/* A run as the page's table lists it, newest first. */
typedef struct {
	char *cells[RLI_TREND_RUN_COLUMNS];  /* run, captured, analysed, label, rl-insight, outputs */
	const char *href;    /* its outputs relative to the page (the trend's link), or NULL */
	size_t point;        /* its place on the x axis */
	int current;         /* 1: this run */
	int regressed;       /* 1: a phase of it regressed */
} rli_trend_row;

/* A part of the page that reads alone (the heading, a role's panel, the memory, the strip): the report's pieces. */
typedef struct {
	double top, bottom;  /* page units */
} rli_trend_section;

typedef struct rli_trend_figure {
	rli_document document;
	rli_page page;
	rli_item *items;
	size_t item_count, item_capacity;
	rli_text *texts;               /* every text item of the page, owned */
	size_t text_count, text_capacity;
	rli_panel *panels;             /* role panels, then memory, then the strip */
	size_t panel_count;
	struct trend_marks *marks;     /* per panel its lines, points and their arrays (trend_panels.c) */
	/* for the HTML page: what hovering a run shows, and the table of runs with their links */
	size_t point_count;
	char **hover;                  /* point_count lines of text, "\n" between lines */
	rli_trend_row *rows;           /* point_count, newest first */
	const char *header[RLI_TREND_RUN_COLUMNS];
	rli_trend_section *sections;
	size_t section_count;
} rli_trend_figure;

/*
 * Lays the trend out, options as the timeline's (width, scale, medium). RLI_EINVALID when the
 * trend has no run.
 */
int rli_trend_figure_layout(rli_trend_figure **out, const rli_trend *trend, const rli_timeline_options *options);
const rli_document *rli_trend_figure_document(const rli_trend_figure *figure);
void rli_trend_figure_free(rli_trend_figure *figure);

/* trend.html beside the other outputs, into set (html_trend.c); home: the run's home page to link to (a file stem), or NULL. */
int rli_trend_write_html(const rli_trend_figure *figure, const char *home, const char *out_dir, rli_output_set *set);

#endif

/* compare_page.h: the compare page's content: both runs' timelines laid out, and the phase changes as a table a reader sorts. */
#ifndef RLI_LAYOUT_COMPARE_PAGE_H
#define RLI_LAYOUT_COMPARE_PAGE_H

#include "compare/compare.h"
#include "layout.h"

#include <stddef.h>
#include <stdint.h>

/* role, phase, rank, baseline median, current median, change, ratio, noise, verdict */
#define RLI_COMPARE_COLUMNS 9

typedef struct {
	const rli_phase_change *change;   /* the comparison's row: role, name, rank, verdict */
	char *cells[RLI_COMPARE_COLUMNS]; /* "—" on the side that lacks the phase */
	/* what a column sorts by: a number, or NAN to sort by the cell's text ("—" last) */
	double keys[RLI_COMPARE_COLUMNS];
	rli_color color;                  /* the verdict's colour, or the text colour */
} rli_compare_row;

typedef struct {
	const char *header[RLI_COMPARE_COLUMNS];
	rli_align align[RLI_COMPARE_COLUMNS];
	/*
	 * Every phase over all its ranks ("all") and rank by rank, the
	 * regressions first (the largest ratio first), then the improvements
	 * (the largest gain first), the phases of one run only, the rest; each
	 * group by role, phase, then "all" before the ranks.
	 */
	size_t row_count;
	rli_compare_row *rows;
	rli_color regression_color, improvement_color, text_color;
} rli_compare_table;

/* The table of the comparison's phases; it points into the comparison, which must outlive it. */
int rli_compare_table_build(rli_compare_table **out, const rli_comparison *comparison);
void rli_compare_table_free(rli_compare_table *table);

/* The call sites the page lists: those whose memory grew most. */
#define RLI_COMPARE_MEMORY_SITES 15

typedef struct {
	const rli_device_change *change; /* the comparison's row */
	char *label;                     /* "<role> rank <r> <device type>" */
} rli_compare_memory_device;

typedef struct {
	size_t device;                   /* in devices[] */
	const rli_site_change *site;
} rli_compare_memory_site;

/*
 * The memory side of the page, when both runs have memory records: every device (by role,
 * rank, type; one run's alone too), and the call sites by how much they grew (the larger of
 * allocated and live-at-peak growth; for a site that only shrank, its larger fall), the most
 * grown first; the first sites_listed, those whose bytes moved at all (at most
 * RLI_COMPARE_MEMORY_SITES), are shown.
 */
typedef struct {
	size_t device_count;
	rli_compare_memory_device *devices;
	size_t site_count, sites_listed;
	rli_compare_memory_site *sites;
	int complete;                    /* 0: a side (a summary.json) gave only each device's top sites */
} rli_compare_memory;

/* The memory side; it points into the comparison, which must outlive it (compare_memory.c). */
int rli_compare_memory_build(rli_compare_memory **out, const rli_comparison *comparison);
void rli_compare_memory_free(rli_compare_memory *memory);

/* One run's panel of the page: its timeline, or the reason it has none. */
typedef struct {
	char *heading;          /* "Baseline: <path>" */
	rli_timeline *timeline; /* each run's own t = 0 at its first bar; NULL: note says why */
	const char *note;
} rli_compare_run;

/*
 * The page: both runs stacked, the baseline first, each timeline laid out
 * with every row (as the timeline page's), and the table under them.
 */
typedef struct {
	char *title;
	rli_compare_run runs[2];    /* baseline, current */
	rli_compare_table *table;   /* the phases: none without timelines */
	rli_compare_memory *memory; /* NULL unless both runs have memory records */
} rli_compare_page;

/*
 * Lays the page out. A run's events NULL (its side read from a summary.json)
 * gives it a note instead of a timeline; its stats may be NULL. A comparison
 * without timelines (memory records only) has no runs' panels, only its memory. options is
 * the run's (medium, width); the page sets what scrolling rows need.
 */
int rli_compare_page_layout(rli_compare_page **out, const rli_comparison *comparison,
			    const rli_events *baseline_events, const struct rli_stats *baseline_stats,
			    const rli_events *current_events, const struct rli_stats *current_stats,
			    const rli_timeline_options *options);
void rli_compare_page_free(rli_compare_page *page);

/* The page as out_dir/compare.html, into the run's set (NULL: into place at once): the HTML back-end's html_compare.c. */
int rli_compare_page_write_html(const rli_compare_page *page, const char *home, const char *out_dir,
				rli_output_set *set);

#endif

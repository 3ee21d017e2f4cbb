/* html_timeline.h: a timeline page's model as JSON and its bars as compact runs: what the timeline page and the compare page embed. */
#ifndef RLI_RENDER_HTML_TIMELINE_H
#define RLI_RENDER_HTML_TIMELINE_H

#include "html_bytes.h"
#include "layout/layout.h"

#include <stddef.h>
#include <stdio.h>

/* The items of a timeline's page the script draws: its title, panel and legend, and the side panel's items. */
typedef struct {
	const rli_document *document;
	const rli_page *page;
	const rli_text *title;
	const rli_panel *panel;
	const rli_legend *legend;
	const rli_item *const *asides;
	size_t aside_count;
	const rli_nav *nav;  /* NULL, or the links to the run's other pages (its home, the rows' memory pages) */
} rli_html_timeline;


/* RLI_ERROR unless the page has a title, a panel and a legend, and every bar names a row and a series. */
int rli_html_timeline_check(const rli_html_timeline *t);
/* A timeline's page gathered from its items (asides left out), then checked. */
int rli_html_timeline_from_page(rli_html_timeline *t, const rli_document *document, const rli_page *page);
/* Everything but the bars, as one JSON object: decorations as placed, rows, series, ticks, asides. */
int rli_html_write_timeline_model(FILE *fp, const rli_html_timeline *t);
/*
 * The bars as one JSON object {count, runCount, encoding, gridBits, runs, data}
 * (core.js decodeBars reads it); stream is scratch room, kept for the next call.
 */
int rli_html_write_timeline_bars(FILE *fp, const rli_panel *panel, rli_bytes *stream);

#endif

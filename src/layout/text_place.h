/* text_place.h: placing text and the legend on a page: valid text, anchors, the legend's room. */
#ifndef RLI_LAYOUT_TEXT_PLACE_H
#define RLI_LAYOUT_TEXT_PLACE_H

#include "layout.h"
#include "theme.h"

#include <stddef.h>

/* A copy that is valid UTF-8 whatever the trace held, so text never fails to shape. NULL: no memory. */
char *rli_valid_utf8_copy(const char *text);
/* Fills a text item in the theme's colour, anchored at (x, y). RLI_ERROR when out of memory. */
int rli_set_text(rli_text *out, const char *text, double x, double y, double size, rli_align halign,
		 rli_align valign);

/* What the legend needs: its text measured, and where it goes. */
typedef struct {
	double title_width, widest_entry; /* text widths, page units */
	double entry_width;   /* swatch, gap and (ellipsized) text of one entry */
	double max_text;      /* an entry's text is ellipsized past this */
	int below;            /* under the plot, in rows across the page (narrow pages) */
	size_t per_column;    /* beside the plot: entries a column; below: entries a line */
	size_t lines;         /* below: lines of entries */
	size_t columns;       /* beside: columns; below: entries a line */
	size_t shown;         /* entries shown; the last one reads "… N more" when < series */
} legend_plan;

/* Beside the plot: one column while it fits the page height, more beside it if not. Returns the right margin. */
double rli_plan_legend_beside(legend_plan *legend, const timeline_theme *theme, size_t series, double width,
			      double height);
/* Below the plot, as many entries a line as the page holds. Returns the height it adds. */
double rli_plan_legend_below(legend_plan *legend, const timeline_theme *theme, size_t series, double width);

#endif

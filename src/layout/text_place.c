/* text_place.c: placing text and the legend on a page: valid text, anchors, the legend's room. */
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "text/text.h"

#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* text, cut to what any page can show (RLI_TEXT_SHOWN_MAX) with "…" where it was: newly allocated, or NULL. */
static char *shown_copy(const char *text, size_t length)
{
	size_t shown = rli_text_shown_length(text);
	int cut = shown < length;
	char *copy = malloc(shown + (cut ? sizeof("\xe2\x80\xa6") : 1));
	if (!copy)
		return NULL;
	memcpy(copy, text, shown);
	if (cut)
		memcpy(copy + shown, "\xe2\x80\xa6", sizeof("\xe2\x80\xa6"));
	else
		copy[shown] = '\0';
	return copy;
}

char *rli_valid_utf8_copy(const char *text)
{
	gchar *valid = g_utf8_make_valid(text ? text : "", (gssize)rli_text_shown_length(text ? text : ""));
	char *copy = valid ? shown_copy(valid, strlen(text ? text : "")) : NULL;
	g_free(valid);
	return copy;
}

int rli_set_text(rli_text *out, const char *text, double x, double y, double size,
		    rli_align halign, rli_align valign)
{
	out->text = shown_copy(text, strlen(text));
	if (!out->text)
		return rli_error_oom();
	out->x = x;
	out->y = y;
	out->size = size;
	out->bold = 0;
	out->color = TEXT_COLOR;
	out->halign = halign;
	out->valign = valign;
	out->angle = 0.0;
	out->max_width = 0.0;
	return RLI_OK;
}

/* Beside the plot: one column while it fits the page height, more beside it if not. */
double rli_plan_legend_beside(legend_plan *legend, const timeline_theme *theme, size_t series, double width,
			      double height)
{
	legend->below = 0;
	legend->max_text = 0.15 * width;
	legend->entry_width = fmin(legend->widest_entry, legend->max_text) + theme->legend_swatch_w +
			      theme->legend_text_gap;
	legend->per_column = (size_t)fmax(1.0, floor((height - 2 * theme->page_pad - theme->legend_line) /
						     theme->legend_line));
	legend->columns = (series + legend->per_column - 1) / legend->per_column;
	/* More names than fit in a third of the page: the last entry says how many are left out. */
	while (legend->columns > 1 &&
	       legend->columns * (legend->entry_width + theme->legend_column_gap) > 0.3 * width)
		legend->columns--;
	legend->shown = series < legend->columns * legend->per_column ? series :
			legend->columns * legend->per_column;
	/* The right margin it takes. */
	return fmax(fmin(theme->margin_right, 0.05 * width),
		    theme->legend_gap + fmax(legend->title_width, legend->columns * (legend->entry_width +
		    theme->legend_column_gap) - theme->legend_column_gap) + theme->page_pad);
}

/* Below the plot, as many entries a line as the page holds. Returns the height it adds. */
double rli_plan_legend_below(legend_plan *legend, const timeline_theme *theme, size_t series, double width)
{
	double room = width - 2 * theme->page_pad;

	legend->below = 1;
	legend->max_text = fmax(MIN_TEXT_ROOM, room - theme->legend_swatch_w - theme->legend_text_gap);
	legend->entry_width = fmin(legend->widest_entry, legend->max_text) + theme->legend_swatch_w +
			      theme->legend_text_gap;
	legend->columns = (size_t)fmax(1.0, floor((room + theme->legend_column_gap) /
						  (legend->entry_width + theme->legend_column_gap)));
	legend->lines = (series + legend->columns - 1) / legend->columns;
	if (legend->lines > LEGEND_BELOW_MAX_LINES)
		legend->lines = LEGEND_BELOW_MAX_LINES;
	legend->per_column = legend->columns;
	legend->shown = series < legend->columns * legend->lines ? series : legend->columns * legend->lines;
	return theme->legend_below_gap + theme->legend_line * (double)(legend->lines + 1);
}

/* text.h: the pinned fonts, and text measured exactly as the painters will draw it. */
#ifndef RLI_TEXT_TEXT_H
#define RLI_TEXT_TEXT_H

#include <pango/pangocairo.h>

/* The family list every back-end names (the HTML's CSS uses the same words). */
#define RLI_TEXT_FAMILY "DejaVu Sans, Droid Sans Fallback"

/*
 * The font folder in use: $RLI_FONT_DIR if set, else the source tree's fonts/
 * (RLI_FONT_DIR_BUILD), else the installed copy (RLI_FONT_DIR_INSTALL).
 * RLI_ERROR with a message naming the folders tried when the fonts are missing.
 */
int rli_text_font_dir(const char **out);

/*
 * A Pango context on the private font map (only the bundled fonts, created
 * once per process) with fixed cairo font options: grey antialiasing, no
 * hinting, unhinted metrics, unrounded glyph positions. Sizes are absolute
 * (one unit = one user-space unit), so what is measured is what is drawn at
 * any device scale. Free with g_object_unref.
 */
int rli_text_context_new(PangoContext **out);

/*
 * The most bytes of a label any page shows: a page is at most 20,000 CSS px wide and the narrowest
 * glyph at the smallest size takes more than a pixel, so fewer characters than this ever fit.
 * Labels are cut to it before they are kept, measured or laid out: the work a name costs is
 * bounded by what can be drawn, not by the name (a 10 MiB operator name cost a minute and 1.8 GB).
 */
#define RLI_TEXT_SHOWN_MAX 16384

/* The bytes of text kept for showing: all of it, or up to RLI_TEXT_SHOWN_MAX at a UTF-8 boundary. */
size_t rli_text_shown_length(const char *text);

/* A layout of text at size (user units), bold or regular, in RLI_TEXT_FAMILY; text past RLI_TEXT_SHOWN_MAX left out. */
PangoLayout *rli_text_layout_new(PangoContext *context, const char *text, double size, int bold);

/* The logical width and height of one line of text, in user units. */
int rli_text_measure(double *width, double *height, PangoContext *context,
		     const char *text, double size, int bold);

#endif

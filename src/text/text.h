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

/* A layout of text at size (user units), bold or regular, in RLI_TEXT_FAMILY. */
PangoLayout *rli_text_layout_new(PangoContext *context, const char *text, double size, int bold);

/* The logical width and height of one line of text, in user units. */
int rli_text_measure(double *width, double *height, PangoContext *context,
		     const char *text, double size, int bold);

#endif

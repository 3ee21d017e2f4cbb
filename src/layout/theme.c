/* theme.c: the timeline styles' geometry, and the palette: one colour per series name, the same in every output and across runs. */
#include "layout.h"
#include "theme.h"

#include <string.h>

/*
 * The reference's ten colours, then ten more from the same family (Tableau
 * 20's remaining hues) so neighbours in the legend stay distinguishable.
 */
static const rli_color palette[] = {
	0x4e79a7, 0xf28e8b, 0x59a14f, 0xb07aa1, 0x9c755f,
	0x76b7b2, 0xedc948, 0xbab0ab, 0x8cd17d, 0xff9da7,
	0xf28e2b, 0xa0cbe8, 0x499894, 0xe15759, 0xb6992d,
	0xd37295, 0x86bcb6, 0xffbe7d, 0x79706e, 0xd4a6c8,
};
#define PALETTE_SIZE (sizeof(palette) / sizeof(palette[0]))

rli_color rli_palette_color(size_t index)
{
	return palette[index % PALETTE_SIZE];
}

size_t rli_palette_size(void)
{
	return PALETTE_SIZE;
}

uint32_t rli_name_hash(const char *name)
{
	uint32_t hash = 2166136261u; /* FNV-1a, 32 bits */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		hash ^= *p;
		hash *= 16777619u;
	}
	return hash;
}

void rli_palette_assign(rli_color *colors, const char *const *sorted_names, size_t count)
{
	size_t uses[PALETTE_SIZE] = { 0 }, fewest = 0;

	for (size_t n = 0; n < count; n++) {
		size_t home = rli_name_hash(sorted_names[n]) % PALETTE_SIZE, slot = home;
		/* The first slot from home that is used least: the home itself unless a name before took it. */
		for (size_t step = 0; step < PALETTE_SIZE; step++) {
			slot = (home + step) % PALETTE_SIZE;
			if (uses[slot] == fewest)
				break;
		}
		uses[slot]++;
		colors[n] = palette[slot];
		fewest = uses[0];
		for (size_t s = 1; s < PALETTE_SIZE; s++)
			if (uses[s] < fewest)
				fewest = uses[s];
	}
}

/* The reference PNG's geometry (timeline.md §9): CSS px, 50 px rows, the legend beside the plot. */
static const timeline_theme reference_theme = {
	.units_per_inch = 96.0, .units_per_row = PAGE_UNITS_PER_ROW, .min_page_height = MIN_PAGE_HEIGHT,
	.margin_left = MARGIN_LEFT, .margin_right = MARGIN_RIGHT, .margin_top = MARGIN_TOP,
	.margin_bottom = MARGIN_BOTTOM,
	.title_size = TITLE_SIZE, .min_title_size = MIN_TITLE_SIZE, .axis_title_size = AXIS_TITLE_SIZE,
	.tick_label_size = TICK_LABEL_SIZE, .row_label_size = ROW_LABEL_SIZE, .legend_size = LEGEND_SIZE,
	.page_pad = PAGE_PAD, .row_label_gap = ROW_LABEL_GAP, .y_title_gap = Y_TITLE_GAP,
	.tick_label_gap = TICK_LABEL_GAP, .x_title_gap = X_TITLE_GAP,
	.legend_gap = LEGEND_GAP, .legend_line = LEGEND_LINE, .legend_swatch_w = LEGEND_SWATCH_W,
	.legend_swatch_h = LEGEND_SWATCH_H, .legend_text_gap = LEGEND_TEXT_GAP,
	.legend_column_gap = LEGEND_COLUMN_GAP, .legend_below_gap = LEGEND_BELOW_GAP,
	.tick_spacing = TICK_SPACING, .bar_outline_width = BAR_OUTLINE_WIDTH, .grid_width = 1.0,
	.label_share = 0.3,
};

/*
 * A journal column in points (one PDF unit), drawn at 300 dpi in the PNG:
 * no text under 7 pt at print size, rows as tall as a 7 pt label needs, the
 * legend under the plot, row labels up to 45% of the width (a narrow column
 * would cut the rank off at 30%). A figure taller than a page (9 in) would
 * not print: past it the overview stands in.
 */
#define PAPER_THEME(width) { \
	.units_per_inch = 72.0, .page_width = (width), .raster_scale = 300.0 / 72.0, \
	.row_text_pad = 2.0, .min_page_height = 72.0, .max_page_height = 9.0 * 72.0, \
	.margin_top = 20.0, \
	.title_size = 8.5, .min_title_size = 7.0, .axis_title_size = 8.0, .tick_label_size = 7.0, \
	.row_label_size = 7.0, .legend_size = 7.0, \
	.page_pad = 4.0, .row_label_gap = 3.0, .y_title_gap = 0.0, .tick_label_gap = 2.0, .x_title_gap = 2.0, \
	.legend_gap = 8.0, .legend_line = 10.0, .legend_swatch_w = 10.0, .legend_swatch_h = 6.0, \
	.legend_text_gap = 3.0, .legend_column_gap = 8.0, .legend_below_gap = 3.0, \
	.tick_spacing = 32.0, .bar_outline_width = 0.3, .grid_width = 0.4, .legend_below = 1, \
	.label_share = 0.45, .no_y_title = 1, \
}
static const timeline_theme paper_theme = PAPER_THEME(3.5 * 72.0);
static const timeline_theme paper_wide_theme = PAPER_THEME(7.0 * 72.0);

const timeline_theme *rli_timeline_theme(rli_timeline_style style)
{
	switch (style) {
	case RLI_STYLE_PAPER:
		return &paper_theme;
	case RLI_STYLE_PAPER_WIDE:
		return &paper_wide_theme;
	default:
		return &reference_theme;
	}
}

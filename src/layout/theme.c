/* theme.c: the timeline styles' geometry, and the palette: one colour per series name, the same in every output and across runs. */
#include "layout.h"
#include "theme.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Ten colours any two of which stay apart (Tableau 10: every pair at least
 * 18 in CIEDE2000, tests/render/test_palette.c measures it). The reference's
 * palette had two pinks 6 apart, and its extension to twenty more, so the
 * names that hashed onto them read as one series.
 */
static const rli_color palette[] = {
	0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
	0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ab,
};
#define PALETTE_SIZE (sizeof(palette) / sizeof(palette[0]))

/*
 * Beyond ten names drawn together a colour's family is shared: the shades of
 * one family, in this order (a share of the way to white, > 0, or to black, < 0).
 */
static const double shade_mix[] = { 0.0, 0.45, -0.35, 0.7, -0.55 };
#define SHADE_COUNT (sizeof(shade_mix) / sizeof(shade_mix[0]))

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

rli_color rli_palette_shade(size_t index, size_t shade)
{
	rli_color base = rli_palette_color(index), out = 0;
	double mix = shade_mix[shade % SHADE_COUNT], toward = mix > 0 ? 255.0 : 0.0;
	for (int shift = 16; shift >= 0; shift -= 8) {
		double c = (double)(base >> shift & 0xff);
		c += (toward - c) * (mix < 0 ? -mix : mix);
		out |= (rli_color)(c + 0.5) << shift;
	}
	return out;
}

/*
 * Slots for n keys, given in a stable order with their homes: first every
 * key whose home nobody took before it gets its home, then each other key
 * the first slot on from its home that is used least. So with n <= slots
 * every key has a slot of its own, and a key keeps its home whatever the
 * other keys are, unless one before it has the same home.
 */
static void place_slots(size_t *slot_of, const size_t *home, size_t n, size_t slots, size_t *uses)
{
	size_t fewest = 0;
	memset(uses, 0, slots * sizeof(*uses));
	for (size_t k = 0; k < n; k++) {
		slot_of[k] = SIZE_MAX;
		if (!uses[home[k]]) {
			uses[home[k]] = 1;
			slot_of[k] = home[k];
		}
	}
	for (size_t k = 0; k < n; k++) {
		if (slot_of[k] != SIZE_MAX)
			continue;
		for (;;) {
			size_t step;
			for (step = 0; step < slots; step++)
				if (uses[(home[k] + step) % slots] == fewest)
					break;
			if (step < slots) {
				slot_of[k] = (home[k] + step) % slots;
				uses[slot_of[k]]++;
				break;
			}
			fewest++;
		}
	}
}

typedef struct {
	const char *name, *group;
	size_t at;      /* before sorting: the caller's index; among the distinct names: the name's own */
} named;

static int by_name_then_group(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->group, y->group);
}

static int by_group_then_name(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->group, y->group);
	return c ? c : strcmp(x->name, y->name);
}

/*
 * The colours of the distinct names uniq[0, n) (sorted by name), into color[uniq[k].at]:
 * up to ten a colour each; past ten a family per group (when there are two groups or more)
 * with a shade per name (when there are two to ten groups), else each colour once, then each
 * one's shades in turn.
 */
static void color_distinct(rli_color *color, named *uniq, size_t n, int grouped, size_t *home, size_t *slot,
			   size_t *family, size_t *uses)
{
	size_t group_count = 0;

	if (grouped && n > PALETTE_SIZE) {
		qsort(uniq, n, sizeof(*uniq), by_group_then_name);
		for (size_t k = 0; k < n; k++)
			if (k == 0 || strcmp(uniq[k].group, uniq[k - 1].group) != 0)
				home[group_count++] = rli_name_hash(uniq[k].group) % PALETTE_SIZE;
	}
	/* One group, or more groups than colours (a name per role, as NVTX ranges give): families would not tell them apart. */
	if (group_count < 2 || group_count > PALETTE_SIZE) {
		if (group_count)
			qsort(uniq, n, sizeof(*uniq), by_name_then_group);
		for (size_t k = 0; k < n; k++)
			home[k] = rli_name_hash(uniq[k].name) % PALETTE_SIZE;
		place_slots(slot, home, n, PALETTE_SIZE, uses);
		memset(uses, 0, PALETTE_SIZE * sizeof(*uses));
		for (size_t k = 0; k < n; k++)
			color[uniq[k].at] = rli_palette_shade(slot[k], uses[slot[k]]++);
		return;
	}
	/* The groups (roles) take the palette's slots as names would; each group's names, in name order, its shades. */
	place_slots(family, home, group_count, PALETTE_SIZE, uses);
	for (size_t k = 0, first = 0, g = 0; k <= n; k++) {
		if (k < n && (k == 0 || strcmp(uniq[k].group, uniq[k - 1].group) == 0))
			continue;
		if (k > first) {
			size_t members = k - first;
			for (size_t m = 0; m < members; m++)
				home[m] = rli_name_hash(uniq[first + m].name) % SHADE_COUNT;
			place_slots(slot, home, members, SHADE_COUNT, uses);
			for (size_t m = 0; m < members; m++)
				color[uniq[first + m].at] = rli_palette_shade(family[g], slot[m]);
			g++;
		}
		first = k;
	}
}

int rli_palette_assign_grouped(rli_color *colors, const char *const *names, const char *const *groups, size_t count)
{
	size_t room = count ? count : 1;
	named *keys = malloc(room * sizeof(*keys)), *uniq = malloc(room * sizeof(*uniq));
	size_t *which = malloc(room * sizeof(*which)), *home = calloc(room, sizeof(*home));
	size_t *slot = malloc(room * sizeof(*slot)), *family = malloc(room * sizeof(*family));
	size_t *uses = malloc((room > PALETTE_SIZE ? room : PALETTE_SIZE) * sizeof(*uses));
	rli_color *color = malloc(room * sizeof(*color));
	size_t distinct = 0;
	int error = RLI_OK;

	if (!keys || !uniq || !which || !home || !slot || !family || !uses || !color) {
		error = rli_error_oom();
		goto done;
	}
	/* Sorted by name, so the colours depend on the set of names and not on their order; a name twice is one. */
	for (size_t n = 0; n < count; n++)
		keys[n] = (named){ names[n], groups && groups[n] ? groups[n] : "", n };
	qsort(keys, count, sizeof(*keys), by_name_then_group);
	for (size_t n = 0; n < count; n++) {
		if (n == 0 || strcmp(keys[n].name, keys[n - 1].name) != 0) {
			uniq[distinct] = (named){ keys[n].name, keys[n].group, distinct };
			distinct++;
		}
		which[n] = distinct - 1;
	}
	color_distinct(color, uniq, distinct, groups != NULL, home, slot, family, uses);
	for (size_t n = 0; n < count; n++)
		colors[keys[n].at] = color[which[n]];
done:
	free(keys);
	free(uniq);
	free(which);
	free(home);
	free(slot);
	free(family);
	free(uses);
	free(color);
	return error;
}

int rli_palette_assign(rli_color *colors, const char *const *names, size_t count)
{
	return rli_palette_assign_grouped(colors, names, NULL, count);
}

/* WCAG 2's relative luminance of an sRGB colour. */
static double luminance(rli_color color)
{
	static const double weight[3] = { 0.2126, 0.7152, 0.0722 };
	double y = 0;
	for (int i = 0; i < 3; i++) {
		double c = (double)(color >> (16 - 8 * i) & 0xff) / 255.0;
		y += weight[i] * (c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
	}
	return y;
}

rli_color rli_text_color_on_white(rli_color color)
{
	/* (1 + 0.05) / (Y + 0.05) >= 4.5: Y at most 0.1833; each step takes a tenth off every channel */
	for (int step = 0; step < 64 && luminance(color) > 1.05 / 4.5 - 0.05; step++) {
		rli_color darker = 0;
		for (int shift = 16; shift >= 0; shift -= 8)
			darker |= (rli_color)((double)(color >> shift & 0xff) * 0.9) << shift;
		color = darker;
	}
	return color;
}

int rli_series_colors(rli_series *series, size_t count)
{
	const char **names = calloc(count ? count : 1, sizeof(*names));
	rli_color *colors = calloc(count ? count : 1, sizeof(*colors));
	int error = names && colors ? RLI_OK : rli_error_oom();

	for (size_t s = 0; s < count && error == RLI_OK; s++)
		names[s] = series[s].name ? series[s].name : "";
	if (error == RLI_OK)
		error = rli_palette_assign(colors, names, count);
	for (size_t s = 0; s < count && error == RLI_OK; s++)
		series[s].color = colors[s];
	free(names);
	free(colors);
	return error;
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

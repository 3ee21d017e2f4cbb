/* trend_strip.c: the trend's straggler strip: a lane per role, a cell per run coloured by its straggler rank and, where it fits, numbered. */
#include "memory_parts.h"
#include "trend_parts.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/strutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL_HALF 0.42       /* of a run's width, each side of its middle */
#define CELL_TEXT_SIZE 11.0

/* A cell: a role's straggler in one run. */
typedef struct {
	uint32_t row, series;
	size_t point;
	int64_t rank;
} cell;

/* The text on a cell: dark on a light colour, white on a dark one (relative luminance, sRGB weights). */
static rli_color text_on(rli_color color)
{
	double r = (color >> 16 & 0xff) / 255.0, g = (color >> 8 & 0xff) / 255.0, b = (color & 0xff) / 255.0;
	return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55 ? TEXT_COLOR : WHITE;
}

static int by_cell(const void *pa, const void *pb)
{
	const cell *a = pa, *b = pb;
	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->series != b->series)
		return a->series < b->series ? -1 : 1;
	return (a->point > b->point) - (a->point < b->point);
}

static int by_number(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return (a > b) - (a < b);
}

/* The roles of every point, sorted, each once (they point into the points' sides). */
static int roles_of(const rli_trend *t, const char ***out, size_t *count)
{
	const char **roles = NULL;
	size_t n = 0, capacity = 0;
	for (size_t k = 0; k < t->count; k++)
		for (size_t r = 0; r < t->points[k].side->role_count; r++)
			if (trend_add_name(&roles, &n, &capacity, t->points[k].side->roles[r].role) < 0) {
				free(roles);
				return RLI_ERROR;
			}
	*out = roles;
	*count = n;
	return RLI_OK;
}

int trend_strip_panel(trend_page *page, const char *x_title)
{
	const rli_trend *t = page->trend;
	rli_panel *panel = &page->f->panels[page->panel_next];
	trend_marks *m = &page->f->marks[page->panel_next++];
	const char **roles = NULL, **names = NULL;
	cell *cells = NULL;
	int64_t *ranks = NULL;
	rli_color *colors = NULL;
	size_t role_count = 0, cell_count = 0, cell_capacity = 0, rank_count = 0;
	double cell_width, top;
	char note[512];
	int error, numbered = 1;

	if ((error = roles_of(t, &roles, &role_count)) < 0)
		return error;
	/* Every (role, run) with a straggler is a cell. */
	for (size_t k = 0; k < t->count; k++) {
		const rli_compare_side *side = t->points[k].side;
		for (size_t r = 0; r < side->role_count; r++) {
			uint32_t row = 0;
			if (!side->roles[r].has_straggler)
				continue;
			while (row < role_count && strcmp(roles[row], side->roles[r].role) != 0)
				row++;
			if (RLI_GROW(&cells, &cell_capacity, cell_count + 1, 32) < 0) {
				error = rli_error_oom();
				goto done;
			}
			cells[cell_count++] = (cell){ row, 0, k, side->roles[r].straggler_rank };
		}
	}
	/* The ranks that were ever a straggler, a series each, coloured by their names. */
	if (!(ranks = malloc((cell_count ? cell_count : 1) * sizeof(*ranks))) ||
	    !(names = calloc(cell_count ? cell_count : 1, sizeof(*names))) ||
	    !(colors = calloc(cell_count ? cell_count : 1, sizeof(*colors)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < cell_count; i++)
		ranks[i] = cells[i].rank;
	qsort(ranks, cell_count, sizeof(*ranks), by_number);
	for (size_t i = 0; i < cell_count; i++)
		if (i == 0 || ranks[i] != ranks[i - 1])
			ranks[rank_count++] = ranks[i];
	if (!(m->series = calloc(rank_count ? rank_count : 1, sizeof(*m->series)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < rank_count; i++) {
		char name[48];
		snprintf(name, sizeof(name), "rank %lld", (long long)ranks[i]);
		if (!(names[i] = rli_strdup(name))) {
			error = rli_error_oom();
			goto done;
		}
	}
	/* The palette in the names' text order; the series stay in rank order. */
	{
		const char **sorted = calloc(rank_count ? rank_count : 1, sizeof(*sorted));
		if (!sorted) {
			error = rli_error_oom();
			goto done;
		}
		memcpy(sorted, names, rank_count * sizeof(*sorted));
		qsort(sorted, rank_count, sizeof(*sorted), trend_by_text);
		if ((error = rli_palette_assign(colors, sorted, rank_count)) < 0) {
			free(sorted);
			goto done;
		}
		for (size_t i = 0; i < rank_count; i++)
			for (size_t s = 0; s < rank_count; s++)
				if (sorted[s] == names[i])
					m->series[i] = (rli_series){ NULL, colors[s] };
		free(sorted);
	}
	m->series_count = rank_count;
	for (size_t i = 0; i < cell_count; i++) {
		int64_t *found = bsearch(&cells[i].rank, ranks, rank_count, sizeof(*ranks), by_number);
		cells[i].series = (uint32_t)(found - ranks);
	}
	if (cell_count > 1)
		qsort(cells, cell_count, sizeof(*cells), by_cell);

	/* Title and the ranks in words, most often first, where the cells cannot hold their numbers. */
	cell_width = 2 * CELL_HALF * (page->right - page->left) / (double)t->count;
	for (size_t i = 0; i < rank_count && numbered; i++) {
		char text[24];
		snprintf(text, sizeof(text), "%lld", (long long)ranks[i]);
		numbered = trend_text_width(page, text, CELL_TEXT_SIZE, 1) + 4 <= cell_width;
	}
	if (!cell_count)
		snprintf(note, sizeof(note), "no role had a straggler in these runs");
	else
		snprintf(note, sizeof(note), "the rank that was the slowest, and an outlier, in more than half of the role's "
			 "steps; blank: none");
	if ((error = trend_title(page, "Straggler rank per role", note, TEXT_COLOR)) < 0)
		goto done;
	top = page->y + 28;

	/* The lanes. */
	panel->plot = (rli_rect){ page->left, top, page->right - page->left, TREND_LANE * (double)(role_count ? role_count : 1) };
	if ((error = rli_memory_panel_x_axis(panel, page->xticks, page->xtick_count, page->xtick_target, -0.5,
					     (double)t->count - 0.5, 1)) < 0)
		goto done;
	panel->y_scale = RLI_Y_LANES;
	panel->y_min = 0;
	panel->y_max = (double)(role_count ? role_count : 1);
	panel->row_pitch = TREND_LANE;
	panel->bar_thickness = 0.72 * TREND_LANE;
	panel->bar_outline = WHITE;
	panel->series = m->series;
	panel->series_count = m->series_count;
	panel->row_count = role_count;
	panel->rows = calloc(role_count ? role_count : 1, sizeof(*panel->rows));
	panel->row_labels = calloc(role_count ? role_count : 1, sizeof(*panel->row_labels));
	panel->row_first_bar = calloc(role_count + 1, sizeof(*panel->row_first_bar));
	panel->bar_row = calloc(cell_count ? cell_count : 1, sizeof(*panel->bar_row));
	panel->bar_series = calloc(cell_count ? cell_count : 1, sizeof(*panel->bar_series));
	panel->bar_start = calloc(cell_count ? cell_count : 1, sizeof(*panel->bar_start));
	panel->bar_end = calloc(cell_count ? cell_count : 1, sizeof(*panel->bar_end));
	if (!panel->rows || !panel->row_labels || !panel->row_first_bar || !panel->bar_row || !panel->bar_series ||
	    !panel->bar_start || !panel->bar_end) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t r = 0; r < role_count; r++) {
		if (!(panel->rows[r].label = rli_strdup(roles[r])) || !(panel->rows[r].role = rli_strdup(roles[r])) ||
		    (error = rli_set_text(&panel->row_labels[r], roles[r], page->left - ROW_LABEL_GAP,
					  top + ((double)r + 0.5) * TREND_LANE, ROW_LABEL_SIZE, RLI_ALIGN_END, RLI_ALIGN_MIDDLE)) < 0) {
			error = error < 0 ? error : rli_error_oom();
			goto done;
		}
		panel->row_labels[r].max_width = page->left - ROW_LABEL_GAP - PAGE_PAD;
	}
	for (size_t i = 0; i < cell_count; i++) {
		rli_point_mark *label;
		panel->bar_row[i] = cells[i].row;
		panel->bar_series[i] = cells[i].series;
		panel->bar_start[i] = (double)cells[i].point - CELL_HALF;
		panel->bar_end[i] = (double)cells[i].point + CELL_HALF;
		panel->row_first_bar[cells[i].row + 1]++;
		if (!numbered)
			continue;
		if (!(label = trend_point(m))) {
			error = rli_error_oom();
			goto done;
		}
		*label = (rli_point_mark){ .x = (double)cells[i].point, .y = (double)role_count - cells[i].row - 0.5,
					   .color = WHITE, .radius = 0 };
		{
			char text[24];
			double x = page->left + ((double)cells[i].point + 0.5) / (double)t->count * (page->right - page->left);
			snprintf(text, sizeof(text), "%lld", (long long)cells[i].rank);
			if ((error = rli_set_text(&label->label, text, x, top + ((double)cells[i].row + 0.5) * TREND_LANE,
						  CELL_TEXT_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
				goto done;
			label->label.bold = 1;
			label->label.color = text_on(m->series[cells[i].series].color);
		}
	}
	for (size_t r = 0; r < role_count; r++)
		panel->row_first_bar[r + 1] += panel->row_first_bar[r];
	panel->bar_count = cell_count;
	panel->points = m->points;
	panel->point_count = m->point_count;
	if ((error = rli_set_text(&panel->x_title, "", 0, 0, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)) < 0 ||
	    (error = rli_set_text(&panel->y_title, "", 0, 0, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0 ||
	    (error = trend_x_title(page, panel, x_title)) < 0)
		goto done;
	/* Where the cells are too narrow for their numbers, the ranks in words under the strip. */
	if (!numbered && rank_count) {
		size_t used = (size_t)snprintf(note, sizeof(note), "Straggler ranks (most runs first): ");
		size_t *times = calloc(rank_count, sizeof(*times));
		if (!times) {
			error = rli_error_oom();
			goto done;
		}
		for (size_t i = 0; i < cell_count; i++)
			times[cells[i].series]++;
		for (size_t listed = 0; listed < rank_count && listed < 12 && used < sizeof(note); listed++) {
			size_t best = 0;
			for (size_t i = 1; i < rank_count; i++)
				if (times[i] > times[best])
					best = i;
			used += (size_t)snprintf(note + used, sizeof(note) - used, "%s%lld (%zu)", listed ? ", " : "",
						 (long long)ranks[best], times[best]);
			times[best] = 0;
		}
		free(times);
		if (!trend_text(page, note, PAGE_PAD, page->y + 6, TREND_NOTE_SIZE, 0, TEXT_COLOR, RLI_ALIGN_START,
				RLI_ALIGN_MIDDLE, page->width - 2 * PAGE_PAD))
			error = RLI_ERROR;
		page->y += 22;
	}
	if (error == RLI_OK)
		error = trend_blank_labels(m);
done:
	for (size_t i = 0; names && i < rank_count; i++)
		free((char *)names[i]);
	free(names);
	free(colors);
	free(ranks);
	free(cells);
	free(roles);
	return error;
}

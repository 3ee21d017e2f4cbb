/* report_icicle.c: bytes allocated by call stack as an icicle chart: the first frame on top, each frame as wide as the bytes allocated under it. */
#include "report_icicle.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "layout/theme.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LANE 13.0            /* points a frame depth */
#define LABEL_SIZE 6.5
#define MIN_LABELLED 28.0    /* points: a narrower box keeps its colour and loses its text */
#define MAX_DEPTH 32
#define FRAME_SEPARATOR ";\r\n"

typedef struct {
	const char *text;
	size_t length;
} frame;

typedef struct {
	frame *frames;
	size_t depth;
	double kb;
} stack_path;

/* Frame by frame, then the shorter first: stacks sharing a path of frames end up side by side. */
static int compare_paths(const void *pa, const void *pb)
{
	const stack_path *a = pa, *b = pb;
	for (size_t i = 0; i < a->depth && i < b->depth; i++) {
		size_t n = a->frames[i].length < b->frames[i].length ? a->frames[i].length : b->frames[i].length;
		int c = memcmp(a->frames[i].text, b->frames[i].text, n);
		if (c)
			return c;
		if (a->frames[i].length != b->frames[i].length)
			return a->frames[i].length < b->frames[i].length ? -1 : 1;
	}
	return (a->depth > b->depth) - (a->depth < b->depth);
}

/* The frames of a stack, in its order; "" (no stack matched) is one frame of its own. */
static int split_frames(rli_book *book, stack_path *path, const char *stack)
{
	static const char unknown[] = "(no call stack)";
	size_t count = 1, sep = strlen(FRAME_SEPARATOR);
	const char *p = stack;

	if (!*stack) {
		if (!(path->frames = rli_book_alloc(book, 1, sizeof(frame))))
			return rli_error_oom();
		path->frames[0] = (frame){ unknown, sizeof(unknown) - 1 };
		path->depth = 1;
		return RLI_OK;
	}
	for (const char *q = strstr(p, FRAME_SEPARATOR); q; q = strstr(q + sep, FRAME_SEPARATOR))
		count++;
	if (!(path->frames = rli_book_alloc(book, count, sizeof(frame))))
		return rli_error_oom();
	path->depth = 0;
	for (;;) {
		const char *q = strstr(p, FRAME_SEPARATOR);
		size_t length = q ? (size_t)(q - p) : strlen(p);
		path->frames[path->depth++] = (frame){ p, length };
		if (!q)
			break;
		p = q + sep;
	}
	return RLI_OK;
}

/* Paths i and j share their first depth + 1 frames. */
static int same_prefix(const stack_path *i, const stack_path *j, size_t depth)
{
	if (i->depth <= depth || j->depth <= depth)
		return 0;
	for (size_t d = 0; d <= depth; d++)
		if (i->frames[d].length != j->frames[d].length ||
		    memcmp(i->frames[d].text, j->frames[d].text, i->frames[d].length) != 0)
			return 0;
	return 1;
}

/* A frame's colour: by its text as the timeline colours a name, lightened so dark text reads on it. */
static rli_color frame_color(const char *name)
{
	rli_color c = rli_palette_color(rli_name_hash(name) % rli_palette_size());
	return (((c >> 16 & 0xff) + 255) / 2) << 16 | (((c >> 8 & 0xff) + 255) / 2) << 8 | ((c & 0xff) + 255) / 2;
}

typedef struct {
	rli_panel *panel;
	rli_series *series;
	size_t boxes, capacity;
} icicle_boxes;

static int add_box(rli_book *book, icicle_boxes *b, const frame *f, size_t depth, double start, double end)
{
	rli_panel *p = b->panel;
	char *name;
	if (b->boxes == b->capacity)
		return rli_error_set(RLI_ERROR, "icicle: more boxes than counted");
	if (!(name = rli_book_keep(book, strndup(f->text, f->length))))
		return rli_error_oom();
	b->series[b->boxes] = (rli_series){ name, frame_color(name) };
	p->bar_row[b->boxes] = (uint32_t)depth;
	p->bar_series[b->boxes] = (uint32_t)b->boxes;
	p->bar_start[b->boxes] = start;
	p->bar_end[b->boxes] = end;
	b->boxes++;
	return RLI_OK;
}

/* Box labels: the frame's text inside every box wide enough to hold some of it. */
static int add_labels(rli_book *book, const rli_panel *p, const rli_series *series)
{
	double per_kb = p->plot.w / (p->x_max - p->x_min);
	for (size_t i = 0; i < p->bar_count; i++) {
		double w = (p->bar_end[i] - p->bar_start[i]) * per_kb;
		rli_text *t;
		int error;
		if (w < MIN_LABELLED)
			continue;
		if ((error = rli_book_text(book, &t, series[i].name, p->plot.x + p->bar_start[i] * per_kb + 2,
					   p->plot.y + ((double)p->bar_row[i] + 0.5) * LANE, LABEL_SIZE, 0,
					   RLI_ALIGN_START, RLI_ALIGN_MIDDLE)) < 0)
			return error;
		t->max_width = w - 4;
	}
	return RLI_OK;
}

int rli_report_icicle(rli_book *book, const rli_memory_device_stats *device)
{
	stack_path *paths = rli_book_alloc(book, device->stack_count, sizeof(*paths));
	double total = 0, *offset = rli_book_alloc(book, device->stack_count + 1, sizeof(double));
	size_t depth = 0, boxes = 0, shown_depth;
	icicle_boxes b = { 0 };
	rli_panel *p;
	char size[48];
	int error;

	if (!paths || !offset)
		return rli_error_oom();
	for (size_t i = 0; i < device->stack_count; i++) {
		if ((error = split_frames(book, &paths[i], device->stacks[i].text)) < 0)
			return error;
		paths[i].kb = device->stacks[i].allocated_kb;
		depth = paths[i].depth > depth ? paths[i].depth : depth;
	}
	qsort(paths, device->stack_count, sizeof(*paths), compare_paths);
	for (size_t i = 0; i < device->stack_count; i++) {
		offset[i] = total;
		total += paths[i].kb;
	}
	offset[device->stack_count] = total;
	if (!(total > 0) || !device->stack_count)
		return rli_book_paragraph(book, "No allocation to chart.", BOOK_BODY_SIZE, 0, BOOK_MUTED_COLOR);

	/* The lanes the rest of the page holds, at most MAX_DEPTH; a fresh page when fewer than four are left. */
	shown_depth = depth < MAX_DEPTH ? depth : MAX_DEPTH;
	if ((error = rli_book_need(book, LANE * (double)(shown_depth < 4 ? shown_depth : 4) + 40)) < 0)
		return error;
	if ((double)shown_depth * LANE > book->bottom - book->y - 40)
		shown_depth = (size_t)fmax(1.0, floor((book->bottom - book->y - 40) / LANE));
	for (size_t d = 0; d < shown_depth; d++)
		for (size_t i = 0; i < device->stack_count; i++)
			if (paths[i].depth > d && (i == 0 || !same_prefix(&paths[i - 1], &paths[i], d)))
				boxes++;

	if (!(p = rli_book_alloc(book, 1, sizeof(*p))) ||
	    !(b.series = rli_book_alloc(book, boxes, sizeof(rli_series))) ||
	    !(p->rows = rli_book_alloc(book, shown_depth, sizeof(rli_row))) ||
	    !(p->row_labels = rli_book_alloc(book, shown_depth, sizeof(rli_text))) ||
	    !(p->row_first_bar = rli_book_alloc(book, shown_depth + 1, sizeof(size_t))) ||
	    !(p->bar_row = rli_book_alloc(book, boxes, sizeof(uint32_t))) ||
	    !(p->bar_series = rli_book_alloc(book, boxes, sizeof(uint32_t))) ||
	    !(p->bar_start = rli_book_alloc(book, boxes, sizeof(double))) ||
	    !(p->bar_end = rli_book_alloc(book, boxes, sizeof(double))))
		return rli_error_oom();
	b.panel = p;
	b.capacity = boxes;
	/* Lane by lane, left to right: the order the panel's bars are drawn in (row, series, start). */
	for (size_t d = 0; d < shown_depth; d++) {
		p->row_first_bar[d] = b.boxes;
		p->rows[d] = (rli_row){ "", "", (int64_t)d };
		p->row_labels[d] = (rli_text){ .text = "" };
		for (size_t i = 0; i < device->stack_count; i++) {
			size_t end = i + 1;
			if (paths[i].depth <= d || (i > 0 && same_prefix(&paths[i - 1], &paths[i], d)))
				continue;
			while (end < device->stack_count && same_prefix(&paths[i], &paths[end], d))
				end++;
			if ((error = add_box(book, &b, &paths[i].frames[d], d, offset[i], offset[end])) < 0)
				return error;
		}
	}
	p->row_first_bar[shown_depth] = b.boxes;
	p->plot = (rli_rect){ book->left, book->y, book->right - book->left, (double)shown_depth * LANE };
	p->x_min = 0;
	p->x_max = total;
	p->row_count = shown_depth;
	p->row_pitch = LANE;
	p->bar_thickness = LANE - 1;
	p->bar_outline = 0xFFFFFF;
	p->bar_outline_width = 0.5;
	p->bar_outline_min_size = 1.5;
	p->series = b.series;
	p->series_count = b.boxes;
	p->bar_count = b.boxes;
	p->grid_color = GRID_COLOR;
	p->tick_label_size = LABEL_SIZE;
	p->x_title = (rli_text){ .text = rli_book_printf(book, "Width: bytes allocated under the frame, %s in all%s",
							 rli_fmt_size_kb(size, sizeof(size), total),
							 shown_depth < depth ? rli_book_printf(book,
							 "; stacks cut at depth %zu of %zu", shown_depth, depth) : ""),
				 .x = book->left, .y = book->y + p->plot.h + 4, .size = BOOK_SMALL_SIZE,
				 .color = BOOK_MUTED_COLOR, .halign = RLI_ALIGN_START, .valign = RLI_ALIGN_START };
	if (!p->x_title.text)
		return rli_error_oom();
	if ((error = rli_book_add(book, RLI_ITEM_PANEL, p)) < 0 || (error = add_labels(book, p, b.series)) < 0)
		return error;
	book->y += p->plot.h + 4 + BOOK_SMALL_SIZE * 2;
	return RLI_OK;
}

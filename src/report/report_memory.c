/* report_memory.c: the report's memory section: per device its facts, the memory figure, the blocks live at the peak, the call sites, and the icicle of bytes by call stack. */
#include "report_memory.h"
#include "report_icicle.h"
#include "report_table.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "layout/memory_figure.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The memory figure is laid out this wide (page units) and scaled to the report's content width. */
#define FIGURE_WIDTH 1100.0
#define MIN_FIGURE_ROOM 180.0
/* above the curve: its peak's label; below the Gantt: tick labels and the axis title */
#define FIGURE_ABOVE 24.0
#define FIGURE_BELOW 56.0
#define FIGURE_LABELS (FIGURE_ABOVE + FIGURE_BELOW)

static void dispose_devices(void *devices)
{
	rli_memory_devices_dispose(devices);
}

static void dispose_figure(void *holder)
{
	rli_memory_figure_free(*(rli_memory_figure **)holder);
}

static const char device_rule[] = "A device is a role and rank. ";
/* A PyTorch trace's table: devices by id too, and the reserve drawn beside the blocks. */
static const char torch_device_rule[] =
	"A device is a role, rank and device (CUDA:0, CUDA:1...); the second line on its curve is the trace's "
	"Total Reserved, what the caching allocator held at each event. ";
static const char rules[] =
	"Its curve is the allocator's own count where the profiler recorded it (Total Allocated: what was "
	"allocated before the capture began included), else the sum of the blocks allocated and not yet freed; a "
	"block never freed in the capture lives to its end. Times are from the device's first allocation. Call sites "
	"are the first frame of the call stack matched to the allocation's operator (an allocation without one "
	"is its own site).";

/*
 * How the allocations found where they came from: an Ascend row's call stack by its operator's
 * name and time; a PyTorch row its operator (and frames) around it on its thread, or none.
 */
static char *match_sentence(rli_book *book, const rli_memory_match_counts *m, int torch)
{
	if (torch)
		return rli_book_printf(book, "Operators: %zu found around the allocation, %zu none.", m->matched_inside,
				       m->unmatched);
	return rli_book_printf(book, "Call stacks: %zu matched inside their operator, %zu only to one that had "
			       "ended, %zu none.", m->matched_inside, m->matched_after_end, m->unmatched);
}

static int facts(rli_book *book, const rli_memory_device_stats *dev, int torch)
{
	char peak[48], at[48], total[48], never[48], abs[48], before[48], counted[160];
	const char *matches = match_sentence(book, &dev->matches, torch);
	char *text;
	/* Which curve the peak is on: the allocator's count, with what it held before the capture, or the blocks'. */
	if (dev->allocator_count)
		snprintf(counted, sizeof(counted), " (the allocator's Total Allocated; %s already allocated when the "
			 "capture began)", rli_fmt_size_kb(before, sizeof(before), dev->before_mb * 1024.0));
	else
		counted[0] = '\0'; /* the blocks' own sum, as the figure's legend and axis say */
	text = !matches ? NULL : rli_book_printf(book,
		"Peak %s%s at %s%s%s%s; %zu allocations, %s in all; %zu never freed (%s). %s",
		rli_fmt_size_kb(peak, sizeof(peak), dev->peak_mb * 1024.0), counted,
		rli_fmt_duration(at, sizeof(at), dev->peak_ms),
		rli_is_epoch_ms(dev->peak_abs_ms) ? " (" : "",
		rli_is_epoch_ms(dev->peak_abs_ms) ? rli_fmt_utc(abs, sizeof(abs), dev->peak_abs_ms) : "",
		rli_is_epoch_ms(dev->peak_abs_ms) ? ")" : "", dev->allocations,
		rli_fmt_size_kb(total, sizeof(total), dev->allocated_kb), dev->never_freed,
		rli_fmt_size_kb(never, sizeof(never), dev->never_freed_kb), matches);
	if (!text)
		return rli_error_oom();
	return rli_book_paragraph(book, text, BOOK_BODY_SIZE, 0, BOOK_TEXT_COLOR);
}

/* The figure's curve and Gantt (not its title or table: the report says those its own way), scaled to fit. */
static int figure(rli_book *book, const rli_memory_device *device)
{
	rli_memory_figure **holder = calloc(1, sizeof(*holder));
	rli_timeline_options options;
	const rli_page *page;
	double top = INFINITY, bottom = 0, above;
	int error;

	if (!holder)
		return rli_error_oom();
	if ((error = rli_book_keep_disposable(book, holder, dispose_figure)) < 0)
		return error;
	rli_timeline_options_init(&options);
	options.width = (int)FIGURE_WIDTH;
	options.medium = RLI_MEDIUM_VECTOR;
	{
		/*
		 * The curve and Gantt fill the room left on the page, or a fresh page's, at the page's width:
		 * a device of many operators gets closer lanes rather than a figure shrunk to a strip.
		 */
		double f = (book->right - book->left) / FIGURE_WIDTH, room = book->bottom - book->y;
		if (room < MIN_FIGURE_ROOM)
			room = book->bottom - book->top;
		options.max_height = fmax(MIN_FIGURE_ROOM, room / f - FIGURE_LABELS);
	}
	if ((error = rli_memory_figure_layout(holder, device, 1, &options)) < 0)
		return error == RLI_EINVALID ? RLI_OK : error; /* no allocation to draw: the tables say so */
	page = &rli_memory_figure_document(*holder)->pages[0];
	for (size_t i = 0; i < page->item_count; i++)
		if (page->items[i].kind == RLI_ITEM_PANEL) {
			const rli_panel *panel = page->items[i].u.panel;
			top = fmin(top, panel->plot.y);
			bottom = fmax(bottom, panel->plot.y + panel->plot.h);
		}
	if (!isfinite(top))
		return RLI_OK;
	/* never as far up as the texts over the curve (the title, the line under it), which the report says its own way */
	above = top - FIGURE_ABOVE;
	for (size_t i = 0; i < page->item_count; i++)
		if (page->items[i].kind == RLI_ITEM_TEXT) {
			const rli_text *t = page->items[i].u.text;
			double low = t->y + (t->valign == RLI_ALIGN_START ? 1.0 : t->valign == RLI_ALIGN_MIDDLE ? 0.6 : 0.25) * t->size;
			if (t->y < top && t->angle == 0)
				above = fmax(above, low);
		}
	return rli_book_figure(book, page, above, bottom + FIGURE_BELOW, MIN_FIGURE_ROOM);
}

static int live_table(rli_book *book, const rli_memory_device_stats *dev)
{
	static const char *const header[] = { "Operator", "Size", "Start", "Lived", "Call site (first frame)" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_START };
	static const double weight[] = { 1.0, 0.1, 0.1, 0.1, 2.0 };
	rli_text_table t;
	char a[48], b[48], c[48];
	int error = rli_text_table_new(book, &t, "Largest blocks live at the peak", 5, dev->top_live_count, header,
				       align, weight);
	for (size_t r = 0; error == RLI_OK && r < dev->top_live_count; r++) {
		const rli_memory_live_block *k = &dev->top_live[r];
		if ((error = rli_text_table_set(book, &t, r, 0, "%s", k->op_name)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", rli_fmt_size_kb(a, sizeof(a), k->size_kb))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%s", rli_fmt_duration(b, sizeof(b), k->start_ms))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%s%s", rli_fmt_duration(c, sizeof(c), k->duration_ms),
						k->never_freed ? " (never freed)" : "")) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 4, "%s", *k->call_stack_top ? k->call_stack_top : "(none)");
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

/* Call sites, the first `count` of `order` (NULL: the sites in their order). */
static int sites_table(rli_book *book, const rli_memory_device_stats *dev, const char *title, const size_t *order,
		       size_t count)
{
	static const char *const header[] = { "Call site (first frame)", "Allocations", "Allocated", "Live at peak",
					      "Share of peak" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_END };
	static const double weight[] = { 3.0, 0.1, 0.1, 0.1, 0.1 };
	rli_text_table t;
	char a[48], b[48], c[48];
	int error = rli_text_table_new(book, &t, title, 5, count, header, align, weight);
	for (size_t r = 0; error == RLI_OK && r < count; r++) {
		const rli_memory_site *s = &dev->sites[order ? order[r] : r];
		if ((error = rli_text_table_set(book, &t, r, 0, "%s", *s->text ? s->text : "(no call stack)")) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", rli_fmt_thousands(a, sizeof(a), (double)s->count,
											0))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%s", rli_fmt_size_kb(b, sizeof(b), s->allocated_kb))) < 0)
			break;
		if ((error = rli_text_table_set(book, &t, r, 3, "%s", rli_fmt_size_kb(c, sizeof(c), s->live_kb))) == RLI_OK)
			error = rli_text_table_set(book, &t, r, 4, "%.1f%%", s->peak_share * 100.0);
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

/* 1 when the split device is the statistics' device: the same (role, rank, device type). */
static int same_device(const rli_memory_device *device, const rli_memory_device_stats *dev)
{
	return device->rank == dev->rank && strcmp(device->role, dev->role) == 0 &&
	       strcmp(device->device_type, dev->device_type) == 0;
}

/* The split device of the statistics' device (the same order, checked). */
static const rli_memory_device *device_of(const rli_memory_devices *devices, const rli_memory_device_stats *dev,
					  size_t d)
{
	if (d < devices->count && same_device(&devices->devices[d], dev))
		return &devices->devices[d];
	for (size_t i = 0; i < devices->count; i++)
		if (same_device(&devices->devices[i], dev))
			return &devices->devices[i];
	return NULL;
}

int rli_report_memory(rli_book *book, const rli_memory *memory, const rli_memory_stats *stats)
{
	rli_memory_devices *devices = calloc(1, sizeof(*devices));
	const char *intro = NULL;
	int error = RLI_OK;

	if (!devices)
		return rli_error_oom();
	if ((error = rli_memory_devices_split(devices, memory, 0)) < 0) {
		rli_memory_devices_dispose(devices);
		free(devices);
		return error;
	}
	if ((error = rli_book_keep_disposable(book, devices, dispose_devices)) < 0 ||
	    (error = rli_book_heading(book, "Memory", 0)) < 0 ||
	    !(intro = rli_book_printf(book, "%s%s", memory->shows_reserved ? torch_device_rule : device_rule, rules)) ||
	    (error = rli_book_paragraph(book, intro, BOOK_BODY_SIZE, 0, BOOK_TEXT_COLOR)) < 0)
		return error < 0 ? error : rli_error_oom();
	book->y += BOOK_BODY_SIZE;
	for (size_t d = 0; d < stats->device_count; d++) {
		const rli_memory_device_stats *dev = &stats->devices[d];
		const rli_memory_device *device = device_of(devices, dev, d);
		char *title = rli_book_printf(book, "%s rank %lld%s%s%s", dev->role, (long long)dev->rank,
					      *dev->device_type ? " (" : "", dev->device_type, *dev->device_type ? ")" : "");
		if (!title)
			return rli_error_oom();
		/* Each device opens a page: its figure and tables read together. */
		if (d > 0 && (error = rli_book_new_page(book)) < 0)
			return error;
		if ((error = rli_book_heading(book, title, 1)) < 0 || (error = facts(book, dev, memory->shows_reserved)) < 0)
			return error;
		book->y += BOOK_BODY_SIZE / 2;
		if (device && (error = figure(book, device)) < 0)
			return error;
		if ((error = live_table(book, dev)) < 0 ||
		    (error = sites_table(book, dev, "Call sites by bytes allocated", NULL,
					 dev->site_count < RLI_MEMORY_STATS_TOP ? dev->site_count : RLI_MEMORY_STATS_TOP)) < 0 ||
		    (error = sites_table(book, dev, "Call sites by bytes live at the peak", dev->sites_by_live,
					 dev->sites_by_live_count)) < 0)
			return error;
		if ((error = rli_book_need(book, 120)) < 0 ||
		    (error = rli_book_text(book, NULL, "Bytes allocated by call stack (first frame on top)", book->left,
					   book->y, BOOK_BODY_SIZE, 1, RLI_ALIGN_START, RLI_ALIGN_START)) < 0)
			return error;
		book->y += BOOK_BODY_SIZE * 1.6;
		if ((error = rli_report_icicle(book, dev)) < 0)
			return error;
	}
	return RLI_OK;
}

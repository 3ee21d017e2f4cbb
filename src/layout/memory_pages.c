/* memory_pages.c: the interactive memory pages' document: the table's allocations by device, a device's pages, the index. */
#include "memory_pages.h"
#include "memory_parts.h"
#include "memory/memory_devices.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "common/task.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The index: a row per device (its peak, its first page linked), then every device's pages. */
static int lay_out_index(rli_memory_pages *mp, rli_page *page, double width)
{
	static const char *const headers[] = { "Device", "Allocations", "Peak (MB)", "Peak at (ms)", "Never freed",
					       "Pages" };
	const size_t columns = sizeof(headers) / sizeof(headers[0]), rows = mp->device_count;
	rli_table *t = &mp->index_table;
	char **cells;
	int error;

	mp->index_items = calloc(2 + rows, sizeof(*mp->index_items));
	mp->index_navs = calloc(rows, sizeof(*mp->index_navs));
	mp->index_links = calloc(rows * columns, sizeof(*mp->index_links));
	t->header = calloc(columns, sizeof(*t->header));
	t->cells = cells = calloc(rows * columns, sizeof(*t->cells));
	t->column_x = calloc(columns, sizeof(double));
	t->column_width = calloc(columns, sizeof(double));
	t->align = calloc(columns, sizeof(*t->align));
	if (!mp->index_items || !mp->index_navs || !mp->index_links || !t->header || !cells || !t->column_x ||
	    !t->column_width || !t->align)
		return rli_error_oom();
	t->column_count = columns;
	t->row_count = rows;
	t->x = PAGE_PAD;
	t->y = 70;
	t->font_size = 13;
	t->row_height = 22;
	t->text_color = TEXT_COLOR;
	t->rule_color = 0xBBBBBB;
	t->links = mp->index_links;
	for (size_t c = 0; c < columns; c++) {
		t->column_x[c] = PAGE_PAD + (double)c * (width - 2 * PAGE_PAD) / (double)columns;
		t->column_width[c] = (width - 2 * PAGE_PAD) / (double)columns - 12;
		t->align[c] = c == 0 ? RLI_ALIGN_START : RLI_ALIGN_END;
		if (!(t->header[c] = rli_strdup(headers[c])))
			return rli_error_oom();
	}
	for (size_t r = 0; r < rows; r++) {
		const mp_device *d = &mp->devices[r];
		char **row = &cells[r * columns];
		rli_nav *nav = &mp->index_navs[r];
		row[0] = rli_strdup(d->label);
		char count[32], peak[48], at[48], never[32];
		rli_fmt_thousands(count, sizeof(count), (double)d->bars, 0);
		rli_fmt_thousands(peak, sizeof(peak), d->peak_mb, 2);
		/* From the pages' t = 0: the devices' peaks line up. */
		rli_fmt_thousands(at, sizeof(at), d->shift + d->peak_ms, 3);
		rli_fmt_thousands(never, sizeof(never), (double)d->never_freed, 0);
		row[1] = rli_strdup(count);
		row[2] = rli_strdup(peak);
		row[3] = rli_strdup(at);
		row[4] = rli_strdup(never);
		row[5] = rli_strfmt("%zu", d->page_count);
		for (size_t c = 0; c < columns; c++)
			if (!row[c])
				return rli_error_oom();
		/* The device's name opens the page of its peak, or its first page. */
		mp->index_links[r * columns] = d->seg[0].name;
		for (size_t s = 0; s < d->segment_count; s++)
			if (d->links[s].target && d->shift + d->peak_ms >= d->links[s].x_min &&
			    d->shift + d->peak_ms <= d->links[s].x_max) {
				mp->index_links[r * columns] = d->links[s].target;
				break;
			}
		nav->links = d->links;
		nav->link_count = d->segment_count;
		nav->current = nav->previous = nav->next = SIZE_MAX;
		nav->total = d->bars;
		if ((error = rli_set_text(&nav->title, d->label, PAGE_PAD, 0, LEGEND_SIZE, RLI_ALIGN_START,
					  RLI_ALIGN_START)) < 0)
			return error;
		mp->index_items[2 + r] = (rli_item){ .kind = RLI_ITEM_NAV, .u.nav = nav };
	}
	if ((error = rli_set_text(&mp->index_title, "Device memory: every device's pages", width / 2, MP_TITLE_Y,
				  TITLE_SIZE * 0.8, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE)) < 0)
		return error;
	mp->index_title.bold = 1;
	mp->index_items[0] = (rli_item){ .kind = RLI_ITEM_TEXT, .u.text = &mp->index_title };
	mp->index_items[1] = (rli_item){ .kind = RLI_ITEM_TABLE, .u.table = t };
	page->width = width;
	page->height = t->y + t->row_height * (double)(rows + 1) + PAGE_PAD;
	page->name = "index";
	page->items = mp->index_items;
	page->item_count = 2 + rows;
	return RLI_OK;
}

/* What each device's layout, on whichever thread, reads. */
typedef struct {
	rli_memory_pages *mp;
	const rli_memory *memory;
	const rli_memory_devices *split;
	const size_t *shown; /* the page's device d is the split's shown[d] */
	double width;
} devices_work;

static int lay_out_device(void *arg, size_t d, PangoContext *text, unsigned inner)
{
	const devices_work *w = arg;
	/* inner: the threads of a device laid out alone, its segments beside its curve; its pages are the document's */
	return mp_lay_out_device(&w->mp->devices[d], w->mp->document.origin, w->memory, &w->split->devices[w->shown[d]],
				 rli_memory_device_rows(w->split, w->shown[d]), w->width, text, inner);
}

/* ---- the devices' pages, made when drawn or all at once ---- */

/* Columns for a page to be made: a dropped page's where there is one, else none yet (grown as made). */
static void take_spare(rli_memory_pages *mp, mp_bars *bars)
{
	memset(bars, 0, sizeof(*bars));
	pthread_mutex_lock(&mp->spare_lock);
	if (mp->spare_count)
		*bars = mp->spare[--mp->spare_count];
	pthread_mutex_unlock(&mp->spare_lock);
}

static void give_spare(rli_memory_pages *mp, mp_bars *bars)
{
	pthread_mutex_lock(&mp->spare_lock);
	if (mp->spare_count < MP_SPARE_BARS) {
		mp->spare[mp->spare_count++] = *bars;
		memset(bars, 0, sizeof(*bars));
	}
	pthread_mutex_unlock(&mp->spare_lock);
	mp_bars_free(bars); /* none when kept */
}

static int load_page(void *owner, size_t p)
{
	rli_memory_pages *mp = owner;
	mp_device *d;
	mp_bars bars;
	size_t j;
	int error;

	if (p >= mp->device_pages)
		return RLI_OK; /* the index, made with the document */
	d = &mp->devices[mp->page_device[p]];
	j = p - d->first_page;
	if (d->seg[j].made)
		return RLI_OK;
	take_spare(mp, &bars);
	if ((error = mp_make_page(d, j, &mp->pages[p], &bars)) < 0)
		return error; /* what it made is freed when dropped, or with the pages */
	d->seg[j].details.stacks = mp->stacks;
	d->seg[j].details.stack_count = mp->stack_count;
	d->seg[j].nav.up = mp->up;
	d->seg[j].nav.timeline = mp->timeline;
	d->seg[j].nav.device = &d->named;
	return RLI_OK;
}

static void drop_page(void *owner, size_t p)
{
	rli_memory_pages *mp = owner;
	mp_device *d;
	mp_bars bars;

	if (p >= mp->device_pages)
		return;
	d = &mp->devices[mp->page_device[p]];
	memset(&bars, 0, sizeof(bars));
	mp_unmake_page(d, p - d->first_page, &mp->pages[p], &bars);
	give_spare(mp, &bars);
}

static int lay_out(rli_memory_pages **out, const rli_memory *memory, const rli_memory_devices *split,
		   const rli_timeline_options *options_in, int lazy)
{
	rli_timeline_options options;
	rli_memory_pages *mp = calloc(1, sizeof(*mp));
	size_t *shown = NULL; /* the split devices that hold a block to draw */
	size_t page_count = 0;
	devices_work work;
	int error;

	*out = NULL;
	if (options_in)
		options = *options_in;
	else
		rli_timeline_options_init(&options);
	if (!mp) {
		error = rli_error_oom();
		goto done;
	}
	if (pthread_mutex_init(&mp->spare_lock, NULL) != 0) {
		error = rli_error_set(RLI_ERROR, "cannot create a mutex");
		goto done;
	}
	mp->spare_lock_made = 1;
	if (options.width < RLI_TIMELINE_MIN_WIDTH || options.width > RLI_TIMELINE_MAX_WIDTH) {
		error = rli_error_set(RLI_EUSAGE, "memory pages: width %d out of range", options.width);
		goto done;
	}
	/* The devices as the figure has them; one whose allocations have no finite start draws nothing. */
	if (!(shown = malloc((split->count ? split->count : 1) * sizeof(*shown)))) {
		error = rli_error_oom();
		goto done;
	}
	/* One time origin for every page, the first allocation of all: devices line up when compared. */
	mp->document.origin = INFINITY;
	for (size_t d = 0; d < split->count; d++) {
		int any = 0;
		for (size_t i = 0; i < split->devices[d].count; i++)
			if (isfinite(split->devices[d].start_ms[i])) {
				mp->document.origin = fmin(mp->document.origin, split->devices[d].start_ms[i]);
				any = 1;
			}
		if (any)
			shown[mp->device_count++] = d;
	}
	if (!mp->device_count) {
		error = rli_error_set(RLI_EINVALID, "nothing to draw: no device has an allocation");
		goto done;
	}
	/* The run's t = 0 where it comes before (its first event may be a timeline's bar): every page of a run alike. */
	if (options.run && isfinite(options.run->origin_ms) && options.run->origin_ms < mp->document.origin)
		mp->document.origin = options.run->origin_ms;
	/* The run's home page lists the devices; without one, an index does where there are several. */
	mp->up = options.run && options.run->home ? options.run->home : mp->device_count > 1 ? "index" : NULL;
	mp->timeline = options.run ? options.run->timeline : NULL;

	mp->devices = calloc(mp->device_count, sizeof(*mp->devices));
	mp->stacks = calloc(memory->strings.count ? memory->strings.count : 1, sizeof(*mp->stacks));
	if (!mp->devices || !mp->stacks) {
		error = rli_error_oom();
		goto done;
	}
	mp->stack_count = memory->strings.count;
	for (uint32_t i = 0; i < memory->strings.count; i++)
		mp->stacks[i] = rli_strpool_get(&memory->strings, i);
	for (size_t d = 0; d < mp->device_count; d++) {
		const rli_memory_device *from = &split->devices[shown[d]];
		mp_device *device = &mp->devices[d];
		const char *role = from->role;
		device->role = role && *role ? role : "unknown";
		device->rank = from->rank;
		device->split_index = shown[d];
		device->tag = rli_memory_device_tag(from);
		if (!(device->label = rli_strfmt("%s - Rank %lld%s%s", device->role, (long long)device->rank,
						 rli_memory_device_space(from), device->tag)) ||
		    (error = mp_device_suffix(device, mp->device_count > 1)) < 0) {
			error = rli_error_oom();
			goto done;
		}
		device->named = (rli_row){ device->label, (char *)device->role, device->rank };
		/* Two roles that differ only in characters a file name cannot hold would collide: number the later one. */
		for (size_t e = 0; e < d; e++)
			if (strcmp(mp->devices[e].suffix, device->suffix) == 0) {
				char *numbered = rli_strfmt("%s_%zu", device->suffix, d);
				if (!numbered) {
					error = rli_error_oom();
					goto done;
				}
				free(device->suffix);
				device->suffix = numbered;
				e = (size_t)-1; /* look again from the first */
			}
	}
	/*
	 * Each device on its own, on as many threads as asked, however many blocks each holds: what
	 * a device's layout allocates it keeps for its pages, laid out one at a time or together
	 * (the figure's layout holds its own working memory, and shares devices out more warily).
	 */
	work = (devices_work){ mp, memory, split, shown, options.width };
	if ((error = rli_memory_lay_out_devices(NULL, shown, mp->device_count, options.threads, lay_out_device,
					       &work)) < 0)
		goto done;
	for (size_t d = 0; d < mp->device_count; d++)
		page_count += mp->devices[d].page_count;
	if (!(mp->pages = calloc(page_count + 1, sizeof(*mp->pages))) ||
	    !(mp->page_device = calloc(page_count + 1, sizeof(*mp->page_device)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t d = 0; d < mp->device_count; d++) {
		mp_device *device = &mp->devices[d];
		device->first_page = mp->document.page_count;
		for (size_t p = 0; p < device->page_count; p++) {
			mp->pages[mp->document.page_count].name = device->seg[p].name;
			mp->pages[mp->document.page_count].data_name = device->seg[p].data_name;
			mp->page_device[mp->document.page_count++] = d;
		}
	}
	mp->device_pages = mp->document.page_count;
	if (lazy) {
		mp->document.owner = mp;
		mp->document.load_page = load_page;
		mp->document.drop_page = drop_page;
	} else {
		/* Every page now, on as many threads as asked; then what they were made from goes. */
		if ((error = rli_task_each(mp->device_pages, options.threads, load_page, mp)) < 0)
			goto done;
		for (size_t d = 0; d < mp->device_count; d++)
			mp_device_drop_sources(&mp->devices[d]);
	}
	if (mp->device_count > 1 && !(options.run && options.run->home)) {
		if ((error = lay_out_index(mp, &mp->pages[mp->document.page_count], options.width)) < 0)
			goto done;
		mp->document.page_count++;
	}
	mp->document.name = "memory_timeline";
	mp->document.title = "Memory Timeline";
	mp->document.scale = 1;
	mp->document.raster_scale = 1;
	mp->document.background = WHITE;
	mp->document.text_color = TEXT_COLOR;
	mp->document.font_family = RLI_TEXT_FAMILY;
	mp->document.file_per_page = 1;
	mp->document.pages = mp->pages;
	*out = mp;
	mp = NULL;
	error = RLI_OK;
done:
	free(shown);
	rli_memory_pages_free(mp);
	return error;
}

int rli_memory_pages_layout_split(rli_memory_pages **out, const rli_memory *memory, const rli_memory_devices *split,
				  const rli_timeline_options *options)
{
	return lay_out(out, memory, split, options, 0);
}

int rli_memory_pages_layout_lazy(rli_memory_pages **out, const rli_memory *memory, const rli_memory_devices *split,
				 const rli_timeline_options *options)
{
	return lay_out(out, memory, split, options, 1);
}

int rli_memory_pages_layout(rli_memory_pages **out, const rli_memory *memory, const rli_timeline_options *options)
{
	rli_memory_devices split = { 0 };
	int error;

	*out = NULL;
	if ((error = rli_memory_devices_split(&split, memory, options ? options->threads : 0)) == RLI_OK)
		error = rli_memory_pages_layout_split(out, memory, &split, options);
	rli_memory_devices_dispose(&split);
	return error;
}

void rli_memory_pages_summaries(const rli_memory_pages *pages, rli_memory_summary *copies,
				const rli_memory_summary **known, size_t split_count)
{
	for (size_t i = 0; i < split_count; i++)
		known[i] = NULL;
	for (size_t d = 0; d < pages->device_count; d++) {
		size_t i = pages->devices[d].split_index;
		if (i < split_count) {
			copies[i] = pages->devices[d].summary;
			known[i] = &copies[i];
		}
	}
}

void rli_run_devices_free(rli_run_device *devices, size_t count)
{
	for (size_t d = 0; devices && d < count; d++) {
		for (size_t s = 0; devices[d].segment_pages && s < devices[d].segment_count; s++)
			free((char *)devices[d].segment_pages[s]);
		free((char *)devices[d].role);
		free((char *)devices[d].label);
		free((char *)devices[d].peak_page);
		free((void *)devices[d].segment_pages);
		free((void *)devices[d].segment_min);
	}
	free(devices);
}

/* A copy of text, NULL staying NULL; *failed set when out of memory. */
static char *copy_or_null(const char *text, int *failed)
{
	char *copy = text ? rli_strdup(text) : NULL;
	if (text && !copy)
		*failed = 1;
	return copy;
}

int rli_memory_pages_run_devices(const rli_memory_pages *mp, rli_run_device **out, size_t *count)
{
	rli_run_device *devices = calloc(mp->device_count ? mp->device_count : 1, sizeof(*devices));
	int failed = !devices;

	for (size_t d = 0; !failed && d < mp->device_count; d++) {
		const mp_device *from = &mp->devices[d];
		rli_run_device *to = &devices[d];
		size_t n = from->segment_count;
		const char **pages = calloc(n ? n : 1, sizeof(*pages));
		double *span = malloc(2 * (n ? n : 1) * sizeof(*span));

		to->segment_pages = pages;
		to->segment_min = span;
		if (!pages || !span) {
			free(span);
			to->segment_min = NULL;
			failed = 1;
			break;
		}
		to->segment_max = span + n;
		to->segment_count = n;
		to->rank = from->rank;
		to->role = copy_or_null(from->role, &failed);
		to->label = copy_or_null(from->label, &failed);
		to->peak_mb = from->peak_mb;
		to->peak_ms = from->shift + from->peak_ms;
		to->allocations = from->bars;
		to->never_freed = from->never_freed;
		for (size_t s = 0; s < n; s++) {
			pages[s] = copy_or_null(from->links[s].target, &failed);
			span[s] = from->links[s].x_min;
			span[n + s] = from->links[s].x_max;
			if (from->links[s].target && !to->peak_page && to->peak_ms >= span[s] && to->peak_ms <= span[n + s])
				to->peak_page = copy_or_null(from->links[s].target, &failed);
		}
		if (!to->peak_page && from->page_count)
			to->peak_page = copy_or_null(from->seg[0].name, &failed);
	}
	if (failed) {
		rli_run_devices_free(devices, mp->device_count);
		return rli_error_oom();
	}
	*out = devices;
	*count = mp->device_count;
	return RLI_OK;
}

const rli_document *rli_memory_pages_document(const rli_memory_pages *pages)
{
	return &pages->document;
}

void rli_memory_pages_free(rli_memory_pages *mp)
{
	if (!mp)
		return;
	for (size_t d = 0; mp->devices && d < mp->device_count; d++)
		mp_device_dispose(&mp->devices[d]);
	for (size_t r = 0; mp->index_navs && r < mp->device_count; r++)
		free(mp->index_navs[r].title.text);
	for (size_t c = 0; mp->index_table.header && c < mp->index_table.column_count; c++)
		free(mp->index_table.header[c]);
	for (size_t i = 0; mp->index_table.cells && i < mp->index_table.row_count * mp->index_table.column_count; i++)
		free(mp->index_table.cells[i]);
	free(mp->index_table.header);
	free(mp->index_table.cells);
	free(mp->index_table.column_x);
	free(mp->index_table.column_width);
	free(mp->index_table.align);
	free(mp->index_title.text);
	free(mp->index_items);
	free(mp->index_navs);
	free((void *)mp->index_links);
	free(mp->stacks);
	free(mp->pages);
	free(mp->page_device);
	free(mp->devices);
	for (size_t i = 0; i < mp->spare_count; i++)
		mp_bars_free(&mp->spare[i]);
	if (mp->spare_lock_made)
		pthread_mutex_destroy(&mp->spare_lock);
	free(mp);
}

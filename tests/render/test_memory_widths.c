/* test_memory_widths.c: the memory figure at every width from 300 to 20,000: text on the page and apart, PNG and PDF alike, a narrow golden. */
#include "harness.h"
#include "render_cases.h"
#include "layout/memory_figure.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const int widths[] = { 300, 400, 600, 700, 2000, 10000, 20000 };

/* ---- text as the painter places it ------------------------------------- */

typedef struct {
	double x0, y0, x1, y1;
	char what[96];
} box;

typedef struct {
	box *items;
	size_t count, capacity;
} boxes;

/* The box the painter's draw_text fills: the logical extents, aligned on the anchor, rotated about it. */
static void add_text(boxes *list, PangoContext *context, const rli_text *t, const char *kind)
{
	PangoLayout *layout;
	PangoRectangle logical;
	double w, h, dx = 0, dy = 0;
	box *b;

	if (!t->text || !*t->text)
		return;
	if (list->count == list->capacity) {
		list->capacity = list->capacity ? 2 * list->capacity : 64;
		if (!(list->items = realloc(list->items, list->capacity * sizeof(*list->items))))
			exit(1);
	}
	layout = rli_text_layout_new(context, t->text, t->size, t->bold);
	if (t->max_width > 0.0) {
		pango_layout_set_width(layout, (int)(t->max_width * PANGO_SCALE));
		pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
	}
	pango_layout_get_extents(layout, NULL, &logical);
	g_object_unref(layout);
	w = (double)logical.width / PANGO_SCALE;
	h = (double)logical.height / PANGO_SCALE;
	if (t->halign == RLI_ALIGN_MIDDLE)
		dx = -w / 2;
	else if (t->halign == RLI_ALIGN_END)
		dx = -w;
	if (t->valign == RLI_ALIGN_MIDDLE)
		dy = -h / 2;
	else if (t->valign == RLI_ALIGN_END)
		dy = -h;
	b = &list->items[list->count++];
	if (t->angle == 90.0) /* reads upward: (u, v) turns to (v, -u) */
		*b = (box){ t->x + dy, t->y - dx - w, t->x + dy + h, t->y - dx, "" };
	else
		*b = (box){ t->x + dx, t->y + dy, t->x + dx + w, t->y + dy + h, "" };
	snprintf(b->what, sizeof(b->what), "%s '%.60s'", kind, t->text);
}

static void add_panel(boxes *list, PangoContext *context, const rli_panel *p)
{
	double span = p->y_max > p->y_min ? p->y_max - p->y_min : 1.0;
	for (size_t i = 0; i < p->xtick_count; i++) {
		rli_text tick = { .text = (char *)p->xticks[i].label,
				  .x = p->plot.x + (p->xticks[i].value - p->x_min) / (p->x_max - p->x_min) * p->plot.w,
				  .y = p->plot.y + p->plot.h + p->tick_label_gap, .size = p->tick_label_size,
				  .halign = RLI_ALIGN_MIDDLE, .valign = RLI_ALIGN_START };
		add_text(list, context, &tick, "x tick");
	}
	for (size_t i = 0; p->y_scale == RLI_Y_VALUES && i < p->ytick_count; i++) {
		rli_text tick = { .text = (char *)p->yticks[i].label, .x = p->plot.x - p->tick_label_gap,
				  .y = p->plot.y + p->plot.h - (p->yticks[i].value - p->y_min) / span * p->plot.h,
				  .size = p->tick_label_size, .halign = RLI_ALIGN_END, .valign = RLI_ALIGN_MIDDLE };
		add_text(list, context, &tick, "y tick");
	}
	for (size_t r = 0; r < p->row_count; r++)
		add_text(list, context, &p->row_labels[r], "lane label");
	for (size_t i = 0; i < p->point_count; i++)
		add_text(list, context, &p->points[i].label, "point label");
	add_text(list, context, &p->x_title, "x title");
	add_text(list, context, &p->y_title, "y title");
}

static void add_table(boxes *list, PangoContext *context, const rli_table *t)
{
	for (size_t r = 0; r <= t->row_count; r++) {
		for (size_t c = 0; c < t->column_count; c++) {
			rli_text cell = { .text = r ? t->cells[(r - 1) * t->column_count + c] : t->header[c],
					  .x = t->column_x[c] + (t->align[c] == RLI_ALIGN_END ? t->column_width[c] : 0),
					  .y = t->y + (double)r * t->row_height + t->row_height / 2,
					  .size = t->font_size, .bold = r == 0, .halign = t->align[c],
					  .valign = RLI_ALIGN_MIDDLE, .max_width = t->column_width[c] };
			add_text(list, context, &cell, r ? "cell" : "header");
		}
	}
}

#define SLACK 0.5 /* page units two boxes may share: touching is not overlapping */

/* Every text inside the page and clear of every other; plots and table columns on the page. */
static void check_model(const char *what, const rli_page *page, PangoContext *context)
{
	boxes list = { 0 };
	const rli_panel *gantt = NULL;
	const rli_table *table = NULL;

	for (size_t i = 0; i < page->item_count; i++) {
		const rli_item *item = &page->items[i];
		if (item->kind == RLI_ITEM_TEXT) {
			add_text(&list, context, item->u.text, "text");
		} else if (item->kind == RLI_ITEM_PANEL) {
			const rli_panel *p = item->u.panel;
			add_panel(&list, context, p);
			gantt = p->y_scale == RLI_Y_LANES ? p : gantt;
			if (p->plot.x < 0 || p->plot.y < 0 || p->plot.x + p->plot.w > page->width ||
			    p->plot.y + p->plot.h > page->height || p->plot.w < 0.1 * page->width) {
				fprintf(stderr, "%s: plot %.1f,%.1f %.1fx%.1f off a %.0fx%.0f page\n", what, p->plot.x,
					p->plot.y, p->plot.w, p->plot.h, page->width, page->height);
				rli_test_failures++;
			}
		} else if (item->kind == RLI_ITEM_TABLE) {
			table = item->u.table;
			add_table(&list, context, table);
		}
	}
	for (size_t i = 0; i < list.count; i++) {
		const box *a = &list.items[i];
		if (a->x0 < -SLACK || a->y0 < -SLACK || a->x1 > page->width + SLACK || a->y1 > page->height + SLACK) {
			fprintf(stderr, "%s: %s at %.1f..%.1f x %.1f..%.1f leaves the %.0fx%.0f page\n", what, a->what,
				a->x0, a->x1, a->y0, a->y1, page->width, page->height);
			rli_test_failures++;
		}
		for (size_t j = i + 1; j < list.count; j++) {
			const box *b = &list.items[j];
			if (fmin(a->x1, b->x1) - fmax(a->x0, b->x0) > SLACK &&
			    fmin(a->y1, b->y1) - fmax(a->y0, b->y0) > SLACK) {
				fprintf(stderr, "%s: %s overlaps %s\n", what, a->what, b->what);
				rli_test_failures++;
			}
		}
	}
	CHECK(gantt != NULL && table != NULL);
	if (gantt) {
		/* Ticks reach the end of the axis, at least two carry a label. */
		size_t labelled = 0;
		for (size_t i = 0; i < gantt->xtick_count; i++)
			labelled += gantt->xticks[i].label[0] != '\0';
		CHECK(labelled >= 2);
		CHECK(gantt->xtick_count >= 2 &&
		      gantt->xticks[gantt->xtick_count - 1].value + (gantt->xticks[1].value - gantt->xticks[0].value) >=
			      gantt->x_max);
	}
	if (table) {
		/* The operator and its size are never left out; columns side by side, on the page, not empty. */
		CHECK(table->column_count >= 2 && strcmp(table->header[0], "Operator") == 0 &&
		      strcmp(table->header[1], "Size") == 0);
		for (size_t c = 0; c < table->column_count; c++) {
			CHECK(table->column_width[c] >= 12.0);
			CHECK(c + 1 == table->column_count ||
			      table->column_x[c] + table->column_width[c] <= table->column_x[c + 1] + 1e-9);
			CHECK(table->column_x[c] + table->column_width[c] <= page->width);
		}
		if (page->width >= 2000)
			CHECK_INT((int)table->column_count, 5);
	}
	free(list.items);
}

/* ---- PNG and PDF -------------------------------------------------------- */

static void check_pictures(const char *what, const rli_document *doc, const rli_panel *gantt, const char *stem)
{
	char png_path[4200], pdf_path[4200], raster_base[4200], raster_path[4300], command[9000];
	png_image png, raster;
	png_bytep a = NULL, b = NULL;

	snprintf(png_path, sizeof(png_path), "%s.png", stem);
	snprintf(pdf_path, sizeof(pdf_path), "%s.pdf", stem);
	snprintf(raster_base, sizeof(raster_base), "%s.pdf-raster", stem);
	snprintf(raster_path, sizeof(raster_path), "%s.png", raster_base);
	CHECK_INT(case_render_document(doc, "png", png_path), RLI_OK);
	CHECK_INT(case_render_document(doc, "pdf", pdf_path), RLI_OK);
	if (case_read_png(&png, &a, png_path) < 0) {
		fprintf(stderr, "%s: cannot read %s\n", what, png_path);
		rli_test_failures++;
		goto done;
	}
	CHECK_INT((int)png.width, (int)ceil(doc->pages[0].width * doc->raster_scale));
	snprintf(command, sizeof(command), "pdftoppm -png -singlefile -scale-to-x %u -scale-to-y %u '%s' '%s'",
		 png.width, png.height, pdf_path, raster_base);
	if (system(command) != 0 || case_read_png(&raster, &b, raster_path) < 0 || raster.width != png.width ||
	    raster.height != png.height) {
		fprintf(stderr, "%s: pdftoppm could not rasterise %s to the PNG's size\n", what, pdf_path);
		rli_test_failures++;
		goto done;
	}
	if (case_compare_lanes(what, gantt, doc->raster_scale, &png, a, b))
		rli_test_failures++;
	remove(png_path);
	remove(pdf_path);
	remove(raster_path);
done:
	free(a);
	free(b);
}

/* ---- inputs ------------------------------------------------------------- */

enum { LONG_OPS = 24, LONG_PER_OP = 10, LONG_BLOCKS = LONG_OPS * LONG_PER_OP };

/*
 * A capture that is hard to fit: a long role, long operator names and call
 * stacks, an hour of run (seven-digit tick labels), and the peak late, near
 * the right edge, so its label must go left of the point. Each lane's blocks
 * follow one another without overlapping, as the timeline's bars do, so the
 * PNG and the PDF can be compared lane by lane (the sub-pixel case is
 * test_memory_figure's).
 */
typedef struct {
	double start[LONG_BLOCKS], duration[LONG_BLOCKS], size[LONG_BLOCKS];
	const char *op[LONG_BLOCKS], *stack[LONG_BLOCKS];
	char names[LONG_OPS][80], stacks[LONG_OPS][120];
} long_capture;

static rli_memory_device long_device(long_capture *c)
{
	const double run_ms = 3600000.0, slot = run_ms / LONG_PER_OP;
	uint32_t state = 99;
	for (int o = 0; o < LONG_OPS; o++) {
		snprintf(c->names[o], sizeof(c->names[o]), "aten::_scaled_dot_product_flash_attention_backward_%02d", o);
		snprintf(c->stacks[o], sizeof(c->stacks[o]),
			 "verl/workers/actor/dp_actor.py(%d): update_policy_with_a_long_function_name_%02d", 400 + o, o);
	}
	for (int i = 0; i < LONG_BLOCKS; i++) {
		int o = i % LONG_OPS, k = i / LONG_OPS;
		state = state * 1664525u + 1013904223u;
		c->start[i] = 1.7e12 + (double)k * slot + (double)o * slot / (2.0 * LONG_OPS);
		c->duration[i] = slot * (0.3 + 0.2 * (double)(state >> 24) / 256.0);
		c->size[i] = 512.0 + (double)((state >> 8) & 0xFFFF);
		c->op[i] = c->names[o];
		c->stack[i] = i % 5 ? c->stacks[o] : "";
	}
	/* The peak: a block of 60 GB late in the run. */
	c->size[LONG_BLOCKS - 3] = 60.0 * 1024 * 1024;
	return (rli_memory_device){ "actor_rollout_ref_update_with_a_long_role_name", 12, LONG_BLOCKS, c->start,
				    c->duration, c->size, c->op, c->stack, 0, NULL, NULL, NULL, 0,
				    RLI_MEMORY_TOTALS_NONE, NULL, NULL, NULL, NULL };
}

static void check_widths(const char *name, rli_memory_figure *(*lay_out)(const rli_timeline_options *, void *),
			 void *input, const char *dir, PangoContext *context)
{
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		rli_timeline_options options;
		rli_memory_figure *figure;
		const rli_document *doc;
		char what[128], stem[4096];

		rli_timeline_options_init(&options);
		options.width = widths[i];
		options.scale = 1; /* a 20,000-unit page stays quick to rasterise */
		options.medium = RLI_MEDIUM_VECTOR;
		snprintf(what, sizeof(what), "%s at width %d", name, widths[i]);
		if (!(figure = lay_out(&options, input))) {
			fprintf(stderr, "%s: %s\n", what, rli_error_last());
			rli_test_failures++;
			continue;
		}
		doc = rli_memory_figure_document(figure);
		CHECK_INT((int)doc->page_count, 1);
		check_model(what, &doc->pages[0], context);
		snprintf(stem, sizeof(stem), "%s/%s-%d", dir, name, widths[i]);
		check_pictures(what, doc, doc->pages[0].items[2].u.panel, stem);
		rli_memory_figure_free(figure);
	}
}

static rli_memory_figure *lay_out_table(const rli_timeline_options *options, void *memory)
{
	rli_memory_figure *figure = NULL;
	return rli_memory_layout(&figure, memory, options) == RLI_OK ? figure : NULL;
}

static rli_memory_figure *lay_out_device(const rli_timeline_options *options, void *device)
{
	rli_memory_figure *figure = NULL;
	return rli_memory_figure_layout(&figure, device, 1, options) == RLI_OK ? figure : NULL;
}

/* The long capture on a 300-unit page at scale 2, against golden/memory_narrow.png. */
static void check_golden(const rli_memory_device *device, const char *golden_dir, const char *dir)
{
	const char *update = getenv("RLI_UPDATE_GOLDEN");
	int updating = update && strcmp(update, "1") == 0;
	rli_timeline_options options;
	rli_memory_figure *figure = NULL;
	char golden[4096], actual[4096];

	rli_timeline_options_init(&options);
	options.width = 300;
	snprintf(golden, sizeof(golden), "%s/memory_narrow.png", golden_dir);
	snprintf(actual, sizeof(actual), "%s/memory_narrow.png", dir);
	CHECK_INT(rli_memory_figure_layout(&figure, device, 1, &options), RLI_OK);
	if (!figure)
		return;
	CHECK_INT(case_render_document(rli_memory_figure_document(figure), "png", updating ? golden : actual), RLI_OK);
	if (!updating)
		CHECK(case_compare_png("memory_narrow", golden, actual) == 0);
	rli_memory_figure_free(figure);
}

int main(int argc, char **argv)
{
	long_capture *capture = calloc(1, sizeof(*capture));
	rli_memory_device device;
	rli_memory *sample = NULL;
	PangoContext *context = NULL;
	char path[4096];
	struct stat st;

	if (argc != 4) {
		fprintf(stderr, "usage: %s GOLDEN_DIR SAMPLES_DIR WORK_DIR\n", argv[0]);
		return 2;
	}
	if (system("command -v pdftoppm >/dev/null 2>&1") != 0) {
		fprintf(stderr, "skipped: pdftoppm (poppler-utils) is needed\n");
		return RLI_TEST_SKIP;
	}
	if (!capture || rli_mkdir_p(argv[3]) < 0 || rli_text_context_new(&context) < 0) {
		fprintf(stderr, "%s\n", rli_error_last());
		return 1;
	}
	device = long_device(capture);
	check_golden(&device, argv[1], argv[3]);
	check_widths("long", lay_out_device, &device, argv[3], context);
	/* The shared sample, when it is there: the peak at the very start of a long run. */
	snprintf(path, sizeof(path), "%s/memory_data", argv[2]);
	if (stat(path, &st) == 0) {
		rli_memory_parse_options options;
		rli_memory_parse_options_init(&options);
		CHECK_INT(rli_memory_parse(&sample, path, &options), RLI_OK);
		if (sample)
			check_widths("memory_data", lay_out_table, sample, argv[3], context);
		rli_memory_free(sample);
	} else {
		fprintf(stderr, "note: %s is absent; only the generated capture was checked\n", path);
	}
	g_object_unref(context);
	free(capture);
	TEST_DONE();
}

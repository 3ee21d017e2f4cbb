/* html_pages.c: the HTML back-end's writer for documents drawn a file per page: the memory pages, their data files, the index. */
#include "html_pages.h"
#include "html_bytes.h"
#include "html_memory_data.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/json_write.h"
#include "common/strutil.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char rli_asset_core_js[];
extern const char rli_asset_xrange_js[];
extern const char rli_asset_memory_js[];
extern const char rli_asset_memory_paint_js[];
extern const char rli_asset_memory_input_js[];
extern const char rli_asset_memory_view_js[];
extern const char rli_asset_memory_select_js[];
extern const char rli_asset_memory_start_js[];
extern const char rli_asset_legend_js[];
extern const char rli_asset_timeline_css[];
extern const char rli_asset_memory_css[];

/* The shared core first, then the memory page's parts; the last one starts it. */
static const char *const page_scripts[] = {
	rli_asset_core_js, rli_asset_xrange_js, rli_asset_memory_js, rli_asset_memory_paint_js,
	rli_asset_memory_input_js, rli_asset_memory_view_js, rli_asset_memory_select_js, rli_asset_legend_js,
	rli_asset_memory_start_js,
};
#define PAGE_SCRIPT_COUNT (sizeof(page_scripts) / sizeof(page_scripts[0]))

struct rli_html_pages {
	const rli_page *page;
	const rli_text *title;
	const rli_text *subtitle;     /* a second text: where t = 0 is */
	const rli_panel *panels[2];   /* the curve (values), the Gantt (lanes) */
	size_t panel_count;
	const rli_table *table;
	const rli_nav **navs;         /* the index lists a device each, however many */
	size_t nav_count, nav_capacity; /* the array is kept from page to page */
};

int rli_html_pages_new(rli_html_pages **out)
{
	int error;
	if ((error = rli_html_check_assets(page_scripts, PAGE_SCRIPT_COUNT, rli_asset_timeline_css)) < 0 ||
	    (error = rli_html_check_assets(NULL, 0, rli_asset_memory_css)) < 0)
		return error;
	*out = calloc(1, sizeof(**out));
	return *out ? RLI_OK : rli_error_oom();
}

int rli_html_pages_begin_page(rli_html_pages *p, const rli_page *page)
{
	const rli_nav **navs = p->navs;
	size_t nav_capacity = p->nav_capacity;

	memset(p, 0, sizeof(*p));
	p->navs = navs;
	p->nav_capacity = nav_capacity;
	p->page = page;
	return RLI_OK;
}

int rli_html_pages_item(rli_html_pages *p, const rli_item *item)
{
	/* the memory pages have no side panel: their index lists the devices */
	if (item->placement == RLI_PLACE_ASIDE)
		return RLI_OK;
	switch (item->kind) {
	case RLI_ITEM_TEXT:
		if (p->title)
			p->subtitle = item->u.text;
		else
			p->title = item->u.text;
		return RLI_OK;
	case RLI_ITEM_PANEL:
		if (p->panel_count == 2)
			return rli_error_set(RLI_EUSAGE, "html: a memory page holds two panels, not more");
		p->panels[p->panel_count++] = item->u.panel;
		return RLI_OK;
	case RLI_ITEM_TABLE:
		p->table = item->u.table;
		return RLI_OK;
	case RLI_ITEM_NAV:
		if (RLI_GROW(&p->navs, &p->nav_capacity, p->nav_count + 1, 16) < 0)
			return RLI_ERROR;
		p->navs[p->nav_count++] = item->u.nav;
		return RLI_OK;
	case RLI_ITEM_LEGEND:
		return RLI_OK; /* the Gantt's lanes name the operators; the colours follow them */
	case RLI_ITEM_FIGURE:
		return rli_error_set(RLI_EUSAGE, "html: a page cannot embed another figure's page");
	}
	return rli_error_set(RLI_ERROR, "html: unknown item kind %d", (int)item->kind);
}

/*
 * The head of a page. The memory pages take their style and script from the viewer file they
 * share (they draw nothing without it); the index, plain HTML, carries its style.
 */
static void write_head(FILE *fp, const char *title, int scripts)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", fp);
	/* The data file and the viewer beside the page are its only scripts; nothing comes from the network. */
	if (scripts)
		fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "script-src file: 'self'; style-src 'unsafe-inline'; img-src data: blob:\">\n", fp);
	else
		fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "style-src 'unsafe-inline'\">\n", fp);
	fputs("<meta name=\"generator\" content=\"rl-insight " RLI_VERSION "\">\n<title>", fp);
	rli_html_escape(fp, title);
	fputs("</title>\n", fp);
	if (!scripts) {
		fputs("<style>\n", fp);
		fputs(rli_asset_timeline_css, fp);
		fputs(rli_asset_memory_css, fp);
		fputs("</style>\n", fp);
	}
	fputs("</head>\n<body>\n", fp);
}

/*
 * RLI_MEMORY_VIEWER.js: the script every memory page of the document runs, written once, beside
 * the first of them: it puts the pages' style sheet in place, then draws the page it runs in.
 * A page of 5,000 bars is some 80 KB of data; the viewer, 65 KB, inlined in each, was the half.
 */
static int write_viewer(rli_output *out)
{
	rli_atomic_file viewer = { 0 };
	char *style = rli_strfmt("%s%s", rli_asset_timeline_css, rli_asset_memory_css);
	int error;

	if (!style)
		return rli_error_oom();
	if ((error = rli_output_open_beside(out, &viewer, RLI_MEMORY_VIEWER, ".js")) < 0)
		goto done;
	fputs("/* The viewer of rl-insight " RLI_VERSION "'s memory pages: their style, then their script. */\n"
	      "(function () {\n  var style = document.createElement('style');\n  style.textContent = ",
	      viewer.fp);
	rli_json_write_string(viewer.fp, style, RLI_JSON_HTML_SAFE);
	fputs(";\n  document.head.appendChild(style);\n})();\n", viewer.fp);
	for (size_t i = 0; i < PAGE_SCRIPT_COUNT; i++)
		fputs(page_scripts[i], viewer.fp);
	if (fflush(viewer.fp) != 0 || ferror(viewer.fp)) {
		error = rli_error_set(RLI_EOUTPUT, "could not write %s", viewer.path);
		goto done;
	}
	error = rli_output_keep_beside(out, &viewer);
done:
	if (viewer.temp_path)
		rli_atomic_abort(&viewer);
	free(style);
	return error;
}

/* The first page of the document that has data: the one the viewer is written beside. */
static int first_with_data(const rli_document *document, const rli_page *page)
{
	for (size_t i = 0; i < document->page_count; i++)
		if (document->pages[i].data_name)
			return &document->pages[i] == page;
	return 0;
}

/* The characters of a JSON string, without its quotes, safe inside a script element. */
static void json_chars(FILE *fp, const char *text)
{
	size_t length = strlen(text);
	char *quoted = malloc(RLI_JSON_ESCAPED_MAX(length));
	if (!quoted) {
		fputs("?", fp); /* the caller's ferror check will not see this; the names are short and ours */
		return;
	}
	size_t written = rli_json_escape(quoted, text, RLI_JSON_HTML_SAFE);
	fwrite(quoted + 1, 1, written - 2, fp);
	free(quoted);
}

/* A panel as placed: geometry, axes, titles; the Gantt's lanes and series; the curve's peak. Bars go to the data file. */
static void write_panel(FILE *fp, const rli_panel *panel)
{
	fputs("{\"plot\":", fp);
	rli_html_rect(fp, &panel->plot);
	fputc(',', fp);
	rli_html_number(fp, "xMin", panel->x_min);
	fputc(',', fp);
	rli_html_number(fp, "xMax", panel->x_max);
	fputc(',', fp);
	rli_html_number(fp, "yMin", panel->y_min);
	fputc(',', fp);
	rli_html_number(fp, "yMax", panel->y_max);
	fprintf(fp, ",\"values\":%s,\"xtickTarget\":%d,\"xtickMax\":%d", panel->y_scale == RLI_Y_VALUES ? "true" : "false",
		panel->xtick_target, panel->xtick_max);
	rli_html_ticks(fp, "xticks", panel->xticks, panel->xtick_count);
	rli_html_ticks(fp, "yticks", panel->yticks, panel->ytick_count);
	fputs(",\"gridColor\":", fp);
	rli_html_color(fp, panel->grid_color);
	fputc(',', fp);
	rli_html_number(fp, "tickLabelSize", panel->tick_label_size);
	fputc(',', fp);
	rli_html_number(fp, "rowPitch", panel->row_pitch);
	fputc(',', fp);
	rli_html_number(fp, "barThickness", panel->bar_thickness);
	fputs(",\"barOutline\":", fp);
	rli_html_color(fp, panel->bar_outline);
	fputs(",\"xTitle\":", fp);
	rli_html_text_item(fp, &panel->x_title);
	fputs(",\"yTitle\":", fp);
	rli_html_text_item(fp, &panel->y_title);
	fputs(",\"series\":[", fp);
	for (size_t s = 0; s < panel->series_count; s++) {
		fputs(s ? ",{\"name\":" : "{\"name\":", fp);
		rli_json_write_string(fp, panel->series[s].name ? panel->series[s].name : "", RLI_JSON_HTML_SAFE);
		fputs(",\"color\":", fp);
		rli_html_color(fp, panel->series[s].color);
		fputc('}', fp);
	}
	fputs("],\"lanes\":[", fp);
	for (size_t r = 0; r < panel->row_count; r++) {
		size_t first = panel->row_first_bar ? panel->row_first_bar[r] : 0;
		uint32_t series = panel->row_first_bar && first < panel->bar_count ? panel->bar_series[first] : 0;
		fprintf(fp, "%s{\"series\":%" PRIu32 ",\"label\":", r ? "," : "", series);
		rli_html_text_item(fp, &panel->row_labels[r]);
		fputc('}', fp);
	}
	fputs("],\"points\":", fp);
	rli_html_points(fp, panel->points, panel->point_count, 0);
	putc('}', fp);
}

static void write_nav(FILE *fp, const rli_nav *nav)
{
	fputs("{\"title\":", fp);
	rli_html_text_item(fp, &nav->title);
	fprintf(fp, ",\"total\":%zu,\"current\":%lld,\"previous\":%lld,\"next\":%lld,\"up\":", nav->total,
		nav->current == SIZE_MAX ? -1LL : (long long)nav->current,
		nav->previous == SIZE_MAX ? -1LL : (long long)nav->previous,
		nav->next == SIZE_MAX ? -1LL : (long long)nav->next);
	if (nav->up) {
		fputc('"', fp);
		json_chars(fp, nav->up);
		fputs(".html\"", fp);
	} else {
		fputs("null", fp);
	}
	if (nav->timeline) {
		fputs(",\"timeline\":\"", fp);
		json_chars(fp, nav->timeline);
		fputs(".html\"", fp);
	}
	if (nav->device) {
		fputs(",\"role\":", fp);
		rli_json_write_string(fp, nav->device->role ? nav->device->role : "", RLI_JSON_HTML_SAFE);
		fprintf(fp, ",\"rank\":\"%lld\"", (long long)nav->device->rank);
	}
	if (nav->note.text) {
		fputs(",\"note\":", fp);
		rli_html_text_item(fp, &nav->note);
	}
	fputs(",\"links\":[", fp);
	for (size_t i = 0; i < nav->link_count; i++) {
		const rli_link *link = &nav->links[i];
		fputs(i ? ",{\"label\":" : "{\"label\":", fp);
		rli_json_write_string(fp, link->label ? link->label : "", RLI_JSON_HTML_SAFE);
		fputs(",\"target\":", fp);
		if (link->target) {
			/* file stems are the layout's own, file-safe; escaped all the same */
			fputc('"', fp);
			json_chars(fp, link->target);
			fputs(".html\"", fp);
		} else {
			fputs("null", fp);
		}
		fputc(',', fp);
		rli_html_number(fp, "xMin", link->x_min);
		fputc(',', fp);
		rli_html_number(fp, "xMax", link->x_max);
		fprintf(fp, ",\"count\":%zu}", link->count);
	}
	fputs("]}", fp);
}

static int write_segment_page(rli_html_pages *p, rli_output *out)
{
	const rli_page *page = p->page;
	const rli_panel *curve = p->panels[0], *gantt = p->panels[1];
	FILE *fp = out->file.fp;
	rli_atomic_file data = { 0 };
	rli_memfile model = { 0 };
	FILE *mp;
	char *data_file = NULL, *page_file = NULL;
	int error;

	if (p->panel_count != 2 || !p->title || p->nav_count != 1 || !gantt->details ||
	    curve->y_scale != RLI_Y_VALUES || gantt->y_scale != RLI_Y_LANES)
		return rli_error_set(RLI_EUSAGE, "html: a memory page needs a title, a curve panel, a Gantt panel "
				     "with details and its links");
	for (size_t r = 0; r < gantt->row_count; r++)
		for (size_t i = gantt->row_first_bar[r]; i < gantt->row_first_bar[r + 1]; i++)
			if (gantt->bar_row[i] != r || gantt->bar_series[i] != gantt->bar_series[gantt->row_first_bar[r]])
				return rli_error_set(RLI_EUSAGE, "html: a memory page's lane holds one operator's bars");
	if (!(data_file = rli_strfmt("%s.js", page->data_name)) || !(page_file = rli_strfmt("%s.html", page->name))) {
		error = rli_error_oom();
		goto done;
	}
	/* The data first: the page names it, and both go into the run's set together. */
	if ((error = rli_output_open_beside(out, &data, page->data_name, ".js")) < 0)
		goto done;
	if ((error = rli_html_write_memory_data(data.fp, curve, gantt, out->document->origin, page_file)) < 0)
		goto done;
	if (fflush(data.fp) != 0 || ferror(data.fp)) {
		error = rli_error_set(RLI_EOUTPUT, "could not write %s", data.path);
		goto done;
	}
	if ((error = rli_output_keep_beside(out, &data)) < 0)
		goto done;

	if (first_with_data(out->document, page) && (error = write_viewer(out)) < 0)
		goto done;

	/* The model, packed as the data is: its lanes' and ticks' placed labels repeat key after key. */
	if ((error = rli_memfile_open(&model)) < 0)
		goto done;
	mp = model.fp;
	fputs("{\"version\":1,\"kind\":\"memory\",", mp);
	rli_html_number(mp, "width", page->width);
	fputc(',', mp);
	rli_html_number(mp, "height", page->height);
	fputs(",\"background\":", mp);
	rli_html_color(mp, out->document->background);
	fputs(",\"textColor\":", mp);
	rli_html_color(mp, out->document->text_color);
	fputs(",\"fontFamily\":", mp);
	rli_json_write_string(mp, out->document->font_family ? out->document->font_family : "sans-serif",
			      RLI_JSON_HTML_SAFE);
	fputs(",\"data\":", mp);
	rli_json_write_string(mp, data_file, RLI_JSON_HTML_SAFE);
	fputs(",\"page\":", mp);
	rli_json_write_string(mp, page_file, RLI_JSON_HTML_SAFE);
	fputs(",\"title\":", mp);
	rli_html_text_item(mp, p->title);
	if (p->subtitle) {
		fputs(",\"origin\":", mp);
		rli_html_text_item(mp, p->subtitle);
	}
	fputs(",\"curve\":", mp);
	write_panel(mp, curve);
	fputs(",\"gantt\":", mp);
	write_panel(mp, gantt);
	fputs(",\"nav\":", mp);
	write_nav(mp, p->navs[0]);
	fputc('}', mp);
	if ((error = rli_memfile_close(&model)) < 0)
		goto done;

	write_head(fp, p->title->text ? p->title->text : "Memory Timeline", 1);
	fputs("<noscript>These memory charts are drawn by JavaScript; enable it to see them.</noscript>\n"
	      "<script type=\"text/plain\" id=\"rli-model\" data-packed=\"deflate\">", fp);
	if ((error = rli_write_packed(fp, (const unsigned char *)model.text, model.length)) < 0)
		goto done;
	/* What a page moved away from its files shows; the viewer takes it away when it starts. */
	fputs("</script>\n<p id=\"rli-unstarted\">This page is drawn by " RLI_MEMORY_VIEWER ".js from its data, ", fp);
	rli_html_escape(fp, data_file);
	fputs(": keep the files of a run together in one folder.</p>\n<script src=\"", fp);
	rli_html_escape(fp, data_file);
	fputs("\"></script>\n<script src=\"" RLI_MEMORY_VIEWER ".js\"></script>\n</body>\n</html>\n", fp);
	error = RLI_OK;
done:
	if (data.temp_path)
		rli_atomic_abort(&data);
	rli_memfile_dispose(&model);
	free(data_file);
	free(page_file);
	return error;
}

static void write_link(FILE *fp, const char *target, const char *text)
{
	fputs("<a href=\"", fp);
	rli_html_escape(fp, target);
	fputs(".html\">", fp);
	rli_html_escape(fp, text);
	fputs("</a>", fp);
}

/* The index: plain HTML, no script: a table of the devices and each device's list of pages. */
static int write_index_page(rli_html_pages *p, rli_output *out)
{
	FILE *fp = out->file.fp;
	const rli_table *t = p->table;

	write_head(fp, p->title && p->title->text ? p->title->text : "Memory Timeline", 0);
	fputs("<main class=\"rli-app rli-index\">\n<h1>", fp);
	rli_html_escape(fp, p->title && p->title->text ? p->title->text : "");
	fputs("</h1>\n", fp);
	if (t) {
		fputs("<table class=\"rli-devices\">\n<thead><tr>", fp);
		for (size_t c = 0; c < t->column_count; c++) {
			fputs(t->align[c] == RLI_ALIGN_END ? "<th class=\"rli-num\">" : "<th>", fp);
			rli_html_escape(fp, t->header[c]);
			fputs("</th>", fp);
		}
		fputs("</tr></thead>\n<tbody>\n", fp);
		for (size_t r = 0; r < t->row_count; r++) {
			fputs("<tr>", fp);
			for (size_t c = 0; c < t->column_count; c++) {
				const char *cell = t->cells[r * t->column_count + c];
				const char *link = t->links ? t->links[r * t->column_count + c] : NULL;
				fputs(t->align[c] == RLI_ALIGN_END ? "<td class=\"rli-num\">" : "<td>", fp);
				if (link)
					write_link(fp, link, cell ? cell : "");
				else
					rli_html_escape(fp, cell ? cell : "");
				fputs("</td>", fp);
			}
			fputs("</tr>\n", fp);
		}
		fputs("</tbody>\n</table>\n", fp);
	}
	for (size_t n = 0; n < p->nav_count; n++) {
		const rli_nav *nav = p->navs[n];
		fputs("<section class=\"rli-device\">\n<h2>", fp);
		rli_html_escape(fp, nav->title.text ? nav->title.text : "");
		fputs("</h2>\n<ol>\n", fp);
		for (size_t i = 0; i < nav->link_count; i++) {
			const rli_link *link = &nav->links[i];
			char head[64];
			snprintf(head, sizeof(head), "Seg %zu/%zu: ", i + 1, nav->link_count);
			if (link->target) {
				fputs("<li>", fp);
				char *text = rli_strfmt("%s%s", head, link->label ? link->label : "");
				write_link(fp, link->target, text ? text : head);
				free(text);
				fprintf(fp, " (%zu allocations)</li>\n", link->count);
			} else {
				fputs("<li class=\"rli-empty-segment\">", fp);
				rli_html_escape(fp, head);
				rli_html_escape(fp, link->label ? link->label : "");
				fputs(" (no allocation)</li>\n", fp);
			}
		}
		fputs("</ol>\n</section>\n", fp);
	}
	fputs("</main>\n</body>\n</html>\n", fp);
	return RLI_OK;
}

int rli_html_pages_end_page(rli_html_pages *p, rli_output *out)
{
	int error = p->page->data_name ? write_segment_page(p, out) : write_index_page(p, out);
	if (error == RLI_OK && (fflush(out->file.fp) != 0 || ferror(out->file.fp)))
		error = rli_error_set(RLI_EOUTPUT, "could not write %s", out->file.path);
	return error;
}

void rli_html_pages_free(rli_html_pages *p)
{
	if (p)
		free(p->navs);
	free(p);
}

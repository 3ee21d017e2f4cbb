/* html_backend.c: writes the page as <name>.html: its items as JSON, the bars compact, and the embedded canvas renderer. */
#include "backend.h"
#include "common/error.h"
#include "common/grow.h"
#include "html_pages.h"
#include "html_timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

extern const char rli_asset_core_js[];
extern const char rli_asset_filter_js[];
extern const char rli_asset_timeline_js[];
extern const char rli_asset_timeline_paint_js[];
extern const char rli_asset_timeline_input_js[];
extern const char rli_asset_timeline_aside_js[];
extern const char rli_asset_timeline_table_js[];
extern const char rli_asset_timeline_groups_js[];
extern const char rli_asset_timeline_links_js[];
extern const char rli_asset_timeline_state_js[];
extern const char rli_asset_timeline_select_js[];
extern const char rli_asset_legend_js[];
extern const char rli_asset_timeline_start_js[];
extern const char rli_asset_timeline_css[];

/* The page's script: the shared core first, then the timeline page's parts; the last one starts it. */
static const char *const page_scripts[] = {
	rli_asset_core_js, rli_asset_filter_js, rli_asset_timeline_js, rli_asset_timeline_paint_js, rli_asset_timeline_input_js,
	rli_asset_timeline_aside_js, rli_asset_timeline_table_js, rli_asset_timeline_links_js,
	rli_asset_timeline_select_js, rli_asset_timeline_groups_js, rli_asset_timeline_state_js,
	rli_asset_legend_js, rli_asset_timeline_start_js,
};
#define PAGE_SCRIPT_COUNT (sizeof(page_scripts) / sizeof(page_scripts[0]))

/*
 * The page the script draws: the timeline's title, panel and legend, as the
 * items of the document's one page. The page's JSON is their serialisation
 * (html_timeline.c).
 */
typedef struct {
	rli_output base;
	const rli_page *page;
	const rli_text *title;
	const rli_panel *panel;
	const rli_legend *legend;
	const rli_nav *nav;
	const rli_item **asides; /* the page's RLI_PLACE_ASIDE items, in order: the side panel */
	size_t aside_count, aside_capacity;
	rli_bytes stream; /* the encoded bar stream, before base64 */
	rli_html_pages *pages; /* a document drawn a file per page: the memory pages' writer */
} html_output;

static int html_begin_document(rli_output *out, const rli_document *document)
{
	FILE *fp = out->file.fp;
	int error;

	if (out->per_page)
		return rli_html_pages_new(&((html_output *)out)->pages);
	if (document->page_count != 1)
		return rli_error_set(RLI_EUSAGE, "html: the page shows one page of a document, not %zu",
				     document->page_count);
	if ((error = rli_html_check_assets(page_scripts, PAGE_SCRIPT_COUNT, rli_asset_timeline_css)) < 0)
		return error;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n"
	      "<meta name=\"generator\" content=\"rl-insight " RLI_VERSION "\">\n<title>", fp);
	rli_html_escape(fp, document->screen_title ? document->screen_title : document->title ? document->title : "RL Timeline");
	fputs("</title>\n<style>\n", fp);
	fputs(rli_asset_timeline_css, fp);
	fputs("</style>\n</head>\n<body>\n"
	      "<noscript>This timeline is drawn by JavaScript; enable it to see the chart.</noscript>\n",
	      fp);
	return RLI_OK;
}

static int html_begin_page(rli_output *out, const rli_page *page)
{
	if (out->per_page)
		return rli_html_pages_begin_page(((html_output *)out)->pages, page);
	((html_output *)out)->page = page;
	return RLI_OK;
}

/* The script draws the whole page at once: items are gathered, then written by end_page. */
static int html_draw_item(rli_output *out, const rli_item *item)
{
	html_output *html = (html_output *)out;
	if (out->per_page)
		return rli_html_pages_item(html->pages, item);
	if (item->placement == RLI_PLACE_ASIDE) {
		if (item->kind != RLI_ITEM_TEXT && item->kind != RLI_ITEM_TABLE)
			return rli_error_set(RLI_EUSAGE, "html: an aside holds headings and tables, not item kind %d",
					     (int)item->kind);
		if (RLI_GROW(&html->asides, &html->aside_capacity, html->aside_count + 1, 16) < 0)
			return rli_error_oom();
		html->asides[html->aside_count++] = item;
		return RLI_OK;
	}
	switch (item->kind) {
	case RLI_ITEM_TEXT:
		html->title = item->u.text;
		return RLI_OK;
	case RLI_ITEM_PANEL:
		html->panel = item->u.panel;
		return RLI_OK;
	case RLI_ITEM_LEGEND:
		html->legend = item->u.legend;
		return RLI_OK;
	case RLI_ITEM_NAV:
		html->nav = item->u.nav;
		return RLI_OK;
	case RLI_ITEM_TABLE:
		return rli_error_set(RLI_EUSAGE, "html: the timeline page has no place for a table");
	case RLI_ITEM_FIGURE:
		return rli_error_set(RLI_EUSAGE, "html: a page cannot embed another figure's page");
	}
	return rli_error_set(RLI_ERROR, "html: unknown item kind %d", (int)item->kind);
}

static int html_end_page(rli_output *out)
{
	html_output *html = (html_output *)out;
	rli_html_timeline t = {
		.document = out->document, .page = html->page, .title = html->title, .panel = html->panel,
		.legend = html->legend, .asides = html->asides, .aside_count = html->aside_count, .nav = html->nav,
	};
	FILE *fp = out->file.fp;
	int error;

	if (out->per_page)
		return rli_html_pages_end_page(html->pages, out);
	if ((error = rli_html_timeline_check(&t)) < 0)
		return error;
	fputs("<script type=\"application/json\" id=\"rli-model\">", fp);
	if ((error = rli_html_write_timeline_model(fp, &t)) < 0)
		return error;
	fputs("</script>\n<script type=\"application/json\" id=\"rli-bars\">", fp);
	if ((error = rli_html_write_timeline_bars(fp, html->panel, &html->stream)) < 0)
		return error;
	fputs("</script>\n", fp);
	return RLI_OK;
}

static int html_finish(rli_output *out)
{
	FILE *fp = out->file.fp;
	if (out->per_page)
		return RLI_OK;
	fputs("<script>\n", fp);
	for (size_t i = 0; i < PAGE_SCRIPT_COUNT; i++)
		fputs(page_scripts[i], fp);
	fputs("</script>\n</body>\n</html>\n", fp);
	if (fflush(fp) != 0 || ferror(fp)) /* errno is still the failed write's: say why, as a person would */
		return rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", out->file.path, strerror(errno ? errno : EIO));
	return RLI_OK;
}

static void html_destroy(rli_output *out)
{
	html_output *html = (html_output *)out;
	free(html->stream.bytes);
	html->stream.bytes = NULL;
	free(html->asides);
	html->asides = NULL;
	rli_html_pages_free(html->pages);
	html->pages = NULL;
}

const rli_backend rli_html_backend = {
	.name = "html",
	.extension = ".html",
	.file_per_page = 0,
	.output_size = sizeof(html_output),
	.begin_document = html_begin_document,
	.begin_page = html_begin_page,
	.draw_item = html_draw_item,
	.end_page = html_end_page,
	.finish = html_finish,
	.destroy = html_destroy,
};

/* html_pages.h: the HTML back-end's writer for documents drawn a file per page: the memory pages, their data files, the index. */
#ifndef RLI_RENDER_HTML_PAGES_H
#define RLI_RENDER_HTML_PAGES_H

#include "backend.h"

/* The script the memory pages share, written once beside the first of them: <this>.js. */
#define RLI_MEMORY_VIEWER "memory_viewer"

typedef struct rli_html_pages rli_html_pages;

int rli_html_pages_new(rli_html_pages **out);
int rli_html_pages_begin_page(rli_html_pages *pages, const rli_page *page);
/* Gathers the page's items: the page is written whole by end_page. */
int rli_html_pages_item(rli_html_pages *pages, const rli_item *item);
/*
 * Writes the page into out->file, and its data (page->data_name) into a file beside it; beside
 * the document's first page with data, the viewer too.
 */
int rli_html_pages_end_page(rli_html_pages *pages, rli_output *out);
void rli_html_pages_free(rli_html_pages *pages);

#endif

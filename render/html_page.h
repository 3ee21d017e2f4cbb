/* html_page.h: what every page of ours shares: its head (the policy that keeps it offline, its title, its style), the link home, its scripts, and its writing, whole or not at all. */
#ifndef RLI_RENDER_HTML_PAGE_H
#define RLI_RENDER_HTML_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "common/output_set.h"

/*
 * From the doctype to <body>: UTF-8, a viewport, a Content-Security-Policy that lets the page
 * run its own inline script and style and fetch nothing, the generator, the title (escaped) and
 * the style sheets, in order, in one style element.
 */
void rli_html_page_head(FILE *fp, const char *title, const char *const *styles, size_t count);

/*
 * The link to the run's home page (a file stem, "index"), on a line of its own at the top of the
 * body; nothing when home is NULL (a page written outside a run that has one).
 */
void rli_html_page_home_link(FILE *fp, const char *home);

/* The page's scripts in one script element, in order, and the end of the document. */
void rli_html_page_end(FILE *fp, const char *const *scripts, size_t count);

/* Writes the page's bytes; RLI_OK or a library code with the error set. */
typedef int (*rli_html_page_writer)(FILE *fp, const void *ctx);

/*
 * out_dir/name written by write(ctx) to a temporary file that joins set (NULL: published at once),
 * so that no reader meets half a page; a failed write is said with the file's name and why.
 */
int rli_html_page_write(const char *out_dir, const char *name, rli_output_set *set, rli_html_page_writer write,
			const void *ctx);

#endif

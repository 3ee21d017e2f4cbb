/* backend.h: the interface every output back-end implements (PNG, PDF, HTML), at page level. */
#ifndef RLI_RENDER_BACKEND_H
#define RLI_RENDER_BACKEND_H

#include "common/atomic_file.h"
#include "common/output_set.h"
#include "layout/layout.h"

#include <stddef.h>

typedef struct rli_output rli_output;

#define RLI_OUTPUT_MAX_BESIDE 4

/*
 * One const table per back-end, in the manner of cairo's surface back-ends
 * and mupdf's document writers. rli_render() allocates output_size bytes,
 * whose first member is the shared rli_output base, and drives the document
 * through begin_document, then for each page begin_page, draw_item for each
 * item, end_page, and at last finish; on any failure it calls destroy and
 * removes what was half-written. A back-end draws; it decides no content.
 */
typedef struct rli_backend {
	const char *name;        /* "png" */
	const char *extension;   /* ".png": files are the document's name plus this */
	/*
	 * 1: every page is a file of its own, written by end_page (PNG);
	 * 0: the document is one file, written by finish (PDF, HTML).
	 * rli_render opens out->file before begin_page, or before begin_document.
	 * A document with file_per_page set is drawn a file per page whatever
	 * this says; out->per_page tells the back-end which way it runs.
	 */
	int file_per_page;
	size_t output_size;      /* sizeof the back-end's output struct */
	int (*begin_document)(rli_output *out, const rli_document *document);
	int (*begin_page)(rli_output *out, const rli_page *page);
	int (*draw_item)(rli_output *out, const rli_item *item);
	int (*end_page)(rli_output *out);
	int (*finish)(rli_output *out);
	/* Frees what the others made; must cope with any of them failed or never called. */
	void (*destroy)(rli_output *out);
} rli_backend;

/* The base every back-end's output struct embeds as its first member. */
struct rli_output {
	const rli_backend *backend;
	const rli_document *document;
	rli_atomic_file file;    /* the file being written: the page's or the document's */
	int per_page;            /* 1: out->file is the page's, opened before begin_page */
	const char *out_dir;     /* where the files go */
	rli_output_set *set;     /* the run's set, or NULL: each file into place on its own */
	/*
	 * Files written beside the page (its data), kept until the page is done: pages drawn on
	 * several threads still go into the set in page order, each page's data before it.
	 */
	rli_atomic_file beside[RLI_OUTPUT_MAX_BESIDE];
	size_t beside_count;
};

/*
 * A file beside the one being written (a page's data, named by the page's
 * data_name): out_dir/<stem><extension>, opened into *file. Kept with
 * rli_output_keep_beside (into the run's set with the page, before it), or
 * removed with rli_atomic_abort.
 */
int rli_output_open_beside(rli_output *out, rli_atomic_file *file, const char *stem, const char *extension);
int rli_output_keep_beside(rli_output *out, rli_atomic_file *file);

extern const rli_backend rli_png_backend;
extern const rli_backend rli_html_backend;
extern const rli_backend rli_pdf_backend;

const rli_backend *rli_backend_find(const char *name);

#endif

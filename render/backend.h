/* backend.h: the interface every output back-end implements (PNG, PDF, HTML). */
#ifndef RLI_RENDER_BACKEND_H
#define RLI_RENDER_BACKEND_H

#include "common/atomic_file.h"
#include "layout/layout.h"

#include <stddef.h>

typedef struct rli_output rli_output;

/*
 * One const table per back-end, in the manner of cairo's surface back-ends.
 * rli_render() allocates output_size bytes, whose first member is the shared
 * rli_output base, then calls begin, the draw_* operations, and finish; on
 * any failure it calls destroy and removes the half-written file.
 */
typedef struct rli_backend {
	const char *name;        /* "png" */
	const char *file_name;   /* default output file, "rl_timeline.png" */
	size_t output_size;      /* sizeof the back-end's output struct */
	int (*begin)(rli_output *out, const rli_timeline *timeline);
	int (*draw_timeline)(rli_output *out, const rli_timeline *timeline);
	/* Writes the finished document to out->file.fp. */
	int (*finish)(rli_output *out);
	/* Frees what begin made; must cope with a failed or missing begin. */
	void (*destroy)(rli_output *out);
} rli_backend;

/* The base every back-end's output struct embeds as its first member. */
struct rli_output {
	const rli_backend *backend;
	rli_atomic_file file;
};

extern const rli_backend rli_png_backend;
extern const rli_backend rli_html_backend;
extern const rli_backend rli_pdf_backend;

const rli_backend *rli_backend_find(const char *name);

#endif

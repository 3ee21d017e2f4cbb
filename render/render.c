/* render.c: the back-end registry and the one render path they all share. */
#include "backend.h"
#include "common/error.h"
#include "common/output_set.h"
#include "common/strutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const rli_backend *const backends[] = {
	&rli_png_backend,
	&rli_html_backend,
	&rli_pdf_backend,
};

const rli_backend *rli_backend_find(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (name && strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

int rli_backend_exists(const char *name)
{
	return rli_backend_find(name) != NULL;
}

/*
 * out_dir/<name><extension> for the document or its only page; a page of
 * several: its own name, or <name>_<NN>.
 */
static int open_file(rli_output *out, const char *out_dir, size_t page)
{
	const rli_document *doc = out->document;
	char *path;
	int error;

	if (page != SIZE_MAX && doc->pages[page].name)
		path = rli_strfmt("%s/%s%s", out_dir, doc->pages[page].name, out->backend->extension);
	else if (page == SIZE_MAX || doc->page_count == 1)
		path = rli_strfmt("%s/%s%s", out_dir, doc->name, out->backend->extension);
	else
		path = rli_strfmt("%s/%s_%02zu%s", out_dir, doc->name, page + 1, out->backend->extension);
	if (!path)
		return rli_error_oom();
	error = rli_atomic_open(&out->file, path);
	free(path);
	return error;
}

int rli_output_open_beside(rli_output *out, rli_atomic_file *file, const char *stem, const char *extension)
{
	char *path = rli_strfmt("%s/%s%s", out->out_dir, stem, extension);
	int error;
	if (!path)
		return rli_error_oom();
	error = rli_atomic_open(file, path);
	free(path);
	return error;
}

int rli_output_keep_beside(rli_output *out, rli_atomic_file *file)
{
	return rli_output_finish(out->set, file);
}

static int draw_page(rli_output *out, const rli_page *page)
{
	const rli_backend *backend = out->backend;
	int error;

	if ((error = backend->begin_page(out, page)) < 0)
		return error;
	for (size_t i = 0; i < page->item_count; i++)
		if ((error = backend->draw_item(out, &page->items[i])) < 0)
			return error;
	return backend->end_page(out);
}

int rli_render(const rli_document *document, const char *backend_name, const char *out_dir,
	       rli_output_set *set)
{
	const rli_backend *backend = rli_backend_find(backend_name);
	rli_output *out;
	int error;

	if (!backend)
		return rli_error_set(RLI_EUSAGE, "unknown output type '%s'", backend_name);
	if (!document || !document->name || !document->page_count)
		return rli_error_set(RLI_EUSAGE, "%s: the document has no page to draw", backend_name);
	out = calloc(1, backend->output_size);
	if (!out)
		return rli_error_oom();
	out->backend = backend;
	out->document = document;
	out->per_page = backend->file_per_page || document->file_per_page;
	out->out_dir = out_dir;
	out->set = set;

	if (!out->per_page && (error = open_file(out, out_dir, SIZE_MAX)) < 0)
		goto done;
	if ((error = backend->begin_document(out, document)) < 0)
		goto done;
	for (size_t p = 0; p < document->page_count; p++) {
		if (out->per_page && (error = open_file(out, out_dir, p)) < 0)
			goto done;
		if ((error = draw_page(out, &document->pages[p])) < 0)
			goto done;
		if (out->per_page && (error = rli_output_finish(set, &out->file)) < 0)
			goto done;
	}
	error = backend->finish(out);

done:
	/* A back-end may still write while it is destroyed (cairo finishes a PDF), so first. */
	backend->destroy(out);
	if (error == RLI_OK && !out->per_page)
		error = rli_output_finish(set, &out->file);
	else if (out->file.temp_path)
		rli_atomic_abort(&out->file);
	free(out);
	return error;
}

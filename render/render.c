/* render.c: the back-end registry and the one render path they all share. */
#include "backend.h"
#include "common/error.h"
#include "common/output_set.h"

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

const char *rli_backend_file_name(const char *name)
{
	const rli_backend *backend = rli_backend_find(name);
	return backend ? backend->file_name : NULL;
}

int rli_render(const rli_timeline *timeline, const char *backend_name, const char *path,
	       rli_output_set *set)
{
	const rli_backend *backend = rli_backend_find(backend_name);
	rli_output *out;
	int error;

	if (!backend)
		return rli_error_set(RLI_EUSAGE, "unknown output type '%s'", backend_name);
	out = calloc(1, backend->output_size);
	if (!out)
		return rli_error_oom();
	out->backend = backend;

	if ((error = rli_atomic_open(&out->file, path)) < 0)
		goto done;
	if ((error = backend->begin(out, timeline)) < 0)
		goto done;
	if ((error = backend->draw_timeline(out, timeline)) < 0)
		goto done;
	error = backend->finish(out);

done:
	/* A back-end may still write while it is destroyed (cairo finishes a PDF), so first. */
	backend->destroy(out);
	if (error == RLI_OK)
		error = rli_output_finish(set, &out->file);
	else
		rli_atomic_abort(&out->file);
	free(out);
	return error;
}

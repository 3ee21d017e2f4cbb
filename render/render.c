/* render.c: the back-end registry and the render path they all share: a document page by page, or a file a page on several threads. */
#include "backend.h"
#include "common/error.h"
#include "common/output_set.h"
#include "common/strutil.h"
#include "common/task.h"

#include <pthread.h>
#include <stdatomic.h>
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
	if (out->beside_count == RLI_OUTPUT_MAX_BESIDE) {
		rli_atomic_abort(file);
		return rli_error_set(RLI_EUSAGE, "%s: more than %d files beside one page", out->backend->name,
				     RLI_OUTPUT_MAX_BESIDE);
	}
	out->beside[out->beside_count++] = *file;
	memset(file, 0, sizeof(*file));
	return RLI_OK;
}

/* The page's files into the set (or into place): what was written beside it first, then the page's own. */
static int keep_page(rli_output *out)
{
	int error = RLI_OK;
	for (size_t i = 0; i < out->beside_count; i++)
		if (error == RLI_OK)
			error = rli_output_finish(out->set, &out->beside[i]);
		else
			rli_atomic_abort(&out->beside[i]);
	out->beside_count = 0;
	if (error == RLI_OK && out->per_page)
		return rli_output_finish(out->set, &out->file);
	if (out->per_page)
		rli_atomic_abort(&out->file);
	return error;
}

/* What a failed page leaves: its temporary files, removed. */
static void abort_page(rli_output *out)
{
	for (size_t i = 0; i < out->beside_count; i++)
		rli_atomic_abort(&out->beside[i]);
	out->beside_count = 0;
	if (out->file.temp_path)
		rli_atomic_abort(&out->file);
}

static int draw_items(rli_output *out, const rli_page *page)
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

/* Page p drawn, made just before and dropped just after where the document makes its pages when drawn. */
static int draw_page(rli_output *out, size_t p)
{
	const rli_document *doc = out->document;
	int error;

	if (doc->load_page && (error = doc->load_page(doc->owner, p)) < 0)
		return error;
	error = draw_items(out, &doc->pages[p]);
	if (doc->drop_page)
		doc->drop_page(doc->owner, p);
	return error;
}

void rli_render_options_init(rli_render_options *options)
{
	memset(options, 0, sizeof(*options));
}

static rli_output *output_new(const rli_document *document, const rli_backend *backend, const char *out_dir,
			      rli_output_set *set)
{
	rli_output *out = calloc(1, backend->output_size);
	if (!out)
		return NULL;
	out->backend = backend;
	out->document = document;
	out->per_page = backend->file_per_page || document->file_per_page;
	out->out_dir = out_dir;
	out->set = set;
	return out;
}

/* The most threads drawing one document's pages at once (rli_render_options.threads says so too). */
#define RENDER_MAX_THREADS 4

/*
 * A document of a file per page, its pages shared out between threads: each takes the next page
 * not taken and draws it on an output of its own. Pages go into the set in page order, each
 * waiting its turn, so what the run lists and keeps does not depend on which thread was quicker.
 */
typedef struct {
	const rli_document *document;
	const rli_backend *backend;
	const char *out_dir;
	rli_output_set *set;
	atomic_size_t next;
	pthread_mutex_t lock;
	pthread_cond_t turn;
	/* under lock: */
	size_t kept;              /* pages in the set */
	rli_first_failure failed; /* the first page that failed: no page after it is kept */
} page_queue;

/*
 * Page p failed. The first failing page's is the render's failure, as on one thread: pages before
 * it are still kept, pages after it are dropped. Wakes the pages waiting their turn.
 */
static void page_failed(page_queue *q, size_t p, int error)
{
	rli_first_failure_note(&q->failed, p, error);
	pthread_cond_broadcast(&q->turn);
}

static int draw_pages(void *arg)
{
	page_queue *q = arg;
	const size_t count = q->document->page_count;
	rli_output *out = NULL;
	int error = RLI_OK, begun = 0, dropped = 0;
	size_t p = 0;

	/* The output is made for the first page this thread takes: a failure to make it is that page's. */
	while (error == RLI_OK && !dropped && (p = atomic_fetch_add(&q->next, 1)) < count) {
		if (!out && !(out = output_new(q->document, q->backend, q->out_dir, q->set)))
			error = rli_error_oom();
		if (error == RLI_OK && !begun && (error = q->backend->begin_document(out, q->document)) == RLI_OK)
			begun = 1;
		if (error == RLI_OK && (error = open_file(out, q->out_dir, p)) == RLI_OK)
			error = draw_page(out, p);
		pthread_mutex_lock(&q->lock);
		while (error == RLI_OK && p < q->failed.at && q->kept != p)
			pthread_cond_wait(&q->turn, &q->lock);
		dropped = error == RLI_OK && p > q->failed.at;
		if (error == RLI_OK && !dropped && (error = keep_page(out)) == RLI_OK) {
			q->kept++;
			pthread_cond_broadcast(&q->turn);
		}
		if (error < 0)
			page_failed(q, p, error);
		pthread_mutex_unlock(&q->lock);
	}
	if (error == RLI_OK && begun && (error = q->backend->finish(out)) < 0) {
		pthread_mutex_lock(&q->lock);
		page_failed(q, count, error);
		pthread_mutex_unlock(&q->lock);
	}
	if (out) {
		abort_page(out); /* a dropped or failed page's temporaries */
		q->backend->destroy(out);
		free(out);
	}
	return error;
}

/* Threads for a document of a file per page: the caller's choice, else one a CPU; never more than pages or the cap. */
static unsigned page_threads(const rli_render_options *options, size_t pages)
{
	return rli_task_threads(options ? options->threads : 0, pages, RENDER_MAX_THREADS);
}

static int render_per_page(const rli_document *document, const rli_backend *backend, const char *out_dir,
			   rli_output_set *set, unsigned threads)
{
	page_queue q = { .document = document, .backend = backend, .out_dir = out_dir, .set = set };
	atomic_init(&q.next, 0);
	rli_first_failure_init(&q.failed);
	if (pthread_mutex_init(&q.lock, NULL) != 0)
		return rli_error_set(RLI_ERROR, "cannot create a mutex");
	if (pthread_cond_init(&q.turn, NULL) != 0) {
		pthread_mutex_destroy(&q.lock);
		return rli_error_set(RLI_ERROR, "cannot create a condition variable");
	}
	rli_task_together(threads, draw_pages, &q);
	pthread_cond_destroy(&q.turn);
	pthread_mutex_destroy(&q.lock);
	return rli_first_failure_raise(&q.failed);
}

int rli_render_with(const rli_document *document, const char *backend_name, const char *out_dir,
		    rli_output_set *set, const rli_render_options *options)
{
	const rli_backend *backend = rli_backend_find(backend_name);
	rli_output *out;
	int error;

	if (!backend)
		return rli_error_set(RLI_EUSAGE, "unknown output type '%s'", backend_name);
	if (!document || !document->name || !document->page_count)
		return rli_error_set(RLI_EUSAGE, "%s: the document has no page to draw", backend_name);
	/* begin_document of a single file may read the first page, whole only while made: a file a page it is */
	if (document->load_page && !(backend->file_per_page || document->file_per_page))
		return rli_error_set(RLI_EUSAGE, "%s: a document of pages made when drawn is drawn a file a page",
				     backend_name);
	if (backend->file_per_page || document->file_per_page)
		return render_per_page(document, backend, out_dir, set, page_threads(options, document->page_count));
	if (!(out = output_new(document, backend, out_dir, set)))
		return rli_error_oom();
	if ((error = open_file(out, out_dir, SIZE_MAX)) < 0)
		goto done;
	if ((error = backend->begin_document(out, document)) < 0)
		goto done;
	for (size_t p = 0; p < document->page_count && error == RLI_OK; p++)
		if ((error = draw_page(out, p)) == RLI_OK)
			error = keep_page(out);
	if (error == RLI_OK)
		error = backend->finish(out);

done:
	/* A back-end may still write while it is destroyed (cairo finishes a PDF), so first. */
	backend->destroy(out);
	if (error == RLI_OK)
		error = rli_output_finish(set, &out->file);
	else
		abort_page(out);
	free(out);
	return error;
}

int rli_render(const rli_document *document, const char *backend_name, const char *out_dir,
	       rli_output_set *set)
{
	return rli_render_with(document, backend_name, out_dir, set, NULL);
}

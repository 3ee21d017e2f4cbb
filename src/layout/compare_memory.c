/* compare_memory.c: the memory side of the compare page: each device both runs (or one) have, and the call sites whose memory grew most. */
#include "compare_page.h"
#include "common/error.h"
#include "common/strutil.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

/*
 * A site's change (KB): its growth where it grew (the larger of its allocated and its
 * live-at-peak growth), else how much it shrank (the larger fall); 0 for a site that did not move.
 */
static double site_change(const rli_site_change *s)
{
	double allocated = s->current_allocated_kb - s->baseline_allocated_kb, live = s->current_live_kb - s->baseline_live_kb;
	double up = fmax(allocated, live);
	return up > 0 ? up : fmin(allocated, live);
}

/* The most grown first, the most shrunk last; the sites that did not move after them all. */
static int larger_growth(const void *pa, const void *pb)
{
	const rli_compare_memory_site *a = pa, *b = pb;
	double x = site_change(a->site), y = site_change(b->site);
	int ma = x != 0, mb = y != 0;
	if (ma != mb)
		return mb - ma;
	if (x != y)
		return x > y ? -1 : 1;
	/* ties in the comparison's order: by device, then its sites' order */
	return a->site < b->site ? -1 : a->site > b->site;
}

static char *device_label(const rli_device_change *d)
{
	return rli_strfmt("%s rank %" PRId64 " %s", d->role, d->rank, d->device_type);
}

int rli_compare_memory_build(rli_compare_memory **out, const rli_comparison *c)
{
	rli_compare_memory *m = calloc(1, sizeof(*m));
	size_t sites = 0;
	int error = RLI_OK;

	*out = NULL;
	if (!m)
		return rli_error_oom();
	for (size_t d = 0; d < c->device_count; d++)
		sites += c->devices[d].site_count;
	if (!(m->devices = calloc(c->device_count + 1, sizeof(*m->devices))) ||
	    !(m->sites = calloc(sites + 1, sizeof(*m->sites)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t d = 0; d < c->device_count && error == RLI_OK; d++) {
		const rli_device_change *dev = &c->devices[d];
		rli_compare_memory_device *row = &m->devices[m->device_count++];
		row->change = dev;
		if (!(row->label = device_label(dev)))
			error = rli_error_oom();
		for (size_t s = 0; s < dev->site_count; s++)
			m->sites[m->site_count++] = (rli_compare_memory_site){ d, &c->sites[dev->first_site + s] };
	}
	if (error == RLI_OK) {
		qsort(m->sites, m->site_count, sizeof(*m->sites), larger_growth);
		/* a site the same in both runs says nothing about the change: the list is of those that moved */
		size_t moved = 0;
		for (size_t i = 0; i < m->site_count; i++)
			moved += site_change(m->sites[i].site) != 0;
		m->sites_listed = moved < RLI_COMPARE_MEMORY_SITES ? moved : RLI_COMPARE_MEMORY_SITES;
		m->complete = 1;
		for (size_t d = 0; d < c->device_count; d++)
			m->complete &= c->devices[d].sites_complete;
	}
done:
	if (error == RLI_OK)
		*out = m;
	else
		rli_compare_memory_free(m);
	return error;
}

void rli_compare_memory_free(rli_compare_memory *m)
{
	if (!m)
		return;
	for (size_t d = 0; d < m->device_count; d++)
		free(m->devices[d].label);
	free(m->devices);
	free(m->sites);
	free(m);
}

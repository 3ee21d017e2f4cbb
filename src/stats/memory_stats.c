/* memory_stats.c: the memory statistics per device, from the shared device split and curve: peak, live blocks, never freed, call sites, stacks, matches. */
#include "memory_stats.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "memory/memory_curve.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sites by bytes allocated, then more allocations, then text: no tie left to qsort. */
static int by_allocated(const void *a, const void *b)
{
	const rli_memory_site *x = a, *y = b;
	if (x->allocated_kb != y->allocated_kb)
		return x->allocated_kb > y->allocated_kb ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->text, y->text);
}

static int by_text(const void *a, const void *b)
{
	const rli_memory_site *x = a, *y = b;
	return strcmp(x->text, y->text);
}

/* A site with its index, so a ranking by live bytes can point back into the sites. */
typedef struct {
	const rli_memory_site *site;
	size_t index;
} site_ref;

static int by_live(const void *a, const void *b)
{
	const site_ref *x = a, *y = b;
	if (x->site->live_kb != y->site->live_kb)
		return x->site->live_kb > y->site->live_kb ? -1 : 1;
	return strcmp(x->site->text, y->site->text);
}

/*
 * Adds one allocation to the site of string id `id`: slot[id] holds the
 * site's index + 1 while the device is counted (0: none yet).
 */
static void count_site(rli_memory_site *sites, size_t *count, uint32_t *slot, const rli_memory *memory, uint32_t id,
		       double size_kb, int live)
{
	rli_memory_site *s;
	if (!slot[id]) {
		sites[*count] = (rli_memory_site){ rli_strpool_get(&memory->strings, id), 0, 0, 0, 0, 0 };
		slot[id] = (uint32_t)++*count;
	}
	s = &sites[slot[id] - 1];
	s->count++;
	s->allocated_kb += size_kb;
	if (live) {
		s->live_count++;
		s->live_kb += size_kb;
	}
}

static void set_shares(rli_memory_site *sites, size_t count, double peak_kb)
{
	for (size_t i = 0; i < count; i++)
		sites[i].peak_share = peak_kb > 0 ? sites[i].live_kb / peak_kb : 0;
}

/* The live blocks at the peak: the largest RLI_MEMORY_STATS_TOP listed, all of them marked in live_mark. */
static int live_at_peak(rli_memory_device_stats *st, uint8_t *live_mark, const rli_memory_device *device, const uint32_t *rows,
			const rli_memory_summary *summary)
{
	rli_memory_block *live = NULL;
	size_t alive = 0;
	int error;

	memset(live_mark, 0, device->count ? device->count : 1);
	if ((error = rli_memory_live_blocks(&live, &alive, device, summary, st->peak_ms)) < 0)
		return error;
	st->live_at_peak = alive;
	for (size_t i = 0; i < alive; i++) {
		const rli_memory_block *b = &live[i];
		live_mark[b->index] = 1;
		if (i < RLI_MEMORY_STATS_TOP)
			st->top_live[st->top_live_count++] = (rli_memory_live_block){
				device->op_name[b->index], b->size_kb, b->start, b->end - b->start,
				!(device->duration_ms[b->index] > 0 && isfinite(device->duration_ms[b->index])),
				device->call_stack_top[b->index], rows[b->index]
			};
	}
	rli_bigmem_free(live);
	return RLI_OK;
}

/* Every call site and every stack of the device, ranked. slot_top and slot_stack come in and leave all 0. */
static int rank_sites(rli_memory_device_stats *st, const rli_memory *memory, const uint32_t *rows, size_t count,
		      const uint8_t *live_mark, uint32_t *slot_top, uint32_t *slot_stack)
{
	site_ref *refs = NULL;
	double peak_kb = 0;

	st->sites = calloc(count ? count : 1, sizeof(*st->sites));
	st->stacks = calloc(count ? count : 1, sizeof(*st->stacks));
	if (!st->sites || !st->stacks)
		return rli_error_oom();
	for (size_t i = 0; i < count; i++) {
		uint32_t r = rows[i];
		count_site(st->sites, &st->site_count, slot_top, memory, memory->call_stack_top[r], memory->size_kb[r],
			   live_mark[i]);
		count_site(st->stacks, &st->stack_count, slot_stack, memory, memory->call_stack[r], memory->size_kb[r],
			   live_mark[i]);
	}
	/*
	 * A share is of what the capture's blocks hold at the peak: the peak itself on the blocks' curve,
	 * less what was allocated before the capture on the allocator's count.
	 */
	for (size_t i = 0; i < count; i++)
		if (live_mark[i])
			peak_kb += memory->size_kb[rows[i]];
	for (size_t i = 0; i < count; i++) {
		slot_top[memory->call_stack_top[rows[i]]] = 0;
		slot_stack[memory->call_stack[rows[i]]] = 0;
	}
	set_shares(st->sites, st->site_count, peak_kb);
	set_shares(st->stacks, st->stack_count, peak_kb);
	qsort(st->sites, st->site_count, sizeof(*st->sites), by_allocated);
	qsort(st->stacks, st->stack_count, sizeof(*st->stacks), by_text);
	if (!(refs = malloc((st->site_count ? st->site_count : 1) * sizeof(*refs))))
		return rli_error_oom();
	{
		size_t n = 0;
		for (size_t i = 0; i < st->site_count; i++)
			if (st->sites[i].live_kb > 0)
				refs[n++] = (site_ref){ &st->sites[i], i };
		qsort(refs, n, sizeof(*refs), by_live);
		for (size_t i = 0; i < n && i < RLI_MEMORY_STATS_TOP; i++)
			st->sites_by_live[st->sites_by_live_count++] = refs[i].index;
	}
	free(refs);
	return RLI_OK;
}

/* The device's curve summary: its blocks made and swept (the statistics' own, none kept). */
static int sweep(rli_memory_summary *summary, const rli_memory_device *device)
{
	rli_memory_block *blocks = rli_bigmem_array(device->count, sizeof(*blocks));
	int error;
	if (!blocks)
		return rli_error_oom();
	error = rli_memory_curve(summary, NULL, NULL, NULL, device, blocks, rli_memory_blocks(blocks, summary, device));
	rli_bigmem_free(blocks);
	return error;
}

static int device_stats(rli_memory_device_stats *st, const rli_memory *memory, const rli_memory_devices *split,
			size_t d, const rli_memory_summary *known, uint32_t *slot_top, uint32_t *slot_stack)
{
	const rli_memory_device *device = &split->devices[d];
	const uint32_t *rows = rli_memory_device_rows(split, d);
	uint8_t *live_mark = rli_bigmem_array(device->count, 1);
	rli_memory_summary summary;
	int error, any;

	st->role = device->role;
	st->rank = device->rank;
	st->device_type = device->device_type ? device->device_type : "";
	st->shares_rank = device->shares_rank;
	st->allocations = device->count;
	if (!live_mark) {
		error = rli_error_oom();
		goto done;
	}
	if (known)
		summary = *known; /* the same blocks' curve, swept where it was drawn */
	else if ((error = sweep(&summary, device)) < 0)
		goto done;
	any = isfinite(summary.t_min_ms); /* a block at least: the first one's start */
	st->first_ms = any ? summary.t_min_ms : 0;
	st->last_ms = any ? summary.t_max_ms : 0;
	st->peak_mb = summary.peak_mb;
	st->allocator_count = summary.totals != RLI_MEMORY_TOTALS_NONE;
	st->before_mb = summary.before_mb;
	st->peak_ms = summary.peak_ms;
	st->peak_abs_ms = st->first_ms + st->peak_ms;
	st->never_freed = summary.never_freed;
	st->never_freed_kb = summary.never_freed_kb;
	for (size_t i = 0; i < device->count; i++) {
		uint32_t r = rows[i];
		st->allocated_kb += device->size_kb[i];
		rli_memory_count_row(&st->matches, memory->size_kb[r], rli_memory_match_of(memory, r), memory->gap_ms[r]);
	}
	if ((error = live_at_peak(st, live_mark, device, rows, &summary)) < 0)
		goto done;
	error = rank_sites(st, memory, rows, device->count, live_mark, slot_top, slot_stack);
done:
	rli_bigmem_free(live_mark);
	return error;
}

int rli_memory_stats_compute(rli_memory_stats **out, const rli_memory *memory)
{
	rli_memory_devices split = { 0 };
	int error;

	*out = NULL;
	if ((error = rli_memory_devices_split(&split, memory, 0)) == RLI_OK)
		error = rli_memory_stats_compute_split(out, memory, &split, NULL);
	rli_memory_devices_dispose(&split);
	return error;
}

int rli_memory_stats_compute_split(rli_memory_stats **out, const rli_memory *memory, const rli_memory_devices *split,
				   const rli_memory_summary *const *known)
{
	rli_memory_stats *stats = calloc(1, sizeof(*stats));
	size_t pool = memory ? memory->strings.count : 0;
	uint32_t *slot_top = calloc(pool ? pool : 1, sizeof(*slot_top));
	uint32_t *slot_stack = calloc(pool ? pool : 1, sizeof(*slot_stack));
	int error = RLI_OK;

	*out = NULL;
	if (!stats || !slot_top || !slot_stack) {
		error = rli_error_oom();
		goto done;
	}
	stats->rows = rli_memory_count(memory);
	rli_memory_count_matches(&stats->matches, memory);
	if (!(stats->devices = calloc(split->count ? split->count : 1, sizeof(*stats->devices)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t d = 0; d < split->count; d++) {
		error = device_stats(&stats->devices[d], memory, split, d, known ? known[d] : NULL, slot_top, slot_stack);
		stats->device_count++; /* counted even when it failed, so its parts are freed */
		if (error < 0)
			goto done;
	}
	*out = stats;
	stats = NULL;
done:
	free(slot_top);
	free(slot_stack);
	rli_memory_stats_free(stats);
	return error;
}

void rli_memory_stats_free(rli_memory_stats *stats)
{
	if (!stats)
		return;
	for (size_t d = 0; d < stats->device_count; d++) {
		free(stats->devices[d].sites);
		free(stats->devices[d].stacks);
	}
	free(stats->devices);
	free(stats);
}

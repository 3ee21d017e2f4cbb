/* summary_memory.c: summary.json's "memory" part: per device the peak, what is live there, never-freed blocks, the call sites, how the stacks matched. */
#include "summary.h"
#include "summary_internal.h"
#include "common/error.h"

#include <stdlib.h>

static void matches(FILE *fp, const rli_memory_match_counts *m)
{
	key(fp, "matches", 0);
	putc('{', fp);
	count(fp, "allocations", m->allocations, 1);
	count(fp, "inside_op", m->matched_inside, 0);
	count(fp, "after_op_end", m->matched_after_end, 0);
	count(fp, "unmatched", m->unmatched, 0);
	number(fp, "max_gap_ms", m->max_gap_ms, 0);
	putc('}', fp);
}

static void site(FILE *fp, const rli_memory_site *s, int first)
{
	fputs(first ? "{" : ",{", fp);
	text(fp, "call_stack_top", s->text, 1);
	count(fp, "count", s->count, 0);
	number(fp, "allocated_kb", s->allocated_kb, 0);
	count(fp, "live_count", s->live_count, 0);
	number(fp, "live_kb", s->live_kb, 0);
	number(fp, "peak_share", s->peak_share, 0);
	putc('}', fp);
}

static void device(FILE *fp, const rli_memory_device_stats *d, size_t index)
{
	item_open(fp, index);
	text(fp, "role", d->role, 1);
	rank(fp, "rank", d->rank, 0);
	text(fp, "device_type", d->device_type, 0);
	count(fp, "allocations", d->allocations, 0);
	number(fp, "allocated_kb", d->allocated_kb, 0);
	number(fp, "first_ms", d->first_ms, 0);
	number(fp, "last_ms", d->last_ms, 0);
	number(fp, "peak_mb", d->peak_mb, 0);
	text(fp, "curve", d->allocator_count ? "allocator" : "blocks", 0);
	number(fp, "allocated_before_mb", d->before_mb, 0);
	number(fp, "peak_ms", d->peak_ms, 0);
	number(fp, "peak_at_ms", d->peak_abs_ms, 0);
	count(fp, "live_at_peak", d->live_at_peak, 0);
	count(fp, "never_freed", d->never_freed, 0);
	number(fp, "never_freed_kb", d->never_freed_kb, 0);
	key(fp, "largest_live", 0);
	putc('[', fp);
	for (size_t i = 0; i < d->top_live_count; i++) {
		const rli_memory_live_block *b = &d->top_live[i];
		fputs(i ? ",{" : "{", fp);
		text(fp, "name", b->op_name, 1);
		number(fp, "size_kb", b->size_kb, 0);
		number(fp, "start_ms", b->start_ms, 0);
		key(fp, "duration_ms", 0);
		if (b->never_freed)
			fputs("null", fp);
		else
			rli_json_write_double(fp, b->duration_ms);
		text(fp, "call_stack_top", b->call_stack_top, 0);
		putc('}', fp);
	}
	putc(']', fp);
	count(fp, "call_sites", d->site_count, 0);
	key(fp, "sites_by_allocated", 0);
	putc('[', fp);
	for (size_t i = 0; i < d->site_count && i < RLI_MEMORY_STATS_TOP; i++)
		site(fp, &d->sites[i], i == 0);
	putc(']', fp);
	key(fp, "sites_by_live", 0);
	putc('[', fp);
	for (size_t i = 0; i < d->sites_by_live_count; i++)
		site(fp, &d->sites[d->sites_by_live[i]], i == 0);
	putc(']', fp);
	count(fp, "call_stacks", d->stack_count, 0);
	matches(fp, &d->matches);
	putc('}', fp);
}

/* Higher peaks first, then (role, rank) order, which the devices' indices keep. */
static int higher_peak(const void *pa, const void *pb)
{
	const rli_memory_device_stats *a = *(const rli_memory_device_stats *const *)pa;
	const rli_memory_device_stats *b = *(const rli_memory_device_stats *const *)pb;
	if (a->peak_mb != b->peak_mb)
		return a->peak_mb > b->peak_mb ? -1 : 1;
	return (a > b) - (a < b);
}

int rli_summary_write_memory(FILE *fp, const rli_memory_stats *m)
{
	size_t listed = m->device_count <= RLI_SUMMARY_MAX_DEVICES ? m->device_count : RLI_SUMMARY_MAX_DEVICES;
	const rli_memory_device_stats **order = malloc((m->device_count ? m->device_count : 1) * sizeof(*order));

	if (!order)
		return rli_error_oom();
	for (size_t d = 0; d < m->device_count; d++)
		order[d] = &m->devices[d];
	if (listed < m->device_count)
		qsort(order, m->device_count, sizeof(*order), higher_peak);
	fputs(",\n\"memory\":{", fp);
	count(fp, "rows", m->rows, 1);
	count(fp, "device_count", m->device_count, 0);
	text(fp, "devices_listed", listed == m->device_count ? "all" : "highest peaks", 0);
	matches(fp, &m->matches);
	list_open(fp, "devices");
	for (size_t d = 0; d < listed; d++)
		device(fp, order[d], d);
	fputs("]}", fp);
	free(order);
	return RLI_OK;
}

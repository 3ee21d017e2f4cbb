/* events.c: the columnar event table that parsers fill and everything else reads. */
#include "events.h"
#include "common/error.h"
#include "common/sort.h"

#include <stdlib.h>
#include <string.h>

int rli_events_new(rli_events **out)
{
	rli_events *events = calloc(1, sizeof(*events));
	*out = NULL;
	if (!events)
		return rli_error_oom();
	rli_strpool_init(&events->strings);
	*out = events;
	return RLI_OK;
}

void rli_events_free(rli_events *events)
{
	if (!events)
		return;
	rli_strpool_dispose(&events->strings);
	free(events->name);
	free(events->role);
	free(events->domain);
	free(events->tid);
	free(events->tid_is_text);
	free(events->rank_id);
	free(events->start_ms);
	free(events->duration_ms);
	free(events);
}

size_t rli_events_count(const rli_events *events)
{
	return events ? events->count : 0;
}

void rli_events_get(rli_event *out, const rli_events *events, size_t i)
{
	out->name = rli_events_str(events, events->name[i]);
	out->role = rli_events_str(events, events->role[i]);
	out->domain = rli_events_str(events, events->domain[i]);
	out->tid = rli_events_str(events, events->tid[i]);
	out->tid_is_text = events->tid_is_text[i];
	out->rank_id = events->rank_id[i];
	out->start_ms = events->start_ms[i];
	out->duration_ms = events->duration_ms[i];
	out->end_ms = rli_events_end_ms(events, i);
}

#define GROW_COLUMN(col)                                                        \
	do {                                                                    \
		void *p = realloc(events->col, capacity * sizeof(*events->col)); \
		if (!p)                                                         \
			return rli_error_oom();                                 \
		events->col = p;                                                \
	} while (0)

static int reserve(rli_events *events, size_t wanted)
{
	size_t capacity;
	if (wanted <= events->capacity)
		return RLI_OK;
	capacity = events->capacity ? events->capacity : 256;
	while (capacity < wanted)
		capacity *= 2;
	GROW_COLUMN(name);
	GROW_COLUMN(role);
	GROW_COLUMN(domain);
	GROW_COLUMN(tid);
	GROW_COLUMN(tid_is_text);
	GROW_COLUMN(rank_id);
	GROW_COLUMN(start_ms);
	GROW_COLUMN(duration_ms);
	events->capacity = capacity;
	return RLI_OK;
}

static uint32_t intern(rli_events *events, const char *text)
{
	return rli_strpool_intern(&events->strings, text, strlen(text));
}

/* Parsers append runs of rows that share a domain and a tid: the row before's id, without hashing. */
static uint32_t intern_as_before(rli_events *events, const uint32_t *column, const char *text)
{
	size_t length = strlen(text), i = events->count;
	if (i > 0 && rli_strpool_length(&events->strings, column[i - 1]) == length &&
	    memcmp(rli_strpool_get(&events->strings, column[i - 1]), text, length) == 0)
		return column[i - 1];
	return rli_strpool_intern(&events->strings, text, length);
}

int rli_events_append(rli_events *events, const rli_event_in *row)
{
	size_t i = events->count;
	uint32_t name, role, domain, tid;
	if (reserve(events, i + 1) < 0)
		return RLI_ERROR;
	name = intern(events, row->name);
	role = row->role == row->name ? name : intern(events, row->role);
	domain = intern_as_before(events, events->domain, row->domain ? row->domain : "default");
	tid = intern_as_before(events, events->tid, row->tid);
	if (name == RLI_STRPOOL_NONE || role == RLI_STRPOOL_NONE ||
	    domain == RLI_STRPOOL_NONE || tid == RLI_STRPOOL_NONE)
		return rli_error_oom();
	events->name[i] = name;
	events->role[i] = role;
	events->domain[i] = domain;
	events->tid[i] = tid;
	events->tid_is_text[i] = row->tid_is_text ? 1 : 0;
	events->rank_id[i] = row->rank_id;
	events->start_ms[i] = row->start_ms;
	events->duration_ms[i] = row->duration_ms;
	events->count = i + 1;
	return RLI_OK;
}

int rli_events_append_like(rli_events *events, size_t like, double start_ms, double duration_ms)
{
	size_t i = events->count;
	if (like >= i)
		return rli_error_set(RLI_ERROR, "no row %zu to copy (the table has %zu)", like, i);
	if (reserve(events, i + 1) < 0)
		return RLI_ERROR;
	events->name[i] = events->name[like];
	events->role[i] = events->role[like];
	events->domain[i] = events->domain[like];
	events->tid[i] = events->tid[like];
	events->tid_is_text[i] = events->tid_is_text[like];
	events->rank_id[i] = events->rank_id[like];
	events->start_ms[i] = start_ms;
	events->duration_ms[i] = duration_ms;
	events->count = i + 1;
	return RLI_OK;
}

int rli_events_append_all(rli_events *dst, const rli_events *src)
{
	uint32_t *remap;
	size_t base = dst->count;
	if (reserve(dst, dst->count + src->count) < 0)
		return RLI_ERROR;
	/* Re-intern each distinct string once, not once per row. */
	remap = malloc((src->strings.count ? src->strings.count : 1) * sizeof(*remap));
	if (!remap)
		return rli_error_oom();
	for (uint32_t id = 0; id < src->strings.count; id++) {
		remap[id] = rli_strpool_intern(&dst->strings, rli_strpool_get(&src->strings, id),
					       rli_strpool_length(&src->strings, id));
		if (remap[id] == RLI_STRPOOL_NONE) {
			free(remap);
			return rli_error_oom();
		}
	}
	for (size_t i = 0; i < src->count; i++) {
		dst->name[base + i] = remap[src->name[i]];
		dst->role[base + i] = remap[src->role[i]];
		dst->domain[base + i] = remap[src->domain[i]];
		dst->tid[base + i] = remap[src->tid[i]];
	}
	memcpy(dst->tid_is_text + base, src->tid_is_text, src->count * sizeof(*src->tid_is_text));
	memcpy(dst->rank_id + base, src->rank_id, src->count * sizeof(*src->rank_id));
	memcpy(dst->start_ms + base, src->start_ms, src->count * sizeof(*src->start_ms));
	memcpy(dst->duration_ms + base, src->duration_ms, src->count * sizeof(*src->duration_ms));
	dst->count += src->count;
	free(remap);
	return RLI_OK;
}

#define PERMUTE_COLUMN(col)                                            \
	do {                                                           \
		for (size_t k = 0; k < n; k++)                         \
			((__typeof__(events->col))scratch)[k] = events->col[sorted_order[k]]; \
		memcpy(events->col, scratch, n * sizeof(*events->col)); \
	} while (0)

int rli_events_sort_by_start(rli_events *events)
{
	size_t n = events->count;
	size_t *sorted_order;
	void *scratch;
	int sorted = 1;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = events->start_ms[i - 1] <= events->start_ms[i];
	if (sorted)
		return RLI_OK;
	sorted_order = rli_sorted_rows(events->start_ms, n);
	scratch = malloc(n * sizeof(double));
	if (!sorted_order || !scratch) {
		free(sorted_order);
		free(scratch);
		return rli_error_oom();
	}
	PERMUTE_COLUMN(name);
	PERMUTE_COLUMN(role);
	PERMUTE_COLUMN(domain);
	PERMUTE_COLUMN(tid);
	PERMUTE_COLUMN(tid_is_text);
	PERMUTE_COLUMN(rank_id);
	PERMUTE_COLUMN(start_ms);
	PERMUTE_COLUMN(duration_ms);
	free(sorted_order);
	free(scratch);
	return RLI_OK;
}

void rli_events_filter(rli_events *events, const uint8_t *keep)
{
	size_t out = 0;
	for (size_t i = 0; i < events->count; i++) {
		if (!keep[i])
			continue;
		events->name[out] = events->name[i];
		events->role[out] = events->role[i];
		events->domain[out] = events->domain[i];
		events->tid[out] = events->tid[i];
		events->tid_is_text[out] = events->tid_is_text[i];
		events->rank_id[out] = events->rank_id[i];
		events->start_ms[out] = events->start_ms[i];
		events->duration_ms[out] = events->duration_ms[i];
		out++;
	}
	events->count = out;
}

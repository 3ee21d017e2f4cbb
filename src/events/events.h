/* events.h: the columnar event table that parsers fill and everything else reads. */
#ifndef RLI_EVENTS_H
#define RLI_EVENTS_H

#include "rl_insight.h"
#include "common/strpool.h"

#include <stdint.h>

/*
 * One row per bar (timeline.md §2.1). Columns, not structs, so a million rows
 * cost ~40 bytes each and a pass over one column stays in cache. end_ms is
 * not stored: it is always start_ms + duration_ms, exactly as the reference
 * computes it.
 */
struct rli_events {
	rli_strpool strings; /* names, roles, domains and tids */
	size_t count, capacity;
	uint32_t *name;
	uint32_t *role;
	uint32_t *domain;
	uint32_t *tid;
	uint8_t *tid_is_text;
	int64_t *rank_id;
	double *start_ms;
	double *duration_ms;
};

/* A row as parsers hand it over; strings are copied (interned). */
typedef struct {
	const char *name;
	const char *role;
	const char *domain; /* NULL means "default" */
	const char *tid;
	int tid_is_text;
	int64_t rank_id;
	double start_ms;
	double duration_ms;
} rli_event_in;

int rli_events_new(rli_events **out);
/*
 * Room for `rows` more rows (an empty table gets that many, at least 256): a parser that knows its
 * row count avoids regrowing and copying the columns.
 */
int rli_events_reserve(rli_events *events, size_t rows);
int rli_events_append(rli_events *events, const rli_event_in *row);
/*
 * Appends a row with the name, role, domain, tid and rank of row `like` and these times: a
 * parser's rows often differ only in time, and this needs no string lookup. RLI_ERROR (a bug) if
 * there is no such row.
 */
int rli_events_append_like(rli_events *events, size_t like, double start_ms, double duration_ms);
/* Appends every row of src (in order) to dst. */
int rli_events_append_all(rli_events *dst, const rli_events *src);
/* Appends rows begin..end-1 of src (in order) to dst. */
int rli_events_append_range(rli_events *dst, const rli_events *src, size_t begin, size_t end);
/* Drops the rows from `count` on (their strings stay in the pool, unused). */
void rli_events_truncate(rli_events *events, size_t count);
/*
 * Sort by start_ms; rows that start together by role, rank and thread, and one thread's keep
 * their current order. The reference keeps the order its workers finished in (timeline.md
 * §2.2), which varies from run to run; this rule depends on the rows alone (events.c).
 */
int rli_events_sort_by_start(rli_events *events);
/* Keeps the rows for which keep[i] is non-zero, in order. */
void rli_events_filter(rli_events *events, const uint8_t *keep);
/* Row `from` copied over row `to`, every column (the strings are the table's own: ids stay). */
static inline void rli_events_move_row(rli_events *events, size_t to, size_t from)
{
	events->name[to] = events->name[from];
	events->role[to] = events->role[from];
	events->domain[to] = events->domain[from];
	events->tid[to] = events->tid[from];
	events->tid_is_text[to] = events->tid_is_text[from];
	events->rank_id[to] = events->rank_id[from];
	events->start_ms[to] = events->start_ms[from];
	events->duration_ms[to] = events->duration_ms[from];
}

static inline const char *rli_events_str(const rli_events *events, uint32_t id)
{
	return rli_strpool_get(&events->strings, id);
}

static inline double rli_events_end_ms(const rli_events *events, size_t i)
{
	return events->start_ms[i] + events->duration_ms[i];
}

#endif

/* fuzz_stacks.h: the call-stack index of a trace read every way there is (yajl, the scanner, chunks, with the timeline), compared. */
#ifndef RLI_FUZZ_STACKS_H
#define RLI_FUZZ_STACKS_H

#include "fuzz_common.h"
#include "parse/json_items.h"
#include "parse/memory_internal.h"
#include "parse/mstx_internal.h"
#include "parse/trace_share.h"

/* Read with the timeline, the stacks kept in a share and taken back: the index as the memory analysis gets it. */
#define FUZZ_STACKS_WITH_TIMELINE (-100)

typedef struct {
	rli_unit unit;
	rli_stack_index index;
	int error;
} fuzz_stack_reading;

static inline void fuzz_stacks_read(fuzz_stack_reading *r, const char *path, const uint8_t *data, size_t size, int mode)
{
	rli_bytes *source = NULL;
	fuzz_unit_init(&r->unit, path);
	rli_stack_index_init(&r->index);
	r->error = -1;
	if (rli_bytes_from_memory(&source, path, data, size) != 0)
		return;
	if (mode == FUZZ_STACKS_WITH_TIMELINE) {
		rli_trace_share *share = NULL;
		rli_unit timeline;
		rli_events *rows = NULL;
		rli_stack_outcome outcome;
		fuzz_unit_init(&timeline, path);
		if (rli_trace_share_new(&share) == 0 && rli_events_new(&rows) == 0) {
			timeline.share = share;
			rli_mstx_parse_bytes(&timeline, source, rows);
			if (timeline.status == 0 && rli_trace_share_take(share, path, &r->index, &outcome))
				r->error = rli_stack_index_finish(&r->index, &r->unit, path, &outcome);
			else
				r->error = 1; /* not shared: the memory analysis reads the trace itself */
		}
		rli_events_free(rows);
		rli_trace_share_free(share);
		fuzz_unit_dispose(&timeline);
	} else {
		r->error = rli_stack_index_read_as(&r->index, &r->unit, source, size, mode);
	}
	rli_bytes_close(source);
}

static inline void fuzz_stacks_dispose(fuzz_stack_reading *r)
{
	rli_stack_index_dispose(&r->index);
	fuzz_unit_dispose(&r->unit);
}

static inline int fuzz_same_pool_text(const rli_strpool *a, uint32_t ida, const rli_strpool *b, uint32_t idb)
{
	return rli_strpool_length(a, ida) == rli_strpool_length(b, idb) &&
	       memcmp(rli_strpool_get(a, ida), rli_strpool_get(b, idb), rli_strpool_length(a, ida)) == 0;
}

/* The same ops (by text), counts and messages. */
static inline int fuzz_same_stacks(const fuzz_stack_reading *a, const fuzz_stack_reading *b)
{
	const rli_stack_index *x = &a->index, *y = &b->index;
	if (a->error != b->error || x->count != y->count || x->no_ts != y->no_ts || x->bad_dur != y->bad_dur ||
	    x->wrong_type != y->wrong_type || x->first_wrong_type != y->first_wrong_type ||
	    !fuzz_same_notes(&a->unit.failures, &b->unit.failures) || !fuzz_same_notes(&a->unit.log, &b->unit.log))
		return 0;
	for (size_t i = 0; i < x->count; i++) {
		const rli_stack_op *p = &x->ops[i], *q = &y->ops[i];
		if (memcmp(&p->ts, &q->ts, sizeof(p->ts)) != 0 || memcmp(&p->dur, &q->dur, sizeof(p->dur)) != 0 ||
		    !fuzz_same_pool_text(&x->names, p->name, &y->names, q->name) ||
		    !fuzz_same_pool_text(&x->stacks, p->stack, &y->stacks, q->stack))
			return 0;
	}
	return 1;
}

/*
 * Every reading of the bytes against yajl's: 1 when all agree, 0 when one differs (*which says
 * which mode), -1 when memory ran out. The timeline's reading agrees when it shares nothing too.
 */
static inline int fuzz_stack_readings_agree(const char *path, const uint8_t *data, size_t size, int *which)
{
	static const int modes[] = {RLI_JSON_READ_SCAN, 2, 3, 7, FUZZ_STACKS_WITH_TIMELINE};
	fuzz_stack_reading reference;
	int agree = 1;
	fuzz_stacks_read(&reference, path, data, size, RLI_JSON_READ_YAJL);
	for (size_t i = 0; agree == 1 && i < sizeof(modes) / sizeof(modes[0]); i++) {
		fuzz_stack_reading other;
		fuzz_stacks_read(&other, path, data, size, modes[i]);
		if (reference.error < 0 || other.error < 0 || reference.unit.status || other.unit.status)
			agree = -1;
		else if (!(modes[i] == FUZZ_STACKS_WITH_TIMELINE && other.error == 1) && !fuzz_same_stacks(&reference, &other)) {
			agree = 0;
			*which = modes[i];
		}
		fuzz_stacks_dispose(&other);
	}
	fuzz_stacks_dispose(&reference);
	return agree;
}

#endif

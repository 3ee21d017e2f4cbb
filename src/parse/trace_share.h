/* trace_share.h: the call stacks of trace_view.json files the timeline read, kept for the memory analysis that needs them next. */
#ifndef RLI_PARSE_TRACE_SHARE_H
#define RLI_PARSE_TRACE_SHARE_H

#include "memory_internal.h"

/*
 * The share itself is public and opaque (rl_insight.h: rli_trace_share); these are its parsers'
 * side. Both take the trace's path as discovery names it (the same tree gives the same path).
 */

/* Keeps index (moved: *index is left empty) under path. RLI_OK or RLI_ERROR (out of memory: nothing kept). */
int rli_trace_share_put(rli_trace_share *share, const char *path, rli_stack_index *index,
			const rli_stack_outcome *outcome);
/* Moves what path's reading kept into *index and *outcome: 1, or 0 when there is none. Thread-safe. */
int rli_trace_share_take(rli_trace_share *share, const char *path, rli_stack_index *index, rli_stack_outcome *outcome);

#endif

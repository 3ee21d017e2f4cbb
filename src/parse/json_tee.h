/* json_tee.h: one reading of a JSON file feeding two formats' callbacks, so two analyses read a trace once. */
#ifndef RLI_PARSE_JSON_TEE_H
#define RLI_PARSE_JSON_TEE_H

#include "json_chunks.h"

/*
 * Every call goes to both sides, in order, as each side's own reading would make it. When either
 * side stops, the tee stops: halted if that side halted (its state is what its own reading
 * would have left), else with that side's reason (its own reading must place it). The other side
 * is then incomplete: it is used only when the whole reading ended well.
 */
typedef struct {
	rli_json json; /* the tee's own, opened on rli_json_tee_callbacks: what the readers feed */
	const yajl_callbacks *callbacks[2];
	void *ctx[2];
	rli_json *side_json[2];
} rli_json_tee;

extern const yajl_callbacks rli_json_tee_callbacks;

/* RLI_OK or RLI_ERROR (out of memory). Each side's rli_json is opened on its own callbacks and context. */
int rli_json_tee_open(rli_json_tee *tee, const yajl_callbacks *first, void *first_ctx, rli_json *first_json,
		      const yajl_callbacks *second, void *second_ctx, rli_json *second_json);
void rli_json_tee_close(rli_json_tee *tee);

/* Two formats read in chunks at once: the owner rli_json_tee_chunking reads with. */
typedef struct {
	const rli_json_chunking *side[2];
	void *owner[2];
} rli_json_tee_owner;

extern const rli_json_chunking rli_json_tee_chunking;

#endif

/* json_tee.c: one reading of a JSON file feeding two formats' callbacks, whole or in chunks. */
#include "json_tee.h"
#include "common/error.h"

#include <stdlib.h>
#include <string.h>

/* A side's callback refused: the tee stops as that side would have. */
static int side_stopped(rli_json_tee *tee, int k)
{
	rli_json *side = tee->side_json[k];
	if (side->halted)
		return rli_json_halt(&tee->json);
	return rli_json_stop(&tee->json, "%s", side->reason ? side->reason : "stopped");
}

/* Calls callback `member` of both sides with the arguments that follow (BOTH0: none). */
#define BOTH(tee, member, ...)                                                        \
	do {                                                                          \
		for (int k = 0; k < 2; k++)                                           \
			if ((tee)->callbacks[k]->member &&                            \
			    !(tee)->callbacks[k]->member((tee)->ctx[k], __VA_ARGS__)) \
				return side_stopped(tee, k);                          \
	} while (0)
#define BOTH0(tee, member)                                                                          \
	do {                                                                                        \
		for (int k = 0; k < 2; k++)                                                         \
			if ((tee)->callbacks[k]->member && !(tee)->callbacks[k]->member((tee)->ctx[k])) \
				return side_stopped(tee, k);                                        \
	} while (0)

static int tee_null(void *ctx)
{
	BOTH0((rli_json_tee *)ctx, yajl_null);
	return 1;
}

static int tee_boolean(void *ctx, int value)
{
	BOTH((rli_json_tee *)ctx, yajl_boolean, value);
	return 1;
}

static int tee_number(void *ctx, const char *text, size_t length)
{
	BOTH((rli_json_tee *)ctx, yajl_number, text, length);
	return 1;
}

static int tee_string(void *ctx, const unsigned char *text, size_t length)
{
	BOTH((rli_json_tee *)ctx, yajl_string, text, length);
	return 1;
}

static int tee_key(void *ctx, const unsigned char *text, size_t length)
{
	BOTH((rli_json_tee *)ctx, yajl_map_key, text, length);
	return 1;
}

static int tee_start_map(void *ctx)
{
	rli_json_tee *tee = ctx;
	BOTH0(tee, yajl_start_map);
	return rli_json_enter(&tee->json);
}

static int tee_end_map(void *ctx)
{
	rli_json_tee *tee = ctx;
	BOTH0(tee, yajl_end_map);
	rli_json_leave(&tee->json);
	return 1;
}

static int tee_start_array(void *ctx)
{
	rli_json_tee *tee = ctx;
	BOTH0(tee, yajl_start_array);
	return rli_json_enter(&tee->json);
}

static int tee_end_array(void *ctx)
{
	rli_json_tee *tee = ctx;
	BOTH0(tee, yajl_end_array);
	rli_json_leave(&tee->json);
	return 1;
}

const yajl_callbacks rli_json_tee_callbacks = {
	tee_null, tee_boolean, NULL, NULL, tee_number, tee_string,
	tee_start_map, tee_key, tee_end_map, tee_start_array, tee_end_array};

int rli_json_tee_open(rli_json_tee *tee, const yajl_callbacks *first, void *first_ctx, rli_json *first_json,
		      const yajl_callbacks *second, void *second_ctx, rli_json *second_json)
{
	memset(tee, 0, sizeof(*tee));
	/* Numbers go to each side as text: a side must take yajl_number (json_items.h). */
	if (!first->yajl_number || !second->yajl_number)
		return RLI_ERROR;
	tee->callbacks[0] = first;
	tee->callbacks[1] = second;
	tee->ctx[0] = first_ctx;
	tee->ctx[1] = second_ctx;
	tee->side_json[0] = first_json;
	tee->side_json[1] = second_json;
	return rli_json_open(&tee->json, &rli_json_tee_callbacks, tee, 1);
}

void rli_json_tee_close(rli_json_tee *tee)
{
	rli_json_close(&tee->json);
}

/* ---- in chunks ------------------------------------------------------------- */

typedef struct {
	rli_json_tee tee;
	void *chunk[2];
	const rli_json_tee_owner *owner;
} tee_chunk;

static void tee_chunk_close(void *chunk)
{
	tee_chunk *c = chunk;
	for (int k = 0; k < 2; k++)
		if (c->chunk[k])
			c->owner->side[k]->close(c->chunk[k]);
	rli_json_tee_close(&c->tee);
	free(c);
}

static void *tee_chunk_open(void *owner)
{
	const rli_json_tee_owner *o = owner;
	tee_chunk *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->owner = o;
	for (int k = 0; k < 2; k++)
		if (!(c->chunk[k] = o->side[k]->open(o->owner[k])))
			goto fail;
	if (rli_json_tee_open(&c->tee, o->side[0]->callbacks, c->chunk[0], o->side[0]->json(c->chunk[0]),
			      o->side[1]->callbacks, c->chunk[1], o->side[1]->json(c->chunk[1])) < 0)
		goto fail;
	return c;
fail:
	tee_chunk_close(c);
	return NULL;
}

static rli_json *tee_chunk_json(void *chunk)
{
	return &((tee_chunk *)chunk)->tee.json;
}

static int tee_chunk_append(void *owner, void *chunk, uint64_t items_before)
{
	const rli_json_tee_owner *o = owner;
	tee_chunk *c = chunk;
	for (int k = 0; k < 2; k++)
		if (o->side[k]->append(o->owner[k], c->chunk[k], items_before) < 0)
			return RLI_ERROR;
	return RLI_OK;
}

const rli_json_chunking rli_json_tee_chunking = {&rli_json_tee_callbacks, tee_chunk_open, tee_chunk_json,
						 tee_chunk_append, tee_chunk_close};

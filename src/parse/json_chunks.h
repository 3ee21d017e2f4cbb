/* json_chunks.h: one large JSON array of items cut between items and read on several threads, the findings joined in file order. */
#ifndef RLI_PARSE_JSON_CHUNKS_H
#define RLI_PARSE_JSON_CHUNKS_H

#include "json_items.h"

/*
 * What a format gives to be read in chunks. Each chunk gets a reading context of its own
 * (`open`), read by rli_items_read into the format's callbacks; the chunks whose cuts held are
 * then handed back in file order (`append`), so what the format keeps is what one reading of the
 * whole file keeps, if the format appends exactly (counts added, first places offset by the
 * items before, lists concatenated).
 */
typedef struct {
	const yajl_callbacks *callbacks;
	void *(*open)(void *owner);              /* a fresh context for one chunk; NULL when out of memory */
	rli_json *(*json)(void *chunk);           /* its rli_json, opened on callbacks and the context */
	int (*append)(void *owner, void *chunk, uint64_t items_before); /* RLI_OK or RLI_ERROR */
	void (*close)(void *chunk);
} rli_json_chunking;

/* No chunks for files smaller than this each: the threads would cost more than they win. */
#define RLI_JSON_CHUNK_MIN ((uint64_t)16 << 20)

/* How many chunks a file of `size` bytes is cut into for `threads` threads (1: read it whole). */
unsigned rli_json_chunk_count(uint64_t size, unsigned threads);

/*
 * Reads the plain source (rli_bytes_plain_size) of `size` bytes in `chunks` chunks on up to
 * `threads` threads. A cut goes before an item that starts a line after a comma, and holds only
 * if the reading of the chunk before it ends exactly there; a chunk after a cut that did not
 * hold is read again by the chunk before it. RLI_READ_OK with every chunk appended,
 * RLI_READ_OOM, or RLI_ITEMS_DECLINED: nothing appended, the file is to be read whole (it is
 * no array of items, holds an error, or a callback stopped: one reading says where). *read
 * (when not NULL) is set to how many chunks held, for the log.
 */
int rli_json_chunks_read(const rli_json_chunking *how, void *owner, rli_bytes *source, uint64_t size,
			 unsigned chunks, unsigned threads, unsigned *read);

#endif

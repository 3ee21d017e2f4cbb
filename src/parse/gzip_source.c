/* gzip_source.c: a source's gzip members inflated by ISA-L's igzip or zlib, on the parse's thread or one of their own. */
#include "byte_source_internal.h"
#include "common/strutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef RLI_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

/* ---- raw bytes for the inflater --------------------------------------------- */

/* Points the inflater at more raw bytes. 1, 0 at the end, -1 on failure. */
static int raw_feed(rli_bytes *s)
{
	if (s->fd < 0) {
		size_t rest = s->memory_size - s->raw_at;
		/* Both libraries count input in 32 bits. */
		size_t take = rest < RLI_PARSE_CHUNK ? rest : RLI_PARSE_CHUNK;
		if (take == 0) {
			s->raw_eof = 1;
			return 0;
		}
		s->next_in = s->memory + s->raw_at;
		s->avail_in = take;
		s->raw_at += take;
		return 1;
	}
	if (s->in_at < s->in_length) {
		/* Bytes read when the magic was looked for, not yet inflated. */
		s->next_in = s->in + s->in_at;
		s->avail_in = s->in_length - s->in_at;
		s->in_at = s->in_length;
		return 1;
	}
	int got = rli_bytes_raw_fill(s);
	if (got <= 0)
		return got;
	s->next_in = s->in;
	s->avail_in = s->in_length;
	s->in_at = s->in_length;
	return 1;
}

/* Makes sure at least two raw bytes are in view when there are that many. 0, or -1 on failure. */
static int raw_two(rli_bytes *s)
{
	ssize_t got;
	if (s->avail_in >= 2)
		return 0;
	if (s->fd < 0) {
		size_t rest = s->memory_size - s->raw_at;
		size_t take = rest < RLI_PARSE_CHUNK ? rest : RLI_PARSE_CHUNK;
		if (s->avail_in == 0)
			s->next_in = s->memory + s->raw_at;
		s->avail_in += take;
		s->raw_at += take;
		return 0;
	}
	if (s->avail_in == 0) {
		int fed = raw_feed(s);
		if (fed <= 0 || s->avail_in >= 2)
			return fed < 0 ? -1 : 0;
	}
	/* One byte left of the last read: it goes in front of the next one. */
	s->in[0] = s->next_in[0];
	do
		got = s->raw_eof ? 0 : read(s->fd, s->in + 1, RLI_PARSE_CHUNK - 1);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return rli_bytes_fail_errno(s, errno);
	if (got == 0)
		s->raw_eof = 1;
	s->in_length = s->in_at = 1 + (size_t)got;
	s->next_in = s->in;
	s->avail_in = s->in_length;
	return 0;
}

/* ---- the two libraries ----------------------------------------------------- */

/* What one call of the inflater came to. */
enum { STEP_OK = 0, STEP_MEMBER_END, STEP_CORRUPT, STEP_OOM };

/* The library a new source inflates with: ISA-L where built in, unless RLI_GZIP=zlib asks for zlib. */
static int chosen_inflater(void)
{
#ifdef RLI_HAVE_ISAL
	const char *asked = getenv("RLI_GZIP");
	return asked && strcmp(asked, "zlib") == 0 ? INFLATE_ZLIB : INFLATE_ISAL;
#else
	return INFLATE_ZLIB;
#endif
}

/* A fresh member: the library's state from the start. 0, or -1 out of memory. */
static int inflater_reset(rli_bytes *s)
{
#ifdef RLI_HAVE_ISAL
	if (s->inflater == INFLATE_ISAL) {
		struct inflate_state *state = s->isal;
		/* Zeroed once: a corrupt stream's copy from before its start reads zeros, never old heap bytes. */
		if (!state && !(s->isal = state = calloc(1, sizeof(*state))))
			return -1;
		isal_inflate_init(state);
		state->crc_flag = ISAL_GZIP; /* the header parsed, the trailer's CRC-32 checked */
		return 0;
	}
#endif
	if (s->z_ready)
		return inflateReset(&s->z) == Z_OK ? 0 : -1;
	/* 16 + 15: a gzip wrapper and the largest window. */
	if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK)
		return -1;
	s->z_ready = 1;
	return 0;
}

#ifdef RLI_HAVE_ISAL
/* ISA-L's error codes in zlib's words, as the messages always had them. */
static const char *isal_why(int code)
{
	switch (code) {
	case ISAL_INVALID_BLOCK: return "invalid block type";
	case ISAL_INVALID_SYMBOL: return "invalid code";
	case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
	case ISAL_INVALID_WRAPPER: return "incorrect header check";
	case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
	case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
	case ISAL_NEED_DICT: return "a preset dictionary is needed";
	default: return "compressed data error";
	}
}

static int isal_step(rli_bytes *s, unsigned char *out, size_t room, size_t *made, const char **why)
{
	struct inflate_state *state = s->isal;
	uint32_t in_before = (uint32_t)s->avail_in;
	int ret;
	state->next_in = (uint8_t *)s->next_in;
	state->avail_in = in_before;
	state->next_out = out;
	state->avail_out = (uint32_t)room;
	ret = isal_inflate(state);
	*made = room - state->avail_out;
	s->next_in = state->next_in;
	s->avail_in = state->avail_in;
	if (ret < 0 || ret == ISAL_NEED_DICT) {
		/*
		 * What this call wrote may hold the bytes of a copy from before the stream's start
		 * (igzip checks the distance once it has copied): none of it is handed out.
		 */
		*made = 0;
		*why = isal_why(ret);
		return STEP_CORRUPT;
	}
	if (state->block_state == ISAL_BLOCK_FINISH)
		return STEP_MEMBER_END;
	/* Input given and room left, yet nothing moved: never loop on it. */
	if (*made == 0 && state->avail_in == in_before && in_before > 0 && room > 0) {
		*why = "compressed data error";
		return STEP_CORRUPT;
	}
	return STEP_OK;
}
#endif

/* One call of the library: raw bytes in view to out (room bytes); *made inflated. */
static int inflater_step(rli_bytes *s, unsigned char *out, size_t room, size_t *made, const char **why)
{
	int ret;
#ifdef RLI_HAVE_ISAL
	if (s->inflater == INFLATE_ISAL)
		return isal_step(s, out, room, made, why);
#endif
	s->z.next_in = (unsigned char *)s->next_in;
	s->z.avail_in = (uInt)s->avail_in;
	s->z.next_out = out;
	s->z.avail_out = (uInt)room;
	ret = inflate(&s->z, Z_NO_FLUSH);
	*made = room - s->z.avail_out;
	s->next_in = s->z.next_in;
	s->avail_in = s->z.avail_in;
	if (ret == Z_STREAM_END)
		return STEP_MEMBER_END;
	if (ret == Z_MEM_ERROR)
		return STEP_OOM;
	if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_STREAM_ERROR) {
		*why = ret == Z_DATA_ERROR && s->z.msg ? s->z.msg : "compressed data error";
		return STEP_CORRUPT;
	}
	return STEP_OK;
}

/* ---- members, failures and the bound ------------------------------------------- */

int rli_gzip_start(rli_bytes *s, const unsigned char *head, size_t length)
{
	if (length < 2 || head[0] != 0x1f || head[1] != 0x8b)
		return 0;
	s->gzip = 1;
	s->inflater = chosen_inflater();
	if (!s->out && !(s->out = malloc(GZIP_OUT)))
		return -1;
	return inflater_reset(s);
}

/* A gzip failure, worded as it always was for torch traces; kept until the bytes before it are out. */
static void gzip_failure(rli_bytes *s, const char *why, uint64_t at)
{
	free(s->deferred);
	s->deferred = rli_strfmt("Failed to decompress %s: %s after %llu bytes of %s (the gzip file is truncated or corrupt)",
				 s->name, why, (unsigned long long)at, s->content);
	if (!s->deferred)
		s->failed = 1; /* no memory for the message: fails now, as out of memory */
}

/*
 * After a member's end: another member follows (1), or the content is over (0). Bytes after
 * the last member that are no gzip are ignored, as gzread ignores them. -1 on failure.
 */
static int next_member(rli_bytes *s)
{
	if (raw_two(s) < 0)
		return -1;
	if (s->avail_in < 2 || s->next_in[0] != 0x1f || s->next_in[1] != 0x8b)
		return 0;
	if (inflater_reset(s) < 0) {
		s->failed = 1;
		return -1;
	}
	return 1;
}

/*
 * Inflates the next GZIP_OUT bytes at most into out: 1 with *have > 0, 0 at the end, -1 on
 * failure. A failure after some bytes is kept (deferred) until they are handed out.
 */
static int gzip_fill(rli_bytes *s, unsigned char *out, size_t *have)
{
	size_t made = 0;
	*have = 0;
	while (made < GZIP_OUT && !s->deferred) {
		const char *why = NULL;
		size_t step_made;
		int step;
		if (s->member_ended) {
			int more = next_member(s);
			if (more < 0)
				return -1;
			if (more == 0)
				break;
			s->member_ended = 0;
		}
		if (s->avail_in == 0) {
			int fed = raw_feed(s);
			if (fed < 0)
				return -1;
			if (fed == 0) {
				gzip_failure(s, "unexpected end of file", s->inflated + made);
				break;
			}
		}
		step = inflater_step(s, out + made, GZIP_OUT - made, &step_made, &why);
		made += step_made;
		if (step == STEP_MEMBER_END)
			s->member_ended = 1;
		else if (step == STEP_OOM)
			s->failed = 1;
		else if (step == STEP_CORRUPT)
			gzip_failure(s, why, s->inflated + made);
		if (s->failed)
			return -1;
	}
	if (made > s->limit - s->inflated || s->inflated > s->limit) {
		free(s->failure);
		s->failure = rli_strfmt("Failed to decompress %s: it inflates to more than %llu bytes, the most "
					"rl-insight reads from one gzip file (a damaged file or a gzip bomb)",
					s->name, (unsigned long long)s->limit);
		s->failed = 1;
		return -1;
	}
	if (made == 0) {
		if (!s->deferred)
			return 0;
		s->failure = s->deferred;
		s->deferred = NULL;
		s->failed = 1;
		return -1;
	}
	s->inflated += made;
	*have = made;
	return 1;
}

/* ---- inflating ahead, on a thread of its own ------------------------------------ */

/*
 * A ring of GZIP_AHEAD blocks: the thread fills them in order while the parse reads them, so
 * the inflating and the parse run side by side; it waits while every block is full, which
 * bounds the memory at GZIP_AHEAD blocks, and ends with a last result (0 at the end, -1 with
 * the source's failure set), after the blocks before it.
 */
struct gzip_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned char *blocks[GZIP_AHEAD];
	size_t have[GZIP_AHEAD];
	size_t head, filled; /* the next block to read, and how many are full from it on */
	int done, result;    /* the thread has ended, with this result of gzip_fill */
	int stop;            /* the reader is gone: end now */
	int reading;         /* the reader holds the block at head (it is handed out in slices) */
};

static void *ahead_run(void *arg)
{
	rli_bytes *s = arg;
	gzip_ahead *a = s->ahead;
	int result = 1;
	for (size_t slot = 0; result > 0; slot = (slot + 1) % GZIP_AHEAD) {
		size_t have = 0;
		pthread_mutex_lock(&a->lock);
		while (!a->stop && a->filled == GZIP_AHEAD)
			pthread_cond_wait(&a->changed, &a->lock);
		if (a->stop) {
			pthread_mutex_unlock(&a->lock);
			result = 0;
			break;
		}
		pthread_mutex_unlock(&a->lock);
		/* The block at slot is free: the reader is past it (filled < GZIP_AHEAD). */
		result = gzip_fill(s, a->blocks[slot], &have);
		if (result > 0) {
			pthread_mutex_lock(&a->lock);
			a->have[slot] = have;
			a->filled++;
			pthread_cond_broadcast(&a->changed);
			pthread_mutex_unlock(&a->lock);
		}
	}
	pthread_mutex_lock(&a->lock);
	a->done = 1;
	a->result = result;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* Ends the thread (it stops at its next block) and frees the ring. */
static void ahead_end(rli_bytes *s)
{
	gzip_ahead *a = s->ahead;
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = 1;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->changed);
	for (size_t i = 0; i < GZIP_AHEAD; i++)
		free(a->blocks[i]);
	free(a);
	s->ahead = NULL;
}

int rli_bytes_inflate_ahead(rli_bytes *s)
{
	gzip_ahead *a;
	if (!s->gzip || s->ahead || s->failed || s->offset != 0 || s->out_have != 0)
		return 0;
	if (!(a = calloc(1, sizeof(*a))))
		return 0;
	for (size_t i = 0; i < GZIP_AHEAD; i++)
		if (!(a->blocks[i] = malloc(GZIP_OUT)))
			goto failed;
	if (pthread_mutex_init(&a->lock, NULL) != 0)
		goto failed;
	if (pthread_cond_init(&a->changed, NULL) != 0) {
		pthread_mutex_destroy(&a->lock);
		goto failed;
	}
	s->ahead = a;
	if (pthread_create(&a->thread, NULL, ahead_run, s) != 0) {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->changed);
		s->ahead = NULL;
		goto failed;
	}
	/* The blocks are the ring's now: the source's own is not needed. */
	free(s->out);
	s->out = NULL;
	return 1;
failed:
	/* No thread: the parse inflates on its own, as without one. */
	for (size_t i = 0; i < GZIP_AHEAD; i++)
		free(a->blocks[i]);
	free(a);
	return 0;
}

/* The next inflated block from the thread into s->out's place: 1, 0 at the end, -1 on failure. */
static int ahead_take(rli_bytes *s)
{
	gzip_ahead *a = s->ahead;
	int result = 1;
	pthread_mutex_lock(&a->lock);
	if (a->reading) {
		/* The block handed out in slices so far is done with: the thread may fill it again. */
		a->reading = 0;
		a->head = (a->head + 1) % GZIP_AHEAD;
		a->filled--;
		pthread_cond_broadcast(&a->changed);
	}
	while (a->filled == 0 && !a->done)
		pthread_cond_wait(&a->changed, &a->lock);
	if (a->filled) {
		a->reading = 1;
		s->out = a->blocks[a->head];
		s->out_have = a->have[a->head];
		s->out_at = 0;
	} else {
		/* Every block read: the thread's last word (its failure is in s, written before done). */
		result = a->result;
		if (result < 0)
			s->failed = 1;
	}
	pthread_mutex_unlock(&a->lock);
	return result;
}

const char *rli_bytes_inflater(const rli_bytes *s)
{
	return !s->gzip ? NULL : s->inflater == INFLATE_ISAL ? "igzip" : "zlib";
}

/* ---- handing out ------------------------------------------------------------- */

int rli_gzip_next(rli_bytes *s, const unsigned char **data, size_t *length)
{
	if (s->out_at == s->out_have) {
		int got = s->ahead ? ahead_take(s) : gzip_fill(s, s->out, &s->out_have);
		s->out_at = 0;
		if (got <= 0) {
			s->out_have = 0;
			return got;
		}
	}
	*data = s->out + s->out_at;
	*length = s->out_have - s->out_at < RLI_PARSE_CHUNK ? s->out_have - s->out_at : RLI_PARSE_CHUNK;
	s->out_at += *length;
	s->offset += *length;
	return 1;
}

void rli_gzip_dispose(rli_bytes *s)
{
	if (s->ahead) {
		/* s->out points into the ring: the source's own block is kept apart. */
		s->out = NULL;
		ahead_end(s);
	}
	if (s->z_ready)
		inflateEnd(&s->z);
	free(s->isal);
	free(s->out);
	free(s->deferred);
}

int rli_gzip_seek(rli_bytes *s, uint64_t offset)
{
	if (s->ahead) {
		/* Seeking is rare (a reader going back over a line): from here on, on the parse's thread. */
		ahead_end(s);
		if (!(s->out = malloc(GZIP_OUT))) {
			s->failed = 1;
			return -1;
		}
	}
	/* Inflating starts over: a corruption or a cut met before is met again where it is, if reached. */
	s->failed = 0;
	free(s->failure);
	s->failure = NULL;
	/* A gzip has no index: inflate again from the start, dropping what comes before offset. */
	if (s->fd >= 0 && lseek(s->fd, 0, SEEK_SET) != 0)
		return rli_bytes_fail_errno(s, errno);
	s->raw_at = 0;
	s->raw_eof = 0;
	s->in_at = s->in_length = 0;
	s->member_ended = 0;
	s->out_at = s->out_have = 0;
	s->inflated = 0;
	s->offset = 0;
	s->avail_in = 0;
	free(s->deferred);
	s->deferred = NULL;
	if (inflater_reset(s) < 0) {
		s->failed = 1;
		return -1;
	}
	while (s->offset < offset) {
		size_t take;
		if (s->out_at == s->out_have) {
			int got = gzip_fill(s, s->out, &s->out_have);
			s->out_at = 0;
			if (got <= 0)
				return got;
		}
		take = s->out_have - s->out_at;
		if (take > offset - s->offset)
			take = (size_t)(offset - s->offset);
		s->out_at += take;
		s->offset += take;
	}
	return 0;
}

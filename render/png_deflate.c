/* png_deflate.c: the zlib stream of a PNG's scanlines, compressed the way flat-colour charts repeat. */
#include "png_deflate.h"
#include "common/error.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * Why not zlib's deflate: a chart repeats in a few plain ways, a pixel like
 * the one on its left (the background, a bar), a row like the one above (a
 * bar's height), and the same edge or glyph further along the row. zlib's
 * fastest level looks for repeats everywhere, and its Adler-32 reads a byte
 * at a time: on a 4000 x 3389 memory figure it took 65 ms of the 120 ms the
 * figure cost. Looking in those places only takes 12-25 ms on such figures
 * and timelines, for as many bytes on a dense memory figure and 15-50% fewer
 * on the others (measured; each block has Huffman codes of its own, RFC 1951
 * BTYPE 2, as zlib's have).
 *
 * A row identical to the one above is written with PNG's Up filter, which
 * makes it zeros: a run whose match codes are the cheapest there are.
 * Every other row is written unfiltered, so the row above is in the stream
 * exactly as drawn and one match at one row's distance repeats it. Where
 * neither the left nor the row above repeats, the last place the same four
 * bytes began a literal, in this row or the one above, is tried.
 */

#define WINDOW_BYTES 32768u  /* how far back a match may reach */
#define MATCH_MIN 3u
#define MATCH_MAX 258u
#define BLOCK_TOKENS 65536u  /* a block's matches and literals, before it is written */
#define OUT_BYTES (256u << 10) /* compressed bytes handed to the sink at once */
#define RING_ROWS 16u        /* scanlines kept end to end, so the row above is just before */
#define LITERAL_SYMBOLS 286u /* 0-255 literals, 256 end of block, 257-285 match lengths */
#define DISTANCE_SYMBOLS 30u
#define LENGTH_SYMBOLS 19u   /* the alphabet of the code lengths themselves */
#define END_OF_BLOCK 256u
#define MATCH_FLAG 0x80000000u /* a token with it is length << 16 | (distance - 1) */
#define ADLER_BASE 65521u
#define ADLER_BLOCK 5536u    /* bytes summed before the modulo: 5552 (zlib's NMAX) down to 16 */
#define SEEN_BITS 14u        /* where four bytes were last seen: a table of 2^14 places */
#define SEEN_AT_BITS 17u     /* a place is its row's number + 1 above its offset in the scanline */

#define FILTER_NONE 0
#define FILTER_UP 2

struct rli_png_deflate {
	size_t row_bytes;         /* a row's pixel bytes */
	size_t line;              /* a scanline: the filter byte, then the pixels */
	unsigned char *ring;      /* RING_ROWS scanlines end to end */
	size_t slot;              /* the scanline being written */
	size_t rows;              /* rows committed */
	int above_in_stream;      /* the scanline before stands in ring as in the stream (unfiltered) */
	uint32_t adler;
	uint32_t *tokens;
	size_t token_count, token_capacity;
	uint32_t literal_counts[LITERAL_SYMBOLS];
	uint32_t distance_counts[DISTANCE_SYMBOLS];
	uint64_t bits;            /* written least significant bit first, as deflate packs them */
	unsigned bit_count;
	unsigned char *out;
	size_t out_length;
	rli_png_deflate_sink sink;
	void *context;
	int status;               /* the sink's first non-zero answer */
	uint32_t seen[1u << SEEN_BITS]; /* by a hash of four bytes, the last place they began a literal */
};

uint32_t rli_adler32(uint32_t adler, const unsigned char *bytes, size_t length)
{
	uint64_t a = adler & 0xffff, b = adler >> 16;

	while (length > 0) {
		size_t block = length < ADLER_BLOCK ? length : ADLER_BLOCK, i = 0;
#if defined(__SSE2__)
		/*
		 * Sixteen bytes at a time: a byte j places in a 16-byte chunk adds
		 * itself to a and (16 - j) times itself to b, and every chunk adds 16
		 * times the a it started from to b.
		 */
		size_t whole = block & ~(size_t)15;
		if (whole > 0) {
			const __m128i zero = _mm_setzero_si128();
			const __m128i first = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
			const __m128i second = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
			__m128i sums = zero, earlier = zero, weighted = zero;
			uint32_t lane[3][4];

			for (; i < whole; i += 16) {
				__m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
				earlier = _mm_add_epi32(earlier, sums);
				sums = _mm_add_epi32(sums, _mm_sad_epu8(v, zero));
				weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(v, zero), first));
				weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), second));
			}
			_mm_storeu_si128((__m128i *)lane[0], sums);
			_mm_storeu_si128((__m128i *)lane[1], earlier);
			_mm_storeu_si128((__m128i *)lane[2], weighted);
			b += (uint64_t)whole * a;
			for (int k = 0; k < 4; k++) {
				b += 16 * (uint64_t)lane[1][k] + lane[2][k];
				a += lane[0][k];
			}
		}
#endif
		for (; i < block; i++) {
			a += bytes[i];
			b += a;
		}
		a %= ADLER_BASE;
		b %= ADLER_BASE;
		bytes += block;
		length -= block;
	}
	return (uint32_t)(b << 16 | a);
}

/* Adler-32 continued over one byte and then `zeros` zero bytes, for which a stays and b gains a each. */
static uint32_t adler32_byte_zeros(uint32_t adler, unsigned char byte, size_t zeros)
{
	uint64_t a = ((adler & 0xffff) + byte) % ADLER_BASE, b = ((adler >> 16) + a) % ADLER_BASE;
	b = (b + (zeros % ADLER_BASE) * a) % ADLER_BASE;
	return (uint32_t)(b << 16 | a);
}

static void hand_over(rli_png_deflate *z)
{
	if (z->out_length > 0 && z->status == 0)
		z->status = z->sink(z->context, z->out, z->out_length);
	z->out_length = 0;
}

/* Appends count (at most 16) bits of value. */
static inline void put_bits(rli_png_deflate *z, uint32_t value, unsigned count)
{
	z->bits |= (uint64_t)value << z->bit_count;
	z->bit_count += count;
	if (z->bit_count >= 32) {
		if (z->out_length + 4 > OUT_BYTES)
			hand_over(z);
		for (int k = 0; k < 4; k++)
			z->out[z->out_length++] = (unsigned char)(z->bits >> (8 * k));
		z->bits >>= 32;
		z->bit_count -= 32;
	}
}

/* Pads the bits to a whole byte and moves them to the output. */
static void flush_bits(rli_png_deflate *z)
{
	while (z->bit_count > 0) {
		if (z->out_length + 1 > OUT_BYTES)
			hand_over(z);
		z->out[z->out_length++] = (unsigned char)z->bits;
		z->bits >>= 8;
		z->bit_count = z->bit_count > 8 ? z->bit_count - 8 : 0;
	}
	z->bits = 0;
}

static void put_byte(rli_png_deflate *z, unsigned char byte)
{
	if (z->out_length + 1 > OUT_BYTES)
		hand_over(z);
	z->out[z->out_length++] = byte;
}

/* A match length's symbol (257 + the index returned) and the extra bits after it. */
static unsigned length_index(unsigned length, unsigned *extra_bits, unsigned *extra)
{
	unsigned rest, order;

	*extra_bits = 0;
	*extra = 0;
	if (length == MATCH_MAX)
		return 28;
	if (length < 11)
		return length - 3;
	rest = length - 3;
	order = 31u - (unsigned)__builtin_clz(rest); /* 3..7 */
	*extra_bits = order - 2;
	*extra = rest & ((1u << (order - 2)) - 1);
	return 4 * (order - 1) + ((rest >> (order - 2)) & 3);
}

/* A match distance's symbol and the extra bits after it. */
static unsigned distance_index(unsigned distance, unsigned *extra_bits, unsigned *extra)
{
	unsigned rest = distance - 1, order;

	*extra_bits = 0;
	*extra = 0;
	if (rest < 4)
		return rest;
	order = 31u - (unsigned)__builtin_clz(rest); /* 2..14 */
	*extra_bits = order - 1;
	*extra = rest & ((1u << (order - 1)) - 1);
	return 2 * order + ((rest >> (order - 1)) & 1);
}

typedef struct {
	uint32_t count;
	uint16_t symbol;
} symbol_count;

static int by_count(const void *a, const void *b)
{
	const symbol_count *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return (int)x->symbol - (int)y->symbol;
}

/*
 * Code lengths of at most `limit` bits for the symbols counted, the commoner
 * the shorter: a Huffman tree's depths, then, where it runs deeper than the
 * limit, the deepest leaves moved up and others down until the code is whole
 * again (each move takes one unit of 2^-limit off the Kraft sum). Fewer than
 * two symbols used get an unused one beside them: inflaters reject a code
 * that leaves room unused.
 */
static void code_lengths(const uint32_t *counts, unsigned symbols, unsigned limit, uint8_t *lengths)
{
	symbol_count order[LITERAL_SYMBOLS];
	uint32_t weight[2 * LITERAL_SYMBOLS];
	uint16_t parent[2 * LITERAL_SYMBOLS], depth[2 * LITERAL_SYMBOLS];
	unsigned used = 0, per_depth[16] = { 0 }, leaf = 0, node, made, rank;
	uint32_t kraft = 0;

	memset(lengths, 0, symbols);
	for (unsigned s = 0; s < symbols; s++)
		if (counts[s] > 0)
			order[used++] = (symbol_count){ counts[s], (uint16_t)s };
	for (unsigned s = 0; used < 2; s++)
		if (counts[s] == 0)
			order[used++] = (symbol_count){ 0, (uint16_t)s };
	qsort(order, used, sizeof(order[0]), by_count);

	/* Leaves in rising order, and inner nodes made in rising order too: two queues, no heap. */
	for (unsigned i = 0; i < used; i++)
		weight[i] = order[i].count;
	node = made = used;
	while (made < 2 * used - 1) {
		unsigned pick[2];
		for (int k = 0; k < 2; k++)
			pick[k] = leaf < used && (node == made || weight[leaf] <= weight[node]) ? leaf++ : node++;
		weight[made] = weight[pick[0]] + weight[pick[1]];
		parent[pick[0]] = parent[pick[1]] = (uint16_t)made;
		made++;
	}
	depth[made - 1] = 0;
	for (unsigned i = made - 1; i-- > used;)
		depth[i] = (uint16_t)(depth[parent[i]] + 1);
	for (unsigned i = 0; i < used; i++) {
		unsigned d = depth[parent[i]] + 1u;
		per_depth[d < limit ? d : limit]++;
	}

	for (unsigned d = 1; d <= limit; d++)
		kraft += per_depth[d] << (limit - d);
	while (kraft > (1u << limit)) {
		unsigned d = limit - 1;
		while (per_depth[d] == 0)
			d--;
		per_depth[d]--;
		per_depth[d + 1] += 2;
		per_depth[limit]--;
		kraft--;
	}
	rank = used;
	for (unsigned d = 1; d <= limit; d++)
		for (unsigned k = 0; k < per_depth[d]; k++)
			lengths[order[--rank].symbol] = (uint8_t)d;
}

/* The canonical codes of RFC 1951 3.2.2, bit-reversed: deflate sends a code's first bit first. */
static void canonical_codes(const uint8_t *lengths, unsigned symbols, uint16_t *codes)
{
	unsigned per_length[16] = { 0 }, next[16] = { 0 }, code = 0;

	for (unsigned s = 0; s < symbols; s++)
		per_length[lengths[s]]++;
	per_length[0] = 0;
	for (unsigned bits = 1; bits < 16; bits++) {
		code = (code + per_length[bits - 1]) << 1;
		next[bits] = code;
	}
	for (unsigned s = 0; s < symbols; s++) {
		unsigned length = lengths[s], value, reversed = 0;
		if (length == 0)
			continue;
		value = next[length]++;
		for (unsigned b = 0; b < length; b++)
			reversed |= ((value >> b) & 1u) << (length - 1 - b);
		codes[s] = (uint16_t)reversed;
	}
}

/*
 * The code lengths of both alphabets as one run-length coded sequence
 * (symbols 16: repeat the last 3-6 times, 17: 3-10 zeros, 18: 11-138 zeros),
 * each entry a symbol with its repeat count above bit 8. Returns the entries.
 */
static unsigned run_length_code(const uint8_t *lengths, unsigned count, uint16_t *entries, uint32_t *counts)
{
	unsigned made = 0;

	for (unsigned i = 0; i < count;) {
		unsigned value = lengths[i], run = 1;
		while (i + run < count && lengths[i + run] == value)
			run++;
		if (value == 0 && run >= 3) {
			unsigned take = run > 138 ? 138 : run;
			if (take >= 11) {
				entries[made++] = (uint16_t)(18 | (take - 11) << 8);
				counts[18]++;
			} else {
				entries[made++] = (uint16_t)(17 | (take - 3) << 8);
				counts[17]++;
			}
			i += take;
			continue;
		}
		entries[made++] = (uint16_t)value;
		counts[value]++;
		i++;
		run--;
		while (value != 0 && run >= 3) {
			unsigned take = run > 6 ? 6 : run;
			entries[made++] = (uint16_t)(16 | (take - 3) << 8);
			counts[16]++;
			i += take;
			run -= take;
		}
	}
	return made;
}

/* Writes the tokens gathered as one block with codes of its own; `last` marks the stream's final block. */
static void write_block(rli_png_deflate *z, int last)
{
	static const uint8_t length_order[LENGTH_SYMBOLS] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
							      11, 4, 12, 3, 13, 2, 14, 1, 15 };
	static const uint8_t repeat_bits[3] = { 2, 3, 7 };
	uint8_t lengths[LITERAL_SYMBOLS + DISTANCE_SYMBOLS], length_lengths[LENGTH_SYMBOLS];
	uint16_t literal_codes[LITERAL_SYMBOLS], distance_codes[DISTANCE_SYMBOLS], length_codes[LENGTH_SYMBOLS];
	uint16_t entries[LITERAL_SYMBOLS + DISTANCE_SYMBOLS];
	uint32_t length_counts[LENGTH_SYMBOLS] = { 0 };
	uint8_t *literal_lengths = lengths, *distance_lengths;
	unsigned literals = LITERAL_SYMBOLS, distances = DISTANCE_SYMBOLS, header_lengths = LENGTH_SYMBOLS, entry_count;

	z->literal_counts[END_OF_BLOCK] = 1;
	code_lengths(z->literal_counts, LITERAL_SYMBOLS, 15, literal_lengths);
	while (literals > 257 && literal_lengths[literals - 1] == 0)
		literals--;
	/* The distance lengths follow the literal ones that are sent, in one sequence. */
	distance_lengths = lengths + literals;
	code_lengths(z->distance_counts, DISTANCE_SYMBOLS, 15, distance_lengths);
	while (distances > 1 && distance_lengths[distances - 1] == 0)
		distances--;
	canonical_codes(literal_lengths, literals, literal_codes);
	canonical_codes(distance_lengths, distances, distance_codes);

	entry_count = run_length_code(lengths, literals + distances, entries, length_counts);
	code_lengths(length_counts, LENGTH_SYMBOLS, 7, length_lengths);
	canonical_codes(length_lengths, LENGTH_SYMBOLS, length_codes);
	while (header_lengths > 4 && length_lengths[length_order[header_lengths - 1]] == 0)
		header_lengths--;

	put_bits(z, last ? 1 : 0, 1);
	put_bits(z, 2, 2); /* dynamic Huffman codes */
	put_bits(z, literals - 257, 5);
	put_bits(z, distances - 1, 5);
	put_bits(z, header_lengths - 4, 4);
	for (unsigned i = 0; i < header_lengths; i++)
		put_bits(z, length_lengths[length_order[i]], 3);
	for (unsigned i = 0; i < entry_count; i++) {
		unsigned symbol = entries[i] & 31u;
		put_bits(z, length_codes[symbol], length_lengths[symbol]);
		if (symbol >= 16)
			put_bits(z, entries[i] >> 8, repeat_bits[symbol - 16]);
	}

	for (size_t i = 0; i < z->token_count; i++) {
		uint32_t token = z->tokens[i];
		unsigned index, extra_bits, extra;
		if (!(token & MATCH_FLAG)) {
			put_bits(z, literal_codes[token], literal_lengths[token]);
			continue;
		}
		index = length_index((token >> 16) & 0x1ffu, &extra_bits, &extra);
		put_bits(z, literal_codes[257 + index], literal_lengths[257 + index]);
		if (extra_bits)
			put_bits(z, extra, extra_bits);
		index = distance_index((token & 0xffffu) + 1, &extra_bits, &extra);
		put_bits(z, distance_codes[index], distance_lengths[index]);
		if (extra_bits)
			put_bits(z, extra, extra_bits);
	}
	put_bits(z, literal_codes[END_OF_BLOCK], literal_lengths[END_OF_BLOCK]);

	z->token_count = 0;
	memset(z->literal_counts, 0, sizeof(z->literal_counts));
	memset(z->distance_counts, 0, sizeof(z->distance_counts));
}

static inline void literal(rli_png_deflate *z, unsigned char byte)
{
	z->tokens[z->token_count++] = byte;
	z->literal_counts[byte]++;
}

static inline void match(rli_png_deflate *z, unsigned length, unsigned distance)
{
	unsigned extra_bits, extra;
	z->tokens[z->token_count++] = MATCH_FLAG | length << 16 | (distance - 1);
	z->literal_counts[257 + length_index(length, &extra_bits, &extra)]++;
	z->distance_counts[distance_index(distance, &extra_bits, &extra)]++;
}

/* How many of the first `most` bytes at a and b agree, eight at a time. */
static inline size_t same_bytes(const unsigned char *a, const unsigned char *b, size_t most)
{
	size_t n = 0;
	while (n + 8 <= most) {
		uint64_t x, y;
		memcpy(&x, a + n, 8);
		memcpy(&y, b + n, 8);
		if (x != y)
			return n + ((unsigned)__builtin_ctzll(x ^ y) >> 3);
		n += 8;
	}
	while (n < most && a[n] == b[n])
		n++;
	return n;
}

int rli_png_deflate_new(rli_png_deflate **out, size_t row_bytes, rli_png_deflate_sink sink, void *context)
{
	rli_png_deflate *z = calloc(1, sizeof(*z));

	*out = NULL;
	if (!z)
		return rli_error_oom();
	z->row_bytes = row_bytes;
	z->line = row_bytes + 1;
	/* A row can be a token a byte: a block is written before a row that might not fit. */
	z->token_capacity = z->line > BLOCK_TOKENS ? z->line : BLOCK_TOKENS;
	z->ring = malloc(RING_ROWS * z->line);
	z->tokens = malloc(z->token_capacity * sizeof(*z->tokens));
	z->out = malloc(OUT_BYTES);
	z->sink = sink;
	z->context = context;
	z->adler = 1;
	if (!z->ring || !z->tokens || !z->out) {
		rli_png_deflate_free(z);
		return rli_error_oom();
	}
	z->out[0] = 0x78; /* deflate with a 32 KiB window */
	z->out[1] = 0x01; /* the fastest kind of compression; 0x7801 is a multiple of 31 */
	z->out_length = 2;
	*out = z;
	return 0;
}

unsigned char *rli_png_deflate_row(rli_png_deflate *z)
{
	return z->ring + z->slot * z->line + 1;
}

/* A row like the one above: Up makes it zeros, a literal and then runs at distance 1. */
static void compress_repeat(rli_png_deflate *z)
{
	size_t left = z->row_bytes - 1;

	literal(z, FILTER_UP);
	literal(z, 0);
	while (left >= MATCH_MIN) {
		unsigned take = left > MATCH_MAX ? MATCH_MAX : (unsigned)left;
		match(z, take, 1);
		left -= take;
	}
	while (left-- > 0)
		literal(z, 0);
	z->adler = adler32_byte_zeros(z->adler, FILTER_UP, z->row_bytes);
}

/*
 * The place where the four bytes at offset p of the scanline began a literal
 * before, in this row or in the row above while it stands in the stream
 * (where it stood is checked with the bytes themselves, so a stale entry
 * only costs a comparison); the bytes that match there, or 0. p becomes the
 * four bytes' last place.
 */
static size_t seen_before(rli_png_deflate *z, const unsigned char *line, size_t p, size_t room, unsigned *distance)
{
	uint32_t key, row = (uint32_t)(z->rows % ((1u << (32 - SEEN_AT_BITS)) - 1)) + 1, was;
	size_t at, n = 0;
	uint32_t *entry;

	memcpy(&key, line + p, 4);
	entry = &z->seen[(key * 2654435761u) >> (32 - SEEN_BITS)];
	was = *entry;
	*entry = row << SEEN_AT_BITS | (uint32_t)p;
	at = was & ((1u << SEEN_AT_BITS) - 1);
	if (was >> SEEN_AT_BITS == row && at < p && p - at <= WINDOW_BYTES) {
		if ((n = same_bytes(line + p, line + at, room)) >= 4)
			*distance = (unsigned)(p - at);
	} else if (was >> SEEN_AT_BITS == row - 1 && z->above_in_stream && at < z->line &&
		   z->line - at + p <= WINDOW_BYTES) {
		if ((n = same_bytes(line + p, line - z->line + at, room)) >= 4)
			*distance = (unsigned)(z->line - at + p);
	}
	return n >= 4 ? n : 0;
}

/* An unfiltered row: at each byte the longer repeat of the row above or of the pixel (or byte) before. */
static void compress_row(rli_png_deflate *z, const unsigned char *line)
{
	/* Matches may reach into the row above only while it stands in ring as it does in the stream. */
	size_t behind = z->above_in_stream ? z->line : 0;
	int up = z->above_in_stream && z->line <= WINDOW_BYTES;
	size_t p = 0;

	z->adler = rli_adler32(z->adler, line, z->line);
	while (p < z->line) {
		const unsigned char *at = line + p;
		size_t room = z->line - p, best = 0, n;
		unsigned distance = 0;

		if (room > MATCH_MAX)
			room = MATCH_MAX;
		if (room >= MATCH_MIN) {
			if (up && (n = same_bytes(at, at - z->line, room)) >= MATCH_MIN) {
				best = n;
				distance = (unsigned)z->line;
			}
			if (best < room && behind + p >= 3 && (n = same_bytes(at, at - 3, room)) >= MATCH_MIN && n >= best) {
				best = n;
				distance = 3;
			}
			/* A grey run repeats its last byte too; worth it only where it reaches further. */
			if (best < room && behind + p >= 1 && (n = same_bytes(at, at - 1, room)) >= MATCH_MIN && n > best + 1) {
				best = n;
				distance = 1;
			}
		}
		if (best == 0 && room >= 4)
			best = seen_before(z, line, p, room, &distance);
		if (best > 0) {
			match(z, (unsigned)best, distance);
			p += best;
		} else {
			literal(z, *at);
			p++;
		}
	}
}

int rli_png_deflate_repeat(rli_png_deflate *z)
{
	/*
	 * The row above stays where it stands in the ring, as the row the next one is read against:
	 * it holds the same bytes, and no match reaches back into a row written as zeros.
	 */
	if (z->token_count + z->line > z->token_capacity)
		write_block(z, 0);
	compress_repeat(z);
	z->above_in_stream = 0;
	z->rows++;
	return z->status;
}

int rli_png_deflate_commit(rli_png_deflate *z)
{
	unsigned char *line = z->ring + z->slot * z->line;

	/* A row like the one above, written there or not, is one repeat: the ring's slot stays free. */
	if (z->rows > 0 && memcmp(line + 1, line + 1 - z->line, z->row_bytes) == 0)
		return rli_png_deflate_repeat(z);
	if (z->token_count + z->line > z->token_capacity)
		write_block(z, 0);
	line[0] = FILTER_NONE;
	compress_row(z, line);
	z->above_in_stream = 1;
	z->rows++;
	/* The ring's end: the row just done moves to the front, to stand right before the next. */
	if (++z->slot == RING_ROWS) {
		memcpy(z->ring, line, z->line);
		z->slot = 1;
	}
	return z->status;
}

int rli_png_deflate_finish(rli_png_deflate *z)
{
	write_block(z, 1);
	flush_bits(z);
	for (int shift = 24; shift >= 0; shift -= 8)
		put_byte(z, (unsigned char)(z->adler >> shift));
	hand_over(z);
	return z->status;
}

void rli_png_deflate_free(rli_png_deflate *z)
{
	if (!z)
		return;
	free(z->ring);
	free(z->tokens);
	free(z->out);
	free(z);
}

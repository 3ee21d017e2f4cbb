/* shortest_double.c: the shortest decimal that reads back as the same double, by exact integer arithmetic. */
#include "shortest_double.h"

#include <stdint.h>
#include <string.h>

#if !defined(__SIZEOF_INT128__)
#error "shortest_double.c needs unsigned __int128 (GCC or Clang on a 64-bit target)"
#endif
__extension__ typedef unsigned __int128 u128;

/*
 * The method (the idea behind Giulietti's Schubfach and Adams' Ryu; the arithmetic here is
 * exact, so no table of rounded powers and no error analysis is needed):
 *
 * A finite v > 0 is c * 2^q. strtod reads every real strictly between the midpoints to the
 * neighbouring doubles as v, and the midpoints too when c is even (ties go to the even
 * significand). In units of 2^(q-2) the midpoints sit at 4c - 2 and 4c + 2, or at 4c - 1
 * below a power of two, whose lower neighbour is twice as close. Let 10^k be the largest
 * power of ten not above the interval's width (2^q, or 3/4 * 2^q below a power of two). Then
 * the interval holds at least one multiple of 10^k and at most one multiple of 10^(k+1):
 *
 *  - if it holds a multiple of 10^(k+1), that one has fewer significant digits than any
 *    other candidate (the others end in a non-zero digit at 10^k and lie less than 10^(k+1)
 *    from it, so they reach as high or higher), and it is the answer; except when an other
 *    has a single digit too (9 x 10^k against 10^(k+1), among subnormals only): then the
 *    second rule decides, and picks the closer;
 *  - otherwise the answer is floor(v / 10^k) or that plus one, whichever reads back as v,
 *    the closer if both do, the even one on an exact tie.
 *
 * All of it is decided on V = v / 10^k = N / D with integers N and D: s = floor(V),
 * r = N - s * D, and the half-widths dl and dr of the interval in the same units, so every
 * test ("is s inside", "is s + 1 inside", "is V closer to s") is a comparison of integers.
 * V < 2^57, so s fits in 64 bits.
 *
 * For 2^-89 <= 2^q <= 2^93 (magnitudes from about 7e-12 to 9e43, every time and duration the
 * event table holds) |k| <= 27, 5^|k| fits in 64 bits and N, D fit in 128: the fast path.
 * Elsewhere the same steps run on a small arbitrary-precision integer type.
 *
 * Most numbers take a shorter road still, format_common: for 2^-89 <= 2^q <= 2 (v from about
 * 7e-12 up to 2^54, 1.8e16) and c not a power of two, 10^-k shifted to fill 64 bits is exact,
 * so one 64 x 64-bit product gives V * 2^64 exactly, s in its top half and the fraction in
 * its bottom half (D = 2^64). The same comparisons then pick the answer without branches, in
 * units of 10^k with its trailing zeros still on; the zeros are counted on the digits' text,
 * which has to be made anyway, so there is no division loop. It writes what format writes,
 * byte for byte; the tests hold the two to that.
 */

/*
 * floor(q * log10(2)) and floor(q * log10(2) + log10(3/4)) in fixed point: checked against exact
 * rational arithmetic for every q in [-1080, 1000] (doubles need [-1074, 971]).
 */
#define LOG10_2_Q32 INT64_C(1292913986)     /* round(log10(2) * 2^32) */
#define LOG10_4_3_Q32 INT64_C(536607788)     /* round(-log10(3/4) * 2^32) */

/* floor(x / 2^32) without relying on how >> treats negative numbers (implementation-defined). */
static int floor_q32(int64_t x)
{
	return x >= 0 ? (int)(x >> 32) : -(int)((-x + INT64_C(0xFFFFFFFF)) >> 32);
}

static int floor_log10_pow2(int q, int below_power_of_two)
{
	return floor_q32(q * LOG10_2_Q32 - (below_power_of_two ? LOG10_4_3_Q32 : 0));
}

/*
 * The digits from what is known about V (see above): s = floor(V); whether s, s + 1, and the
 * multiples of 10 around V (s - s % 10 and that plus 10) read back as v; the sign of
 * (V - s) - 1/2. Returns them without trailing zeros, value = digits * 10^*exponent.
 */
static inline uint64_t choose(uint64_t s, int s_in, int s1_in, int t0_in, int t1_in, int half, int k,
			      int *exponent)
{
	uint64_t digits;
	if (s >= 10 && (t0_in || t1_in)) {
		/* One multiple of 10^(k+1) inside: fewer digits than anything else inside. (With s < 10
		   the candidates at 10^k have one digit too and are at least as close: they decide.) */
		digits = s / 10 + (uint64_t)t1_in;
		k++;
	} else {
		int up = s_in && s1_in ? half > 0 || (half == 0 && (s & 1)) : !s_in;
		digits = s + (uint64_t)up;
	}
	while (digits % 10 == 0) {
		digits /= 10;
		k++;
	}
	*exponent = k;
	return digits;
}

static int sign_of(int c)
{
	return (c > 0) - (c < 0);
}

/* The midpoints are inside when c is even: a comparison result counts as inside if < 0, or == 0 then. */
static int inside(int cmp, int boundary_included)
{
	return cmp < 0 || (cmp == 0 && boundary_included);
}

static const uint64_t pow5_64[28] = {
	UINT64_C(1),
	UINT64_C(5),
	UINT64_C(25),
	UINT64_C(125),
	UINT64_C(625),
	UINT64_C(3125),
	UINT64_C(15625),
	UINT64_C(78125),
	UINT64_C(390625),
	UINT64_C(1953125),
	UINT64_C(9765625),
	UINT64_C(48828125),
	UINT64_C(244140625),
	UINT64_C(1220703125),
	UINT64_C(6103515625),
	UINT64_C(30517578125),
	UINT64_C(152587890625),
	UINT64_C(762939453125),
	UINT64_C(3814697265625),
	UINT64_C(19073486328125),
	UINT64_C(95367431640625),
	UINT64_C(476837158203125),
	UINT64_C(2384185791015625),
	UINT64_C(11920928955078125),
	UINT64_C(59604644775390625),
	UINT64_C(298023223876953125),
	UINT64_C(1490116119384765625),
	UINT64_C(7450580596923828125),
};
#define FAST_K_MAX 27 /* 5^27 < 2^63 */

static int cmp_u128(u128 a, u128 b)
{
	return (a > b) - (a < b);
}

/*
 * The fast path, for |k| <= FAST_K_MAX. In units of 2^(q-2): v is x = 4c, the lower midpoint
 * x - down (down is 2, or 1 below a power of two), the upper x + 2. Bounds: x < 2^55,
 * 5^27 < 2^63 and shifts of at most 64 keep N below 2^119 and D at most 2^64.
 */
static uint64_t digits_fast(uint64_t x, uint64_t down, int q, int k, int included, int *exponent)
{
	u128 n, d, dl, dr, r;
	uint64_t s;
	if (k <= 0) {
		/* V = x * 5^m * 2^(q-2+m), m = -k */
		uint64_t f = pow5_64[-k];
		int sh = q - 2 - k;
		n = (u128)x * f;
		dl = (u128)down * f;
		dr = (u128)2 * f;
		if (sh >= 0) { /* only q = 2, 3: V is an integer */
			n <<= sh;
			dl <<= sh;
			dr <<= sh;
			d = 1;
			s = (uint64_t)n;
		} else {
			d = (u128)1 << -sh;
			s = (uint64_t)(n >> -sh);
		}
		r = n & (d - 1);
	} else {
		/* V = x * 2^(q-2-k) / 5^k; q - 2 - k >= 1 whenever k >= 1 */
		int sh = q - 2 - k;
		n = (u128)x << sh;
		dl = (u128)down << sh;
		dr = (u128)2 << sh;
		d = pow5_64[k];
		s = (uint64_t)(n / d);
		r = n - (u128)s * d;
	}
	unsigned j = (unsigned)(s % 10);
	return choose(s, inside(cmp_u128(r, dl), included), inside(cmp_u128(d, dr + r), included),
		      inside(cmp_u128(j * d + r, dl), included), inside(cmp_u128((10 - j) * d, dr + r), included),
		      cmp_u128(2 * r, d), k, exponent);
}

/* ---- the same on arbitrary-precision integers, for the magnitudes beyond the fast path ---- */

/*
 * Little-endian 32-bit limbs. The largest number formed is about 2^810 (5^324 * 2^55 for the
 * smallest subnormals), so 40 limbs (1280 bits) leave room.
 */
#define BIG_LIMBS 40
typedef struct {
	int n; /* limbs in use; w[n - 1] != 0, n == 0 for zero */
	uint32_t w[BIG_LIMBS];
} big;

static void big_trim(big *a)
{
	while (a->n > 0 && a->w[a->n - 1] == 0)
		a->n--;
}

static void big_set(big *a, uint64_t v)
{
	a->w[0] = (uint32_t)v;
	a->w[1] = (uint32_t)(v >> 32);
	a->n = 2;
	big_trim(a);
}

/* out = a * m (out may be a) */
static void big_mul_u64(big *out, const big *a, uint64_t m)
{
	u128 carry = 0;
	int i;
	for (i = 0; i < a->n; i++) {
		u128 t = (u128)a->w[i] * m + carry;
		out->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	for (; carry; i++) {
		out->w[i] = (uint32_t)carry;
		carry >>= 32;
	}
	out->n = i;
	big_trim(out);
}

static void big_pow5(big *a, int e)
{
	big_set(a, 1);
	for (; e > FAST_K_MAX; e -= FAST_K_MAX)
		big_mul_u64(a, a, pow5_64[FAST_K_MAX]);
	big_mul_u64(a, a, pow5_64[e]);
}

static void big_shl(big *a, int bits)
{
	int limbs = bits / 32, b = bits % 32;
	if (a->n == 0)
		return;
	a->w[a->n] = 0;
	for (int i = a->n; i >= 0; i--) {
		uint32_t hi = a->w[i] << b, lo = (b && i > 0) ? a->w[i - 1] >> (32 - b) : 0;
		a->w[i + limbs] = hi | lo;
	}
	for (int i = 0; i < limbs; i++)
		a->w[i] = 0;
	a->n += limbs + 1;
	big_trim(a);
}

/* Bits [bit, bit + 128) of a. */
static u128 big_extract(const big *a, int bit)
{
	int first = bit / 32, b = bit % 32;
	u128 v = 0;
	for (int t = 0; t < 5 && first + t < a->n; t++) {
		int at = 32 * t - b;
		u128 limb = a->w[first + t];
		if (at < 0)
			v |= limb >> -at;
		else if (at < 128)
			v |= limb << at;
	}
	return v;
}

/* a = a mod 2^bits */
static void big_truncate(big *a, int bits)
{
	int limbs = bits / 32, b = bits % 32;
	if (a->n <= limbs)
		return;
	if (b) {
		a->w[limbs] &= (UINT32_C(1) << b) - 1;
		a->n = limbs + 1;
	} else {
		a->n = limbs;
	}
	big_trim(a);
}

static int big_bits(const big *a)
{
	int bits = 32 * a->n;
	if (a->n)
		for (uint32_t top = a->w[a->n - 1]; !(top & 0x80000000u); top <<= 1)
			bits--;
	return bits;
}

static int big_cmp(const big *a, const big *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* out = a + b (out may be a or b) */
static void big_add(big *out, const big *a, const big *b)
{
	int n = a->n > b->n ? a->n : b->n, i;
	uint64_t carry = 0;
	for (i = 0; i < n; i++) {
		uint64_t t = carry + (i < a->n ? a->w[i] : 0) + (i < b->n ? b->w[i] : 0);
		out->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry)
		out->w[i++] = (uint32_t)carry;
	out->n = i;
}

/* a = a - b, for a >= b */
static void big_sub(big *a, const big *b)
{
	int64_t borrow = 0;
	for (int i = 0; i < a->n; i++) {
		int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
		borrow = t < 0;
		a->w[i] = (uint32_t)(t + (borrow ? INT64_C(0x100000000) : 0));
	}
	big_trim(a);
}

/*
 * Returns floor(n / d) and leaves n mod d in n, for a quotient below 2^64. The quotient is
 * first estimated from the top bits of both, from below (the divisor's top bits rounded up),
 * so the remainder stays non-negative; with at least 63 bits of divisor the estimate is short
 * by at most 2, which the loop adds.
 */
static uint64_t big_divmod(big *n, const big *d)
{
	int shift = big_bits(d) > 64 ? big_bits(d) - 64 : 0;
	u128 top_n = big_extract(n, shift), top_d = big_extract(d, shift) + (shift > 0);
	uint64_t q = (uint64_t)(top_n / top_d);
	big product;
	big_mul_u64(&product, d, q);
	big_sub(n, &product);
	while (big_cmp(n, d) >= 0) {
		big_sub(n, d);
		q++;
	}
	return q;
}

/* The same as digits_fast, for any k. */
static uint64_t digits_big(uint64_t x, uint64_t down, int q, int k, int included, int *exponent)
{
	big n, d, dl, dr, t;
	uint64_t s;
	if (k <= 0) {
		/* V = x * 5^m / 2^(2-q-m), m = -k; for q = 2, 3 the power of two multiplies instead */
		big f;
		int sh = q - 2 - k;
		big_pow5(&f, -k);
		big_mul_u64(&n, &f, x);
		big_mul_u64(&dl, &f, down);
		big_mul_u64(&dr, &f, 2);
		big_set(&d, 1);
		if (sh >= 0) {
			big_shl(&n, sh);
			big_shl(&dl, sh);
			big_shl(&dr, sh);
			s = (uint64_t)big_extract(&n, 0);
			n.n = 0;
		} else {
			big_shl(&d, -sh);
			s = (uint64_t)big_extract(&n, -sh);
			big_truncate(&n, -sh);
		}
	} else {
		/* V = x * 2^(q-2-k) / 5^k */
		int sh = q - 2 - k;
		big_set(&n, x);
		big_shl(&n, sh);
		big_set(&dl, down);
		big_shl(&dl, sh);
		big_set(&dr, 2);
		big_shl(&dr, sh);
		big_pow5(&d, k);
		s = big_divmod(&n, &d);
	}
	/* n now holds r = N - s * D */
	unsigned j = (unsigned)(s % 10);
	big r_plus_dr;
	big_add(&r_plus_dr, &n, &dr);
	int s_in = inside(big_cmp(&n, &dl), included), s1_in = inside(big_cmp(&d, &r_plus_dr), included);
	big_mul_u64(&t, &d, j);
	big_add(&t, &t, &n);
	int t0_in = inside(big_cmp(&t, &dl), included);
	big_mul_u64(&t, &d, 10 - j);
	int t1_in = inside(big_cmp(&t, &r_plus_dr), included);
	big_add(&t, &n, &n);
	return choose(s, s_in, s1_in, t0_in, t1_in, sign_of(big_cmp(&t, &d)), k, exponent);
}

/* ---- text ---- */

static const uint64_t pow10_64[20] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000), UINT64_C(100000),
	UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
	UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
	UINT64_C(10000000000000), UINT64_C(100000000000000), UINT64_C(1000000000000000),
	UINT64_C(10000000000000000), UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
	UINT64_C(10000000000000000000),
};

static inline int count_digits(uint64_t v)
{
	/* bits * log10(2) is the digit count or one less: one comparison settles it */
	int bits = 64 - __builtin_clzll(v | 1);
	int guess = (bits * 1233) >> 12; /* 1233 / 4096 ~ log10(2) */
	return guess + (v >= pow10_64[guess]) + (v == 0);
}

/*
 * v < 10^8 as eight ASCII digits in one 64-bit word, the first in the lowest byte, leading
 * zeros included: two 4-digit lanes of 32 bits, each split into two 2-digit lanes of 16, each
 * into two bytes. x * 10486 >> 20 is x / 100 for x < 10000, x * 103 >> 10 is x / 10 for
 * x < 100, and no lane's product reaches the next lane. Plain arithmetic: any byte order.
 */
static inline uint64_t ascii8(uint32_t v)
{
	uint64_t x = (v / 10000) | (uint64_t)(v % 10000) << 32;
	uint64_t hundreds = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
	x = hundreds | (x - hundreds * 100) << 16;
	uint64_t tens = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F);
	x = tens | (x - tens * 10) << 8;
	return x | UINT64_C(0x3030303030303030);
}

/* v < 10^16 as sixteen ASCII digits in a 128-bit word, the first in the lowest byte. */
static inline u128 ascii16(uint64_t v)
{
	return (u128)ascii8((uint32_t)(v % 100000000)) << 64 | ascii8((uint32_t)(v / 100000000));
}

/* The sixteen bytes of x at out, lowest first. */
static inline void store16(char *out, u128 x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(out, &x, 16);
#else
	for (int i = 0; i < 16; i++)
		out[i] = (char)(x >> (8 * i));
#endif
}

/* A decimal exponent, 1 to 3 digits. */
static char *write_exponent(char *p, int e)
{
	if (e >= 100) {
		*p++ = (char)('0' + e / 100);
		e %= 100;
	} else if (e < 10) {
		*p++ = (char)('0' + e);
		return p;
	}
	*p++ = (char)('0' + e / 10);
	*p++ = (char)('0' + e % 10);
	return p;
}

/*
 * value = (negative ? -1 : 1) * digits * 10^exponent, digits < 10^17 without trailing zeros, in
 * JavaScript's layout. The digits stay in registers and go out in 16-byte stores, some of
 * which run past the text (within RLI_DOUBLE_BUFSIZE, at most 34 bytes from buf): reading
 * back digits just stored at another offset would stall the processor's store forwarding.
 */
static size_t write_decimal(char *buf, int negative, uint64_t digits, int exponent)
{
	int length = count_digits(digits), point = length + exponent; /* value = 0.digits * 10^point */
	char *p = buf;
	*p = '-';
	p += negative;
	/* a 17th digit comes first on its own; the (up to) sixteen others sit in x's low bytes */
	int lead = length > 16, rest = length - lead;
	char lead_digit = (char)('0' + digits / UINT64_C(10000000000000000));
	u128 x = ascii16(digits % UINT64_C(10000000000000000)) >> (8 * (16 - rest));

	if (point >= length && point <= 21) {
		/* an integer: the digits, then point - length zeros */
		*p = lead_digit;
		p += lead;
		store16(p, x);
		p += rest;
		for (int i = length; i < point; i++)
			*p++ = '0';
	} else if (point > 0 && point <= 21) {
		/* digits, point, digits: the fraction is x shifted, stored one place further on */
		*p = lead_digit;
		p += lead;
		point -= lead;
		store16(p, x);
		store16(p + point + 1, x >> (8 * point));
		p[point] = '.';
		p += rest + 1;
	} else if (point > -6 && point <= 0) {
		/* 0.000ddd: "0." and -point zeros */
		memcpy(p, "0.00000", 8);
		p += 2 - point;
		*p = lead_digit;
		p += lead;
		store16(p, x);
		p += rest;
	} else {
		/* d.ddde+X: the first digit, then the point and the others if any */
		int e = point - 1;
		if (!lead) {
			lead_digit = (char)x;
			x >>= 8;
			rest--;
		}
		*p++ = lead_digit;
		if (rest > 0) {
			*p++ = '.';
			store16(p, x);
			p += rest;
		}
		*p++ = 'e';
		*p++ = e < 0 ? '-' : '+';
		p = write_exponent(p, e < 0 ? -e : e);
	}
	*p = '\0';
	return (size_t)(p - buf);
}

/* ---- the common magnitudes: one 64 x 64-bit product, no loops ---- */

/*
 * For each binary exponent q of the common path (v = c * 2^q with c normal and not a power of
 * two), k = floor(q * log10(2)) from -27 to 0, g = 10^-k shifted until its top bit is bit 63
 * (exact: 10^-k = 2^-k * 5^-k and 5^27 < 2^63, so only zeros drop off or are appended), and
 * h = q + (bits of 10^-k), from 1 to 4. Then (c << h) * g = v * 10^-k * 2^64 = V * 2^64.
 * Generated and checked with exact rational arithmetic; a wrong entry would also show in the
 * tests, which compare this path with the arbitrary-precision one at every q.
 */
#define COMMON_Q_MIN (-89)
#define COMMON_Q_MAX 1
static const struct {
	uint64_t g;
	signed char k;
	unsigned char h;
} common_scale[COMMON_Q_MAX - COMMON_Q_MIN + 1] = {
	{ UINT64_C(0xCECB8F27F4200F3A), -27, 1 }, /* q = -89 */
	{ UINT64_C(0xCECB8F27F4200F3A), -27, 2 }, /* q = -88 */
	{ UINT64_C(0xCECB8F27F4200F3A), -27, 3 }, /* q = -87 */
	{ UINT64_C(0xA56FA5B99019A5C8), -26, 1 }, /* q = -86 */
	{ UINT64_C(0xA56FA5B99019A5C8), -26, 2 }, /* q = -85 */
	{ UINT64_C(0xA56FA5B99019A5C8), -26, 3 }, /* q = -84 */
	{ UINT64_C(0x84595161401484A0), -25, 1 }, /* q = -83 */
	{ UINT64_C(0x84595161401484A0), -25, 2 }, /* q = -82 */
	{ UINT64_C(0x84595161401484A0), -25, 3 }, /* q = -81 */
	{ UINT64_C(0x84595161401484A0), -25, 4 }, /* q = -80 */
	{ UINT64_C(0xD3C21BCECCEDA100), -24, 1 }, /* q = -79 */
	{ UINT64_C(0xD3C21BCECCEDA100), -24, 2 }, /* q = -78 */
	{ UINT64_C(0xD3C21BCECCEDA100), -24, 3 }, /* q = -77 */
	{ UINT64_C(0xA968163F0A57B400), -23, 1 }, /* q = -76 */
	{ UINT64_C(0xA968163F0A57B400), -23, 2 }, /* q = -75 */
	{ UINT64_C(0xA968163F0A57B400), -23, 3 }, /* q = -74 */
	{ UINT64_C(0x878678326EAC9000), -22, 1 }, /* q = -73 */
	{ UINT64_C(0x878678326EAC9000), -22, 2 }, /* q = -72 */
	{ UINT64_C(0x878678326EAC9000), -22, 3 }, /* q = -71 */
	{ UINT64_C(0x878678326EAC9000), -22, 4 }, /* q = -70 */
	{ UINT64_C(0xD8D726B7177A8000), -21, 1 }, /* q = -69 */
	{ UINT64_C(0xD8D726B7177A8000), -21, 2 }, /* q = -68 */
	{ UINT64_C(0xD8D726B7177A8000), -21, 3 }, /* q = -67 */
	{ UINT64_C(0xAD78EBC5AC620000), -20, 1 }, /* q = -66 */
	{ UINT64_C(0xAD78EBC5AC620000), -20, 2 }, /* q = -65 */
	{ UINT64_C(0xAD78EBC5AC620000), -20, 3 }, /* q = -64 */
	{ UINT64_C(0x8AC7230489E80000), -19, 1 }, /* q = -63 */
	{ UINT64_C(0x8AC7230489E80000), -19, 2 }, /* q = -62 */
	{ UINT64_C(0x8AC7230489E80000), -19, 3 }, /* q = -61 */
	{ UINT64_C(0x8AC7230489E80000), -19, 4 }, /* q = -60 */
	{ UINT64_C(0xDE0B6B3A76400000), -18, 1 }, /* q = -59 */
	{ UINT64_C(0xDE0B6B3A76400000), -18, 2 }, /* q = -58 */
	{ UINT64_C(0xDE0B6B3A76400000), -18, 3 }, /* q = -57 */
	{ UINT64_C(0xB1A2BC2EC5000000), -17, 1 }, /* q = -56 */
	{ UINT64_C(0xB1A2BC2EC5000000), -17, 2 }, /* q = -55 */
	{ UINT64_C(0xB1A2BC2EC5000000), -17, 3 }, /* q = -54 */
	{ UINT64_C(0x8E1BC9BF04000000), -16, 1 }, /* q = -53 */
	{ UINT64_C(0x8E1BC9BF04000000), -16, 2 }, /* q = -52 */
	{ UINT64_C(0x8E1BC9BF04000000), -16, 3 }, /* q = -51 */
	{ UINT64_C(0x8E1BC9BF04000000), -16, 4 }, /* q = -50 */
	{ UINT64_C(0xE35FA931A0000000), -15, 1 }, /* q = -49 */
	{ UINT64_C(0xE35FA931A0000000), -15, 2 }, /* q = -48 */
	{ UINT64_C(0xE35FA931A0000000), -15, 3 }, /* q = -47 */
	{ UINT64_C(0xB5E620F480000000), -14, 1 }, /* q = -46 */
	{ UINT64_C(0xB5E620F480000000), -14, 2 }, /* q = -45 */
	{ UINT64_C(0xB5E620F480000000), -14, 3 }, /* q = -44 */
	{ UINT64_C(0x9184E72A00000000), -13, 1 }, /* q = -43 */
	{ UINT64_C(0x9184E72A00000000), -13, 2 }, /* q = -42 */
	{ UINT64_C(0x9184E72A00000000), -13, 3 }, /* q = -41 */
	{ UINT64_C(0x9184E72A00000000), -13, 4 }, /* q = -40 */
	{ UINT64_C(0xE8D4A51000000000), -12, 1 }, /* q = -39 */
	{ UINT64_C(0xE8D4A51000000000), -12, 2 }, /* q = -38 */
	{ UINT64_C(0xE8D4A51000000000), -12, 3 }, /* q = -37 */
	{ UINT64_C(0xBA43B74000000000), -11, 1 }, /* q = -36 */
	{ UINT64_C(0xBA43B74000000000), -11, 2 }, /* q = -35 */
	{ UINT64_C(0xBA43B74000000000), -11, 3 }, /* q = -34 */
	{ UINT64_C(0x9502F90000000000), -10, 1 }, /* q = -33 */
	{ UINT64_C(0x9502F90000000000), -10, 2 }, /* q = -32 */
	{ UINT64_C(0x9502F90000000000), -10, 3 }, /* q = -31 */
	{ UINT64_C(0x9502F90000000000), -10, 4 }, /* q = -30 */
	{ UINT64_C(0xEE6B280000000000), -9, 1 }, /* q = -29 */
	{ UINT64_C(0xEE6B280000000000), -9, 2 }, /* q = -28 */
	{ UINT64_C(0xEE6B280000000000), -9, 3 }, /* q = -27 */
	{ UINT64_C(0xBEBC200000000000), -8, 1 }, /* q = -26 */
	{ UINT64_C(0xBEBC200000000000), -8, 2 }, /* q = -25 */
	{ UINT64_C(0xBEBC200000000000), -8, 3 }, /* q = -24 */
	{ UINT64_C(0x9896800000000000), -7, 1 }, /* q = -23 */
	{ UINT64_C(0x9896800000000000), -7, 2 }, /* q = -22 */
	{ UINT64_C(0x9896800000000000), -7, 3 }, /* q = -21 */
	{ UINT64_C(0x9896800000000000), -7, 4 }, /* q = -20 */
	{ UINT64_C(0xF424000000000000), -6, 1 }, /* q = -19 */
	{ UINT64_C(0xF424000000000000), -6, 2 }, /* q = -18 */
	{ UINT64_C(0xF424000000000000), -6, 3 }, /* q = -17 */
	{ UINT64_C(0xC350000000000000), -5, 1 }, /* q = -16 */
	{ UINT64_C(0xC350000000000000), -5, 2 }, /* q = -15 */
	{ UINT64_C(0xC350000000000000), -5, 3 }, /* q = -14 */
	{ UINT64_C(0x9C40000000000000), -4, 1 }, /* q = -13 */
	{ UINT64_C(0x9C40000000000000), -4, 2 }, /* q = -12 */
	{ UINT64_C(0x9C40000000000000), -4, 3 }, /* q = -11 */
	{ UINT64_C(0x9C40000000000000), -4, 4 }, /* q = -10 */
	{ UINT64_C(0xFA00000000000000), -3, 1 }, /* q = -9 */
	{ UINT64_C(0xFA00000000000000), -3, 2 }, /* q = -8 */
	{ UINT64_C(0xFA00000000000000), -3, 3 }, /* q = -7 */
	{ UINT64_C(0xC800000000000000), -2, 1 }, /* q = -6 */
	{ UINT64_C(0xC800000000000000), -2, 2 }, /* q = -5 */
	{ UINT64_C(0xC800000000000000), -2, 3 }, /* q = -4 */
	{ UINT64_C(0xA000000000000000), -1, 1 }, /* q = -3 */
	{ UINT64_C(0xA000000000000000), -1, 2 }, /* q = -2 */
	{ UINT64_C(0xA000000000000000), -1, 3 }, /* q = -1 */
	{ UINT64_C(0x8000000000000000), 0, 1 }, /* q = 0 */
	{ UINT64_C(0x8000000000000000), 0, 2 }, /* q = 1 */
};

/*
 * v < 10^8 laid out as ascii8 lays it out, each byte the digit's value (0..9), not yet ASCII;
 * by a route with fewer multiplications waiting on each other. After the same split into two
 * 32-bit lanes of 4 digits y, byte i of a lane (i = 0..3) should see Q(i) = floor(y / 10^(3-i)),
 * each from its own multiplication, since digit i is Q(i) - 10 * Q(i - 1). So
 * Q(3) * 2^24 + (Q(0) + Q(1) * 2^8 + Q(2) * 2^16) * (1 - 10 * 2^8), over both lanes, is the
 * digits: an identity of integers, in which the parts of Q(2) and Q(3) wider than a byte
 * cancel (and the high lane's Q(3) past bit 63 would have cancelled too, so mod 2^64 is fine).
 * Checked for every y < 10000: y * 8389 >> 23, y * 10486 >> 20 and y * 6554 >> 16 are y / 1000,
 * y / 100 and y / 10, and no product reaches the next lane (below 2^27).
 */
static inline uint64_t digits8(uint32_t v)
{
	uint64_t q = v / 10000;
	uint64_t y = ((uint64_t)v << 32) + q * (UINT64_C(1) - (UINT64_C(10000) << 32));
	uint64_t quotients = ((y * 8389 >> 23) & UINT64_C(0x0000000F0000000F)) +
			     ((y * 10486 >> 12) & UINT64_C(0x00007F0000007F00)) +
			     ((y * 6554) & UINT64_C(0x03FF000003FF0000));
	return (y << 24) + quotients * (UINT64_C(1) - (UINT64_C(10) << 8));
}

/* How many of v's bytes, from the top, are 0: 0..8. Without a branch (v | 1 spares clz the 0). */
static inline int zero_bytes_on_top(uint64_t v)
{
	return (__builtin_clzll(v | 1) >> 3) + (v == 0);
}

/* v = (negative ? -1 : 1) * c * 2^q, q in [COMMON_Q_MIN, COMMON_Q_MAX], c normal and not 2^52. */
static size_t format_common(char *buf, int negative, uint64_t c, int q)
{
	uint64_t g = common_scale[q - COMMON_Q_MIN].g;
	int h = common_scale[q - COMMON_Q_MIN].h, k = common_scale[q - COMMON_Q_MIN].k;
	u128 n = (u128)(c << h) * g; /* c << h < 2^57 */
	uint64_t s = (uint64_t)(n >> 64), r = (uint64_t)n; /* s = floor(V), r = (V - s) * 2^64 */
	/*
	 * The interval's half-width in the same units, 2^(q-1) * 10^-k * 2^64 = g * 2^(h-1), is
	 * below 5 * 2^64 (2^q < 10^(k+1)). A candidate is inside when its distance to V is below
	 * it, or equal to it with c even: distance < half-width + incl.
	 */
	u128 bound = ((u128)g << (h - 1)) + ((c & 1) == 0);
	uint64_t tens = s / 10;
	unsigned j = (unsigned)(s - tens * 10);
	unsigned s_in = r < bound;
	unsigned s1_in = ((u128)1 << 64) - r < bound;
	unsigned t0_in = ((u128)j << 64) + r < bound;           /* s - j, the multiple of 10 below */
	unsigned t1_in = ((u128)(10 - j) << 64) - r < bound;    /* s - j + 10, the one above */
	uint64_t half = UINT64_C(1) << 63;
	uint64_t above = (r > half) | ((r == half) & s); /* V closer to s + 1, or a tie and s odd */
	uint64_t up = (s_in ^ 1) | (s1_in & above);
	/*
	 * choose's decision as W = s + delta, the answer in units of 10^k with its trailing zeros
	 * (s >= 2^52 > 10: choose's s < 10 case cannot happen): s - j + 10 * t1_in when a multiple
	 * of 10 is inside, else s + up. Selected with a mask: a branch here would be mispredicted
	 * whenever the digit counts of consecutive numbers differ.
	 */
	int64_t mult = 10 * (int64_t)t1_in - (int64_t)j, use_mult = -(int64_t)(t0_in | t1_in);
	int64_t delta = (int64_t)up ^ (((int64_t)up ^ mult) & use_mult);

	/*
	 * W has 16 or 17 digits (s >= 2^52 > 10^15, s < 2^53 * 10 < 10^17): a lead digit that may be
	 * 0, then 8 + 8. The first nine come from s, which is ready before delta; only when adding
	 * delta to the last eight carries or borrows (rarely) are they taken from W instead.
	 */
	uint64_t a = s / 100000000;
	int64_t b = (int64_t)(s - a * 100000000) + delta;
	if (__builtin_expect((uint64_t)b >= 100000000, 0)) {
		uint64_t w = s + (uint64_t)delta;
		a = w / 100000000;
		b = (int64_t)(w - a * 100000000);
	}
	uint32_t lead9 = (uint32_t)a / 100000000, a8 = (uint32_t)a - lead9 * 100000000;
	unsigned lead = lead9 != 0;
	char lead_digit = (char)('0' + lead9);
	uint64_t d_hi = digits8(a8), d_lo = digits8((uint32_t)b);
	/* the trailing zero digits are the top bytes that are 0 (all sixteen when W = d * 10^16) */
	int zeros = zero_bytes_on_top(d_lo) + (zero_bytes_on_top(d_hi) & -(d_lo == 0));
	u128 ascii_zeros = (u128)UINT64_C(0x3030303030303030) << 64 | UINT64_C(0x3030303030303030);
	u128 x = ((u128)d_lo << 64 | d_hi) | ascii_zeros;
	/* as in write_decimal: value = 0.digits * 10^point, the sixteen after the lead digit in x */
	int length = 16 + (int)lead - zeros, point = 16 + (int)lead + k;

	char *p = buf;
	*p = '-';
	p += negative;
	if (point >= length) {
		/* an integer: the digits up to the point (<= 16 + lead), W's zeros standing for its own */
		*p = lead_digit;
		p += lead;
		store16(p, x);
		p += point - (int)lead;
	} else if (point > 0) {
		/* the digits; the fraction, x shifted, one place further on; the point between */
		*p = lead_digit;
		p += lead;
		point -= (int)lead;
		store16(p, x);
		store16(p + point + 1, x >> (8 * point));
		p[point] = '.';
		p += length - (int)lead + 1;
	} else if (point > -6) {
		/* 0.000ddd */
		memcpy(p, "0.00000", 8);
		p += 2 - point;
		*p = lead_digit;
		p += lead;
		store16(p, x);
		p += length - (int)lead;
	} else {
		/* d.ddde-X: point <= -6, so the exponent is negative */
		int e = 1 - point, rest = length - 1;
		if (!lead) {
			lead_digit = (char)x;
			x >>= 8;
		}
		*p++ = lead_digit;
		if (rest > 0) {
			*p++ = '.';
			store16(p, x);
			p += rest;
		}
		*p++ = 'e';
		*p++ = '-';
		p = write_exponent(p, e);
	}
	*p = '\0';
	return (size_t)(p - buf);
}

static size_t format(char *buf, double value, int force_big)
{
	uint64_t bits;
	memcpy(&bits, &value, sizeof(bits));
	int negative = (int)(bits >> 63);
	int biased = (int)((bits >> 52) & 0x7FF);
	uint64_t fraction = bits & ((UINT64_C(1) << 52) - 1);

	if (biased == 0x7FF) {
		const char *text = fraction ? "nan" : negative ? "-inf" : "inf";
		strcpy(buf, text);
		return strlen(text);
	}
	if (biased == 0 && fraction == 0) {
		strcpy(buf, negative ? "-0" : "0");
		return (size_t)(1 + negative);
	}

	double magnitude = negative ? -value : value;
	/* Integers below 2^53 are their own shortest text: the interval around them is at most 1 wide. */
	if (!force_big && magnitude < 9007199254740992.0 && magnitude == (double)(int64_t)magnitude)
		return write_decimal(buf, negative, (uint64_t)magnitude, 0);

	uint64_t c = biased ? fraction | (UINT64_C(1) << 52) : fraction;
	int q = (biased ? biased : 1) - 1075;
	/* Below a power of two (not the smallest normal: its lower neighbour is as far as the upper) */
	int below_power = fraction == 0 && biased > 1;
	int k = floor_log10_pow2(q, below_power);
	uint64_t digits;
	int exponent;
	if (!force_big && k >= -FAST_K_MAX && k <= FAST_K_MAX)
		digits = digits_fast(4 * c, below_power ? 1 : 2, q, k, (c & 1) == 0, &exponent);
	else
		digits = digits_big(4 * c, below_power ? 1 : 2, q, k, (c & 1) == 0, &exponent);
	return write_decimal(buf, negative, digits, exponent);
}

size_t rli_format_double(char *buf, double value)
{
	uint64_t bits;
	memcpy(&bits, &value, sizeof(bits));
	int biased = (int)((bits >> 52) & 0x7FF), q = biased - 1075;
	/* the common path's magnitudes; powers of two (fraction 0, lower neighbour nearer) go to format */
	if (q >= COMMON_Q_MIN && q <= COMMON_Q_MAX) {
		uint64_t fraction = bits & ((UINT64_C(1) << 52) - 1);
		if (fraction != 0)
			return format_common(buf, (int)(bits >> 63), fraction | (UINT64_C(1) << 52), q);
	}
	return format(buf, value, 0);
}

size_t rli_format_double_bignum(char *buf, double value)
{
	return format(buf, value, 1);
}

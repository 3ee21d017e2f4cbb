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
	return format(buf, value, 0);
}

size_t rli_format_double_bignum(char *buf, double value)
{
	return format(buf, value, 1);
}

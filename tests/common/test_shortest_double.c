/* test_shortest_double.c: rli_format_double reads back bit for bit, is the shortest and the closest, in JavaScript's layout. */
#include "common/json_write.h"
#include "common/shortest_double.h"
#include "harness.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t bits_of(double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof(b));
	return b;
}

static double from_bits(uint64_t b)
{
	double v;
	memcpy(&v, &b, sizeof(v));
	return v;
}

/* splitmix64: a fixed seed, so a failure is reproducible. */
static uint64_t rng_state = 0x5EED0F5AFE5EEDull;
static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double rng_unit(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

/* A decimal as our text spells it: value = (-1)^negative * 0.digits * 10^point. */
typedef struct {
	int negative;
	char digits[40]; /* significant digits, no leading or trailing zeros */
	int count;
	int point;
	int exponent_form;
} decimal;

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Reads text by the grammar shortest_double.h promises, and nothing looser: -?, then 0, or
 * digits without a leading zero, or 0.000ddd; a fraction never ends in 0; in exponent form
 * one non-zero digit before the point and e+X / e-X without leading zeros. 0 on a violation.
 */
static int parse_strict(decimal *d, const char *text)
{
	const char *p = text, *int_begin, *frac_begin = NULL;
	int int_length, frac_length = 0, exponent = 0;
	memset(d, 0, sizeof(*d));
	if (*p == '-') {
		d->negative = 1;
		p++;
	}
	int_begin = p;
	while (is_digit(*p))
		p++;
	int_length = (int)(p - int_begin);
	if (int_length == 0 || (int_length > 1 && int_begin[0] == '0'))
		return 0;
	if (*p == '.') {
		frac_begin = ++p;
		while (is_digit(*p))
			p++;
		frac_length = (int)(p - frac_begin);
		if (frac_length == 0 || p[-1] == '0')
			return 0;
	}
	if (*p == 'e') {
		d->exponent_form = 1;
		p++;
		if (int_length != 1 || int_begin[0] == '0' || (*p != '+' && *p != '-'))
			return 0;
		int sign = *p++ == '-' ? -1 : 1;
		if (!is_digit(*p) || *p == '0')
			return 0;
		while (is_digit(*p))
			exponent = exponent * 10 + (*p++ - '0');
		exponent *= sign;
	}
	if (*p != '\0' || int_length + frac_length >= (int)sizeof(d->digits))
		return 0;
	/* all digits, then drop leading zeros (moving the point) and trailing zeros */
	char all[80];
	memcpy(all, int_begin, (size_t)int_length);
	if (frac_length)
		memcpy(all + int_length, frac_begin, (size_t)frac_length);
	int n = int_length + frac_length, lead = 0;
	while (lead < n && all[lead] == '0')
		lead++;
	while (n > lead && all[n - 1] == '0')
		n--;
	d->count = n - lead;
	memcpy(d->digits, all + lead, (size_t)d->count);
	d->digits[d->count] = '\0';
	d->point = int_length - lead + exponent;
	return 1;
}

static double read_decimal(int negative, const char *digits, int count, int point)
{
	char text[80];
	snprintf(text, sizeof(text), "%s0.%.*se%d", negative ? "-" : "", count, digits, point);
	return strtod(text, NULL);
}

static long checked, failures_reported;

static void fail(double v, const char *text, const char *why)
{
	rli_test_failures++;
	if (failures_reported++ < 20)
		fprintf(stderr, "value %a (%.17g): \"%s\": %s\n", v, v, text, why);
}

/*
 * Everything about one value: the text reads back bit for bit; follows the grammar and the
 * layout rule; no decimal with one digit fewer reads back (the nearest ones either way, so
 * none at all); the correctly rounded decimal of as many digits, when it reads back, is ours.
 */
static void check_value(double v, int compare_paths)
{
	char text[RLI_DOUBLE_BUFSIZE + 8];
	decimal d;
	size_t length = rli_format_double(text, v);
	checked++;
	if (length != strlen(text) || length > RLI_DOUBLE_MAXLEN) {
		fail(v, text, "length wrong or past RLI_DOUBLE_MAXLEN");
		return;
	}
	if (compare_paths) {
		char other[RLI_DOUBLE_BUFSIZE];
		rli_format_double_bignum(other, v);
		if (strcmp(text, other) != 0) {
			fail(v, text, "the arbitrary-precision path writes something else");
			fprintf(stderr, "  bignum path: \"%s\"\n", other);
		}
	}
	if (isnan(v)) {
		if (strcmp(text, "nan") != 0)
			fail(v, text, "NaN is not \"nan\"");
		return;
	}
	if (bits_of(strtod(text, NULL)) != bits_of(v)) {
		fail(v, text, "does not read back as the same double");
		return;
	}
	if (isinf(v) || v == 0)
		return;
	if (!parse_strict(&d, text)) {
		fail(v, text, "not in the documented grammar");
		return;
	}
	if (d.exponent_form != !(d.point > -6 && d.point <= 21))
		fail(v, text, "exponent form where plain decimal belongs, or the reverse");
	if (d.count > 17)
		fail(v, text, "more than 17 significant digits");
	if (d.count > 1) {
		/* one digit fewer: truncated, and truncated plus one unit in its last place */
		char shorter[40];
		int n = d.count - 1, point = d.point;
		memcpy(shorter, d.digits, (size_t)n);
		if (bits_of(read_decimal(d.negative, shorter, n, point)) == bits_of(v))
			fail(v, text, "one digit fewer (rounded down) reads back too");
		int i = n - 1;
		while (i >= 0 && shorter[i] == '9')
			shorter[i--] = '0';
		if (i >= 0) {
			shorter[i]++;
		} else { /* 99..9 + 1 = 100..0: one more place before the point */
			memmove(shorter + 1, shorter, (size_t)n);
			shorter[0] = '1';
			point++;
		}
		if (bits_of(read_decimal(d.negative, shorter, n, point)) == bits_of(v))
			fail(v, text, "one digit fewer (rounded up) reads back too");
	}
	/* printf's correctly rounded decimal of the same length, if it reads back, is the closest */
	char rounded[64], digits[40];
	snprintf(rounded, sizeof(rounded), "%.*e", d.count - 1, fabs(v));
	if (strtod(rounded, NULL) == fabs(v)) {
		int n = 0, exponent = atoi(strchr(rounded, 'e') + 1);
		for (const char *p = rounded; *p != 'e'; p++)
			if (is_digit(*p))
				digits[n++] = *p;
		while (n > 1 && digits[n - 1] == '0')
			n--;
		digits[n] = '\0';
		if (strcmp(digits, d.digits) != 0 || exponent + 1 != d.point)
			fail(v, text, "not the closest decimal of its length (printf rounds to another)");
	}
}

static void check_text(double v, const char *want)
{
	char text[RLI_DOUBLE_BUFSIZE];
	rli_format_double(text, v);
	CHECK_STR(text, want);
	check_value(v, 1);
	check_value(-v, 1);
}

/* The documented spellings, and the values the issue names. */
static void test_known(void)
{
	check_text(0.0, "0");
	check_text(-0.0, "-0");
	check_text(1, "1");
	check_text(-1, "-1");
	check_text(0.1, "0.1");
	check_text(0.3, "0.3");
	check_text(0.1 + 0.2, "0.30000000000000004");
	check_text(14.81525, "14.81525");
	check_text(60.444000000000003, "60.444");
	check_text(164.81999999999999, "164.82");
	check_text(1773285888698.7546, "1773285888698.7546");
	check_text(1773285888737.856, "1773285888737.856");
	check_text(6589107257.5574398, "6589107257.55744");
	check_text(10083.720388671874, "10083.720388671874");
	check_text(1e21, "1e+21");
	check_text(1e20, "100000000000000000000");
	check_text(9.999999999999999e20, "999999999999999900000"); /* the largest plain one */
	check_text(123456789012345680000.0, "123456789012345680000");
	check_text(1e22, "1e+22");
	check_text(1e23, "1e+23"); /* the double nearest 1e23 is 9.999999999999999e22; %.17g writes 9.9999999999999992e+22 */
	check_text(1.5e300, "1.5e+300");
	check_text(0.000001, "0.000001");
	check_text(0.000001234, "0.000001234");
	check_text(1e-7, "1e-7");
	check_text(1.5e-7, "1.5e-7");
	check_text(9.999999e-7, "9.999999e-7");
	check_text(5e-324, "5e-324");
	check_text(1e-323, "1e-323");   /* 2 * 2^-1074, 9.88e-324: 1e-323 is closer than 9e-324 */
	check_text(1.5e-323, "1.5e-323"); /* 3 * 2^-1074 */
	check_text(DBL_MIN, "2.2250738585072014e-308");
	check_text(nextafter(DBL_MIN, 0), "2.225073858507201e-308"); /* the largest subnormal */
	check_text(DBL_MAX, "1.7976931348623157e+308");
	check_text(9007199254740992.0, "9007199254740992");        /* 2^53 */
	check_text(9007199254740993.0, "9007199254740992");        /* 2^53 + 1 reads as 2^53 */
	check_text(9007199254740994.0, "9007199254740994");        /* 2^53 + 2 */
	check_text(9007199254740991.0, "9007199254740991");        /* 2^53 - 1 */
	check_text(18446744073709551616.0, "18446744073709552000"); /* 2^64 */
	check_text(2.9802322387695312e-8, "2.9802322387695312e-8"); /* 2^-25 */
	/* exact ties between two 17-digit decimals: the even last digit, as printf rounds */
	check_text(1125899906842624.25, "1125899906842624.2");
	check_text(1125899906842624.75, "1125899906842624.8");
	/* 17 significant digits needed */
	check_text(0.10000000000000002, "0.10000000000000002");
	check_text(1.7976931348623155e308, "1.7976931348623155e+308");
	check_text(4.4501477170144023e-308, "4.4501477170144023e-308");
	check_text(NAN, "nan");
	check_text(INFINITY, "inf");
	{
		char text[RLI_DOUBLE_BUFSIZE];
		rli_format_double(text, -INFINITY);
		CHECK_STR(text, "-inf");
		rli_format_double(text, -NAN);
		CHECK_STR(text, "nan");
		/* the longest plain form: sign, "0.", five zeros, 17 digits */
		CHECK_INT(rli_format_double(text, -1.2345678901234567e-6), RLI_DOUBLE_MAXLEN);
		CHECK_STR(text, "-0.0000012345678901234567");
	}
}

/* Powers of two and of ten over the whole range, and their neighbours. */
static void test_powers(void)
{
	for (int p = -1074; p <= 1023; p++) {
		double v = ldexp(1.0, p);
		check_value(v, 1);
		check_value(nextafter(v, 0), 1);
		check_value(nextafter(v, INFINITY), 1);
	}
	for (int p = -323; p <= 308; p++) {
		char want[32], text[RLI_DOUBLE_BUFSIZE];
		double v;
		snprintf(want, sizeof(want), "1e%d", p);
		v = strtod(want, NULL);
		/* "1eP" reads back, so one digit is the shortest: the text is 10^P in the documented layout */
		if (p > -7 && p < 21) {
			if (p < 0)
				snprintf(want, sizeof(want), "0.%0*d", -p, 1);
			else
				snprintf(want, sizeof(want), "1%0*d", p, 0);
			if (p == 0)
				snprintf(want, sizeof(want), "1");
		} else {
			snprintf(want, sizeof(want), "1e%c%d", p < 0 ? '-' : '+', abs(p));
		}
		rli_format_double(text, v);
		CHECK_STR(text, want);
		check_value(v, 1);
		check_value(nextafter(v, 0), 1);
		check_value(nextafter(v, INFINITY), 1);
	}
}

/* Every binary exponent, with the significands at its edges and a few random ones; both paths. */
static void test_every_exponent(void)
{
	for (uint64_t biased = 0; biased < 0x7FF; biased++) {
		const uint64_t fractions[] = { 0, 1, 2, 3, UINT64_C(1) << 51, (UINT64_C(1) << 52) - 1,
					       rng() >> 12, rng() >> 12, rng() >> 12, rng() >> 12 };
		for (size_t i = 0; i < sizeof(fractions) / sizeof(fractions[0]); i++)
			check_value(from_bits(biased << 52 | fractions[i]), 1);
	}
}

static void test_random_bits(long count)
{
	for (long i = 0; i < count; i++)
		check_value(from_bits(rng()), i % 16 == 0);
}

/* Values as the parsers make them: epoch and monotonic clocks in ms, durations, their sums. */
static void test_table_ranges(long count)
{
	for (long i = 0; i < count; i++) {
		char text[64];
		double start, duration;
		int64_t us = INT64_C(1773285888000000) + (int64_t)(rng() % UINT64_C(2592000000000)); /* 30 days */
		int64_t ns = INT64_C(6589107243593703) + (int64_t)(rng() % UINT64_C(86400000000000));
		switch (i % 6) {
		case 0: /* MSTX: the ts text in µs with a fraction, / 1000 */
			snprintf(text, sizeof(text), "%lld.%03d", (long long)us, (int)(rng() % 1000));
			start = strtod(text, NULL) / 1000;
			break;
		case 1: /* NVTX: (start + startTime) in ns / 1000 / 1000 */
			start = (double)ns / 1000 / 1000;
			break;
		case 2: /* torch: µs as a double, / 1000 */
			start = (double)us / 1000;
			break;
		case 3: /* anything from 1 µs to 10^13 ms, log-uniform */
			start = pow(10, -3 + 16 * rng_unit());
			break;
		case 4: /* short decimals, which should come back as written */
			snprintf(text, sizeof(text), "%llu.%llu", (unsigned long long)(rng() % 100000),
				 (unsigned long long)(rng() % 1000));
			start = strtod(text, NULL);
			break;
		default: /* random significand, exponent from 2^-30 to 2^45 */
			start = ldexp(1.0 + rng_unit(), (int)(rng() % 76) - 30);
			break;
		}
		duration = rng_unit() * pow(10, (double)(rng() % 7));
		check_value(start, 0);
		check_value(duration, 0);
		check_value(start + duration, i % 64 == 0);
	}
}

/*
 * rli_format_double takes a shorter road for most magnitudes (format_common, about 7e-12 to
 * 1.8e16): its text, and its length, against the arbitrary-precision path's on millions of
 * values. Only the two texts are compared (check_value's strtod and printf cost far more), so
 * this covers many more values than the tests above.
 */
static long compared;

static void same_as_bignum(double v)
{
	char text[RLI_DOUBLE_BUFSIZE], other[RLI_DOUBLE_BUFSIZE];
	size_t length = rli_format_double(text, v), other_length = rli_format_double_bignum(other, v);
	compared++;
	if (length != other_length || strcmp(text, other) != 0) {
		fail(v, text, "the arbitrary-precision path writes something else");
		fprintf(stderr, "  bignum path: \"%s\"\n", other);
	}
}

/* v and its n neighbours on either side (by bit pattern, so across exponents too), both signs */
static void same_around(double v, int n)
{
	uint64_t b = bits_of(v);
	for (int d = -n; d <= n; d++) {
		double w = from_bits(b + (uint64_t)(int64_t)d);
		if (isfinite(w)) {
			same_as_bignum(w);
			same_as_bignum(-w);
		}
	}
}

static void test_paths_agree(long count)
{
	/* every power of two, every power of ten and d * 10^p, and their neighbours */
	for (int p = -1074; p <= 1023; p++)
		same_around(ldexp(1.0, p), 16);
	for (int p = -323; p <= 308; p++)
		for (int d = 1; d <= 9; d++) {
			char text[32];
			snprintf(text, sizeof(text), "%de%d", d, p);
			same_around(strtod(text, NULL), d == 1 ? 16 : 2);
		}
	/* integers around 2^52, 2^53 (where the spacing becomes 2) and 2^54 (the common path's end) */
	for (int64_t i = -50000; i <= 50000; i++) {
		same_as_bignum(4503599627370496.0 + (double)i);
		same_as_bignum(9007199254740992.0 + (double)i);
		same_as_bignum(18014398509481984.0 + (double)(4 * i));
	}
	/* the smallest and the largest subnormals */
	for (uint64_t b = 1; b <= 5000; b++) {
		same_as_bignum(from_bits(b));
		same_as_bignum(from_bits((UINT64_C(1) << 52) - b));
	}

	for (long i = 0; i < count; i++) {
		double v;
		char text[64];
		switch (i % 10) {
		case 0: /* any bit pattern */
		case 1:
			v = from_bits(rng());
			break;
		case 2: { /* integer nanoseconds / 1e6: milliseconds from 1e9 to 1e13 */
			uint64_t ns = UINT64_C(1000000000000000) + rng() % UINT64_C(9999000000000000000);
			v = (double)ns / 1e6;
			break;
		}
		case 3: { /* the difference of two of those, a microsecond to days apart */
			static const uint64_t spans[] = { UINT64_C(1000000), UINT64_C(100000000000),
							  UINT64_C(100000000000000) };
			uint64_t a = UINT64_C(1000000000000000) + rng() % UINT64_C(9000000000000000000);
			uint64_t d = rng() % spans[rng() % 3];
			v = (double)(a + d) / 1e6 - (double)a / 1e6;
			break;
		}
		case 4: { /* microseconds with three decimals, / 1000 */
			uint64_t us = UINT64_C(1000000000) + rng() % UINT64_C(9999000000000000);
			snprintf(text, sizeof(text), "%llu.%03d", (unsigned long long)us, (int)(rng() % 1000));
			v = strtod(text, NULL) / 1000;
			break;
		}
		case 5: /* any significand, binary exponents a little past the common path's on both sides */
			v = ldexp(1.0 + rng_unit(), (int)(rng() % 100) - 42);
			break;
		case 6: /* exact ties (n + 1/4 below 2^51, where 10^k = 1/10), and c * 2^q for small q */
			if (rng() & 1) {
				uint64_t n = (UINT64_C(1) << 50) + rng() % (UINT64_C(3) << 50);
				v = (double)n + 0.25 * (double)(rng() % 4);
			} else {
				v = ldexp((double)((UINT64_C(1) << 52) | rng() >> 12), (int)(rng() % 8) - 6);
			}
			break;
		case 7: /* few significant digits, and neighbours: the last digits carry or borrow */
			snprintf(text, sizeof(text), "%llue%d", (unsigned long long)(rng() % 1000000000),
				 (int)(rng() % 36) - 24);
			v = strtod(text, NULL);
			v = from_bits(bits_of(v) + (uint64_t)(int64_t)((int)(rng() % 7) - 3));
			break;
		case 8: /* log-uniform from 1e-12 to 1e18 */
			v = pow(10, -12 + 30 * rng_unit());
			break;
		default: /* subnormals */
			v = from_bits(rng() >> 12);
			break;
		}
		same_as_bignum(rng() & 1 ? -v : v);
	}
}

/* JSON writes null for what it cannot spell, and the same text as rli_format_double otherwise. */
static void test_json(void)
{
	char *data = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&data, &size);
	const double values[] = { NAN, INFINITY, -INFINITY, -0.0, 1e21, 1e-7, 1773285888698.7546 };
	if (!fp) {
		CHECK(fp != NULL);
		return;
	}
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		rli_json_write_double(fp, values[i]);
		putc(' ', fp);
	}
	fclose(fp);
	CHECK_STR(data, "null null null -0 1e+21 1e-7 1773285888698.7546 ");
	free(data);

	/* rli_json_escape (into memory, for the export) writes what rli_json_write_string writes */
	static const char hostile[] = "plain \"q\" \\ \n\r\t\x01\x1f\x7f <b>&amp; \xe2\x80\xa8 \xe2\x80\xa9 "
				      "\xe6\x9d\x83 \xf0\x9f\x98\x80 bad \xff \xc0\xaf \xed\xa0\x80 \xe2\x82";
	for (int flags = RLI_JSON_PLAIN; flags <= RLI_JSON_HTML_SAFE; flags++) {
		char escaped[RLI_JSON_ESCAPED_MAX(sizeof(hostile))];
		size_t length = rli_json_escape(escaped, hostile, flags);
		fp = open_memstream(&data, &size);
		if (!fp)
			continue;
		rli_json_write_string(fp, hostile, flags);
		fclose(fp);
		CHECK(length == size && memcmp(escaped, data, size) == 0);
		free(data);
	}
}

/*
 * Random values test_paths_agree compares at scale 1 (about 2 s in a Release build). Under
 * AddressSanitizer (RLI_SANITIZE: GCC defines __SANITIZE_ADDRESS__, Clang has the feature) each
 * call costs about ten times as much, so a tenth there (the whole test then takes about 10 s);
 * -DPATHS_AGREE_COUNT=N overrides both.
 */
#ifndef PATHS_AGREE_COUNT
#if defined(__SANITIZE_ADDRESS__)
#define PATHS_AGREE_COUNT 600000L
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PATHS_AGREE_COUNT 600000L
#endif
#endif
#endif
#ifndef PATHS_AGREE_COUNT
#define PATHS_AGREE_COUNT 6000000L
#endif

int main(int argc, char **argv)
{
	/* optional scale factor for the random parts, e.g. 10 for a longer soak */
	long scale = argc > 1 ? atol(argv[1]) : 1;
	clock_t t0 = clock();
	if (scale < 1)
		scale = 1;
	test_known();
	test_powers();
	test_every_exponent();
	test_json();
	test_random_bits(1000000 * scale);
	test_table_ranges(500000 * scale);
	test_paths_agree(PATHS_AGREE_COUNT * scale);
	printf("%ld values checked, %ld compared with the arbitrary-precision path, in %.2f s CPU\n", checked,
	       compared, (double)(clock() - t0) / CLOCKS_PER_SEC);
	TEST_DONE();
}

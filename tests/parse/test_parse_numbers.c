/* test_parse_numbers.c: the parsers' number reading gives strtod's double bit for bit, and strtoll's integer, on the fast paths too. */
#include "harness.h"
#include "parse/json_stream.h"

#include <stdint.h>

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
	return rli_test_random(&state);
}

/* Same bits (so -0.0 differs from 0.0) as strtod on the same text. */
static int agrees(const char *text)
{
	double got = 0, want = strtod(text, NULL);
	if (rli_text_to_double(&got, text, strlen(text)) != 0) {
		fprintf(stderr, "rejected \"%s\"\n", text);
		return 0;
	}
	if (memcmp(&got, &want, sizeof(got)) != 0) {
		fprintf(stderr, "\"%s\": got %.17g, strtod says %.17g\n", text, got, want);
		return 0;
	}
	return 1;
}

/* digits with a point after `whole` of them (none when whole == count), optional sign. */
static void decimal_text(char *out, uint64_t digits, int count, int whole, int negative)
{
	char raw[32];
	int n = snprintf(raw, sizeof(raw), "%0*llu", count, (unsigned long long)digits), k = 0;
	if (negative)
		out[k++] = '-';
	for (int i = 0; i < n; i++) {
		if (i == whole)
			out[k++] = '.';
		out[k++] = raw[i];
	}
	out[k] = '\0';
}

int main(void)
{
	static const char *const fixed[] = {
		"0", "-0", "0.0", "-0.000", "00012", "5.", ".5", "-.5", "1773285888384394.845", "47.998",
		"4540967180632271.593", "12041752.481", "9007199254740993", "9007199254740995",
		"18014398509481985", "9999999999999999999", "0.1", "0.3", "123456789012345678.9",
		"1e3", "1E-2", "+5", " 42 ", "1844674407370955161.5", "0.0000000000000000000000000001",
		"12345678901234567890123", "1.00000000000000000000000001"};
	static const char *const refused[] = {"", "-", ".", "-.", "1.2.3", "1e", "0x10", "inf", "nan", "1,5", "--1"};
	char text[64];
	double value;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		CHECK(agrees(fixed[i]));
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		CHECK(rli_text_to_double(&value, refused[i], strlen(refused[i])) < 0);

	/* Halfway cases: an odd integer just above 2^53, 2^54, ... lies between two doubles. */
	for (int shift = 53; shift < 64; shift++) {
		uint64_t base = (uint64_t)1 << shift;
		for (int k = 0; k < 4; k++) {
			uint64_t halfway = base + ((uint64_t)1 << (shift - 53)) * (uint64_t)(2 * k + 1);
			snprintf(text, sizeof(text), "%llu", (unsigned long long)(base + (uint64_t)k * 2 + 1));
			CHECK(agrees(text));
			snprintf(text, sizeof(text), "%llu", (unsigned long long)halfway);
			CHECK(agrees(text));
		}
	}

	/* Random decimals of 1..20 digits with the point anywhere, the shapes profilers write. */
	int failures = 0;
	for (int i = 0; i < 400000 && failures < 10; i++) {
		uint64_t r = next_random();
		int count = 1 + (int)(r % 20);
		int whole = (int)((r >> 8) % (uint64_t)(count + 1));
		uint64_t digits = next_random();
		if (count < 20) {
			uint64_t limit = 1;
			for (int d = 0; d < count; d++)
				limit *= 10;
			digits %= limit;
		}
		decimal_text(text, digits, count, whole, (int)((r >> 16) & 1));
		if (!agrees(text))
			failures++;
	}
	CHECK(failures == 0);

	/* Integers: the digit loop for short ones and strtoll for the rest give the same values. */
	static const char *const integers[] = {"0", "-0", "7", "-7", "999999999999999999", "-999999999999999999",
					       "9223372036854775807", "-9223372036854775808", "000000000000000042"};
	static const char *const not_integers[] = {"", "-", "9223372036854775808", "-9223372036854775809",
						   "1.0", "+1", "1e3", " 1", "99999999999999999999"};
	int64_t integer;
	for (size_t i = 0; i < sizeof(integers) / sizeof(integers[0]); i++) {
		CHECK(rli_text_to_int64(&integer, integers[i], strlen(integers[i])) == 0);
		CHECK_INT(integer, strtoll(integers[i], NULL, 10));
	}
	for (size_t i = 0; i < sizeof(not_integers) / sizeof(not_integers[0]); i++)
		CHECK(rli_text_to_int64(&integer, not_integers[i], strlen(not_integers[i])) < 0);
	for (int i = 0; i < 100000; i++) {
		uint64_t r = next_random();
		int count = 1 + (int)(r % 18);
		uint64_t limit = 1;
		for (int d = 0; d < count; d++)
			limit *= 10;
		snprintf(text, sizeof(text), "%s%llu", (r >> 8) & 1 ? "-" : "",
			 (unsigned long long)(next_random() % limit));
		if (rli_text_to_int64(&integer, text, strlen(text)) != 0 || integer != strtoll(text, NULL, 10)) {
			fprintf(stderr, "integer \"%s\" read as %lld\n", text, (long long)integer);
			CHECK(0);
			break;
		}
	}
	/* One byte that is no digit, anywhere in 1..18 digits, and the integer is refused, as strtoll's path does. */
	static const char not_digits[] = {'/', ':', 'a', ' ', '.', '+', '-', '\x00', (char)0xb0, (char)0xf9, 'O'};
	for (int i = 0; i < 20000; i++) {
		uint64_t r = next_random();
		int count = 1 + (int)(r % 18), at = (int)((r >> 8) % (uint64_t)count);
		char bad = not_digits[(r >> 16) % sizeof(not_digits)];
		for (int d = 0; d < count; d++)
			text[d] = (char)('0' + (next_random() % 10));
		text[at] = bad;
		if (bad == '-' && at == 0)
			continue; /* a sign, not a bad byte */
		if (rli_text_to_int64(&integer, text, (size_t)count) == 0 ||
		    rli_text_to_int64_long(&integer, text, (size_t)count) == 0) {
			fprintf(stderr, "accepted a bad byte at %d of %d digits\n", at, count);
			CHECK(0);
			break;
		}
	}
	TEST_DONE();
}

/* test_numfmt.c: thousands separators, durations and sizes in their units, and epoch origins as UTC, worked out by hand. */
#include "harness.h"
#include "common/numfmt.h"

#include <math.h>

static void test_thousands(void)
{
	char b[64];
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), 0, 0), "0");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), 999, 0), "999");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), 1000, 0), "1,000");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), 1234567.891, 2), "1,234,567.89");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), -1234567.891, 1), "-1,234,567.9");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), 100000, 0), "100,000");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), -0.0001, 2), "0.00");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), NAN, 2), "n/a");
	CHECK_STR(rli_fmt_thousands(b, sizeof(b), INFINITY, 2), "n/a");
	/* truncated, still terminated */
	CHECK_STR(rli_fmt_thousands(b, 4, 1234567, 0), "1,2");
}

static void test_units(void)
{
	CHECK_STR(rli_time_unit_for(9999).name, "ms");
	CHECK_STR(rli_time_unit_for(10000).name, "s");
	CHECK_STR(rli_time_unit_for(599999).name, "s");
	CHECK_STR(rli_time_unit_for(600000).name, "min");
	CHECK_NEAR(rli_time_unit_for(600000).ms, 60000, 0);
}

static void test_duration(void)
{
	char b[64];
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 0), "0 ms");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 0.0123), "0.0123 ms");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 12.34), "12.3 ms");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 999.4), "999 ms");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 1234.5), "1.23 s");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 9996), "10.0 s");   /* rounding carries a decade */
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 90000), "90.0 s");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 754000), "12.6 min");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), 75400000), "1,257 min");
	CHECK_STR(rli_fmt_duration(b, sizeof(b), INFINITY), "n/a");
}

static void test_size(void)
{
	char b[64];
	CHECK_STR(rli_fmt_size_kb(b, sizeof(b), 512), "512 KB");
	CHECK_STR(rli_fmt_size_kb(b, sizeof(b), 1536), "1.50 MB");
	CHECK_STR(rli_fmt_size_kb(b, sizeof(b), 61.2 * 1024 * 1024), "61.2 GB");
	CHECK_STR(rli_fmt_size_kb(b, sizeof(b), 0.5), "0.500 KB");
}

static void test_utc(void)
{
	char b[64];
	/* 1773285888353.098 ms: 1773285888 s is 2026-03-12 03:24:48 UTC */
	CHECK(rli_is_epoch_ms(1773285888353.098));
	CHECK_STR(rli_fmt_utc(b, sizeof(b), 1773285888353.098), "2026-03-12 03:24:48.353 UTC");
	/* rounding to the millisecond carries into the second */
	CHECK_STR(rli_fmt_utc(b, sizeof(b), 946684800999.7), "2000-01-01 00:00:01.000 UTC");
	CHECK(!rli_is_epoch_ms(12345.0));
	CHECK(!rli_is_epoch_ms(NAN));
	CHECK(!rli_is_epoch_ms(4102444800e3));
}

/* Significant digits to decimals: the integer part's digits count first. */
static void test_decimals(void)
{
	CHECK_INT(rli_fmt_decimals(1234.5, 4), 0);  /* four digits before the point already */
	CHECK_INT(rli_fmt_decimals(8000, 4), 0);
	CHECK_INT(rli_fmt_decimals(999.9, 4), 1);
	CHECK_INT(rli_fmt_decimals(12.345, 4), 2);
	CHECK_INT(rli_fmt_decimals(-12.345, 4), 2); /* the magnitude counts */
	CHECK_INT(rli_fmt_decimals(1, 4), 3);
	CHECK_INT(rli_fmt_decimals(0.012345, 3), 4); /* 0.0123 */
	CHECK_INT(rli_fmt_decimals(1e-20, 4), 15);  /* capped */
	CHECK_INT(rli_fmt_decimals(0, 4), 0);
	CHECK_INT(rli_fmt_decimals(NAN, 4), 0);
}

int main(void)
{
	test_decimals();
	test_thousands();
	test_units();
	test_duration();
	test_size();
	test_utc();
	TEST_DONE();
}

/* shortest_double.h: a double as the shortest decimal text that reads back (strtod) as the same double. */
#ifndef RLI_COMMON_SHORTEST_DOUBLE_H
#define RLI_COMMON_SHORTEST_DOUBLE_H

#include <stddef.h>

/*
 * The buffer rli_format_double needs: the longest text is 25 characters and its NUL, and the
 * writer may use the bytes up to here as scratch (fixed-size copies, faster than exact ones).
 */
#define RLI_DOUBLE_BUFSIZE 40
#define RLI_DOUBLE_MAXLEN 25

/*
 * Writes value into buf (at least RLI_DOUBLE_BUFSIZE bytes), NUL-terminated; returns its length.
 *
 * Digits: the fewest significant digits that strtod (round to nearest, ties to even) reads
 * back as exactly value; among as few digits, the decimal closest to value; an exact tie
 * between two, the one whose last digit is even.
 *
 * Notation: that of JavaScript's Number.prototype.toString (ECMA-262 Number::toString), so
 * JSON.parse, strtod, Python's float() and pandas all read it. With the digits d1...dk and the
 * point n places from the left (value = 0.d1...dk x 10^n):
 *   -6 < n <= 21: plain decimal, no exponent and no trailing zeros after the point:
 *                 "0", "14.81525", "1773285888698.7546", "0.000001", "100000000000000000000";
 *   otherwise:    d1[.d2...dk]e+X or e-X, no leading zeros in the exponent:
 *                 "1e-7", "1.5e+21", "5e-324", "1.7976931348623157e+308".
 * So plain decimal is used from 1e-6 (0.000001) up to below 1e21: every epoch or clock time
 * in milliseconds, and every duration down to a nanosecond, that the event table holds.
 *
 * Where JavaScript differs, so that every double reads back as itself: -0 is "-0" (JavaScript
 * writes "0"). Not-a-number is "nan" and the infinities are "inf" and "-inf", as printf's %g
 * writes them and strtod, Python and pandas read them; they are not JSON, and JSON writers
 * (rli_json_write_double) write null instead.
 *
 * No locale, no allocation, no global state: safe from any thread.
 */
size_t rli_format_double(char *buf, double value);

/*
 * The same text as rli_format_double, always computed with the arbitrary-precision path that
 * rli_format_double keeps for magnitudes outside about 2^-37..2^146. For tests, which compare
 * the two paths over the range where both work.
 */
size_t rli_format_double_bignum(char *buf, double value);

#endif

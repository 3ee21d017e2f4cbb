/* numfmt.h: numbers as people read them: thousands separators, durations and sizes in the unit they need, epoch times as UTC. */
#ifndef RLI_COMMON_NUMFMT_H
#define RLI_COMMON_NUMFMT_H

#include <stddef.h>

/*
 * Every function writes a NUL-terminated string into out (truncated to size)
 * and returns out, so a call can sit inside a printf's arguments. A value that
 * is not finite is written "n/a". Separators are ',' every three digits of the
 * integer part, whatever the locale: outputs must not change with it.
 */

/* value rounded to `decimals` (0..15) places: 1234567.891, 2 -> "1,234,567.89". */
char *rli_fmt_thousands(char *out, size_t size, double value, int decimals);

/* A time unit for an axis or a table: what a span in ms reads best in. */
typedef struct {
	const char *name;  /* "ms", "s", "min" */
	double ms;         /* milliseconds per unit: 1, 1000, 60000 */
} rli_time_unit;

/* ms below 10 s, s below 10 min, min from there: the unit a span (or a duration) reads best in. */
rli_time_unit rli_time_unit_for(double span_ms);

/* A size unit for an axis: what sizes up to max_mb read best in. */
typedef struct {
	const char *name;  /* "KB", "MB", "GB" */
	double mb;         /* MB per unit: 1/1024, 1, 1024 */
} rli_size_unit;

/* KB below 1 MB, MB below 10 GB, GB from there: the unit an axis up to max_mb reads best in. */
rli_size_unit rli_size_unit_for(double max_mb);

/*
 * The decimals that write |value| with `significant` significant digits (none
 * past the integer part's): 1234.5, 4 -> 0; 12.345, 4 -> 2; 0.012345, 3 -> 4.
 * At most 15; 0 for 0 and for a value that is not finite. For a column whose
 * every cell has the decimals its largest value needs.
 */
int rli_fmt_decimals(double value, int significant);

/*
 * A duration in ms below 1 s, s below 10 min, min from there, with its unit and three
 * significant digits at least:
 * 0.0123 -> "0.0123 ms", 12.34 -> "12.3 ms", 1234.5 -> "1.23 s", 754000 -> "12.6 min",
 * 7540000 -> "126 min"; thousands separated past that ("1,257 min").
 */
char *rli_fmt_duration(char *out, size_t size, double ms);

/*
 * A difference of durations with its sign, "+689 ms", "-2.49 s"; below half a nanosecond (rounding
 * between two medians, under any profiler's resolution) "0 ms".
 */
char *rli_fmt_duration_change(char *out, size_t size, double ms);

/* A relative change (0.2 = 20% more) as "+20.0%", "-5.7%", "0.0%" (never "-0.0%"); "—" when not finite. */
char *rli_fmt_change(char *out, size_t size, double ratio);

/* A size given in KiB, in binary units named as the profilers name them: "512 KB", "1.50 MB", "61.2 GB". */
char *rli_fmt_size_kb(char *out, size_t size, double kb);

/*
 * 1: ms looks like milliseconds since the Unix epoch (between 2000 and 2100),
 * so an origin can be told as a date; 0: a relative clock (a GPU's, a test's).
 */
int rli_is_epoch_ms(double ms);

/* An epoch time in ms as "2026-03-12 03:24:48.353 UTC" (millisecond rounded). */
char *rli_fmt_utc(char *out, size_t size, double epoch_ms);

#endif

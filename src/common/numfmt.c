/* numfmt.c: numbers as people read them: thousands separators, durations and sizes in the unit they need, epoch times as UTC. */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

char *rli_fmt_thousands(char *out, size_t size, double value, int decimals)
{
	char digits[400];
	size_t len, integer, at = 0;
	const char *p = digits;

	if (!size)
		return out;
	if (!isfinite(value)) {
		snprintf(out, size, "n/a");
		return out;
	}
	decimals = decimals < 0 ? 0 : decimals > 15 ? 15 : decimals;
	snprintf(digits, sizeof(digits), "%.*f", decimals, value);
	/* "-0.00" reads as a negative nothing: a value that rounds to zero is written unsigned. */
	if (digits[0] == '-' && strspn(digits + 1, "0.") == strlen(digits + 1))
		p++;
	if (*p == '-' && at + 1 < size)
		out[at++] = *p++;
	len = strlen(p);
	integer = strcspn(p, ".");
	for (size_t i = 0; i < len && at + 1 < size; i++) {
		if (i > 0 && i < integer && (integer - i) % 3 == 0) {
			out[at++] = ',';
			if (at + 1 >= size)
				break;
		}
		out[at++] = p[i];
	}
	out[at] = '\0';
	return out;
}

rli_time_unit rli_time_unit_for(double span_ms)
{
	double span = fabs(span_ms);
	if (span < 10e3 || !isfinite(span))
		return (rli_time_unit){ "ms", 1.0 };
	if (span < 600e3)
		return (rli_time_unit){ "s", 1e3 };
	return (rli_time_unit){ "min", 60e3 };
}

rli_size_unit rli_size_unit_for(double max_mb)
{
	double top = fabs(max_mb);
	if (top < 1.0 || !isfinite(top))
		return (rli_size_unit){ "KB", 1.0 / 1024.0 };
	if (top < 10240.0)
		return (rli_size_unit){ "MB", 1.0 };
	return (rli_size_unit){ "GB", 1024.0 };
}

int rli_fmt_decimals(double value, int significant)
{
	double v = fabs(value);
	int d;
	if (v == 0 || !isfinite(v))
		return 0;
	d = significant - 1 - (int)floor(log10(v));
	return d < 0 ? 0 : d > 15 ? 15 : d;
}

/* Decimals that give three significant digits to v (>= 0), none past 100. */
static int decimals_for(double v)
{
	return rli_fmt_decimals(v, 3);
}

/* value in its unit, three significant digits (more in the integer part), then the unit's name. */
static char *fmt_in_unit(char *out, size_t size, double value, const char *unit)
{
	char number[64];
	int decimals = decimals_for(fabs(value));
	/* Rounding can carry into the next decade (9.996 -> "10.00"): one decimal fewer then. */
	if (decimals > 0 && fabs(value) < 100) {
		double rounded = round(fabs(value) * pow(10, decimals)) / pow(10, decimals);
		if (decimals_for(rounded) < decimals)
			decimals = decimals_for(rounded);
	}
	rli_fmt_thousands(number, sizeof(number), value, decimals);
	snprintf(out, size, "%s %s", number, unit);
	return out;
}

char *rli_fmt_duration(char *out, size_t size, double ms)
{
	rli_time_unit unit;
	if (!isfinite(ms)) {
		snprintf(out, size, "n/a");
		return out;
	}
	unit = rli_time_unit_for(ms);
	/* One value alone changes to seconds at 1 s, not 10 s as an axis does: "1.23 s" reads better than "1,234 ms". */
	if (fabs(ms) >= 1e3 && fabs(ms) < 600e3)
		unit = (rli_time_unit){ "s", 1e3 };
	return fmt_in_unit(out, size, ms / unit.ms, unit.name);
}

char *rli_fmt_size_kb(char *out, size_t size, double kb)
{
	static const char *const units[] = { "KB", "MB", "GB", "TB", "PB" };
	size_t u = 0;
	double v = kb;
	if (!isfinite(kb)) {
		snprintf(out, size, "n/a");
		return out;
	}
	while (fabs(v) >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	return fmt_in_unit(out, size, v, units[u]);
}

int rli_is_epoch_ms(double ms)
{
	/* 2000-01-01 and 2100-01-01 in ms since the epoch */
	return isfinite(ms) && ms >= 946684800e3 && ms < 4102444800e3;
}

char *rli_fmt_utc(char *out, size_t size, double epoch_ms)
{
	double rounded = round(epoch_ms);
	time_t seconds;
	struct tm utc;
	char date[32];
	int millis;

	if (!isfinite(epoch_ms) || fabs(epoch_ms) > 1e17) {
		snprintf(out, size, "n/a");
		return out;
	}
	seconds = (time_t)floor(rounded / 1e3);
	millis = (int)(rounded - (double)seconds * 1e3);
	if (!gmtime_r(&seconds, &utc) || !strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &utc)) {
		snprintf(out, size, "n/a");
		return out;
	}
	snprintf(out, size, "%s.%03d UTC", date, millis);
	return out;
}

char *rli_fmt_change(char *out, size_t size, double ratio)
{
	double percent = 100 * ratio;
	if (!isfinite(percent))
		snprintf(out, size, "\xe2\x80\x94");
	else if (fabs(percent) < 0.05)
		snprintf(out, size, "0.0%%");
	else
		snprintf(out, size, "%+.1f%%", percent);
	return out;
}

char *rli_fmt_duration_change(char *out, size_t size, double ms)
{
	char text[48];
	if (!isfinite(ms)) {
		snprintf(out, size, "\xe2\x80\x94");
		return out;
	}
	if (fabs(ms) < 5e-7)
		ms = 0;
	rli_fmt_duration(text, sizeof(text), fabs(ms));
	snprintf(out, size, "%s%s", ms > 0 ? "+" : ms < 0 ? "-" : "", text);
	return out;
}

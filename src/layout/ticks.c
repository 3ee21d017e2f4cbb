/* ticks.c: "nice" axis ticks (1, 2, 5 x 10^k), plain or on a time axis in its unit, shared by every back-end and the HTML's port. */
#include "layout.h"
#include "common/numfmt.h"

#include <math.h>
#include <stdio.h>

/* The rule's step for [lo, hi] in about target steps, and the decimals its labels need. */
static double nice_step(double lo, double hi, int target, int *decimals)
{
	static const double steps[] = { 1.0, 2.0, 5.0, 10.0 };
	double raw = (hi - lo) / (target < 1 ? 1 : target), magnitude, step = 0.0;

	magnitude = pow(10.0, floor(log10(raw)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i] * magnitude;
		if (step >= raw * (1.0 - 1e-9))
			break;
	}
	*decimals = 0;
	if (step < 1.0) {
		*decimals = (int)ceil(-log10(step) - 1e-9);
		if (*decimals > 15)
			*decimals = 15;
	}
	return step;
}

/*
 * Ticks of [lo, hi] counted in units of unit_ms (1: the values themselves):
 * values in ms, labels in the unit, plain ("%.*f") or with thousands separators.
 */
static size_t ticks_in_unit(rli_tick *out, size_t max, double lo, double hi, int target, double unit_ms,
			    int separators)
{
	double step;
	long long first, last;
	int decimals;
	size_t count = 0;

	if (!max || !isfinite(lo) || !isfinite(hi) || hi < lo || !(unit_ms > 0))
		return 0;
	lo /= unit_ms;
	hi /= unit_ms;
	if (hi == lo) {
		out[0].value = lo * unit_ms;
		snprintf(out[0].label, sizeof(out[0].label), "%g", lo);
		return 1;
	}
	step = nice_step(lo, hi, target, &decimals);
	first = (long long)ceil(lo / step - 1e-9);
	last = (long long)floor(hi / step + 1e-9);
	for (long long i = first; i <= last && count < max; i++) {
		double value = (double)i * step;
		if (value == 0.0)
			value = 0.0; /* never print "-0" */
		out[count].value = value * unit_ms;
		if (separators)
			rli_fmt_thousands(out[count].label, sizeof(out[count].label), value, decimals);
		else
			snprintf(out[count].label, sizeof(out[count].label), "%.*f", decimals, value);
		count++;
	}
	return count;
}

size_t rli_nice_ticks(rli_tick *out, size_t max, double lo, double hi, int target)
{
	return ticks_in_unit(out, max, lo, hi, target, 1.0, 0);
}

size_t rli_time_ticks(rli_tick *out, size_t max, double lo, double hi, int target, double unit_ms)
{
	return ticks_in_unit(out, max, lo, hi, target, unit_ms, 1);
}

size_t rli_unit_ticks(rli_tick *out, size_t max, double lo, double hi, int target, double unit)
{
	return ticks_in_unit(out, max, lo, hi, target, unit, 1);
}

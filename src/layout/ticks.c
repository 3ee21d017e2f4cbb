/* ticks.c: "nice" axis ticks (1, 2, 5 x 10^k), shared by every back-end and the HTML's port. */
#include "layout.h"

#include <math.h>
#include <stdio.h>

size_t rli_nice_ticks(rli_tick *out, size_t max, double lo, double hi, int target)
{
	static const double steps[] = { 1.0, 2.0, 5.0, 10.0 };
	double raw, magnitude, step = 0.0;
	long long first, last;
	int decimals = 0;
	size_t count = 0;

	if (!max || !isfinite(lo) || !isfinite(hi) || hi < lo)
		return 0;
	if (target < 1)
		target = 1;
	if (hi == lo) {
		out[0].value = lo;
		snprintf(out[0].label, sizeof(out[0].label), "%g", lo);
		return 1;
	}
	raw = (hi - lo) / target;
	magnitude = pow(10.0, floor(log10(raw)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i] * magnitude;
		if (step >= raw * (1.0 - 1e-9))
			break;
	}
	if (step < 1.0) {
		decimals = (int)ceil(-log10(step) - 1e-9);
		if (decimals > 15)
			decimals = 15;
	}
	first = (long long)ceil(lo / step - 1e-9);
	last = (long long)floor(hi / step + 1e-9);
	for (long long i = first; i <= last && count < max; i++) {
		double value = (double)i * step;
		if (value == 0.0)
			value = 0.0; /* never print "-0" */
		out[count].value = value;
		snprintf(out[count].label, sizeof(out[count].label), "%.*f", decimals, value);
		count++;
	}
	return count;
}

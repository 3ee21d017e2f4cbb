/* common.c: errors, seeded randomness, paths and unit sizing shared by the synth writers. */
#include "synth.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static _Thread_local char last_error[1024];

const char *synth_error(void)
{
	return last_error;
}

int synth_fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return code;
}

/* splitmix64: small, fast, and every seed gives a full-period, well-mixed stream. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void synth_rng_init(synth_rng *rng, uint64_t seed, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t h = mix64(seed + UINT64_C(0x9e3779b97f4a7c15));
	h = mix64(h ^ (a + UINT64_C(0x632be59bd9b4e019)));
	h = mix64(h ^ (b + UINT64_C(0x85157af5)));
	h = mix64(h ^ (c + UINT64_C(0x2545f4914f6cdd1d)));
	h = mix64(h ^ (d + UINT64_C(0x1b873593)));
	rng->state = h;
}

uint64_t synth_rng_next(synth_rng *rng)
{
	rng->state += UINT64_C(0x9e3779b97f4a7c15);
	return mix64(rng->state);
}

double synth_rng_unit(synth_rng *rng)
{
	return (double)(synth_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

double synth_rng_range(synth_rng *rng, double low, double high)
{
	return low + (high - low) * synth_rng_unit(rng);
}

uint64_t synth_rng_below(synth_rng *rng, uint64_t bound)
{
	return bound ? synth_rng_next(rng) % bound : 0;
}

int synth_mkdir_p(const char *path)
{
	char *copy = strdup(path);
	int result = SYNTH_OK;

	if (!copy)
		return synth_fail(SYNTH_ERROR, "out of memory");
	for (char *p = copy + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(copy, 0777) < 0 && errno != EEXIST) {
			result = synth_fail(SYNTH_EOUTPUT, "cannot create directory %s: %s", copy,
					    strerror(errno));
			goto done;
		}
		*p = saved;
		if (saved == '\0')
			break;
	}
done:
	free(copy);
	return result;
}

char *synth_path(const char *fmt, ...)
{
	va_list ap;
	char *text;
	int length;

	va_start(ap, fmt);
	length = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (length < 0 || !(text = malloc((size_t)length + 1)))
		return NULL;
	va_start(ap, fmt);
	vsnprintf(text, (size_t)length + 1, fmt, ap);
	va_end(ap);
	return text;
}

/*
 * A unit's size is linear in its event count, so two sample sizes written to a
 * byte counter give the fixed part and the per-event part exactly enough.
 */
long long synth_events_per_unit(const synth_plan *plan, int unit_count, long long default_events,
				synth_unit_writer writer)
{
	const synth_options *options = plan->options;
	const long long small = 200, large = 1200;
	long long sizes[2];
	synth_unit unit;

	if (options->events_per_unit > 0)
		return options->events_per_unit;
	if (options->target_bytes <= 0 || unit_count <= 0)
		return default_events;
	synth_plan_unit(&unit, plan, 0, 0, 0);
	for (int i = 0; i < 2; i++) {
		synth_out counter;
		synth_out_open_counter(&counter);
		writer(&counter, NULL, plan, &unit, i ? large : small);
		sizes[i] = counter.written;
		synth_out_close(&counter);
	}
	double per_event = (double)(sizes[1] - sizes[0]) / (double)(large - small);
	double fixed = (double)sizes[0] - per_event * (double)small;
	double per_unit = (double)options->target_bytes / unit_count;
	long long events = per_event > 0 ? (long long)((per_unit - fixed) / per_event + 0.5) : 1;
	return events < 1 ? 1 : events;
}

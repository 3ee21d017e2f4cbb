/* test_paper.c: figures fit for a paper: the time axis in its unit, the origin as UTC, the legend, --style paper, the overview, stable colours. */
#include "harness.h"
#include "render_cases.h"
#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static rli_events *new_events(void)
{
	rli_events *events = NULL;
	if (rli_events_new(&events) < 0)
		exit(1);
	return events;
}

static rli_timeline *lay_out_with(const rli_events *events, const rli_timeline_options *options)
{
	rli_timeline *timeline = NULL;
	if (rli_timeline_layout(&timeline, events, options) < 0) {
		fprintf(stderr, "layout failed: %s\n", rli_error_last());
		exit(1);
	}
	return timeline;
}

static rli_timeline *lay_out(const rli_events *events)
{
	rli_timeline_options options;
	rli_timeline_options_init(&options);
	return lay_out_with(events, &options);
}

static void check_labels(const rli_tick *ticks, size_t n, const char *const *want, size_t want_n)
{
	CHECK_INT(n, want_n);
	for (size_t i = 0; i < n && i < want_n; i++)
		CHECK_STR(ticks[i].label, want[i]);
}

/* rli_time_ticks: the 1/2/5 rule on the range in the unit, labels separated, values in ms. */
static void test_time_ticks(void)
{
	static const char *const seconds[] = { "0", "2", "4", "6", "8", "10", "12", "14", "16" };
	static const char *const minutes[] = { "0", "10", "20", "30", "40" };
	static const char *const far_ms[] = { "1,000,000", "1,000,100", "1,000,200", "1,000,300",
					      "1,000,400", "1,000,500" };
	static const char *const tenths[] = { "1,000.0", "1,000.1", "1,000.2", "1,000.3", "1,000.4", "1,000.5" };
	rli_tick ticks[64];
	size_t n;

	/* 16.8 s in about 15 steps: 1.12 s -> 2 s; the 4th tick sits at 6,000 ms. */
	n = rli_time_ticks(ticks, 64, 0.0, 16800.0, 15, 1000.0);
	check_labels(ticks, n, seconds, 9);
	CHECK_NEAR(ticks[3].value, 6000.0, 0);
	/* 2,500,000 ms = 41.7 min in 5 steps: 8.3 -> 10 min, at 600,000 ms apart. */
	n = rli_time_ticks(ticks, 64, 0.0, 2.5e6, 5, 60e3);
	check_labels(ticks, n, minutes, 5);
	CHECK_NEAR(ticks[1].value, 600e3, 0);
	/* 500 ms far from zero, in ms: separators every three digits. */
	n = rli_time_ticks(ticks, 64, 1e6, 1.0005e6, 5, 1.0);
	check_labels(ticks, n, far_ms, 6);
	/* 0.5 s past 1,000 s counted in s: 0.1 s steps keep their decimal. */
	n = rli_time_ticks(ticks, 64, 1e6, 1.0005e6, 5, 1000.0);
	check_labels(ticks, n, tenths, 6);
	CHECK_NEAR(ticks[2].value, 1000200.0, 1e-6);
	CHECK_INT(rli_time_ticks(ticks, 64, 0.0, 1.0, 5, 0.0), 0);
}

/* The figure picks the unit for its span, names it in the axis title, and tells an epoch origin as UTC. */
static void test_axis_and_origin(void)
{
	static const char *const seconds[] = { "0", "2", "4", "6", "8", "10", "12", "14", "16" };
	rli_events *events = case_few_rows(), *relative = new_events(), *long_run = new_events();
	rli_timeline *t = lay_out(events);

	/* Bars end 16,000 ms after t0, the axis runs to 1.05 times that: seconds. */
	CHECK_STR(t->panel.x_title.text, "Time (s)");
	if (t->panel.xtick_target >= 9 && t->panel.xtick_target <= 16)
		check_labels(t->panel.xticks, t->panel.xtick_count, seconds, 9);
	else
		CHECK(!"the tick target moved out of the range this case was worked for");
	CHECK_STR(t->title.text, "RL Timeline (t = 0 at 2026-03-12 03:24:48.699 UTC)");
	rli_timeline_free(t);

	/* A relative clock (a GPU's) keeps the origin as a number; 900 ms reads in ms. */
	case_add(relative, "step", "actor", 0, 90.0, 900.0);
	t = lay_out(relative);
	CHECK_STR(t->title.text, "RL Timeline (Relative Time, Origin = 90.000 ms)");
	CHECK_STR(t->panel.x_title.text, "Time (ms)");
	rli_timeline_free(t);

	/* 20 minutes: the axis reads in minutes. */
	case_add(long_run, "step", "actor", 0, 0.0, 20 * 60e3);
	t = lay_out(long_run);
	CHECK_STR(t->panel.x_title.text, "Time (min)");
	CHECK_STR(t->panel.xticks[1].label, t->panel.xtick_target >= 5 ? "2" : "5");
	rli_timeline_free(t);

	rli_events_free(events);
	rli_events_free(relative);
	rli_events_free(long_run);
}

int main(void)
{
	test_time_ticks();
	test_axis_and_origin();
	TEST_DONE();
}

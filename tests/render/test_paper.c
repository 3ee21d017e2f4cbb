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

static rli_color color_of(const rli_timeline *t, const char *name)
{
	for (size_t s = 0; s < t->series_count; s++)
		if (strcmp(t->series[s].name, name) == 0)
			return t->series[s].color;
	CHECK(!"no such series");
	return 0;
}

/* A figure of one bar per role, named as its role (as MSTX and torch give). */
static rli_timeline *roles_figure(const char *const *roles, size_t count)
{
	rli_events *events = new_events();
	rli_timeline *t;
	for (size_t r = 0; r < count; r++)
		case_add(events, roles[r], roles[r], (int64_t)r, 100.0 * (double)r, 80.0);
	t = lay_out(events);
	rli_events_free(events);
	return t;
}

/*
 * Colours by FNV-1a of the name mod 20 (worked out by hand): actor_update 6,
 * critic_update 19, ref_compute_log_prob 9, rollout 10, update_actor 14;
 * "c" and "generate" both 18, "g" and "reward" both 2.
 */
static void test_stable_colours(void)
{
	static const char *const before[] = { "actor_update", "critic_update", "ref_compute_log_prob", "rollout" };
	/* actor_update renamed: it now sorts last, which moves every index but not a colour. */
	static const char *const after[] = { "critic_update", "ref_compute_log_prob", "rollout", "update_actor" };
	static const char *const clash[] = { "c", "g", "generate", "reward" };
	rli_timeline *a = roles_figure(before, 4), *b = roles_figure(after, 4), *c = roles_figure(clash, 4);

	CHECK_INT(color_of(a, "actor_update"), rli_palette_color(6));
	CHECK_INT(color_of(a, "critic_update"), rli_palette_color(19));
	CHECK_INT(color_of(a, "ref_compute_log_prob"), rli_palette_color(9));
	CHECK_INT(color_of(a, "rollout"), rli_palette_color(10));
	for (size_t i = 1; i < 4; i++)
		CHECK_INT(color_of(b, before[i]), color_of(a, before[i]));
	CHECK_INT(color_of(b, "update_actor"), rli_palette_color(14));
	CHECK_INT(rli_name_hash("a"), 0xe40c292cu); /* FNV-1a's published value for "a" */

	/* Collisions go in sorted order: the first name keeps the slot, the next takes the one after. */
	CHECK_INT(color_of(c, "c"), rli_palette_color(18));
	CHECK_INT(color_of(c, "generate"), rli_palette_color(19));
	CHECK_INT(color_of(c, "g"), rli_palette_color(2));
	CHECK_INT(color_of(c, "reward"), rli_palette_color(3));
	rli_timeline_free(a);
	rli_timeline_free(b);
	rli_timeline_free(c);
}

/* More names than colours: each colour is used once before any is used twice. */
static void test_palette_fills_before_repeating(void)
{
	const char *names[45];
	char storage[45][8];
	rli_color colors[45];
	size_t size = rli_palette_size();

	for (size_t i = 0; i < 45; i++) {
		snprintf(storage[i], sizeof(storage[i]), "n%02zu", i);
		names[i] = storage[i];
	}
	rli_palette_assign(colors, names, 45);
	for (size_t i = 0; i < size; i++)
		for (size_t j = i + 1; j < size; j++)
			CHECK(colors[i] != colors[j]);
	for (size_t i = size; i < 2 * size; i++)
		for (size_t j = i + 1; j < 2 * size; j++)
			CHECK(colors[i] != colors[j]);
}

int main(void)
{
	test_stable_colours();
	test_palette_fills_before_repeating();
	test_time_ticks();
	test_axis_and_origin();
	TEST_DONE();
}

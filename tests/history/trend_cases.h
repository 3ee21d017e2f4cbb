/* trend_cases.h: a hand-made series of nightly runs (a phase creeping up, a straggler on Tuesdays, a memory jump), shared by the trend tests. */
#ifndef RLI_TEST_TREND_CASES_H
#define RLI_TEST_TREND_CASES_H

#include "history/trend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREND_CASE_RUNS 14

static void trend_case_phase(rli_compare_side *s, const char *role, const char *name, double median, double spread)
{
	rli_side_phase *p = rli_side_add_phase(s);
	p->role = rli_side_text(s, role, strlen(role));
	p->name = rli_side_text(s, name, strlen(name));
	p->sample = (rli_side_sample){ 32, median * 32, median, median, median - spread, median + spread, median + 2 * spread };
}

static void trend_case_role(rli_compare_side *s, const char *role, int straggler, int64_t rank)
{
	rli_side_role *r = rli_side_add_role(s);
	r->role = rli_side_text(s, role, strlen(role));
	r->steps = 5;
	r->has_straggler = straggler;
	r->straggler_rank = rank;
}

static void trend_case_device(rli_compare_side *s, const char *role, int64_t rank, double peak_mb)
{
	rli_side_device *d = rli_side_add_device(s);
	d->role = rli_side_text(s, role, strlen(role));
	d->device_type = rli_side_text(s, "NPU", 3);
	d->rank = rank;
	d->peak_mb = peak_mb;
}

/*
 * Night k of TREND_CASE_RUNS: actor_update creeps up 2% a night and jumps 30% on the last; rollout
 * wanders; rank 13 straggles actor_update every third night; a device's peak jumps on night 9.
 * The same numbers every time: no random draw.
 */
static rli_compare_side *trend_case_side(int k)
{
	rli_compare_side *s = rli_side_new("/data/nightly/prof", "mstx", RLI_SIDE_PROFILE);
	double wobble = (double)((k * 7) % 5) - 2;
	double update = 14200 * pow(1.02, k) * (k == TREND_CASE_RUNS - 1 ? 1.3 : 1);
	s->has_timeline = s->has_memory = 1;
	trend_case_phase(s, "agent_loop_rollout_replica_0", "generate_sequences", 38000 + 600 * wobble, 2400);
	trend_case_phase(s, "actor_update", "update_actor", update, 600);
	trend_case_phase(s, "actor_update", "optimizer_step", 1800 + 40 * wobble, 90);
	trend_case_phase(s, "critic_compute_values", "compute_values", 2500 + 30 * wobble, 120);
	trend_case_role(s, "agent_loop_rollout_replica_0", k % 4 == 1, 5);
	trend_case_role(s, "actor_update", k % 3 == 0, 13);
	trend_case_role(s, "critic_compute_values", 0, 0);
	trend_case_device(s, "actor_update", 0, 52000 + 150 * wobble + (k >= 9 ? 6000 : 0));
	trend_case_device(s, "actor_update", 1, 51000 + 120 * wobble);
	trend_case_device(s, "critic_compute_values", 0, 23000 + 100 * wobble);
	rli_side_finish(s);
	return s;
}

static void trend_case_run(rli_history_run *run, int k, int current)
{
	char stamp[48];
	rli_history_run_init(run);
	run->id = current ? 0 : k + 1;
	snprintf(stamp, sizeof(stamp), "2026-11-%02dT02:00:00.000Z", (k + 1) % 31);
	run->captured_at = strdup(stamp);
	snprintf(stamp, sizeof(stamp), "2026-11-%02dT02:30:00.000Z", (k + 1) % 31);
	run->analysed_at = strdup(stamp);
	run->input = strdup("/data/nightly/prof");
	run->profiler = strdup("mstx");
	run->tool_version = strdup("0.1.0");
	run->family = strdup("");
	run->source = strdup("run");
}

/* The first TREND_CASE_RUNS - 1 nights as the history's series; the last as this run. */
static void trend_case_series(rli_history_series *series, rli_history_run *current, rli_compare_side **current_side)
{
	series->count = TREND_CASE_RUNS - 1;
	series->runs = calloc(series->count, sizeof(*series->runs));
	series->sides = calloc(series->count, sizeof(*series->sides));
	for (size_t k = 0; k < series->count; k++) {
		trend_case_run(&series->runs[k], (int)k, 0);
		series->sides[k] = trend_case_side((int)k);
	}
	trend_case_run(current, TREND_CASE_RUNS - 1, 1);
	*current_side = trend_case_side(TREND_CASE_RUNS - 1);
}

#endif

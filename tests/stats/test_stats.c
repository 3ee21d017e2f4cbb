/* test_stats.c: the run's statistics against values worked out by hand (the sums are in the comments). */
#include "harness.h"
#include "stats_rows.h"
#include "stats/stats.h"

#include <math.h>

static const rli_phase_stats *phase(const rli_stats *s, const char *role, const char *name)
{
	for (size_t i = 0; i < s->phase_count; i++)
		if (s->phases[i].role == id_of(s->events, role) && s->phases[i].name == id_of(s->events, name))
			return &s->phases[i];
	return NULL;
}

static const rli_step_stats *step(const rli_stats *s, const char *role, size_t k)
{
	for (size_t i = 0; i < s->step_count; i++)
		if (s->steps[i].role == id_of(s->events, role) && s->steps[i].step == k)
			return &s->steps[i];
	return NULL;
}

static const rli_transition_stats *transition(const rli_stats *s, const char *from, const char *to)
{
	for (size_t i = 0; i < s->transition_count; i++)
		if (s->transitions[i].from_role == id_of(s->events, from) && s->transitions[i].to_role == id_of(s->events, to))
			return &s->transitions[i];
	return NULL;
}

/* Four ranks of one phase, 10 20 20 40 ms; and ties at both ends. */
static void test_distribution(void)
{
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	const rli_phase_stats *p;
	CHECK_INT(rli_events_new(&ev), 0);
	add(ev, "actor", "update", 2, 0, 20);
	add(ev, "actor", "update", 0, 0, 10);
	add(ev, "actor", "update", 3, 0, 40);
	add(ev, "actor", "update", 1, 0, 20);
	add(ev, "ref", "log_prob", 2, 50, 5);
	add(ev, "ref", "log_prob", 1, 50, 9);
	add(ev, "ref", "log_prob", 0, 50, 9);
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK_INT(s->phase_count, 2);
	CHECK_INT(s->role_count, 2);
	CHECK_INT(s->rank_count, 4);
	CHECK_NEAR(s->start_ms, 0, 0);
	CHECK_NEAR(s->end_ms, 59, 0);
	/* sorted by role name: actor first */
	CHECK_INT(s->phases[0].role, id_of(ev, "actor"));
	p = phase(s, "actor", "update");
	CHECK(p != NULL);
	if (p) {
		CHECK_INT(p->duration.count, 4);
		CHECK_NEAR(p->duration.total, 90, 1e-12);
		CHECK_NEAR(p->duration.mean, 22.5, 1e-12);
		CHECK_NEAR(p->duration.median, 20, 1e-12);
		CHECK_NEAR(p->duration.min, 10, 0);
		CHECK_NEAR(p->duration.max, 40, 0);
		CHECK_INT(p->duration.min_rank, 0);
		CHECK_INT(p->duration.max_rank, 3);
		/* deviations -12.5 -2.5 -2.5 17.5: squares 475, / 3, sqrt */
		CHECK_NEAR(p->duration.stddev, sqrt(475.0 / 3), 1e-12);
		/* numpy: q1 at 0.75 between 10 and 20, q3 at 2.25 between 20 and 40 */
		CHECK_NEAR(p->duration.q1, 17.5, 1e-12);
		CHECK_NEAR(p->duration.q3, 25, 1e-12);
		CHECK_NEAR(p->duration.dispersion, 30 / 22.5, 1e-12);
	}
	p = phase(s, "ref", "log_prob");
	CHECK(p != NULL);
	if (p) {
		CHECK_INT(p->duration.min_rank, 2);
		CHECK_INT(p->duration.max_rank, 0); /* 9 ms on ranks 1 and 0: the lowest rank is named */
		CHECK_NEAR(p->duration.median, 9, 0);
	}
	rli_stats_free(s);
	rli_events_free(ev);
}

/* Eight ranks, three steps: rank 5 takes 150 ms where the rest take 98-102; it must be named. */
static void test_planted_straggler(void)
{
	static const double base[8] = { 100, 101, 99, 100, 102, 150, 98, 100 };
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	const rli_step_stats *st;
	const rli_rank_slowest *straggler;
	CHECK_INT(rli_events_new(&ev), 0);
	for (int k = 0; k < 3; k++)
		for (int r = 0; r < 8; r++)
			add(ev, "rollout", "rollout", r, 1000.0 * k + r, base[r]);
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK_INT(s->max_steps, 3);
	CHECK_INT(s->step_count, 3);
	st = step(s, "rollout", 2);
	CHECK(st != NULL);
	if (st) {
		CHECK_INT(st->ranks, 8);
		CHECK_INT(st->slowest_rank, 5);
		CHECK_NEAR(st->median_ms, 100, 0);       /* 98 99 100 100 | 100 101 102 150 */
		CHECK_NEAR(st->slowdown, 0.5, 1e-12);
		/* |x - 100|: 0 0 0 1 1 2 2 50, MAD 1: 0.6745 * 50 / 1 */
		CHECK_NEAR(st->modified_z, 0.6745 * 50, 1e-9);
		CHECK(st->outlier);
	}
	straggler = rli_stats_straggler(s, id_of(ev, "rollout"));
	CHECK(straggler != NULL);
	if (straggler) {
		CHECK_INT(straggler->rank, 5);
		CHECK_INT(straggler->slowest, 3);
		CHECK_INT(straggler->outlier, 3);
		CHECK_INT(straggler->steps, 3);
	}
	rli_stats_free(s);
	rli_events_free(ev);
}

/* The same ranks with ordinary spread (100..107 ms), a different rank slowest each step: nobody is named. */
static void test_no_straggler(void)
{
	static const int slowest[3] = { 7, 0, 3 };
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	CHECK_INT(rli_events_new(&ev), 0);
	for (int k = 0; k < 3; k++)
		for (int r = 0; r < 8; r++) /* the slowest rank gets 107, the others 100..106 in rank order */
			add(ev, "rollout", "rollout", r, 1000.0 * k,
			    r == slowest[k] ? 107 : 100 + (r - (r > slowest[k])));
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	for (size_t k = 1; k <= 3; k++) {
		const rli_step_stats *st = step(s, "rollout", k);
		CHECK(st != NULL);
		if (!st)
			continue;
		CHECK_INT(st->slowest_rank, slowest[k - 1]);
		/* 100..107: median 103.5, |x - m| 0.5 0.5 1.5 1.5 2.5 2.5 3.5 3.5, MAD 2: 0.6745 * 3.5 / 2 */
		CHECK_NEAR(st->modified_z, 0.6745 * 3.5 / 2, 1e-9);
		CHECK(!st->outlier);
	}
	CHECK(rli_stats_straggler(s, id_of(ev, "rollout")) == NULL);
	CHECK_INT(s->slowest_count, 3);
	rli_stats_free(s);
	rli_events_free(ev);
}

/* One rank, one role, one step: no spread to judge by, no outlier, no straggler. */
static void test_one_of_each(void)
{
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	CHECK_INT(rli_events_new(&ev), 0);
	add(ev, "actor", "actor", 0, 5, 7);
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK_INT(s->phase_count, 1);
	CHECK_NEAR(s->phases[0].duration.stddev, 0, 0);
	CHECK_NEAR(s->phases[0].duration.q1, 7, 0);
	CHECK_INT(s->step_count, 1);
	CHECK(isnan(s->steps[0].modified_z));
	CHECK(!s->steps[0].outlier);
	CHECK(rli_stats_straggler(s, id_of(ev, "actor")) == NULL);
	CHECK_INT(s->bubble_count, 1);
	CHECK_INT(s->bubbles[0].gaps, 0);
	CHECK_INT(s->transition_count, 0);
	CHECK_INT(s->overlap_count, 0);
	CHECK_INT(s->occupancy_count, 1);
	rli_stats_free(s);
	rli_events_free(ev);
}

/*
 * Bubbles, transitions, overlap and occupancy on three ranks:
 *   rank 0: A gen [0,10]  B train [15,20]  A gen [30,31]  B train [31,40]
 *   rank 1: A gen [0,10]  A gen [2,4] (inside)  C ctx [8,14]  A gen [12,13] (inside C)
 *   rank 2: A gen [5,5] (zero length)        rank 3: A gen at 50 lasting -1 ms (left out)
 */
static void test_bubbles_and_overlap(void)
{
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	const rli_transition_stats *t;
	const rli_role_occupancy *o;
	CHECK_INT(rli_events_new(&ev), 0);
	add(ev, "A", "gen", 0, 0, 10);
	add(ev, "A", "gen", 1, 0, 10);
	add(ev, "A", "gen", 1, 2, 2);
	add(ev, "A", "gen", 2, 5, 0);
	add(ev, "C", "ctx", 1, 8, 6);
	add(ev, "A", "gen", 1, 12, 1);
	add(ev, "B", "train", 0, 15, 5);
	add(ev, "A", "gen", 0, 30, 1);
	add(ev, "B", "train", 0, 31, 9);
	add(ev, "A", "gen", 3, 50, -1);
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK_INT(s->rows_counted, 9);
	CHECK_INT(s->rows_left_out, 1);
	CHECK_INT(s->rank_count, 3);
	CHECK_INT(s->role_count, 3);

	/* rank 0: gaps [10,15] gen -> train and [20,30] train -> gen, 15 ms idle, the longest first */
	CHECK_INT(s->bubble_count, 3);
	CHECK_INT(s->bubbles[0].rank, 0);
	CHECK_INT(s->bubbles[0].gaps, 2);
	CHECK_NEAR(s->bubbles[0].idle_ms, 15, 0);
	CHECK_INT(s->bubbles[0].longest_count, 2);
	CHECK_NEAR(s->bubbles[0].longest[0].start_ms, 20, 0);
	CHECK_NEAR(s->bubbles[0].longest[0].duration_ms, 10, 0);
	CHECK_INT(s->bubbles[0].longest[0].before, id_of(ev, "train"));
	CHECK_INT(s->bubbles[0].longest[0].after, id_of(ev, "gen"));
	CHECK_NEAR(s->bubbles[0].longest[1].duration_ms, 5, 0);
	/* rank 1 is busy from 0 to 14 without a break; rank 2 has one bar */
	CHECK_INT(s->bubbles[1].gaps, 0);
	CHECK_INT(s->bubbles[2].gaps, 0);

	/* A -> B waits 5 (10 to 15) and 0 (31 to 31); B -> A 10; A -> C and C -> A 0 (they overlap) */
	CHECK_INT(s->transition_count, 4);
	t = transition(s, "A", "B");
	CHECK(t != NULL);
	if (t) {
		CHECK_INT(t->wait.count, 2);
		CHECK_NEAR(t->wait.median, 2.5, 0);
		CHECK_NEAR(t->wait.max, 5, 0);
		CHECK_INT(t->wait.max_rank, 0);
	}
	t = transition(s, "B", "A");
	CHECK(t && t->wait.count == 1 && t->wait.total == 10);
	t = transition(s, "A", "C");
	CHECK(t && t->wait.count == 1 && t->wait.total == 0);
	t = transition(s, "C", "A");
	CHECK(t && t->wait.count == 1 && t->wait.total == 0);

	/* A's union [0,10] [12,13] [30,31]; B [15,20] [31,40]; C [8,14]: A&B 0 (touching), A&C 3, B&C 0 */
	CHECK_INT(s->overlap_count, 3);
	CHECK_INT(s->overlaps[0].role_a, id_of(ev, "A"));
	CHECK_INT(s->overlaps[0].role_b, id_of(ev, "B"));
	CHECK_NEAR(s->overlaps[0].overlap_ms, 0, 0);
	CHECK_INT(s->overlaps[1].role_b, id_of(ev, "C"));
	CHECK_NEAR(s->overlaps[1].overlap_ms, 3, 1e-12);
	CHECK_NEAR(s->overlaps[2].overlap_ms, 0, 0);

	/* A: ranks 0 and 1 from 0, rank 2's zero-length bar adds nothing, both leave at 10 ... */
	CHECK_INT(s->occupancy_count, 3);
	o = &s->occupancy[0];
	CHECK_INT(o->role, id_of(ev, "A"));
	CHECK_INT(o->count, 6);
	CHECK_INT(o->peak_ranks, 2);
	CHECK_NEAR(o->peak_ms, 0, 0);
	if (o->count == 6) {
		static const double t_ms[6] = { 0, 10, 12, 13, 30, 31 };
		static const uint32_t ranks[6] = { 2, 0, 1, 0, 1, 0 };
		for (size_t i = 0; i < 6; i++) {
			CHECK_NEAR(s->occupancy_points[o->first + i].t_ms, t_ms[i], 0);
			CHECK_INT(s->occupancy_points[o->first + i].ranks, ranks[i]);
		}
	}
	o = &s->occupancy[1];
	CHECK_INT(o->role, id_of(ev, "B"));
	CHECK_INT(o->count, 4);
	/* On a grid of 10 ms buckets over [0, 40]: A has 2 ranks in [0,10), 1 in [12,13), 0, then 1 at 30 */
	{
		uint32_t buckets[4];
		static const uint32_t want[4] = { 2, 1, 0, 1 };
		CHECK_INT(rli_stats_occupancy_buckets(buckets, 4, s, 0), 4);
		for (size_t b = 0; b < 4; b++)
			CHECK_INT(buckets[b], want[b]);
	}
	rli_stats_free(s);
	rli_events_free(ev);
}

/* An empty table: every list empty, nothing divided by zero. */
static void test_empty(void)
{
	rli_events *ev = NULL;
	rli_stats *s = NULL;
	CHECK_INT(rli_events_new(&ev), 0);
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->phase_count + s->step_count + s->bubble_count + s->transition_count, 0);
		CHECK_INT(s->overlap_count + s->occupancy_count + s->slowest_count, 0);
		CHECK_NEAR(s->start_ms, 0, 0);
	}
	rli_stats_free(s);
	rli_events_free(ev);
}

int main(void)
{
	test_distribution();
	test_planted_straggler();
	test_no_straggler();
	test_one_of_each();
	test_bubbles_and_overlap();
	test_empty();
	TEST_DONE();
}

/* test_findings.c: the report's headline sentences on planted cases: a straggler that must be named, runs where none may be. */
#include "harness.h"
#include "stats/findings.h"

#include <string.h>

static void add(rli_events *ev, const char *role, const char *name, int64_t rank, double start, double duration)
{
	rli_event_in row = { name, role, NULL, "1", 0, rank, start, duration };
	CHECK_INT(rli_events_append(ev, &row), 0);
}

static int has_line(const rli_findings *f, const char *text)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->lines[i], text) == 0)
			return 1;
	return 0;
}

static int mentions(const rli_findings *f, const char *text)
{
	for (size_t i = 0; i < f->count; i++)
		if (strstr(f->lines[i], text))
			return 1;
	return 0;
}

static void findings_of(rli_findings *f, rli_events *ev)
{
	rli_stats *s = NULL;
	CHECK_INT(rli_stats_compute(&s, ev), 0);
	CHECK_INT(rli_findings_timeline(f, s), 0);
	rli_stats_free(s);
}

/*
 * Five ranks, four steps of 1000 ms each. Rank 3 takes 150 ms in steps 1-3 where the others take
 * 100, 101, 99, 100: median 100, MAD 1, z = 0.6745 * 50 = 33.7 > 3.5, an outlier 50% over.
 * Step 4: 100 101 99 100 100, the slowest is rank 1, z = 1 / (1.253314 * 0.4) = 2.0, no outlier.
 * Rank 3 was the slowest and an outlier in 3 of 4 steps: more than half, the straggler.
 */
static void test_planted_straggler(void)
{
	static const double others[] = { 100, 101, 99, 0, 100 };
	rli_events *ev = NULL;
	rli_findings f = { 0 };
	CHECK_INT(rli_events_new(&ev), 0);
	for (int step = 0; step < 4; step++)
		for (int rank = 0; rank < 5; rank++)
			add(ev, "actor", "update", rank, step * 1000.0,
			    rank == 3 ? (step < 3 ? 150 : 100) : others[rank]);
	findings_of(&f, ev);
	CHECK(has_line(&f, "actor: rank 3 was the slowest in 3 of 4 steps, 50% over the median."));
	CHECK(f.count > f.headline && strstr(f.lines[f.headline], "rank 3 was the slowest") != NULL);
	rli_findings_free(&f);
	rli_events_free(ev);
}

/* Every rank alike: nobody is named, and the sentence says so. */
static void test_no_straggler(void)
{
	rli_events *ev = NULL;
	rli_findings f = { 0 };
	CHECK_INT(rli_events_new(&ev), 0);
	for (int step = 0; step < 2; step++)
		for (int rank = 0; rank < 4; rank++)
			add(ev, "rollout", "generate", rank, step * 500.0, 200);
	findings_of(&f, ev);
	CHECK(!mentions(&f, "was the slowest in"));
	CHECK(!mentions(&f, "outlier was"));
	CHECK(has_line(&f, "rollout: no rank stood out; the slowest stayed within 0.0% of the median in each of 2 steps."));
	rli_findings_free(&f);
	rli_events_free(ev);
}

/*
 * One outlier step among many, but no straggler: 4 ranks, 3 steps; rank 2 takes 300 ms in step 2
 * only (the others 100): median 100, MAD 0, MeanAD (0+0+0+200)/4 = 50, z = 200 / (1.253314 * 50)
 * = 3.19 -- not above 3.5. With 5 ranks at 100 and one at 300: MeanAD 200/6 = 33.3, z = 4.79, an
 * outlier; it is slowest in 1 of 3 steps, not a straggler: the worst outlier is named as such.
 */
static void test_outlier_without_straggler(void)
{
	rli_events *ev = NULL;
	rli_findings f = { 0 };
	CHECK_INT(rli_events_new(&ev), 0);
	for (int step = 0; step < 3; step++)
		for (int rank = 0; rank < 6; rank++)
			add(ev, "ref", "log_prob", rank, step * 1000.0, step == 1 && rank == 2 ? 300 : 100);
	findings_of(&f, ev);
	CHECK(!mentions(&f, "was the slowest in"));
	CHECK(has_line(&f, "ref: no straggler across steps; the worst outlier was rank 2 in step 2, 300 ms against a "
			   "median of 100 ms (200% over, modified z 4.8)."));
	rli_findings_free(&f);
	rli_events_free(ev);
}

/* Two ranks: too few to name an outlier, whatever the spread. */
static void test_too_few_ranks(void)
{
	rli_events *ev = NULL;
	rli_findings f = { 0 };
	CHECK_INT(rli_events_new(&ev), 0);
	add(ev, "critic", "update", 0, 0, 100);
	add(ev, "critic", "update", 1, 0, 300);
	findings_of(&f, ev);
	/* median of 100 and 300 is 200; the slower is 50% over it */
	CHECK(has_line(&f, "critic ran on two ranks only, too few to name an outlier; the slower was at most 50% over the "
			   "median."));
	rli_findings_free(&f);
	rli_events_free(ev);
}

/*
 * The idlest rank and the longest wait: rank 0 runs a (0-10) then b (30-40): one gap of 20 ms
 * between a and b; rank 1 runs a (0-10) then b (15-40): 5 ms. From a to b the waits are 20 and 5,
 * median 12.5 ms, max 20 on rank 0.
 */
static void test_waits_and_idle(void)
{
	rli_events *ev = NULL;
	rli_findings f = { 0 };
	CHECK_INT(rli_events_new(&ev), 0);
	add(ev, "a", "a", 0, 0, 10);
	add(ev, "a", "a", 1, 0, 10);
	add(ev, "b", "b", 1, 15, 25);
	add(ev, "b", "b", 0, 30, 10);
	findings_of(&f, ev);
	CHECK(has_line(&f, "From a to b, ranks waited 12.5 ms at the median, up to 20.0 ms (rank 0)."));
	CHECK(has_line(&f, "Rank 0 was idle longest: 20.0 ms in 1 gap, the longest 20.0 ms between a and b."));
	/* no straggler, no outlier: the longest wait is the headline */
	CHECK(f.count > f.headline && strncmp(f.lines[f.headline], "From a to b", 11) == 0);
	rli_findings_free(&f);
	rli_events_free(ev);
}

/* Roles of one rank each are said together, once: six of them, four named. */
static void test_one_rank_roles(void)
{
	static const char *const roles[] = { "a", "b", "c", "d", "e", "f" };
	rli_events *ev = NULL;
	rli_findings f = { 0 };
	CHECK_INT(rli_events_new(&ev), 0);
	for (size_t i = 0; i < 6; i++)
		add(ev, roles[i], roles[i], 0, (double)i * 10, 10);
	/* and three roles of two ranks each, said together: 10 and 12 ms, median 11, the slower 9.1% over */
	for (size_t i = 0; i < 3; i++) {
		add(ev, roles[i] == roles[0] ? "x" : i == 1 ? "y" : "z", "two", 0, 100, 10);
		add(ev, roles[i] == roles[0] ? "x" : i == 1 ? "y" : "z", "two", 1, 100, 12);
	}
	findings_of(&f, ev);
	CHECK(has_line(&f, "a, b, c, d and 2 more ran on one rank each: no ranks to compare."));
	CHECK(has_line(&f, "x, y and z ran on two ranks each, too few to name an outlier; the slower was at most 9.1% over "
			   "the median."));
	CHECK(!mentions(&f, "a: ") && !mentions(&f, "x: "));
	rli_findings_free(&f);
	rli_events_free(ev);
}

int main(void)
{
	test_planted_straggler();
	test_no_straggler();
	test_outlier_without_straggler();
	test_too_few_ranks();
	test_waits_and_idle();
	test_one_rank_roles();
	TEST_DONE();
}

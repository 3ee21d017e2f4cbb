/* test_memory_stats.c: the memory statistics against values worked out by hand on small tables (the sums are in the comments). */
#include "harness.h"
#include "layout/memory_pages.h"
#include "memory/memory_table.h"
#include "stats/findings.h"
#include "stats/memory_stats.h"

#include <string.h>

#define STACK_AB "a.py(1): f;\r\nb.py(2): g"
#define STACK_AC "a.py(1): f;\r\nc.py(3): h"
#define TOP_A "a.py(1): f"

typedef struct {
	const char *role;
	int64_t rank;
	const char *name;
	double size_kb, start_ms, duration_ms;
	int released;
	const char *stack, *top;
	rli_memory_match match;
	double gap_ms;
} row;

static uint32_t intern(rli_memory *m, const char *text)
{
	return rli_memory_intern(m, text, strlen(text));
}

static rli_memory *table(const row *rows, size_t count)
{
	rli_memory *m = NULL;
	CHECK_INT(rli_memory_new(&m), RLI_OK);
	for (size_t i = 0; i < count; i++) {
		const row *r = &rows[i];
		rli_memory_in in = { intern(m, r->name), intern(m, r->role), intern(m, "NPU:0"), intern(m, r->stack),
				     intern(m, r->top), r->rank, r->size_kb, r->start_ms, r->duration_ms, 0, 0, 0,
				     r->gap_ms, r->released, r->match, NAN, 0 };
		CHECK_INT(rli_memory_append(m, &in), RLI_OK);
	}
	return m;
}

static const rli_memory_site *site(const rli_memory_site *sites, size_t count, const char *text)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(sites[i].text, text) == 0)
			return &sites[i];
	return NULL;
}

/*
 * actor/0: A 1024 KB [1000, 1010), B 2048 KB [1010, 1020) allocated as A is
 * freed, C 2048 KB [1030, 1035), and a free row. Curve (KB): 0 -> 1024 at 0,
 * 2048 at 10 (1024 - 1024 + 2048, not 3072), 0 at 20, 2048 at 30 (a tie), 0
 * at 35: peak 2 MB first at 10 ms, only B live there.
 * actor/2: G 100 KB [1005, 1006). rollout/1: D 512 KB [100, 150), E 256 KB
 * at 120 never released, F 256 KB at 140 released after 0 ms: both live to
 * 150 and count as never freed; the curve 512, 768, 1024 KB at 0, 20, 40
 * ms: peak 1 MB at 40 ms (absolute 140), D, E, F live.
 */
static const row sample[] = {
	{ "rollout", 1, "d", 512, 100, 50, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
	{ "rollout", 1, "e", 256, 120, 0, 0, STACK_AB, TOP_A, RLI_MEMORY_INSIDE, 0 },
	{ "rollout", 1, "f", 256, 140, 0, 1, STACK_AB, TOP_A, RLI_MEMORY_AFTER_END, 2.5 },
	{ "actor", 0, "a", 1024, 1000, 10, 1, STACK_AB, TOP_A, RLI_MEMORY_INSIDE, 0 },
	{ "actor", 2, "g", 100, 1005, 1, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
	{ "actor", 0, "b", 2048, 1010, 10, 1, STACK_AC, TOP_A, RLI_MEMORY_AFTER_END, 0.5 },
	{ "actor", 0, "a", -1024, 1010, 0, 0, STACK_AB, TOP_A, RLI_MEMORY_AFTER_END, 9 }, /* a free: not counted */
	{ "actor", 0, "c", 2048, 1030, 5, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
};

static void test_actor0(const rli_memory_device_stats *d)
{
	const rli_memory_site *top, *unknown;
	CHECK_STR(d->role, "actor");
	CHECK_INT(d->rank, 0);
	CHECK_STR(d->device_type, "NPU:0");
	CHECK_INT(d->allocations, 3);
	CHECK_NEAR(d->allocated_kb, 5120, 1e-9);
	CHECK_NEAR(d->first_ms, 1000, 1e-9);
	CHECK_NEAR(d->last_ms, 1035, 1e-9);
	CHECK_NEAR(d->peak_mb, 2.0, 1e-12);
	CHECK_NEAR(d->peak_ms, 10, 1e-12);
	CHECK_NEAR(d->peak_abs_ms, 1010, 1e-9);
	CHECK_INT(d->live_at_peak, 1);
	CHECK_INT(d->top_live_count, 1);
	CHECK_STR(d->top_live[0].op_name, "b");
	CHECK_NEAR(d->top_live[0].size_kb, 2048, 0);
	CHECK_NEAR(d->top_live[0].start_ms, 10, 1e-12);
	CHECK_NEAR(d->top_live[0].duration_ms, 10, 1e-12);
	CHECK_INT(d->top_live[0].never_freed, 0);
	CHECK_STR(d->top_live[0].call_stack_top, TOP_A);
	CHECK_INT(d->top_live[0].row, 5);
	CHECK_INT(d->never_freed, 0);
	CHECK_NEAR(d->never_freed_kb, 0, 0);
	/* Sites: TOP_A 1024 + 2048 = 3072 KB in 2, "" 2048 KB in 1; at the peak TOP_A holds all 2048 KB. */
	CHECK_INT(d->site_count, 2);
	CHECK_STR(d->sites[0].text, TOP_A);
	CHECK_STR(d->sites[1].text, "");
	top = &d->sites[0];
	unknown = &d->sites[1];
	CHECK_INT(top->count, 2);
	CHECK_NEAR(top->allocated_kb, 3072, 0);
	CHECK_INT(top->live_count, 1);
	CHECK_NEAR(top->live_kb, 2048, 0);
	CHECK_NEAR(top->peak_share, 1.0, 1e-12);
	CHECK_INT(unknown->count, 1);
	CHECK_NEAR(unknown->allocated_kb, 2048, 0);
	CHECK_NEAR(unknown->live_kb, 0, 0);
	CHECK_NEAR(unknown->peak_share, 0, 0);
	CHECK_INT(d->sites_by_live_count, 1);
	CHECK_INT(d->sites_by_live[0], 0);
	/* Stacks by text: "", STACK_AB (A), STACK_AC (B, live). */
	CHECK_INT(d->stack_count, 3);
	CHECK_STR(d->stacks[0].text, "");
	CHECK_STR(d->stacks[1].text, STACK_AB);
	CHECK_STR(d->stacks[2].text, STACK_AC);
	CHECK_NEAR(d->stacks[1].allocated_kb, 1024, 0);
	CHECK_NEAR(d->stacks[1].live_kb, 0, 0);
	CHECK_NEAR(d->stacks[2].live_kb, 2048, 0);
	CHECK_INT(d->stacks[2].count, 1);
	/* Matches: A inside, B after its op's end (0.5 ms), C none; the free is no allocation. */
	CHECK_INT(d->matches.allocations, 3);
	CHECK_INT(d->matches.matched_inside, 1);
	CHECK_INT(d->matches.matched_after_end, 1);
	CHECK_INT(d->matches.unmatched, 1);
	CHECK_NEAR(d->matches.max_gap_ms, 0.5, 0);
}

static void test_rollout1(const rli_memory_device_stats *d)
{
	const rli_memory_site *top = site(d->sites, d->site_count, TOP_A), *unknown = site(d->sites, d->site_count, "");
	CHECK_STR(d->role, "rollout");
	CHECK_INT(d->rank, 1);
	CHECK_NEAR(d->first_ms, 100, 0);
	CHECK_NEAR(d->last_ms, 150, 0);
	CHECK_NEAR(d->peak_mb, 1.0, 1e-12);
	CHECK_NEAR(d->peak_ms, 40, 1e-12);
	CHECK_NEAR(d->peak_abs_ms, 140, 1e-12);
	CHECK_INT(d->never_freed, 2);
	CHECK_NEAR(d->never_freed_kb, 512, 0);
	/* Live: D (512, start 0), then the two of 256 KB, E (start 20) before F (start 40). */
	CHECK_INT(d->top_live_count, 3);
	CHECK_STR(d->top_live[0].op_name, "d");
	CHECK_STR(d->top_live[1].op_name, "e");
	CHECK_STR(d->top_live[2].op_name, "f");
	CHECK_NEAR(d->top_live[1].duration_ms, 30, 1e-12); /* never freed: to the device's last moment, 150 */
	CHECK_INT(d->top_live[1].never_freed, 1);
	CHECK_INT(d->top_live[2].never_freed, 1);
	CHECK_INT(d->top_live[0].never_freed, 0);
	/* Sites by bytes: "" 512 KB before TOP_A 512 KB? Equal bytes: the one with more allocations (TOP_A, 2) first. */
	CHECK_INT(d->site_count, 2);
	CHECK_STR(d->sites[0].text, TOP_A);
	CHECK(top && unknown);
	if (top && unknown) {
		CHECK_NEAR(top->peak_share, 0.5, 1e-12);
		CHECK_NEAR(unknown->peak_share, 0.5, 1e-12);
	}
	/* By live bytes: a tie of 512 KB, broken by text: "" first. */
	CHECK_INT(d->sites_by_live_count, 2);
	CHECK_STR(d->sites[d->sites_by_live[0]].text, "");
	CHECK_STR(d->sites[d->sites_by_live[1]].text, TOP_A);
	CHECK_INT(d->matches.allocations, 3);
	CHECK_INT(d->matches.matched_after_end, 1);
	CHECK_NEAR(d->matches.max_gap_ms, 2.5, 0);
}

static void test_several_devices(void)
{
	rli_memory *m = table(sample, sizeof(sample) / sizeof(sample[0]));
	rli_memory_stats *s = NULL;
	CHECK_INT(rli_memory_stats_compute(&s, m), RLI_OK);
	CHECK(s != NULL);
	if (s) {
		/* (role, rank) order: actor/0, actor/2, rollout/1. */
		CHECK_INT(s->device_count, 3);
		CHECK_INT(s->rows, 8);
		if (s->device_count == 3) {
			test_actor0(&s->devices[0]);
			CHECK_INT(s->devices[1].rank, 2);
			CHECK_NEAR(s->devices[1].peak_mb, 100.0 / 1024, 1e-15);
			CHECK_NEAR(s->devices[1].peak_ms, 0, 0);
			test_rollout1(&s->devices[2]);
		}
		/* The run: 7 allocations, inside 2 (A, E), after the end 2 (B 0.5, F 2.5), none 3 (C, D, G). */
		CHECK_INT(s->matches.allocations, 7);
		CHECK_INT(s->matches.matched_inside, 2);
		CHECK_INT(s->matches.matched_after_end, 2);
		CHECK_INT(s->matches.unmatched, 3);
		CHECK_NEAR(s->matches.max_gap_ms, 2.5, 0);
	}
	rli_memory_stats_free(s);
	rli_memory_free(m);
}

/* One device, the same op at the same moment twice: equal sizes and starts keep table order. */
static void test_one_device_ties(void)
{
	static const row rows[] = {
		{ "r", 0, "x", 10, 0, 0, 0, "", "", RLI_MEMORY_UNMATCHED, 0 },
		{ "r", 0, "y", 10, 0, 4, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
		{ "r", 0, "z", 30, 2, 2, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
	};
	rli_memory *m = table(rows, 3);
	rli_memory_stats *s = NULL;
	CHECK_INT(rli_memory_stats_compute(&s, m), RLI_OK);
	if (s && s->device_count == 1) {
		const rli_memory_device_stats *d = &s->devices[0];
		/* Ends: x never freed, to 4; y 4; z 4. Curve 20 KB at 0, 50 KB at 2, 0 at 4. */
		CHECK_NEAR(d->peak_mb, 50.0 / 1024, 1e-15);
		CHECK_NEAR(d->peak_ms, 2, 0);
		CHECK_INT(d->top_live_count, 3);
		CHECK_STR(d->top_live[0].op_name, "z");
		CHECK_STR(d->top_live[1].op_name, "x");
		CHECK_STR(d->top_live[2].op_name, "y");
		CHECK_INT(d->site_count, 1);
		CHECK_NEAR(d->sites[0].peak_share, 1.0, 1e-12);
		CHECK_INT(d->stack_count, 1);
	} else {
		CHECK(0);
	}
	rli_memory_stats_free(s);
	rli_memory_free(m);
}

/* No allocation: only a free, and an empty table: no device, nothing counted. */
static void test_zero_allocations(void)
{
	static const row rows[] = { { "r", 0, "x", -10, 0, 0, 0, "", "", RLI_MEMORY_UNMATCHED, 0 } };
	rli_memory *m = table(rows, 1), *empty = table(NULL, 0);
	rli_memory_stats *s = NULL;
	CHECK_INT(rli_memory_stats_compute(&s, m), RLI_OK);
	if (s) {
		CHECK_INT(s->device_count, 0);
		CHECK_INT(s->rows, 1);
		CHECK_INT(s->matches.allocations, 0);
	}
	rli_memory_stats_free(s);
	s = NULL;
	CHECK_INT(rli_memory_stats_compute(&s, empty), RLI_OK);
	if (s)
		CHECK_INT(s->device_count, 0);
	rli_memory_stats_free(s);
	rli_memory_free(m);
	rli_memory_free(empty);
}

/*
 * One rank's two CUDA devices (a PyTorch trace's): a device each, CUDA:0 before
 * CUDA:1, both marked as sharing the rank; the finding names the one with the
 * peak by its type. CUDA:0: 10 KB [0, 4); CUDA:1: 30 KB [1, 3), 20 KB [2, 5):
 * its peak 50 KB at 2 ms from its first allocation (1 ms). rank 1: one device, unnamed.
 */
static void test_device_types(void)
{
	static const row rows[] = {
		{ "r", 0, "x", 10, 0, 4, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
		{ "r", 0, "y", 30, 1, 2, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
		{ "r", 0, "z", 20, 2, 3, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
		{ "r", 1, "w", 1, 0, 1, 1, "", "", RLI_MEMORY_UNMATCHED, 0 },
	};
	rli_memory *m = table(rows, 4);
	rli_memory_stats *s = NULL;
	rli_findings f = { 0 };
	uint32_t cuda0 = intern(m, "CUDA:0"), cuda1 = intern(m, "CUDA:1");

	m->device_type[0] = cuda0;
	m->device_type[1] = m->device_type[2] = cuda1;
	CHECK_INT(rli_memory_stats_compute(&s, m), RLI_OK);
	if (s && s->device_count == 3) {
		CHECK_STR(s->devices[0].device_type, "CUDA:0");
		CHECK_STR(s->devices[1].device_type, "CUDA:1");
		CHECK_STR(s->devices[2].device_type, "NPU:0");
		CHECK(s->devices[0].shares_rank && s->devices[1].shares_rank && !s->devices[2].shares_rank);
		CHECK_INT(s->devices[0].allocations, 1);
		CHECK_NEAR(s->devices[1].peak_mb, 50.0 / 1024, 1e-15);
		CHECK_NEAR(s->devices[1].peak_ms, 1, 0);
		CHECK_INT(rli_findings_memory(&f, s), RLI_OK);
		CHECK(f.count >= 1);
		if (f.count)
			CHECK(strstr(f.lines[0], " on r rank 0 CUDA:1 at ") != NULL);
		rli_findings_free(&f);
	} else {
		CHECK(0);
	}
	rli_memory_stats_free(s);
	rli_memory_free(m);
}

/* Two device statistics the same in every field the curve gives them. */
static void check_same_device(const rli_memory_device_stats *a, const rli_memory_device_stats *b)
{
	CHECK(a->first_ms == b->first_ms && a->last_ms == b->last_ms);
	CHECK(a->peak_mb == b->peak_mb && a->peak_ms == b->peak_ms && a->peak_abs_ms == b->peak_abs_ms);
	CHECK_INT(a->never_freed, b->never_freed);
	CHECK(a->never_freed_kb == b->never_freed_kb);
	CHECK_INT(a->live_at_peak, b->live_at_peak);
	CHECK_INT(a->top_live_count, b->top_live_count);
	for (size_t i = 0; i < a->top_live_count && i < b->top_live_count; i++)
		CHECK_INT(a->top_live[i].row, b->top_live[i].row);
	CHECK_INT(a->site_count, b->site_count);
	for (size_t i = 0; i < a->site_count && i < b->site_count; i++)
		CHECK(a->sites[i].peak_share == b->sites[i].peak_share);
}

/*
 * The curves the pages' layout swept, handed to the statistics (the CLI's way), give what the
 * statistics' own sweep gives; and they are what is used: a summary doctored on its way in shows.
 */
static void test_known_summaries(void)
{
	rli_memory *m = table(sample, sizeof(sample) / sizeof(sample[0]));
	rli_memory_devices split = { 0 };
	rli_memory_pages *pages = NULL;
	rli_memory_stats *swept = NULL, *given = NULL, *doctored = NULL;
	rli_timeline_options options;
	const rli_memory_summary *known[8];
	rli_memory_summary copies[8], changed;

	rli_timeline_options_init(&options);
	CHECK_INT(rli_memory_devices_split(&split, m, 0), RLI_OK);
	CHECK_INT(rli_memory_pages_layout_lazy(&pages, m, &split, &options), RLI_OK);
	CHECK(split.count == 3 && pages != NULL);
	if (split.count == 3 && pages) {
		rli_memory_pages_summaries(pages, copies, known, split.count);
		CHECK(known[0] && known[1] && known[2]);
		CHECK_INT(rli_memory_stats_compute_split(&swept, m, &split, NULL), RLI_OK);
		CHECK_INT(rli_memory_stats_compute_split(&given, m, &split, known), RLI_OK);
		if (swept && given)
			for (size_t d = 0; d < 3; d++)
				check_same_device(&swept->devices[d], &given->devices[d]);
		changed = *known[2];
		changed.peak_mb *= 2;
		known[2] = &changed;
		known[0] = NULL; /* swept here */
		CHECK_INT(rli_memory_stats_compute_split(&doctored, m, &split, known), RLI_OK);
		if (swept && doctored) {
			CHECK(doctored->devices[2].peak_mb == 2 * swept->devices[2].peak_mb);
			CHECK(doctored->devices[0].peak_mb == swept->devices[0].peak_mb);
		}
	}
	rli_memory_stats_free(swept);
	rli_memory_stats_free(given);
	rli_memory_stats_free(doctored);
	rli_memory_pages_free(pages);
	rli_memory_devices_dispose(&split);
	rli_memory_free(m);
}

int main(void)
{
	test_known_summaries();
	test_device_types();
	test_several_devices();
	test_one_device_ties();
	test_zero_allocations();
	TEST_DONE();
}

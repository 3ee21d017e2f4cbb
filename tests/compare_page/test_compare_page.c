/* test_compare_page.c: compare.html's content on a hand-made comparison: the table's order, cells, sort keys and colours, a run without bars, the page's escaping, and the memory side. */
#include "harness.h"
#include "common/atomic_file.h"
#include "compare/compare.h"
#include "layout/compare_page.h"

#include <math.h>

#define REGRESSION 0xc62828
#define IMPROVEMENT 0x2e7d32
#define TEXT 0x2a3f5f

static rli_phase_change phase(const char *role, const char *name, int per_rank, int64_t rank, rli_presence presence,
			      double before, double after, rli_noise noise, rli_verdict verdict)
{
	rli_phase_change p = { .role = role, .name = name, .per_rank = per_rank, .rank = rank, .presence = presence,
			       .noise = noise, .verdict = verdict };
	if (presence != RLI_ADDED)
		p.baseline = (rli_side_sample){ .count = 4, .median_ms = before };
	if (presence != RLI_REMOVED)
		p.current = (rli_side_sample){ .count = 4, .median_ms = after };
	p.change_ms = presence == RLI_IN_BOTH ? after - before : 0;
	p.ratio = presence == RLI_IN_BOTH ? after / before - 1 : NAN;
	return p;
}

static void check_row(const rli_compare_row *row, const char *const cells[RLI_COMPARE_COLUMNS], rli_color color)
{
	for (int c = 0; c < RLI_COMPARE_COLUMNS; c++)
		CHECK_STR(row->cells[c], cells[c]);
	CHECK_INT(row->color, color);
}

/*
 * A comparison of memory records alone: no runs' panels, every device, and the call sites that
 * moved, the most grown first (a site the same in both runs is left out); names stay text.
 */
static void check_memory(const rli_compare_side *baseline, const rli_compare_side *current)
{
	rli_site_change sites[4] = {
		{ .text = "same.py(1): f", .baseline_allocated_kb = 100, .current_allocated_kb = 100, .baseline_live_kb = 5,
		  .current_live_kb = 5 },
		{ .text = "grew.py(2): g</script>", .baseline_allocated_kb = 100, .current_allocated_kb = 300,
		  .baseline_live_kb = 10, .current_live_kb = 10 },
		{ .text = "shrank.py(3): h", .baseline_allocated_kb = 500, .current_allocated_kb = 100 },
		{ .text = "live.py(4): k", .baseline_allocated_kb = 50, .current_allocated_kb = 40, .baseline_live_kb = 0,
		  .current_live_kb = 900 },
	};
	rli_device_change devices[2] = {
		{ .role = "actor", .rank = 0, .device_type = "NPU:0", .presence = RLI_IN_BOTH, .baseline_peak_mb = 10,
		  .current_peak_mb = 12, .first_site = 0, .site_count = 3, .sites_complete = 1 },
		{ .role = "actor", .rank = 1, .device_type = "NPU:1", .presence = RLI_ADDED, .current_peak_mb = 7,
		  .first_site = 3, .site_count = 1, .sites_complete = 1 },
	};
	rli_comparison comparison = { .baseline = baseline, .current = current, .memory = 1, .devices = devices,
				      .device_count = 2, .sites = sites, .site_count = 4 };
	rli_compare_page *page = NULL;
	rli_timeline_options options;

	rli_timeline_options_init(&options);
	CHECK_INT(rli_compare_page_layout(&page, &comparison, NULL, NULL, NULL, NULL, &options), RLI_OK);
	if (!page)
		return;
	CHECK(!page->runs[0].timeline && !page->runs[0].note && !page->runs[1].note);
	CHECK_INT(page->table->row_count, 0);
	CHECK(page->memory != NULL);
	if (page->memory) {
		const rli_compare_memory *m = page->memory;
		CHECK_INT(m->device_count, 2);
		CHECK_STR(m->devices[0].label, "actor rank 0 NPU:0");
		CHECK_STR(m->devices[1].label, "actor rank 1 NPU:1");
		CHECK_INT(m->site_count, 4);
		/* live.py grew 900 KB live, grew.py 200 KB allocated, shrank.py fell 400 KB (last of those that moved); same.py did not move */
		CHECK_INT(m->sites_listed, 3);
		CHECK(m->sites[0].site == &sites[3] && m->sites[0].device == 1);
		CHECK(m->sites[1].site == &sites[1] && m->sites[1].device == 0);
		CHECK(m->sites[2].site == &sites[2]);
		CHECK(m->sites[3].site == &sites[0]);
		CHECK_INT(m->complete, 1);
	}
	const char *dir = "compare_page_memory";
	CHECK_INT(rli_mkdir_p(dir), RLI_OK);
	CHECK_INT(rli_compare_page_write_html(page, NULL, dir, NULL), RLI_OK);
	char *html = test_read_file("compare_page_memory/compare.html", NULL);
	CHECK(html != NULL);
	if (html) {
		CHECK(strstr(html, "\"memory\":{\"devices\":[{\"label\":\"actor rank 0 NPU:0\",\"presence\":\"both\","
				   "\"peakMb\":[10,12]") != NULL);
		/* one run's device: null on the side that lacks it */
		CHECK(strstr(html, "\"presence\":\"added\",\"peakMb\":[null,7]") != NULL);
		CHECK(strstr(html, "grew.py(2): g</script>") == NULL);
		CHECK(strstr(html, "\"text\":\"same.py(1): f\"") == NULL);
		CHECK(strstr(html, "\"siteCount\":4,\"complete\":true") != NULL);
		CHECK(strstr(html, "id=\"rli-model-0\"") == NULL);
		/* written outside a run with a home page: no link to one */
		CHECK(strstr(html, "rli-run-nav\" aria-label") == NULL);
		free(html);
	}
	/* In a run with a home page, the page links back to it. */
	CHECK_INT(rli_compare_page_write_html(page, "index", dir, NULL), RLI_OK);
	html = test_read_file("compare_page_memory/compare.html", NULL);
	CHECK(html != NULL && strstr(html, "<a href=\"index.html\" title=\"Every output of this run\">Run home</a>") != NULL);
	free(html);
	rli_compare_page_free(page);
}

int main(void)
{
	rli_compare_side *baseline = rli_side_new("runs/</script><b>a", "summary", RLI_SIDE_SUMMARY);
	rli_compare_side *current = rli_side_new("runs/b", "mstx", RLI_SIDE_PROFILE);
	rli_phase_change phases[4], rank_phases[2];
	rli_comparison comparison = { .baseline = baseline, .current = current, .timeline = 1 };
	rli_compare_page *page = NULL;
	rli_timeline_options options;

	CHECK(baseline && current);
	if (!baseline || !current)
		return 1;
	phases[0] = phase("actor", "update", 0, 0, RLI_IN_BOTH, 100, 120, RLI_NOISE_BEYOND, RLI_VERDICT_REGRESSION);
	phases[1] = phase("actor", "gen", 0, 0, RLI_IN_BOTH, 50, 40, RLI_NOISE_BEYOND, RLI_VERDICT_IMPROVEMENT);
	phases[2] = phase("critic", "values", 0, 0, RLI_ADDED, 0, 30, RLI_NOISE_FEW, RLI_VERDICT_ONE_SIDE);
	phases[3] = phase("actor", "log_prob", 0, 0, RLI_IN_BOTH, 10, 10.5, RLI_NOISE_WITHIN, RLI_VERDICT_SAME);
	rank_phases[0] = phase("actor", "update", 1, 3, RLI_IN_BOTH, 100, 150, RLI_NOISE_BEYOND, RLI_VERDICT_REGRESSION);
	rank_phases[1] = phase("actor", "update", 1, 0, RLI_IN_BOTH, 100, 101, RLI_NOISE_WITHIN, RLI_VERDICT_SAME);
	comparison.phases = phases;
	comparison.phase_count = 4;
	comparison.rank_phases = rank_phases;
	comparison.rank_phase_count = 2;

	rli_timeline_options_init(&options);
	CHECK_INT(rli_compare_page_layout(&page, &comparison, NULL, NULL, NULL, NULL, &options), RLI_OK);
	if (!page)
		return 1;
	CHECK_STR(page->title, "Comparison: runs/b against runs/</script><b>a");
	CHECK_STR(page->runs[0].heading, "Baseline: runs/</script><b>a");
	CHECK_STR(page->runs[1].heading, "Current: runs/b");
	/* no events on either side: the summary's note, and the profile run's */
	CHECK(!page->runs[0].timeline && !page->runs[1].timeline);
	CHECK_STR(page->runs[0].note, "the baseline is a summary.json: statistics only, no bars to draw");
	CHECK_STR(page->runs[1].note, "this run has no timeline");

	const rli_compare_table *t = page->table;
	CHECK_INT(t->row_count, 6);
	CHECK_STR(t->header[3], "Baseline median");
	CHECK_INT(t->align[6], RLI_ALIGN_END);
	if (t->row_count == 6) {
		/* regressions, the larger ratio first (+50% on rank 3, +20% over all ranks) */
		check_row(&t->rows[0], (const char *const[]){ "actor", "update", "3", "100 ms", "150 ms", "+50.0 ms",
			  "+50.0%", "beyond noise", "regression" }, REGRESSION);
		check_row(&t->rows[1], (const char *const[]){ "actor", "update", "all", "100 ms", "120 ms", "+20.0 ms",
			  "+20.0%", "beyond noise", "regression" }, REGRESSION);
		check_row(&t->rows[2], (const char *const[]){ "actor", "gen", "all", "50.0 ms", "40.0 ms", "-10.0 ms",
			  "-20.0%", "beyond noise", "improvement" }, IMPROVEMENT);
		/* in the current run only: a dash wherever the baseline would be */
		check_row(&t->rows[3], (const char *const[]){ "critic", "values", "all", "\xe2\x80\x94", "30.0 ms",
			  "\xe2\x80\x94", "\xe2\x80\x94", "\xe2\x80\x94", "added" }, TEXT);
		/* the rest by role, phase, then every rank before each rank */
		CHECK_STR(t->rows[4].cells[1], "log_prob");
		CHECK_STR(t->rows[5].cells[1], "update");
		CHECK_STR(t->rows[5].cells[2], "0");
		CHECK(t->rows[0].change == &rank_phases[0]);
		/* the keys the page sorts by: numbers; unknown as NAN; "all" before rank 0 */
		CHECK_NEAR(t->rows[0].keys[2], 3, 0);
		CHECK_NEAR(t->rows[1].keys[2], -1, 0);
		CHECK_NEAR(t->rows[2].keys[5], -10, 1e-12);
		CHECK_NEAR(t->rows[2].keys[6], -0.2, 1e-12);
		CHECK(isnan(t->rows[3].keys[3]) && isnan(t->rows[3].keys[6]));
		CHECK_NEAR(t->rows[3].keys[4], 30, 0);
		CHECK(isnan(t->rows[0].keys[0]) && isnan(t->rows[0].keys[8]));
	}

	/* the page: names from the input never close the script element they sit in */
	const char *dir = "compare_page_out";
	char *html;
	CHECK_INT(rli_mkdir_p(dir), RLI_OK);
	CHECK_INT(rli_compare_page_write_html(page, NULL, dir, NULL), RLI_OK);
	html = test_read_file("compare_page_out/compare.html", NULL);
	CHECK(html != NULL);
	if (html) {
		CHECK(strstr(html, "id=\"rli-compare\"") != NULL);
		CHECK(strstr(html, "statistics only, no bars to draw") != NULL);
		CHECK(strstr(html, "runs/</script>") == NULL);
		CHECK(strstr(html, "runs/\\u003c/script\\u003e") != NULL);
		CHECK(strstr(html, "<title>Comparison: runs/b against runs/&lt;/script&gt;&lt;b&gt;a</title>") != NULL);
		/* no timeline to draw, so no model */
		CHECK(strstr(html, "id=\"rli-model-0\"") == NULL);
		free(html);
	}
	rli_compare_page_free(page);
	check_memory(baseline, current);
	rli_compare_side_free(baseline);
	rli_compare_side_free(current);
	return rli_test_failures ? 1 : 0;
}

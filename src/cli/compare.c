/* compare.c: --baseline: the comparison of the current run with the baseline, its verdict lines, and compare.png. */
#include "analyses.h"
#include "baseline.h"
#include "common/numfmt.h"
#include "layout/compare_figure.h"

#include <math.h>
#include <stdio.h>

/* "actor_update update_actor on rank 3: median 812 ms -> 975 ms (+20.0%), beyond noise (IQR 9.1 ms / 10.4 ms)" */
void cli_say_change(console *c, int verbosity, const char *what, const rli_phase_change *p)
{
	char before[32], after[32], iqr_before[32], iqr_after[32], change[32], rank[48] = "";
	if (p->per_rank)
		snprintf(rank, sizeof(rank), " on rank %lld", (long long)p->rank);
	rli_fmt_duration(before, sizeof(before), p->baseline.median_ms);
	rli_fmt_duration(after, sizeof(after), p->current.median_ms);
	rli_fmt_duration(iqr_before, sizeof(iqr_before), p->baseline.q3_ms - p->baseline.q1_ms);
	rli_fmt_duration(iqr_after, sizeof(iqr_after), p->current.q3_ms - p->current.q1_ms);
	cli_say(c, verbosity, what, "%s %s%s: median %s -> %s (%s), beyond noise (IQR %s / %s)", p->role, p->name,
		rank, before, after, rli_fmt_change(change, sizeof(change), p->ratio), iqr_before, iqr_after);
}

/* "compared with B: memory of 4 devices: the peak grew on 4, fell on 0 (the most +46.0 MB, actor rank 0 NPU:0)" */
static void say_memory_verdict(console *c, const cli_request *request, const rli_comparison *comparison)
{
	size_t grew = 0, fell = 0, both = 0;
	const rli_device_change *most = NULL;
	char size[256] = "";

	for (size_t i = 0; i < comparison->device_count; i++) {
		const rli_device_change *d = &comparison->devices[i];
		double change = d->current_peak_mb - d->baseline_peak_mb;
		if (d->presence != RLI_IN_BOTH)
			continue;
		both++;
		grew += change > 0;
		fell += change < 0;
		if (change > 0 && (!most || change > most->current_peak_mb - most->baseline_peak_mb))
			most = d;
	}
	if (most) {
		char change[32];
		snprintf(size, sizeof(size), " (the most +%s, %s rank %lld %s)",
			 rli_fmt_size_kb(change, sizeof(change), 1024 * (most->current_peak_mb - most->baseline_peak_mb)),
			 most->role, (long long)most->rank, most->device_type);
	}
	cli_say(c, 0, "", "compared with %s: memory of %zu device%s in both runs: the peak grew on %zu, fell on %zu%s",
		request->baseline, both, both == 1 ? "" : "s", grew, fell, size);
}

static void say_verdict(console *c, const cli_request *request, const rli_comparison *comparison)
{
	/* With --fail-on-regression the regressions are the run's verdict: said even under -q. */
	int loud = request->fail_on_regression ? -1 : 0;
	size_t within = 0, few = 0, one_side = 0;
	const rli_phase_change *lists[2] = { comparison->phases, comparison->rank_phases };
	size_t counts[2] = { comparison->phase_count, comparison->rank_phase_count };

	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < counts[l]; i++)
			if (lists[l][i].verdict == RLI_VERDICT_REGRESSION)
				cli_say_change(c, loud, "regression: ", &lists[l][i]);
	for (size_t i = 0; i < comparison->phase_count; i++) {
		within += comparison->phases[i].noise == RLI_NOISE_WITHIN;
		few += comparison->phases[i].noise == RLI_NOISE_FEW && comparison->phases[i].presence == RLI_IN_BOTH;
		one_side += comparison->phases[i].presence != RLI_IN_BOTH;
	}
	cli_say(c, 0, "", "compared with %s: %zu regression%s, %zu improvement%s; of %zu phases %zu within noise, "
		"%zu with too few samples, %zu in one run only", request->baseline, comparison->regressions,
		comparison->regressions == 1 ? "" : "s", comparison->improvements, comparison->improvements == 1 ? "" : "s",
		comparison->phase_count, within, few, one_side);
	for (size_t i = 0; i < comparison->phase_count; i++)
		if (comparison->phases[i].verdict == RLI_VERDICT_IMPROVEMENT)
			cli_say_change(c, 1, "improvement: ", &comparison->phases[i]);
}

/* compare.png: per phase the two runs' medians and spreads, drawn for a raster. */
int cli_draw_compare_png(cli_run *run)
{
	console *c = run->c;
	const cli_request *request = run->request;
	const rli_comparison *comparison = run->results->comparison;
	rli_timeline_options options = request->timeline;
	rli_compare_figure *figure = NULL;
	rli_render_options render;
	double t = cli_now_ms();
	int error;

	if (!run->set || !comparison || !comparison->timeline || !cli_wants(request, "png"))
		return RLI_OK;
	options.medium = RLI_MEDIUM_RASTER;
	if ((error = rli_compare_figure_layout(&figure, comparison, &options)) == RLI_OK)
		error = rli_render_with(rli_compare_figure_document(figure), "png", request->output_path, run->set,
					cli_render_options(&render, request));
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	else
		cli_say(c, 1, "", "timing: compare.png %.1f ms", cli_now_ms() - t);
	rli_compare_figure_free(figure);
	return error;
}

/* What a side has to compare, for the message when the two have nothing in common. */
static const char *side_holds(const rli_compare_side *side)
{
	if (side->has_timeline)
		return "a timeline";
	if (side->has_memory)
		return "memory records";
	return side->has_gmm ? "the expert load" : "nothing to compare";
}

int cli_run_compare(cli_run *run, cli_baseline *baseline)
{
	console *c = run->c;
	const cli_request *request = run->request;
	cli_results *results = run->results;
	rli_compare_options options;
	int result = cli_baseline_join(baseline), any = 0;

	if (result < 0 && result != RLI_EPARTIAL)
		return result;
	for (size_t i = 0; cli_analyses[i]; i++)
		any |= cli_analyses[i]->statistics(results) != NULL;
	if (!any) {
		cli_say(c, -1, "error: ", "nothing to compare: the run under %s gave no statistics", request->input_path);
		return RLI_EINVALID;
	}
	if ((result = cli_results_side(&results->current_side, results, request->input_path)) < 0) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		return result;
	}
	rli_compare_options_init(&options);
	options.threshold = request->fail_on_regression ? request->regression_threshold : 0;
	if ((result = rli_compare(&results->comparison, baseline->side, results->current_side, &options)) < 0) {
		cli_say(c, -1, "error: ", "%s", rli_error_last());
		return result;
	}
	if (!results->comparison->timeline && !results->comparison->memory && !results->comparison->gmm) {
		cli_say(c, -1, "error: ", "nothing to compare: %s holds %s, %s holds %s", request->baseline,
			side_holds(baseline->side), request->input_path, side_holds(results->current_side));
		return RLI_EINVALID;
	}
	/* The phases' verdict, where there are phases, else the devices'; the expert load says its own (gmm.c). */
	if (results->comparison->timeline)
		say_verdict(c, request, results->comparison);
	else if (results->comparison->memory)
		say_memory_verdict(c, request, results->comparison);
	return baseline->task.result;
}

/* history_trend.c: the trend's runs: loaded with their statistics, each judged against the runs before it, each linked to its outputs while they are still its own. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "trend.h"
#include "common/error.h"
#include "common/strutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a run's folder may hold, the page a reader wants first first. */
static const char *const output_files[] = { "rl_timeline.html", "rl_insight_report.pdf", "index.html",
					     "memory_timeline_01.html", "rl_timeline.png", "memory_timeline.png",
					     "summary.json" };

void rli_trend_options_init(rli_trend_options *options)
{
	*options = (rli_trend_options){ .max_runs = RLI_TREND_MAX_RUNS, .window = RLI_HISTORY_DEFAULT_WINDOW };
}

int rli_history_series_load(rli_history *h, const rli_history_filter *filter, rli_history_series *out)
{
	int error;
	*out = (rli_history_series){ 0 };
	if ((error = rli_history_runs(h, filter, &out->runs, &out->count)) < 0)
		return error;
	if (out->count && !(out->sides = calloc(out->count, sizeof(*out->sides)))) {
		rli_history_series_dispose(out);
		return rli_error_oom();
	}
	for (size_t i = 0; i < out->count; i++)
		if ((error = rli_history_side(h, &out->runs[i], &out->sides[i])) < 0) {
			rli_history_series_dispose(out);
			return error;
		}
	return RLI_OK;
}

void rli_history_series_dispose(rli_history_series *s)
{
	for (size_t i = 0; s->sides && i < s->count; i++)
		rli_compare_side_free(s->sides[i]);
	free(s->sides);
	rli_history_runs_free(s->runs, s->count);
	*s = (rli_history_series){ 0 };
}

/* target as a path relative to the folder base (both absolute, canonical); NULL when out of memory. */
static char *relative_path(const char *base, const char *target)
{
	size_t common = 0, ups = 0, length;
	const char *rest, *p;
	char *out, *w;
	/* The longest common prefix that ends at a component's end in both. */
	for (size_t i = 0;; i++) {
		int base_end = base[i] == '\0' || base[i] == '/', target_end = target[i] == '\0' || target[i] == '/';
		if (base_end && target_end)
			common = i;
		if (base[i] != target[i] || base[i] == '\0')
			break;
	}
	rest = target + common;
	while (*rest == '/')
		rest++;
	for (p = base + common; *p; p++)
		ups += *p == '/' && p[1] != '\0';
	length = 3 * ups + strlen(rest) + 1;
	if (!(out = malloc(length)))
		return NULL;
	w = out;
	for (size_t i = 0; i < ups; i++, w += 3)
		memcpy(w, "../", 3);
	strcpy(w, rest);
	return out;
}

/*
 * The run's outputs as a link from the trend's folder: the first page its folder holds, while
 * its summary.json is still the one it wrote (a later run into the same folder replaces them all).
 */
static int link_run(rli_trend_point *point, const char *base, const char *run_output)
{
	const rli_history_run *run = point->run;
	struct stat st;
	char *summary, *target = NULL;
	if (!run->output) {
		point->link_note = "its output folder was not recorded";
		return RLI_OK;
	}
	if (base && run_output && strcmp(base, run_output) == 0) {
		point->link_note = "its outputs are replaced by this run's";
		return RLI_OK;
	}
	if (!(summary = rli_path_join(run->output, "summary.json")))
		return rli_error_oom();
	if (stat(summary, &st) != 0) {
		point->link_note = "its outputs are gone";
	} else if (run->summary_bytes >= 0 &&
		   ((int64_t)st.st_size != run->summary_bytes ||
		    (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec != run->summary_mtime_ns)) {
		point->link_note = "its outputs were replaced by a later run's";
	}
	free(summary);
	if (point->link_note)
		return RLI_OK;
	for (size_t i = 0; i < sizeof(output_files) / sizeof(output_files[0]) && !target; i++) {
		char *file = rli_path_join(run->output, output_files[i]);
		if (!file)
			return rli_error_oom();
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode))
			target = file;
		else
			free(file);
	}
	if (!target) {
		point->link_note = "its outputs are gone";
		return RLI_OK;
	}
	point->link = base ? relative_path(base, target) : rli_strdup(target);
	free(target);
	return point->link ? RLI_OK : rli_error_oom();
}

/* Which of point's phases regressed against the runs before it (up to window of them). */
static int judge(rli_trend_point *point, rli_compare_side *const *before, size_t count, double threshold)
{
	rli_history_verdict *verdict = NULL;
	const rli_compare_side *side = point->side;
	int error;
	if (side->phase_count && (!(point->regressed = calloc(side->phase_count, 1)) ||
				  !(point->change = malloc(side->phase_count * sizeof(*point->change)))))
		return rli_error_oom();
	for (size_t i = 0; i < side->phase_count; i++)
		point->change[i] = NAN;
	if ((error = rli_history_compare(&verdict, before, count, side, threshold, "the runs before")) < 0 || !verdict)
		return error;
	point->judged = 1;
	/* The comparison's phases and the side's are both in (role, name) order. */
	for (size_t i = 0, k = 0; i < verdict->comparison->phase_count; i++) {
		const rli_phase_change *c = &verdict->comparison->phases[i];
		while (k < side->phase_count && (strcmp(side->phases[k].role, c->role) < 0 ||
						 (strcmp(side->phases[k].role, c->role) == 0 && strcmp(side->phases[k].name, c->name) < 0)))
			k++;
		if (k < side->phase_count && strcmp(side->phases[k].role, c->role) == 0 &&
		    strcmp(side->phases[k].name, c->name) == 0 && c->presence == RLI_IN_BOTH) {
			point->regressed[k] = c->verdict == RLI_VERDICT_REGRESSION;
			point->change[k] = c->ratio;
		}
	}
	rli_history_verdict_free(verdict);
	return RLI_OK;
}

int rli_trend_build(rli_trend **out, const rli_history_series *series, const rli_history_run *current_run,
		    const rli_compare_side *current_side, const char *history_path, const rli_trend_options *options_in)
{
	rli_trend_options options;
	rli_trend *t;
	rli_compare_side **all = NULL;
	char *base = NULL;
	size_t total, shown, first;
	int error = RLI_OK;

	*out = NULL;
	if (options_in)
		options = *options_in;
	else
		rli_trend_options_init(&options);
	if (!options.max_runs)
		options.max_runs = RLI_TREND_MAX_RUNS;
	if (!options.window)
		options.window = RLI_HISTORY_DEFAULT_WINDOW;
	total = series->count + (current_run ? 1 : 0);
	shown = total < options.max_runs ? total : options.max_runs;
	first = total - shown;
	if (!(t = calloc(1, sizeof(*t))))
		return rli_error_oom();
	t->history_path = history_path;
	t->window = options.window;
	t->threshold = options.threshold;
	t->current = current_run ? shown - 1 : SIZE_MAX;
	t->earlier = first;
	t->count = shown;
	if (total && (!(t->points = calloc(total, sizeof(*t->points))) || !(all = calloc(total, sizeof(*all))))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t i = 0; i < series->count; i++)
		all[i] = series->sides[i];
	if (current_run)
		all[total - 1] = (rli_compare_side *)current_side;
	if (options.out_dir)
		base = realpath(options.out_dir, NULL);
	for (size_t i = 0; i < shown && error == RLI_OK; i++) {
		size_t k = first + i, from = k > options.window ? k - options.window : 0;
		rli_trend_point *p = &t->points[i];
		p->run = k < series->count ? &series->runs[k] : current_run;
		p->side = all[k];
		error = judge(p, all + from, k - from, options.threshold);
		if (error < 0)
			break;
		if (k == total - 1 && current_run) {
			if (options.current_link && !(p->link = rli_strdup(options.current_link)))
				error = rli_error_oom();
		} else if (options.out_dir) {
			char *canonical = p->run->output ? realpath(p->run->output, NULL) : NULL;
			error = link_run(p, base, canonical ? canonical : p->run->output);
			free(canonical);
		}
	}
	if (shown) {
		t->input = t->points[shown - 1].run->input;
		t->family = t->points[shown - 1].run->family ? t->points[shown - 1].run->family : "";
	}
done:
	free(base);
	free(all);
	if (error < 0) {
		rli_trend_free(t);
		return error;
	}
	*out = t;
	return RLI_OK;
}

void rli_trend_free(rli_trend *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++) {
		free(t->points[i].regressed);
		free(t->points[i].change);
		free(t->points[i].link);
	}
	free(t->points);
	free(t);
}

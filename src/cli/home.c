/* home.c: the run's home page (index.html) from what the analyses left: facts, findings, and an entry for every file written. */
#include "analyses.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "layout/home_page.h"
#include "stats/findings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file of the set by its name: where it goes on the page and what it shows; NULL section: not listed (a page's support file). */
typedef struct {
	const char *section, *label, *description;
} file_entry;

static int ends_with(const char *text, const char *end)
{
	size_t a = strlen(text), b = strlen(end);
	return a >= b && strcmp(text + a - b, end) == 0;
}

static file_entry entry_for(const char *name)
{
	if (strcmp(name, "rl_timeline.html") == 0)
		return (file_entry){ "Timeline", "Timeline (interactive)", "Every role and rank's phases on one time axis: zoom, "
				     "filter, select a bar for its details, a row's memory pages" };
	if (strcmp(name, "rl_timeline.png") == 0)
		return (file_entry){ "Timeline", "Timeline picture (PNG)", "The same timeline as a picture" };
	if (strcmp(name, "rl_timeline.pdf") == 0)
		return (file_entry){ "Timeline", "Timeline figure (PDF)", "The timeline as a vector figure, for a paper" };
	if (strncmp(name, "memory_timeline", 15) == 0 && ends_with(name, ".png"))
		return (file_entry){ "Memory", name, "A device's memory curve, its Gantt and the blocks live at its peak, as a picture" };
	if (strcmp(name, "memory_timeline.pdf") == 0)
		return (file_entry){ "Memory", "Memory figures (PDF)", "Every device's memory figure, a page each" };
	if (strncmp(name, "memory_timeline", 15) == 0 || strncmp(name, "detail_data", 11) == 0 ||
	    strcmp(name, "memory_viewer.js") == 0 || strcmp(name, "index.html") == 0)
		return (file_entry){ NULL, NULL, NULL }; /* the devices' entries link the pages; the rest support them */
	if (strcmp(name, "gmm_heatmap.html") == 0)
		return (file_entry){ "Expert load", "Expert-load heatmap (interactive)", "Every MoE layer's tokens per expert, "
				     "a row per step, role and rank: hover, zoom, filters, an expert's profile" };
	if (strcmp(name, "gmm_heatmap.png") == 0)
		return (file_entry){ "Expert load", "Expert-load heatmap (PNG)", "The same heatmap as a picture" };
	if (strcmp(name, "gmm_heatmap.pdf") == 0)
		return (file_entry){ "Expert load", "Expert-load heatmap (PDF)", "The heatmap as a vector figure" };
	if (strncmp(name, "gmm_events.", 11) == 0)
		return (file_entry){ "Data", name, "The expert load as a table, one row an expert of a layer's call" };
	if (strcmp(name, "trend.html") == 0)
		return (file_entry){ "Run history", "Trend over the runs (interactive)", "Each phase's median over the "
				     "history's runs, the memory peaks and the stragglers, each run linked to its outputs" };
	if (strcmp(name, "trend.png") == 0)
		return (file_entry){ "Run history", "Trend picture (PNG)", "The same trend as a picture" };
	if (strcmp(name, "compare.html") == 0)
		return (file_entry){ "Comparison", "Comparison (interactive)", "Both runs' timelines on one axis and the phase "
				     "changes, regressions first" };
	if (strcmp(name, "compare.png") == 0)
		return (file_entry){ "Comparison", "Comparison picture (PNG)", "Each phase's median against the baseline's" };
	if (strcmp(name, "rl_insight_report.pdf") == 0)
		return (file_entry){ "Report", "Run report (PDF)", "The findings, the statistics tables, the timeline and memory, "
				     "to print or send" };
	if (strcmp(name, "summary.json") == 0)
		return (file_entry){ "Data", "summary.json", "Every statistic of the run, for scripts (doc/summary.schema.json)" };
	if (strncmp(name, "rl_events.", 10) == 0)
		return (file_entry){ "Data", name, "The timeline's bars as a table, one row a bar" };
	if (strncmp(name, "memory_events.", 14) == 0)
		return (file_entry){ "Data", name, "The memory records as a table, one row an allocation" };
	if (strncmp(name, "memory_reserved.", 16) == 0)
		return (file_entry){ "Data", name, "The allocator's reserved memory over time, per device" };
	return (file_entry){ "Data", name, "Written by this run" };
}

/* The run's memory devices: each a link to its peak's page, its peak and counts, and its other pages. */
static int add_devices(rli_home *home, const cli_results *results)
{
	for (size_t d = 0; d < results->run.device_count; d++) {
		const rli_run_device *device = &results->run.devices[d];
		rli_time_unit unit = rli_time_unit_for(device->peak_ms);
		char peak[48], at[48], count[32], never[32], *description, *file;
		size_t pages = 0;
		int error;

		if (!device->peak_page)
			continue;
		rli_fmt_size_kb(peak, sizeof(peak), device->peak_mb * 1024);
		rli_fmt_thousands(at, sizeof(at), device->peak_ms / unit.ms, 3);
		rli_fmt_thousands(count, sizeof(count), (double)device->allocations, 0);
		rli_fmt_thousands(never, sizeof(never), (double)device->never_freed, 0);
		for (size_t s = 0; s < device->segment_count; s++)
			pages += device->segment_pages[s] != NULL;
		description = rli_strfmt("Memory peak %s at %s %s; %s allocations, %s never freed; %zu page%s", peak, at,
					 unit.name, count, never, pages, pages == 1 ? "" : "s");
		file = rli_strfmt("%s.html", device->peak_page);
		error = description && file ? rli_home_add_output(home, "Memory", device->label, file, description)
					    : RLI_ERROR;
		free(description);
		free(file);
		if (error < 0)
			return error;
		for (size_t s = 0; pages > 1 && s < device->segment_count; s++) {
			char *label, *page;
			if (!device->segment_pages[s])
				continue;
			label = rli_strfmt("segment %zu", s + 1);
			page = rli_strfmt("%s.html", device->segment_pages[s]);
			error = label && page ? rli_home_add_link(home, label, page) : RLI_ERROR;
			free(label);
			free(page);
			if (error < 0)
				return error;
		}
	}
	return RLI_OK;
}

static int add_facts(rli_home *home, const cli_results *results, const char *profiler)
{
	char a[64], b[64], *text;
	int error;

	if ((error = rli_home_add_fact(home, "Profiler", profiler)) < 0)
		return error;
	if (results->stats) {
		const rli_stats *s = results->stats;
		text = rli_strfmt("%s ranks, %s roles, up to %zu steps a role", rli_fmt_thousands(a, sizeof(a),
				  (double)s->rank_count, 0), rli_fmt_thousands(b, sizeof(b), (double)s->role_count, 0),
				  s->max_steps);
		if (!text || (error = rli_home_add_fact(home, "Timeline", text)) < 0) {
			free(text);
			return text ? error : RLI_ERROR;
		}
		free(text);
		if ((error = rli_home_add_fact(home, "Time span", rli_fmt_duration(a, sizeof(a), s->end_ms - s->start_ms))) < 0)
			return error;
	}
	if (results->memory_stats && results->memory_stats->device_count) {
		text = rli_strfmt("%zu device%s", results->memory_stats->device_count,
				  results->memory_stats->device_count == 1 ? "" : "s");
		if (!text || (error = rli_home_add_fact(home, "Memory", text)) < 0) {
			free(text);
			return text ? error : RLI_ERROR;
		}
		free(text);
	}
	return rli_home_add_fact(home, "Tool", "rl-insight " RLI_VERSION);
}

/* The findings of every analysis, each one's headline first; the expert load's in its one line. */
static int add_findings(rli_home *home, const cli_results *results)
{
	rli_findings findings = { 0 };
	int error = RLI_OK;
	if (results->gmm_stats && results->gmm_stats->finding[0] &&
	    (error = rli_home_add_finding(home, results->gmm_stats->finding)) < 0)
		return error;
	for (int part = 0; part < 2 && error == RLI_OK; part++) {
		if (part == 0 && results->stats)
			error = rli_findings_timeline(&findings, results->stats);
		else if (part == 1 && results->memory_stats)
			error = rli_findings_memory(&findings, results->memory_stats);
		else
			continue;
		for (size_t k = 0; error == RLI_OK && k < findings.count; k++) {
			size_t i = k == 0 ? findings.headline : k <= findings.headline ? k - 1 : k;
			error = rli_home_add_finding(home, findings.lines[i]);
		}
		rli_findings_free(&findings);
		findings = (rli_findings){ 0 };
	}
	return error;
}

int cli_write_home(cli_run *run)
{
	console *c = run->c;
	const cli_request *request = run->request;
	const cli_results *results = run->results;
	rli_output_set *set = run->set;
	rli_home *home = NULL;
	const char *input = results->origin_path ? results->origin_path : request->input_path;
	/* as summary.json names it, so a run over its shards' tables writes the same page */
	const char *profiler = results->origin_profiler ? results->origin_profiler : cli_results_profiler(results);
	char origin[128], utc[64];
	int error;

	if (!set || !results->run.home)
		return RLI_OK;
	if (rli_is_epoch_ms(results->run.origin_ms))
		snprintf(origin, sizeof(origin), "t = 0 at %s, the run's first event",
			 rli_fmt_utc(utc, sizeof(utc), results->run.origin_ms));
	else if (isfinite(results->run.origin_ms))
		snprintf(origin, sizeof(origin), "t = 0 is the run's first event, at %.3f ms of the profiler's clock",
			 results->run.origin_ms);
	else
		origin[0] = '\0';
	if ((error = rli_home_new(&home, input)) < 0 || (error = rli_home_set_origin(home, origin)) < 0 ||
	    (error = add_findings(home, results)) < 0 || (error = add_devices(home, results)) < 0)
		goto done;
	/* Every other file of the set, the pages first, then in the order written. */
	for (int pages = 1; pages >= 0; pages--)
		for (size_t i = 0, count = rli_output_set_count(set); i < count && error == RLI_OK; i++) {
			const char *path = rli_output_set_path(set, i, NULL), *slash = strrchr(path, '/');
			const char *name = slash ? slash + 1 : path;
			file_entry entry = entry_for(name);
			if (entry.section && ends_with(name, ".html") == pages)
				error = rli_home_add_output(home, entry.section, entry.label, name, entry.description);
		}
	if (error == RLI_OK && (error = add_facts(home, results, profiler)) == RLI_OK)
		error = rli_home_write(home, request->output_path, set);
done:
	if (error < 0)
		cli_say(c, -1, "error: ", "%s", rli_error_last());
	rli_home_free(home);
	return error;
}

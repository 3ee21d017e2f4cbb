/* args.c: the command line, both styles (flags and key=value), mapped to one request. */
#include "args.h"
#include "config_file.h"
#include "history_args.h"
#include "common/error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

typedef int (*option_setter)(cli_request *request, const char *value, const char *spelled);

typedef struct {
	const char *flag;       /* "--input-path", or NULL */
	const char *config_key; /* "input.path", or NULL */
	const char *metavar;
	const char *help;
	option_setter set;
} option_spec;

static int parse_int(int *out, const char *value, const char *spelled, long min, long max)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < min || v > max)
		return rli_error_set(RLI_EUSAGE, "%s: '%s' is not a whole number from %ld to %ld",
				     spelled, value, min, max);
	*out = (int)v;
	return RLI_OK;
}

static int set_input_path(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a folder", spelled);
	r->input_path = value;
	return RLI_OK;
}

static int set_output_path(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a folder", spelled);
	r->output_path = value;
	return RLI_OK;
}

/*
 * Finds item (len bytes, any case) among the n names of an enumerated option;
 * otherwise says which names it takes.
 */
static int choose(size_t *index, const char *const *names, size_t n, const char *item, size_t len,
		  const char *spelled)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncasecmp(names[i], item, len) == 0) {
			*index = i;
			return RLI_OK;
		}
	rli_error_set(RLI_EUSAGE, "unknown %s %.*s (choose from ", spelled, (int)len, item);
	for (size_t i = 0; i < n; i++)
		rli_error_append("%s%s", i ? ", " : "", names[i]);
	rli_error_append(")");
	return RLI_EUSAGE;
}
#define CHOOSE(index, names, item, len, spelled) \
	choose(index, names, sizeof(names) / sizeof(names[0]), item, len, spelled)

/*
 * A timeline format names the timeline analysis; "memory" the memory analysis of Ascend records,
 * "torch_memory" that of PyTorch traces' [memory] events; "gmm" the MoE expert load of msprobe's
 * group_list.pt dumps; "table" the tables --export wrote, the analyses as the tables present
 * allow; "auto" whatever is there.
 */
static int set_profiler(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "mstx", "torch", "nvtx", "memory", "torch_memory", "gmm", "table", "auto" };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error < 0)
		return error;
	if (strcmp(names[i], "gmm") == 0) {
		r->analyses |= CLI_GMM;
		return RLI_OK;
	}
	if (strcmp(names[i], "memory") == 0 || strcmp(names[i], "torch_memory") == 0) {
		r->analyses |= CLI_MEMORY;
		r->memory_torch = names[i][0] == 't';
		return RLI_OK;
	}
	if (strcmp(names[i], "auto") != 0 && strcmp(names[i], "table") != 0)
		r->analyses |= CLI_TIMELINE;
	return rli_profiler_from_name(&r->profiler, names[i]);
}

/* memory.parser.type: the reference's one memory parser. */
static int set_memory_parser(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "memory" };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error == RLI_OK)
		r->analyses |= CLI_MEMORY;
	return error;
}

/*
 * --memory-device: whose [memory] events a torch_memory or auto run keeps: a kind, several
 * (cuda,cpu), "accelerators" (the default: CUDA, HIP and NPU) or all.
 */
static int set_memory_device(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "cuda", "hip", "npu", "cpu", "accelerators", "all" };
	static const unsigned devices[] = { RLI_MEMORY_DEVICE_CUDA, RLI_MEMORY_DEVICE_HIP, RLI_MEMORY_DEVICE_NPU,
					    RLI_MEMORY_DEVICE_CPU, RLI_MEMORY_DEVICE_ACCELERATORS, RLI_MEMORY_DEVICE_ALL };
	unsigned chosen = 0;
	const char *item = value;
	for (;;) {
		const char *comma = strchr(item, ',');
		size_t len = comma ? (size_t)(comma - item) : strlen(item), i;
		int error;
		if (len == 0)
			return rli_error_set(RLI_EUSAGE, "%s: an empty item in '%s' (a list is cuda,cpu)", spelled, value);
		if ((error = CHOOSE(&i, names, item, len, spelled)) < 0)
			return error;
		chosen |= devices[i];
		if (!comma)
			break;
		item = comma + 1;
	}
	r->memory_devices = chosen;
	return RLI_OK;
}

/* heatmap.parser.type: the reference's one GMM parser. */
static int set_heatmap_parser(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "gmm" };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error == RLI_OK)
		r->analyses |= CLI_GMM;
	return error;
}

/* heatmap.parser.step, --step: the steps whose dumps are read, in the rank list's grammar (checked by the parser). */
static int set_step_list(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a step, or a list such as 1,2 or 1-4", spelled);
	r->step_list = value;
	return RLI_OK;
}

/* heatmap.parser.role, --role: the role folders whose dumps are read (the reference's one, or a comma list). */
static int set_gmm_role_list(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a role, or a comma list of them", spelled);
	r->gmm_role_list = value;
	return RLI_OK;
}

/* memory.parser.role: declared and ignored by the reference; here it keeps those roles. */
static int set_role_list(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a role, or a comma list of them", spelled);
	r->role_list = value;
	return RLI_OK;
}

/* The legacy --input-type names the parser's input; it must agree with the parser. */
static int set_input_type(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "multi_json_mstx", "multi_json_torch", "multi_json_nvtx", "gmm_data" };
	static const rli_profiler profilers[] = { RLI_PROFILER_MSTX, RLI_PROFILER_TORCH, RLI_PROFILER_NVTX };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error < 0)
		return error;
	if (i == 3) {
		/* the GMM dumps' input type: it names the GMM analysis, as --profiler-type gmm does */
		if (r->profiler != RLI_PROFILER_AUTO)
			return rli_error_set(RLI_EUSAGE, "Input data type gmm_data does not match parser input type "
					     "multi_json_%s", rli_profiler_name(r->profiler));
		r->analyses |= CLI_GMM;
		return RLI_OK;
	}
	if (r->profiler != RLI_PROFILER_AUTO && r->profiler != profilers[i])
		return rli_error_set(RLI_EUSAGE, "Input data type %s does not match parser input type multi_json_%s",
				     names[i], rli_profiler_name(r->profiler));
	r->profiler = profilers[i];
	return RLI_OK;
}

/* Splits a comma list in place-free fashion: calls visit for each non-empty item. */
static int for_each_item(const char *list, const char *spelled, cli_request *r,
			 int (*visit)(cli_request *, const char *item, size_t len, const char *spelled))
{
	const char *p = list;
	int seen = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		if (len) {
			int error = visit(r, p, len, spelled);
			if (error < 0)
				return error;
			seen++;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!seen)
		return rli_error_set(RLI_EUSAGE, "%s needs at least one value", spelled);
	return RLI_OK;
}

static int add_vis(cli_request *r, const char *item, size_t len, const char *spelled)
{
	/*
	 * The outputs a run can ask for: pdf is the report; a figure alone as a
	 * vector file is timeline_pdf or memory_pdf; memory_html is the Python
	 * tool's name for the memory pages, which html writes.
	 */
	static const char *const known[] = { "png", "html", "pdf", "none", "memory_html", "memory_pdf",
					      "timeline_pdf", "gmm_heatmap", "gmm_pdf", "trend" };
	static const char *const output[] = { "png", "html", "pdf", NULL, "html", "memory_pdf", "timeline_pdf",
					      "gmm_heatmap", "gmm_pdf", "trend" };
	static const char *const backend[] = { "png", "html", "pdf", NULL, "html", "pdf", "pdf", "png", "pdf", "png" };
	size_t i;
	int error = CHOOSE(&i, known, item, len, spelled);
	if (error < 0)
		return error;
	if (!output[i])
		return RLI_OK;
	for (int k = 0; k < r->vis_count; k++)
		if (strcmp(r->vis_types[k], output[i]) == 0)
			return RLI_OK;
	if (!rli_backend_exists(backend[i]))
		return rli_error_set(RLI_EUSAGE, "this build of rl-insight cannot write %s", backend[i]);
	r->vis_types[r->vis_count++] = output[i];
	return RLI_OK;
}

int cli_wants(const cli_request *request, const char *output)
{
	for (int i = 0; i < request->vis_count; i++)
		if (strcmp(request->vis_types[i], output) == 0)
			return 1;
	return 0;
}

static int set_vis(cli_request *r, const char *value, const char *spelled)
{
	r->vis_count = 0; /* the last --vis-type wins, as with any other option */
	return for_each_item(value, spelled, r, add_vis);
}

static int add_export(cli_request *r, const char *item, size_t len, const char *spelled)
{
	static const char *const formats[] = { "csv", "jsonl" };
	size_t i;
	int error = CHOOSE(&i, formats, item, len, spelled);
	if (error < 0)
		return error;
	if (i == 0)
		r->export_csv = 1;
	else
		r->export_jsonl = 1;
	return RLI_OK;
}

static int set_export(cli_request *r, const char *value, const char *spelled)
{
	return for_each_item(value, spelled, r, add_export);
}

static int set_rank_list(cli_request *r, const char *value, const char *spelled)
{
	r->rank_list = value; /* checked by the parser, which knows the grammar */
	return RLI_OK;
}

static int set_pipeline(cli_request *r, const char *value, const char *spelled)
{
	static const char *const pipelines[] = { "OfflineInsightPipeline" };
	size_t i;
	return CHOOSE(&i, pipelines, value, strlen(value), spelled);
}

static int set_preset(cli_request *r, const char *value, const char *spelled)
{
	static const char *const presets[] = { "timeline", "memory", "heatmap" };
	size_t i;
	int error = CHOOSE(&i, presets, value, strlen(value), spelled);
	if (error < 0)
		return error;
	r->analyses |= i == 0 ? CLI_TIMELINE : i == 1 ? CLI_MEMORY : CLI_GMM;
	return RLI_OK;
}

/* heatmap.visualizer.type: the heatmap's outputs (gmm_heatmap, gmm_pdf); the key names the GMM analysis, as the reference's preset. */
static int set_heatmap_vis(cli_request *r, const char *value, const char *spelled)
{
	r->analyses |= CLI_GMM;
	return set_vis(r, value, spelled);
}

/* heatmap.visualizer.dpi, --dpi: the heatmap PNG's resolution. */
static int set_dpi(cli_request *r, const char *value, const char *spelled)
{
	return parse_int(&r->gmm_dpi, value, spelled, 1, 2400);
}

/* heatmap.visualizer.cmap, --cmap: one of the perceptually uniform maps. */
static int set_cmap(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "viridis", "magma", "inferno", "plasma", "cividis" };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	/* the same names, in the same order, as rli_colormap_from_name's */
	if (error == RLI_OK)
		error = rli_colormap_from_name(&r->gmm_cmap, names[i]);
	return error;
}

/* heatmap.visualizer.gmm_per_layer, --gmm-per-layer: how often a MoE layer's vector repeats in a forward pass. */
static int set_gmm_per_layer(cli_request *r, const char *value, const char *spelled)
{
	return parse_int(&r->gmm_per_layer, value, spelled, -1000000, 1000000);
}

static int set_width(cli_request *r, const char *value, const char *spelled)
{
	return parse_int(&r->timeline.width, value, spelled, RLI_TIMELINE_MIN_WIDTH, RLI_TIMELINE_MAX_WIDTH);
}

static int set_scale(cli_request *r, const char *value, const char *spelled)
{
	return parse_int(&r->timeline.scale, value, spelled, 1, RLI_TIMELINE_MAX_SCALE);
}

static int set_page_size(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "a4", "letter", "a3" };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error == RLI_OK)
		error = rli_paper_from_name(&r->report.paper, names[i]);
	return error;
}

static int set_orientation(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "landscape", "portrait" };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error == RLI_OK)
		r->report.portrait = i == 1;
	return error;
}

/* now, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[Z] (UTC), written into the PDF as YYYY-MM-DDTHH:MM:SSZ. */
static int set_pdf_date(cli_request *r, const char *value, const char *spelled)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, used = 0, ok;

	if (strcasecmp(value, "now") == 0) {
		time_t now = time(NULL);
		struct tm utc;
		if (!gmtime_r(&now, &utc) || !strftime(r->pdf_date, sizeof(r->pdf_date), "%Y-%m-%dT%H:%M:%SZ", &utc))
			return rli_error_set(RLI_EUSAGE, "%s: the clock cannot be read", spelled);
		r->report.date = r->pdf_date;
		return RLI_OK;
	}
	ok = sscanf(value, "%4d-%2d-%2d%n", &y, &mo, &d, &used) == 3 && used == 10;
	if (ok && value[used] == 'T') {
		int more = 0;
		ok = sscanf(value + used, "T%2d:%2d:%2d%n", &h, &mi, &sec, &more) == 3 && more == 9;
		used += more;
		if (ok && value[used] == 'Z')
			used++;
	}
	ok = ok && !value[used] && y >= 1970 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 &&
	     sec <= 60 && h >= 0 && mi >= 0 && sec >= 0;
	if (!ok)
		return rli_error_set(RLI_EUSAGE, "%s: '%s' is not a date (now, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)",
				     spelled, value);
	snprintf(r->pdf_date, sizeof(r->pdf_date), "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, sec);
	r->report.date = r->pdf_date;
	return RLI_OK;
}

static int set_jobs(cli_request *r, const char *value, const char *spelled)
{
	int jobs = 0;
	int error = parse_int(&jobs, value, spelled, 1, 4096);
	if (error == RLI_OK)
		r->jobs = r->timeline.threads = (unsigned)jobs;
	return error;
}

/* K/N as Slurm numbers array tasks: K from 0 to N-1. */
static int set_shard(cli_request *r, const char *value, const char *spelled)
{
	char *slash, *end;
	unsigned long k, n;
	errno = 0;
	k = strtoul(value, &slash, 10);
	if (!errno && slash != value && *slash == '/' && slash[1] >= '0' && slash[1] <= '9') {
		n = strtoul(slash + 1, &end, 10);
		if (!errno && !*end && value[0] >= '0' && value[0] <= '9' && n >= 1 && n <= 1000000 && k < n) {
			r->shard_index = (unsigned)k;
			r->shard_count = (unsigned)n;
			return RLI_OK;
		}
	}
	return rli_error_set(RLI_EUSAGE, "%s: '%s' is not a shard K/N (N from 1 to 1000000, K from 0 to N-1, as "
				       "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)", spelled, value);
}

static int set_merge(cli_request *r, const char *value, const char *spelled)
{
	char *end;
	double ms = strtod(value, &end);
	if (end == value || *end || !(ms >= 0) || ms > 1e9)
		return rli_error_set(RLI_EUSAGE, "%s: '%s' is not a duration in ms", spelled, value);
	r->timeline.merge_short_ms = ms;
	return RLI_OK;
}

static int set_baseline(cli_request *r, const char *value, const char *spelled)
{
	if (!*value)
		return rli_error_set(RLI_EUSAGE, "%s needs a profile folder, a folder of exported tables or a summary.json",
				     spelled);
	r->baseline = value;
	return RLI_OK;
}

/* A percentage, "5%" or "5": a phase slower than this (and beyond the noise) fails the run. */
static int set_fail_on_regression(cli_request *r, const char *value, const char *spelled)
{
	char *end;
	double percent = strtod(value, &end);
	if (end != value && *end == '%')
		end++;
	if (end == value || *end || !(percent >= 0) || percent > 1e6)
		return rli_error_set(RLI_EUSAGE, "%s: '%s' is not a percentage such as 5%%", spelled, value);
	r->fail_on_regression = 1;
	r->regression_threshold = percent / 100;
	return RLI_OK;
}

static int set_style(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "default", "paper", "paper-wide" };
	static const rli_timeline_style styles[] = { RLI_STYLE_DEFAULT, RLI_STYLE_PAPER, RLI_STYLE_PAPER_WIDE };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error == RLI_OK)
		r->timeline.style = styles[i];
	return error;
}

/*
 * timeline.visualizer.all_rows=true|false: the key for --all-rows. YAML 1.1, which OmegaConf
 * reads, also spells a boolean yes/no and on/off.
 */
static int set_all_rows(cli_request *r, const char *value, const char *spelled)
{
	static const char *const names[] = { "false", "true", "no", "yes", "off", "on" };
	size_t i;
	int error = CHOOSE(&i, names, value, strlen(value), spelled);
	if (error == RLI_OK)
		r->timeline.overview = !(i % 2);
	return error;
}

static const option_spec options[] = {
	{ "--input-path", "input.path", "PATH", "root folder of the profiling data (required)", set_input_path },
	{ "--output-path", "output.path", "PATH", "folder for the outputs, created if missing (default: output)", set_output_path },
	{ "--profiler-type", "timeline.parser.type", "TYPE", "mstx, torch, nvtx, memory (Ascend), torch_memory (PyTorch [memory] events), gmm (msprobe's group_list.pt dumps: the MoE expert load), table (rl_events, memory_events and gmm_events tables --export wrote: a file, or a folder searched for them), or auto: every analysis the input holds (default)", set_profiler },
	{ "--memory-device", NULL, "DEVICE", "PyTorch [memory] events (torch_memory, auto): cuda, hip, npu, cpu, accelerators (default: CUDA, HIP and NPU), all, or a comma list such as cuda,cpu", set_memory_device },
	{ "--vis-type", "timeline.visualizer.type", "LIST", "outputs, comma-separated: png, html, pdf (the report), timeline_pdf, memory_pdf, gmm_heatmap, gmm_pdf (a figure alone), trend (trend.png and trend.html, with --history), none (default: html)", set_vis },
	{ "--rank-list", "input.rank_list", "RANKS", "all, or ranks such as 0,2,4-7 (default: all)", set_rank_list },
	{ "--step", "heatmap.parser.step", "STEPS", "gmm: read the dumps of these training steps only, such as 1,2 or 1-4 (default: all)", set_step_list },
	{ "--role", "heatmap.parser.role", "ROLE", "gmm: read the dumps of this role folder only, or of a comma list of them (default: all)", set_gmm_role_list },
	{ "--shard", "input.shard", "K/N", "parse only shard K of N (K from 0): the input units whose paths hash to K; merge the shards' --export tables with --profiler-type table", set_shard },
	{ "--export", NULL, "FORMATS", "also write the parsed table: csv, jsonl (rl_events.csv, rl_events.jsonl; memory_events.*, gmm_events.* for those analyses)", set_export },
	{ "--baseline", "compare.baseline", "PATH", "compare with this run: a profile folder, a folder of tables from --export, or its summary.json", set_baseline },
	{ "--fail-on-regression", "compare.fail_on_regression", "PCT", "with --baseline, or --history alone against the median of the last runs: exit 6 when a phase's median got slower by more than PCT (e.g. 5%) and beyond the noise", set_fail_on_regression },
	{ "--history", "history.path", "FILE", "append this run to the run history FILE (SQLite, created when missing); with --vis-type trend draw trend.png and trend.html from it", cli_set_history },
	{ "--run-label", "history.run_label", "LABEL", "this run's label in the history, such as a commit; the text before a ':' is its family (fp8:3f2a9c1), compared with its own", cli_set_run_label },
	{ "--history-window", "history.window", "N", "with --history: the runs before this one it is compared with (default: 7, 3 to 256)", cli_set_history_window },
	{ "--merge-short-ms", NULL, "MS", "merge chains of bars of at most MS ms, 2 ms apart (default: off)", set_merge },
	{ "--width", "timeline.visualizer.width", "PX", "page width in CSS pixels, 300 to 20000 (default: 2000)", set_width },
	{ "--scale", "timeline.visualizer.scale", "N", "device pixels per CSS pixel in the PNG (default: 2)", set_scale },
	{ "--page-size", NULL, "SIZE", "the report's pages: a4, letter or a3 (default: a4)", set_page_size },
	{ "--orientation", NULL, "WAY", "the report's pages: landscape or portrait (default: landscape)", set_orientation },
	{ "--pdf-date", NULL, "DATE", "date in the PDFs' metadata: now, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (default: SOURCE_DATE_EPOCH, else the capture's start, so the same input gives the same bytes)", set_pdf_date },
	{ "--style", "timeline.visualizer.style", "STYLE", "default, paper (a 3.5 in journal column at 300 dpi) or paper-wide (7 in), PNG and PDF alike", set_style },
	{ NULL, "timeline.visualizer.all_rows", NULL, NULL, set_all_rows },
	{ "--jobs", NULL, "N", "parse N input units at once; 1: do all the work on one thread (default: number of CPUs)", set_jobs },
	{ "--input-type", NULL, "TYPE", "legacy: multi_json_mstx|torch|nvtx or gmm_data, must agree with the parser", set_input_type },
	{ "--pipeline-type", "pipeline.type", "NAME", "legacy: OfflineInsightPipeline, the only pipeline", set_pipeline },
	{ NULL, "preset", "NAME", "timeline, memory or heatmap", set_preset },
	{ NULL, "memory.parser.type", NULL, NULL, set_memory_parser },
	{ NULL, "memory.parser.role", NULL, NULL, set_role_list },
	{ NULL, "memory.visualizer.type", NULL, NULL, set_vis },
	{ NULL, "heatmap.parser.type", NULL, NULL, set_heatmap_parser },
	{ NULL, "heatmap.visualizer.type", NULL, NULL, set_heatmap_vis },
	{ "--dpi", "heatmap.visualizer.dpi", "N", "gmm: the heatmap PNG's resolution, 1 to 2400 (default: 200)", set_dpi },
	{ "--cmap", "heatmap.visualizer.cmap", "NAME", "gmm: the heatmap's colours: viridis (default), magma, inferno, plasma or cividis", set_cmap },
	{ "--gmm-per-layer", "heatmap.visualizer.gmm_per_layer", "N", "gmm: a MoE layer's grouped matmuls a forward pass; a vector repeated more often starts actor_update's backward pass, which is left out (default: 3)", set_gmm_per_layer },
};
#define OPTION_COUNT (sizeof(options) / sizeof(options[0]))

static const option_spec *find_flag(const char *flag, size_t len)
{
	for (size_t i = 0; i < OPTION_COUNT; i++)
		if (options[i].flag && strlen(options[i].flag) == len &&
		    strncmp(options[i].flag, flag, len) == 0)
			return &options[i];
	return NULL;
}

static const option_spec *find_key(const char *key, size_t len)
{
	for (size_t i = 0; i < OPTION_COUNT; i++)
		if (options[i].config_key && strlen(options[i].config_key) == len &&
		    strncmp(options[i].config_key, key, len) == 0)
			return &options[i];
	return NULL;
}

typedef struct {
	cli_request *request;
	const char *path;
	int explicit_vis;
} config_context;

/* The keys whose values are comma lists, so a YAML list of values can give them. */
static int takes_list(const option_spec *spec)
{
	return spec->set == set_vis || spec->set == set_heatmap_vis || spec->set == set_rank_list || spec->set == set_role_list ||
	       spec->set == set_step_list || spec->set == set_gmm_role_list;
}

/* Applies one key of a config_path file; the value must outlive the file's buffer. */
static int apply_config_key(void *ctx, const char *key, const char *value, int line, int list)
{
	config_context *c = ctx;
	cli_request *r = c->request;
	const option_spec *spec = find_key(key, strlen(key));
	char *copy, **owned;
	int error;

	if (!spec)
		return rli_error_set(RLI_EUSAGE, "%s:%d: Key '%s' is not in the configuration", c->path,
				     line, key);
	if (list && !takes_list(spec))
		return rli_error_set(RLI_EUSAGE, "%s:%d: %s takes one value, not a list", c->path, line, key);
	owned = realloc(r->owned, (r->owned_count + 1) * sizeof(*owned));
	if (!owned)
		return rli_error_oom();
	r->owned = owned;
	if (!(copy = strdup(value)))
		return rli_error_oom();
	r->owned[r->owned_count++] = copy;
	if ((error = spec->set(r, copy, spec->config_key)) < 0)
		return rli_error_prefix(error, "%s:%d: ", c->path, line);
	c->explicit_vis |= spec->set == set_vis || spec->set == set_heatmap_vis;
	return RLI_OK;
}

void cli_request_dispose(cli_request *r)
{
	for (size_t i = 0; i < r->owned_count; i++)
		free(r->owned[i]);
	free(r->owned);
	r->owned = NULL;
	r->owned_count = 0;
}

static int parse_switch(cli_request *r, const char *arg)
{
	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
		r->action = CLI_HELP;
	else if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0)
		r->action = r->action == CLI_HELP ? CLI_HELP : CLI_VERSION;
	else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0)
		r->verbosity = -1;
	else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0)
		r->verbosity = r->verbosity < 0 ? 1 : r->verbosity + 1;
	else if (strcmp(arg, "-vv") == 0)
		r->verbosity = 2;
	else if (strcmp(arg, "--all-rows") == 0)
		r->timeline.overview = 0;
	else if (strcmp(arg, "--caption") == 0)
		r->timeline.caption = 1;
	else if (strcmp(arg, "--no-wait") == 0)
		r->no_wait = 1;
	else
		return 0;
	return 1;
}

void cli_request_init(cli_request *r)
{
	memset(r, 0, sizeof(*r));
	r->output_path = "output";
	r->rank_list = "all";
	r->profiler = RLI_PROFILER_AUTO;
	r->memory_devices = RLI_MEMORY_DEVICE_ACCELERATORS;
	rli_timeline_options_init(&r->timeline);
	rli_report_options_init(&r->report);
	/* The PNG and the PDF show the overview past the readable rows unless --all-rows. */
	r->timeline.overview = 1;
	r->gmm_dpi = 200;
	r->gmm_per_layer = RLI_GMM_PER_LAYER_DEFAULT;
}

int cli_apply_config_text(cli_request *r, const char *path, const char *text, size_t length)
{
	config_context ctx = { r, path, 0 };
	return config_text_read(path, text, length, apply_config_key, &ctx);
}

int cli_parse_args(cli_request *r, int argc, char **argv)
{
	int explicit_vis = 0;

	cli_request_init(r);

	/* --help anywhere wins, as in the reference, even next to bad arguments. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			r->action = CLI_HELP;
			return RLI_OK;
		}

	/* A config file is merged first, so the command line's keys override it (as OmegaConf does). */
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "config_path=", 12) == 0) {
			config_context ctx = { r, argv[i] + 12, 0 };
			int error = config_file_read(ctx.path, apply_config_key, &ctx);
			if (error < 0)
				return error;
			explicit_vis |= ctx.explicit_vis;
		}
	}

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const option_spec *spec;
		const char *value;
		int error;

		if (parse_switch(r, arg))
			continue;
		if (strncmp(arg, "--", 2) == 0) {
			const char *eq = strchr(arg, '=');
			size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
			spec = find_flag(arg, len);
			if (!spec)
				return rli_error_set(RLI_EUSAGE, "unknown option '%.*s' (see --help)", (int)len, arg);
			if (eq) {
				value = eq + 1;
			} else if (i + 1 < argc) {
				value = argv[++i];
			} else {
				return rli_error_set(RLI_EUSAGE, "%s needs a value", spec->flag);
			}
			if ((error = spec->set(r, value, spec->flag)) < 0)
				return error;
			explicit_vis |= spec->set == set_vis || spec->set == set_heatmap_vis;
		} else if (arg[0] != '-' && strchr(arg, '=')) {
			const char *eq = strchr(arg, '=');
			spec = find_key(arg, (size_t)(eq - arg));
			if (strncmp(arg, "config_path=", 12) == 0)
				continue;
			if (!spec) {
				return rli_error_set(RLI_EUSAGE, "Key '%.*s' is not in the configuration (see --help)",
						     (int)(eq - arg), arg);
			}
			if ((error = spec->set(r, eq + 1, spec->config_key)) < 0)
				return error;
			explicit_vis |= spec->set == set_vis || spec->set == set_heatmap_vis;
		} else {
			return rli_error_set(RLI_EUSAGE, "unexpected argument '%s' (see --help)", arg);
		}
	}

	if (r->action != CLI_RUN)
		return RLI_OK;
	if (!r->input_path)
		return rli_error_set(RLI_EUSAGE, "Missing mandatory value: input.path (give --input-path PATH)");
	/* An export-only run draws nothing unless asked; otherwise the reference's default, HTML. */
	if (r->fail_on_regression && !r->baseline && !r->history_path)
		return rli_error_set(RLI_EUSAGE, "--fail-on-regression needs --baseline, the run to compare with, or "
				     "--history, the runs before this one");
	if (cli_history_check_request(r) < 0)
		return RLI_EUSAGE;
	if (r->shard_count > 1 && r->baseline)
		return rli_error_set(RLI_EUSAGE, "--shard parses part of the input: compare the run merged from every "
				     "shard's tables with --baseline instead");
	/* The heatmap alone: the reference's default figure, gmm_heatmap.png; otherwise HTML. */
	if (!explicit_vis && !r->export_csv && !r->export_jsonl)
		r->vis_types[r->vis_count++] = r->analyses == CLI_GMM ? "gmm_heatmap" : "html";
	return RLI_OK;
}

void cli_print_help(FILE *fp)
{
	fputs("Usage: rl-insight [OPTIONS] [key=value ...]\n"
	      "       rl-insight history FILE [list | show ID | delete ID | import SUMMARY...] (see history --help)\n"
	      "\n"
	      "RL Insight: where the time of a reinforcement-learning run went, per rank and phase.\n"
	      "Reads Ascend MSTX, PyTorch profiler and Nsight NVTX profiles and draws the RL\n"
	      "timeline as rl_timeline.png, rl_timeline.html and rl_timeline.pdf; from Ascend memory\n"
	      "records (operator_memory.csv) the memory figure as memory_timeline.png and .pdf, and\n"
	      "the interactive memory pages (html): memory_timeline_NN.html with detail_data_NN.js.\n"
	      "With only --input-path it detects the format and writes output/rl_timeline.html.\n"
	      "\n"
	      "Options (each also written --option=VALUE; the key=value form is in brackets):\n",
	      fp);
	for (size_t i = 0; i < OPTION_COUNT; i++) {
		const option_spec *o = &options[i];
		char left[64];
		if (!o->help || !o->flag)
			continue;
		snprintf(left, sizeof(left), "%s %s", o->flag, o->metavar);
		fprintf(fp, "  %-24s %s", left, o->help);
		if (o->config_key)
			fprintf(fp, " [%s]", o->config_key);
		putc('\n', fp);
	}
	fputs("      --all-rows           draw every row: without it, a figure with more rows than its page\n"
	      "                           shows readably (each row a label tall) shows each role's occupancy\n"
	      "                           and the outlier ranks instead [timeline.visualizer.all_rows=true]\n"
	      "      --caption            put the run's headline finding under the PNG and the figure PDF\n"
	      "      --no-wait            when another run is writing to the output folder, exit 7 at once\n"
	      "                           instead of waiting for it to finish\n"
	      "  -q, --quiet              print errors only\n"
	      "  -v, --verbose            also print progress details and timings (-vv: debug)\n"
	      "  -h, --help               print this help and exit\n"
	      "      --version            print the version and exit\n"
	      "\n"
	      "Configuration keys, for scripts written for the Python tool:\n"
	      "  input.path=PATH  output.path=PATH  input.rank_list=RANKS\n"
	      "  timeline.parser.type=mstx|torch|nvtx|table|auto  timeline.visualizer.type=png|html|pdf\n"
	      "  memory.parser.type=memory  memory.parser.role=ROLES\n"
	      "  memory.visualizer.type=memory_html|png|memory_pdf\n"
	      "  heatmap.parser.type=gmm  heatmap.parser.step=STEPS  heatmap.parser.role=ROLE\n"
	      "  heatmap.visualizer.type=gmm_heatmap|gmm_pdf  heatmap.visualizer.dpi=N\n"
	      "  heatmap.visualizer.cmap=viridis|magma|inferno|plasma|cividis  heatmap.visualizer.gmm_per_layer=N\n"
	      "  timeline.visualizer.width=PX  timeline.visualizer.scale=N\n"
	      "  timeline.visualizer.style=default|paper|paper-wide  timeline.visualizer.all_rows=true\n"
	      "  pipeline.type=OfflineInsightPipeline  preset=timeline|memory|heatmap\n"
	      "  history.path=FILE  history.run_label=LABEL  history.window=N\n"
	      "  config_path=FILE  a YAML file of these keys; keys on the command line win\n"
	      "\n"
	      "Exit status:\n"
	      "  0  success\n"
	      "  1  internal error (out of memory, a bug)\n"
	      "  2  usage error\n"
	      "  3  input invalid, or nothing to draw\n"
	      "  4  an output could not be written\n"
	      "  5  some input units failed and were skipped; the rest were drawn\n"
	      "  6  with --fail-on-regression: a phase got slower than the baseline by more than\n"
	      "     the threshold and beyond the noise (each named on stderr); every output written\n"
	      "  7  with --no-wait: another run was writing to the output folder; nothing written\n"
	      "  8  with --history: the history could not be read or written (named, with the reason);\n"
	      "     the run's other outputs are written\n"
	      "  129, 130, 143  stopped by SIGHUP, SIGINT or SIGTERM (128 + the signal): the run's\n"
	      "     unfinished outputs removed, any already written left whole, one line on stderr\n"
	      "\n"
	      "Examples:\n"
	      "  rl-insight --input-path prof/ --vis-type png,html,pdf --output-path out/\n"
	      "  rl-insight input.path=prof/ timeline.parser.type=mstx timeline.visualizer.type=png output.path=out/\n"
	      "  rl-insight --input-path prof/ --export csv --rank-list 0-7\n"
	      "  rl-insight --input-path prof/ --shard 3/16 --export jsonl --vis-type none --output-path shards/3\n"
	      "  rl-insight --input-path shards/ --vis-type png,html,pdf --output-path out/\n"
	      "  rl-insight --input-path tonight/ --baseline last_night/summary.json --fail-on-regression 5% -q\n"
	      "  rl-insight -q --input-path tonight/ --history runs.db --run-label $(git rev-parse --short HEAD) \\\n"
	      "             --fail-on-regression 5% --vis-type html,trend\n",
	      fp);
}

/* history_command.c: `rl-insight history FILE`: the runs listed, one shown, one deleted, and the summary.json of runs made before the history existed imported. */
#include "run_history.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_USAGE 2
#define EXIT_INVALID 3
#define EXIT_HISTORY 8

static const char usage[] =
	"Usage: rl-insight history FILE [list] [--input PATH] [--label-family F] [--limit N]\n"
	"       rl-insight history FILE show ID\n"
	"       rl-insight history FILE delete ID\n"
	"       rl-insight history FILE import [--run-label LABEL] SUMMARY...\n"
	"\n"
	"The run history FILE (an SQLite database that --history appends to):\n"
	"  list     its runs, oldest first (the default): id, when captured and analysed, profiler, label, input;\n"
	"           --input and --label-family keep those of one input or label family, --limit N the last N\n"
	"  show     one run: its row, its phases, stragglers, slowest ranks, memory peaks and expert imbalance\n"
	"  delete   one run and its rows\n"
	"  import   the summary.json of runs made before the history existed (a file, or the folder holding\n"
	"           it), each as a run of its own, analysed when its summary.json was written; one already\n"
	"           imported from the same folder, unchanged since, is skipped\n"
	"  -q       print errors only\n"
	"\n"
	"Exit status: 0 success; 2 usage error or no such run; 3 a summary.json that is not one (named,\n"
	"the others imported); 8 the history could not be read or written.\n";

typedef struct {
	const char *path, *action, *input, *family, *label;
	size_t limit;
	int quiet;
	const char **operands;
	size_t operand_count;
} command;

static int fail(int status, const char *message)
{
	fputs("rl-insight: ", stderr);
	cli_put_message(stderr, message);
	fputc('\n', stderr);
	return status;
}

/* The status a library code leaves: the history's failure (8), no such run (2), out of memory (1). */
static int status_of(int error)
{
	return error == RLI_EUSAGE ? EXIT_USAGE : error == RLI_ERROR ? 1 : EXIT_HISTORY;
}

static int parse(command *cmd, int argc, char **argv)
{
	*cmd = (command){ .action = "list" };
	if (!(cmd->operands = calloc((size_t)argc + 1, sizeof(*cmd->operands))))
		return rli_error_oom();
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char **slot = strcmp(arg, "--input") == 0 ? &cmd->input : strcmp(arg, "--label-family") == 0 ? &cmd->family :
				    strcmp(arg, "--run-label") == 0 ? &cmd->label : NULL;
		if (slot || strcmp(arg, "--limit") == 0) {
			char *end;
			if (i + 1 >= argc)
				return rli_error_set(RLI_EUSAGE, "%s needs a value", arg);
			if (slot) {
				*slot = argv[++i];
				continue;
			}
			errno = 0;
			long n = strtol(argv[++i], &end, 10);
			if (errno || end == argv[i] || *end || n < 1)
				return rli_error_set(RLI_EUSAGE, "--limit: '%s' is not a whole number from 1", argv[i]);
			cmd->limit = (size_t)n;
		} else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
			cmd->quiet = 1;
		} else if (arg[0] == '-' && arg[1]) {
			return rli_error_set(RLI_EUSAGE, "history: unknown option '%s' (see rl-insight history --help)", arg);
		} else if (!cmd->path) {
			cmd->path = arg;
		} else if (cmd->operand_count == 0 && strcmp(cmd->action, "list") == 0 &&
			   (strcmp(arg, "list") == 0 || strcmp(arg, "show") == 0 || strcmp(arg, "delete") == 0 ||
			    strcmp(arg, "import") == 0)) {
			cmd->action = arg;
		} else {
			cmd->operands[cmd->operand_count++] = arg;
		}
	}
	if (!cmd->path)
		return rli_error_set(RLI_EUSAGE, "history: which history? rl-insight history FILE (see --help)");
	if (strcmp(cmd->action, "list") == 0 && cmd->operand_count)
		return rli_error_set(RLI_EUSAGE, "history: unexpected '%s' (list, show ID, delete ID or import SUMMARY...)",
				     cmd->operands[0]);
	if ((strcmp(cmd->action, "show") == 0 || strcmp(cmd->action, "delete") == 0) && cmd->operand_count != 1)
		return rli_error_set(RLI_EUSAGE, "history %s takes one run id", cmd->action);
	if (strcmp(cmd->action, "import") == 0 && cmd->operand_count == 0)
		return rli_error_set(RLI_EUSAGE, "history import needs the summary.json files (or their folders) to import");
	if (cmd->label && strcmp(cmd->action, "import") != 0)
		return rli_error_set(RLI_EUSAGE, "--run-label labels the runs import adds");
	return RLI_OK;
}

static int run_id(int64_t *id, const char *text)
{
	char *end;
	const char *digits = text[0] == '#' ? text + 1 : text;
	errno = 0;
	long long n = strtoll(digits, &end, 10);
	if (errno || end == digits || *end || n < 1)
		return rli_error_set(RLI_EUSAGE, "history: '%s' is not a run id (a whole number from 1, as list shows)", text);
	*id = n;
	return RLI_OK;
}

static void when(char *out, size_t size, const char *stamp)
{
	if (stamp && strlen(stamp) >= 16)
		snprintf(out, size, "%.10s %.5s", stamp, stamp + 11);
	else
		snprintf(out, size, "-");
}

static int list(rli_history *h, const command *cmd)
{
	rli_history_filter filter = { cmd->input, cmd->family, cmd->limit };
	rli_history_run *runs = NULL;
	size_t count = 0;
	int error = rli_history_runs(h, &filter, &runs, &count);
	if (error < 0)
		return error;
	printf("%6s  %-16s  %-16s  %-8s  %-24s  %s\n", "id", "captured (UTC)", "analysed (UTC)", "profiler", "label", "input");
	for (size_t i = 0; i < count; i++) {
		char captured[32], analysed[32];
		when(captured, sizeof(captured), runs[i].captured_at);
		when(analysed, sizeof(analysed), runs[i].analysed_at);
		printf("%6lld  %-16s  %-16s  %-8s  %-24s  ", (long long)runs[i].id, captured, analysed,
		       runs[i].profiler ? runs[i].profiler : "", runs[i].label ? runs[i].label : "-");
		cli_put_message(stdout, runs[i].input ? runs[i].input : "");
		putchar('\n');
	}
	if (!cmd->quiet)
		fprintf(stderr, "rl-insight: %zu run%s in %s\n", count, count == 1 ? "" : "s", cmd->path);
	rli_history_runs_free(runs, count);
	return RLI_OK;
}

/* Whether the run's output folder still holds what it wrote. */
static const char *outputs_state(const rli_history_run *run)
{
	struct stat st;
	char *summary = run->output ? rli_path_join(run->output, "summary.json") : NULL;
	const char *state = "not recorded";
	if (summary) {
		if (stat(summary, &st) != 0)
			state = "gone";
		else if (run->summary_bytes < 0 || ((int64_t)st.st_size == run->summary_bytes &&
						     (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec ==
							     run->summary_mtime_ns))
			state = "still its own";
		else
			state = "replaced by a later run's";
	}
	free(summary);
	return state;
}

/* The expert load's layers step by step: the imbalance (the hottest expert's load over the mean) and that expert. */
static int show_experts(rli_history *h, int64_t id)
{
	rli_history_expert *rows = NULL;
	size_t count = 0;
	int error = rli_history_experts(h, id, &rows, &count);
	if (error < 0)
		return error;
	if (count)
		printf("expert imbalance (max / mean load)\n  %-32s %6s %6s %10s %8s\n", "role", "step", "layer", "imbalance",
		       "hottest");
	for (size_t i = 0; i < count; i++) {
		char imbalance[32] = "-";
		if (isfinite(rows[i].imbalance))
			snprintf(imbalance, sizeof(imbalance), "%.2fx", rows[i].imbalance);
		printf("  %-32s %6lld %6u %10s %8u\n", rows[i].role, (long long)rows[i].step, (unsigned)rows[i].layer,
		       imbalance, (unsigned)rows[i].hottest);
	}
	rli_history_experts_free(rows, count);
	return RLI_OK;
}

static int show(rli_history *h, const command *cmd)
{
	rli_history_run run;
	rli_compare_side *side = NULL;
	char a[32], b[32], c[32], d[32];
	int64_t id = 0;
	int error;
	if ((error = run_id(&id, cmd->operands[0])) < 0 || (error = rli_history_get(h, id, &run)) < 0)
		return error;
	if ((error = rli_history_side(h, &run, &side)) < 0) {
		rli_history_run_dispose(&run);
		return error;
	}
	printf("run %lld\n  captured      %s\n  analysed      %s\n  input         ", (long long)run.id,
	       run.captured_at ? run.captured_at : "-", run.analysed_at ? run.analysed_at : "-");
	cli_put_message(stdout, run.input ? run.input : "");
	printf("\n  profiler      %s\n  rl-insight    %s\n  label         %s\n  label family  %s\n  source        %s\n"
	       "  outputs       %s (%s)\n", run.profiler, run.tool_version, run.label ? run.label : "-",
	       run.family && *run.family ? run.family : "-", run.source ? run.source : "run", run.output ? run.output : "-",
	       outputs_state(&run));
	printf("  ranks %lld, roles %lld, steps %lld, span %s, step %s\n", (long long)run.ranks, (long long)run.roles,
	       (long long)run.max_steps, rli_fmt_duration(a, sizeof(a), run.duration_ms), rli_fmt_duration(b, sizeof(b), run.step_ms));
	if (side->phase_count)
		printf("phases\n  %-32s %-32s %8s %10s %10s %10s %10s\n", "role", "phase", "count", "median", "q1", "q3", "p95");
	for (size_t i = 0; i < side->phase_count; i++) {
		const rli_side_phase *p = &side->phases[i];
		char e[32];
		printf("  %-32s %-32s %8zu %10s %10s %10s %10s\n", p->role, p->name, p->sample.count,
		       rli_fmt_duration(a, sizeof(a), p->sample.median_ms), rli_fmt_duration(b, sizeof(b), p->sample.q1_ms),
		       rli_fmt_duration(c, sizeof(c), p->sample.q3_ms), rli_fmt_duration(e, sizeof(e), p->sample.p95_ms));
	}
	if (side->role_count)
		printf("roles\n  %-32s %6s %12s  %s\n", "role", "steps", "step median", "straggler");
	for (size_t i = 0; i < side->role_count; i++) {
		const rli_side_role *r = &side->roles[i];
		char straggler[32] = "none";
		if (r->has_straggler)
			snprintf(straggler, sizeof(straggler), "rank %lld", (long long)r->straggler_rank);
		printf("  %-32s %6zu %12s  %s\n", r->role, r->steps, rli_fmt_duration(a, sizeof(a), r->step_ms), straggler);
	}
	if (side->step_count)
		printf("steps (the slowest rank of each)\n  %-32s %6s %10s %10s %8s\n", "role", "step", "median", "slowest", "rank");
	for (size_t i = 0; i < side->step_count; i++) {
		const rli_side_step *k = &side->steps[i];
		printf("  %-32s %6zu %10s %10s %8lld\n", k->role, k->step, rli_fmt_duration(a, sizeof(a), k->median_ms),
		       rli_fmt_duration(b, sizeof(b), k->slowest_ms), (long long)k->slowest_rank);
	}
	if (side->device_count)
		printf("memory peaks\n  %-32s %6s %-8s %14s %12s\n", "role", "rank", "device", "peak (MB)", "at");
	for (size_t i = 0; i < side->device_count; i++) {
		const rli_side_device *dev = &side->devices[i];
		rli_fmt_thousands(d, sizeof(d), dev->peak_mb, 2);
		printf("  %-32s %6lld %-8s %14s %12s\n", dev->role, (long long)dev->rank, dev->device_type, d,
		       rli_fmt_duration(a, sizeof(a), dev->peak_ms));
	}
	error = show_experts(h, run.id);
	rli_compare_side_free(side);
	rli_history_run_dispose(&run);
	return error;
}

static int delete_run(rli_history *h, const command *cmd)
{
	int64_t id = 0;
	int error;
	if ((error = run_id(&id, cmd->operands[0])) < 0 || (error = rli_history_delete(h, id)) < 0)
		return error;
	if (!cmd->quiet)
		fprintf(stderr, "rl-insight: deleted run %lld from %s\n", (long long)id, cmd->path);
	return RLI_OK;
}

/* Each summary in its own transaction: one that is not a summary is named, the others go in. Returns the exit status. */
static int import(rli_history *h, const command *cmd)
{
	int status = 0;
	for (size_t i = 0; i < cmd->operand_count; i++) {
		const char *given = cmd->operands[i];
		struct stat st;
		char *path = stat(given, &st) == 0 && S_ISDIR(st.st_mode) ? rli_path_join(given, "summary.json") : rli_strdup(given);
		rli_history_run run;
		rli_compare_side *side = NULL;
		int64_t existing = 0;
		int error;
		if (!path)
			return fail(1, "out of memory");
		error = rli_history_read_summary(&run, &side, path, cmd->label);
		if (error < 0) {
			fail(error == RLI_ERROR ? 1 : EXIT_INVALID, rli_error_last());
			status = status ? status : error == RLI_ERROR ? 1 : EXIT_INVALID;
			free(path);
			continue;
		}
		if ((error = rli_history_find_summary(h, &run, &existing)) == RLI_OK && existing) {
			if (!cmd->quiet)
				fprintf(stderr, "rl-insight: %s is in the history already, as run %lld: skipped\n", path,
					(long long)existing);
		} else if (error == RLI_OK && (error = rli_history_append(h, &run, side, NULL, 0)) == RLI_OK) {
			if (!cmd->quiet)
				fprintf(stderr, "rl-insight: imported %s as run %lld\n", path, (long long)run.id);
		}
		if (error < 0) {
			fail(status_of(error), rli_error_last());
			status = status_of(error);
		}
		rli_compare_side_free(side);
		rli_history_run_dispose(&run);
		free(path);
		if (status == EXIT_HISTORY || status == 1)
			break; /* the history itself failed: the rest would too */
	}
	return status;
}

int cli_history_command(int argc, char **argv)
{
	command cmd;
	rli_history_open_options options;
	rli_history *h = NULL;
	int error, status = 0, writes;
	struct stat st;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	if ((error = parse(&cmd, argc, argv)) < 0) {
		status = fail(error == RLI_ERROR ? 1 : EXIT_USAGE, rli_error_last());
		goto done;
	}
	writes = strcmp(cmd.action, "delete") == 0 || strcmp(cmd.action, "import") == 0;
	rli_history_open_options_init(&options);
	options.journal = getenv("RLI_HISTORY_JOURNAL");
	/* Reading never makes a file, and reads one it may not write as it is. */
	options.read_only = !writes && (stat(cmd.path, &st) != 0 || access(cmd.path, W_OK) != 0);
	if ((error = rli_history_open(&h, cmd.path, &options)) < 0) {
		status = fail(status_of(error) == EXIT_USAGE ? EXIT_HISTORY : status_of(error), rli_error_last());
		goto done;
	}
	if (strcmp(cmd.action, "import") == 0)
		status = import(h, &cmd);
	else if ((error = strcmp(cmd.action, "show") == 0 ? show(h, &cmd) :
			  strcmp(cmd.action, "delete") == 0 ? delete_run(h, &cmd) : list(h, &cmd)) < 0)
		status = fail(status_of(error), rli_error_last());
done:
	rli_history_close(h);
	free(cmd.operands);
	return status;
}

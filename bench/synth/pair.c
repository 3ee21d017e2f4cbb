/* pair.c: run pairs for comparing two runs: DIR/baseline and DIR/current from one plan, and DIR/pair.txt saying what differs. */
#include "pair.h"

#include <stdlib.h>
#include <string.h>

/* The call site memory-growth plants at: a leaf frame both the Ascend and the torch stacks use often. */
#define GROWTH_SITE "torch/nn/functional.py(2551): layer_norm"
#define DEFAULT_SLOW_FACTOR 1.2
#define DEFAULT_GROWTH_KB 2048.0
/* The jitter's stream: another seed than the run's, so the pair's draws are otherwise the same. */
#define JITTER_SEED_OFFSET UINT64_C(0x5eed)

static const char *const kind_names[] = { "identical", "slowdown", "memory-growth", "roles" };
static const char *const format_names[] = { "mstx", "torch", "nvtx", "memory" };

int synth_pair_kind_parse(synth_pair_kind *kind, const char *name)
{
	for (size_t k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++) {
		if (strcmp(name, kind_names[k]) == 0) {
			*kind = (synth_pair_kind)k;
			return SYNTH_OK;
		}
	}
	return synth_fail(SYNTH_EUSAGE, "--pair: identical, slowdown, memory-growth or roles, not %s", name);
}

/* What the kind needs of the format and the options; SYNTH_EUSAGE with the reason when it does not fit. */
static int check_pair(const synth_options *options, const synth_pair *pair)
{
	if (options->target_bytes)
		return synth_fail(SYNTH_EUSAGE, "--pair sizes units by --events-per-unit, not --target-bytes");
	if (pair->jitter < 0 || pair->jitter >= 0.5)
		return synth_fail(SYNTH_EUSAGE, "--jitter must be at least 0 and below 0.5");
	if (pair->jitter > 0 && pair->kind != SYNTH_PAIR_IDENTICAL && pair->kind != SYNTH_PAIR_SLOWDOWN)
		return synth_fail(SYNTH_EUSAGE, "--jitter is for --pair identical and slowdown");
	switch (pair->kind) {
	case SYNTH_PAIR_SLOWDOWN:
		if (options->format == SYNTH_MEMORY)
			return synth_fail(SYNTH_EUSAGE, "--pair slowdown is for mstx, torch and nvtx");
		if (pair->slow_factor < 0 || pair->slow_factor > 100)
			return synth_fail(SYNTH_EUSAGE, "--slow-factor must be above 0 and at most 100");
		if (pair->slow_rank < -1 || pair->slow_rank >= options->ranks)
			return synth_fail(SYNTH_EUSAGE, "--slow-rank must be below --ranks (%d)", options->ranks);
		break;
	case SYNTH_PAIR_MEMORY_GROWTH:
		if (options->format != SYNTH_MEMORY && !(options->format == SYNTH_TORCH && options->memory_ops))
			return synth_fail(SYNTH_EUSAGE, "--pair memory-growth is for --format memory, or torch with "
							"--memory-events and --memory-ops (the call stacks)");
		if (pair->growth_kb < 0 || pair->growth_kb > 1e9 ||
		    (double)(long long)(pair->growth_kb * 2) != pair->growth_kb * 2)
			return synth_fail(SYNTH_EUSAGE, "--growth-kb must be a positive multiple of 0.5");
		break;
	case SYNTH_PAIR_ROLES:
		if (options->roles < 2 || options->roles > 63)
			return synth_fail(SYNTH_EUSAGE, "--pair roles needs --roles between 2 and 63");
		break;
	default:
		break;
	}
	return SYNTH_OK;
}

/* The slowed role (its names are static): the named one, else actor_update (the third role), else the last. */
static int find_slow_role(synth_role *found, const synth_options *options, const synth_pair *pair)
{
	synth_plan plan;
	int role, error = synth_plan_init(&plan, options);
	if (error < 0)
		return error;
	role = pair->slow_role ? synth_plan_find_role(&plan, pair->slow_role)
	       : plan.role_count >= 3 ? 2
				      : plan.role_count - 1;
	if (role >= 0)
		*found = plan.roles[role];
	synth_plan_free(&plan);
	if (role < 0)
		return synth_fail(SYNTH_EUSAGE, "--slow-role: no generated role is called %s", pair->slow_role);
	return role;
}

static void write_common(FILE *fp, const synth_options *options, const synth_pair *pair)
{
	fprintf(fp, "kind=%s\nformat=%s\nbaseline=baseline\ncurrent=current\n", kind_names[pair->kind],
		format_names[options->format]);
	fprintf(fp, "seed=%llu\nranks=%d\nroles=%d\nsteps=%d\n", (unsigned long long)options->seed, options->ranks,
		options->roles, options->steps);
}

/* What the slowed side plants, in the names the rows carry (NVTX rows carry the phase's). */
static void write_slowdown(FILE *fp, const synth_options *current, const synth_role *role)
{
	char rank[16] = "all";
	if (current->slow_rank >= 0)
		snprintf(rank, sizeof(rank), "%d", current->slow_rank);
	fprintf(fp, "role=%s\nrole_dir=%s\nrole_phase=%s\nrank=%s\nfactor=%.17g\nslowed_bars=%d\n",
		current->format == SYNTH_NVTX ? role->phase_name : role->dir_name, role->dir_name, role->phase_name,
		rank, current->slow_factor, current->slow_rank >= 0 ? current->steps : current->steps * current->ranks);
}

int synth_run_pair(const synth_options *options, const synth_pair *pair)
{
	synth_options baseline = *options, current = *options;
	char *base_dir = synth_path("%s/baseline", options->output_dir);
	char *current_dir = synth_path("%s/current", options->output_dir);
	char *facts_path = synth_path("%s/pair.txt", options->output_dir);
	synth_role slow = { 0 };
	FILE *fp = NULL;
	int error;

	if (!base_dir || !current_dir || !facts_path) {
		error = synth_fail(SYNTH_ERROR, "out of memory");
		goto done;
	}
	if ((error = check_pair(options, pair)) < 0)
		goto done;
	baseline.output_dir = base_dir;
	current.output_dir = current_dir;
	current.jitter = pair->jitter;
	current.jitter_seed = pair->jitter_seed ? pair->jitter_seed : options->seed + JITTER_SEED_OFFSET;
	switch (pair->kind) {
	case SYNTH_PAIR_SLOWDOWN:
		if ((error = find_slow_role(&slow, options, pair)) < 0)
			goto done;
		current.slow_role = error;
		current.slow_rank = pair->slow_rank;
		current.slow_factor = pair->slow_factor > 0 ? pair->slow_factor : DEFAULT_SLOW_FACTOR;
		break;
	case SYNTH_PAIR_MEMORY_GROWTH:
		current.growth_site = GROWTH_SITE;
		current.growth_half_kb = (long long)(2 * (pair->growth_kb > 0 ? pair->growth_kb : DEFAULT_GROWTH_KB));
		break;
	case SYNTH_PAIR_ROLES:
		/* One plan of roles + 1: the baseline leaves out the added role, the current run the last of the others. */
		baseline.roles = current.roles = options->roles + 1;
		baseline.skip_roles = UINT64_C(1) << options->roles;
		current.skip_roles = UINT64_C(1) << (options->roles - 1);
		break;
	default:
		break;
	}
	if (error < 0 || (error = synth_mkdir_p(options->output_dir)) < 0 || (error = synth_run(&baseline)) < 0 ||
	    (error = synth_run(&current)) < 0)
		goto done;

	if (!(fp = fopen(facts_path, "w"))) {
		error = synth_fail(SYNTH_EOUTPUT, "cannot create %s", facts_path);
		goto done;
	}
	write_common(fp, options, pair);
	if (pair->kind == SYNTH_PAIR_IDENTICAL || pair->kind == SYNTH_PAIR_SLOWDOWN)
		fprintf(fp, "jitter=%.17g\njitter_seed=%llu\n", current.jitter, (unsigned long long)current.jitter_seed);
	if (pair->kind == SYNTH_PAIR_SLOWDOWN)
		write_slowdown(fp, &current, &slow);
	/* Phases wait for the slowest rank: a unit that may last longer pushes every later phase back. */
	if (pair->kind == SYNTH_PAIR_IDENTICAL || pair->kind == SYNTH_PAIR_SLOWDOWN)
		fprintf(fp, "later_bars_shift=%d\n", current.jitter > 0 || current.slow_factor > 1);
	if (pair->kind == SYNTH_PAIR_MEMORY_GROWTH) {
		fprintf(fp, "site=%s\ngrowth_kb=%.17g\n", current.growth_site, (double)current.growth_half_kb / 2);
		error = synth_pair_write_growth(fp, base_dir, current_dir, current.growth_site);
	}
	if (pair->kind == SYNTH_PAIR_ROLES)
		error = synth_pair_write_roles(fp, &baseline, &current, options->roles);
	if (fclose(fp) != 0 && error >= 0)
		error = synth_fail(SYNTH_EOUTPUT, "cannot write %s", facts_path);
done:
	free(base_dir);
	free(current_dir);
	free(facts_path);
	return error;
}

/* plan.c: the run every format describes: VeRL roles, their phase windows per step, per-rank skew. */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

/*
 * VeRL's PPO step, in the order roles are added as --roles grows (the first four
 * are the roles of the reference's MSTX sample). slot = order inside a step.
 */
static const synth_role role_catalog[] = {
	{ "agent_loop_rollout_replica_0", "generate_sequences", 0, 38.0 },
	{ "actor_compute_log_prob", "compute_log_prob", 2, 6.4 },
	{ "actor_update", "update_actor", 6, 14.2 },
	{ "ref_compute_log_prob", "compute_ref_log_prob", 3, 5.1 },
	{ "critic_compute_values", "compute_values", 4, 2.5 },
	{ "critic_update", "update_critic", 5, 12.3 },
	{ "reward_compute_rm_score", "compute_rm_score", 1, 3.2 },
};
#define CATALOG_SIZE ((int)(sizeof(role_catalog) / sizeof(role_catalog[0])))

/* Further roles are more rollout replicas, generating concurrently with replica 0. */
static const char *const replica_names[] = {
	"agent_loop_rollout_replica_1",  "agent_loop_rollout_replica_2",  "agent_loop_rollout_replica_3",
	"agent_loop_rollout_replica_4",  "agent_loop_rollout_replica_5",  "agent_loop_rollout_replica_6",
	"agent_loop_rollout_replica_7",  "agent_loop_rollout_replica_8",  "agent_loop_rollout_replica_9",
	"agent_loop_rollout_replica_10", "agent_loop_rollout_replica_11", "agent_loop_rollout_replica_12",
	"agent_loop_rollout_replica_13", "agent_loop_rollout_replica_14", "agent_loop_rollout_replica_15",
	"agent_loop_rollout_replica_16", "agent_loop_rollout_replica_17", "agent_loop_rollout_replica_18",
	"agent_loop_rollout_replica_19", "agent_loop_rollout_replica_20", "agent_loop_rollout_replica_21",
	"agent_loop_rollout_replica_22", "agent_loop_rollout_replica_23", "agent_loop_rollout_replica_24",
	"agent_loop_rollout_replica_25", "agent_loop_rollout_replica_26", "agent_loop_rollout_replica_27",
	"agent_loop_rollout_replica_28", "agent_loop_rollout_replica_29", "agent_loop_rollout_replica_30",
	"agent_loop_rollout_replica_31", "agent_loop_rollout_replica_32", "agent_loop_rollout_replica_33",
	"agent_loop_rollout_replica_34", "agent_loop_rollout_replica_35", "agent_loop_rollout_replica_36",
	"agent_loop_rollout_replica_37", "agent_loop_rollout_replica_38", "agent_loop_rollout_replica_39",
	"agent_loop_rollout_replica_40", "agent_loop_rollout_replica_41", "agent_loop_rollout_replica_42",
	"agent_loop_rollout_replica_43", "agent_loop_rollout_replica_44", "agent_loop_rollout_replica_45",
	"agent_loop_rollout_replica_46", "agent_loop_rollout_replica_47", "agent_loop_rollout_replica_48",
	"agent_loop_rollout_replica_49", "agent_loop_rollout_replica_50", "agent_loop_rollout_replica_51",
	"agent_loop_rollout_replica_52", "agent_loop_rollout_replica_53", "agent_loop_rollout_replica_54",
	"agent_loop_rollout_replica_55", "agent_loop_rollout_replica_56", "agent_loop_rollout_replica_57",
};
#define MAX_ROLES (CATALOG_SIZE + (int)(sizeof(replica_names) / sizeof(replica_names[0])))

#define NS_PER_S INT64_C(1000000000)
#define NS_PER_MS INT64_C(1000000)

/* Whether a pair's side slows this unit down (synth_options.slow_factor). */
static int slowed(const synth_options *options, int role, int rank)
{
	return options->slow_factor > 0 && options->slow_factor != 1 && role == options->slow_role &&
	       (options->slow_rank < 0 || rank == options->slow_rank);
}

/*
 * How much longer than planned a unit of the slot may last on one side of a pair (jitter, a
 * slowed role), in ns: later phases wait that long more, since the next phase waits for the
 * slowest rank. Bars after a stretched slot start later; the plan's draws stay the same.
 */
static int64_t longest_stretch(const synth_plan *plan, int slot, int64_t slot_length)
{
	const synth_options *options = plan->options;
	double most = 1 + options->jitter;
	for (int r = 0; r < plan->role_count; r++)
		if (plan->roles[r].slot == slot && r == options->slow_role && options->slow_factor > 1)
			most = (1 + options->jitter) * options->slow_factor;
	return most > 1 ? (int64_t)((most - 1) * (double)slot_length) + 1 : 0;
}

int synth_plan_init(synth_plan *plan, const synth_options *options)
{
	int used_slots[8] = { 0 };
	int slot_map[8];
	size_t windows;
	synth_rng rng;

	memset(plan, 0, sizeof(*plan));
	plan->options = options;
	if (options->roles < 1 || options->roles > MAX_ROLES || options->roles > 64)
		return synth_fail(SYNTH_EUSAGE, "--roles must be between 1 and %d", MAX_ROLES);
	if (options->ranks < 1 || options->ranks > 100000)
		return synth_fail(SYNTH_EUSAGE, "--ranks must be between 1 and 100000");
	if (options->steps < 1 || options->steps > 100000)
		return synth_fail(SYNTH_EUSAGE, "--steps must be between 1 and 100000");

	plan->role_count = options->roles;
	for (int r = 0; r < plan->role_count; r++) {
		if (r < CATALOG_SIZE) {
			plan->roles[r] = role_catalog[r];
		} else {
			plan->roles[r] = role_catalog[0];
			plan->roles[r].dir_name = replica_names[r - CATALOG_SIZE];
		}
		used_slots[plan->roles[r].slot] = 1;
	}
	/* Only the slots some role fills take time in a step. */
	for (int s = 0; s < 8; s++)
		slot_map[s] = used_slots[s] ? plan->slot_count++ : -1;
	for (int r = 0; r < plan->role_count; r++)
		plan->roles[r].slot = slot_map[plan->roles[r].slot];

	windows = (size_t)options->steps * (size_t)plan->slot_count;
	plan->slot_start = calloc(windows, sizeof(int64_t));
	plan->slot_length = calloc(windows, sizeof(int64_t));
	plan->rank_skew = calloc((size_t)options->ranks, sizeof(int64_t));
	if (!plan->slot_start || !plan->slot_length || !plan->rank_skew) {
		synth_plan_free(plan);
		return synth_fail(SYNTH_ERROR, "out of memory");
	}

	/* Launch skew: most ranks within a few ms, a straggler now and then. */
	synth_rng_init(&rng, options->seed, 1, 0, 0, 0);
	for (int k = 0; k < options->ranks; k++) {
		double ms = synth_rng_range(&rng, 0.5, 18.0);
		if (synth_rng_below(&rng, 8) == 0)
			ms += synth_rng_range(&rng, 40.0, 120.0);
		plan->rank_skew[k] = (int64_t)(ms * NS_PER_MS);
	}

	int64_t cursor = (int64_t)(synth_rng_range(&rng, 0.2, 0.9) * NS_PER_S);
	for (int step = 0; step < options->steps; step++) {
		for (int slot = 0; slot < plan->slot_count; slot++) {
			double longest = 0;
			for (int r = 0; r < plan->role_count; r++)
				if (plan->roles[r].slot == slot && plan->roles[r].seconds > longest)
					longest = plan->roles[r].seconds;
			/* Step-to-step variation: sequence lengths change, so does the work. */
			double seconds = longest * synth_rng_range(&rng, 0.85, 1.15);
			size_t w = (size_t)step * (size_t)plan->slot_count + (size_t)slot;
			plan->slot_start[w] = cursor;
			plan->slot_length[w] = (int64_t)(seconds * NS_PER_S);
			/* The next phase waits for the slowest rank, then for the driver. */
			cursor += plan->slot_length[w] + longest_stretch(plan, slot, plan->slot_length[w]) +
				  200 * NS_PER_MS + (int64_t)(synth_rng_range(&rng, 0.15, 1.2) * NS_PER_S);
		}
		cursor += (int64_t)(synth_rng_range(&rng, 0.5, 2.5) * NS_PER_S);
	}
	return SYNTH_OK;
}

void synth_plan_free(synth_plan *plan)
{
	free(plan->slot_start);
	free(plan->slot_length);
	free(plan->rank_skew);
	plan->slot_start = plan->slot_length = plan->rank_skew = NULL;
}

void synth_plan_unit(synth_unit *unit, const synth_plan *plan, int role, int rank, int step)
{
	const synth_role *info = &plan->roles[role];
	size_t w = (size_t)step * (size_t)plan->slot_count + (size_t)info->slot;
	double longest = 0;
	synth_rng rng;

	for (int r = 0; r < plan->role_count; r++)
		if (plan->roles[r].slot == info->slot && plan->roles[r].seconds > longest)
			longest = plan->roles[r].seconds;
	synth_rng_init(&rng, plan->options->seed, 2, (uint64_t)role, (uint64_t)rank, (uint64_t)step);
	unit->role = role;
	unit->rank = rank;
	unit->step = step;
	unit->start = plan->slot_start[w] + plan->rank_skew[rank] +
		      (int64_t)(synth_rng_range(&rng, 0.0, 6.0) * NS_PER_MS);
	/* Generation has a long tail (response lengths differ per rank and replica); training ranks stay close. */
	double share = info->seconds / longest;
	if (info->slot == plan->roles[0].slot)
		share *= synth_rng_range(&rng, 0.78, 1.0);
	unit->stretch = 1;
	if (plan->options->jitter > 0) {
		/* Another seed's stream, so the draws above stay those of the run without jitter. */
		synth_rng noise;
		synth_rng_init(&noise, plan->options->jitter_seed, 3, (uint64_t)role, (uint64_t)rank, (uint64_t)step);
		unit->stretch = 1 + synth_rng_range(&noise, -plan->options->jitter, plan->options->jitter);
	}
	if (slowed(plan->options, role, rank))
		unit->stretch *= plan->options->slow_factor;
	unit->length = (int64_t)((double)plan->slot_length[w] * share * synth_rng_range(&rng, 0.97, 1.0) *
				 unit->stretch);
}

int synth_plan_writes_role(const synth_plan *plan, int role)
{
	return role >= 64 || !(plan->options->skip_roles >> role & 1);
}

int synth_plan_find_role(const synth_plan *plan, const char *name)
{
	for (int r = 0; r < plan->role_count; r++)
		if (strcmp(plan->roles[r].dir_name, name) == 0 || strcmp(plan->roles[r].phase_name, name) == 0)
			return r;
	return -1;
}

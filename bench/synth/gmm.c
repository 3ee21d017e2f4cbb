/* gmm.c: msprobe's MoE dumps as VeRL leaves them (step_N/ROLE/rankN/dump_tensor_data/...group_list.pt) and the expected rows. */
#include "pt_write.h"

#include <stdlib.h>
#include <string.h>

/* Tokens a rank routes per grouped matmul: a micro-batch of 4096 tokens, each to its top 8 experts. */
#define TOKENS (4096 * 8)

/* The bits of load as the dtype stores it; *value what those bits read back as. */
static uint64_t encode(int dtype, double load, double *value)
{
	union {
		float f;
		uint32_t u;
	} single;
	union {
		double d;
		uint64_t u;
	} wide;
	switch (dtype) {
	case SYNTH_PT_INT64:
		*value = load;
		return (uint64_t)(int64_t)load;
	case SYNTH_PT_INT32:
		*value = load;
		return (uint32_t)(int32_t)load;
	case SYNTH_PT_FLOAT32:
		single.f = (float)load;
		*value = single.f;
		return single.u;
	case SYNTH_PT_BFLOAT16:
		/* a float32's top half, rounded to nearest even as torch rounds it */
		single.f = (float)load;
		single.u = (single.u + 0x7fff + ((single.u >> 16) & 1)) & 0xffff0000u;
		*value = single.f;
		return single.u >> 16;
	default:
		wide.d = load;
		*value = wide.d;
		return wide.u;
	}
}

/*
 * One layer's routing on one rank: TOKENS spread over the experts, a few of them hot. The three
 * grouped matmuls of a MoE layer (gate, up and down projections) share it.
 */
static void route(double *loads, int experts, synth_rng *rng)
{
	double weights[4096], sum = 0;
	long long given = 0;
	for (int e = 0; e < experts; e++) {
		double w = synth_rng_range(rng, 0.3, 1.7);
		if (synth_rng_below(rng, 10) == 0)
			w *= 4; /* a hot expert */
		weights[e] = w;
		sum += w;
	}
	for (int e = 0; e < experts; e++) {
		loads[e] = (double)(long long)(TOKENS * weights[e] / sum);
		given += (long long)loads[e];
	}
	loads[experts - 1] += (double)(TOKENS - given);
}

/* The file's make, by place: torch 2.x's zip, 1.13's, the legacy stream; dtypes and byte orders with them. */
static void variant(synth_pt *t, int mixed, int index)
{
	static const struct {
		int dtype, legacy, newer, big_endian;
	} kinds[] = {
		{ SYNTH_PT_INT64, 0, 1, 0 },   { SYNTH_PT_INT32, 0, 0, 0 },    { SYNTH_PT_FLOAT32, 1, 0, 0 },
		{ SYNTH_PT_BFLOAT16, 0, 0, 0 }, { SYNTH_PT_FLOAT64, 0, 1, 1 }, { SYNTH_PT_INT64, 1, 0, 0 },
	};
	int k = mixed ? index % 6 : 0;
	t->dtype = kinds[k].dtype;
	t->legacy = kinds[k].legacy;
	t->newer = kinds[k].newer;
	t->big_endian = kinds[k].big_endian;
}

static int compare_roles(const void *a, const void *b, void *plan)
{
	const synth_plan *p = plan;
	return strcmp(p->roles[*(const int *)a].dir_name, p->roles[*(const int *)b].dir_name);
}

/* The roles in code-point order of their folders' names: the table's order. */
static void sort_roles(int *order, const synth_plan *plan)
{
	for (int r = 0; r < plan->role_count; r++)
		order[r] = r;
	for (int i = 1; i < plan->role_count; i++)
		for (int k = i; k > 0 && compare_roles(&order[k - 1], &order[k], (void *)plan) > 0; k--) {
			int t = order[k];
			order[k] = order[k - 1];
			order[k - 1] = t;
		}
}

/* Writes one (step, role, rank)'s dumps and adds their expected rows to csv. */
static int write_rank(const synth_plan *plan, FILE *csv, int step, int role, int rank)
{
	const synth_options *o = plan->options;
	int experts = o->gmm_experts, error = SYNTH_OK;
	double *layer = malloc((size_t)experts * sizeof(*layer));
	uint64_t *bits = malloc((size_t)experts * sizeof(*bits));
	char *dir = synth_path("%s/step_%d/%s/rank%d/dump_tensor_data", o->output_dir, step,
			       plan->roles[role].dir_name, rank);
	synth_rng rng;

	if (!layer || !bits || !dir) {
		error = synth_fail(SYNTH_ERROR, "out of memory");
		goto done;
	}
	if ((error = synth_mkdir_p(dir)) < 0)
		goto done;
	synth_rng_init(&rng, o->seed, 0x6d6d, (uint64_t)step, (uint64_t)role, (uint64_t)rank);
	for (int op = 0; op < o->gmm_ops && error == SYNTH_OK; op++) {
		char name[128], *path;
		synth_pt t = { 0 };
		if (op % 3 == 0)
			route(layer, experts, &rng);
		variant(&t, o->gmm_mixed, step + rank + op);
		for (int e = 0; e < experts; e++) {
			double value, load = layer[e] + (t.dtype == SYNTH_PT_FLOAT32 ? 0.5 : 0);
			bits[e] = encode(t.dtype, load, &value);
			fprintf(csv, "%s,%d,%d,%d,%d,%.17g\n", plan->roles[role].dir_name, rank, step, op, e, value);
		}
		snprintf(name, sizeof(name), "NPU.npu_grouped_matmul.%d.forward.kwargs.group_list", op);
		if (!(path = synth_path("%s/%s.pt", dir, name))) {
			error = synth_fail(SYNTH_ERROR, "out of memory");
			break;
		}
		t.numel = (size_t)experts;
		t.bits = bits;
		t.archive_name = name;
		error = synth_pt_write(path, &t);
		free(path);
	}
done:
	free(layer);
	free(bits);
	free(dir);
	return error;
}

int synth_write_gmm(const synth_plan *plan)
{
	const synth_options *o = plan->options;
	int order[64], error = SYNTH_OK;
	char *expected = synth_path("%s/expected_gmm.csv", o->output_dir);
	FILE *csv;

	if (o->gmm_experts < 1 || o->gmm_experts > 4096 || o->gmm_ops < 1)
		return synth_fail(SYNTH_EUSAGE, "--experts must be 1 to 4096 and --gmm-ops at least 1");
	if (!expected)
		return synth_fail(SYNTH_ERROR, "out of memory");
	if (!(csv = fopen(expected, "w"))) {
		error = synth_fail(SYNTH_EOUTPUT, "cannot write %s", expected);
		free(expected);
		return error;
	}
	fputs("role,rank_id,step,stage,expert_index,load\n", csv);
	sort_roles(order, plan);
	/* Steps count from 1, as VeRL's profiler names them; the rows in the table's order. */
	for (int step = 1; step <= o->steps && error == SYNTH_OK; step++)
		for (int r = 0; r < plan->role_count && error == SYNTH_OK; r++)
			for (int rank = 0; rank < o->ranks && error == SYNTH_OK; rank++)
				error = write_rank(plan, csv, step, order[r], rank);
	if (fclose(csv) != 0 && error == SYNTH_OK)
		error = synth_fail(SYNTH_EOUTPUT, "cannot write %s", expected);
	free(expected);
	return error;
}

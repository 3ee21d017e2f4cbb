/* test_gmm_table.c: the GMM table's order (the reference's sort of every column) against a plain sort of its rows. */
#include "harness.h"
#include "gmm/gmm_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row as the reference's DataFrame holds it. */
typedef struct {
	const char *role;
	int64_t rank, step, stage, expert;
	double load;
} flat_row;

static int compare_load(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/* pandas' sort_values over all six columns: step, role (code points), rank, stage, expert, load (NaN last). */
static int compare_flat(const void *pa, const void *pb)
{
	const flat_row *a = pa, *b = pb;
	int role = strcmp(a->role, b->role);
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (role)
		return role;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->stage != b->stage)
		return a->stage < b->stage ? -1 : 1;
	if (a->expert != b->expert)
		return a->expert < b->expert ? -1 : 1;
	return compare_load(a->load, b->load);
}

static int same_load(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* Every row of the finished table is the sorted flat row at the same place, and the snapshots are as documented. */
static void check_table(const rli_gmm *gmm, flat_row *rows, size_t count)
{
	size_t next = 0;
	uint32_t experts = 0;
	qsort(rows, count, sizeof(*rows), compare_flat);
	CHECK_INT(rli_gmm_count(gmm), count);
	for (size_t i = 0; i < count && i < rli_gmm_count(gmm); i++) {
		rli_gmm_row row;
		CHECK_INT(rli_gmm_get(&row, gmm, i), RLI_OK);
		if (strcmp(row.role, rows[i].role) != 0 || row.rank_id != rows[i].rank || row.step != rows[i].step ||
		    row.stage != rows[i].stage || row.expert_index != rows[i].expert || !same_load(row.load, rows[i].load)) {
			fprintf(stderr, "row %zu: %s %lld %lld %lld %lld %g, want %s %lld %lld %lld %lld %g\n", i, row.role,
				(long long)row.rank_id, (long long)row.step, (long long)row.stage, (long long)row.expert_index,
				row.load, rows[i].role, (long long)rows[i].rank, (long long)rows[i].step,
				(long long)rows[i].stage, (long long)rows[i].expert, rows[i].load);
			rli_test_failures++;
			break;
		}
		if ((uint32_t)row.expert_index + 1 > experts)
			experts = (uint32_t)row.expert_index + 1;
	}
	CHECK_INT(gmm->experts, experts);
	for (size_t k = 0; k < gmm->snapshot_count; k++) {
		const rli_gmm_snapshot *s = &gmm->snapshots[k];
		CHECK_INT(s->first, next);
		CHECK(s->count > 0);
		next += s->count;
		CHECK_INT(rli_gmm_snapshot_of(gmm, s->first), k);
		CHECK_INT(rli_gmm_snapshot_of(gmm, s->first + s->count - 1), k);
		/* distinct keys: no two snapshots of one (step, role, rank, stage) */
		if (k) {
			const rli_gmm_snapshot *p = &gmm->snapshots[k - 1];
			CHECK(!(p->step == s->step && p->role == s->role && p->rank_id == s->rank_id && p->stage == s->stage));
		}
	}
	CHECK_INT(next, gmm->count);
}

/* Snapshots added in a random order, some keys twice (two dumps of one snapshot), loads with NaN. */
static void test_random_snapshots(void)
{
	static const char *const roles[] = { "actor_update", "Zeta_role", "actor_compute_log_prob", "ref", "\xc3\xa9t\xc3\xa9" };
	uint64_t state = 88172645463325252u;
	rli_gmm *gmm = NULL;
	flat_row *rows = NULL;
	size_t count = 0, capacity = 0;

	CHECK_INT(rli_gmm_new(&gmm), RLI_OK);
	for (int n = 0; n < 400; n++) {
		rli_gmm_key key;
		size_t experts = 1 + rli_test_random(&state) % 12;
		const char *role = roles[rli_test_random(&state) % 5];
		double *loads;
		key.role = rli_gmm_intern(gmm, role, strlen(role));
		key.rank_id = (int64_t)(rli_test_random(&state) % 12);
		key.step = (int64_t)(rli_test_random(&state) % 11);
		key.stage = (int64_t)(rli_test_random(&state) % 4); /* few stages: keys repeat */
		CHECK_INT(rli_gmm_add_snapshot(gmm, &key, experts, &loads), RLI_OK);
		if (count + experts > capacity) {
			capacity = (count + experts) * 2;
			rows = realloc(rows, capacity * sizeof(*rows));
		}
		for (size_t e = 0; e < experts; e++) {
			uint64_t r = rli_test_random(&state);
			loads[e] = r % 17 == 0 ? NAN : (double)(r % 50) - 5;
			rows[count++] = (flat_row){ role, key.rank_id, key.step, key.stage, (int64_t)e, loads[e] };
		}
	}
	CHECK_INT(rli_gmm_finish(gmm), RLI_OK);
	check_table(gmm, rows, count);
	/* A finished table finishes again without change. */
	CHECK_INT(rli_gmm_finish(gmm), RLI_OK);
	check_table(gmm, rows, count);
	rli_gmm_free(gmm);
	free(rows);
}

/* Rows one by one, as a table read back gives them: out of order across files, in order within each. */
static void test_rows_and_merge(void)
{
	rli_gmm *a = NULL, *b = NULL, *merged = NULL;
	flat_row rows[64];
	size_t count = 0;
	rli_gmm_key key;

	CHECK_INT(rli_gmm_new(&a), RLI_OK);
	CHECK_INT(rli_gmm_new(&b), RLI_OK);
	CHECK_INT(rli_gmm_new(&merged), RLI_OK);
	/* file a: step 2 then step 1; file b: role "b" and one snapshot file a has too */
	for (int s = 2; s >= 1; s--)
		for (int e = 0; e < 3; e++) {
			key = (rli_gmm_key){ rli_gmm_intern(a, "a", 1), 0, s, 0 };
			CHECK_INT(rli_gmm_append_row(a, &key, (uint32_t)e, 10.0 * s + e), RLI_OK);
			rows[count++] = (flat_row){ "a", 0, s, 0, e, 10.0 * s + e };
		}
	for (int e = 2; e >= 0; e--) {
		key = (rli_gmm_key){ rli_gmm_intern(b, "b", 1), 0, 1, 0 };
		CHECK_INT(rli_gmm_append_row(b, &key, (uint32_t)e, e), RLI_OK);
		rows[count++] = (flat_row){ "b", 0, 1, 0, e, e };
		key = (rli_gmm_key){ rli_gmm_intern(b, "a", 1), 0, 1, 0 };
		CHECK_INT(rli_gmm_append_row(b, &key, (uint32_t)e, 100 - e), RLI_OK);
		rows[count++] = (flat_row){ "a", 0, 1, 0, e, 100 - e };
	}
	CHECK_INT(rli_gmm_append_all(merged, a), RLI_OK);
	CHECK_INT(rli_gmm_append_all(merged, b), RLI_OK);
	CHECK_INT(rli_gmm_finish(merged), RLI_OK);
	check_table(merged, rows, count);
	/* "a" step 1 stage 0 came from both files: one snapshot of six rows, two per expert */
	CHECK_INT(merged->snapshots[0].count, 6);
	rli_gmm_free(a);
	rli_gmm_free(b);
	rli_gmm_free(merged);
}

static void test_empty_and_bounds(void)
{
	rli_gmm *gmm = NULL;
	rli_gmm_row row;
	double *loads = (double *)&row;
	rli_gmm_key key = { 0, 0, 0, 0 };
	CHECK_INT(rli_gmm_new(&gmm), RLI_OK);
	key.role = rli_gmm_intern(gmm, "r", 1);
	CHECK_INT(rli_gmm_add_snapshot(gmm, &key, 0, &loads), RLI_OK);
	CHECK(loads == NULL);
	CHECK_INT(rli_gmm_add_snapshot(gmm, &key, RLI_GMM_MAX_EXPERTS + 1, &loads), RLI_EUSAGE);
	CHECK_INT(rli_gmm_finish(gmm), RLI_OK);
	CHECK_INT(rli_gmm_count(gmm), 0);
	CHECK_INT(gmm->snapshot_count, 0);
	CHECK_INT(gmm->experts, 0);
	CHECK_INT(rli_gmm_get(&row, gmm, 0), RLI_EUSAGE);
	rli_gmm_free(gmm);
	rli_gmm_free(NULL);
}

int main(void)
{
	test_random_snapshots();
	test_rows_and_merge();
	test_empty_and_bounds();
	if (rli_test_failures)
		fprintf(stderr, "%d check(s) failed\n", rli_test_failures);
	return rli_test_failures ? 1 : 0;
}

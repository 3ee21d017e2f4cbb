/* gmm_table.c: the expert-load table: snapshots of rows, appended as dumps are read, then put in the reference's order. */
#include "gmm_table.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rli_gmm_new(rli_gmm **out)
{
	rli_gmm *gmm = calloc(1, sizeof(*gmm));
	*out = NULL;
	if (!gmm)
		return rli_error_oom();
	rli_strpool_init(&gmm->strings);
	gmm->finished = 1; /* no row is in order */
	*out = gmm;
	return RLI_OK;
}

void rli_gmm_free(rli_gmm *gmm)
{
	if (!gmm)
		return;
	rli_strpool_dispose(&gmm->strings);
	rli_bigmem_free(gmm->expert_index);
	rli_bigmem_free(gmm->load);
	free(gmm->snapshots);
	free(gmm);
}

/*
 * Both columns hold at least `needed` rows; a failure leaves the table as it was. An empty table
 * takes exactly what is asked: a dump's table holds its one snapshot, and 10,000 of them with room
 * for 1,024 rows each would hold 120 MB for 30 MB of rows.
 */
static int grow_rows(rli_gmm *gmm, size_t needed)
{
	size_t experts = gmm->capacity, loads = gmm->capacity, first = gmm->capacity ? 1024 : needed;
	if (needed <= gmm->capacity)
		return RLI_OK;
	if (RLI_GROW_BIG(&gmm->expert_index, &experts, needed, first) < 0 ||
	    RLI_GROW_BIG(&gmm->load, &loads, needed, first) < 0)
		return RLI_ERROR;
	gmm->capacity = experts < loads ? experts : loads;
	return RLI_OK;
}

int rli_gmm_reserve(rli_gmm *gmm, size_t rows)
{
	if (rows > SIZE_MAX - gmm->count)
		return rli_error_oom();
	return grow_rows(gmm, gmm->count + rows);
}

static rli_gmm_snapshot *new_snapshot(rli_gmm *gmm, const rli_gmm_key *key)
{
	rli_gmm_snapshot *snapshot;
	if (RLI_GROW(&gmm->snapshots, &gmm->snapshot_capacity, gmm->snapshot_count + 1, 4) < 0)
		return NULL;
	snapshot = &gmm->snapshots[gmm->snapshot_count++];
	snapshot->role = key->role;
	snapshot->rank_id = key->rank_id;
	snapshot->step = key->step;
	snapshot->stage = key->stage;
	snapshot->first = gmm->count;
	snapshot->count = 0;
	gmm->finished = 0;
	return snapshot;
}

int rli_gmm_add_snapshot(rli_gmm *gmm, const rli_gmm_key *key, size_t count, double **loads)
{
	rli_gmm_snapshot *snapshot;
	*loads = NULL;
	if (count == 0)
		return RLI_OK;
	if (count > RLI_GMM_MAX_EXPERTS)
		return rli_error_set(RLI_EUSAGE, "a snapshot of %zu experts: at most %zu", count, RLI_GMM_MAX_EXPERTS);
	if (rli_gmm_reserve(gmm, count) < 0 || !(snapshot = new_snapshot(gmm, key)))
		return RLI_ERROR;
	for (size_t i = 0; i < count; i++)
		gmm->expert_index[gmm->count + i] = (uint32_t)i;
	snapshot->count = count;
	*loads = gmm->load + gmm->count;
	gmm->count += count;
	return RLI_OK;
}

static int same_key(const rli_gmm_snapshot *snapshot, const rli_gmm_key *key)
{
	return snapshot->role == key->role && snapshot->rank_id == key->rank_id && snapshot->step == key->step &&
	       snapshot->stage == key->stage;
}

int rli_gmm_append_row(rli_gmm *gmm, const rli_gmm_key *key, uint32_t expert_index, double load)
{
	rli_gmm_snapshot *last = gmm->snapshot_count ? &gmm->snapshots[gmm->snapshot_count - 1] : NULL;
	if (rli_gmm_reserve(gmm, 1) < 0)
		return RLI_ERROR;
	if (!last || !same_key(last, key) || last->first + last->count != gmm->count) {
		if (!(last = new_snapshot(gmm, key)))
			return RLI_ERROR;
	}
	gmm->expert_index[gmm->count] = expert_index;
	gmm->load[gmm->count] = load;
	gmm->count++;
	last->count++;
	gmm->finished = 0;
	return RLI_OK;
}

void rli_gmm_truncate(rli_gmm *gmm, size_t snapshots, size_t rows)
{
	if (snapshots >= gmm->snapshot_count && rows >= gmm->count)
		return;
	if (snapshots < gmm->snapshot_count)
		gmm->snapshot_count = snapshots;
	if (rows < gmm->count)
		gmm->count = rows;
	/* The last snapshot kept may have grown (a table's rows join it while their key is the same). */
	if (gmm->snapshot_count) {
		rli_gmm_snapshot *last = &gmm->snapshots[gmm->snapshot_count - 1];
		if (last->first + last->count > gmm->count)
			last->count = gmm->count - last->first;
	}
	gmm->finished = 0;
}

uint32_t *rli_gmm_remap(rli_gmm *dst, const rli_gmm *src)
{
	return rli_strpool_intern_all(&dst->strings, &src->strings);
}

int rli_gmm_append_snapshots(rli_gmm *dst, const rli_gmm *src, const uint32_t *remap, size_t from, size_t to)
{
	size_t rows = 0;
	for (size_t k = from; k < to; k++)
		rows += src->snapshots[k].count;
	if (rli_gmm_reserve(dst, rows) < 0 ||
	    RLI_GROW(&dst->snapshots, &dst->snapshot_capacity, dst->snapshot_count + (to - from), 8) < 0)
		return RLI_ERROR;
	for (size_t k = from; k < to; k++) {
		const rli_gmm_snapshot *from_snapshot = &src->snapshots[k];
		rli_gmm_snapshot *snapshot = &dst->snapshots[dst->snapshot_count++];
		*snapshot = *from_snapshot;
		snapshot->role = remap[from_snapshot->role];
		snapshot->first = dst->count;
		memcpy(dst->expert_index + dst->count, src->expert_index + from_snapshot->first,
		       from_snapshot->count * sizeof(*src->expert_index));
		memcpy(dst->load + dst->count, src->load + from_snapshot->first, from_snapshot->count * sizeof(*src->load));
		dst->count += from_snapshot->count;
	}
	dst->finished = 0;
	return RLI_OK;
}

int rli_gmm_append_all(rli_gmm *dst, const rli_gmm *src)
{
	uint32_t *remap;
	int error;
	if (src->snapshot_count == 0)
		return RLI_OK;
	if (!(remap = rli_gmm_remap(dst, src)))
		return RLI_ERROR;
	error = rli_gmm_append_snapshots(dst, src, remap, 0, src->snapshot_count);
	free(remap);
	return error;
}

/* ---- table order ---------------------------------------------------------------- */

/* Loads ascending, NaN last (pandas sorts so); -0 and 0 tie. */
static int compare_load(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

typedef struct {
	uint32_t expert;
	double load;
} row_pair;

static int compare_rows(const void *pa, const void *pb)
{
	const row_pair *a = pa, *b = pb;
	if (a->expert != b->expert)
		return a->expert < b->expert ? -1 : 1;
	return compare_load(a->load, b->load);
}

/* What qsort compares snapshots with: the roles' places in code-point order, and where each came from. */
typedef struct {
	const rli_gmm_snapshot *snapshot;
	uint32_t role_rank;
	size_t position; /* its index before the sort: equal keys stay in the order they came */
} sort_item;

static int compare_items(const void *pa, const void *pb)
{
	const sort_item *a = pa, *b = pb;
	const rli_gmm_snapshot *x = a->snapshot, *y = b->snapshot;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	if (a->role_rank != b->role_rank)
		return a->role_rank < b->role_rank ? -1 : 1;
	if (x->rank_id != y->rank_id)
		return x->rank_id < y->rank_id ? -1 : 1;
	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	return (a->position > b->position) - (a->position < b->position);
}

/* Rows [first, first + count) already by expert, then load. */
static int rows_in_order(const rli_gmm *gmm, size_t first, size_t count)
{
	for (size_t i = first + 1; i < first + count; i++) {
		uint32_t e = gmm->expert_index[i - 1], f = gmm->expert_index[i];
		if (e > f || (e == f && compare_load(gmm->load[i - 1], gmm->load[i]) > 0))
			return 0;
	}
	return 1;
}

/* Already in table order: snapshots distinct, ascending and back to back from row 0, rows in order inside. */
static int in_order(const rli_gmm *gmm, const sort_item *items)
{
	size_t next = 0;
	for (size_t k = 0; k < gmm->snapshot_count; k++) {
		const rli_gmm_snapshot *snapshot = items[k].snapshot;
		if (snapshot->first != next || snapshot->count == 0 || !rows_in_order(gmm, snapshot->first, snapshot->count))
			return 0;
		if (k && compare_items(&items[k - 1], &items[k]) >= 0)
			return 0;
		if (k && items[k - 1].snapshot->step == snapshot->step && items[k - 1].role_rank == items[k].role_rank &&
		    items[k - 1].snapshot->rank_id == snapshot->rank_id && items[k - 1].snapshot->stage == snapshot->stage)
			return 0; /* two of one key: to be merged */
		next += snapshot->count;
	}
	return next == gmm->count;
}

static int same_snapshot(const sort_item *a, const sort_item *b)
{
	return a->snapshot->step == b->snapshot->step && a->role_rank == b->role_rank &&
	       a->snapshot->rank_id == b->snapshot->rank_id && a->snapshot->stage == b->snapshot->stage;
}

/* The roles' places in code-point (byte) order, by id. NULL when out of memory. */
static uint32_t *role_ranks(const rli_gmm *gmm)
{
	uint32_t n = gmm->strings.count, *ids = malloc((n ? n : 1) * sizeof(*ids)), *ranks = malloc((n ? n : 1) * sizeof(*ranks));
	for (uint32_t i = 0; ids && i < n; i++)
		ids[i] = i;
	if (!ids || !ranks || rli_strpool_sort_ids(&gmm->strings, ids, n) < 0) {
		free(ids);
		free(ranks);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		ranks[ids[i]] = i;
	free(ids);
	return ranks;
}

/*
 * Copies the rows of the snapshots items[from, to) (one key) into the new columns at *at, in
 * order: one file's rows as they are, several files' interleaved by expert. RLI_OK or RLI_ERROR.
 */
static int place_group(const rli_gmm *gmm, const sort_item *items, size_t from, size_t to, uint32_t *experts,
		       double *loads, size_t *at)
{
	size_t rows = 0, k = 0;
	row_pair *pairs;
	for (size_t i = from; i < to; i++)
		rows += items[i].snapshot->count;
	if (to - from == 1 && rows_in_order(gmm, items[from].snapshot->first, rows)) {
		memcpy(experts + *at, gmm->expert_index + items[from].snapshot->first, rows * sizeof(*experts));
		memcpy(loads + *at, gmm->load + items[from].snapshot->first, rows * sizeof(*loads));
		*at += rows;
		return RLI_OK;
	}
	if (!(pairs = malloc((rows ? rows : 1) * sizeof(*pairs))))
		return rli_error_oom();
	for (size_t i = from; i < to; i++)
		for (size_t r = items[i].snapshot->first; r < items[i].snapshot->first + items[i].snapshot->count; r++)
			pairs[k++] = (row_pair){ gmm->expert_index[r], gmm->load[r] };
	qsort(pairs, rows, sizeof(*pairs), compare_rows);
	for (size_t r = 0; r < rows; r++) {
		experts[*at + r] = pairs[r].expert;
		loads[*at + r] = pairs[r].load;
	}
	*at += rows;
	free(pairs);
	return RLI_OK;
}

static void count_experts(rli_gmm *gmm)
{
	uint32_t most = 0;
	for (size_t i = 0; i < gmm->count; i++)
		if (gmm->expert_index[i] + 1 > most)
			most = gmm->expert_index[i] + 1;
	gmm->experts = most;
}

int rli_gmm_finish(rli_gmm *gmm)
{
	size_t n = gmm->snapshot_count, kept = 0, at = 0;
	sort_item *items = NULL;
	rli_gmm_snapshot *snapshots = NULL;
	uint32_t *ranks = NULL, *experts = NULL;
	double *loads = NULL;
	int error = RLI_OK;

	if (gmm->finished)
		return RLI_OK;
	/* Empty snapshots (none is ever made, but a table read back could end one so) are dropped first. */
	for (size_t k = 0; k < n; k++)
		if (gmm->snapshots[k].count)
			gmm->snapshots[kept++] = gmm->snapshots[k];
	gmm->snapshot_count = n = kept;
	if (!(ranks = role_ranks(gmm)) || !(items = malloc((n ? n : 1) * sizeof(*items)))) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t k = 0; k < n; k++)
		items[k] = (sort_item){ &gmm->snapshots[k], ranks[gmm->snapshots[k].role], k };
	qsort(items, n, sizeof(*items), compare_items);
	if (!(snapshots = malloc((n ? n : 1) * sizeof(*snapshots)))) {
		error = rli_error_oom();
		goto done;
	}
	if (in_order(gmm, items)) {
		/* What dumps read in order and every table --export wrote give: no row to move. */
		for (size_t k = 0; k < n; k++)
			snapshots[k] = *items[k].snapshot;
		free(gmm->snapshots);
		gmm->snapshots = snapshots;
		gmm->snapshot_capacity = n;
		snapshots = NULL;
		goto counted;
	}
	if (!(experts = rli_bigmem_array(gmm->count, sizeof(*experts))) ||
	    !(loads = rli_bigmem_array(gmm->count, sizeof(*loads)))) {
		error = rli_error_oom();
		goto done;
	}
	kept = 0;
	for (size_t from = 0, to; from < n; from = to) {
		for (to = from + 1; to < n && same_snapshot(&items[from], &items[to]); to++)
			;
		snapshots[kept] = *items[from].snapshot;
		snapshots[kept].first = at;
		if ((error = place_group(gmm, items, from, to, experts, loads, &at)) < 0)
			goto done;
		snapshots[kept].count = at - snapshots[kept].first;
		kept++;
	}
	free(gmm->snapshots);
	rli_bigmem_free(gmm->expert_index);
	rli_bigmem_free(gmm->load);
	gmm->snapshots = snapshots;
	gmm->snapshot_count = gmm->snapshot_capacity = kept;
	gmm->expert_index = experts;
	gmm->load = loads;
	gmm->capacity = gmm->count;
	snapshots = NULL;
	experts = NULL;
	loads = NULL;
counted:
	if (error == RLI_OK) {
		count_experts(gmm);
		gmm->finished = 1;
	}
done:
	free(items);
	free(ranks);
	free(snapshots);
	rli_bigmem_free(experts);
	rli_bigmem_free(loads);
	return error;
}

size_t rli_gmm_snapshot_of(const rli_gmm *gmm, size_t row)
{
	size_t lo = 0, hi = gmm->snapshot_count;
	/* The last snapshot whose first row is at most row. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (gmm->snapshots[mid].first <= row)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* ---- the public reading ---------------------------------------------------------- */

size_t rli_gmm_count(const rli_gmm *gmm)
{
	return gmm ? gmm->count : 0;
}

int rli_gmm_get(rli_gmm_row *out, const rli_gmm *gmm, size_t index)
{
	const rli_gmm_snapshot *snapshot;
	if (!gmm || index >= gmm->count || !gmm->finished)
		return rli_error_set(RLI_EUSAGE, "no row %zu in a GMM table of %zu rows", index, gmm ? gmm->count : 0);
	snapshot = &gmm->snapshots[rli_gmm_snapshot_of(gmm, index)];
	out->role = rli_gmm_role(gmm, snapshot);
	out->rank_id = snapshot->rank_id;
	out->step = snapshot->step;
	out->stage = snapshot->stage;
	out->expert_index = gmm->expert_index[index];
	out->load = gmm->load[index];
	return RLI_OK;
}

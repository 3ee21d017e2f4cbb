/* history_write.c: a run appended to the history in one transaction (its row and its statistics' rows), and a run deleted. */
#include "history_internal.h"
#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rli_history_run_init(rli_history_run *run)
{
	*run = (rli_history_run){ .summary_bytes = -1, .summary_mtime_ns = -1, .duration_ms = NAN, .step_ms = NAN };
}

void rli_history_run_dispose(rli_history_run *run)
{
	free(run->captured_at);
	free(run->analysed_at);
	free(run->input);
	free(run->profiler);
	free(run->tool_version);
	free(run->label);
	free(run->family);
	free(run->source);
	free(run->output);
	rli_history_run_init(run);
}

void rli_history_runs_free(rli_history_run *runs, size_t count)
{
	for (size_t i = 0; i < count; i++)
		rli_history_run_dispose(&runs[i]);
	free(runs);
}

static const char insert_run[] =
	"INSERT INTO runs (captured_at, analysed_at, input, profiler, tool_version, label, ranks, roles, max_steps,"
	" duration_ms, step_ms, family, source, output, summary_bytes, summary_mtime_ns)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)";

static int bind_run(sqlite3_stmt *s, const rli_history_run *run)
{
	int rc = rli_history_bind_text(s, 1, run->captured_at);
	rc = rc ? rc : rli_history_bind_text(s, 2, run->analysed_at ? run->analysed_at : "");
	rc = rc ? rc : rli_history_bind_text(s, 3, run->input ? run->input : "");
	rc = rc ? rc : rli_history_bind_text(s, 4, run->profiler ? run->profiler : "");
	rc = rc ? rc : rli_history_bind_text(s, 5, run->tool_version ? run->tool_version : RLI_VERSION);
	rc = rc ? rc : rli_history_bind_text(s, 6, run->label);
	rc = rc ? rc : sqlite3_bind_int64(s, 7, run->ranks);
	rc = rc ? rc : sqlite3_bind_int64(s, 8, run->roles);
	rc = rc ? rc : sqlite3_bind_int64(s, 9, run->max_steps);
	rc = rc ? rc : rli_history_bind_real(s, 10, run->duration_ms);
	rc = rc ? rc : rli_history_bind_real(s, 11, run->step_ms);
	rc = rc ? rc : rli_history_bind_text(s, 12, run->family ? run->family : "");
	rc = rc ? rc : rli_history_bind_text(s, 13, run->source ? run->source : "run");
	rc = rc ? rc : rli_history_bind_text(s, 14, run->output);
	rc = rc ? rc : run->summary_bytes >= 0 ? sqlite3_bind_int64(s, 15, run->summary_bytes) : sqlite3_bind_null(s, 15);
	rc = rc ? rc : run->summary_mtime_ns >= 0 ? sqlite3_bind_int64(s, 16, run->summary_mtime_ns) : sqlite3_bind_null(s, 16);
	return rc;
}

/* Runs a prepared statement once to its end and makes it ready for the next binding. */
static int step_once(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int insert_phases(sqlite3 *db, int64_t id, const rli_compare_side *side)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, "INSERT INTO phases VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &s, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < side->phase_count; i++) {
		const rli_side_phase *p = &side->phases[i];
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, p->role, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, p->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 4, (sqlite3_int64)p->sample.count);
		rli_history_bind_real(s, 5, p->sample.total_ms);
		rli_history_bind_real(s, 6, p->sample.mean_ms);
		rli_history_bind_real(s, 7, p->sample.median_ms);
		rli_history_bind_real(s, 8, p->sample.q1_ms);
		rli_history_bind_real(s, 9, p->sample.q3_ms);
		rli_history_bind_real(s, 10, p->sample.p95_ms);
		rc = step_once(s);
	}
	sqlite3_finalize(s);
	return rc;
}

static int insert_roles(sqlite3 *db, int64_t id, const rli_compare_side *side)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, "INSERT INTO roles VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1, &s, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < side->role_count; i++) {
		const rli_side_role *r = &side->roles[i];
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, r->role, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 3, (sqlite3_int64)r->rank_count);
		sqlite3_bind_int64(s, 4, (sqlite3_int64)r->steps);
		rli_history_bind_real(s, 5, r->step_ms);
		if (r->has_straggler)
			sqlite3_bind_int64(s, 6, r->straggler_rank);
		else
			sqlite3_bind_null(s, 6);
		rc = step_once(s);
	}
	sqlite3_finalize(s);
	return rc;
}

static double slowdown(const rli_side_step *k)
{
	return k->median_ms > 0 ? k->slowest_ms / k->median_ms - 1 : 0;
}

static int descending(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a < b) - (a > b);
}

/*
 * The slowdown a role's step (side->steps[first .. first + count)) must reach to be among the
 * RLI_HISTORY_MAX_STEPS largest of its role: -inf when the role has no more steps than that.
 */
static int slowdown_cut(const rli_compare_side *side, size_t first, size_t count, double *cut)
{
	double *values;
	*cut = -INFINITY;
	if (count <= RLI_HISTORY_MAX_STEPS)
		return SQLITE_OK;
	if (!(values = malloc(count * sizeof(*values))))
		return SQLITE_NOMEM;
	for (size_t i = 0; i < count; i++)
		values[i] = slowdown(&side->steps[first + i]);
	qsort(values, count, sizeof(*values), descending);
	*cut = values[RLI_HISTORY_MAX_STEPS - 1];
	free(values);
	return SQLITE_OK;
}

static int insert_steps(sqlite3 *db, int64_t id, const rli_compare_side *side)
{
	sqlite3_stmt *s = NULL;
	size_t kept_in_role = 0;
	int rc = sqlite3_prepare_v2(db, "INSERT INTO steps VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &s, NULL);
	for (size_t first = 0, next; rc == SQLITE_OK && first < side->step_count; first = next) {
		double cut;
		for (next = first + 1; next < side->step_count && strcmp(side->steps[next].role, side->steps[first].role) == 0;)
			next++;
		if ((rc = slowdown_cut(side, first, next - first, &cut)) != SQLITE_OK)
			break;
		kept_in_role = 0;
		for (size_t i = first; rc == SQLITE_OK && i < next; i++) {
			const rli_side_step *k = &side->steps[i];
			/* ties at the cut: the first of them, up to the bound */
			if (slowdown(k) < cut || kept_in_role == RLI_HISTORY_MAX_STEPS)
				continue;
			kept_in_role++;
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_text(s, 2, k->role, -1, SQLITE_STATIC);
			sqlite3_bind_int64(s, 3, (sqlite3_int64)k->step);
			sqlite3_bind_int64(s, 4, (sqlite3_int64)k->ranks);
			rli_history_bind_real(s, 5, k->median_ms);
			sqlite3_bind_int64(s, 6, k->slowest_rank);
			rli_history_bind_real(s, 7, k->slowest_ms);
			rc = step_once(s);
		}
	}
	sqlite3_finalize(s);
	return rc;
}

static int insert_devices(sqlite3 *db, int64_t id, const rli_compare_side *side)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, "INSERT INTO memory_peaks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", -1, &s, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < side->device_count; i++) {
		const rli_side_device *d = &side->devices[i];
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, d->role, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 3, d->rank);
		sqlite3_bind_text(s, 4, d->device_type, -1, SQLITE_STATIC);
		rli_history_bind_real(s, 5, d->peak_mb);
		rli_history_bind_real(s, 6, d->peak_ms);
		rli_history_bind_real(s, 7, d->allocated_kb);
		sqlite3_bind_int64(s, 8, (sqlite3_int64)d->allocations);
		rli_history_bind_real(s, 9, d->never_freed_kb);
		rc = step_once(s);
	}
	sqlite3_finalize(s);
	return rc;
}

static int insert_experts(sqlite3 *db, int64_t id, const rli_history_expert *experts, size_t count)
{
	sqlite3_stmt *s = NULL;
	int rc = count ? sqlite3_prepare_v2(db, "INSERT INTO expert_imbalance VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1,
					    &s, NULL)
		       : SQLITE_OK;
	for (size_t i = 0; rc == SQLITE_OK && i < count; i++) {
		const rli_history_expert *e = &experts[i];
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, e->step);
		sqlite3_bind_text(s, 3, e->role ? e->role : "", -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 4, e->layer);
		rli_history_bind_real(s, 5, e->imbalance);
		rli_history_bind_real(s, 6, e->max_load);
		rli_history_bind_real(s, 7, e->mean_load);
		sqlite3_bind_int64(s, 8, e->hottest);
		rc = step_once(s);
	}
	sqlite3_finalize(s);
	return rc;
}

int rli_history_append(rli_history *h, rli_history_run *run, const rli_compare_side *side,
		       const rli_history_expert *experts, size_t expert_count)
{
	static const char doing[] = "add this run to";
	sqlite3_stmt *s = NULL;
	int64_t id = 0;
	int rc, error;

	if (h->read_only)
		return rli_error_set(RLI_EOUTPUT, "cannot %s the history %s: it is read-only", doing, h->path);
	/* IMMEDIATE: the write lock first, so two runs never both read and then find they cannot write. */
	if ((error = rli_history_exec(h, "BEGIN IMMEDIATE", doing)) < 0)
		return error;
	rc = sqlite3_prepare_v2(h->db, insert_run, -1, &s, NULL);
	if (rc == SQLITE_OK && (rc = bind_run(s, run)) == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_DONE) {
		rc = SQLITE_OK;
		id = sqlite3_last_insert_rowid(h->db);
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_OK)
		rc = insert_phases(h->db, id, side);
	if (rc == SQLITE_OK)
		rc = insert_roles(h->db, id, side);
	if (rc == SQLITE_OK)
		rc = insert_steps(h->db, id, side);
	if (rc == SQLITE_OK)
		rc = insert_devices(h->db, id, side);
	if (rc == SQLITE_OK)
		rc = insert_experts(h->db, id, experts, expert_count);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		error = rli_history_fail(h, rc, doing);
		/* Nothing of the run stays: the row and its statistics go back together. */
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return error;
	}
	run->id = id;
	return RLI_OK;
}

int rli_history_delete(rli_history *h, int64_t id)
{
	static const char *const tables[] = { "phases", "roles", "steps", "memory_peaks", "expert_imbalance" };
	static const char doing[] = "delete a run from";
	sqlite3_stmt *s = NULL;
	char sql[96];
	int rc, error, changed = 0;

	if (h->read_only)
		return rli_error_set(RLI_EOUTPUT, "cannot %s the history %s: it is read-only", doing, h->path);
	if ((error = rli_history_exec(h, "BEGIN IMMEDIATE", doing)) < 0)
		return error;
	rc = SQLITE_OK;
	for (size_t t = 0; rc == SQLITE_OK && t <= sizeof(tables) / sizeof(tables[0]); t++) {
		int last = t == sizeof(tables) / sizeof(tables[0]);
		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE %s = ?1", last ? "runs" : tables[t], last ? "id" : "run_id");
		if ((rc = sqlite3_prepare_v2(h->db, sql, -1, &s, NULL)) == SQLITE_OK) {
			sqlite3_bind_int64(s, 1, id);
			rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h->db);
			changed = last ? sqlite3_changes(h->db) : changed;
		}
		sqlite3_finalize(s);
		s = NULL;
	}
	if (rc == SQLITE_OK && !changed) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return rli_error_set(RLI_EUSAGE, "the history %s holds no run %lld", h->path, (long long)id);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		error = rli_history_fail(h, rc, doing);
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return error;
	}
	return RLI_OK;
}

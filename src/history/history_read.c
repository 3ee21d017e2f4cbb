/* history_read.c: runs read back from the history (a series, one run, a run's statistics as a comparison side), and a run's row from a side or a summary.json. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "history_internal.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RUN_COLUMNS                                                                                              \
	"id, captured_at, analysed_at, input, profiler, tool_version, label, family, source, output, summary_bytes," \
	" summary_mtime_ns, ranks, roles, max_steps, duration_ms, step_ms"

static int64_t column_int_or(sqlite3_stmt *s, int column, int64_t none)
{
	return sqlite3_column_type(s, column) == SQLITE_NULL ? none : sqlite3_column_int64(s, column);
}

/* The run of the statement's current row (RUN_COLUMNS); RLI_ERROR when out of memory. */
static int read_run(sqlite3_stmt *s, rli_history_run *run)
{
	int failed = 0;
	rli_history_run_init(run);
	run->id = sqlite3_column_int64(s, 0);
	run->captured_at = rli_history_column_text(s, 1, &failed);
	run->analysed_at = rli_history_column_text(s, 2, &failed);
	run->input = rli_history_column_text(s, 3, &failed);
	run->profiler = rli_history_column_text(s, 4, &failed);
	run->tool_version = rli_history_column_text(s, 5, &failed);
	run->label = rli_history_column_text(s, 6, &failed);
	run->family = rli_history_column_text(s, 7, &failed);
	run->source = rli_history_column_text(s, 8, &failed);
	run->output = rli_history_column_text(s, 9, &failed);
	run->summary_bytes = column_int_or(s, 10, -1);
	run->summary_mtime_ns = column_int_or(s, 11, -1);
	run->ranks = column_int_or(s, 12, 0);
	run->roles = column_int_or(s, 13, 0);
	run->max_steps = column_int_or(s, 14, 0);
	run->duration_ms = rli_history_column_real(s, 15);
	run->step_ms = rli_history_column_real(s, 16);
	if (failed) {
		rli_history_run_dispose(run);
		return rli_error_oom();
	}
	return RLI_OK;
}

int rli_history_runs(rli_history *h, const rli_history_filter *filter, rli_history_run **out, size_t *count)
{
	static const char sql[] = "SELECT " RUN_COLUMNS " FROM runs WHERE (?1 IS NULL OR input = ?1) AND"
				  " (?2 IS NULL OR family = ?2) ORDER BY coalesce(captured_at, analysed_at) DESC, id DESC"
				  " LIMIT ?3";
	sqlite3_stmt *s = NULL;
	rli_history_run *runs = NULL;
	size_t n = 0, capacity = 0;
	int rc, error = RLI_OK;

	*out = NULL;
	*count = 0;
	/* A file read as it is, never written: nothing yet, when no run ever made its tables. */
	if (h->found_version == 0 && h->read_only)
		return RLI_OK;
	if ((error = rli_history_prepare(h, &s, sql, "read")) < 0)
		return error;
	rli_history_bind_text(s, 1, filter ? filter->input : NULL);
	rli_history_bind_text(s, 2, filter ? filter->family : NULL);
	sqlite3_bind_int64(s, 3, filter && filter->limit && filter->limit < (size_t)INT64_MAX ? (sqlite3_int64)filter->limit : -1);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == capacity) {
			size_t more = capacity ? 2 * capacity : 16;
			rli_history_run *grown = realloc(runs, more * sizeof(*runs));
			if (!grown) {
				error = rli_error_oom();
				break;
			}
			runs = grown;
			capacity = more;
		}
		if ((error = read_run(s, &runs[n])) < 0)
			break;
		n++;
	}
	if (error == RLI_OK && rc != SQLITE_DONE)
		error = rli_history_fail(h, rc, "read");
	sqlite3_finalize(s);
	if (error < 0) {
		rli_history_runs_free(runs, n);
		return error;
	}
	/* Newest first from the query (the limit keeps the last ones); the caller gets the oldest first. */
	for (size_t i = 0; i < n / 2; i++) {
		rli_history_run t = runs[i];
		runs[i] = runs[n - 1 - i];
		runs[n - 1 - i] = t;
	}
	*out = runs;
	*count = n;
	return RLI_OK;
}

int rli_history_get(rli_history *h, int64_t id, rli_history_run *run)
{
	sqlite3_stmt *s = NULL;
	int rc, error;
	rli_history_run_init(run);
	if (h->found_version == 0 && h->read_only)
		return rli_error_set(RLI_EUSAGE, "the history %s holds no run %lld", h->path, (long long)id);
	if ((error = rli_history_prepare(h, &s, "SELECT " RUN_COLUMNS " FROM runs WHERE id = ?1", "read")) < 0)
		return error;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		error = read_run(s, run);
	else if (rc == SQLITE_DONE)
		error = rli_error_set(RLI_EUSAGE, "the history %s holds no run %lld", h->path, (long long)id);
	else
		error = rli_history_fail(h, rc, "read");
	sqlite3_finalize(s);
	return error;
}

/* Text of a column into the side's pool; NULL when out of memory. */
static const char *side_text(rli_compare_side *side, sqlite3_stmt *s, int column)
{
	const char *text = (const char *)sqlite3_column_text(s, column);
	return rli_side_text(side, text ? text : "", text ? strlen(text) : 0);
}

/* Each row of a query about the run, added to the side by add; rc SQLite's, or SQLITE_NOMEM. */
static int each_row(rli_history *h, rli_compare_side *side, int64_t id, const char *sql,
		    int (*add)(rli_compare_side *side, sqlite3_stmt *s))
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &s, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, id);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW)
			if (!add(side, s)) {
				rc = SQLITE_NOMEM;
				break;
			}
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int add_phase(rli_compare_side *side, sqlite3_stmt *s)
{
	rli_side_phase *p = rli_side_add_phase(side);
	if (!p || !(p->role = side_text(side, s, 0)) || !(p->name = side_text(side, s, 1)))
		return 0;
	p->sample = (rli_side_sample){ (size_t)column_int_or(s, 2, 0), rli_history_column_real(s, 3),
				       rli_history_column_real(s, 4), rli_history_column_real(s, 5),
				       rli_history_column_real(s, 6), rli_history_column_real(s, 7),
				       rli_history_column_real(s, 8) };
	return 1;
}

/* A role's ranks are counted, not listed: its side holds none (rank_count 0), so nothing reads past them. */
static int add_role(rli_compare_side *side, sqlite3_stmt *s)
{
	rli_side_role *r = rli_side_add_role(side);
	if (!r || !(r->role = side_text(side, s, 0)))
		return 0;
	r->steps = (size_t)column_int_or(s, 1, 0);
	r->step_ms = rli_history_column_real(s, 2);
	r->has_straggler = sqlite3_column_type(s, 3) != SQLITE_NULL;
	r->straggler_rank = column_int_or(s, 3, 0);
	return 1;
}

static int add_step(rli_compare_side *side, sqlite3_stmt *s)
{
	rli_side_step *k = rli_side_add_step(side);
	if (!k || !(k->role = side_text(side, s, 0)))
		return 0;
	k->step = (size_t)column_int_or(s, 1, 0);
	k->ranks = (size_t)column_int_or(s, 2, 0);
	k->median_ms = rli_history_column_real(s, 3);
	k->slowest_rank = column_int_or(s, 4, 0);
	k->slowest_ms = rli_history_column_real(s, 5);
	return 1;
}

static int add_device(rli_compare_side *side, sqlite3_stmt *s)
{
	rli_side_device *d = rli_side_add_device(side);
	if (!d || !(d->role = side_text(side, s, 0)) || !(d->device_type = side_text(side, s, 2)))
		return 0;
	d->rank = column_int_or(s, 1, 0);
	d->peak_mb = rli_history_column_real(s, 3);
	d->peak_ms = rli_history_column_real(s, 4);
	d->allocated_kb = rli_history_column_real(s, 5);
	d->allocations = (size_t)column_int_or(s, 6, 0);
	d->never_freed_kb = rli_history_column_real(s, 7);
	return 1;
}

/*
 * A merged MoE layer of a role, its steps' rows summed up as a parsed run's side has it
 * (side_gmm.c): the rows, the mean imbalance of those that have one, the expert hottest in the
 * most steps (the lowest of as many). The rows come by (role, layer), as the side keeps them.
 */
static int add_gmm_layer(rli_compare_side *side, sqlite3_stmt *s)
{
	rli_side_gmm_layer *l = rli_side_add_gmm_layer(side);
	if (!l || !(l->role = side_text(side, s, 0)))
		return 0;
	l->layer = (uint32_t)column_int_or(s, 1, 0);
	l->steps = (size_t)column_int_or(s, 2, 0);
	l->imbalance = rli_history_column_real(s, 3);
	l->cv = NAN;
	l->hottest = (uint32_t)column_int_or(s, 4, 0);
	return 1;
}

int rli_history_side(rli_history *h, const rli_history_run *run, rli_compare_side **out)
{
	rli_compare_side *side = rli_side_new(run->input, run->profiler, RLI_SIDE_SUMMARY);
	int rc = SQLITE_OK, error;

	*out = NULL;
	if (!side)
		return rli_error_oom();
	rc = each_row(h, side, run->id, "SELECT role, name, count, total_ms, mean_ms, median_ms, q1_ms, q3_ms, p95_ms"
				       " FROM phases WHERE run_id = ?1", add_phase);
	if (rc == SQLITE_OK)
		rc = each_row(h, side, run->id, "SELECT role, steps, step_median_ms, straggler_rank FROM roles"
					       " WHERE run_id = ?1", add_role);
	if (rc == SQLITE_OK)
		rc = each_row(h, side, run->id, "SELECT role, step, ranks, median_ms, slowest_rank, slowest_ms FROM steps"
					       " WHERE run_id = ?1", add_step);
	if (rc == SQLITE_OK)
		rc = each_row(h, side, run->id, "SELECT role, rank, device_type, peak_mb, peak_ms, allocated_kb,"
					       " allocations, never_freed_kb FROM memory_peaks WHERE run_id = ?1", add_device);
	if (rc == SQLITE_OK)
		rc = each_row(h, side, run->id, "SELECT role, layer, COUNT(*), AVG(imbalance), (SELECT hottest_expert"
					       " FROM expert_imbalance AS e WHERE e.run_id = x.run_id AND e.role = x.role AND"
					       " e.layer = x.layer GROUP BY hottest_expert ORDER BY COUNT(*) DESC, hottest_expert"
					       " LIMIT 1) FROM expert_imbalance AS x WHERE run_id = ?1 GROUP BY role, layer"
					       " ORDER BY role, layer", add_gmm_layer);
	if (rc != SQLITE_OK) {
		error = rli_history_fail(h, rc, "read");
		rli_compare_side_free(side);
		return error;
	}
	side->has_timeline = side->phase_count > 0 || side->role_count > 0;
	side->has_memory = side->device_count > 0;
	side->step_ms = run->step_ms;
	side->max_steps = run->max_steps > 0 ? (size_t)run->max_steps : 0;
	rli_side_finish(side);
	*out = side;
	return RLI_OK;
}

static int by_rank(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return (a > b) - (a < b);
}

/* The ranks of every role, each once; of the memory devices when there is no timeline. */
static int64_t distinct_ranks(const rli_compare_side *side)
{
	size_t n = side->rank_id_count ? side->rank_id_count : side->device_count, distinct = 0;
	int64_t *ranks = malloc((n ? n : 1) * sizeof(*ranks));
	if (!ranks)
		return 0;
	for (size_t i = 0; i < n; i++)
		ranks[i] = side->rank_id_count ? side->rank_ids[i] : side->devices[i].rank;
	qsort(ranks, n, sizeof(*ranks), by_rank);
	for (size_t i = 0; i < n; i++)
		distinct += i == 0 || ranks[i] != ranks[i - 1];
	free(ranks);
	return (int64_t)distinct;
}

int rli_history_run_from_side(rli_history_run *run, const rli_compare_side *side, const char *label)
{
	char family[256], stamp[32];
	rli_history_run_init(run);
	run->input = rli_strdup(side->input && *side->input ? side->input : side->path);
	run->profiler = rli_strdup(side->profiler);
	run->tool_version = rli_strdup(side->tool_version && *side->tool_version ? side->tool_version : "unknown");
	run->label = label ? rli_strdup(label) : NULL;
	run->family = rli_strdup(rli_history_family(family, sizeof(family), label));
	if (side->has_timeline && rli_is_epoch_ms(side->start_ms))
		run->captured_at = rli_strdup(rli_history_timestamp(stamp, sizeof(stamp), side->start_ms));
	if (!run->input || !run->profiler || !run->tool_version || (label && !run->label) || !run->family ||
	    (side->has_timeline && rli_is_epoch_ms(side->start_ms) && !run->captured_at)) {
		rli_history_run_dispose(run);
		return rli_error_oom();
	}
	run->ranks = distinct_ranks(side);
	run->roles = (int64_t)side->role_count;
	run->max_steps = (int64_t)side->max_steps;
	run->duration_ms = side->has_timeline ? side->end_ms - side->start_ms : NAN;
	run->step_ms = side->step_ms;
	return RLI_OK;
}

int rli_history_read_summary(rli_history_run *run, rli_compare_side **side_out, const char *summary_path,
			     const char *label)
{
	rli_compare_side *side = NULL;
	char stamp[32], *folder = NULL, *slash, *absolute = NULL;
	struct stat st;
	int error;

	rli_history_run_init(run);
	*side_out = NULL;
	if ((error = rli_compare_side_read_summary(&side, summary_path)) < 0)
		return error;
	if ((error = rli_history_run_from_side(run, side, label)) < 0)
		goto done;
	/* When it was analysed: when its summary.json was written; its outputs are the folder beside it. */
	if (stat(summary_path, &st) == 0) {
		double ms = (double)st.st_mtim.tv_sec * 1000 + (double)st.st_mtim.tv_nsec / 1e6;
		run->analysed_at = rli_strdup(rli_history_timestamp(stamp, sizeof(stamp), ms));
		run->summary_bytes = (int64_t)st.st_size;
		run->summary_mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	} else {
		run->analysed_at = rli_strdup(rli_history_timestamp(stamp, sizeof(stamp), 0));
	}
	folder = rli_strdup(summary_path);
	if (folder && (slash = strrchr(folder, '/')) != NULL)
		slash[slash == folder ? 1 : 0] = '\0';
	else if (folder)
		strcpy(folder, ".");
	absolute = folder ? realpath(folder, NULL) : NULL;
	run->output = absolute;
	run->source = rli_strdup("import");
	if (!run->analysed_at || !folder || !run->source) {
		error = rli_error_oom();
		goto done;
	}
done:
	free(folder);
	if (error < 0) {
		rli_history_run_dispose(run);
		rli_compare_side_free(side);
		return error;
	}
	*side_out = side;
	return RLI_OK;
}

int rli_history_experts(rli_history *h, int64_t id, rli_history_expert **out, size_t *count)
{
	sqlite3_stmt *s = NULL;
	rli_history_expert *rows = NULL;
	size_t n = 0, capacity = 0;
	int rc = SQLITE_DONE, error, failed = 0;

	*out = NULL;
	*count = 0;
	if (h->found_version == 0 && h->read_only)
		return RLI_OK;
	if ((error = rli_history_prepare(h, &s, "SELECT step, role, layer, imbalance, max_load, mean_load, hottest_expert"
					 " FROM expert_imbalance WHERE run_id = ?1 ORDER BY role, step, layer", "read")) < 0)
		return error;
	sqlite3_bind_int64(s, 1, id);
	while (!failed && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == capacity) {
			size_t more = capacity ? 2 * capacity : 64;
			rli_history_expert *grown = realloc(rows, more * sizeof(*rows));
			if (!grown) {
				failed = 1;
				break;
			}
			rows = grown;
			capacity = more;
		}
		rows[n] = (rli_history_expert){ sqlite3_column_int64(s, 0), rli_history_column_text(s, 1, &failed),
						(uint32_t)sqlite3_column_int64(s, 2), rli_history_column_real(s, 3),
						rli_history_column_real(s, 4), rli_history_column_real(s, 5),
						(uint32_t)sqlite3_column_int64(s, 6) };
		n++;
	}
	sqlite3_finalize(s);
	if (failed || rc != SQLITE_DONE) {
		rli_history_experts_free(rows, n);
		return failed ? rli_error_oom() : rli_history_fail(h, rc, "read");
	}
	*out = rows;
	*count = n;
	return RLI_OK;
}

void rli_history_experts_free(rli_history_expert *rows, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free((char *)rows[i].role);
	free(rows);
}

int rli_history_find_summary(rli_history *h, const rli_history_run *run, int64_t *id)
{
	sqlite3_stmt *s = NULL;
	int rc, error;
	*id = 0;
	if (!run->output || run->summary_bytes < 0 || (h->found_version == 0 && h->read_only))
		return RLI_OK;
	if ((error = rli_history_prepare(h, &s, "SELECT id FROM runs WHERE output = ?1 AND summary_bytes = ?2 AND"
					 " summary_mtime_ns = ?3 LIMIT 1", "read")) < 0)
		return error;
	rli_history_bind_text(s, 1, run->output);
	sqlite3_bind_int64(s, 2, run->summary_bytes);
	sqlite3_bind_int64(s, 3, run->summary_mtime_ns);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	error = rc == SQLITE_ROW || rc == SQLITE_DONE ? RLI_OK : rli_history_fail(h, rc, "read");
	sqlite3_finalize(s);
	return error;
}

/* test_history.c: the run history's library: a new file, runs appended and read back as they went in, deleted, a version 1 file migrated, files that are not ours or are newer refused untouched, the label family, the verdict and the trend's links. */
#define _XOPEN_SOURCE 700 /* nftw, realpath */
#include "harness.h"
#include "trend_cases.h"
#include "common/atomic_file.h"
#include "common/error.h"

#include <ftw.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

static char work[4096];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) == 0 ? 0 : -1;
}

static const char *path_in(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", work, name);
	return out;
}

static void sql(const char *db_path, const char *text)
{
	sqlite3 *db = NULL;
	char *message = NULL;
	CHECK_INT(sqlite3_open(db_path, &db), SQLITE_OK);
	if (sqlite3_exec(db, text, NULL, NULL, &message) != SQLITE_OK) {
		fprintf(stderr, "sql: %s\n", message ? message : "?");
		rli_test_failures++;
	}
	sqlite3_free(message);
	sqlite3_close(db);
}

static long long sql_int(const char *db_path, const char *text)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	long long value = -1;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, text, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		value = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return value;
}

static int integrity_ok(const char *db_path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	int ok = 0;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		ok = strcmp((const char *)sqlite3_column_text(s, 0), "ok") == 0;
	sqlite3_finalize(s);
	sqlite3_close(db);
	return ok;
}

static void test_family(void)
{
	char out[64];
	CHECK_STR(rli_history_family(out, sizeof(out), "fp8:3f2a9c1"), "fp8");
	CHECK_STR(rli_history_family(out, sizeof(out), "3f2a9c1"), "");
	CHECK_STR(rli_history_family(out, sizeof(out), NULL), "");
	CHECK_STR(rli_history_family(out, sizeof(out), ":x"), "");
	CHECK_STR(rli_history_timestamp(out, sizeof(out), 1773285888801.145), "2026-03-12T03:24:48.801Z");
	CHECK_STR(rli_history_timestamp(out, sizeof(out), 999.9996), "1970-01-01T00:00:01.000Z");
}

/* Appended, listed oldest first, read back as they went in, filtered, deleted. */
static void test_append(void)
{
	char db_path[4200];
	rli_history *h = NULL;
	rli_history_run *runs = NULL;
	size_t count = 0;
	/* night 1 has an expert load: three layers of actor_update in steps 3 and 4 */
	const rli_history_expert experts[] = { { 3, "actor_update", 7, 4.1, 410, 100, 3 }, { 3, "actor_update", 2, NAN, 0, 0, 0 },
					       { 3, "actor_update", 9, 2.5, 250, 100, 2 }, { 4, "actor_update", 7, 3.9, 390, 100, 3 },
					       { 4, "actor_update", 2, 2.0, 200, 100, 5 }, { 4, "actor_update", 9, 1.5, 150, 100, 1 } };
	rli_history_expert *read = NULL;
	size_t read_count = 0;
	path_in(db_path, sizeof(db_path), "runs.db");
	CHECK_INT(rli_history_open(&h, db_path, NULL), RLI_OK);
	if (!h)
		return;
	CHECK_INT(rli_history_found_version(h), 0);
	for (int k = 0; k < 5; k++) {
		rli_history_run run;
		rli_compare_side *side = trend_case_side(k);
		trend_case_run(&run, k, 1);
		free(run.family);
		free(run.label);
		run.label = strdup(k < 3 ? "fp8:abc" : "bf16:def");
		run.family = strdup(k < 3 ? "fp8" : "bf16");
		CHECK_INT(rli_history_append(h, &run, side, k == 1 ? experts : NULL, k == 1 ? 6 : 0), RLI_OK);
		CHECK_INT(run.id, k + 1);
		rli_history_run_dispose(&run);
		rli_compare_side_free(side);
	}
	CHECK_INT(rli_history_runs(h, &(rli_history_filter){ .family = "fp8" }, &runs, &count), RLI_OK);
	CHECK_INT(count, 3);
	if (count == 3) {
		rli_compare_side *side = NULL, *want = trend_case_side(1);
		CHECK_INT(runs[0].id, 1);
		CHECK_INT(runs[2].id, 3);
		CHECK_STR(runs[1].captured_at, "2026-11-02T02:00:00.000Z");
		CHECK_STR(runs[1].label, "fp8:abc");
		CHECK_INT(rli_history_side(h, &runs[1], &side), RLI_OK);
		CHECK_INT(side->phase_count, want->phase_count);
		for (size_t i = 0; i < side->phase_count && i < want->phase_count; i++) {
			CHECK_STR(side->phases[i].name, want->phases[i].name);
			CHECK_NEAR(side->phases[i].sample.median_ms, want->phases[i].sample.median_ms, 0);
			CHECK_NEAR(side->phases[i].sample.q3_ms, want->phases[i].sample.q3_ms, 0);
		}
		CHECK_INT(side->role_count, 3);
		CHECK_INT(side->device_count, 3);
		/* night 1 of the case: rollout's straggler is rank 5 */
		CHECK_STR(side->roles[1].role, "agent_loop_rollout_replica_0");
		CHECK_INT(side->roles[1].has_straggler, 1);
		CHECK_INT(side->roles[1].straggler_rank, 5);
		/*
		 * Its expert load as a parsed run's side has it: a layer each, by layer, its imbalance
		 * the mean of the steps that have one, the expert hottest in the most steps (the lowest
		 * of as many).
		 */
		CHECK_INT(side->has_gmm, 1);
		CHECK_INT(side->gmm_layer_count, 3);
		if (side->gmm_layer_count == 3) {
			const uint32_t layer[] = { 2, 7, 9 }, hottest[] = { 0, 3, 1 };
			const double imbalance[] = { 2.0, 4.0, 2.0 };
			for (size_t i = 0; i < 3; i++) {
				CHECK_STR(side->gmm_layers[i].role, "actor_update");
				CHECK_INT(side->gmm_layers[i].layer, layer[i]);
				CHECK_INT(side->gmm_layers[i].steps, 2);
				CHECK_NEAR(side->gmm_layers[i].imbalance, imbalance[i], 1e-12);
				CHECK_INT(side->gmm_layers[i].hottest, hottest[i]);
			}
		}
		rli_compare_side_free(side);
		CHECK_INT(rli_history_side(h, &runs[0], &side), RLI_OK);
		CHECK_INT(side ? side->gmm_layer_count : 1, 0);
		CHECK_INT(side ? side->has_gmm : 1, 0);
		rli_compare_side_free(side);
		rli_compare_side_free(want);
	}
	rli_history_runs_free(runs, count);
	/* The experts back as they went in, by (role, step, layer); a NAN imbalance as SQL NULL and back. */
	CHECK_INT(rli_history_experts(h, 2, &read, &read_count), RLI_OK);
	CHECK_INT(read_count, 6);
	if (read_count == 6) {
		CHECK_INT(read[0].layer, 2);
		CHECK(isnan(read[0].imbalance));
		CHECK_STR(read[1].role, "actor_update");
		CHECK_NEAR(read[1].imbalance, 4.1, 0);
		CHECK_INT(read[1].hottest, 3);
	}
	rli_history_experts_free(read, read_count);
	CHECK_INT(rli_history_experts(h, 1, &read, &read_count), RLI_OK);
	CHECK_INT(read_count, 0);
	CHECK_INT(rli_history_runs(h, &(rli_history_filter){ .limit = 2 }, &runs, &count), RLI_OK);
	CHECK_INT(count, 2);
	CHECK_INT(count == 2 ? runs[0].id : 0, 4);
	rli_history_runs_free(runs, count);
	CHECK_INT(rli_history_delete(h, 2), RLI_OK);
	CHECK_INT(rli_history_delete(h, 2), RLI_EUSAGE);
	CHECK(strstr(rli_error_last(), "no run 2") != NULL);
	CHECK_STR(rli_history_journal_mode(h), "wal");
	rli_history_close(h);
	CHECK_INT(sql_int(db_path, "SELECT count(*) FROM runs"), 4);
	CHECK_INT(sql_int(db_path, "SELECT count(*) FROM phases WHERE run_id = 2"), 0);
	CHECK_INT(sql_int(db_path, "SELECT count(*) FROM memory_peaks WHERE run_id = 3"), 3);
	/* run 2 was deleted, its experts with it */
	CHECK_INT(sql_int(db_path, "SELECT count(*) FROM expert_imbalance"), 0);
	CHECK_INT(sql_int(db_path, "PRAGMA user_version"), RLI_HISTORY_SCHEMA);
	CHECK_INT(sql_int(db_path, "PRAGMA application_id"), RLI_HISTORY_APPLICATION_ID);
}

/* Version 1 as doc/history.md describes it, made here, brought forward on open with its rows. */
static void test_migration(void)
{
	char db_path[4200];
	rli_history *h = NULL;
	rli_history_run *runs = NULL;
	size_t count = 0;
	path_in(db_path, sizeof(db_path), "v1.db");
	sql(db_path, "CREATE TABLE runs (id INTEGER PRIMARY KEY, captured_at TEXT, analysed_at TEXT NOT NULL, input TEXT NOT NULL,"
		     " profiler TEXT NOT NULL, tool_version TEXT NOT NULL, label TEXT, ranks INTEGER, roles INTEGER,"
		     " max_steps INTEGER, duration_ms REAL, step_ms REAL);"
		     "CREATE TABLE phases (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, role TEXT NOT NULL,"
		     " name TEXT NOT NULL, count INTEGER NOT NULL, total_ms REAL, mean_ms REAL, median_ms REAL, q1_ms REAL,"
		     " q3_ms REAL, p95_ms REAL, PRIMARY KEY (run_id, role, name));"
		     "CREATE TABLE roles (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, role TEXT NOT NULL,"
		     " ranks INTEGER NOT NULL, steps INTEGER NOT NULL, step_median_ms REAL, straggler_rank INTEGER,"
		     " PRIMARY KEY (run_id, role));"
		     "CREATE TABLE steps (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, role TEXT NOT NULL,"
		     " step INTEGER NOT NULL, ranks INTEGER NOT NULL, median_ms REAL, slowest_rank INTEGER, slowest_ms REAL,"
		     " PRIMARY KEY (run_id, role, step));"
		     "CREATE TABLE memory_peaks (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
		     " role TEXT NOT NULL, rank INTEGER NOT NULL, device_type TEXT NOT NULL, peak_mb REAL, peak_ms REAL,"
		     " allocated_kb REAL, allocations INTEGER, never_freed_kb REAL, PRIMARY KEY (run_id, role, rank, device_type));"
		     "INSERT INTO runs VALUES (1, NULL, '2026-10-01T00:00:00.000Z', 'prof', 'mstx', '0.0.9', 'fp8:abc', 8, 2, 3, 100, 30);"
		     "INSERT INTO runs VALUES (2, NULL, '2026-10-02T00:00:00.000Z', 'prof', 'mstx', '0.0.9', 'abc', 8, 2, 3, 100, 30);"
		     "INSERT INTO phases VALUES (1, 'actor_update', 'update_actor', 24, 1, 1, 14200, 14000, 14500, 15000);"
		     "PRAGMA user_version = 1;");
	CHECK_INT(rli_history_open(&h, db_path, NULL), RLI_OK);
	if (!h)
		return;
	CHECK_INT(rli_history_found_version(h), 1);
	CHECK_INT(rli_history_runs(h, NULL, &runs, &count), RLI_OK);
	CHECK_INT(count, 2);
	if (count == 2) {
		CHECK_STR(runs[0].family, "fp8");
		CHECK_STR(runs[1].family, "");
		CHECK_STR(runs[0].source, "run");
		CHECK(runs[0].output == NULL);
	}
	rli_history_runs_free(runs, count);
	rli_history_close(h);
	CHECK_INT(sql_int(db_path, "PRAGMA user_version"), RLI_HISTORY_SCHEMA);
	CHECK_INT(sql_int(db_path, "SELECT count(*) FROM expert_imbalance"), 0);
	CHECK_INT(sql_int(db_path, "SELECT count(*) FROM phases"), 1);
	CHECK(integrity_ok(db_path));
}

/* Files that are not ours, or newer, are refused, and not a byte of them changes. */
static void test_refusals(void)
{
	static const struct {
		const char *name, *sql, *words;
	} cases[] = {
		{ "future.db", "CREATE TABLE runs (id INTEGER); PRAGMA user_version = 9;", "newer rl-insight" },
		{ "other.db", "CREATE TABLE people (name TEXT);", "tables of its own" },
		{ "app.db", "PRAGMA application_id = 1234; CREATE TABLE t (a);", "another program" },
	};
	char db_path[4200];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rli_history *h = NULL;
		struct stat before, after;
		path_in(db_path, sizeof(db_path), cases[i].name);
		sql(db_path, cases[i].sql);
		CHECK_INT(stat(db_path, &before), 0);
		CHECK_INT(rli_history_open(&h, db_path, NULL), RLI_EINVALID);
		CHECK(strstr(rli_error_last(), cases[i].words) != NULL);
		CHECK(strstr(rli_error_last(), "left as it is") != NULL);
		CHECK_INT(stat(db_path, &after), 0);
		CHECK_INT(after.st_size, before.st_size);
		CHECK_INT(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
		rli_history_close(h);
	}
	/* Not SQLite at all. */
	{
		rli_history *h = NULL;
		FILE *fp = fopen(path_in(db_path, sizeof(db_path), "text.db"), "w");
		fputs("this is a text file, long enough to have a header's worth of bytes in it, not a database at all\n", fp);
		fclose(fp);
		CHECK_INT(rli_history_open(&h, db_path, NULL), RLI_EINVALID);
		CHECK(strstr(rli_error_last(), "not an SQLite database") != NULL);
		rli_history_close(h);
	}
	/* The journal that network file systems get. */
	{
		rli_history *h = NULL;
		rli_history_open_options options;
		rli_history_open_options_init(&options);
		options.journal = "delete";
		CHECK_INT(rli_history_open(&h, path_in(db_path, sizeof(db_path), "nfs.db"), &options), RLI_OK);
		CHECK_STR(h ? rli_history_journal_mode(h) : "", "delete");
		rli_history_close(h);
	}
}

/* The verdict: too few runs give none; a window of ordinary nights and one slow phase give exactly it. */
static void test_verdict(void)
{
	rli_compare_side *nights[6];
	rli_history_verdict *verdict = NULL;
	for (int k = 0; k < 6; k++)
		nights[k] = trend_case_side(k == 5 ? TREND_CASE_RUNS - 1 : 5);
	CHECK_INT(rli_history_compare(&verdict, nights, 2, nights[5], 0.05, "the last 2 runs"), RLI_OK);
	CHECK(verdict == NULL);
	CHECK_INT(rli_history_compare(&verdict, nights, 5, nights[5], 0.05, "the last 5 runs"), RLI_OK);
	CHECK(verdict != NULL);
	if (verdict) {
		CHECK_INT(verdict->runs, 5);
		CHECK_INT(verdict->comparison->regressions, 1);
		for (size_t i = 0; i < verdict->comparison->phase_count; i++)
			if (verdict->comparison->phases[i].verdict == RLI_VERDICT_REGRESSION)
				CHECK_STR(verdict->comparison->phases[i].name, "update_actor");
	}
	rli_history_verdict_free(verdict);
	for (int k = 0; k < 6; k++)
		rli_compare_side_free(nights[k]);
}

/* Links: to a run's page while its folder holds its summary.json as written; a note once it is replaced or gone. */
static void test_links(void)
{
	rli_history_series series = { 0 };
	rli_history_run current;
	rli_compare_side *current_side = NULL;
	rli_trend_options options;
	rli_trend *trend = NULL;
	char night[TREND_CASE_RUNS][4200], out[4200], file[4400];
	struct stat st;
	trend_case_series(&series, &current, &current_side);
	for (size_t k = 0; k < series.count; k++) {
		FILE *fp;
		snprintf(night[k], sizeof(night[k]), "%.4000s/nights/n %zu", work, k);
		CHECK_INT(rli_mkdir_p(night[k]), RLI_OK);
		snprintf(file, sizeof(file), "%.4000s/summary.json", night[k]);
		fp = fopen(file, "w");
		fputs("{}", fp);
		fclose(fp);
		snprintf(file, sizeof(file), "%.4000s/rl_timeline.html", night[k]);
		fp = fopen(file, "w");
		fclose(fp);
		snprintf(file, sizeof(file), "%.4000s/summary.json", night[k]);
		stat(file, &st);
		series.runs[k].output = realpath(night[k], NULL);
		series.runs[k].summary_bytes = k == 1 ? 99 : (int64_t)st.st_size; /* night 1's was rewritten since */
		series.runs[k].summary_mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	}
	snprintf(file, sizeof(file), "%.4000s/summary.json", night[2]);
	remove(file);
	snprintf(out, sizeof(out), "%s/nights/tonight", work);
	CHECK_INT(rli_mkdir_p(out), RLI_OK);
	free(series.runs[3].output);
	series.runs[3].output = realpath(out, NULL); /* night 3 wrote where this run writes */
	rli_trend_options_init(&options);
	options.out_dir = out;
	options.current_link = "rl_timeline.html";
	CHECK_INT(rli_trend_build(&trend, &series, &current, current_side, "h.db", &options), RLI_OK);
	if (trend) {
		CHECK_STR(trend->points[0].link, "../n 0/rl_timeline.html");
		CHECK(trend->points[1].link == NULL && strstr(trend->points[1].link_note, "replaced by a later run") != NULL);
		CHECK(trend->points[2].link == NULL && strstr(trend->points[2].link_note, "gone") != NULL);
		CHECK(trend->points[3].link == NULL && strstr(trend->points[3].link_note, "this run") != NULL);
		CHECK_STR(trend->points[TREND_CASE_RUNS - 1].link, "rl_timeline.html");
	}
	rli_trend_free(trend);
	rli_history_series_dispose(&series);
	rli_history_run_dispose(&current);
	rli_compare_side_free(current_side);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s WORK_DIR\n", argv[0]);
		return 2;
	}
	snprintf(work, sizeof(work), "%s", argv[1]);
	/* A fresh folder: what an earlier run left is removed, deepest first. */
	nftw(work, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (rli_mkdir_p(work) < 0)
		return 1;
	test_family();
	test_append();
	test_migration();
	test_refusals();
	test_verdict();
	test_links();
	return rli_test_failures ? 1 : 0;
}

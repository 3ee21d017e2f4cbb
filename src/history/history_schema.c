/* history_schema.c: the history's tables (doc/history.md), made in a new file, and the migrations that bring an older file forward. */
#include "history_internal.h"
#include "common/error.h"

#include <stdio.h>

/*
 * Version 2, the current one. Times are ISO 8601 text in UTC, so they sort as they read and a
 * person can compare them in sqlite3; durations are milliseconds. Every table but runs is keyed
 * by its run: ON DELETE CASCADE for a person deleting with sqlite3 (PRAGMA foreign_keys=ON),
 * and rli_history_delete deletes each table's rows itself.
 */
static const char schema_v2[] =
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" captured_at TEXT,"
	" analysed_at TEXT NOT NULL,"
	" input TEXT NOT NULL,"
	" profiler TEXT NOT NULL,"
	" tool_version TEXT NOT NULL,"
	" label TEXT,"
	" ranks INTEGER, roles INTEGER, max_steps INTEGER,"
	" duration_ms REAL, step_ms REAL,"
	" family TEXT NOT NULL DEFAULT '',"
	" source TEXT NOT NULL DEFAULT 'run',"
	" output TEXT,"
	" summary_bytes INTEGER,"
	" summary_mtime_ns INTEGER);"
	"CREATE TABLE phases ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" role TEXT NOT NULL, name TEXT NOT NULL,"
	" count INTEGER NOT NULL, total_ms REAL, mean_ms REAL, median_ms REAL, q1_ms REAL, q3_ms REAL, p95_ms REAL,"
	" PRIMARY KEY (run_id, role, name));"
	"CREATE TABLE roles ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" role TEXT NOT NULL,"
	" ranks INTEGER NOT NULL, steps INTEGER NOT NULL, step_median_ms REAL, straggler_rank INTEGER,"
	" PRIMARY KEY (run_id, role));"
	"CREATE TABLE steps ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" role TEXT NOT NULL, step INTEGER NOT NULL,"
	" ranks INTEGER NOT NULL, median_ms REAL, slowest_rank INTEGER, slowest_ms REAL,"
	" PRIMARY KEY (run_id, role, step));"
	"CREATE TABLE memory_peaks ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" role TEXT NOT NULL, rank INTEGER NOT NULL, device_type TEXT NOT NULL,"
	" peak_mb REAL, peak_ms REAL, allocated_kb REAL, allocations INTEGER, never_freed_kb REAL,"
	" PRIMARY KEY (run_id, role, rank, device_type));"
	"CREATE TABLE expert_imbalance ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" step INTEGER NOT NULL, role TEXT NOT NULL, layer INTEGER NOT NULL,"
	" imbalance REAL, max_load REAL, mean_load REAL, hottest_expert INTEGER,"
	" PRIMARY KEY (run_id, role, step, layer));"
	"CREATE INDEX runs_by_series ON runs (input, family, id);";

/*
 * Version 1 lacked the label's family, where a run came from and its outputs, the expert table
 * and the index; migrated by adding them, the family worked out from each label as
 * rli_history_family does.
 */
static const char migrate_v1_v2[] =
	"ALTER TABLE runs ADD COLUMN family TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT 'run';"
	"ALTER TABLE runs ADD COLUMN output TEXT;"
	"ALTER TABLE runs ADD COLUMN summary_bytes INTEGER;"
	"ALTER TABLE runs ADD COLUMN summary_mtime_ns INTEGER;"
	"UPDATE runs SET family = substr(label, 1, instr(label, ':') - 1) WHERE instr(label, ':') > 0;"
	"CREATE TABLE expert_imbalance ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" step INTEGER NOT NULL, role TEXT NOT NULL, layer INTEGER NOT NULL,"
	" imbalance REAL, max_load REAL, mean_load REAL, hottest_expert INTEGER,"
	" PRIMARY KEY (run_id, role, step, layer));"
	"CREATE INDEX runs_by_series ON runs (input, family, id);";

static int set_version(rli_history *h)
{
	char sql[96];
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; PRAGMA application_id = %d;", RLI_HISTORY_SCHEMA,
		 RLI_HISTORY_APPLICATION_ID);
	return rli_history_exec(h, sql, "set the schema version of");
}

int rli_history_create_schema(rli_history *h)
{
	int error = rli_history_exec(h, schema_v2, "create the tables of");
	return error < 0 ? error : set_version(h);
}

int rli_history_migrate(rli_history *h, int from)
{
	static const char *const steps[] = { NULL, migrate_v1_v2 }; /* steps[v]: from v to v + 1 */
	int error = RLI_OK;
	if (from < 1 || from >= RLI_HISTORY_SCHEMA)
		return rli_error_set(RLI_ERROR, "history %s: no migration from schema version %d", h->path, from);
	for (int v = from; v < RLI_HISTORY_SCHEMA && error == RLI_OK; v++)
		error = rli_history_exec(h, steps[v], "migrate the schema of");
	return error < 0 ? error : set_version(h);
}

/* history_internal.h: what the history's files share: the open database, SQLite's failures said in our words, statements. */
#ifndef RLI_HISTORY_INTERNAL_H
#define RLI_HISTORY_INTERNAL_H

#include "history.h"

#include <sqlite3.h>

struct rli_history {
	sqlite3 *db;
	char *path;
	int read_only;
	int found_version;
	char journal[8];
};

/*
 * SQLite's failure rc while doing `doing` ("add this run to"), as our message naming the file
 * and the cause a person acts on (a full disk, a read-only file, another run holding it), with
 * SQLite's own words after. Returns the library code: RLI_ERROR out of memory, RLI_EINVALID a
 * file that is no database or is damaged, RLI_EOUTPUT otherwise.
 */
int rli_history_fail(rli_history *history, int rc, const char *doing);
/* Runs sql (no result rows); the failure said as rli_history_fail's. */
int rli_history_exec(rli_history *history, const char *sql, const char *doing);
/* Prepares sql; the failure said as rli_history_fail's. */
int rli_history_prepare(rli_history *history, sqlite3_stmt **stmt, const char *sql, const char *doing);

/* A text column as an allocated copy (NULL for SQL NULL); *failed set when out of memory. */
char *rli_history_column_text(sqlite3_stmt *stmt, int column, int *failed);
/* A real column, NAN for SQL NULL. */
double rli_history_column_real(sqlite3_stmt *stmt, int column);
/* A text bound as SQL NULL when NULL. */
int rli_history_bind_text(sqlite3_stmt *stmt, int index, const char *text);
/* A real bound as SQL NULL when not finite (NAN: unknown). */
int rli_history_bind_real(sqlite3_stmt *stmt, int index, double value);

/* The schema (history_schema.c): a new file's tables, and each migration from version v to v + 1. */
int rli_history_create_schema(rli_history *history);
int rli_history_migrate(rli_history *history, int from_version);

#endif

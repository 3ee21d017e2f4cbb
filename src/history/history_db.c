/* history_db.c: opening the run history: the file checked to be ours and of a schema we read, its journal chosen for its file system, an older schema migrated. */
#include "history_internal.h"
#include "common/error.h"
#include "common/strutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>

void rli_history_open_options_init(rli_history_open_options *options)
{
	*options = (rli_history_open_options){ 0 };
}

/* What a person does about it, from SQLite's primary code. */
static const char *cause(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_FULL:
		return "the disk is full";
	case SQLITE_READONLY:
		return "it is read-only";
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return "another process held it too long";
	case SQLITE_CANTOPEN:
		return "it cannot be opened";
	case SQLITE_NOTADB:
		return "it is not an SQLite database";
	case SQLITE_CORRUPT:
		return "it is damaged";
	case SQLITE_IOERR:
		return "an input/output error";
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return "permission denied";
	default:
		return NULL;
	}
}

int rli_history_fail(rli_history *h, int rc, const char *doing)
{
	const char *why = cause(rc), *words = h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(rc);
	int system = h->db ? sqlite3_system_errno(h->db) : 0;
	char detail[160] = "";
	int code = (rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT ? RLI_EINVALID : RLI_EOUTPUT;

	if ((rc & 0xff) == SQLITE_NOMEM)
		return rli_error_oom();
	/* The system's words where SQLite's are vaguer than the cause ("disk I/O error": which?). */
	if (system && ((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_FULL))
		snprintf(detail, sizeof(detail), ", %s", strerror(system));
	return rli_error_set(code, "cannot %s the history %s: %s (sqlite: %s%s)", doing, h->path,
			     why ? why : "the database failed", words ? words : "", detail);
}

int rli_history_exec(rli_history *h, const char *sql, const char *doing)
{
	int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? RLI_OK : rli_history_fail(h, rc, doing);
}

int rli_history_prepare(rli_history *h, sqlite3_stmt **stmt, const char *sql, const char *doing)
{
	int rc = sqlite3_prepare_v2(h->db, sql, -1, stmt, NULL);
	return rc == SQLITE_OK ? RLI_OK : rli_history_fail(h, rc, doing);
}

char *rli_history_column_text(sqlite3_stmt *stmt, int column, int *failed)
{
	const unsigned char *text = sqlite3_column_text(stmt, column);
	char *copy;
	if (!text)
		return NULL;
	if (!(copy = rli_strdup((const char *)text)))
		*failed = 1;
	return copy;
}

double rli_history_column_real(sqlite3_stmt *stmt, int column)
{
	return sqlite3_column_type(stmt, column) == SQLITE_NULL ? NAN : sqlite3_column_double(stmt, column);
}

int rli_history_bind_text(sqlite3_stmt *stmt, int index, const char *text)
{
	return text ? sqlite3_bind_text(stmt, index, text, -1, SQLITE_STATIC) : sqlite3_bind_null(stmt, index);
}

int rli_history_bind_real(sqlite3_stmt *stmt, int index, double value)
{
	return isfinite(value) ? sqlite3_bind_double(stmt, index, value) : sqlite3_bind_null(stmt, index);
}

/* One integer a PRAGMA or query gives; rc SQLite's. */
static int query_int(rli_history *h, const char *sql, int64_t *value)
{
	sqlite3_stmt *stmt = NULL;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &stmt, NULL);
	*value = 0;
	if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		*value = sqlite3_column_int64(stmt, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		rc = SQLITE_OK;
	}
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * Network file systems, whose locks reach the server but whose shared memory does not: WAL's
 * index lives in memory every process maps, so two machines would each see their own. Found by
 * the file system's magic number (statfs(2)).
 */
static int on_network_fs(const char *path)
{
	static const unsigned long magics[] = {
		0x6969,     /* NFS */
		0x517b,     /* SMB */
		0xff534d42, /* CIFS */
		0xfe534d42, /* SMB2 */
		0x00c36400, /* Ceph */
		0x5346414f, /* AFS */
		0x01021997, /* 9P */
		0x0bd00bd0, /* Lustre */
		0x47504653, /* GPFS */
		0x65735546, /* FUSE: sshfs, GlusterFS and the like, whose sharing we cannot tell */
	};
	char *folder = rli_strdup(path), *slash;
	struct statfs fs;
	int network = 0;
	if (!folder)
		return 0;
	slash = strrchr(folder, '/');
	if (slash)
		slash[slash == folder ? 1 : 0] = '\0';
	if (statfs(slash ? folder : ".", &fs) == 0)
		for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
			network |= (unsigned long)(unsigned int)fs.f_type == magics[i];
	free(folder);
	return network;
}

/* journal_mode may be refused while another connection switches it: tried again within the busy time. */
static int set_journal(rli_history *h, const char *mode, int timeout_ms)
{
	char sql[40];
	struct timespec pause = { 0, 20 * 1000000L };
	int rc = SQLITE_OK;
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode = %s", mode);
	for (int waited = 0; waited <= timeout_ms; waited += 20) {
		sqlite3_stmt *stmt = NULL;
		if ((rc = sqlite3_prepare_v2(h->db, sql, -1, &stmt, NULL)) == SQLITE_OK &&
		    (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
			const char *now = (const char *)sqlite3_column_text(stmt, 0);
			snprintf(h->journal, sizeof(h->journal), "%s", now ? now : "");
			for (char *p = h->journal; *p; p++)
				*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
			rc = SQLITE_OK;
		}
		sqlite3_finalize(stmt);
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
		nanosleep(&pause, NULL);
	}
	/*
	 * WAL is what concurrent runs are best served by, not what they need: where it cannot be
	 * made (a full disk for its files) the journal the file has is kept, and a write that then
	 * fails says why itself.
	 */
	if (rc != SQLITE_OK && strcmp(mode, "wal") == 0 && (rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED &&
	    (rc & 0xff) != SQLITE_NOMEM && (rc & 0xff) != SQLITE_NOTADB && (rc & 0xff) != SQLITE_CORRUPT) {
		snprintf(h->journal, sizeof(h->journal), "delete");
		return RLI_OK;
	}
	if (rc != SQLITE_OK)
		return rli_history_fail(h, rc, "choose the journal of");
	/* The rollback journal on a network file system: a WAL file there is no safe place to stay. */
	if (strcmp(mode, "delete") == 0 && strcmp(h->journal, "delete") != 0)
		return rli_error_set(RLI_EOUTPUT, "cannot leave WAL for the rollback journal in the history %s (%s): "
				     "another process still has it open", h->path, h->journal);
	return RLI_OK;
}

/* A file older than us comes forward in one transaction, whichever of several runs gets there first. */
static int bring_forward(rli_history *h)
{
	int64_t version = 0;
	int rc, error;
	if ((error = rli_history_exec(h, "BEGIN IMMEDIATE", "lock")) < 0)
		return error;
	/* Another run may have made or migrated it while this one waited for the lock. */
	if ((rc = query_int(h, "PRAGMA user_version", &version)) != SQLITE_OK) {
		error = rli_history_fail(h, rc, "read");
	} else if (version == 0) {
		error = rli_history_create_schema(h);
	} else if (version < RLI_HISTORY_SCHEMA) {
		error = rli_history_migrate(h, (int)version);
	}
	if (error == RLI_OK)
		return rli_history_exec(h, "COMMIT", "write");
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return error;
}

/* The file is a history we read: ours (or empty), of a schema no newer than ours. */
static int check_file(rli_history *h, int64_t *version)
{
	/*
	 * One statement, one snapshot: read apart, another run could make the tables between the
	 * version (0) and the tables (some), and the file would look like another program's.
	 */
	static const char sql[] = "SELECT (SELECT user_version FROM pragma_user_version),"
				  " (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_master)";
	sqlite3_stmt *s = NULL;
	int64_t application = 0, objects = 0;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &s, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		*version = sqlite3_column_int64(s, 0);
		application = sqlite3_column_int64(s, 1);
		objects = sqlite3_column_int64(s, 2);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_OK)
		return rli_history_fail(h, rc, "read");
	if (application != 0 && application != RLI_HISTORY_APPLICATION_ID)
		return rli_error_set(RLI_EINVALID, "the history %s is another program's SQLite database (application_id "
				     "0x%08llx): not a run history, left as it is", h->path, (unsigned long long)application);
	if (*version > RLI_HISTORY_SCHEMA)
		return rli_error_set(RLI_EINVALID, "the history %s was written by a newer rl-insight (schema version %lld; "
				     "this one, %s, reads up to %d): left as it is", h->path, (long long)*version,
				     RLI_VERSION, RLI_HISTORY_SCHEMA);
	if (*version == 0 && objects > 0)
		return rli_error_set(RLI_EINVALID, "the history %s is an SQLite database with tables of its own and no "
				     "schema version: not a run history, left as it is", h->path);
	return RLI_OK;
}

int rli_history_open(rli_history **out, const char *path, const rli_history_open_options *options_in)
{
	rli_history_open_options options;
	rli_history *h;
	int64_t version = 0;
	int rc, error, timeout;
	struct stat st;

	*out = NULL;
	if (options_in)
		options = *options_in;
	else
		rli_history_open_options_init(&options);
	timeout = options.busy_timeout_ms > 0 ? options.busy_timeout_ms : RLI_HISTORY_BUSY_MS;
	if (!(h = calloc(1, sizeof(*h))) || !(h->path = rli_strdup(path))) {
		free(h);
		return rli_error_oom();
	}
	h->read_only = options.read_only;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		error = rli_error_set(RLI_EINVALID, "the history %s is not a regular file", path);
		goto done;
	}
	if (options.read_only && stat(path, &st) != 0) {
		error = rli_error_set(RLI_EINVALID, "no history at %s: %s", path, strerror(errno));
		goto done;
	}
	rc = sqlite3_open_v2(path, &h->db,
			     options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		error = rli_history_fail(h, rc, "open");
		goto done;
	}
	sqlite3_extended_result_codes(h->db, 1);
	/* First of all: every statement after this one waits for the others' locks rather than fail. */
	sqlite3_busy_timeout(h->db, timeout);
	if ((error = check_file(h, &version)) < 0)
		goto done;
	h->found_version = (int)version;
	if (options.read_only || sqlite3_db_readonly(h->db, "main") == 1) {
		/* A file we may not write is read as it is, if it is of our schema. */
		h->read_only = 1;
		if (version != 0 && version < RLI_HISTORY_SCHEMA) {
			error = rli_error_set(RLI_EOUTPUT, "the history %s is of schema version %lld and cannot be brought "
					      "forward to %d: it is read-only", path, (long long)version, RLI_HISTORY_SCHEMA);
			goto done;
		}
		goto done;
	}
	{
		const char *journal = options.journal;
		if (!journal || !*journal)
			journal = on_network_fs(path) ? "delete" : "wal";
		if (strcasecmp(journal, "wal") != 0 && strcasecmp(journal, "delete") != 0) {
			error = rli_error_set(RLI_EUSAGE, "history journal '%s': wal or delete", journal);
			goto done;
		}
		if ((error = set_journal(h, strcasecmp(journal, "wal") == 0 ? "wal" : "delete", timeout)) < 0)
			goto done;
	}
	if (version < RLI_HISTORY_SCHEMA && (error = bring_forward(h)) < 0)
		goto done;
	error = rli_history_exec(h, "PRAGMA foreign_keys = ON", "open");
done:
	if (error < 0) {
		rli_history_close(h);
		return error;
	}
	*out = h;
	return RLI_OK;
}

void rli_history_close(rli_history *h)
{
	if (!h)
		return;
	/* close_v2: whatever statement is left is finalised with the connection, never leaked. */
	sqlite3_close_v2(h->db);
	free(h->path);
	free(h);
}

const char *rli_history_path(const rli_history *h)
{
	return h->path;
}

const char *rli_history_journal_mode(const rli_history *h)
{
	return h->journal;
}

int rli_history_found_version(const rli_history *h)
{
	return h->found_version;
}

char *rli_history_family(char *out, size_t size, const char *label)
{
	const char *colon = label ? strchr(label, ':') : NULL;
	size_t length = colon ? (size_t)(colon - label) : 0;
	if (size == 0)
		return out;
	if (length >= size)
		length = size - 1;
	memcpy(out, label ? label : "", length);
	out[length] = '\0';
	return out;
}

char *rli_history_timestamp(char *out, size_t size, double epoch_ms)
{
	double seconds = floor(epoch_ms / 1000);
	int ms = (int)llround(epoch_ms - seconds * 1000);
	time_t t;
	struct tm utc;
	if (ms >= 1000) {
		seconds += 1;
		ms -= 1000;
	}
	t = (time_t)seconds;
	if (!isfinite(epoch_ms) || !gmtime_r(&t, &utc)) {
		snprintf(out, size, "1970-01-01T00:00:00.000Z");
		return out;
	}
	snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
		 utc.tm_hour, utc.tm_min, utc.tm_sec, ms);
	return out;
}

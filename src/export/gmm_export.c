/* gmm_export.c: the GMM table as gmm_events.csv or .jsonl, the reference's columns in its order. */
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/json_write.h"
#include "common/output_set.h"
#include "common/shortest_double.h"
#include "gmm/gmm_table.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference's GmmRow fields, in its order (gmm.md §3). */
static const char header[] = "role,rank_id,step,stage,expert_index,load\n";

/*
 * Millions of rows of six short fields: formatted into one block and written with one fwrite per
 * block, the keys of a snapshot (its role, rank, step and stage) once per snapshot, not per row.
 */
#define BLOCK_SIZE 65536

typedef struct {
	FILE *fp;
	int jsonl;
	char block[BLOCK_SIZE];
	size_t used;
	char *keys; /* the snapshot's lead-in, "role,0,1,3," or {"role": ..., "stage": 3, "expert_index": */
	size_t keys_length, keys_capacity;
} writer;

static void flush(writer *w)
{
	fwrite(w->block, 1, w->used, w->fp);
	w->used = 0;
}

static void put(writer *w, const char *text, size_t length)
{
	if (length > BLOCK_SIZE - w->used)
		flush(w);
	if (length > BLOCK_SIZE) {
		fwrite(text, 1, length, w->fp);
		return;
	}
	memcpy(w->block + w->used, text, length);
	w->used += length;
}

/* The role as a CSV field: quoted, quotes doubled, where pandas quotes it (rli_csv_write_field's rule). */
static size_t csv_field(char *out, const char *text)
{
	size_t n = 0;
	if (!strpbrk(text, ",\"\r\n")) {
		n = strlen(text);
		memcpy(out, text, n);
		return n;
	}
	out[n++] = '"';
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			out[n++] = '"';
		out[n++] = *p;
	}
	out[n++] = '"';
	return n;
}

/* The lead-in of every row of snapshot s. RLI_OK or RLI_ERROR. */
static int make_keys(writer *w, const rli_gmm *gmm, const rli_gmm_snapshot *s)
{
	const char *role = rli_gmm_role(gmm, s);
	size_t room = RLI_JSON_ESCAPED_MAX(strlen(role)) + 160, n;
	if (room > w->keys_capacity) {
		char *grown = realloc(w->keys, room);
		if (!grown)
			return rli_error_oom();
		w->keys = grown;
		w->keys_capacity = room;
	}
	if (w->jsonl) {
		n = (size_t)snprintf(w->keys, room, "{\"role\": ");
		n += rli_json_escape(w->keys + n, role, RLI_JSON_PLAIN);
		n += (size_t)snprintf(w->keys + n, room - n, ", \"rank_id\": %lld, \"step\": %lld, \"stage\": %lld, "
				      "\"expert_index\": ", (long long)s->rank_id, (long long)s->step, (long long)s->stage);
	} else {
		n = csv_field(w->keys, role);
		n += (size_t)snprintf(w->keys + n, room - n, ",%lld,%lld,%lld,", (long long)s->rank_id,
				      (long long)s->step, (long long)s->stage);
	}
	w->keys_length = n;
	return RLI_OK;
}

/* value in decimal at out; its length. Millions of rows: no printf in the loop. */
static size_t put_digits(char *out, uint64_t value)
{
	char digits[24];
	size_t n = 0;
	do {
		digits[n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	for (size_t i = 0; i < n; i++)
		out[i] = digits[n - 1 - i];
	return n;
}

static size_t put_text(char *out, const char *text)
{
	size_t n = strlen(text);
	memcpy(out, text, n);
	return n;
}

/* A load as the shortest text that reads back as itself; NaN empty (CSV) or null, the infinities "inf". */
static size_t format_load(char *out, double load, int jsonl)
{
	if (isnan(load))
		return jsonl ? put_text(out, "null") : 0;
	if (isinf(load))
		return put_text(out, jsonl ? (load > 0 ? "\"inf\"" : "\"-inf\"") : (load > 0 ? "inf" : "-inf"));
	/* Token counts are whole numbers: printed as integers without the shortest-digits search. */
	if (load == floor(load) && fabs(load) < 9007199254740992.0 && !(load == 0 && signbit(load))) {
		if (load < 0) {
			out[0] = '-';
			return 1 + put_digits(out + 1, (uint64_t)-load);
		}
		return put_digits(out, (uint64_t)load);
	}
	return rli_format_double(out, load);
}

static void write_rows(writer *w, const rli_gmm *gmm, const rli_gmm_snapshot *s)
{
	char row[64 + RLI_DOUBLE_BUFSIZE];
	for (size_t i = s->first; i < s->first + s->count; i++) {
		size_t n;
		put(w, w->keys, w->keys_length);
		n = put_digits(row, gmm->expert_index[i]);
		n += put_text(row + n, w->jsonl ? ", \"load\": " : ",");
		n += format_load(row + n, gmm->load[i], w->jsonl);
		n += put_text(row + n, w->jsonl ? "}\n" : "\n");
		put(w, row, n);
	}
}

int rli_gmm_export(const rli_gmm *gmm, rli_export_format format, const char *path, rli_output_set *set)
{
	rli_atomic_file file;
	writer *w;
	int error;

	if (!gmm || !gmm->finished)
		return rli_error_set(RLI_EUSAGE, "no finished GMM table to export");
	if (format != RLI_EXPORT_CSV && format != RLI_EXPORT_JSONL)
		return rli_error_set(RLI_EUSAGE, "unknown export format %d", (int)format);
	if (!(w = calloc(1, sizeof(*w))))
		return rli_error_oom();
	if ((error = rli_atomic_open(&file, path)) < 0) {
		free(w);
		return error;
	}
	w->fp = file.fp;
	w->jsonl = format == RLI_EXPORT_JSONL;
	if (!w->jsonl)
		put(w, header, sizeof(header) - 1);
	for (size_t k = 0; k < gmm->snapshot_count && error == RLI_OK; k++)
		if ((error = make_keys(w, gmm, &gmm->snapshots[k])) == RLI_OK)
			write_rows(w, gmm, &gmm->snapshots[k]);
	flush(w);
	free(w->keys);
	free(w);
	if (error < 0) {
		rli_atomic_abort(&file);
		return error;
	}
	return rli_output_finish(set, &file);
}

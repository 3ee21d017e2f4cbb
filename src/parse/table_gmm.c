/* table_gmm.c: gmm_events.csv|jsonl read back into a GMM table, row by row, the filters applied to each. */
#include "gmm_internal.h"
#include "table_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rli_gmm_export's columns (gmm_export.c), the reference's in its order. */
static const char *const gmm_columns[] = { "role", "rank_id", "step", "stage", "expert_index", "load" };
enum { GMM_ROLE, GMM_RANK, GMM_STEP, GMM_STAGE, GMM_EXPERT, GMM_LOAD, GMM_COUNT };

typedef struct {
	rli_field_reader reader;
	rli_gmm *table;
} gmm_reader;

/*
 * The load: a number; NaN as the export writes it (an empty CSV field, a JSON null; "nan" too,
 * as pandas reads it); the infinities as "inf" and "-inf" (text in JSON, which has none).
 */
static int load_of(rli_field_reader *r, uint64_t line, const rli_table_field *fields, double *load)
{
	const rli_table_field *field = &fields[GMM_LOAD];
	static const struct {
		const char *text;
		double value;
	} words[] = { { "nan", NAN }, { "NaN", NAN }, { "inf", INFINITY }, { "-inf", -INFINITY } };
	if (field->kind == RLI_FIELD_OTHER && field->length == 4 && memcmp(field->text, "null", 4) == 0) {
		*load = NAN;
		return 0;
	}
	if (field->kind == RLI_FIELD_CSV && field->length == 0) {
		*load = NAN;
		return 0;
	}
	if (field->kind == RLI_FIELD_CSV || field->kind == RLI_FIELD_TEXT)
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (field->length == strlen(words[i].text) && memcmp(field->text, words[i].text, field->length) == 0) {
				*load = words[i].value;
				return 0;
			}
	if (field->kind == RLI_FIELD_TEXT)
		return rli_field_not_a(r, line, GMM_LOAD, field, "a number (or null, inf, -inf)");
	return rli_field_number(r, line, fields, GMM_LOAD, load);
}

static int gmm_row(void *ctx, uint64_t line, const rli_table_field *fields)
{
	gmm_reader *g = ctx;
	rli_field_reader *r = &g->reader;
	rli_unit *unit = r->unit;
	const char *role;
	size_t length;
	int64_t expert;
	rli_gmm_key key;
	double load;
	int error = -1;

	if (!(role = rli_field_text(r, line, fields, GMM_ROLE, &length)) ||
	    rli_field_integer(r, line, fields, GMM_RANK, &key.rank_id) < 0 ||
	    rli_field_integer(r, line, fields, GMM_STEP, &key.step) < 0 ||
	    rli_field_integer(r, line, fields, GMM_STAGE, &key.stage) < 0 ||
	    rli_field_integer(r, line, fields, GMM_EXPERT, &expert) < 0 || load_of(r, line, fields, &load) < 0)
		goto done;
	if (expert < 0 || (uint64_t)expert >= RLI_GMM_MAX_EXPERTS) {
		rli_table_fail(unit, line, "expert_index is %lld, not an expert from 0 to %zu", (long long)expert,
			       RLI_GMM_MAX_EXPERTS - 1);
		goto done;
	}
	if (key.rank_id < 0 || key.step < 0 || key.stage < 0) {
		rli_table_fail(unit, line, "rank_id, step and stage are counts, and this row has a negative one");
		goto done;
	}
	error = 0;
	if ((unit->keep_ranks && !rli_rank_filter_keeps(unit->keep_ranks, key.rank_id)) ||
	    (unit->keep_steps && !rli_rank_filter_keeps(unit->keep_steps, key.step)) ||
	    (unit->keep_roles && !rli_role_filter_keeps(unit->keep_roles, role)))
		goto done;
	if ((key.role = rli_gmm_intern(g->table, role, length)) == RLI_STRPOOL_NONE ||
	    rli_gmm_append_row(g->table, &key, (uint32_t)expert, load) < 0) {
		unit->status = RLI_ERROR;
		error = -1;
	}
done:
	rli_field_reader_done(r);
	return error;
}

void rli_table_parse_gmm(rli_unit *unit, rli_bytes *source)
{
	gmm_reader g = { { unit, NULL, { NULL } }, NULL };
	rli_table_sink sink = { "gmm_events", gmm_columns, GMM_COUNT, GMM_COUNT, gmm_row, &g };
	size_t snapshots, rows;
	g.reader.sink = &sink;
	/* The worker's table when the driver gave one, else a new one (a fuzzer's, a test's). */
	if (!unit->gmm && rli_gmm_new(&unit->gmm) < 0) {
		unit->status = RLI_ERROR;
		return;
	}
	g.table = unit->gmm;
	snapshots = g.table->snapshot_count;
	rows = g.table->count;
	rli_table_read(unit, source, &sink);
	/* A bad row fails the file: none of its rows stays. */
	if (unit->failures.count || unit->status != RLI_OK)
		rli_gmm_truncate(g.table, snapshots, rows);
}

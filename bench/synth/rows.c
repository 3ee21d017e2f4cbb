/* rows.c: the expected parsed rows (expected.csv), computed from exactly the text that was written. */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

int synth_rows_add(synth_rows *rows, const synth_row *row)
{
	if (rows->count == rows->capacity) {
		size_t capacity = rows->capacity ? rows->capacity * 2 : 256;
		synth_row *grown = realloc(rows->rows, capacity * sizeof(*grown));
		if (!grown)
			return synth_fail(SYNTH_ERROR, "out of memory");
		rows->rows = grown;
		rows->capacity = capacity;
	}
	rows->rows[rows->count] = *row;
	rows->rows[rows->count].order = rows->next_order++;
	rows->count++;
	return SYNTH_OK;
}

/* rl-insight's order: by start; ties by role, rank and thread (every tid written is a number), then discovery order. */
static int compare_rows(const void *a, const void *b)
{
	const synth_row *x = a, *y = b;
	int c;
	if (x->start_ms < y->start_ms)
		return -1;
	if (x->start_ms > y->start_ms)
		return 1;
	if ((c = strcmp(x->role, y->role)) != 0)
		return c;
	if (x->rank_id != y->rank_id)
		return x->rank_id < y->rank_id ? -1 : 1;
	if ((c = strcmp(x->tid, y->tid)) != 0)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void write_csv_field(FILE *fp, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, fp);
		return;
	}
	putc('"', fp);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			putc('"', fp);
		putc(*p, fp);
	}
	putc('"', fp);
}

int synth_rows_write_csv(synth_rows *rows, const char *path)
{
	FILE *fp;

	qsort(rows->rows, rows->count, sizeof(*rows->rows), compare_rows);
	if (!(fp = fopen(path, "w")))
		return synth_fail(SYNTH_EOUTPUT, "cannot create %s", path);
	fputs("name,role,domain,start_time_ms,end_time_ms,duration_ms,rank_id,tid\n", fp);
	for (size_t i = 0; i < rows->count; i++) {
		const synth_row *row = &rows->rows[i];
		write_csv_field(fp, row->name);
		putc(',', fp);
		write_csv_field(fp, row->role);
		fprintf(fp, ",default,%.17g,%.17g,%.17g,%lld,%s\n", row->start_ms, row->end_ms,
			row->duration_ms, (long long)row->rank_id, row->tid);
	}
	if (fclose(fp) != 0)
		return synth_fail(SYNTH_EOUTPUT, "cannot write %s", path);
	return SYNTH_OK;
}

void synth_rows_free(synth_rows *rows)
{
	free(rows->rows);
	memset(rows, 0, sizeof(*rows));
}

void synth_envelope_init(synth_envelope *env)
{
	memset(env, 0, sizeof(*env));
}

/* strtod on the written text: the value any correct JSON number or numeric-string parse gives. */
void synth_envelope_add(synth_envelope *env, const char *ts_text, const char *dur_text)
{
	double ts = strtod(ts_text, NULL);
	double end = ts + strtod(dur_text, NULL);
	if (env->count == 0 || ts < env->min_start)
		env->min_start = ts;
	if (env->count == 0 || end > env->max_end)
		env->max_end = end;
	env->count++;
}

void synth_envelope_row(synth_row *row, const synth_envelope *env)
{
	row->start_ms = env->min_start / 1000;
	row->duration_ms = (env->max_end - env->min_start) / 1000;
	row->end_ms = row->start_ms + row->duration_ms;
}

/* test_events.c: the event table (interning, merge, copied rows, stable sort, filter), its big columns, and --export formats. */
#include "common/bigmem.h"
#include "events/events.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <unistd.h>

static void append(rli_events *ev, const char *name, const char *role, int64_t rank, double start,
		   double dur, const char *tid, int tid_is_text)
{
	rli_event_in row = { name, role, NULL, tid, tid_is_text, rank, start, dur };
	CHECK_INT(rli_events_append(ev, &row), RLI_OK);
}

static void test_interning_and_merge(void)
{
	rli_events *a, *b;
	rli_event row;
	CHECK_INT(rli_events_new(&a), RLI_OK);
	CHECK_INT(rli_events_new(&b), RLI_OK);
	append(a, "update_actor", "actor", 0, 10.0, 5.0, "11", 0);
	append(a, "update_actor", "actor", 1, 12.0, 5.0, "11", 0);
	/* b's pool numbers its strings differently; merging must re-map them. */
	append(b, "generate", "rollout", 2, 1.0, 2.0, "70000", 1);
	append(b, "update_actor", "actor", 3, 11.0, 1.5, "11", 0);
	CHECK_INT(a->strings.count, 4); /* update_actor, actor, default, 11 */
	CHECK_INT(a->name[0], a->name[1]);
	CHECK_INT(rli_events_append_all(a, b), RLI_OK);
	CHECK_INT(rli_events_count(a), 4);
	rli_events_get(&row, a, 2);
	CHECK_STR(row.name, "generate");
	CHECK_STR(row.role, "rollout");
	CHECK_STR(row.domain, "default");
	CHECK_STR(row.tid, "70000");
	CHECK_INT(row.tid_is_text, 1);
	CHECK_INT(a->name[3], a->name[0]);
	CHECK_NEAR(row.end_ms, 3.0, 0);
	rli_events_free(a);
	rli_events_free(b);
}

static void test_stable_sort_and_filter(void)
{
	rli_events *ev;
	uint8_t keep[6] = { 1, 0, 1, 1, 1, 1 };
	const int64_t want_ranks[] = { 5, 1, 3, 4, 0, 2 };
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	/* Equal starts must keep their incoming order (ranks 1, 3, 4 at t = 5). */
	append(ev, "a", "r", 0, 9.0, 1.0, "1", 0);
	append(ev, "a", "r", 1, 5.0, 1.0, "1", 0);
	append(ev, "a", "r", 2, 9.5, 1.0, "1", 0);
	append(ev, "a", "r", 3, 5.0, 2.0, "1", 0);
	append(ev, "a", "r", 4, 5.0, 3.0, "1", 0);
	append(ev, "a", "r", 5, 1.0, 1.0, "1", 0);
	CHECK_INT(rli_events_sort_by_start(ev), RLI_OK);
	for (size_t i = 0; i < 6; i++)
		CHECK_INT(ev->rank_id[i], want_ranks[i]);
	CHECK_NEAR(ev->duration_ms[3], 3.0, 0);
	rli_events_filter(ev, keep);
	CHECK_INT(rli_events_count(ev), 5);
	CHECK_INT(ev->rank_id[1], 3);
	rli_events_free(ev);
}

/* A copied row keeps every string, tid and rank of the row it copies, with its own times. */
static void test_append_like(void)
{
	rli_events *ev;
	rli_event row;
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	append(ev, "step", "step", 7, 1.0, 2.0, "70000", 1);
	append(ev, "opt", "actor", 7, 2.0, 1.0, "70000", 1);
	CHECK_INT(rli_events_append_like(ev, 0, 5.0, 0.5), RLI_OK);
	CHECK_INT(rli_events_append_like(ev, 3, 6.0, 0.5), RLI_ERROR); /* no row 3 yet */
	CHECK_INT(rli_events_count(ev), 3);
	rli_events_get(&row, ev, 2);
	CHECK_STR(row.name, "step");
	CHECK_STR(row.role, "step");
	CHECK_STR(row.domain, "default");
	CHECK_STR(row.tid, "70000");
	CHECK_INT(row.tid_is_text, 1);
	CHECK_INT(row.rank_id, 7);
	CHECK_NEAR(row.start_ms, 5.0, 0);
	CHECK_NEAR(row.duration_ms, 0.5, 0);
	rli_events_free(ev);
}

/*
 * Many ascending runs with ties between and inside them, as merged units give: the result is
 * ordered and rows with equal starts keep their incoming order (rank_id holds that order).
 */
static void test_sort_of_runs(void)
{
	rli_events *ev;
	uint32_t state = 7;
	size_t rows = 0, bad = 0;
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	for (int run = 0; run < 57; run++) {
		double start = (double)(run % 5);
		int length = 1 + (run * 37) % 500;
		for (int i = 0; i < length; i++) {
			state = state * 1103515245u + 12345u;
			start += (double)((state >> 16) % 4) * 0.25; /* steps of 0 make ties */
			append(ev, "a", "r", (int64_t)rows++, start, 1.0, "1", 0);
		}
	}
	CHECK_INT(rli_events_sort_by_start(ev), RLI_OK);
	CHECK_INT(rli_events_count(ev), rows);
	for (size_t i = 1; i < ev->count; i++)
		if (ev->start_ms[i] < ev->start_ms[i - 1] ||
		    (ev->start_ms[i] == ev->start_ms[i - 1] && ev->rank_id[i] < ev->rank_id[i - 1]))
			bad++;
	CHECK_INT(bad, 0);
	rli_events_free(ev);

	/* Two runs, as two ranks' captures give, with ties across them: the first run's row first. */
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	for (int i = 0; i < 6; i++)
		append(ev, "a", "r", i, (double)i, 1.0, "1", 0); /* 0 1 2 3 4 5 */
	for (int i = 0; i < 6; i++)
		append(ev, "a", "r", 6 + i, (double)i + 0.5 * (i % 2), 1.0, "1", 0); /* 0 1.5 2 3.5 4 5.5 */
	CHECK_INT(rli_events_sort_by_start(ev), RLI_OK);
	{
		static const int64_t want[] = { 0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11 };
		for (size_t i = 0; i < 12; i++)
			CHECK_INT(ev->rank_id[i], want[i]);
	}
	rli_events_free(ev);

	/* A column that compares equal throughout but differs in bits (0 and -0) still moves with its rows. */
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	for (int i = 0; i < 8; i++)
		append(ev, "a", "r", i, (double)(7 - i), i % 3 ? 0.0 : -0.0, "1", 0);
	CHECK_INT(rli_events_sort_by_start(ev), RLI_OK);
	for (size_t i = 0; i < 8; i++) {
		CHECK_INT(ev->rank_id[i], 7 - (int64_t)i);
		CHECK_INT(signbit(ev->duration_ms[i]) != 0, (7 - (int)i) % 3 == 0);
	}
	rli_events_free(ev);
}

/* The row a big table's row i was made from: every column tells i apart, as rank_id does. */
static void big_row(rli_event_in *row, size_t i, double start)
{
	static const char *const names[] = { "gen", "logp", "update", "ref", "values" };
	static const char *const tids[] = { "70000", "70001", "70002" };
	memset(row, 0, sizeof(*row));
	row->name = names[i % 5];
	row->role = names[(i / 5) % 5];
	row->domain = i % 7 ? NULL : "other";
	row->tid = tids[i % 3];
	row->tid_is_text = (int)(i & 1);
	row->rank_id = (int64_t)i;
	row->start_ms = start;
	row->duration_ms = (double)i * 0.5;
}

typedef struct {
	double start;
	size_t index;
} keyed;

/* The tie rule worked out again: start, then role (by its text), then rank, which is the index here. */
static int compare_keyed(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	rli_event_in rx, ry;
	int c;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	big_row(&rx, x->index, x->start);
	big_row(&ry, y->index, y->start);
	if ((c = strcmp(rx.role, ry.role)) != 0)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The tie rule: rows that start together go by role, rank, then thread (numbers before text);
 * rows of one thread keep their order. Only equal starts are reordered.
 */
static void test_tie_rule(void)
{
	static const struct {
		const char *name, *role, *tid;
		int tid_is_text;
		int64_t rank;
		double start;
	} in[] = {
		{"a", "rollout", "9", 0, 1, 5.0},  {"b", "actor", "9", 0, 1, 5.0},   {"c", "actor", "9", 0, 0, 5.0},
		{"d", "actor", "8", 1, 0, 5.0},    {"e", "actor", "7", 0, 0, 5.0},   {"f", "actor", "9", 0, 0, 5.0},
		{"g", "actor", "1", 0, 9, 1.0},    {"h", "zeta", "1", 0, 0, 7.0},    {"i", "alpha", "1", 0, 0, 7.0},
	};
	static const char *const want = "gecfdbaih";
	rli_events *ev;
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		append(ev, in[i].name, in[i].role, in[i].rank, in[i].start, 1.0, in[i].tid, in[i].tid_is_text);
	CHECK_INT(rli_events_sort_by_start(ev), RLI_OK);
	for (size_t i = 0; i < strlen(want); i++) {
		rli_event got;
		rli_events_get(&got, ev, i);
		if (got.name[0] != want[i])
			fprintf(stderr, "row %zu: got %s, want %c\n", i, got.name, want[i]);
		CHECK(got.name[0] == want[i]);
	}
	rli_events_free(ev);
}

/*
 * A table past the 2 MiB columns that are mapped apart (common/bigmem), in 40 runs with ties:
 * the same order as a sort by (start, incoming position), and every column moved with its row.
 */
static void test_sort_of_a_big_table(void)
{
	const size_t rows = 600000;
	rli_events *ev;
	keyed *want = malloc(rows * sizeof(*want));
	uint32_t state = 11;
	size_t bad = 0, i = 0;
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	for (int run = 0; run < 40; run++) {
		double start = (double)(run % 9);
		for (size_t k = 0; k < rows / 40; k++, i++) {
			rli_event_in row;
			state = state * 1103515245u + 12345u;
			start += (double)((state >> 16) % 3) * 0.125; /* steps of 0 make ties */
			big_row(&row, i, start);
			CHECK_INT(rli_events_append(ev, &row), RLI_OK);
			want[i].start = start;
			want[i].index = i;
		}
	}
	qsort(want, rows, sizeof(*want), compare_keyed);
	CHECK_INT(rli_events_sort_by_start(ev), RLI_OK);
	CHECK_INT(rli_events_count(ev), rows);
	for (i = 0; i < rows && bad < 5; i++) {
		rli_event_in expected;
		rli_event got;
		big_row(&expected, want[i].index, want[i].start);
		rli_events_get(&got, ev, i);
		if (got.rank_id != expected.rank_id || got.start_ms != expected.start_ms ||
		    got.duration_ms != expected.duration_ms || strcmp(got.name, expected.name) != 0 ||
		    strcmp(got.role, expected.role) != 0 ||
		    strcmp(got.domain, expected.domain ? expected.domain : "default") != 0 ||
		    strcmp(got.tid, expected.tid) != 0 || got.tid_is_text != expected.tid_is_text) {
			fprintf(stderr, "row %zu: got rank %lld, want %lld\n", i, (long long)got.rank_id,
				(long long)expected.rank_id);
			bad++;
		}
	}
	CHECK_INT(bad, 0);
	/* The table still grows after a sort (its columns were swapped for the sort's buffers). */
	{
		rli_event_in row;
		big_row(&row, rows, 100.0);
		for (size_t k = 0; k < rows; k++)
			CHECK_INT(rli_events_append(ev, &row), RLI_OK);
		CHECK_INT(rli_events_count(ev), 2 * rows);
		CHECK_INT(ev->rank_id[2 * rows - 1], (int64_t)rows);
	}
	free(want);
	rli_events_free(ev);
}

/* A range of rows copied into another table; rows dropped from the end. */
static void test_append_range_and_truncate(void)
{
	rli_events *a, *b;
	rli_event row;
	CHECK_INT(rli_events_new(&a), RLI_OK);
	CHECK_INT(rli_events_new(&b), RLI_OK);
	append(a, "x", "x", 0, 1.0, 1.0, "1", 0);
	append(a, "y", "r", 1, 2.0, 1.0, "2", 1);
	append(a, "z", "r", 2, 3.0, 1.0, "2", 1);
	append(a, "x", "x", 3, 4.0, 1.0, "1", 0);
	CHECK_INT(rli_events_reserve(b, 10), RLI_OK);
	CHECK_INT(rli_events_append_range(b, a, 1, 3), RLI_OK);
	CHECK_INT(rli_events_count(b), 2);
	rli_events_get(&row, b, 1);
	CHECK_STR(row.name, "z");
	CHECK_STR(row.role, "r");
	CHECK_STR(row.tid, "2");
	CHECK_INT(row.tid_is_text, 1);
	CHECK_INT(row.rank_id, 2);
	/* Strings come in the order the copied rows use them; "x" was never used. */
	CHECK_INT(b->strings.count, 5); /* y, r, default, 2, z */
	CHECK_INT(rli_events_append_range(b, a, 3, 5), RLI_ERROR);
	CHECK_INT(rli_events_append_range(b, a, 4, 4), RLI_OK);
	rli_events_truncate(a, 2);
	CHECK_INT(rli_events_count(a), 2);
	rli_events_truncate(a, 9); /* never grows */
	CHECK_INT(rli_events_count(a), 2);
	append(a, "w", "w", 9, 5.0, 1.0, "1", 0);
	rli_events_get(&row, a, 2);
	CHECK_STR(row.name, "w");
	rli_events_free(a);
	rli_events_free(b);
}

/* Blocks keep their bytes whichever way they cross the size from which they are mapped apart. */
static void test_bigmem(void)
{
	const size_t small = 1000, big = (RLI_BIGMEM_MAP_FROM / sizeof(uint32_t)) * 3;
	uint32_t *p = rli_bigmem_resize(NULL, small * sizeof(*p)), *q;
	size_t bad = 0;
	CHECK(p != NULL);
	for (size_t i = 0; p && i < small; i++)
		p[i] = (uint32_t)i * 7u;
	q = p ? rli_bigmem_resize(p, big * sizeof(*p)) : NULL; /* heap -> mapped */
	CHECK(q != NULL);
	if (q) {
		p = q;
		for (size_t i = small; i < big; i++)
			p[i] = (uint32_t)i * 7u;
		q = rli_bigmem_resize(p, 2 * big * sizeof(*p)); /* mapped -> mapped, by remapping */
		CHECK(q != NULL);
	}
	if (q) {
		p = q;
		for (size_t i = 0; i < big; i++)
			bad += p[i] != (uint32_t)i * 7u;
		q = rli_bigmem_resize(p, small * sizeof(*p)); /* mapped -> heap */
		CHECK(q != NULL);
	}
	if (q) {
		p = q;
		for (size_t i = 0; i < small; i++)
			bad += p[i] != (uint32_t)i * 7u;
	}
	CHECK_INT(bad, 0);
	rli_bigmem_free(p);
	rli_bigmem_free(NULL);
}

static void test_export(const char *dir)
{
	rli_events *ev;
	char csv_path[4096], jsonl_path[4096];
	char *csv, *jsonl;
	snprintf(csv_path, sizeof(csv_path), "%s/events.csv", dir);
	snprintf(jsonl_path, sizeof(jsonl_path), "%s/events.jsonl", dir);
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	append(ev, "compute_log_prob", "compute_log_prob", 1, 6589107257.5574398, 21005.57763, "70001", 1);
	append(ev, "say \"hi\", then <go>", "actor", 0, 1773285899049.1619, 60.444000000000003,
	       "3550586784", 0);
	CHECK_INT(rli_events_export(ev, RLI_EXPORT_CSV, csv_path, NULL), RLI_OK);
	CHECK_INT(rli_events_export(ev, RLI_EXPORT_JSONL, jsonl_path, NULL), RLI_OK);
	csv = test_read_file(csv_path, NULL);
	jsonl = test_read_file(jsonl_path, NULL);
	/* The shortest digits that read back as the same double (the reference's tables have 17,
	   6589107257.5574398 and 60.444000000000003 here); fields quoted only when they must be. */
	CHECK_STR(csv, "name,role,domain,start_time_ms,end_time_ms,duration_ms,rank_id,tid\n"
		       "compute_log_prob,compute_log_prob,default,6589107257.55744,6589128263.13507,"
		       "21005.57763,1,70001\n"
		       "\"say \"\"hi\"\", then <go>\",actor,default,1773285899049.1619,1773285899109.606,"
		       "60.444,0,3550586784\n");
	/* The same numbers in JSON; the NVTX tid stays a string, MSTX's a number. */
	CHECK_STR(jsonl, "{\"name\": \"compute_log_prob\", \"role\": \"compute_log_prob\", \"domain\": "
			 "\"default\", \"start_time_ms\": 6589107257.55744, \"end_time_ms\": "
			 "6589128263.13507, \"duration_ms\": 21005.57763, \"rank_id\": 1, \"tid\": \"70001\"}\n"
			 "{\"name\": \"say \\\"hi\\\", then <go>\", \"role\": \"actor\", \"domain\": "
			 "\"default\", \"start_time_ms\": 1773285899049.1619, \"end_time_ms\": "
			 "1773285899109.606, \"duration_ms\": 60.444, \"rank_id\": 0, \"tid\": 3550586784}\n");
	/* An unwritable destination fails cleanly. */
	CHECK_INT(rli_events_export(ev, RLI_EXPORT_CSV, "/nonexistent-dir/x.csv", NULL), RLI_EOUTPUT);
	CHECK(strstr(rli_error_last(), "/nonexistent-dir/x.csv") != NULL);
	free(csv);
	free(jsonl);
	unlink(csv_path);
	unlink(jsonl_path);
	rli_events_free(ev);
}

/*
 * The export's other paths: strings longer than its 64 KiB block, quoting and escaping in the
 * middle of fast rows, numbers the table should not hold but might, and integers at the edge.
 */
static void test_export_edges(const char *dir)
{
	enum { LONG = 70000 };
	rli_events *ev;
	char csv_path[4096], jsonl_path[4096];
	char *name = malloc(LONG + 1), *want = malloc(2 * LONG + 4096), *csv, *jsonl;
	CHECK(name && want);
	if (!name || !want)
		return;
	snprintf(csv_path, sizeof(csv_path), "%s/edges.csv", dir);
	snprintf(jsonl_path, sizeof(jsonl_path), "%s/edges.jsonl", dir);
	/* a name with a quote and a comma far into it, past any block */
	memset(name, 'n', LONG);
	name[LONG - 10] = '"';
	name[LONG - 5] = ',';
	name[LONG] = '\0';
	CHECK_INT(rli_events_new(&ev), RLI_OK);
	append(ev, "a", "r", INT64_MIN, 0.5, 1e21, "7", 0);
	append(ev, name, "r", 1, -0.0, 1e-7, "x\"y", 1);
	append(ev, "a", "r", INT64_MAX, NAN, INFINITY, "8", 0);
	append(ev, "tab\there", "r", -1, 1773285888698.7546, 0.1 + 0.2, "9", 0);
	CHECK_INT(rli_events_export(ev, RLI_EXPORT_CSV, csv_path, NULL), RLI_OK);
	CHECK_INT(rli_events_export(ev, RLI_EXPORT_JSONL, jsonl_path, NULL), RLI_OK);
	csv = test_read_file(csv_path, NULL);
	jsonl = test_read_file(jsonl_path, NULL);

	char *p = want + sprintf(want, "name,role,domain,start_time_ms,end_time_ms,duration_ms,rank_id,tid\n"
				       "a,r,default,0.5,1e+21,1e+21,-9223372036854775808,7\n\"");
	for (int i = 0; i < LONG; i++) {
		if (name[i] == '"')
			*p++ = '"';
		*p++ = name[i];
	}
	sprintf(p, "\",r,default,-0,1e-7,1e-7,1,\"x\"\"y\"\n"
		   "a,r,default,nan,nan,inf,9223372036854775807,8\n"
		   "tab\there,r,default,1773285888698.7546,1773285888699.0547,0.30000000000000004,-1,9\n");
	CHECK(csv && strcmp(csv, want) == 0);

	p = want + sprintf(want, "{\"name\": \"a\", \"role\": \"r\", \"domain\": \"default\", \"start_time_ms\": 0.5, "
				 "\"end_time_ms\": 1e+21, \"duration_ms\": 1e+21, \"rank_id\": -9223372036854775808, "
				 "\"tid\": 7}\n{\"name\": \"");
	for (int i = 0; i < LONG; i++) {
		if (name[i] == '"')
			*p++ = '\\';
		*p++ = name[i];
	}
	sprintf(p, "\", \"role\": \"r\", \"domain\": \"default\", \"start_time_ms\": -0, \"end_time_ms\": 1e-7, "
		   "\"duration_ms\": 1e-7, \"rank_id\": 1, \"tid\": \"x\\\"y\"}\n"
		   "{\"name\": \"a\", \"role\": \"r\", \"domain\": \"default\", \"start_time_ms\": null, "
		   "\"end_time_ms\": null, \"duration_ms\": null, \"rank_id\": 9223372036854775807, \"tid\": 8}\n"
		   "{\"name\": \"tab\\there\", \"role\": \"r\", \"domain\": \"default\", "
		   "\"start_time_ms\": 1773285888698.7546, \"end_time_ms\": 1773285888699.0547, "
		   "\"duration_ms\": 0.30000000000000004, \"rank_id\": -1, \"tid\": 9}\n");
	CHECK(jsonl && strcmp(jsonl, want) == 0);
	free(csv);
	free(jsonl);
	free(name);
	free(want);
	unlink(csv_path);
	unlink(jsonl_path);
	rli_events_free(ev);
}

int main(int argc, char **argv)
{
	test_interning_and_merge();
	test_stable_sort_and_filter();
	test_append_like();
	test_sort_of_runs();
	test_sort_of_a_big_table();
	test_tie_rule();
	test_append_range_and_truncate();
	test_bigmem();
	test_export(argc > 1 ? argv[1] : ".");
	test_export_edges(argc > 1 ? argv[1] : ".");
	TEST_DONE();
}

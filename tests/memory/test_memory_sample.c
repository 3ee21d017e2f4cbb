/* test_memory_sample.c: the reference's memory sample parses to exactly the rows in expected/memory_data.parser_output.jsonl. */
#include "harness.h"
#include "memory_fixture.h"

#include <sys/stat.h>
#include <yajl/yajl_tree.h>

#define MAX_ROWS 256

typedef struct {
	char *name, *role, *call_stack, *call_stack_top, *device_type;
	long long rank_id;
	double size_kb, start, duration, allocated, reserved, active;
	int used;
} expected_row;

static const char *text_at(yajl_val row, const char *key)
{
	const char *path[] = {key, NULL};
	yajl_val value = yajl_tree_get(row, path, yajl_t_string);
	if (!value) {
		fprintf(stderr, "expected row has no string '%s'\n", key);
		exit(1);
	}
	return YAJL_GET_STRING(value);
}

static double number_at(yajl_val row, const char *key)
{
	const char *path[] = {key, NULL};
	yajl_val value = yajl_tree_get(row, path, yajl_t_number);
	if (!value) {
		fprintf(stderr, "expected row has no number '%s'\n", key);
		exit(1);
	}
	return YAJL_GET_DOUBLE(value);
}

/* Every key of the reference's MemoryEventRow, in its order (memory.md §2.3). */
static const char *const reference_keys[] = {
	"name", "role", "rank_id", "call_stack", "call_stack_top", "size_kb", "start_time_ms", "duration_ms",
	"total_allocated_mb", "total_reserved_mb", "total_active_mb", "device_type"};

static size_t read_expected(expected_row *rows, const char *path)
{
	static char line[65536];
	char error[256];
	size_t count = 0;
	FILE *file = fopen(path, "r");
	if (!file) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	while (count < MAX_ROWS && fgets(line, sizeof(line), file)) {
		yajl_val row = yajl_tree_parse(line, error, sizeof(error));
		expected_row *r = &rows[count++];
		const char *rank[] = {"rank_id", NULL};
		if (!row || !YAJL_IS_OBJECT(row)) {
			fprintf(stderr, "%s: bad line %zu: %s\n", path, count, error);
			exit(1);
		}
		/* The file has exactly the reference's keys in its order: so must our export. */
		CHECK_INT(row->u.object.len, 12);
		for (size_t k = 0; k < row->u.object.len && k < 12; k++)
			CHECK_STR(row->u.object.keys[k], reference_keys[k]);
		r->name = strdup(text_at(row, "name"));
		r->role = strdup(text_at(row, "role"));
		r->call_stack = strdup(text_at(row, "call_stack"));
		r->call_stack_top = strdup(text_at(row, "call_stack_top"));
		r->device_type = strdup(text_at(row, "device_type"));
		r->rank_id = YAJL_GET_INTEGER(yajl_tree_get(row, rank, yajl_t_number));
		r->size_kb = number_at(row, "size_kb");
		r->start = number_at(row, "start_time_ms");
		r->duration = number_at(row, "duration_ms");
		r->allocated = number_at(row, "total_allocated_mb");
		r->reserved = number_at(row, "total_reserved_mb");
		r->active = number_at(row, "total_active_mb");
		r->used = 0;
		yajl_tree_free(row);
	}
	fclose(file);
	return count;
}

/* Times to 1e-6 ms, everything else exactly. */
static int same(const expected_row *r, const rli_memory_row *m)
{
	return !strcmp(r->name, m->name) && !strcmp(r->role, m->role) && r->rank_id == m->rank_id &&
	       !strcmp(r->call_stack, m->call_stack) && !strcmp(r->call_stack_top, m->call_stack_top) &&
	       !strcmp(r->device_type, m->device_type) && r->size_kb == m->size_kb &&
	       fabs(r->start - m->start_time_ms) <= 1e-6 && fabs(r->duration - m->duration_ms) <= 1e-6 &&
	       r->allocated == m->total_allocated_mb && r->reserved == m->total_reserved_mb &&
	       r->active == m->total_active_mb;
}

int main(int argc, char **argv)
{
	const char *samples = argc > 1 ? argv[1] : "../shared/samples";
	char input[4096], expected_path[4096];
	static expected_row expected[MAX_ROWS];
	struct stat st;
	rli_memory *memory = NULL;
	size_t count;
	int rc;

	snprintf(input, sizeof(input), "%s/memory_data", samples);
	snprintf(expected_path, sizeof(expected_path), "%s/expected/memory_data.parser_output.jsonl", samples);
	if (stat(expected_path, &st) != 0) {
		fprintf(stderr, "skipped: no samples at %s\n", samples);
		return RLI_TEST_SKIP;
	}
	count = read_expected(expected, expected_path);
	CHECK_INT(count, 49);

	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		rc = mf_parse(&memory, input, NULL, NULL, jobs, NULL);
		CHECK_INT(rc, RLI_OK);
		if (rc != RLI_OK) {
			fprintf(stderr, "%s\n", rli_error_last());
			break;
		}
		CHECK_INT(rli_memory_count(memory), count);
		for (size_t k = 0; k < count; k++)
			expected[k].used = 0;
		for (size_t i = 0; i < rli_memory_count(memory) && i < count; i++) {
			rli_memory_row m = mf_get(memory, i);
			int found = 0;
			/* Rows that start together may come in either order: match them as a set. */
			for (size_t k = 0; k < count && !found; k++) {
				if (expected[k].used || !same(&expected[k], &m))
					continue;
				expected[k].used = found = 1;
			}
			CHECK(fabs(expected[i].start - m.start_time_ms) <= 1e-6);
			if (!found) {
				fprintf(stderr, "row %zu not expected: %s %.17g %s\n", i, m.name, m.start_time_ms, m.call_stack);
				rli_test_failures++;
			}
			/* The sample's ops last 50 us and its allocations all come later: the reference's silent case. */
			CHECK_INT(m.match, RLI_MEMORY_AFTER_END);
			CHECK(m.match_gap_ms >= 0.05 - 1e-9);
			/* One block (aten::embedding) is never released: its Duration is empty. */
			CHECK_INT(m.released, strcmp(m.name, "aten::embedding") != 0);
		}
		{
			rli_memory_match_counts counts;
			rli_memory_count_matches(&counts, memory);
			CHECK_INT(counts.allocations, 49);
			CHECK_INT(counts.matched_after_end, 49);
			CHECK_INT(counts.matched_inside + counts.unmatched, 0);
			/* One op per name: a name's later allocations come long after its only call ended. */
			CHECK_NEAR(counts.max_gap_ms, 336.0905, 1e-6);
		}
		rli_memory_free(memory);
		memory = NULL;
	}
	for (size_t k = 0; k < count; k++) {
		free(expected[k].name);
		free(expected[k].role);
		free(expected[k].call_stack);
		free(expected[k].call_stack_top);
		free(expected[k].device_type);
	}
	TEST_DONE();
}

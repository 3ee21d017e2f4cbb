/* test_parse_samples.c: the reference's samples (or generated trees) parse to exactly their expected rows. */
#include "harness.h"
#include "fixture.h"

#include <sys/stat.h>

#define MAX_ROWS 256 /* the reference's samples hold a few dozen rows, the generated trees' NVTX ranges more */

typedef struct {
	char name[256], role[256], domain[64], tid[64];
	double start, end, duration;
	long long rank;
	int used;
} expected_row;

/* The expected CSVs are plain: no quoting, no commas inside fields. */
static size_t read_expected(expected_row *rows, const char *path)
{
	char line[2048];
	size_t count = 0;
	FILE *file = fopen(path, "r");
	if (!file) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	if (!fgets(line, sizeof(line), file) || strncmp(line, "name,role,domain,start_time_ms,end_time_ms,duration_ms,rank_id,tid", 66) != 0) {
		fprintf(stderr, "%s: unexpected header\n", path);
		exit(1);
	}
	while (count < MAX_ROWS && fgets(line, sizeof(line), file)) {
		expected_row *r = &rows[count];
		char start[64], end[64], duration[64];
		memset(r, 0, sizeof(*r));
		if (sscanf(line, "%255[^,],%255[^,],%63[^,],%63[^,],%63[^,],%63[^,],%lld,%63[^,\r\n]", r->name,
			   r->role, r->domain, start, end, duration, &r->rank, r->tid) != 8) {
			fprintf(stderr, "%s: bad row %s", path, line);
			exit(1);
		}
		r->start = strtod(start, NULL);
		r->end = strtod(end, NULL);
		r->duration = strtod(duration, NULL);
		count++;
	}
	fclose(file);
	return count;
}

/*
 * FOLDER under SAMPLES against its expected rows: the reference's at SAMPLES/expected/FOLDER.parsed.csv,
 * or with generated set, the expected.csv rl-insight-synth wrote into the tree itself.
 */
static void check_sample(const char *samples, const char *folder, rli_profiler profiler, int tid_is_text, int generated)
{
	char input[4096], csv[4096];
	static expected_row expected[MAX_ROWS];
	size_t count;
	rli_events *events = NULL;
	rli_profiler detected = RLI_PROFILER_AUTO;
	rli_parse_options options;
	int rc;

	snprintf(input, sizeof(input), "%s/%s", samples, folder);
	if (generated)
		snprintf(csv, sizeof(csv), "%s/%s/expected.csv", samples, folder);
	else
		snprintf(csv, sizeof(csv), "%s/expected/%s.parsed.csv", samples, folder);
	count = read_expected(expected, csv);
	CHECK(count > 0);

	memset(&options, 0, sizeof(options));
	options.profiler = RLI_PROFILER_AUTO; /* detection must pick the right parser */
	rc = rli_parse(&events, &detected, input, &options);
	CHECK_INT(rc, RLI_OK);
	if (rc != RLI_OK) {
		fprintf(stderr, "%s: %s\n", folder, rli_error_last());
		return;
	}
	CHECK_INT(detected, profiler);
	CHECK_INT(rli_events_count(events), count);
	for (size_t i = 0; i < rli_events_count(events); i++) {
		rli_event e;
		int found = 0;
		rli_events_get(&e, events, i);
		if (i > 0) {
			rli_event previous;
			rli_events_get(&previous, events, i - 1);
			CHECK(previous.start_ms <= e.start_ms);
		}
		/* Equal start times come out of the reference in completion order: match as a set. */
		for (size_t k = 0; k < count && !found; k++) {
			expected_row *r = &expected[k];
			if (r->used || strcmp(r->name, e.name) || strcmp(r->role, e.role) || strcmp(r->domain, e.domain) ||
			    strcmp(r->tid, e.tid) || r->rank != e.rank_id || r->start != e.start_ms ||
			    r->end != e.end_ms || r->duration != e.duration_ms)
				continue;
			r->used = 1;
			found = 1;
			/* Row order: the k-th row we give starts when the k-th expected row starts. */
			CHECK(expected[i].start == e.start_ms);
		}
		if (!found) {
			char row[1024];
			fx_row(row, sizeof(row), events, i);
			fprintf(stderr, "%s: row %zu not expected: %s\n", folder, i, row);
			rli_test_failures++;
		}
		CHECK_INT(e.tid_is_text, tid_is_text);
	}
	rli_events_free(events);
}

/*
 * usage: test_parse_samples SAMPLES_DIR, or test_parse_samples --generated DIR with DIR/{mstx,torch,nvtx}
 * written by rl-insight-synth: the same checks on a plain clone, where ../shared is absent.
 */
int main(int argc, char **argv)
{
	struct stat st;
	const char *samples = argc > 1 ? argv[1] : "../shared/samples";
	char probe[4096];
	if (argc > 2 && strcmp(argv[1], "--generated") == 0) {
		check_sample(argv[2], "mstx", RLI_PROFILER_MSTX, 0, 1);
		check_sample(argv[2], "torch", RLI_PROFILER_TORCH, 0, 1);
		check_sample(argv[2], "nvtx", RLI_PROFILER_NVTX, 1, 1);
		TEST_DONE();
	}
	snprintf(probe, sizeof(probe), "%s/expected", samples);
	if (stat(probe, &st) != 0) {
		fprintf(stderr, "skipped: no samples at %s\n", samples);
		return RLI_TEST_SKIP;
	}
	check_sample(samples, "mstx_profile", RLI_PROFILER_MSTX, 0, 0);
	check_sample(samples, "torch_profile", RLI_PROFILER_TORCH, 0, 0);
	check_sample(samples, "nvtx_profile", RLI_PROFILER_NVTX, 1, 0);
	TEST_DONE();
}

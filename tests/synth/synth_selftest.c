/* synth_selftest.c: re-derives expected.csv from the trees rl-insight-synth writes, by an independent reading. */
#include "harness.h"
#include "synth/synth.h"

#include <dirent.h>
#include <regex.h>
#include <stdint.h>
#include <sys/stat.h>
#include <yajl/yajl_tree.h>
#include <zlib.h>

typedef struct {
	char **items;
	size_t count;
	size_t capacity;
} strings;

static void strings_add(strings *list, const char *text)
{
	if (list->count == list->capacity) {
		list->capacity = list->capacity ? list->capacity * 2 : 64;
		list->items = realloc(list->items, list->capacity * sizeof(char *));
		if (!list->items)
			abort();
	}
	list->items[list->count++] = strdup(text);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void strings_free(strings *list)
{
	for (size_t i = 0; i < list->count; i++)
		free(list->items[i]);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

static int ends_with(const char *text, const char *suffix)
{
	size_t n = strlen(text), m = strlen(suffix);
	return n >= m && strcmp(text + n - m, suffix) == 0;
}

/* Every path under root (files and directories), sorted. */
static void walk(strings *out, const char *root)
{
	DIR *dir = opendir(root);
	struct dirent *entry;
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		char path[4096];
		struct stat st;
		if (entry->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, entry->d_name);
		strings_add(out, path);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			walk(out, path);
	}
	closedir(dir);
	qsort(out->items, out->count, sizeof(char *), compare_strings);
}

static char *read_all(const char *path, size_t *length_out)
{
	gzFile in = gzopen(path, "rb");
	size_t length = 0, capacity = 1 << 16;
	char *text = malloc(capacity);
	int got;
	if (!in || !text)
		abort();
	while ((got = gzread(in, text + length, (unsigned)(capacity - length - 1))) > 0) {
		length += (size_t)got;
		if (capacity - length < 2 && !(text = realloc(text, capacity *= 2)))
			abort();
	}
	gzclose(in);
	text[length] = '\0';
	if (length_out)
		*length_out = length;
	return text;
}

static yajl_val parse_json(const char *path)
{
	char error[256];
	char *text = read_all(path, NULL);
	yajl_val value = yajl_tree_parse(text, error, sizeof(error));
	if (!value)
		fprintf(stderr, "%s: %s\n", path, error);
	free(text);
	return value;
}

static yajl_val field(yajl_val object, const char *key)
{
	const char *path[] = { key, NULL };
	return yajl_tree_get(object, path, yajl_t_any);
}

/* Text of a string or number value; "" for anything else, so a wrong type fails a check, not the test. */
static const char *text_of(yajl_val value)
{
	if (YAJL_IS_STRING(value))
		return YAJL_GET_STRING(value);
	if (YAJL_IS_NUMBER(value))
		return YAJL_GET_NUMBER(value);
	return "";
}

/* A number, or a numeric string as Ascend writes ts. */
static int number_of(double *out, yajl_val value)
{
	if (YAJL_IS_NUMBER(value)) {
		*out = strtod(YAJL_GET_NUMBER(value), NULL);
		return 1;
	}
	if (YAJL_IS_STRING(value)) {
		const char *text = text_of(value);
		char *end;
		*out = strtod(text, &end);
		return end != text && *end == '\0';
	}
	return 0;
}

static void add_row(strings *rows, const char *name, double start_us, double end_us, long long rank,
		    const char *tid)
{
	char line[512];
	double start = start_us / 1000, duration = (end_us - start_us) / 1000;
	snprintf(line, sizeof(line), "%s,%s,default,%.17g,%.17g,%.17g,%lld,%s", name, name, start, start + duration,
		 duration, rank, tid);
	strings_add(rows, line);
}

/* expected.csv minus its header, plus a check that it is sorted by start. */
static void read_expected(strings *rows, const char *dir)
{
	char path[4096], line[1024];
	double last = -1;
	snprintf(path, sizeof(path), "%s/expected.csv", dir);
	FILE *fp = fopen(path, "r");
	CHECK(fp != NULL);
	if (!fp)
		return;
	CHECK(fgets(line, sizeof(line), fp) != NULL);
	CHECK_STR(line, "name,role,domain,start_time_ms,end_time_ms,duration_ms,rank_id,tid\n");
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		const char *p = line;
		for (int commas = 0; commas < 3 && p; commas++)
			p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
		double start = p ? strtod(p, NULL) : -1;
		CHECK(start >= last);
		last = start;
		strings_add(rows, line);
	}
	fclose(fp);
}

static void check_same_rows(strings *derived, strings *expected, const char *what)
{
	qsort(derived->items, derived->count, sizeof(char *), compare_strings);
	qsort(expected->items, expected->count, sizeof(char *), compare_strings);
	CHECK_INT(derived->count, expected->count);
	for (size_t i = 0; i < derived->count && i < expected->count; i++) {
		if (strcmp(derived->items[i], expected->items[i]) != 0) {
			fprintf(stderr, "%s: derived %s\n%s: expected %s\n", what, derived->items[i], what,
				expected->items[i]);
			CHECK(0);
			break;
		}
	}
}

static void generate_shape(const char *dir, synth_format format, int ranks, int roles, int steps,
			   long long events, uint64_t seed, int dense)
{
	synth_options options = { .format = format, .ranks = ranks, .roles = roles, .steps = steps,
				  .events_per_unit = events, .seed = seed, .output_dir = dir, .dense = dense };
	int error = synth_run(&options);
	if (error < 0)
		fprintf(stderr, "synth_run: %s\n", synth_error());
	CHECK_INT(error, 0);
}

static void generate(const char *dir, synth_format format, int ranks, int roles, int steps, long long events,
		     uint64_t seed)
{
	generate_shape(dir, format, ranks, roles, steps, events, seed, 0);
}

/* timeline.md §3: the envelope of the Overlap Analysis process's X events, one row per trace_view.json. */
static void check_mstx(const char *dir)
{
	strings paths = { 0 }, derived = { 0 }, expected = { 0 };
	int late_metadata = 0, noise_outside = 0, metadata_roles = 0;

	generate(dir, SYNTH_MSTX, 3, 4, 2, 40, 11);
	walk(&paths, dir);
	for (size_t i = 0; i < paths.count; i++) {
		const char *pt = paths.items[i];
		char path[4096], role[256], tid[32] = "";
		long long rank = -1;
		if (!ends_with(pt, "_ascend_pt"))
			continue;
		/* Role: the parent folder, unless profiler_metadata.json names it. */
		const char *slash = strrchr(pt, '/');
		int parent_start = (int)(slash - pt) - 1;
		while (parent_start > 0 && pt[parent_start - 1] != '/')
			parent_start--;
		snprintf(role, sizeof(role), "%.*s", (int)(slash - pt - parent_start), pt + parent_start);
		snprintf(path, sizeof(path), "%s/profiler_metadata.json", pt);
		struct stat st;
		if (stat(path, &st) == 0) {
			yajl_val meta = parse_json(path);
			yajl_val named = field(meta, "role");
			CHECK(meta != NULL);
			if (named && YAJL_IS_STRING(named)) {
				snprintf(role, sizeof(role), "%s", YAJL_GET_STRING(named));
				metadata_roles++;
			}
			yajl_tree_free(meta);
		}
		/* Rank: the profiler_info_<N>.json file name; the file itself has the six required keys. */
		strings inside = { 0 };
		walk(&inside, pt);
		for (size_t k = 0; k < inside.count; k++) {
			const char *base = strrchr(inside.items[k], '/') + 1;
			if (strncmp(base, "profiler_info_", 14) == 0 && ends_with(base, ".json")) {
				static const char *const keys[] = { "config", "start_info", "end_info",
								    "torch_npu_version", "cann_version", "rank_id" };
				yajl_val info = parse_json(inside.items[k]);
				rank = strtoll(base + 14, NULL, 10);
				for (size_t j = 0; j < 6; j++)
					CHECK(field(info, keys[j]) != NULL);
				yajl_tree_free(info);
			}
		}
		strings_free(&inside);
		CHECK(rank >= 0);

		snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/trace_view.json", pt);
		yajl_val trace = parse_json(path);
		CHECK(YAJL_IS_ARRAY(trace));
		if (!YAJL_IS_ARRAY(trace)) {
			yajl_tree_free(trace);
			continue;
		}
		double target_pid = -1;
		size_t first_x = SIZE_MAX, meta_at = SIZE_MAX;
		for (size_t e = 0; e < trace->u.array.len; e++) {
			yajl_val event = trace->u.array.values[e];
			yajl_val args = field(event, "args"), name = args ? field(args, "name") : NULL;
			CHECK(field(event, "ph") && field(event, "name") && field(event, "pid") && field(event, "tid"));
			if (strcmp(text_of(field(event, "ph")), "M") == 0 && name && YAJL_IS_STRING(name) &&
			    strcmp(text_of(name), "Overlap Analysis") == 0 && meta_at == SIZE_MAX) {
				meta_at = e;
				target_pid = strtod(text_of(field(event, "pid")), NULL);
				snprintf(tid, sizeof(tid), "%s", text_of(field(event, "pid")));
			}
		}
		double min_ts = 0, max_end = 0, noise_min = 0;
		int have = 0, have_noise = 0;
		for (size_t e = 0; e < trace->u.array.len; e++) {
			yajl_val event = trace->u.array.values[e];
			double pid, ts, dur;
			if (strcmp(text_of(field(event, "ph")), "X") != 0)
				continue;
			if (!number_of(&ts, field(event, "ts")) || !number_of(&dur, field(event, "dur")))
				continue;
			if (!number_of(&pid, field(event, "pid")) || pid != target_pid) {
				if (!have_noise || ts < noise_min)
					noise_min = ts;
				have_noise = 1;
				continue;
			}
			if (first_x == SIZE_MAX)
				first_x = e;
			if (!have || ts < min_ts)
				min_ts = ts;
			if (!have || ts + dur > max_end)
				max_end = ts + dur;
			have = 1;
		}
		CHECK(have);
		late_metadata += meta_at > first_x;
		noise_outside += have_noise && noise_min < min_ts;
		add_row(&derived, role, min_ts, max_end, rank, tid);
		yajl_tree_free(trace);
	}
	read_expected(&expected, dir);
	check_same_rows(&derived, &expected, "mstx");
	CHECK_INT(expected.count, 3 * 4 * 2);
	/* The tree must exercise the parser: metadata after events, other processes outside the window, role override. */
	CHECK(late_metadata > 0);
	CHECK(noise_outside > 0);
	CHECK(metadata_roles > 0);
	strings_free(&paths);
	strings_free(&derived);
	strings_free(&expected);
}

/* timeline.md §4: envelope of every event with ts >= 0 and dur >= 0; rank from distributedInfo. */
static void check_torch(const char *dir)
{
	strings paths = { 0 }, derived = { 0 }, expected = { 0 };
	int skipped = 0, instants = 0;

	generate(dir, SYNTH_TORCH, 2, 3, 2, 30, 12);
	walk(&paths, dir);
	for (size_t i = 0; i < paths.count; i++) {
		const char *path = paths.items[i];
		if (!ends_with(path, ".json.gz"))
			continue;
		yajl_val trace = parse_json(path);
		yajl_val info = field(trace, "distributedInfo");
		yajl_val events = field(trace, "traceEvents");
		CHECK(field(trace, "schemaVersion") && field(trace, "deviceProperties"));
		CHECK(info && field(info, "rank") && field(info, "world_size") && field(info, "backend"));
		CHECK(YAJL_IS_ARRAY(events) && events->u.array.len > 0);
		if (!info || !YAJL_IS_ARRAY(events) || events->u.array.len == 0) {
			yajl_tree_free(trace);
			continue;
		}
		if (strstr(strrchr(path, '/'), "async_llm")) {
			skipped++;
			yajl_tree_free(trace);
			continue;
		}
		char role[256], tid[32];
		const char *slash = strrchr(path, '/');
		int parent_start = (int)(slash - path) - 1;
		while (parent_start > 0 && path[parent_start - 1] != '/')
			parent_start--;
		snprintf(role, sizeof(role), "%.*s", (int)(slash - path - parent_start), path + parent_start);
		yajl_val first_pid = field(events->u.array.values[0], "pid");
		CHECK(YAJL_IS_INTEGER(first_pid));
		snprintf(tid, sizeof(tid), "%s", YAJL_IS_NUMBER(first_pid) ? YAJL_GET_NUMBER(first_pid) : "-1");
		double min_ts = 0, max_end = 0;
		int have = 0;
		for (size_t e = 0; e < events->u.array.len; e++) {
			yajl_val event = events->u.array.values[e];
			yajl_val ts_value = field(event, "ts"), dur_value = field(event, "dur");
			double ts = -1, dur = -1;
			CHECK(field(event, "ph") && field(event, "name") && field(event, "pid") && field(event, "tid") &&
			      ts_value);
			if (ts_value)
				number_of(&ts, ts_value);
			if (dur_value)
				number_of(&dur, dur_value);
			else
				instants++;
			if (ts < 0 || dur < 0 || ts + dur < 0)
				continue;
			if (!have || ts < min_ts)
				min_ts = ts;
			if (!have || ts + dur > max_end)
				max_end = ts + dur;
			have = 1;
		}
		CHECK(have);
		add_row(&derived, role, min_ts, max_end, YAJL_GET_INTEGER(field(info, "rank")), tid);
		yajl_tree_free(trace);
	}
	read_expected(&expected, dir);
	check_same_rows(&derived, &expected, "torch");
	CHECK_INT(expected.count, 2 * 3 * 2);
	CHECK(skipped > 0);
	CHECK(instants > 0);
	strings_free(&paths);
	strings_free(&derived);
	strings_free(&expected);
}

/*
 * timeline.md §5: one row per eventType-60 range; RANK from META_DATA_CAPTURE; tid from the file name.
 * Dense captures have no kernel and no other-domain range between the ranges.
 */
static void check_nvtx(const char *dir, int dense)
{
	strings paths = { 0 }, derived = { 0 }, expected = { 0 };
	regex_t rank_rule;
	int other_tables = 0, between_ranges = 0;

	CHECK(regcomp(&rank_rule, "^RANK=\"?([0-9]+)\"?$", REG_EXTENDED | REG_ICASE) == 0);
	generate_shape(dir, SYNTH_NVTX, 3, 3, 2, 7, 13, dense);
	walk(&paths, dir);
	for (size_t i = 0; i < paths.count; i++) {
		const char *path = paths.items[i];
		const char *base = strrchr(path, '/') + 1;
		if (!ends_with(path, ".jsonl"))
			continue;
		char tid[32];
		snprintf(tid, sizeof(tid), "%.*s", (int)strcspn(base + 15, "."), base + 15);
		CHECK(strncmp(base, "worker_process_", 15) == 0);

		char *text = read_all(path, NULL), *save = NULL;
		char *names[256] = { 0 };
		long long rank = -1, start_time = -1;
		long long starts[4096], ends[4096];
		int text_ids[4096], ranges = 0;
		for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char error[128];
			yajl_val row = yajl_tree_parse(line, error, sizeof(error));
			CHECK(row != NULL);
			if (!row)
				continue;
			yajl_val table = field(row, "table"), event_type = field(row, "eventType");
			const char *table_name = YAJL_IS_STRING(table) ? YAJL_GET_STRING(table) : "";
			if (strcmp(table_name, "StringIds") == 0) {
				long long id = YAJL_GET_INTEGER(field(row, "id"));
				CHECK(id >= 0 && id < 256);
				if (id >= 0 && id < 256) {
					free(names[id]);
					names[id] = strdup(text_of(field(row, "value")));
				}
			} else if (strcmp(table_name, "META_DATA_CAPTURE") == 0 &&
				   strstr(text_of(field(row, "name")), "ENVIRONMENT_VARIABLE")) {
				regmatch_t match[2];
				if (regexec(&rank_rule, text_of(field(row, "value")), 2, match, 0) == 0)
					rank = strtoll(text_of(field(row, "value")) + match[1].rm_so, NULL, 10);
			} else if (strcmp(table_name, "ANALYSIS_DETAILS") == 0) {
				start_time = YAJL_GET_INTEGER(field(row, "startTime"));
			} else if (event_type && YAJL_GET_INTEGER(event_type) == 60 && ranges < 4096) {
				starts[ranges] = YAJL_GET_INTEGER(field(row, "start"));
				ends[ranges] = YAJL_GET_INTEGER(field(row, "end"));
				text_ids[ranges++] = (int)YAJL_GET_INTEGER(field(row, "textId"));
			} else {
				other_tables++;
				between_ranges += strncmp(table_name, "CUPTI_", 6) == 0 ||
						  strcmp(table_name, "NVTX_EVENTS") == 0;
			}
			yajl_tree_free(row);
		}
		CHECK(rank >= 0);
		CHECK(start_time > 0);
		CHECK_INT(ranges, 7);
		for (int r = 0; r < ranges; r++) {
			const char *label = text_ids[r] >= 0 && text_ids[r] < 256 ? names[text_ids[r]] : NULL;
			char line[512];
			double start = (double)(starts[r] + start_time) / 1000 / 1000;
			double duration = (double)(ends[r] - starts[r]) / 1000 / 1000;
			CHECK(label && *label);
			snprintf(line, sizeof(line), "%s,%s,default,%.17g,%.17g,%.17g,%lld,%s", label ? label : "",
				 label ? label : "", start, start + duration, duration, rank, tid);
			strings_add(&derived, line);
		}
		for (int n = 0; n < 256; n++)
			free(names[n]);
		free(text);
	}
	regfree(&rank_rule);
	read_expected(&expected, dir);
	check_same_rows(&derived, &expected, "nvtx");
	CHECK_INT(expected.count, 3 * 3 * 2 * 7);
	CHECK(other_tables > 0);
	if (dense)
		CHECK_INT(between_ranges, 0);
	else
		CHECK(between_ranges > 0);
	strings_free(&paths);
	strings_free(&derived);
	strings_free(&expected);
}

/* Same seed, same bytes; another seed, other numbers. */
static void check_determinism(const char *work)
{
	char a[4096], b[4096], c[4096];
	strings left = { 0 }, right = { 0 };

	snprintf(a, sizeof(a), "%s/seed_a", work);
	snprintf(b, sizeof(b), "%s/seed_b", work);
	snprintf(c, sizeof(c), "%s/seed_c", work);
	generate(a, SYNTH_TORCH, 2, 2, 1, 20, 5);
	generate(b, SYNTH_TORCH, 2, 2, 1, 20, 5);
	generate(c, SYNTH_TORCH, 2, 2, 1, 20, 6);
	walk(&left, a);
	walk(&right, b);
	CHECK_INT(left.count, right.count);
	for (size_t i = 0; i < left.count && i < right.count; i++) {
		struct stat st;
		if (stat(left.items[i], &st) != 0 || S_ISDIR(st.st_mode))
			continue;
		size_t n1, n2;
		char *x = read_all(left.items[i], &n1), *y = read_all(right.items[i], &n2);
		CHECK(n1 == n2 && memcmp(x, y, n1) == 0);
		free(x);
		free(y);
	}
	char path_a[4200], path_c[4200];
	snprintf(path_a, sizeof(path_a), "%s/expected.csv", a);
	snprintf(path_c, sizeof(path_c), "%s/expected.csv", c);
	char *x = read_all(path_a, NULL), *y = read_all(path_c, NULL);
	CHECK(strcmp(x, y) != 0);
	free(x);
	free(y);
	strings_free(&left);
	strings_free(&right);
}

/* --target-bytes sizes the traces to within a few percent. */
static void check_target_bytes(const char *work)
{
	char dir[4096];
	strings paths = { 0 };
	long long total = 0;
	const long long target = 3 << 20;

	snprintf(dir, sizeof(dir), "%s/sized", work);
	synth_options options = { .format = SYNTH_MSTX, .ranks = 2, .roles = 2, .steps = 1,
				  .target_bytes = target, .seed = 3, .output_dir = dir };
	CHECK_INT(synth_run(&options), 0);
	walk(&paths, dir);
	for (size_t i = 0; i < paths.count; i++) {
		struct stat st;
		if (ends_with(paths.items[i], "trace_view.json") && stat(paths.items[i], &st) == 0)
			total += st.st_size;
	}
	CHECK(total > target * 95 / 100 && total < target * 105 / 100);
	strings_free(&paths);
}

/* Leftovers of an earlier run would be read as part of this one. */
static void remove_tree(const char *root)
{
	strings paths = { 0 };
	walk(&paths, root);
	for (size_t i = paths.count; i-- > 0;)
		remove(paths.items[i]);
	strings_free(&paths);
}

int main(int argc, char **argv)
{
	char dir[4096];
	if (argc < 2) {
		fprintf(stderr, "usage: synth_selftest WORKDIR\n");
		return 2;
	}
	remove_tree(argv[1]);
	snprintf(dir, sizeof(dir), "%s/mstx", argv[1]);
	check_mstx(dir);
	snprintf(dir, sizeof(dir), "%s/torch", argv[1]);
	check_torch(dir);
	snprintf(dir, sizeof(dir), "%s/nvtx", argv[1]);
	check_nvtx(dir, 0);
	snprintf(dir, sizeof(dir), "%s/nvtx_dense", argv[1]);
	check_nvtx(dir, 1);
	check_determinism(argv[1]);
	check_target_bytes(argv[1]);
	TEST_DONE();
}

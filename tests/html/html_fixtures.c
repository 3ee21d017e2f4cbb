/* html_fixtures.c: renders the HTML back-end's test inputs, checks the written text, and records what the browser must show. */
#include "harness.h"
#include "render/render_cases.h"

#include "common/json_write.h"
#include "common/numfmt.h"
#include "events/events.h"
#include "layout/layout.h"
#include "rl_insight.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>

/* Absolute origin like a real epoch-ms capture, so relative times carry binary fractions. */
#define EPOCH_MS 1773285888698.7546

#define HOSTILE_ROLE "</script><img src=x onerror=\"window.__pwned=1;alert(1)\">"
#define HOSTILE_NAME "<img src=x onerror=alert(2)>&amp;\xe2\x80\xa8'\"</style>"
#define HOSTILE_NAME_2 "</script><script>window.__pwned=2</script><!--"

static char *path_join(const char *dir, const char *name)
{
	size_t size = strlen(dir) + strlen(name) + 2;
	char *path = malloc(size);
	if (path)
		snprintf(path, size, "%s/%s", dir, name);
	return path;
}

static size_t count_occurrences(const char *text, const char *needle)
{
	size_t count = 0;
	for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
		count++;
	return count;
}

static void add(rli_events *events, const char *role, int64_t rank, const char *name,
		double start_rel, double duration)
{
	rli_event_in row = { 0 };
	row.name = name;
	row.role = role;
	row.tid = "1";
	row.rank_id = rank;
	row.start_ms = EPOCH_MS + start_rel;
	row.duration_ms = duration;
	CHECK_INT(rli_events_append(events, &row), RLI_OK);
}

/* A row set the tests know: four rows whose rank order and role order differ. */
static void fill_known(rli_events *events)
{
	add(events, "actor", 0, "generate", 0.0, 400.0004);
	add(events, "actor", 0, "update", 900.3337, 700.25);
	add(events, "actor", 1, "generate", 50.5, 399.7501);
	add(events, "actor", 1, "update", 950.0, 750.0);
	add(events, "rollout", 0, "generate", 10.1234, 369.8766);
	add(events, "rollout", 0, "reward", 1000.0, 550.1235);
	add(events, "critic", 2, "update", 1100.0, 700.0);
	/* Overlapping bars in one row: the later series draws on top and answers the hover. */
	add(events, "critic", 2, "reward", 1150.0, 100.0);
}

static void fill_hostile(rli_events *events)
{
	add(events, HOSTILE_ROLE, 0, HOSTILE_NAME, 0.0, 300.0);
	add(events, HOSTILE_ROLE, 1, HOSTILE_NAME_2, 100.0, 300.0);
	add(events, "safe & sound", 0, HOSTILE_NAME, 50.0, 200.0);
}

/* 32 ranks x 2 roles, one long bar each across a shared time, plus dense sub-pixel traffic. */
static void fill_ranks(rli_events *events)
{
	static const char *roles[] = { "actor_update", "rollout" };
	uint64_t state = 42;
	for (int64_t rank = 0; rank < 32; rank++) {
		for (int r = 0; r < 2; r++) {
			add(events, roles[r], rank, r ? "generate_sequences" : "update_actor",
			    200.0 + 3.0 * (double)rank, 1500.0 + 7.0 * (double)r);
			for (int i = 0; i < 60; i++) {
				state = state * 6364136223846793005ULL + 1442695040888963407ULL;
				double jitter = (double)(state >> 40) / (double)(1ULL << 24);
				add(events, roles[r], rank, "kernel_launch", 2000.0 + 40.0 * i + jitter, 0.05 + jitter * 0.2);
			}
		}
	}
}

/* Times no 53-bit binary grid holds (1e-10 next to 1e6): the float64 fallback encoding. */
static void fill_fallback(rli_events *events)
{
	rli_event_in row = { 0 };
	row.name = "tiny";
	row.role = "actor";
	row.tid = "1";
	row.start_ms = 0.0;
	row.duration_ms = 1e-10;
	CHECK_INT(rli_events_append(events, &row), RLI_OK);
	row.name = "long";
	row.start_ms = 0.1;
	row.duration_ms = 1e6 / 3.0;
	CHECK_INT(rli_events_append(events, &row), RLI_OK);
	row.rank_id = 1;
	row.start_ms = 123.456789;
	row.duration_ms = 0.3;
	CHECK_INT(rli_events_append(events, &row), RLI_OK);
}

/* More rows than the page has room to label: the layout thins the labels. */
static void fill_crowded(rli_events *events)
{
	for (int64_t rank = 0; rank < 1000; rank++) {
		add(events, "actor", rank, "update_actor", 10.0 * (double)(rank % 50), 300.0);
		add(events, "rollout", rank, "generate_sequences", 500.0, 200.0 + (double)(rank % 7));
	}
}

/* A laptop's worth of rows (12 ranks x 2 roles = 24): more than a 1280 x 800 window holds at once. */
static void fill_laptop(rli_events *events)
{
	static const char *roles[] = { "actor_rollout", "actor_update" };
	static const char *phases[] = { "generate_sequences", "compute_log_prob", "update_actor" };
	for (int64_t rank = 0; rank < 12; rank++) {
		for (int r = 0; r < 2; r++) {
			double at = 5.0 * (double)rank + 40.0 * r;
			for (int step = 0; step < 3; step++) {
				for (int p = 0; p < 3; p++) {
					double length = 300.0 + 25.0 * (double)((rank + p) % 4) + 10.0 * r;
					add(events, roles[r], rank, phases[p], at, length);
					at += length + 20.0;
				}
			}
		}
	}
}

/* Bars enough to measure the encoding's cost per bar; times like a real capture's. */
static void fill_many(rli_events *events, size_t count)
{
	uint64_t state = 7;
	double clock[16] = { 0 };
	for (size_t i = 0; i < count; i++) {
		size_t row = i % 16;
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		double duration = 0.01 + (double)(state >> 44) / 1048576.0 * 5.0;
		add(events, row < 8 ? "actor" : "rollout", (int64_t)(row % 8),
		    (state >> 20) % 3 == 0 ? "forward" : (state >> 20) % 3 == 1 ? "backward" : "allreduce",
		    clock[row], duration);
		clock[row] += duration + (double)((state >> 8) & 1023) / 1024.0;
	}
}

/* "1,234.567 ms": ms in a unit as the pages write times (core.js fmtTimeUnit): 3 decimals, 2 in min, separated. */
static char *time_text(char *out, size_t size, double ms, rli_time_unit unit)
{
	char number[64];
	rli_fmt_thousands(number, sizeof(number), ms / unit.ms, unit.ms >= 60e3 ? 2 : 3);
	snprintf(out, size, "%s %s", number, unit.name);
	return out;
}

/* A duration in its own unit (core.js fmtDuration): ms below 1 s, s below 10 min, then min. */
static char *duration_text(char *out, size_t size, double ms)
{
	rli_time_unit unit = rli_time_unit_for(ms);
	if (fabs(ms) >= 1e3 && fabs(ms) < 600e3)
		unit = (rli_time_unit){ "s", 1e3 };
	return time_text(out, size, ms, unit);
}

static void write_expect_bar(FILE *fp, const rli_timeline *timeline, size_t i, uint32_t *role_position)
{
	/* the page opens on the whole range: its times in that span's unit */
	rli_time_unit unit = rli_time_unit_for(timeline->panel.x_max - timeline->panel.x_min);
	char text[128];
	const rli_row *row = &timeline->panel.rows[timeline->panel.bar_row[i]];
	double start = timeline->panel.bar_start[i], end = timeline->panel.bar_end[i];
	char line[256];
	fputs("{\"row\":", fp);
	fprintf(fp, "%" PRIu32 ",\"rolePosition\":%" PRIu32 ",\"label\":", timeline->panel.bar_row[i],
		role_position[timeline->panel.bar_row[i]]);
	rli_json_write_string(fp, row->label, RLI_JSON_PLAIN);
	fputs(",\"name\":", fp);
	rli_json_write_string(fp, timeline->series[timeline->panel.bar_series[i]].name, RLI_JSON_PLAIN);
	fputs(",\"start\":", fp);
	rli_json_write_double(fp, start);
	fputs(",\"end\":", fp);
	rli_json_write_double(fp, end);
	/* what the hover must read, formatted here by C, not by the page */
	fputs(",\"hover\":[", fp);
	rli_json_write_string(fp, timeline->series[timeline->panel.bar_series[i]].name, RLI_JSON_PLAIN);
	snprintf(line, sizeof(line), "Start: %s", time_text(text, sizeof(text), start, unit));
	fputc(',', fp);
	rli_json_write_string(fp, line, RLI_JSON_PLAIN);
	snprintf(line, sizeof(line), "End: %s", time_text(text, sizeof(text), end, unit));
	fputc(',', fp);
	rli_json_write_string(fp, line, RLI_JSON_PLAIN);
	snprintf(line, sizeof(line), "Duration: %s", duration_text(text, sizeof(text), end - start));
	fputc(',', fp);
	rli_json_write_string(fp, line, RLI_JSON_PLAIN);
	/* the rank alone: the row's label (role and rank) is beside the row already */
	snprintf(line, sizeof(line), "Rank: %" PRId64, row->rank);
	fputc(',', fp);
	rli_json_write_string(fp, line, RLI_JSON_PLAIN);
	/* the same in each unit a zoomed view counts in: its axis title names the one in force */
	fputs("],\"hoverIn\":{", fp);
	for (int u = 0; u < 3; u++) {
		static const rli_time_unit units[] = { { "ms", 1.0 }, { "s", 1e3 }, { "min", 60e3 } };
		char start_text[96], end_text[96];
		time_text(start_text, sizeof(start_text), start, units[u]);
		time_text(end_text, sizeof(end_text), end, units[u]);
		fprintf(fp, "%s\"%s\":[", u ? "," : "", units[u].name);
		rli_json_write_string(fp, timeline->series[timeline->panel.bar_series[i]].name, RLI_JSON_PLAIN);
		snprintf(line, sizeof(line), "Start: %s", start_text);
		fputc(',', fp);
		rli_json_write_string(fp, line, RLI_JSON_PLAIN);
		snprintf(line, sizeof(line), "End: %s", end_text);
		fputc(',', fp);
		rli_json_write_string(fp, line, RLI_JSON_PLAIN);
		snprintf(line, sizeof(line), "Duration: %s", duration_text(text, sizeof(text), end - start));
		fputc(',', fp);
		rli_json_write_string(fp, line, RLI_JSON_PLAIN);
		snprintf(line, sizeof(line), "Rank: %" PRId64, row->rank);
		fputc(',', fp);
		rli_json_write_string(fp, line, RLI_JSON_PLAIN);
		fputc(']', fp);
	}
	fprintf(fp, "},\"rank\":\"%" PRId64 "\"}", row->rank);
}

/* The model facts the browser test compares the page against. */
static int write_expect(const char *path, const rli_timeline *timeline)
{
	FILE *fp = fopen(path, "w");
	uint32_t *role_position = calloc(timeline->panel.row_count ? timeline->panel.row_count : 1, sizeof(uint32_t));
	if (!fp || !role_position) {
		if (fp)
			fclose(fp);
		free(role_position);
		return -1;
	}
	for (size_t p = 0; p < timeline->panel.row_count; p++)
		role_position[timeline->panel.order_by_role[p]] = (uint32_t)p;
	fputs("{\"rows\":[", fp);
	for (size_t r = 0; r < timeline->panel.row_count; r++) {
		if (r)
			fputc(',', fp);
		rli_json_write_string(fp, timeline->panel.rows[r].label, RLI_JSON_PLAIN);
	}
	fputs("],\"roleOrder\":[", fp);
	for (size_t p = 0; p < timeline->panel.row_count; p++) {
		if (p)
			fputc(',', fp);
		rli_json_write_string(fp, timeline->panel.rows[timeline->panel.order_by_role[p]].label, RLI_JSON_PLAIN);
	}
	fputs("],\"series\":[", fp);
	for (size_t s = 0; s < timeline->series_count; s++) {
		if (s)
			fputc(',', fp);
		rli_json_write_string(fp, timeline->series[s].name, RLI_JSON_PLAIN);
	}
	fputs("],\"ticks\":[", fp);
	for (size_t t = 0; t < timeline->panel.xtick_count; t++) {
		if (t)
			fputc(',', fp);
		rli_json_write_string(fp, timeline->panel.xticks[t].label, RLI_JSON_PLAIN);
	}
	fputs("],\"title\":", fp);
	rli_json_write_string(fp, timeline->title.text, RLI_JSON_PLAIN);
	fputs(",\"xMin\":", fp);
	rli_json_write_double(fp, timeline->panel.x_min);
	fputs(",\"xMax\":", fp);
	rli_json_write_double(fp, timeline->panel.x_max);
	fprintf(fp, ",\"barCount\":%zu,\"bars\":[", timeline->panel.bar_count);
	for (size_t i = 0; i < timeline->panel.bar_count; i++) {
		if (i)
			fputs(",\n", fp);
		write_expect_bar(fp, timeline, i, role_position);
	}
	fputs("]}\n", fp);
	free(role_position);
	return fclose(fp) == 0 ? 0 : -1;
}

typedef void (*fill_fn)(rli_events *events);

/* events -> layout -> html; also the expectations when expect is set. Returns the file's text. */
static char *render_fixture(const char *dir, const char *name, fill_fn fill, size_t many,
			    int expect, size_t *length, size_t *bars)
{
	rli_events *events = NULL;
	rli_timeline *timeline = NULL;
	char file[256], *path = NULL, *text = NULL;
	int error;

	CHECK_INT(rli_events_new(&events), RLI_OK);
	if (!events)
		return NULL;
	if (fill)
		fill(events);
	else
		fill_many(events, many);
	CHECK_INT(rli_events_sort_by_start(events), RLI_OK);
	error = rli_timeline_layout(&timeline, events, NULL);
	CHECK_INT(error, RLI_OK);
	if (error < 0) {
		fprintf(stderr, "%s: layout: %s\n", name, rli_error_last());
		goto done;
	}
	*bars = timeline->panel.bar_count;
	snprintf(file, sizeof(file), "%s.html", name);
	path = path_join(dir, file);
	error = case_render(timeline, "html", path);
	CHECK_INT(error, RLI_OK);
	if (error < 0) {
		fprintf(stderr, "%s: render: %s\n", name, rli_error_last());
		goto done;
	}
	if (getenv("RLI_HTML_FIXTURES_PNG") || strcmp(name, "known") == 0) {
		/* the PNG of the same model, to put next to screenshots of the page */
		free(path);
		snprintf(file, sizeof(file), "%s.png", name);
		path = path_join(dir, file);
		CHECK_INT(case_render(timeline, "png", path), RLI_OK);
		free(path);
		snprintf(file, sizeof(file), "%s.html", name);
		path = path_join(dir, file);
	}
	if (expect) {
		free(path);
		snprintf(file, sizeof(file), "%s.expect.json", name);
		path = path_join(dir, file);
		CHECK_INT(write_expect(path, timeline), 0);
		free(path);
		snprintf(file, sizeof(file), "%s.html", name);
		path = path_join(dir, file);
	}
	text = test_read_file(path, length);
	CHECK(text != NULL);
done:
	free(path);
	rli_timeline_free(timeline);
	rli_events_free(events);
	return text;
}

/* The page's three script elements are the only places "</script" may appear. */
static void check_structure(const char *name, const char *text)
{
	CHECK(strncmp(text, "<!DOCTYPE html>", 15) == 0);
	CHECK_INT(count_occurrences(text, "</script"), 3);
	CHECK_INT(count_occurrences(text, "<script"), 3);
	CHECK_INT(count_occurrences(text, "<style"), 1);
	CHECK_INT(count_occurrences(text, "</style"), 1);
	CHECK(strstr(text, "id=\"rli-model\"") != NULL);
	CHECK(strstr(text, "id=\"rli-bars\"") != NULL);
	/* self-contained: nothing fetched from anywhere */
	CHECK(strstr(text, "http://") == NULL && strstr(text, "https://") == NULL);
	if (rli_test_failures)
		fprintf(stderr, "(in %s)\n", name);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	size_t length = 0, bars = 0;
	char *text;

	mkdir(dir, 0777);

	text = render_fixture(dir, "known", fill_known, 0, 1, &length, &bars);
	if (text) {
		check_structure("known", text);
		CHECK_INT(bars, 8);
		CHECK(strstr(text, "\"label\":\"rollout - Rank 0\"") != NULL);
		/* every model time survives bit-exactly: here on the 2^-k grid, not the float64 fallback */
		CHECK(strstr(text, "\"encoding\":\"grid\"") != NULL);
		free(text);
	}

	text = render_fixture(dir, "hostile", fill_hostile, 0, 1, &length, &bars);
	if (text) {
		check_structure("hostile", text);
		/* the markup from the input never appears raw: no tag, no comment opener */
		CHECK(strstr(text, "<img") == NULL);
		CHECK(strstr(text, "<!--") == NULL);
		CHECK(strstr(text, "\xe2\x80\xa8") == NULL);
		CHECK(strstr(text, "\\u003c/script\\u003e\\u003cimg src=x onerror=\\\"window.__pwned=1;alert(1)\\\"\\u003e") != NULL);
		CHECK(strstr(text, "safe \\u0026 sound") != NULL);
		/* the document title is HTML text: escaped as such; an epoch origin reads as UTC */
		CHECK(strstr(text, "<title>RL Timeline (t = 0 at 2026-03-12 03:24:48.699 UTC)</title>") != NULL);
		free(text);
	}

	text = render_fixture(dir, "ranks", fill_ranks, 0, 1, &length, &bars);
	if (text) {
		check_structure("ranks", text);
		CHECK_INT(bars, 64 * 61);
		free(text);
	}

	text = render_fixture(dir, "fallback", fill_fallback, 0, 1, &length, &bars);
	if (text) {
		check_structure("fallback", text);
		CHECK(strstr(text, "\"encoding\":\"float64\"") != NULL);
		free(text);
	}

	text = render_fixture(dir, "crowded", fill_crowded, 0, 1, &length, &bars);
	if (text) {
		check_structure("crowded", text);
		CHECK_INT(bars, 2000);
		/* the model thins labels here; the page gets them all in rows[] to thin by position */
		CHECK(strstr(text, "\"label\":\"rollout - Rank 999\"") != NULL);
		free(text);
	}

	text = render_fixture(dir, "laptop", fill_laptop, 0, 1, &length, &bars);
	if (text) {
		check_structure("laptop", text);
		CHECK_INT(bars, 24 * 9);
		free(text);
	}

	text = render_fixture(dir, "many", NULL, 200000, 0, &length, &bars);
	if (text) {
		check_structure("many", text);
		CHECK_INT(bars, 200000);
		/* the budget, everything in the file included */
		CHECK(bars > 0 && (double)length / (double)bars < 16.0);
		printf("many: %zu bars, %zu bytes, %.2f bytes/bar\n", bars, length,
		       bars ? (double)length / (double)bars : 0.0);
		free(text);
	}

	TEST_DONE();
}

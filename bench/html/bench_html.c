/* bench_html.c: writes a million-bar rl_timeline.html (events -> layout -> html) and reports its size per bar. */
#include "events/events.h"
#include "layout/layout.h"
#include "rl_insight.h"
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define EPOCH_MS 1773285888698.7546

static uint64_t next_random(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 11;
}

static double unit_random(uint64_t *state)
{
	return (double)next_random(state) / 9007199254740992.0;
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/*
 * A capture-like load: 32 ranks x 2 roles, eight kernel/phase names, bars
 * from 10 us to 50 ms (log-uniform) separated by short gaps, each row's
 * clock running independently from the shared epoch origin.
 */
static int fill(rli_events *events, size_t count)
{
	static const char *names[] = { "forward", "backward", "optimizer_step", "allreduce",
				       "generate", "compute_log_prob", "h2d_copy", "d2h_copy" };
	static const char *roles[] = { "actor_update", "rollout" };
	enum { RANKS = 32, ROWS = 2 * RANKS };
	double clock[ROWS] = { 0 };
	uint64_t state = 2026;
	for (size_t i = 0; i < count; i++) {
		size_t row = (size_t)(next_random(&state) % ROWS);
		double duration = 0.01 * pow(5000.0, unit_random(&state));
		double gap = 0.002 + unit_random(&state) * 0.5;
		rli_event_in event = { 0 };
		event.name = names[next_random(&state) % 8];
		event.role = roles[row % 2];
		event.tid = "1";
		event.rank_id = (int64_t)(row / 2);
		event.start_ms = EPOCH_MS + clock[row];
		event.duration_ms = duration;
		clock[row] += duration + gap;
		if (rli_events_append(events, &event) < 0)
			return -1;
	}
	return rli_events_sort_by_start(events);
}

/* The document names its file (rl_timeline.<ext>) in a folder: render beside path, then take path's name. */
static int render_to(const rli_timeline *timeline, const char *backend, const char *extension, const char *path)
{
	char dir[4096], written[4200];
	const char *slash = strrchr(path, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (rli_render(rli_timeline_document(timeline), backend, dir, NULL) < 0)
		return -1;
	snprintf(written, sizeof(written), "%s/rl_timeline%s", dir, extension);
	if (strcmp(written, path) != 0 && rename(written, path) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* usage: bench_html [out.html [bars [out.png]]]; the PNG is the same model, for comparing looks */
	const char *path = argc > 1 ? argv[1] : "bench_1m.html";
	size_t count = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 1000000;
	rli_events *events = NULL;
	rli_timeline *timeline = NULL;
	rli_stats *stats = NULL;
	struct timespec started;
	struct stat info;
	double stats_s, layout_s, render_s;
	int status = 1;

	if (rli_events_new(&events) < 0 || fill(events, count) < 0) {
		fprintf(stderr, "bench_html: %s\n", rli_error_last());
		goto done;
	}
	/* As the CLI does: the statistics once, handed to the layout for the page's side panel. */
	clock_gettime(CLOCK_MONOTONIC, &started);
	if (rli_stats_compute(&stats, events) < 0) {
		fprintf(stderr, "bench_html: stats: %s\n", rli_error_last());
		goto done;
	}
	stats_s = seconds_since(&started);
	clock_gettime(CLOCK_MONOTONIC, &started);
	if (rli_timeline_layout_stats(&timeline, events, stats, NULL) < 0) {
		fprintf(stderr, "bench_html: layout: %s\n", rli_error_last());
		goto done;
	}
	layout_s = seconds_since(&started);
	clock_gettime(CLOCK_MONOTONIC, &started);
	if (render_to(timeline, "html", ".html", path) < 0) {
		fprintf(stderr, "bench_html: render: %s\n", rli_error_last());
		goto done;
	}
	render_s = seconds_since(&started);
	if (argc > 3 && render_to(timeline, "png", ".png", argv[3]) < 0) {
		fprintf(stderr, "bench_html: png: %s\n", rli_error_last());
		goto done;
	}
	if (stat(path, &info) != 0) {
		perror(path);
		goto done;
	}
	printf("{\"bars\":%zu,\"bytes\":%lld,\"bytesPerBar\":%.3f,\"statsSeconds\":%.3f,\"layoutSeconds\":%.3f,"
	       "\"htmlWriteSeconds\":%.3f}\n", timeline->panel.bar_count, (long long)info.st_size,
	       (double)info.st_size / (double)timeline->panel.bar_count, stats_s, layout_s, render_s);
	status = 0;
done:
	rli_timeline_free(timeline);
	rli_stats_free(stats);
	rli_events_free(events);
	return status;
}

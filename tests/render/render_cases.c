/* render_cases.c: event tables the render tests draw, and a PNG reader for comparing what they drew. */
#include "render_cases.h"
#include "common/atomic_file.h"
#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

void case_add(rli_events *events, const char *name, const char *role, int64_t rank,
	      double start_ms, double duration_ms)
{
	rli_event_in row = {
		.name = name, .role = role, .tid = "1", .rank_id = rank,
		.start_ms = start_ms, .duration_ms = duration_ms,
	};
	if (rli_events_append(events, &row) < 0) {
		fprintf(stderr, "fixture: rli_events_append failed: %s\n", rli_error_last());
		exit(1);
	}
}

static rli_events *new_events(void)
{
	rli_events *events;
	if (rli_events_new(&events) < 0) {
		fprintf(stderr, "fixture: rli_events_new failed\n");
		exit(1);
	}
	return events;
}

rli_events *case_few_rows(void)
{
	rli_events *events = new_events();
	double t0 = 1773285888698.7546;
	case_add(events, "actor_compute_log_prob", "actor_compute_log_prob", 0, t0 + 10350.4, 60.444);
	case_add(events, "agent_loop_rollout_replica_0", "agent_loop_rollout_replica_0", 0, t0, 3900.1);
	case_add(events, "agent_loop_rollout_replica_0", "agent_loop_rollout_replica_0", 0, t0 + 3900.1, 2500);
	case_add(events, "ref_compute_log_prob", "ref_compute_log_prob", 1, t0 + 4754.5, 6164.82);
	case_add(events, "actor_update", "\xe6\x9b\xb4\xe6\x96\xb0\xe7\xad\x96\xe7\x95\xa5", 1, t0 + 5941.1, 8014.8);
	case_add(events, "actor_update", "\xe6\x9b\xb4\xe6\x96\xb0\xe7\xad\x96\xe7\x95\xa5", 1, t0 + 12000.0, 4000.0);
	case_add(events, "ref_compute_log_prob", "\xe6\x9b\xb4\xe6\x96\xb0\xe7\xad\x96\xe7\x95\xa5", 1, t0 + 13000.0, 1500.0);
	case_add(events, "zero_length_is_dropped", "actor_compute_log_prob", 0, t0 + 50.0, 0.0);
	return events;
}

rli_events *case_many_ranks(void)
{
	static const char *const roles[] = { "actor_update", "ref_compute_log_prob", "rollout" };
	rli_events *events = new_events();
	for (int rank = 0; rank < 80; rank++)
		for (int role = 0; role < 3; role++) {
			double start = 1000.0 * role + 7.0 * rank;
			case_add(events, roles[role], roles[role], rank, start, 800.0 + (rank * 37 % 200));
			if ((rank + role) % 3 == 0)
				case_add(events, "sync", roles[role], rank, start + 1500.0, 40.0 + rank % 50);
		}
	return events;
}

rli_events *case_many_names(void)
{
	/* VeRL's phases as NVTX names them, more than ten across three roles: each role's names a colour family */
	static const char *const actor[] = { "update_actor", "forward_micro_batch", "backward_micro_batch", "optimizer_step",
					     "all_reduce_grads" };
	static const char *const rollout[] = { "generate_sequences", "vllm_generate", "compute_reward_fn", "agent_loop" };
	static const char *const ref[] = { "compute_ref_log_prob", "compute_log_prob", "load_weights", "offload_params" };
	static const struct { const char *role; const char *const *names; int count; } roles[] = {
		{ "actor_update", actor, 5 }, { "rollout", rollout, 4 }, { "ref_compute_log_prob", ref, 4 },
	};
	rli_events *events = new_events();
	for (int r = 0; r < 3; r++)
		for (int rank = 0; rank < 2; rank++) {
			double t = 400.0 * r + 60.0 * rank;
			for (int step = 0; step < 2; step++)
				for (int n = 0; n < roles[r].count; n++) {
					double length = 120.0 + 35.0 * n + 20.0 * rank;
					case_add(events, roles[r].names[n], roles[r].role, rank, t, length);
					t += length + 15.0;
				}
		}
	return events;
}

rli_events *case_subpixel(void)
{
	rli_events *events = new_events();
	/* A deterministic generator, so the picture never changes between runs. */
	uint32_t state = 12345;
	for (int i = 0; i < 100000; i++) {
		int row = i % 4;
		double start, duration;
		state = state * 1664525u + 1013904223u;
		start = (double)(state >> 8) / (double)(1u << 24) * 60000.0;
		/* Denser in the middle of the run, so the coverage shows a gradient. */
		if (row == 1)
			start = 30000.0 + (start - 30000.0) * (start / 60000.0);
		duration = 0.5 + (double)(state & 0xFF) / 64.0;
		case_add(events, row % 2 ? "decode" : "prefill", "worker", row, start, duration);
	}
	case_add(events, "prefill", "worker", 0, 10000.0, 5000.0);
	case_add(events, "decode", "worker", 3, 20000.0, 2500.0);
	case_add(events, "decode", "worker", 3, 22500.0, 2500.0);
	return events;
}

rli_events *case_short_bar(size_t rows, double span_ms)
{
	rli_events *events = new_events();
	double t0 = 1773285888698.7546;
	for (size_t r = 0; r < rows; r++) {
		case_add(events, "generate_sequences", "rollout", (int64_t)r, t0 + 3.0 * (double)r, 0.4 * span_ms);
		case_add(events, "update_actor", "rollout", (int64_t)r, t0 + 0.5 * span_ms, 0.5 * span_ms);
	}
	/* The phase that once aborted the PDF back-end: a 1 ms bar in a long run. */
	case_add(events, "compute_reward", "rollout", (int64_t)rows - 1, t0 + 0.45 * span_ms, 1.0);
	return events;
}

/* Renders into a fresh folder beside path, then the one file the document named becomes path. */
int case_render_document(const rli_document *document, const char *backend, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096], written[4400];
	struct dirent *entry;
	DIR *listing;
	int error, files = 0;

	snprintf(dir, sizeof(dir), "%.*s/.render-XXXXXX", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (!mkdtemp(dir))
		return rli_error_set(RLI_EOUTPUT, "cannot make a folder beside %s", path);
	error = rli_render(document, backend, dir, NULL);
	if ((listing = opendir(dir))) {
		while ((entry = readdir(listing))) {
			if (entry->d_name[0] == '.')
				continue;
			snprintf(written, sizeof(written), "%s/%s", dir, entry->d_name);
			if (error == RLI_OK && files++ == 0 && rename(written, path) != 0)
				error = rli_error_set(RLI_EOUTPUT, "cannot rename %s to %s", written, path);
			remove(written);
		}
		closedir(listing);
	}
	rmdir(dir);
	if (error == RLI_OK && files != 1)
		error = rli_error_set(RLI_ERROR, "%s wrote %d files, not one", backend, files);
	return error;
}

int case_render(const rli_timeline *timeline, const char *backend, const char *path)
{
	return case_render_document(rli_timeline_document(timeline), backend, path);
}

/* Per channel, what pixman or FreeType builds may round differently. */
#define CHANNEL_TOLERANCE 3
/* Differing pixels allowed: one in 100,000, far fewer than one glyph or one bar edge. */
#define ALLOWED_DIFFERING_PER 100000

/* 0 when the images match within tolerance; prints what differs otherwise. */
int case_compare_png(const char *name, const char *golden_path, const char *actual_path)
{
	png_image golden, actual;
	png_bytep golden_pixels = NULL, actual_pixels = NULL;
	size_t differing = 0, total, allowed;
	int worst = 0, result = -1;

	if (case_read_png(&golden, &golden_pixels, golden_path) < 0) {
		fprintf(stderr, "%s: cannot read %s (run with RLI_UPDATE_GOLDEN=1 to create it)\n", name,
			golden_path);
		goto done;
	}
	if (case_read_png(&actual, &actual_pixels, actual_path) < 0) {
		fprintf(stderr, "%s: cannot read the rendered %s\n", name, actual_path);
		goto done;
	}
	if (golden.width != actual.width || golden.height != actual.height) {
		fprintf(stderr, "%s: size %ux%u, golden %ux%u\n", name, actual.width, actual.height,
			golden.width, golden.height);
		goto done;
	}
	total = (size_t)golden.width * golden.height;
	for (size_t i = 0; i < total; i++) {
		int pixel_worst = 0;
		for (int c = 0; c < 3; c++) {
			int d = abs((int)golden_pixels[3 * i + c] - (int)actual_pixels[3 * i + c]);
			if (d > pixel_worst)
				pixel_worst = d;
		}
		if (pixel_worst > worst)
			worst = pixel_worst;
		if (pixel_worst > CHANNEL_TOLERANCE)
			differing++;
	}
	allowed = total / ALLOWED_DIFFERING_PER;
	fprintf(stderr, "%s: %zu of %zu pixels differ by more than %d (allowed %zu), largest difference %d\n",
		name, differing, total, CHANNEL_TOLERANCE, allowed, worst);
	result = differing <= allowed ? 0 : -1;

done:
	free(golden_pixels);
	free(actual_pixels);
	return result;
}

int case_read_png(png_image *image, png_bytep *pixels, const char *path)
{
	memset(image, 0, sizeof(*image));
	image->version = PNG_IMAGE_VERSION;
	*pixels = NULL;
	if (!png_image_begin_read_from_file(image, path))
		return -1;
	image->format = PNG_FORMAT_RGB;
	*pixels = malloc(PNG_IMAGE_SIZE(*image));
	if (!*pixels || !png_image_finish_read(image, NULL, *pixels, 0, NULL)) {
		png_image_free(image);
		free(*pixels);
		*pixels = NULL;
		return -1;
	}
	return 0;
}

/*
 * Along a row's centre line, how dark each pixel is (0 white, 255 black):
 * bars are dark, the grid faint, the background 0. Antialiasing and the
 * per-column coverage of sub-pixel bars make edges grey in both pictures,
 * so the two are compared as sums and as "dark" columns away from edges.
 */
static int darkness(const png_byte *rgb)
{
	int lowest = rgb[0] < rgb[1] ? rgb[0] : rgb[1];
	return 255 - (lowest < rgb[2] ? lowest : rgb[2]);
}

#define DARK 96               /* a bar's body, not a grid line nor a faint coverage column */
#define SUM_TOLERANCE 0.04    /* of the row's total darkness */
#define EDGE_PIXELS 2         /* columns this close to a change in the PNG may differ */
#define MISMATCH_ALLOWED 2    /* dark-or-not disagreements per row away from edges */

static int near_edge(const png_byte *row, int x, int first, int last)
{
	int here = darkness(row + 3 * x) >= DARK;
	for (int d = -EDGE_PIXELS; d <= EDGE_PIXELS; d++) {
		int n = x + d;
		if (n >= first && n <= last && (darkness(row + 3 * n) >= DARK) != here)
			return 1;
	}
	return 0;
}

int case_compare_lanes(const char *what, const rli_panel *panel, double s, const png_image *png, const png_byte *a,
		       const png_byte *b)
{
	int first = (int)ceil(panel->plot.x * s) + 1, last = (int)floor((panel->plot.x + panel->plot.w) * s) - 2;
	int failed = 0;

	for (size_t r = 0; r < panel->row_count; r++) {
		int y = (int)lround((panel->plot.y + ((double)r + 0.5) * panel->row_pitch) * s);
		const png_byte *row_a = a + (size_t)y * png->width * 3, *row_b = b + (size_t)y * png->width * 3;
		double sum_a = 0, sum_b = 0;
		int mismatches = 0;

		for (int x = first; x <= last; x++) {
			int da = darkness(row_a + 3 * x), db = darkness(row_b + 3 * x);
			sum_a += da;
			sum_b += db;
			if ((da >= DARK) != (db >= DARK) && !near_edge(row_a, x, first, last))
				mismatches++;
		}
		if (fabs(sum_a - sum_b) > SUM_TOLERANCE * fmax(sum_a, sum_b) + 4 * 255 ||
		    mismatches > MISMATCH_ALLOWED) {
			fprintf(stderr, "%s: row %zu: PNG darkness %.0f, PDF %.0f, %d dark columns differ\n", what, r,
				sum_a, sum_b, mismatches);
			failed++;
		}
	}
	return failed;
}

int case_golden_args(int argc, char **argv, int *updating)
{
	const char *update = getenv("RLI_UPDATE_GOLDEN");

	*updating = update && strcmp(update, "1") == 0;
	if (argc != 3 || rli_mkdir_p(argv[2]) < 0) {
		fprintf(stderr, "usage: %s GOLDEN_DIR ACTUAL_DIR\n", argv[0]);
		return 2;
	}
	return 0;
}

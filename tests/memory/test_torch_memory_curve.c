/* test_torch_memory_curve.c: the memory curve the figure draws from a torch trace's allocation/free pairs is the trace's own Total Allocated at every row, less what was allocated before the capture. */
#include "harness.h"
#include "memory/memory_curve.h"
#include "memory/memory_table.h"
#include "common/bigmem.h"
#include "torch_fixture.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

/* One device of the trace: (role, rank, device_type); one trace each, the generator's steps being 1. */
typedef struct {
	const char *role, *device_type;
	int64_t rank;
	size_t *rows; /* into the sorted rows, in start order */
	size_t count;
} device_rows;

static device_rows *device_of(device_rows *devices, size_t *device_count, const rli_memory_row *row, size_t total)
{
	for (size_t d = 0; d < *device_count; d++)
		if (devices[d].rank == row->rank_id && !strcmp(devices[d].role, row->role) &&
		    !strcmp(devices[d].device_type, row->device_type))
			return &devices[d];
	devices[*device_count] = (device_rows){row->role, row->device_type, row->rank_id, calloc(total, sizeof(size_t)), 0};
	if (!devices[*device_count].rows)
		abort();
	return &devices[(*device_count)++];
}

/* The curve's value after the changes at t (relative to the first allocation): the last step point not after t. */
static double curve_at(const double *x, const double *y, size_t points, double t)
{
	size_t low = 0, high = points; /* the first point after t */
	while (low < high) {
		size_t mid = low + (high - low) / 2;
		if (x[mid] <= t)
			low = mid + 1;
		else
			high = mid;
	}
	return low ? y[low - 1] : 0;
}

/*
 * The device's allocations as the figure takes them (rli_memory_blocks, rli_memory_curve), and
 * each of its rows checked: curve + before the capture == Total Allocated. Returns the rows checked.
 */
static size_t check_device(const device_rows *device, const rli_memory_row *got, const mf_expected *expected,
			   const char *name)
{
	double *start = calloc(device->count + 1, sizeof(double)), *duration = calloc(device->count + 1, sizeof(double));
	double *size = calloc(device->count + 1, sizeof(double)), *x = NULL, *y = NULL;
	rli_memory_block *blocks = calloc(device->count + 1, sizeof(*blocks));
	rli_memory_device columns = {.role = device->role, .rank = device->rank, .start_ms = start, .duration_ms = duration, .size_kb = size};
	rli_memory_summary summary;
	size_t points = 0, block_count, checked = 0, wrong = 0;

	if (!start || !duration || !size || !blocks)
		abort();
	for (size_t k = 0; k < device->count; k++) {
		const rli_memory_row *row = &got[device->rows[k]];
		if (row->size_kb <= 0)
			continue;
		start[columns.count] = row->start_time_ms;
		duration[columns.count] = row->released ? row->duration_ms : 0;
		size[columns.count++] = row->size_kb;
	}
	block_count = rli_memory_blocks(blocks, &summary, &columns);
	CHECK_INT(rli_memory_curve(&summary, &x, &y, &points, NULL, blocks, block_count), RLI_OK);
	for (size_t k = 0; k < device->count && x; k++) {
		const rli_memory_row *row = &got[device->rows[k]];
		const mf_expected *want = &expected[device->rows[k]];
		double t = row->start_time_ms - summary.t_min_ms, value = curve_at(x, y, points, t);
		/* The blocks never freed end with the capture, at its last moment: there they are still held. */
		if (block_count && t >= summary.t_max_ms - summary.t_min_ms)
			value += summary.never_freed_kb / 1024;
		CHECK(want->has_before);
		if (fabs(value + want->before_capture_mb - row->total_allocated_mb) > 1e-9 && wrong++ < 3)
			fprintf(stderr, "%s %s rank %lld %s at %.17g: curve %.17g + before %.17g != %.17g\n", name,
				device->role, (long long)device->rank, device->device_type, row->start_time_ms, value,
				want->before_capture_mb, row->total_allocated_mb);
		checked++;
	}
	CHECK_INT(wrong, 0);
	rli_bigmem_free(x);
	rli_bigmem_free(y);
	free(blocks);
	free(start);
	free(duration);
	free(size);
	return checked;
}

/* Whether rows i and j of the table are on the device. */
static int on_device(const rli_memory *memory, size_t i, const rli_memory_device *device)
{
	return memory->rank_id[i] == device->rank && !strcmp(rli_strpool_get(&memory->strings, memory->role[i]), device->role) &&
	       !strcmp(rli_strpool_get(&memory->strings, memory->device_type[i]), device->device_type);
}

typedef struct {
	double t, mb; /* relative to the device's first allocation; Total Allocated after the event */
} event_total;

static int by_time(const void *a, const void *b)
{
	const event_total *x = a, *y = b;
	return (x->t > y->t) - (x->t < y->t);
}

/*
 * The curve as the figure draws it from the table (the allocator's count, RLI_MEMORY_TOTALS_EVENTS):
 * after the changes at each event's moment, it is that event's Total Allocated itself (the
 * allocations' and the frees' of blocks from before the capture, allocated_mb; the frees that close
 * a block, release_allocated_mb), the memory from before the capture and the blocks never freed
 * included, to the end. Within tolerance_mb; at a moment of several events, the one written last.
 * Returns the events checked.
 */
static size_t check_allocator_count(const rli_memory *memory, const char *name, double tolerance_mb)
{
	rli_memory_devices split;
	size_t checked = 0, wrong = 0;
	double worst = 0;

	CHECK_INT(memory->totals, RLI_MEMORY_TOTALS_EVENTS);
	CHECK_INT(rli_memory_devices_split(&split, memory, 1), RLI_OK);
	for (size_t d = 0; d < split.count; d++) {
		const rli_memory_device *device = &split.devices[d];
		rli_memory_block *blocks = calloc(device->count + 1, sizeof(*blocks));
		event_total *events = calloc(2 * memory->count + 1, sizeof(*events));
		rli_memory_summary summary;
		double *x = NULL, *y = NULL;
		size_t points = 0, count, n = 0;
		if (!blocks || !events)
			abort();
		count = rli_memory_blocks(blocks, &summary, device);
		CHECK_INT(rli_memory_curve(&summary, &x, &y, &points, device, blocks, count), RLI_OK);
		CHECK_INT(summary.totals, RLI_MEMORY_TOTALS_EVENTS);
		for (size_t i = 0; i < memory->count; i++) {
			if (!on_device(memory, i, device) || memory->start_ms[i] < summary.t_min_ms)
				continue;
			events[n++] = (event_total){ memory->start_ms[i] - summary.t_min_ms, memory->allocated_mb[i] };
			if ((memory->flags[i] & RLI_MEMORY_RELEASED) && isfinite(memory->release_allocated_mb[i]))
				events[n++] = (event_total){ memory->start_ms[i] + memory->duration_ms[i] - summary.t_min_ms,
							     memory->release_allocated_mb[i] };
		}
		/* In time order; of a moment's events the table cannot say which came last, so each is let be it. */
		qsort(events, n, sizeof(*events), by_time);
		/* the curve's moment: times closer than the rows' last bit at this epoch are one (memory_curve.c) */
		double width = 2 * DBL_EPSILON * fmax(fabs(summary.t_min_ms), fabs(summary.t_max_ms));
		for (size_t k = 0; k < n && x; k++) {
			double value = curve_at(x, y, points, events[k].t), best = INFINITY;
			for (size_t j = k; j < n && events[j].t - events[k].t <= 2 * width; j++)
				best = fmin(best, fabs(value - events[j].mb));
			for (size_t j = k; j > 0 && events[k].t - events[j - 1].t <= 2 * width; j--)
				best = fmin(best, fabs(value - events[j - 1].mb));
			worst = fmax(worst, best);
			if (best > tolerance_mb && wrong++ < 3)
				fprintf(stderr, "%s %s rank %lld %s at %.17g: curve %.17g, Total Allocated %.17g\n", name,
					device->role, (long long)device->rank, device->device_type, events[k].t, value,
					events[k].mb);
			checked++;
		}
		/* held to the end: the last point is the last event's total, not less what was never freed */
		CHECK(points > 0 && y[points - 1] >= summary.never_freed_kb / 1024);
		rli_bigmem_free(x);
		rli_bigmem_free(y);
		free(blocks);
		free(events);
	}
	fprintf(stderr, "%s: %zu events on %zu devices, the largest difference %.3g MB\n", name, checked, split.count,
		worst);
	CHECK_INT(wrong, 0);
	rli_memory_devices_dispose(&split);
	return checked;
}

static void check_curves(const char *root, const char *name, const tf_set *set)
{
	tf_run run;
	size_t device_count = 0, checked = 0, frees_before = 0;
	device_rows *devices;

	tf_run_open(&run, root, name, set, 2);
	CHECK(run.memory != NULL);
	CHECK_INT(run.got_count, run.count);
	devices = calloc(run.got_count + 1, sizeof(*devices));
	/* The rows pair up by the sort: the curve takes the parsed ones, the offset the generator's. */
	for (size_t i = 0; i < run.count && i < run.got_count; i++) {
		device_rows *device = device_of(devices, &device_count, &run.got[i], run.got_count);
		CHECK(tf_compare_rows(&run.got[i], &run.expected[i].row) == 0);
		device->rows[device->count++] = i;
		frees_before += run.got[i].size_kb < 0;
	}
	/* 3 roles x 2 ranks, each with its devices rank and rank + 1 */
	CHECK_INT(device_count, 12);
	for (size_t d = 0; d < device_count; d++) {
		checked += check_device(&devices[d], run.got, run.expected, name);
		free(devices[d].rows);
	}
	CHECK_INT(checked, run.count);
	/* The offset falls as blocks from before the capture are freed. */
	CHECK(frees_before > 12);
	/* and the figure's own curve needs no offset: it is the allocator's count */
	CHECK(check_allocator_count(run.memory, name, 1e-9) > run.count);
	free(devices);
	tf_run_close(&run);
}

/*
 * A real capture (../shared/real): every PyTorch trace under dir, its curve against its own Total
 * Allocated within 1 KiB at every event; skipped (77) where dir is absent.
 */
static int check_real(const char *dir)
{
	rli_torch_memory_options options;
	rli_memory *memory = NULL;
	struct stat st;
	if (stat(dir, &st) != 0) {
		printf("skipped: %s is absent (the real captures live beside the project)\n", dir);
		return 77;
	}
	rli_torch_memory_options_init(&options);
	CHECK_INT(rli_torch_memory_parse(&memory, dir, &options), RLI_OK);
	if (memory)
		CHECK(check_allocator_count(memory, dir, 1.0 / 1024) > 0);
	rli_memory_free(memory);
	return 0;
}

/*
 * argv[1]: "in_order" (the default options), "shuffled" (--memory-ops --memory-shuffle: a free
 * before its allocation), or "real DIR".
 */
int main(int argc, char **argv)
{
	static const tf_set in_order = {.steps = 1, .memory_events = 400, .seed = 11};
	static const tf_set shuffled = {.steps = 1, .memory_events = 400, .ops = 1, .shuffle = 1, .seed = 12};
	const char *which = argc > 1 ? argv[1] : "in_order";
	char *root;

	if (strcmp(which, "real") == 0 && argc > 2) {
		int skipped = check_real(argv[2]);
		if (skipped == 77)
			return 77;
		TEST_DONE();
	}
	if (strcmp(which, "in_order") != 0 && strcmp(which, "shuffled") != 0) {
		fprintf(stderr, "usage: %s in_order|shuffled\n", argv[0]);
		return 2;
	}
	root = fx_tempdir();
	check_curves(root, which, strcmp(which, "in_order") == 0 ? &in_order : &shuffled);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

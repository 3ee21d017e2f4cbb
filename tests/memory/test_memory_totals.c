/* test_memory_totals.c: Ascend memory as the allocators count it: the rows' totals per allocator (PTA, GE), the 10-column CSV, memory_record.csv's Reserved line. */
#include "harness.h"
#include "memory_fixture.h"
#include "memory/memory_curve.h"
#include "memory/memory_devices.h"
#include "memory/memory_table.h"
#include "common/bigmem.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Two allocators on one device, as torch_npu writes them: PTA's rows carry a Stream Ptr, GE's
 * (the graph engine's workspace) none, each with its own Total Allocated. PTA holds 100 MB before
 * the capture, GE 0.
 *   t=1000 us  PTA +10 MB -> 110        t=1500  GE +4 MB -> 4
 *   t=2000     PTA +20 MB -> 130        t=2500  GE freed -> 0
 *   t=3000     PTA's first freed -> 120  t=5000 PTA's second freed -> 100
 */
static const char header15[] =
	"Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),"
	"Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),"
	"Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n";
static const char rows15[] =
	"aten::a,10240,\"1000\t\",\"3000\t\",,\"2000\t\",,110,200,110,120,200,120,897357296,NPU:0\n"
	"cann::ws,4096,\"1500\t\",\"2500\t\",,\"1000\t\",,4,8,4,0,8,0,,NPU:0\n"
	"aten::b,20480,\"2000\t\",\"5000\t\",,\"3000\t\",,130,200,130,100,200,100,897357296,NPU:0\n";

/* The 2023 export: ten columns, no Active ones and no Stream Ptr: one allocator. */
static const char header10[] =
	"Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),Allocation Total Allocated(MB),"
	"Allocation Total Reserved(MB),Release Total Allocated(MB),Release Total Reserved(MB),Device Type\n";
static const char rows10[] =
	"aten::a,10240,\"1000\t\",\"3000\t\",\"2000\t\",110,200,120,200,NPU:0\n"
	"aten::b,20480,\"2000\t\",\"5000\t\",\"3000\t\",130,200,100,200,NPU:0\n";

/* The device's reserve over time, PTA+GE (what the line shows), PTA and APP (neither is it). */
static const char record[] =
	"Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
	"APP,\"900\t\",,999,,,NPU:0\n"
	"PTA+GE,\"900\t\",100,200,100,1,NPU:0\n"
	"PTA,\"900\t\",100,190,100,1,NPU:0\n"
	"PTA+GE,\"2000\t\",134,216,134,1,NPU:0\n"
	"PTA+GE,\"4000\t\",120,208,120,1,NPU:0\n";

/* The curve's value after the changes at t (ms from the first allocation). */
static double value_at(const double *x, const double *y, size_t n, double t)
{
	double v = n ? y[0] : 0;
	for (size_t i = 0; i < n && x[i] <= t; i++)
		v = y[i];
	return v;
}

/* Parses the capture under root and hands back its one device's curve (x, y: free with rli_bigmem_free). */
static rli_memory *curve_of(const char *root, rli_memory_devices *split, rli_memory_summary *summary, double **x,
			    double **y, size_t *points, fx_log *log)
{
	rli_memory *memory = NULL;
	rli_memory_block *blocks;
	size_t count;
	CHECK_INT(mf_parse(&memory, root, NULL, NULL, 1, log), RLI_OK);
	if (!memory) {
		fprintf(stderr, "%s\n", rli_error_last());
		exit(1);
	}
	CHECK_INT(rli_memory_devices_split(split, memory, 1), RLI_OK);
	CHECK_INT((int)split->count, 1);
	if (split->count != 1)
		exit(1);
	blocks = calloc(split->devices[0].count + 1, sizeof(*blocks));
	count = rli_memory_blocks(blocks, summary, &split->devices[0]);
	CHECK_INT(rli_memory_curve(summary, x, y, points, &split->devices[0], blocks, count), RLI_OK);
	free(blocks);
	return memory;
}

/* What curve_of handed back, let go. */
static void let_go(rli_memory *memory, rli_memory_devices *split, double *x, double *y)
{
	rli_bigmem_free(x);
	rli_bigmem_free(y);
	rli_memory_devices_dispose(split);
	rli_memory_free(memory);
}

static void test_two_allocators(void)
{
	char *root = fx_tempdir(), *csv = strdup(fx_text("%s%s", header15, rows15));
	rli_memory_devices split;
	rli_memory_summary summary;
	double *x = NULL, *y = NULL;
	size_t points = 0;
	rli_memory *memory;

	mf_capture(root, "in/rank0_ascend_pt", 0, MF_METADATA, csv, NULL);
	memory = curve_of(fx_path(root, "in"), &split, &summary, &x, &y, &points, NULL);
	CHECK_INT(memory->totals, RLI_MEMORY_TOTALS_ROWS);
	CHECK_INT(summary.totals, RLI_MEMORY_TOTALS_ROWS);
	/* PTA's count before its first allocation (110 - 10), GE's (4 - 4) */
	CHECK_NEAR(summary.before_mb, 100, 1e-9);
	/* the sum of the two allocators' last totals at each moment (ms from 1 ms) */
	CHECK_NEAR(value_at(x, y, points, 0.0), 110, 1e-9);
	CHECK_NEAR(value_at(x, y, points, 0.5), 114, 1e-9);
	CHECK_NEAR(value_at(x, y, points, 1.0), 134, 1e-9);
	CHECK_NEAR(value_at(x, y, points, 1.5), 130, 1e-9);
	CHECK_NEAR(value_at(x, y, points, 2.0), 120, 1e-9);
	CHECK_NEAR(value_at(x, y, points, 4.0), 100, 1e-9);
	CHECK_NEAR(summary.peak_mb, 134, 1e-9);
	CHECK_NEAR(summary.peak_ms, 1.0, 1e-9);
	/* the GE row is the second allocator's, the others the first's */
	CHECK_INT(split.devices[0].second_pool[0], 0);
	CHECK_INT(split.devices[0].second_pool[1], 1);
	CHECK_INT(split.devices[0].second_pool[2], 0);
	/* no memory_record.csv: no Reserved line */
	CHECK_INT((int)split.devices[0].reserved_count, 0);
	let_go(memory, &split, x, y);
	fx_remove(root);
	free(root);
	free(csv);
}

static void test_ten_columns(void)
{
	char *root = fx_tempdir(), *csv = strdup(fx_text("%s%s", header10, rows10));
	rli_memory_devices split;
	rli_memory_summary summary;
	rli_memory_row row;
	double *x = NULL, *y = NULL;
	size_t points = 0;
	rli_memory *memory;

	mf_capture(root, "in/rank0_ascend_pt", 0, MF_METADATA, csv, NULL);
	memory = curve_of(fx_path(root, "in"), &split, &summary, &x, &y, &points, NULL);
	CHECK_INT((int)rli_memory_count(memory), 2);
	CHECK_INT(rli_memory_get(&row, memory, 0), RLI_OK);
	CHECK(row.total_active_mb == 0 && row.release_total_allocated_mb == 120 && !row.second_pool);
	CHECK_INT(summary.totals, RLI_MEMORY_TOTALS_ROWS);
	CHECK_NEAR(value_at(x, y, points, 1.0), 130, 1e-9);
	CHECK_NEAR(value_at(x, y, points, 2.0), 120, 1e-9);
	CHECK_NEAR(value_at(x, y, points, 4.0), 100, 1e-9);
	let_go(memory, &split, x, y);
	fx_remove(root);
	free(root);
	free(csv);
}

static void test_memory_record(void)
{
	char *root = fx_tempdir(), *csv = strdup(fx_text("%s%s", header15, rows15));
	rli_memory_devices split;
	rli_memory_summary summary;
	const rli_memory_device *device;
	double *x = NULL, *y = NULL, *rx = NULL, *ry = NULL, max_mb = 0;
	size_t points = 0, reserved_points = 0;
	fx_log log = { 0 };
	rli_memory *memory;

	mf_capture(root, "in/rank0_ascend_pt", 0, MF_METADATA, csv, NULL);
	fx_write(root, "in/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv", record);
	memory = curve_of(fx_path(root, "in"), &split, &summary, &x, &y, &points, &log);
	device = &split.devices[0];
	/* PTA+GE's three samples, in time order; neither APP's nor PTA's */
	CHECK_INT((int)memory->reserve.count, 3);
	CHECK_INT((int)device->reserved_count, 3);
	if (device->reserved_count == 3) {
		CHECK_NEAR(device->reserved_ms[0], 0.9, 1e-12);
		CHECK_NEAR(device->reserved_mb[0], 200, 1e-12);
		CHECK_NEAR(device->reserved_mb[1], 216, 1e-12);
		CHECK_NEAR(device->reserved_mb[2], 208, 1e-12);
	}
	CHECK_INT(rli_memory_reserved_line(&rx, &ry, &reserved_points, &max_mb, &summary, device), RLI_OK);
	CHECK(reserved_points > 0);
	CHECK_NEAR(max_mb, 216, 1e-12);
	CHECK(fx_log_has(&log, "3 PTA+GE Total Reserved sample(s) for the Reserved line"));
	rli_bigmem_free(rx);
	rli_bigmem_free(ry);
	let_go(memory, &split, x, y);

	/* A memory_record.csv that is no such table: said, and the memory drawn all the same, without the line. */
	fx_write(root, "in/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv", "Time,Value\n1,2\n");
	fx_log_reset(&log);
	memory = curve_of(fx_path(root, "in"), &split, &summary, &x, &y, &points, &log);
	CHECK_INT((int)split.devices[0].reserved_count, 0);
	CHECK(fx_log_has(&log, "memory_record.csv: no Component, Timestamp(us), Total Reserved(MB) and Device Type "
			       "columns: no Reserved line"));
	let_go(memory, &split, x, y);
	fx_log_reset(&log);
	fx_remove(root);
	free(root);
	free(csv);
}

/* A ROWS event as the curve orders them: by time, then allocation and release of block 0, of block 1, ... */
typedef struct {
	double key, kb;
	size_t place;
	int pool;
} ref_event;

/* A device of n blocks on its allocators' totals (RLI_MEMORY_TOTALS_ROWS), its columns zeroed for a test to fill. */
typedef struct {
	double *start, *duration, *size, *allocated, *released;
	uint8_t *second;
	rli_memory_device device;
} rows_case;

static void rows_case_new(rows_case *c, size_t n)
{
	c->start = calloc(n, sizeof(double));
	c->duration = calloc(n, sizeof(double));
	c->size = calloc(n, sizeof(double));
	c->allocated = calloc(n, sizeof(double));
	c->released = calloc(n, sizeof(double));
	c->second = calloc(n, 1);
	if (!c->start || !c->duration || !c->size || !c->allocated || !c->released || !c->second)
		exit(1);
	memset(&c->device, 0, sizeof(c->device));
	c->device.count = n;
	c->device.start_ms = c->start;
	c->device.duration_ms = c->duration;
	c->device.size_kb = c->size;
	c->device.totals = RLI_MEMORY_TOTALS_ROWS;
	c->device.allocated_mb = c->allocated;
	c->device.release_allocated_mb = c->released;
	c->device.second_pool = c->second;
}

static void rows_case_free(rows_case *c)
{
	free(c->start);
	free(c->duration);
	free(c->size);
	free(c->allocated);
	free(c->released);
	free(c->second);
}

static int ref_before(const void *a, const void *b)
{
	const ref_event *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->place > y->place) - (x->place < y->place);
}

/*
 * The allocators' curve worked out plainly (every event sorted, then swept), against
 * rli_memory_curve's, which merges the releases into blocks already in start order: on many
 * ties of times (allocations, releases, one's release at another's allocation), unknown totals
 * and blocks never freed, the same points to the bit.
 */
static void test_merged_events(void)
{
	enum { N = 4000 };
	rows_case c;
	double *x = NULL, *y = NULL;
	rli_memory_block *blocks = calloc(N, sizeof(*blocks));
	ref_event *events = calloc(2 * N, sizeof(*events));
	rli_memory_summary summary;
	size_t count, points = 0, n = 0, k = 0, at = 0, first[2] = { SIZE_MAX, SIZE_MAX };
	double current[2] = { 0, 0 }, width, peak = 0;
	unsigned seed = 12345;
	int same = 1;

	rows_case_new(&c, N);
	for (size_t i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		c.start[i] = 1000 + 0.5 * (double)(i / 4);               /* four allocations a time */
		c.duration[i] = (seed >> 8) % 10 == 0 ? 0 : 0.5 * (double)(1 + (seed >> 12) % 12);
		c.size[i] = 4 + (double)((seed >> 16) % 64);
		c.allocated[i] = (seed >> 20) % 11 == 0 ? 0 : 100 + (double)((seed >> 4) % 500) / 7;
		c.released[i] = (seed >> 24) % 9 == 0 ? NAN : 90 + (double)((seed >> 6) % 500) / 3;
		c.second[i] = (uint8_t)((seed >> 28) & 1);
	}
	count = rli_memory_blocks(blocks, &summary, &c.device);
	CHECK_INT((int)count, N);
	CHECK_INT(rli_memory_curve(&summary, &x, &y, &points, &c.device, blocks, count), RLI_OK);

	for (size_t b = 0; b < count; b++) {
		size_t i = blocks[b].index;
		int pool = c.second[i];
		if (first[pool] == SIZE_MAX)
			first[pool] = b;
		if (c.allocated[i] > 0)
			events[n++] = (ref_event){ blocks[b].start, c.allocated[i] * 1024, 2 * b, pool };
		if (c.duration[i] > 0 && isfinite(c.released[i]))
			events[n++] = (ref_event){ blocks[b].end, c.released[i] * 1024, 2 * b + 1, pool };
	}
	for (int pool = 0; pool < 2; pool++)
		if (first[pool] != SIZE_MAX && c.allocated[blocks[first[pool]].index] > 0)
			current[pool] = c.allocated[blocks[first[pool]].index] * 1024 - c.size[blocks[first[pool]].index];
	qsort(events, n, sizeof(*events), ref_before);
	width = 2 * DBL_EPSILON * fmax(fabs(summary.t_min_ms), fabs(summary.t_max_ms));
	same = points > 0 && x[at] == 0 && y[at] == (current[0] + current[1]) / 1024.0;
	at++;
	while (k < n && same) {
		double t = events[k].key, before = current[0] + current[1];
		for (; k < n && events[k].key <= t + width; k++)
			current[events[k].pool] = events[k].kb;
		same = at + 2 <= points && x[at] == t && y[at] == before / 1024.0 && x[at + 1] == t &&
		       y[at + 1] == (current[0] + current[1]) / 1024.0;
		peak = fmax(peak, (current[0] + current[1]) / 1024.0);
		at += 2;
	}
	CHECK(same);
	CHECK_INT((int)points, (int)at);
	CHECK(summary.peak_mb == peak);
	rli_bigmem_free(x);
	rli_bigmem_free(y);
	rows_case_free(&c);
	free(blocks);
	free(events);
}

/* Points kept as they come, for comparing sweeps. */
typedef struct {
	double *x, *y;
	size_t count;
} kept;

static void keep(void *ctx, double x, double y)
{
	kept *k = ctx;
	k->x[k->count] = x;
	k->y[k->count++] = y;
}

/*
 * The curve swept in two halves at once (rli_memory_halves): the first half's points, then the
 * second's, are the one sweep's, to the bit, and the peak the same; around the middle a crowd of
 * blocks allocated at one time, which the cut steps over.
 */
static void test_halves(void)
{
	enum { N = RLI_MEMORY_HALVES_FROM + 5000 };
	rows_case c;
	double *x = NULL, *y = NULL;
	rli_memory_block *blocks = calloc(N, sizeof(*blocks));
	kept halves[2] = { { calloc(4 * N + 1, sizeof(double)), calloc(4 * N + 1, sizeof(double)), 0 },
			   { calloc(4 * N + 1, sizeof(double)), calloc(4 * N + 1, sizeof(double)), 0 } };
	rli_memory_summary whole, halved;
	rli_memory_halves h;
	size_t count, points = 0;
	unsigned seed = 777;
	int same;

	rows_case_new(&c, N);
	for (size_t i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		/* two allocations a time, but for a crowd of 300 at one time across the middle */
		c.start[i] = i >= N / 2 - 150 && i < N / 2 + 150 ? 2000 + 0.25 * (double)((N / 2 - 150) / 2)
								  : 2000 + 0.25 * (double)(i / 2);
		c.duration[i] = (seed >> 8) % 13 == 0 ? 0 : 0.25 * (double)(1 + (seed >> 12) % 40);
		c.size[i] = 8 + (double)((seed >> 16) % 32);
		c.allocated[i] = (seed >> 20) % 17 == 0 ? 0 : 200 + (double)((seed >> 4) % 700) / 9;
		c.released[i] = (seed >> 24) % 7 == 0 ? NAN : 150 + (double)((seed >> 6) % 700) / 11;
		c.second[i] = (uint8_t)((seed >> 27) % 3 == 0);
	}
	count = rli_memory_blocks(blocks, &whole, &c.device);
	halved = whole;
	CHECK_INT(rli_memory_curve(&whole, &x, &y, &points, &c.device, blocks, count), RLI_OK);
	CHECK_INT(rli_memory_halves_cut(&h, &halved, &c.device, blocks, count), 1);
	CHECK(h.halved);
	/* the cut past the crowd, where a moment begins */
	CHECK(h.start_cut >= N / 2 + 150);
	CHECK_INT(rli_memory_halves_sweep(&h, &halved, keep, &halves[0], &halves[1]), RLI_OK);
	CHECK(halves[0].count <= 1 + 2 * h.first_moments);
	same = halves[0].count + halves[1].count == points;
	for (size_t i = 0; same && i < points; i++) {
		const kept *k = i < halves[0].count ? &halves[0] : &halves[1];
		size_t at = i < halves[0].count ? i : i - halves[0].count;
		same = k->x[at] == x[i] && k->y[at] == y[i];
	}
	CHECK(same);
	CHECK(halved.peak_mb == whole.peak_mb && halved.peak_ms == whole.peak_ms);
	CHECK(halved.start_mb == whole.start_mb && halved.before_mb == whole.before_mb);
	rli_memory_halves_dispose(&h);
	rli_bigmem_free(x);
	rli_bigmem_free(y);
	for (int k = 0; k < 2; k++) {
		free(halves[k].x);
		free(halves[k].y);
	}
	rows_case_free(&c);
	free(blocks);
}

int main(void)
{
	test_merged_events();
	test_halves();
	test_two_allocators();
	test_ten_columns();
	test_memory_record();
	TEST_DONE();
}

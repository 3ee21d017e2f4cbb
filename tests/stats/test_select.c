/* test_select.c: quantiles by selection, grouping by key and the occupancy sweep, each against the plain way. */
#include "harness.h"
#include "stats/stats_internal.h"
#include "stats_rows.h"

#include <stdlib.h>

static int compare_keys_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a < b ? -1 : a > b;
}

static int compare_keys(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/* numpy's default quantile of a sorted sample: linear interpolation between order statistics. */
static double quantile_of_sorted(const double *sorted, size_t n, double p)
{
	double h, low;
	size_t i;
	if (n == 0)
		return 0;
	h = (double)(n - 1) * p;
	low = floor(h);
	i = (size_t)low;
	return i + 1 < n ? sorted[i] + (h - low) * (sorted[i + 1] - sorted[i]) : sorted[n - 1];
}

/* The quantiles of values read off a qsort of their keys. */
static void sorted_quantiles(double *q, const double *p, size_t count, const double *values, size_t n)
{
	uint64_t *keys = malloc((n ? n : 1) * sizeof(*keys));
	double *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		keys[i] = stats_order_key(values[i]);
	qsort(keys, n, sizeof(*keys), compare_keys);
	for (size_t i = 0; i < n; i++)
		sorted[i] = stats_key_value(keys[i]);
	for (size_t t = 0; t < count; t++)
		q[t] = quantile_of_sorted(sorted, n, p[t]);
	free(keys);
	free(sorted);
}

/* Selection and the sort agree, bit for bit, on every quantile the statistics ask for. */
static void check_sample(const char *what, const double *values, size_t n)
{
	static const double p[] = { 0.25, 0.5, 0.75, 0.95 };
	double want[4], got[4], median;
	uint64_t *keys = malloc(2 * (n ? n : 1) * sizeof(*keys));
	sorted_quantiles(want, p, 4, values, n);
	for (size_t i = 0; i < n; i++)
		keys[i] = stats_order_key(values[i]);
	stats_quantiles_of_keys(got, p, 4, keys, n, keys + n);
	for (size_t i = 0; i < n; i++)
		keys[i] = stats_order_key(values[i]);
	median = stats_median_of_keys(keys, n, keys + n);
	for (int t = 0; t < 4; t++)
		if (memcmp(&got[t], &want[t], sizeof(double)) != 0) {
			fprintf(stderr, "%s, n=%zu: quantile %.2f = %.17g, want %.17g\n", what, n, p[t], got[t], want[t]);
			rli_test_failures++;
		}
	if (memcmp(&median, &want[1], sizeof(double)) != 0) {
		fprintf(stderr, "%s, n=%zu: median = %.17g, want %.17g\n", what, n, median, want[1]);
		rli_test_failures++;
	}
	free(keys);
}

static void test_quantiles(void)
{
	uint64_t state = 88172645463325252ull;
	size_t sizes[] = { 0, 1, 2, 3, 4, 5, 63, 64, 65, 66, 100, 257, 2048, 2049, 5000, 100000 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		double *v = malloc((n ? n : 1) * sizeof(*v));
		/* Durations over six decades: the exponent bits differ, the digit lands high. */
		for (size_t i = 0; i < n; i++)
			v[i] = (double)(rli_test_random(&state) % 1000000) / 1000.0 * (double)(1 + i % 1000);
		check_sample("spread", v, n);
		/* A few distinct values: most buckets empty, the wanted ranks in one. */
		for (size_t i = 0; i < n; i++)
			v[i] = (double)(rli_test_random(&state) % 3);
		check_sample("three values", v, n);
		/* One value repeated: no bit differs. */
		for (size_t i = 0; i < n; i++)
			v[i] = 2.5;
		check_sample("constant", v, n);
		/* Values that differ in the last bits only, negatives and zeros of both signs among them. */
		for (size_t i = 0; i < n; i++) {
			double base = i % 4 == 0 ? -1.0 : i % 4 == 1 ? 0.0 : i % 4 == 2 ? -0.0 : 1.0;
			v[i] = base + (double)(rli_test_random(&state) % 7) * 1e-15;
		}
		check_sample("low bits and signs", v, n);
		/* Already sorted, then reversed: orders a careless selection degrades on. */
		for (size_t i = 0; i < n; i++)
			v[i] = (double)i;
		check_sample("ascending", v, n);
		for (size_t i = 0; i < n; i++)
			v[i] = (double)(n - i);
		check_sample("descending", v, n);
		free(v);
	}
}

/* Stable order by group: by key, then by where each entry was (its row). */
static int compare_group_then_row(const void *pa, const void *pb)
{
	const stats_entry *a = pa, *b = pb;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/* Keys drawn below high_span and low_span: small spans take the counting pass, large the radix passes. */
static void check_grouping(const char *what, size_t n, uint64_t high_span, uint64_t low_span, uint64_t *state)
{
	stats_entry *e = malloc((n ? n : 1) * sizeof(*e)), *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	stats_entry *want = malloc((n ? n : 1) * sizeof(*want));
	for (size_t i = 0; i < n; i++) {
		uint32_t high = (uint32_t)(rli_test_random(state) % high_span), low = (uint32_t)(rli_test_random(state) % low_span);
		e[i] = (stats_entry){ .group = stats_group(high, low), .value = (double)i, .row = (uint32_t)i, .rank = low };
	}
	memcpy(want, e, n * sizeof(*e));
	qsort(want, n, sizeof(*want), compare_group_then_row);
	stats_entry *sorted = stats_sort_groups(e, n, tmp);
	CHECK(sorted == e || sorted == tmp);
	for (size_t i = 0; i < n; i++)
		if (sorted[i].group != want[i].group || sorted[i].row != want[i].row || sorted[i].value != want[i].value) {
			fprintf(stderr, "%s, n=%zu: entry %zu is row %u (group %llx), want row %u (group %llx)\n", what, n, i,
				sorted[i].row, (unsigned long long)sorted[i].group, want[i].row, (unsigned long long)want[i].group);
			rli_test_failures++;
			break;
		}
	free(e);
	free(tmp);
	free(want);
}

static void test_grouping(void)
{
	uint64_t state = 2463534242ull;
	size_t sizes[] = { 0, 1, 2, 17, 1000, 70000 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		check_grouping("roles by names", n, 4, 12, &state);     /* few buckets: counting */
		check_grouping("one key", n, 1, 1, &state);            /* nothing to sort */
		check_grouping("low half only", n, 1, 200, &state);
		check_grouping("steps", n, 3, n / 2 + 1, &state);       /* buckets near the entries' count */
		check_grouping("wide keys", n, 70000, 1u << 31, &state); /* more buckets than entries: radix */
	}
}

typedef struct {
	double t;
	int change; /* -1 an end, +1 a start: ends sort first at one time */
} boundary;

static int compare_boundaries(const void *pa, const void *pb)
{
	const boundary *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->change - b->change;
}

/*
 * The occupancy worked out the plain way, for one role: every (rank) group's bars in start order
 * merged into spans (a bar joins when it starts no later than the span's end), every span's start
 * and end sorted together, one point per moment where the count changes; the peak's first moment.
 */
static void plain_occupancy(const rli_events *ev, uint32_t role, const int64_t *ranks, size_t rank_count,
			    rli_occupancy_point *points, size_t *point_count, uint32_t *peak, double *peak_ms)
{
	boundary *b = malloc(2 * (ev->count + 1) * sizeof(*b));
	size_t n = 0;
	int64_t inside = 0;
	for (size_t r = 0; r < rank_count; r++) {
		double span_start = 0, span_end = 0;
		int open = 0;
		/* The rows are in start order already (ties in table order). */
		for (size_t i = 0; i < ev->count; i++) {
			double start = ev->start_ms[i], end = start + ev->duration_ms[i];
			if (ev->role[i] != role || ev->rank_id[i] != ranks[r])
				continue;
			if (open && start <= span_end) {
				if (end > span_end)
					span_end = end;
				continue;
			}
			if (open) {
				b[n++] = (boundary){ span_start, +1 };
				b[n++] = (boundary){ span_end, -1 };
			}
			span_start = start;
			span_end = end;
			open = 1;
		}
		if (open) {
			b[n++] = (boundary){ span_start, +1 };
			b[n++] = (boundary){ span_end, -1 };
		}
	}
	qsort(b, n, sizeof(*b), compare_boundaries);
	*point_count = 0;
	*peak = 0;
	*peak_ms = 0;
	for (size_t i = 0; i < n;) {
		double t = b[i].t;
		for (; i < n && b[i].t == t; i++)
			inside += b[i].change;
		if (*point_count == 0 || points[*point_count - 1].ranks != (uint32_t)inside)
			points[(*point_count)++] = (rli_occupancy_point){ t, (uint32_t)inside };
		if ((uint32_t)inside > *peak) {
			*peak = (uint32_t)inside;
			*peak_ms = t;
		}
	}
	free(b);
}

/* The statistics' occupancy against the plain one, on bars that nest, overlap, touch and share their times. */
static void test_occupancy(void)
{
	static const char *roles[] = { "actor", "critic", "rollout" };
	uint64_t state = 4101842887655102017ull;
	for (int round = 0; round < 20; round++) {
		rli_events *ev = NULL;
		rli_stats *stats = NULL;
		size_t ranks = 1 + (size_t)round * 3, rows = 50 + (size_t)round * 400;
		int64_t *rank_ids = malloc(ranks * sizeof(*rank_ids));
		double *start = malloc(rows * sizeof(*start));
		CHECK_INT(rli_events_new(&ev), 0);
		for (size_t r = 0; r < ranks; r++)
			rank_ids[r] = (int64_t)(r * 7 % 23) + (int64_t)r * 100; /* not in order of first sight */
		/* Starts on a coarse grid so that many coincide, and durations that often touch the next start. */
		for (size_t i = 0; i < rows; i++)
			start[i] = (double)(rli_test_random(&state) % (rows / 2 + 1));
		qsort(start, rows, sizeof(*start), compare_keys_double);
		for (size_t i = 0; i < rows; i++) {
			double duration = (double)(rli_test_random(&state) % 4) + (rli_test_random(&state) % 3 == 0 ? 0.5 : 0);
			add(ev, roles[rli_test_random(&state) % 3], "op", rank_ids[rli_test_random(&state) % ranks], start[i],
			    duration);
		}
		CHECK_INT(rli_stats_compute(&stats, ev), 0);
		if (stats) {
			rli_occupancy_point *points = malloc(2 * (rows + 1) * sizeof(*points));
			for (size_t o = 0; o < stats->occupancy_count; o++) {
				const rli_role_occupancy *got = &stats->occupancy[o];
				size_t count;
				uint32_t peak;
				double peak_ms;
				plain_occupancy(ev, got->role, rank_ids, ranks, points, &count, &peak, &peak_ms);
				CHECK_INT(got->count, count);
				CHECK_INT(got->peak_ranks, peak);
				CHECK_NEAR(got->peak_ms, peak_ms, 0);
				for (size_t k = 0; k < count && k < got->count; k++) {
					const rli_occupancy_point *p = &stats->occupancy_points[got->first + k];
					if (p->t_ms != points[k].t_ms || p->ranks != points[k].ranks) {
						fprintf(stderr, "round %d, role %u: point %zu is (%g, %u), want (%g, %u)\n", round,
							got->role, k, p->t_ms, p->ranks, points[k].t_ms, points[k].ranks);
						rli_test_failures++;
						break;
					}
				}
			}
			CHECK_INT(stats->occupancy_count, 3);
			free(points);
		}
		rli_stats_free(stats);
		rli_events_free(ev);
		free(rank_ids);
		free(start);
	}
}

int main(void)
{
	test_quantiles();
	test_grouping();
	test_occupancy();
	TEST_DONE();
}

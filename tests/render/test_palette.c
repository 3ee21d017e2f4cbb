/* test_palette.c: the series colours: every two of the palette apart in CIEDE2000 (computed here), one colour per name for a set of names whatever its order, the same in the PNG and the HTML. */
#include "harness.h"
#include "render_cases.h"
#include "common/atomic_file.h"
#include "layout/memory_figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_DELTA_E 15.0
#define PI 3.14159265358979323846

typedef struct {
	double l, a, b;
} lab;

static double radians(double degrees)
{
	return degrees * PI / 180.0;
}

/* sRGB (D65) to CIELAB, by the sRGB standard's matrix and the CIE's reference white. */
static lab lab_of(rli_color color)
{
	double rgb[3], xyz[3], f[3];
	static const double white[3] = { 0.95047, 1.0, 1.08883 };
	static const double m[3][3] = {
		{ 0.4124564, 0.3575761, 0.1804375 },
		{ 0.2126729, 0.7151522, 0.0721750 },
		{ 0.0193339, 0.1191920, 0.9503041 },
	};
	for (int i = 0; i < 3; i++) {
		double c = (double)(color >> (16 - 8 * i) & 0xff) / 255.0;
		rgb[i] = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
	}
	for (int i = 0; i < 3; i++) {
		double t;
		xyz[i] = m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2];
		t = xyz[i] / white[i];
		f[i] = t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
	}
	return (lab){ 116.0 * f[1] - 16.0, 500.0 * (f[0] - f[1]), 200.0 * (f[1] - f[2]) };
}

/* A hue angle in degrees, [0, 360). */
static double hue(double b, double a)
{
	double h;
	if (a == 0 && b == 0)
		return 0;
	h = atan2(b, a) * 180.0 / PI;
	return h < 0 ? h + 360.0 : h;
}

/* CIEDE2000 (Sharma, Wu and Dalal, 2005), kL = kC = kH = 1. */
static double delta_e00(lab x, lab y)
{
	double c1 = hypot(x.a, x.b), c2 = hypot(y.a, y.b), c_mean = (c1 + c2) / 2.0;
	double c7 = pow(c_mean, 7.0), g = 0.5 * (1.0 - sqrt(c7 / (c7 + pow(25.0, 7.0))));
	double a1 = (1.0 + g) * x.a, a2 = (1.0 + g) * y.a;
	double cp1 = hypot(a1, x.b), cp2 = hypot(a2, y.b);
	double hp1 = hue(x.b, a1), hp2 = hue(y.b, a2);
	double dl = y.l - x.l, dc = cp2 - cp1, dh = 0, hp_mean, l_mean, cp_mean, t, s_l, s_c, s_h, r_t, dtheta, cp7;

	if (cp1 * cp2 != 0) {
		dh = hp2 - hp1;
		if (dh > 180)
			dh -= 360;
		else if (dh < -180)
			dh += 360;
	}
	dh = 2.0 * sqrt(cp1 * cp2) * sin(radians(dh / 2.0));
	l_mean = (x.l + y.l) / 2.0;
	cp_mean = (cp1 + cp2) / 2.0;
	if (cp1 * cp2 == 0)
		hp_mean = hp1 + hp2;
	else if (fabs(hp1 - hp2) <= 180)
		hp_mean = (hp1 + hp2) / 2.0;
	else
		hp_mean = hp1 + hp2 < 360 ? (hp1 + hp2 + 360) / 2.0 : (hp1 + hp2 - 360) / 2.0;
	t = 1 - 0.17 * cos(radians(hp_mean - 30)) + 0.24 * cos(radians(2 * hp_mean)) +
	    0.32 * cos(radians(3 * hp_mean + 6)) - 0.20 * cos(radians(4 * hp_mean - 63));
	dtheta = 30 * exp(-pow((hp_mean - 275) / 25, 2));
	cp7 = pow(cp_mean, 7.0);
	r_t = -2.0 * sqrt(cp7 / (cp7 + pow(25.0, 7.0))) * sin(radians(2 * dtheta));
	s_l = 1 + 0.015 * pow(l_mean - 50, 2) / sqrt(20 + pow(l_mean - 50, 2));
	s_c = 1 + 0.045 * cp_mean;
	s_h = 1 + 0.015 * cp_mean * t;
	return sqrt(pow(dl / s_l, 2) + pow(dc / s_c, 2) + pow(dh / s_h, 2) + r_t * (dc / s_c) * (dh / s_h));
}

static double delta_e(rli_color x, rli_color y)
{
	return delta_e00(lab_of(x), lab_of(y));
}

/* The implementation against pairs of Sharma et al.'s published test data. */
static void test_delta_e_reference(void)
{
	static const struct {
		lab x, y;
		double want;
	} pairs[] = {
		{ { 50, 2.6772, -79.7751 }, { 50, 0, -82.7485 }, 2.0425 },
		{ { 50, 0, 0 }, { 50, -1, 2 }, 2.3669 },
		{ { 50, 2.5, 0 }, { 73, 25, -18 }, 27.1492 },
		{ { 50, 2.5, 0 }, { 58, 24, 15 }, 19.4535 },
		{ { 60.2574, -34.0099, 36.2677 }, { 60.4626, -34.1751, 39.4387 }, 1.2644 },
		{ { 2.0776, 0.0795, -1.1350 }, { 0.9033, -0.0636, -0.5514 }, 0.9082 },
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		CHECK_NEAR(delta_e00(pairs[i].x, pairs[i].y), pairs[i].want, 5e-5);
		CHECK_NEAR(delta_e00(pairs[i].y, pairs[i].x), pairs[i].want, 5e-5);
	}
	/* sRGB white is L* 100, a* = b* = 0 */
	CHECK_NEAR(lab_of(0xffffff).l, 100.0, 1e-3);
	CHECK_NEAR(lab_of(0xffffff).a, 0.0, 1e-3);
}

/* Every two of the first ten colours at least 15 apart. */
static void test_palette_apart(void)
{
	double least = INFINITY;
	CHECK(rli_palette_size() >= 10);
	for (size_t i = 0; i < 10; i++)
		for (size_t j = i + 1; j < 10; j++) {
			double d = delta_e(rli_palette_color(i), rli_palette_color(j));
			if (d < MIN_DELTA_E)
				fprintf(stderr, "colours %zu #%06x and %zu #%06x: CIEDE2000 %.2f\n", i,
					(unsigned)rli_palette_color(i), j, (unsigned)rli_palette_color(j), d);
			least = fmin(least, d);
		}
	CHECK(least >= MIN_DELTA_E);
}

/* colors[i] of names[i], checked to be at least 15 apart two by two. */
static void check_apart(const char *what, const char *const *names, const rli_color *colors, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d = delta_e(colors[i], colors[j]);
			if (d < MIN_DELTA_E) {
				fprintf(stderr, "%s: %s #%06x and %s #%06x: CIEDE2000 %.2f\n", what, names[i],
					(unsigned)colors[i], names[j], (unsigned)colors[j], d);
				rli_test_failures++;
			}
		}
}

/* Up to ten names drawn together: all apart, and each name's colour the same in any order of the names. */
static void test_sets_apart_and_stable(void)
{
	static const char *const nvtx[] = { "compute_log_prob", "compute_values", "update_critic" };
	static const char *const mstx[] = { "actor_compute_log_prob", "actor_update", "agent_loop_rollout_replica_0",
					    "ref_compute_log_prob" };
	char storage[10][40];
	const char *names[10], *shuffled[10];
	rli_color colors[10], again[10];
	uint64_t state = 0x9e3779b97f4a7c15u;

	CHECK_INT(rli_palette_assign(colors, nvtx, 3), RLI_OK);
	check_apart("nvtx sample", nvtx, colors, 3);
	CHECK_INT(rli_palette_assign(colors, mstx, 4), RLI_OK);
	check_apart("mstx sample", mstx, colors, 4);

	for (int round = 0; round < 2000; round++) {
		size_t n = 2 + rli_test_random(&state) % 9, order[10];
		for (size_t i = 0; i < n; i++) {
			/* distinct: the index makes each name its own */
			snprintf(storage[i], sizeof(storage[i]), "p%zu_%u", i, (unsigned)(rli_test_random(&state) % 100000));
			names[i] = storage[i];
			order[i] = i;
		}
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = rli_test_random(&state) % (i + 1), t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		for (size_t i = 0; i < n; i++)
			shuffled[i] = names[order[i]];
		CHECK_INT(rli_palette_assign(colors, names, n), RLI_OK);
		CHECK_INT(rli_palette_assign(again, shuffled, n), RLI_OK);
		check_apart("random set", names, colors, n);
		for (size_t i = 0; i < n; i++)
			CHECK_INT(again[i], colors[order[i]]);
	}
}

/* Renaming one name leaves the colour of every other name whose preferred slot neither the old nor the new name shares. */
static void test_rename_keeps_others(void)
{
	char storage[8][40], renamed[40];
	const char *names[8], *after[8];
	rli_color before_colors[8], after_colors[8];
	uint64_t state = 12345;
	size_t size = rli_palette_size(), kept = 0;

	for (int round = 0; round < 1000; round++) {
		size_t n = 3 + rli_test_random(&state) % 6;
		for (size_t i = 0; i < n; i++) {
			snprintf(storage[i], sizeof(storage[i]), "r%zu_%u", i, (unsigned)(rli_test_random(&state) % 100000));
			names[i] = after[i] = storage[i];
		}
		snprintf(renamed, sizeof(renamed), "x_%u", (unsigned)(rli_test_random(&state) % 100000));
		after[0] = renamed;
		CHECK_INT(rli_palette_assign(before_colors, names, n), RLI_OK);
		CHECK_INT(rli_palette_assign(after_colors, after, n), RLI_OK);
		for (size_t i = 1; i < n; i++) {
			size_t home = rli_name_hash(names[i]) % size;
			int shared = 0;
			for (size_t j = 0; j < n; j++)
				shared |= j != i && rli_name_hash(names[j]) % size == home;
			shared |= rli_name_hash(renamed) % size == home;
			if (shared)
				continue;
			CHECK_INT(before_colors[i], rli_palette_color(home));
			CHECK_INT(after_colors[i], before_colors[i]);
			kept++;
		}
	}
	CHECK(kept > 1000);
}

/* A colour's index in the palette and its shade, or -1 when it is none. */
static int family_of(rli_color c, size_t *shade)
{
	for (size_t i = 0; i < rli_palette_size(); i++)
		for (size_t s = 0; s < 5; s++)
			if (rli_palette_shade(i, s) == c) {
				*shade = s;
				return (int)i;
			}
	return -1;
}

/* Past ten names, with roles: a role's names are shades of one colour, each role its own colour, any order. */
static void test_beyond_ten_by_role(void)
{
	static const char *const roles[] = { "actor", "critic", "rollout" };
	char storage[15][24];
	const char *names[15], *groups[15], *rev_names[15], *rev_groups[15];
	rli_color colors[15], again[15];
	int family[3] = { -1, -1, -1 };

	for (size_t i = 0; i < 15; i++) {
		snprintf(storage[i], sizeof(storage[i]), "%s_phase_%zu", roles[i % 3], i);
		names[i] = storage[i];
		groups[i] = roles[i % 3];
		rev_names[14 - i] = names[i];
		rev_groups[14 - i] = groups[i];
	}
	CHECK_INT(rli_palette_assign_grouped(colors, names, groups, 15), RLI_OK);
	CHECK_INT(rli_palette_assign_grouped(again, rev_names, rev_groups, 15), RLI_OK);
	for (size_t i = 0; i < 15; i++) {
		size_t shade = 0;
		int f = family_of(colors[i], &shade);
		CHECK(f >= 0);
		if (family[i % 3] < 0)
			family[i % 3] = f;
		CHECK_INT(f, family[i % 3]);
		CHECK_INT(again[14 - i], colors[i]);
		/* a role's five names, five shades */
		for (size_t j = i % 3; j < i; j += 3)
			CHECK(colors[j] != colors[i]);
	}
	CHECK(family[0] != family[1] && family[1] != family[2] && family[0] != family[2]);
	/* twelve names of twelve roles (NVTX: a range is its own role): no two alike, as without roles */
	{
		const char *own[12];
		rli_color solo[12];
		for (size_t i = 0; i < 12; i++)
			own[i] = names[i];
		CHECK_INT(rli_palette_assign_grouped(solo, own, own, 12), RLI_OK);
		for (size_t i = 0; i < 12; i++)
			for (size_t j = i + 1; j < 12; j++)
				CHECK(solo[i] != solo[j]);
	}
	/* a shade is apart from its colour */
	for (size_t i = 0; i < rli_palette_size(); i++)
		for (size_t s = 1; s < 5; s++)
			CHECK(delta_e(rli_palette_shade(i, 0), rli_palette_shade(i, s)) >= 8.0);
}

/* WCAG 2's contrast of a colour against white. */
static double contrast_on_white(rli_color c)
{
	double y = 0;
	static const double w[3] = { 0.2126, 0.7152, 0.0722 };
	for (int i = 0; i < 3; i++) {
		double v = (double)(c >> (16 - 8 * i) & 0xff) / 255.0;
		y += w[i] * (v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
	}
	return 1.05 / (y + 0.05);
}

/* A label in a series' colour reads on white: every colour and shade, darkened where it must be, its hue kept. */
static void test_text_on_white(void)
{
	for (size_t i = 0; i < rli_palette_size(); i++)
		for (size_t s = 0; s < 5; s++) {
			rli_color c = rli_palette_shade(i, s), t = rli_text_color_on_white(c);
			CHECK(contrast_on_white(t) >= 4.5);
			if (contrast_on_white(c) >= 4.5)
				CHECK_INT(t, c);
		}
	CHECK_INT(rli_text_color_on_white(0x2a3f5f), 0x2a3f5f);
}

/* How many pixels of a PNG are exactly this colour. */
static size_t pixels_of(const png_image *png, const png_byte *pixels, rli_color c)
{
	size_t count = 0, total = (size_t)png->width * png->height;
	for (size_t p = 0; p < total; p++)
		count += pixels[3 * p] == (c >> 16 & 0xff) && pixels[3 * p + 1] == (c >> 8 & 0xff) &&
			 pixels[3 * p + 2] == (c & 0xff);
	return count;
}

/* The NVTX sample's shape: the PNG draws each name in the layout's colour, and the HTML's data carries the same. */
static void test_png_and_html_agree(const char *dir)
{
	static const char *const names[] = { "update_critic", "compute_values", "compute_log_prob" };
	rli_events *events = NULL;
	rli_timeline *timeline = NULL;
	char png_path[4096], html_path[4096];
	png_image png;
	png_bytep pixels = NULL;
	FILE *fp;
	char *html = NULL;
	long length;

	if (rli_events_new(&events) < 0)
		exit(1);
	for (int64_t rank = 0; rank < 2; rank++)
		for (size_t i = 0; i < 3; i++)
			case_add(events, names[i], names[i], rank, 100.0 * (double)i, 60.0);
	CHECK_INT(rli_timeline_layout(&timeline, events, NULL), RLI_OK);
	if (!timeline)
		goto done;
	snprintf(png_path, sizeof(png_path), "%s/palette.png", dir);
	snprintf(html_path, sizeof(html_path), "%s/palette.html", dir);
	CHECK_INT(case_render(timeline, "png", png_path), RLI_OK);
	CHECK_INT(case_render(timeline, "html", html_path), RLI_OK);
	CHECK_INT(case_read_png(&png, &pixels, png_path), 0);
	if (!(fp = fopen(html_path, "rb")))
		goto done;
	fseek(fp, 0, SEEK_END);
	length = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	html = calloc((size_t)length + 1, 1);
	if (html && fread(html, 1, (size_t)length, fp) != (size_t)length)
		length = -1;
	fclose(fp);
	CHECK(html && length > 0);
	{
		const rli_series *series = timeline->series;
		rli_color drawn[3];
		const char *drawn_names[3];
		CHECK_INT(timeline->series_count, 3);
		for (size_t s = 0; s < timeline->series_count && s < 3; s++) {
			char want[256];
			drawn[s] = series[s].color;
			drawn_names[s] = series[s].name;
			snprintf(want, sizeof(want), "{\"name\":\"%s\",\"color\":\"#%06x\"}", series[s].name,
				 (unsigned)series[s].color);
			if (html && !strstr(html, want)) {
				fprintf(stderr, "the HTML lacks %s\n", want);
				rli_test_failures++;
			}
			/* two bars of 60 ms of a 260 ms page: thousands of pixels */
			if (pixels && pixels_of(&png, pixels, series[s].color) < 1000) {
				fprintf(stderr, "the PNG hardly draws %s's #%06x\n", series[s].name, (unsigned)series[s].color);
				rli_test_failures++;
			}
		}
		check_apart("the sample's figure", drawn_names, drawn, 3);
	}
done:
	free(html);
	free(pixels);
	rli_timeline_free(timeline);
	rli_events_free(events);
}

/* The memory figure colours an operator by its name among the device's operators, as the pages do. */
static void test_memory_by_name(void)
{
	static const double starts[] = { 0, 5, 10, 15 }, durations[] = { 20, 10, 5, 1 }, sizes[] = { 64, 32, 16, 8 };
	static const char *const ops[] = { "aclnnMatmul", "aclnnAdd", "aclnnSoftmax", "LoadWeights" };
	static const char *const stacks[] = { "", "", "", "" };
	rli_memory_device device = { "actor_update", 0, 4, starts, durations, sizes, ops, stacks, 0, NULL, NULL, NULL,
				     0, RLI_MEMORY_TOTALS_NONE, NULL, NULL, NULL, NULL };
	rli_memory_figure *figure = NULL;
	rli_color want[4];

	CHECK_INT(rli_memory_figure_layout(&figure, &device, 1, NULL), RLI_OK);
	if (!figure)
		return;
	CHECK_INT(rli_palette_assign(want, ops, 4), RLI_OK);
	{
		const rli_page *page = &rli_memory_figure_document(figure)->pages[0];
		const rli_panel *gantt = page->items[2].u.panel;
		CHECK_INT(gantt->series_count, 4);
		for (size_t s = 0; s < gantt->series_count; s++)
			for (size_t o = 0; o < 4; o++)
				if (strcmp(gantt->series[s].name, ops[o]) == 0)
					CHECK_INT(gantt->series[s].color, want[o]);
	}
	rli_memory_figure_free(figure);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_palette OUT_DIR\n");
		return 2;
	}
	if (rli_mkdir_p(argv[1]) < 0)
		return 1;
	test_delta_e_reference();
	test_palette_apart();
	test_sets_apart_and_stable();
	test_rename_keeps_others();
	test_beyond_ten_by_role();
	test_text_on_white();
	test_png_and_html_agree(argv[1]);
	test_memory_by_name();
	return rli_test_failures ? 1 : 0;
}

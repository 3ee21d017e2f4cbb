/* test_golden.c: rendered PNGs match the golden/ images pixel by pixel (RLI_UPDATE_GOLDEN=1 rewrites them). */
#include "harness.h"
#include "render_cases.h"
#include "common/atomic_file.h"
#include "common/error.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
	const char *name;
	rli_events *(*make)(void);
	int width, scale;
	rli_timeline_style style;
} golden_case;

static const golden_case cases[] = {
	{ "few_rows", case_few_rows, 2000, 2, RLI_STYLE_DEFAULT },        /* CJK role, outlines, overlay */
	{ "many_ranks", case_many_ranks, 1000, 1, RLI_STYLE_DEFAULT },    /* 240 rows, adaptive height */
	{ "subpixel_100k", case_subpixel, 1600, 1, RLI_STYLE_DEFAULT },   /* 100,000 bars thinner than a pixel */
	{ "few_rows_paper", case_few_rows, 2000, 2, RLI_STYLE_PAPER }, /* a 3.5 in column at 300 dpi */
	{ "many_names", case_many_names, 1400, 1, RLI_STYLE_DEFAULT },   /* 13 names in 3 roles: colour families */
};

static int same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb;
	while (same) {
		int ca = fgetc(fa), cb = fgetc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

int main(int argc, char **argv)
{
	const char *golden_dir, *actual_dir, *update = getenv("RLI_UPDATE_GOLDEN");
	int updating = update && strcmp(update, "1") == 0;
	char golden_path[4096], actual_path[4096], again_path[4096];

	if (argc != 3) {
		fprintf(stderr, "usage: %s GOLDEN_DIR ACTUAL_DIR\n", argv[0]);
		return 2;
	}
	golden_dir = argv[1];
	actual_dir = argv[2];
	if (rli_mkdir_p(actual_dir) < 0) {
		fprintf(stderr, "%s\n", rli_error_last());
		return 1;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const golden_case *c = &cases[i];
		rli_events *events = c->make();
		rli_timeline_options options;
		rli_timeline *timeline = NULL;

		rli_timeline_options_init(&options);
		options.width = c->width;
		options.scale = c->scale;
		options.style = c->style;
		snprintf(golden_path, sizeof(golden_path), "%s/%s.png", golden_dir, c->name);
		snprintf(actual_path, sizeof(actual_path), "%s/%s.png", actual_dir, c->name);
		snprintf(again_path, sizeof(again_path), "%s/%s.again.png", actual_dir, c->name);

		CHECK_INT(rli_timeline_layout(&timeline, events, &options), RLI_OK);
		if (!timeline) {
			fprintf(stderr, "%s: %s\n", c->name, rli_error_last());
			rli_events_free(events);
			continue;
		}
		if (updating) {
			CHECK_INT(case_render(timeline, "png", golden_path), RLI_OK);
			fprintf(stderr, "%s: rewrote %s\n", c->name, golden_path);
		} else {
			CHECK_INT(case_render(timeline, "png", actual_path), RLI_OK);
			if (case_compare_png(c->name, golden_path, actual_path) == 0) {
				/* The same model always gives the same bytes. */
				CHECK_INT(case_render(timeline, "png", again_path), RLI_OK);
				CHECK(same_bytes(actual_path, again_path));
				remove(again_path);
				remove(actual_path);
			} else {
				fprintf(stderr, "%s: FAILED; the rendered image is %s\n", c->name, actual_path);
				rli_test_failures++;
			}
		}
		rli_timeline_free(timeline);
		rli_events_free(events);
	}
	TEST_DONE();
}

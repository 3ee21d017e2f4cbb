/* test_fonts.c: only the bundled fonts are used, CJK shapes to real glyphs, metrics are unhinted. */
#include "harness.h"
#include "text/text.h"
#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CJK_ROLE "\xe6\x9b\xb4\xe6\x96\xb0\xe7\xad\x96\xe7\x95\xa5" /* 更新策略 */

/* In a fresh process (the font map is made once per process): a wrong RLI_FONT_DIR is an error. */
static void test_missing_fonts_are_reported(void)
{
	int status = 0;
	pid_t child = fork();
	if (child == 0) {
		PangoContext *context = NULL;
		int error;
		setenv("RLI_FONT_DIR", "/nonexistent/rl-insight-fonts", 1);
		error = rli_text_context_new(&context);
		if (error != RLI_ERROR || context != NULL ||
		    !strstr(rli_error_last(), "fonts not found: RLI_FONT_DIR=/nonexistent/rl-insight-fonts")) {
			fprintf(stderr, "child: error %d, message \"%s\"\n", error, rli_error_last());
			_exit(1);
		}
		_exit(0);
	}
	CHECK(child > 0);
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The family of the font that shaped the first run of text. */
static char *first_run_family(PangoContext *context, const char *text)
{
	PangoLayout *layout = rli_text_layout_new(context, text, 13, 0);
	PangoLayoutIter *iter = pango_layout_get_iter(layout);
	PangoLayoutRun *run = pango_layout_iter_get_run_readonly(iter);
	char *family = NULL;
	if (run) {
		PangoFontDescription *font = pango_font_describe(run->item->analysis.font);
		family = strdup(pango_font_description_get_family(font));
		pango_font_description_free(font);
	}
	pango_layout_iter_free(iter);
	g_object_unref(layout);
	return family;
}

static void test_bundled_fonts_shape_everything(void)
{
	PangoContext *context = NULL;
	PangoLayout *layout;
	const char *dir = NULL;
	char *family;
	double w9, h9, w18, h18;

	CHECK_INT(rli_text_context_new(&context), RLI_OK);
	CHECK_INT(rli_text_font_dir(&dir), RLI_OK);
	CHECK(dir && strstr(dir, "fonts"));
	if (!context)
		return;

	layout = rli_text_layout_new(context, CJK_ROLE " - Rank 1", 13, 0);
	CHECK_INT(pango_layout_get_unknown_glyphs_count(layout), 0);
	g_object_unref(layout);

	family = first_run_family(context, CJK_ROLE);
	CHECK_STR(family, "Droid Sans Fallback");
	free(family);
	family = first_run_family(context, "actor_update - Rank 0");
	CHECK_STR(family, "DejaVu Sans");
	free(family);

	/* Unhinted metrics scale linearly, so layout at 1x matches drawing at 2x. */
	rli_text_measure(&w9, &h9, context, "Module - Rank 0123", 9, 0);
	rli_text_measure(&w18, &h18, context, "Module - Rank 0123", 18, 0);
	CHECK(w9 > 50);
	CHECK_NEAR(w18, 2 * w9, 0.1); /* hinted advances would be off by several units */
	CHECK_NEAR(h18, 2 * h9, 0.1);
	rli_text_measure(&w18, &h18, context, "Module - Rank 0123", 18, 1);
	CHECK(w18 > 2 * w9 + 1); /* bold is a different, wider face */
	g_object_unref(context);
}

/* fonts.conf (for FONTCONFIG_FILE) repeats rendering.conf's rules; they must not drift apart. */
static void test_rule_copies_agree(void)
{
	const char *dir = NULL;
	char path[4096];
	char *rules, *full, *a, *b;

	CHECK_INT(rli_text_font_dir(&dir), RLI_OK);
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/rendering.conf", dir);
	rules = test_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/fonts.conf", dir);
	full = test_read_file(path, NULL);
	CHECK(rules && full);
	if (rules && full) {
		a = strstr(rules, "  <alias");
		b = strstr(full, "  <alias");
		CHECK(a && b);
		if (a && b)
			CHECK_STR(b, a);
		CHECK(strstr(full, "<dir prefix=\"relative\">.</dir>") != NULL);
	}
	free(rules);
	free(full);
}

int main(void)
{
	test_missing_fonts_are_reported();
	test_bundled_fonts_shape_everything();
	test_rule_copies_agree();
	TEST_DONE();
}

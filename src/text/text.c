/* text.c: the private font map over the bundled fonts, and text measurement. */
#include "text.h"
#include "common/error.h"

#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RLI_FONT_DIR_BUILD
#define RLI_FONT_DIR_BUILD ""
#endif
#ifndef RLI_FONT_DIR_INSTALL
#define RLI_FONT_DIR_INSTALL ""
#endif

#define RULES_FILE "rendering.conf"

/* The rules file, then the fonts; every one must be present. */
static const char *const required_files[] = {
	RULES_FILE,
	"DejaVuSans.ttf",
	"DejaVuSans-Bold.ttf",
	"DroidSansFallbackFull.ttf",
};
#define REQUIRED_FILE_COUNT (sizeof(required_files) / sizeof(required_files[0]))
#define FONT_FILE_COUNT (REQUIRED_FILE_COUNT - 1)

/*
 * The fonts' configuration, made once per process (pthread_once), then only read; a font map per
 * thread on it, as Pango's own default is: a font map is not to be shared between threads (pages
 * are drawn on several at once). A thread's map goes with it; the first thread's lasts the process.
 */
static pthread_once_t fontmap_once = PTHREAD_ONCE_INIT;
static FcConfig *font_config;
static pthread_key_t fontmap_key;
static const char *fontmap_dir;
static char fontmap_error[4096 + 512];

static void fontmap_drop(void *map)
{
	g_object_unref(map);
}

static int dir_has_fonts(const char *dir)
{
	char path[4096];
	if (!dir || !*dir)
		return 0;
	for (size_t i = 0; i < REQUIRED_FILE_COUNT; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, required_files[i]) >= sizeof(path))
			return 0;
		if (access(path, R_OK) != 0)
			return 0;
	}
	return 1;
}

static const char *find_font_dir(void)
{
	const char *env = getenv("RLI_FONT_DIR");
	/* An explicit choice is never second-guessed: a wrong RLI_FONT_DIR is an error. */
	if (env && *env) {
		if (dir_has_fonts(env))
			return env;
		snprintf(fontmap_error, sizeof(fontmap_error),
			 "fonts not found: RLI_FONT_DIR=%s does not hold " RULES_FILE ", DejaVuSans.ttf, "
			 "DejaVuSans-Bold.ttf and DroidSansFallbackFull.ttf", env);
		return NULL;
	}
	if (dir_has_fonts(RLI_FONT_DIR_BUILD))
		return RLI_FONT_DIR_BUILD;
	if (dir_has_fonts(RLI_FONT_DIR_INSTALL))
		return RLI_FONT_DIR_INSTALL;
	snprintf(fontmap_error, sizeof(fontmap_error),
		 "fonts not found: neither %s nor %s holds " RULES_FILE ", DejaVuSans.ttf, "
		 "DejaVuSans-Bold.ttf and DroidSansFallbackFull.ttf; set RLI_FONT_DIR to the "
		 "folder that does", RLI_FONT_DIR_BUILD, RLI_FONT_DIR_INSTALL);
	return NULL;
}

/*
 * The rules are parsed and the font files added one by one, so fontconfig
 * scans no folder and writes no cache: nothing depends on the host's fonts,
 * its fontconfig setup or a writable home directory.
 */
static void fontmap_init(void)
{
	char path[4096];
	const char *dir = find_font_dir();
	FcConfig *config = NULL;
	FcFontSet *fonts;

	if (!dir)
		return;
	config = FcConfigCreate();
	if (!config) {
		snprintf(fontmap_error, sizeof(fontmap_error), "out of memory");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, RULES_FILE);
	if (!FcConfigParseAndLoad(config, (const FcChar8 *)path, FcTrue) ||
	    !FcConfigBuildFonts(config)) {
		snprintf(fontmap_error, sizeof(fontmap_error), "cannot load the font rules %s", path);
		goto done;
	}
	for (size_t i = 1; i < REQUIRED_FILE_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, required_files[i]);
		if (!FcConfigAppFontAddFile(config, (const FcChar8 *)path)) {
			snprintf(fontmap_error, sizeof(fontmap_error), "cannot load the font %s", path);
			goto done;
		}
	}
	fonts = FcConfigGetFonts(config, FcSetApplication);
	if (!fonts || fonts->nfont != (int)FONT_FILE_COUNT) {
		snprintf(fontmap_error, sizeof(fontmap_error), "%s holds %d usable fonts, not %d",
			 dir, fonts ? fonts->nfont : 0, (int)FONT_FILE_COUNT);
		goto done;
	}
	if (pthread_key_create(&fontmap_key, fontmap_drop) != 0) {
		snprintf(fontmap_error, sizeof(fontmap_error), "cannot keep a font map per thread");
		goto done;
	}
	font_config = config;
	config = NULL;
	fontmap_dir = dir;

done:
	if (config)
		FcConfigDestroy(config);
}

/* This thread's font map on the shared configuration, made on first use. */
static int thread_fontmap(PangoFontMap **out)
{
	PangoFontMap *map;
	pthread_once(&fontmap_once, fontmap_init);
	*out = NULL;
	if (!font_config)
		return rli_error_set(RLI_ERROR, "%s", fontmap_error);
	if (!(map = pthread_getspecific(fontmap_key))) {
		if (!(map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)))
			return rli_error_set(RLI_ERROR, "cannot create a FreeType font map");
		pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), font_config);
		if (pthread_setspecific(fontmap_key, map) != 0) {
			g_object_unref(map);
			return rli_error_oom();
		}
	}
	*out = map;
	return RLI_OK;
}

int rli_text_font_dir(const char **out)
{
	PangoFontMap *map;
	int error;
	*out = NULL;
	if ((error = thread_fontmap(&map)) < 0)
		return error;
	*out = fontmap_dir;
	return RLI_OK;
}

int rli_text_context_new(PangoContext **out)
{
	PangoFontMap *map;
	PangoContext *context;
	cairo_font_options_t *options;
	int error;

	*out = NULL;
	if ((error = thread_fontmap(&map)) < 0)
		return error;
	context = pango_font_map_create_context(map);
	if (!context)
		return rli_error_oom();
	options = cairo_font_options_create();
	cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT);
	pango_cairo_context_set_font_options(context, options);
	cairo_font_options_destroy(options);
	/* Unrounded positions keep measurement linear in the device scale. */
	pango_context_set_round_glyph_positions(context, FALSE);
	/* The host's locale must not pick fallback fonts or shaping. */
	pango_context_set_language(context, pango_language_from_string("en"));
	pango_context_set_base_dir(context, PANGO_DIRECTION_LTR);
	*out = context;
	return RLI_OK;
}

size_t rli_text_shown_length(const char *text)
{
	size_t length = 0;
	if (!text)
		return 0;
	while (length < RLI_TEXT_SHOWN_MAX && text[length])
		length++;
	if (text[length] == '\0')
		return length;
	/* back to the start of the character the bound cuts */
	while (length > 0 && ((unsigned char)text[length] & 0xC0) == 0x80)
		length--;
	return length;
}

PangoLayout *rli_text_layout_new(PangoContext *context, const char *text, double size, int bold)
{
	PangoLayout *layout = pango_layout_new(context);
	PangoFontDescription *font = pango_font_description_from_string(RLI_TEXT_FAMILY);

	pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
	pango_font_description_set_absolute_size(font, size * PANGO_SCALE);
	pango_layout_set_font_description(layout, font);
	pango_font_description_free(font);
	/* Names from traces may hold newlines; a label is always one line. */
	pango_layout_set_single_paragraph_mode(layout, TRUE);
	pango_layout_set_text(layout, text ? text : "", (int)rli_text_shown_length(text));
	return layout;
}

int rli_text_measure(double *width, double *height, PangoContext *context,
		     const char *text, double size, int bold)
{
	PangoLayout *layout = rli_text_layout_new(context, text, size, bold);
	PangoRectangle logical;

	pango_layout_get_extents(layout, NULL, &logical);
	*width = (double)logical.width / PANGO_SCALE;
	*height = (double)logical.height / PANGO_SCALE;
	g_object_unref(layout);
	return RLI_OK;
}

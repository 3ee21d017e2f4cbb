/* home_page.h: the run's home page, index.html (written by render/html_home.c): what was analysed, the findings, a link to every output. */
#ifndef RLI_LAYOUT_HOME_PAGE_H
#define RLI_LAYOUT_HOME_PAGE_H

#include "rl_insight.h"

#include <stddef.h>

/*
 * The home page is built up by whoever writes the run's outputs: each analysis adds the facts it
 * knows, its findings and an entry per output it wrote, then the page is written once, last. The
 * page links to every entry's file; the pages of the run link back to it (rli_run_context.home).
 * Texts are copied. Every function but rli_home_free returns RLI_OK or an error code.
 */
typedef struct rli_home rli_home;

/* A home page titled "rl-insight: <input>" (input: the profiles' path, or NULL). */
int rli_home_new(rli_home **out, const char *input);
/* Where t = 0 is, said once under the title ("t = 0 at 2026-03-12 03:24:48.353 UTC"). */
int rli_home_set_origin(rli_home *home, const char *origin);
/* A line of "What was analysed": ("Profiler", "mstx"), ("Ranks", "512"). */
int rli_home_add_fact(rli_home *home, const char *label, const char *value);
/* A headline finding, a sentence; the first added is shown first. */
int rli_home_add_finding(rli_home *home, const char *sentence);
/*
 * An output in a section of the page: "Timeline", "Memory", "Comparison", "Report", "Data" come in
 * that order, any other section after them in the order first named; entries keep the order
 * they were added in. label: the link's text; file: what it opens
 * (relative to the page, it may carry a #fragment), and what it shows.
 */
int rli_home_add_output(rli_home *home, const char *section, const char *label, const char *file,
			const char *description);
/* A further link beside the last output added (a device's other segment pages). */
int rli_home_add_link(rli_home *home, const char *label, const char *file);
/* Writes out_dir/index.html, into set when given (else into place at once). */
int rli_home_write(const rli_home *home, const char *out_dir, rli_output_set *set);
void rli_home_free(rli_home *home);

#endif

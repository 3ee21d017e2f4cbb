/* html_home.c: the run's home page, index.html: what was analysed, the headline findings, and a link to every output. */
#include "layout/home_page.h"
#include "html_bytes.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/output_set.h"
#include "common/strutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char rli_asset_home_css[];

typedef struct {
	char *label, *file;
} home_link;

typedef struct {
	char *section, *label, *file, *description;
	home_link *links;
	size_t link_count, link_capacity;
} home_output;

typedef struct {
	char *label, *value;
} home_fact;

struct rli_home {
	char *input, *origin;
	home_fact *facts;
	size_t fact_count, fact_capacity;
	char **findings;
	size_t finding_count, finding_capacity;
	home_output *outputs;
	size_t output_count, output_capacity;
};

/* A copy of text, "" for NULL; NULL only when out of memory. */
static char *copy(const char *text)
{
	return rli_strdup(text ? text : "");
}

int rli_home_new(rli_home **out, const char *input)
{
	*out = calloc(1, sizeof(**out));
	if (!*out || !((*out)->input = copy(input))) {
		rli_home_free(*out);
		*out = NULL;
		return rli_error_oom();
	}
	return RLI_OK;
}

int rli_home_set_origin(rli_home *home, const char *origin)
{
	char *text = copy(origin);
	if (!text)
		return rli_error_oom();
	free(home->origin);
	home->origin = text;
	return RLI_OK;
}

int rli_home_add_fact(rli_home *home, const char *label, const char *value)
{
	home_fact fact = { copy(label), copy(value) };
	if (!fact.label || !fact.value || RLI_GROW(&home->facts, &home->fact_capacity, home->fact_count + 1, 16) < 0) {
		free(fact.label);
		free(fact.value);
		return rli_error_oom();
	}
	home->facts[home->fact_count++] = fact;
	return RLI_OK;
}

int rli_home_add_finding(rli_home *home, const char *sentence)
{
	char *line = copy(sentence);
	if (!line || RLI_GROW(&home->findings, &home->finding_capacity, home->finding_count + 1, 8) < 0) {
		free(line);
		return rli_error_oom();
	}
	home->findings[home->finding_count++] = line;
	return RLI_OK;
}

int rli_home_add_output(rli_home *home, const char *section, const char *label, const char *file,
			const char *description)
{
	home_output output = { copy(section), copy(label), copy(file), copy(description), NULL, 0, 0 };
	if (!output.section || !output.label || !output.file || !output.description ||
	    RLI_GROW(&home->outputs, &home->output_capacity, home->output_count + 1, 16) < 0) {
		free(output.section);
		free(output.label);
		free(output.file);
		free(output.description);
		return rli_error_oom();
	}
	home->outputs[home->output_count++] = output;
	return RLI_OK;
}

int rli_home_add_link(rli_home *home, const char *label, const char *file)
{
	home_output *last;
	home_link link = { copy(label), copy(file) };
	if (!home->output_count)
		return rli_error_set(RLI_EUSAGE, "home page: a link needs an output to go beside");
	last = &home->outputs[home->output_count - 1];
	if (!link.label || !link.file || RLI_GROW(&last->links, &last->link_capacity, last->link_count + 1, 8) < 0) {
		free(link.label);
		free(link.file);
		return rli_error_oom();
	}
	last->links[last->link_count++] = link;
	return RLI_OK;
}

void rli_home_free(rli_home *home)
{
	if (!home)
		return;
	for (size_t i = 0; i < home->fact_count; i++) {
		free(home->facts[i].label);
		free(home->facts[i].value);
	}
	for (size_t i = 0; i < home->finding_count; i++)
		free(home->findings[i]);
	for (size_t i = 0; i < home->output_count; i++) {
		home_output *o = &home->outputs[i];
		for (size_t k = 0; k < o->link_count; k++) {
			free(o->links[k].label);
			free(o->links[k].file);
		}
		free(o->links);
		free(o->section);
		free(o->label);
		free(o->file);
		free(o->description);
	}
	free(home->facts);
	free(home->findings);
	free(home->outputs);
	free(home->input);
	free(home->origin);
	free(home);
}

static void link_to(FILE *fp, const char *file, const char *text)
{
	fputs("<a href=\"", fp);
	rli_html_escape(fp, file);
	fputs("\">", fp);
	rli_html_escape(fp, text);
	fputs("</a>", fp);
}

/* The section's outputs as one table: the link, what it shows, and its further links. */
static void write_section(FILE *fp, const rli_home *home, const char *section, size_t number)
{
	fprintf(fp, "<section class=\"rli-home-section\" aria-labelledby=\"rli-section-%zu\">\n<h2 id=\"rli-section-%zu\">",
		number, number);
	rli_html_escape(fp, section);
	fputs("</h2>\n<table class=\"rli-outputs\">\n<thead><tr><th scope=\"col\">Output</th>"
	      "<th scope=\"col\">What it shows</th></tr></thead>\n<tbody>\n", fp);
	for (size_t i = 0; i < home->output_count; i++) {
		const home_output *o = &home->outputs[i];
		if (strcmp(o->section, section) != 0)
			continue;
		fputs("<tr><td class=\"rli-output\">", fp);
		link_to(fp, o->file, o->label);
		fputs("</td><td>", fp);
		rli_html_escape(fp, o->description);
		if (o->link_count) {
			fputs("<span class=\"rli-more-links\">", fp);
			for (size_t k = 0; k < o->link_count; k++) {
				fputs(k ? " \xc2\xb7 " : " ", fp);
				link_to(fp, o->links[k].file, o->links[k].label);
			}
			fputs("</span>", fp);
		}
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody>\n</table>\n</section>\n", fp);
}

static void write_page(FILE *fp, const rli_home *home)
{
	static const char *const known[] = { "Timeline", "Memory", "Comparison", "Report", "Data" };
	size_t number;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"generator\" content=\"rl-insight " RLI_VERSION "\">\n<title>rl-insight: ", fp);
	rli_html_escape(fp, home->input);
	fputs("</title>\n<style>\n", fp);
	fputs(rli_asset_home_css, fp);
	fputs("</style>\n</head>\n<body>\n<main class=\"rli-home\">\n<h1>rl-insight: <span class=\"rli-input\">", fp);
	rli_html_escape(fp, home->input);
	fputs("</span></h1>\n", fp);
	if (home->origin && *home->origin) {
		fputs("<p class=\"rli-origin\">", fp);
		rli_html_escape(fp, home->origin);
		fputs(". Every page of this run counts time from there.</p>\n", fp);
	}
	if (home->finding_count) {
		fputs("<section class=\"rli-home-section\" aria-labelledby=\"rli-findings\">\n"
		      "<h2 id=\"rli-findings\">Findings</h2>\n<ul class=\"rli-findings\">\n", fp);
		for (size_t i = 0; i < home->finding_count; i++) {
			fputs("<li>", fp);
			rli_html_escape(fp, home->findings[i]);
			fputs("</li>\n", fp);
		}
		fputs("</ul>\n</section>\n", fp);
	}
	/* The known sections in their order, then any other in the order it was first named. */
	number = 0;
	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
		for (size_t i = 0; i < home->output_count; i++)
			if (strcmp(home->outputs[i].section, known[k]) == 0) {
				write_section(fp, home, known[k], number++);
				break;
			}
	for (size_t i = 0; i < home->output_count; i++) {
		int first = 1;
		for (size_t k = 0; k < sizeof(known) / sizeof(known[0]) && first; k++)
			first = strcmp(home->outputs[i].section, known[k]) != 0;
		for (size_t e = 0; e < i && first; e++)
			first = strcmp(home->outputs[e].section, home->outputs[i].section) != 0;
		if (first)
			write_section(fp, home, home->outputs[i].section, number++);
	}
	if (home->fact_count) {
		fputs("<section class=\"rli-home-section\" aria-labelledby=\"rli-analysed\">\n"
		      "<h2 id=\"rli-analysed\">What was analysed</h2>\n<table class=\"rli-facts\">\n<tbody>\n", fp);
		for (size_t i = 0; i < home->fact_count; i++) {
			fputs("<tr><th scope=\"row\">", fp);
			rli_html_escape(fp, home->facts[i].label);
			fputs("</th><td>", fp);
			rli_html_escape(fp, home->facts[i].value);
			fputs("</td></tr>\n", fp);
		}
		fputs("</tbody>\n</table>\n</section>\n", fp);
	}
	fputs("<p class=\"rli-tool\">Written by rl-insight " RLI_VERSION ". The files of a run open offline; keep them "
	      "together in one folder.</p>\n</main>\n</body>\n</html>\n", fp);
}

int rli_home_write(const rli_home *home, const char *out_dir, rli_output_set *set)
{
	rli_atomic_file file;
	char *path = rli_path_join(out_dir, "index.html");
	int error;

	if (!path)
		return rli_error_oom();
	if ((error = rli_atomic_open(&file, path)) < 0) {
		free(path);
		return error;
	}
	free(path);
	write_page(file.fp, home);
	if (fflush(file.fp) != 0 || ferror(file.fp)) {
		error = rli_error_set(RLI_EOUTPUT, "could not write %s", file.path);
		rli_atomic_abort(&file);
		return error;
	}
	return rli_output_finish(set, &file);
}

/* report.c: the run report: the page size, then the cover, the comparison, and each analysis's part in order (the timeline's statistics and pages, the memory's). */
#include "report.h"
#include "report_compare.h"
#include "report_book.h"
#include "report_cover.h"
#include "report_gmm.h"
#include "report_memory.h"
#include "report_stats.h"
#include "report_timeline.h"
#include "report_trend.h"
#include "common/error.h"

#include <stdlib.h>
#include <strings.h>

struct rli_report {
	rli_book book;
};

void rli_report_options_init(rli_report_options *options)
{
	*options = (rli_report_options){ 0 };
	options->paper = RLI_PAPER_A4;
}

int rli_paper_from_name(rli_paper *out, const char *name)
{
	static const char *const names[] = { "a4", "letter", "a3" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (name && strcasecmp(name, names[i]) == 0) {
			*out = (rli_paper)i;
			return RLI_OK;
		}
	return rli_error_set(RLI_EUSAGE, "unknown page size '%s' (use a4, letter or a3)", name ? name : "");
}

/* Portrait sizes in points: ISO 216 A4 and A3 rounded as PDF writers do, US letter exactly. */
static void paper_size(double *width, double *height, rli_paper paper, int portrait)
{
	static const double sizes[][2] = { { 595.28, 841.89 }, { 612.0, 792.0 }, { 841.89, 1190.55 } };
	double w = sizes[paper][0], h = sizes[paper][1];
	*width = portrait ? w : h;
	*height = portrait ? h : w;
}

const rli_document *rli_report_document(const rli_report *report)
{
	return &report->book.document;
}

void rli_report_free(rli_report *report)
{
	if (!report)
		return;
	rli_book_dispose(&report->book);
	free(report);
}

static int has_timeline(const rli_report_input *input)
{
	return input->stats && input->timeline;
}

static int add_timeline(rli_book *book, const rli_report_input *input)
{
	int error;
	if ((error = rli_report_stats(book, input->stats)) < 0 || (error = rli_book_heading(book, "Timeline", 0)) < 0)
		return error;
	return rli_report_timeline(book, input->timeline, input->stats);
}

static int has_memory(const rli_report_input *input)
{
	return input->memory && input->memory_stats && input->memory_stats->device_count;
}

static int add_memory(rli_book *book, const rli_report_input *input)
{
	return rli_report_memory(book, input->memory, input->memory_stats);
}

static int has_gmm(const rli_report_input *input)
{
	return input->gmm_matrix && input->gmm_stats;
}

static int add_gmm(rli_book *book, const rli_report_input *input)
{
	return rli_report_gmm(book, input->gmm_matrix, input->gmm_stats);
}

/*
 * Each analysis's part of the report, after the cover and the comparison, in this order: whether
 * the input holds it, and its pages. A new analysis is one line here (and its part of the input).
 */
static const struct {
	int (*has)(const rli_report_input *input);
	int (*add)(rli_book *book, const rli_report_input *input);
} parts[] = {
	{ has_timeline, add_timeline },
	{ has_memory, add_memory },
	{ has_gmm, add_gmm },
};
#define PART_COUNT (sizeof(parts) / sizeof(parts[0]))

int rli_report_layout(rli_report **out, const rli_report_input *input, const rli_report_options *options_in)
{
	rli_report_options options;
	rli_report *report = calloc(1, sizeof(*report));
	double width, height;
	int error, any = 0;

	*out = NULL;
	if (options_in)
		options = *options_in;
	else
		rli_report_options_init(&options);
	if (!report)
		return rli_error_oom();
	if (options.paper > RLI_PAPER_A3) {
		error = rli_error_set(RLI_EUSAGE, "report: unknown page size %d", (int)options.paper);
		goto done;
	}
	for (size_t i = 0; i < PART_COUNT; i++)
		any |= parts[i].has(input);
	if (!any) {
		error = rli_error_set(RLI_EINVALID, "report: nothing to report (no timeline, no memory records, no expert load)");
		goto done;
	}
	paper_size(&width, &height, options.paper, options.portrait);
	if ((error = rli_book_init(&report->book, width, height, "rl-insight run report")) < 0 ||
	    (error = rli_report_cover(&report->book, input, &options)) < 0)
		goto done;
	if (input->comparison && (error = rli_report_compare(&report->book, input->comparison)) < 0)
		goto done;
	if (input->trend && (error = rli_report_trend(&report->book, input->trend)) < 0)
		goto done;
	for (size_t i = 0; i < PART_COUNT; i++)
		if (parts[i].has(input) && (error = parts[i].add(&report->book, input)) < 0)
			goto done;
	if ((error = rli_book_finish(&report->book, "rl_insight_report", "rl-insight run report")) < 0)
		goto done;
	report->book.document.date = options.date;
	*out = report;
	report = NULL;
done:
	rli_report_free(report);
	return error;
}

/* report_cover.c: the report's first page: the findings in sentences, and what was analysed. */
#include "report_cover.h"
#include "report_table.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "events/events.h"
#include "stats/findings.h"

#include <stdio.h>
#include <string.h>

#define COVER_TITLE_SIZE 24.0
#define MAX_FACTS 16

/* The roles by name, comma separated, as many as a line holds. */
static char *role_list(rli_book *book, const rli_stats *stats)
{
	char list[512] = "";
	size_t shown = 0, roles = stats->role_count;
	for (size_t r = 0; r < roles; r++) {
		const char *name = rli_events_str(stats->events, rli_stats_role(stats, r));
		if (strlen(list) + strlen(name) + 3 < 200) {
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", shown ? ", " : "", name);
			shown++;
		}
	}
	if (shown < roles)
		return rli_book_printf(book, "%zu: %s and %zu more", roles, list, roles - shown);
	return rli_book_printf(book, "%zu: %s", roles, list);
}

typedef struct {
	rli_text_table table;
	size_t count;
} facts;

static int fact(rli_book *book, facts *f, const char *key, const char *value)
{
	int error;
	if (!value)
		return rli_error_oom();
	if ((error = rli_text_table_set(book, &f->table, f->count, 0, "%s", key)) < 0 ||
	    (error = rli_text_table_set(book, &f->table, f->count, 1, "%s", value)) < 0)
		return error;
	f->count++;
	return RLI_OK;
}

static int timeline_facts(rli_book *book, facts *f, const rli_stats *stats)
{
	char a[64], b[64], c[64];
	int error;
	if ((error = fact(book, f, "Ranks", rli_fmt_thousands(a, sizeof(a), (double)stats->rank_count, 0))) < 0 ||
	    (error = fact(book, f, "Roles", role_list(book, stats))) < 0 ||
	    (error = fact(book, f, "Steps", rli_book_printf(book, "up to %zu per role (step k of a role is the k-th "
							      "bar of each of its ranks, in time order)",
							      stats->max_steps))) < 0 ||
	    (error = fact(book, f, "Bars", rli_book_printf(book, "%s counted%s", rli_fmt_thousands(a, sizeof(a),
							     (double)stats->rows_counted, 0), stats->rows_left_out ?
							     rli_book_printf(book, ", %zu left out (they end before "
							     "they start)", stats->rows_left_out) : ""))) < 0 ||
	    (error = fact(book, f, "Time span", rli_fmt_duration(b, sizeof(b), stats->end_ms - stats->start_ms))) < 0)
		return error;
	if (rli_is_epoch_ms(stats->start_ms))
		return fact(book, f, "Captured", rli_book_printf(book, "%s to %s", rli_fmt_utc(b, sizeof(b),
							   stats->start_ms), rli_fmt_utc(c, sizeof(c), stats->end_ms)));
	return fact(book, f, "Captured", "on the profiler's own clock (no date in the traces)");
}

static int memory_facts(rli_book *book, facts *f, const rli_memory_stats *stats)
{
	char a[64], b[64];
	size_t allocations = 0;
	double kb = 0;
	int per_id = 0;
	for (size_t d = 0; d < stats->device_count; d++) {
		allocations += stats->devices[d].allocations;
		kb += stats->devices[d].allocated_kb;
		per_id |= stats->devices[d].shares_rank;
	}
	/* A PyTorch rank may use several devices: then a device is told apart by its id too. */
	return fact(book, f, "Memory", rli_book_printf(book, "%zu device%s (%s), %s allocations, %s in all",
						       stats->device_count, stats->device_count == 1 ? "" : "s",
						       per_id ? "role, rank and device id" : "role and rank",
						       rli_fmt_thousands(a, sizeof(a), (double)allocations, 0),
						       rli_fmt_size_kb(b, sizeof(b), kb)));
}

static int what_was_analysed(rli_book *book, const rli_report_input *input, const rli_report_options *options)
{
	static const char *const header[2] = { "What", "Value" };
	static const rli_align align[2] = { RLI_ALIGN_START, RLI_ALIGN_START };
	static const double weight[2] = { 0.2, 1.0 };
	facts f = { .count = 0 };
	int error = rli_text_table_new(book, &f.table, "What was analysed", 2, MAX_FACTS, header, align, weight);

	if (error < 0 ||
	    (error = fact(book, &f, "Input", options->input_path ? options->input_path : "")) < 0 ||
	    (error = fact(book, &f, "Profiler", options->profiler ? options->profiler : "none (memory records only)")) < 0 ||
	    (input->stats && (error = timeline_facts(book, &f, input->stats)) < 0) ||
	    (input->memory_stats && input->memory_stats->device_count &&
	     (error = memory_facts(book, &f, input->memory_stats)) < 0) ||
	    (input->gmm_stats && (error = fact(book, &f, "MoE expert load",
					       rli_book_printf(book, "%zu experts, %zu dumps of %zu ranks, %zu steps, %zu roles",
							       input->gmm_stats->experts, input->gmm_stats->rows,
							       input->gmm_stats->ranks, input->gmm_stats->steps,
							       input->gmm_stats->roles))) < 0) ||
	    (error = fact(book, &f, "Tool", "rl-insight " RLI_VERSION)) < 0)
		return error;
	f.table.row_count = f.count;
	return rli_book_table(book, &f.table);
}

int rli_report_cover(rli_book *book, const rli_report_input *input, const rli_report_options *options)
{
	rli_findings findings = { 0 };
	int error;

	if ((error = rli_book_new_page(book)) < 0 || (error = rli_book_bookmark(book, "Summary", 0)) < 0 ||
	    (error = rli_book_text(book, NULL, "rl-insight run report", book->left, book->y, COVER_TITLE_SIZE, 1,
				   RLI_ALIGN_START, RLI_ALIGN_START)) < 0)
		return error;
	book->y += COVER_TITLE_SIZE * 1.6;
	if ((error = rli_book_paragraph(book, options->input_path ? options->input_path : "", BOOK_BODY_SIZE, 0,
					BOOK_MUTED_COLOR)) < 0)
		return error;
	book->y += BOOK_BODY_SIZE;
	if ((input->stats && (error = rli_findings_timeline(&findings, input->stats)) < 0) ||
	    (input->memory_stats && (error = rli_findings_memory(&findings, input->memory_stats)) < 0))
		goto done;
	if ((error = rli_book_text(book, NULL, "Findings", book->left, book->y, BOOK_SUBHEADING_SIZE, 1,
				   RLI_ALIGN_START, RLI_ALIGN_START)) < 0)
		goto done;
	book->y += BOOK_SUBHEADING_SIZE * 1.6;
	/* The headline first, then the rest in their order. */
	for (size_t k = 0; k < findings.count; k++) {
		size_t i = k == 0 ? findings.headline : k <= findings.headline ? k - 1 : k;
		char *line = rli_book_printf(book, "\xe2\x80\xa2 %s", findings.lines[i]);
		if (!line) {
			error = rli_error_oom();
			goto done;
		}
		if ((error = rli_book_paragraph(book, line, BOOK_BODY_SIZE + 1, 0, BOOK_TEXT_COLOR)) < 0)
			goto done;
		book->y += 3;
	}
	/* The expert load's finding after the others': the cover's findings are the timeline's and the memory's. */
	if (input->gmm_stats) {
		char *line = rli_book_printf(book, "\xe2\x80\xa2 %s", input->gmm_stats->finding);
		if (!line) {
			error = rli_error_oom();
			goto done;
		}
		if ((error = rli_book_paragraph(book, line, BOOK_BODY_SIZE + 1, 0, BOOK_TEXT_COLOR)) < 0)
			goto done;
		book->y += 3;
	}
	if (!findings.count && !input->gmm_stats && (error = rli_book_paragraph(book, "Nothing stood out.", BOOK_BODY_SIZE, 0,
							   BOOK_TEXT_COLOR)) < 0)
		goto done;
	book->y += BOOK_BODY_SIZE * 1.5;
	error = what_was_analysed(book, input, options);
done:
	rli_findings_free(&findings);
	return error;
}

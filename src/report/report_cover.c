/* report_cover.c: the report's first page: what was analysed, and the findings in sentences. */
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

typedef struct {
	char *header[2];
	char *cells[2 * MAX_FACTS];
	size_t count;
} facts;

static int fact(rli_book *book, facts *f, const char *key, const char *value)
{
	if (f->count == MAX_FACTS)
		return RLI_OK;
	if (!(f->cells[2 * f->count] = rli_book_strdup(book, key)) ||
	    !(f->cells[2 * f->count + 1] = rli_book_strdup(book, value)))
		return rli_error_oom();
	f->count++;
	return RLI_OK;
}

/* The roles by name, comma separated, as many as a line holds. */
static char *role_list(rli_book *book, const rli_stats *stats)
{
	char list[512] = "";
	size_t shown = 0, roles = 0;
	uint32_t last = UINT32_MAX;
	for (size_t i = 0; i < stats->phase_count; i++) {
		const char *name;
		if (stats->phases[i].role == last)
			continue;
		last = stats->phases[i].role;
		roles++;
		name = rli_strpool_get(&stats->events->strings, last);
		if (strlen(list) + strlen(name) + 3 < 200) {
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", shown ? ", " : "", name);
			shown++;
		}
	}
	if (shown < roles)
		return rli_book_printf(book, "%zu: %s and %zu more", roles, list, roles - shown);
	return rli_book_printf(book, "%zu: %s", roles, list);
}

static int what_was_analysed(rli_book *book, const rli_report_input *input, const rli_report_options *options)
{
	const rli_stats *stats = input->stats;
	static const rli_align align[2] = { RLI_ALIGN_START, RLI_ALIGN_START };
	static const double weight[2] = { 0.2, 1.0 };
	facts f = { { "", "" }, { 0 }, 0 };
	char a[64], b[64], c[64];
	rli_text_table table;
	char *roles = role_list(book, stats);
	int error;

	if (!roles)
		return rli_error_oom();
	f.header[0] = "What";
	f.header[1] = "Value";
	if ((error = fact(book, &f, "Input", options->input_path ? options->input_path : "")) < 0 ||
	    (error = fact(book, &f, "Profiler", options->profiler ? options->profiler : "")) < 0 ||
	    (error = fact(book, &f, "Ranks", rli_fmt_thousands(a, sizeof(a), (double)stats->rank_count, 0))) < 0 ||
	    (error = fact(book, &f, "Roles", roles)) < 0 ||
	    (error = fact(book, &f, "Steps", rli_book_printf(book, "up to %zu per role (step k of a role is the k-th "
							       "bar of each of its ranks, in time order)",
							       stats->max_steps))) < 0 ||
	    (error = fact(book, &f, "Bars", rli_book_printf(book, "%s counted%s", rli_fmt_thousands(a, sizeof(a),
							      (double)stats->rows_counted, 0),
							      stats->rows_left_out ? rli_book_printf(book,
							      ", %zu left out (they end before they start)",
							      stats->rows_left_out) : ""))) < 0 ||
	    (error = fact(book, &f, "Time span", rli_fmt_duration(b, sizeof(b), stats->end_ms - stats->start_ms))) < 0)
		return error;
	if (rli_is_epoch_ms(stats->start_ms))
		error = fact(book, &f, "Captured", rli_book_printf(book, "%s to %s", rli_fmt_utc(b, sizeof(b),
									stats->start_ms), rli_fmt_utc(c, sizeof(c), stats->end_ms)));
	else
		error = fact(book, &f, "Captured", "on the profiler's own clock (no date in the traces)");
	if (error < 0 || (error = fact(book, &f, "Tool", "rl-insight " RLI_VERSION)) < 0)
		return error;
	table = (rli_text_table){ "What was analysed", 2, f.count, f.header, f.cells, align, weight };
	{
		/* The table's strings must outlive this frame: the header and the cell array are the book's. */
		char **header = rli_book_alloc(book, 2, sizeof(char *));
		char **cells = rli_book_alloc(book, 2 * f.count, sizeof(char *));
		if (!header || !cells)
			return rli_error_oom();
		header[0] = f.header[0];
		header[1] = f.header[1];
		memcpy(cells, f.cells, 2 * f.count * sizeof(char *));
		table.header = header;
		table.cells = cells;
	}
	return rli_book_table(book, &table);
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
	if ((error = rli_findings_timeline(&findings, input->stats)) < 0)
		goto done;
	if ((error = rli_book_text(book, NULL, "Findings", book->left, book->y, BOOK_SUBHEADING_SIZE, 1,
				   RLI_ALIGN_START, RLI_ALIGN_START)) < 0)
		goto done;
	book->y += BOOK_SUBHEADING_SIZE * 1.6;
	for (size_t i = 0; i < findings.count; i++) {
		char *line = rli_book_printf(book, "\xe2\x80\xa2 %s", findings.lines[i]);
		if (!line) {
			error = rli_error_oom();
			goto done;
		}
		if ((error = rli_book_paragraph(book, line, BOOK_BODY_SIZE + 1, 0, BOOK_TEXT_COLOR)) < 0)
			goto done;
		book->y += 3;
	}
	if (!findings.count && (error = rli_book_paragraph(book, "Nothing stood out.", BOOK_BODY_SIZE, 0,
							   BOOK_TEXT_COLOR)) < 0)
		goto done;
	book->y += BOOK_BODY_SIZE * 1.5;
	error = what_was_analysed(book, input, options);
done:
	rli_findings_free(&findings);
	return error;
}

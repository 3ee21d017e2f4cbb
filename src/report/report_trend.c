/* report_trend.c: the report's run history section: the trend's heading, each role's panel, the memory and the strip, each kept whole on a page. */
#include "report_trend.h"

/* A part scaled to the content width needs about this much room; less left, it starts a page. */
#define MIN_PART_ROOM 120.0

int rli_report_trend(rli_book *book, const rli_trend_figure *trend)
{
	int error;
	if ((error = rli_book_heading(book, "Run history", 0)) < 0 ||
	    (error = rli_book_paragraph(book, "This run among the runs before it of the same input and label family, as "
					      "the history keeps them: per role, each phase's median run by run with its "
					      "inter-quartile range, this run ringed, and in red each run slower than the "
					      "median of the runs before it, beyond the noise; then the memory peaks per "
					      "device and the straggler ranks.", BOOK_BODY_SIZE, 0, BOOK_TEXT_COLOR)) < 0)
		return error;
	/* A part at a time, so a page break falls between panels, never through one. */
	for (size_t i = 0; i < trend->section_count; i++) {
		const rli_trend_section *s = &trend->sections[i];
		if ((error = rli_book_figure(book, &trend->page, s->top, s->bottom, MIN_PART_ROOM)) < 0)
			return error;
	}
	return RLI_OK;
}

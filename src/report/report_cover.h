/* report_cover.h: the report's first page: what was analysed, and the findings in sentences. */
#ifndef RLI_REPORT_COVER_H
#define RLI_REPORT_COVER_H

#include "report.h"
#include "report_book.h"

int rli_report_cover(rli_book *book, const rli_report_input *input, const rli_report_options *options);

#endif

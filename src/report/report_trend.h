/* report_trend.h: the report's run history section: the trend figure, a part a page where it must break. */
#ifndef RLI_REPORT_TREND_H
#define RLI_REPORT_TREND_H

#include "report_book.h"
#include "layout/trend_figure.h"

int rli_report_trend(rli_book *book, const rli_trend_figure *trend);

#endif

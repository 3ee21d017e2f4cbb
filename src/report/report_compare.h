/* report_compare.h: the report's comparison section, at its front: the verdict, the figure of compare.png, and the changes phase by phase, role by role, device by device. */
#ifndef RLI_REPORT_COMPARE_H
#define RLI_REPORT_COMPARE_H

#include "report_book.h"
#include "compare/compare.h"

int rli_report_compare(rli_book *book, const rli_comparison *comparison);

#endif

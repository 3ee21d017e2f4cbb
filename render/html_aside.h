/* html_aside.h: the page's aside items (headings and tables beside the timeline) as the model's JSON. */
#ifndef RLI_RENDER_HTML_ASIDE_H
#define RLI_RENDER_HTML_ASIDE_H

#include "layout/layout.h"

#include <stddef.h>
#include <stdio.h>

/*
 * ,"aside":[...] in the order given: a text as {"heading":text}, a table as
 * {"caption","header":[...],"align":["start"|"middle"|"end"],"rows":[[...]],
 * "lanes":[lane or -1 per row],"emphasis":[0|1 per row],"linkColumn",
 * "note"}. Nothing when count is 0. Other kinds
 * of item have no aside form: RLI_EUSAGE.
 */
int rli_html_write_aside(FILE *fp, const rli_item *const *items, size_t count);

#endif

/* html_aside.c: the page's aside items (headings and tables beside the timeline) as the model's JSON. */
#include "html_aside.h"
#include "html_bytes.h"
#include "common/error.h"
#include "common/json_write.h"

#include <inttypes.h>

static void write_string(FILE *fp, const char *text)
{
	rli_json_write_string(fp, text ? text : "", RLI_JSON_HTML_SAFE);
}

static void write_table(FILE *fp, const rli_table *t)
{
	static const char *const aligns[] = { "start", "middle", "end" };
	fputs("{\"caption\":", fp);
	write_string(fp, t->caption);
	fputs(",\"header\":", fp);
	rli_html_strings(fp, (const char *const *)t->header, t->column_count);
	fputs(",\"align\":[", fp);
	for (size_t c = 0; c < t->column_count; c++)
		fprintf(fp, "%s\"%s\"", c ? "," : "", aligns[t->align && t->align[c] <= RLI_ALIGN_END ? t->align[c] : 0]);
	fputs("],\"rows\":[", fp);
	for (size_t r = 0; r < t->row_count; r++) {
		if (r)
			putc(',', fp);
		rli_html_strings(fp, (const char *const *)t->cells + r * t->column_count, t->column_count);
	}
	fputs("],\"lanes\":[", fp);
	for (size_t r = 0; r < t->row_count; r++) {
		uint32_t lane = t->row_lane ? t->row_lane[r] : UINT32_MAX;
		if (lane == UINT32_MAX)
			fprintf(fp, "%s-1", r ? "," : "");
		else
			fprintf(fp, "%s%" PRIu32, r ? "," : "", lane);
	}
	fputs("],\"emphasis\":[", fp);
	for (size_t r = 0; r < t->row_count; r++)
		fprintf(fp, "%s%d", r ? "," : "", t->row_emphasis && t->row_emphasis[r] ? 1 : 0);
	fprintf(fp, "],\"linkColumn\":%zu,\"note\":", t->row_lane && t->link_column < t->column_count ? t->link_column : 0);
	write_string(fp, t->note);
	putc('}', fp);
}

int rli_html_write_aside(FILE *fp, const rli_item *const *items, size_t count)
{
	if (!count)
		return RLI_OK;
	fputs(",\"aside\":[", fp);
	for (size_t i = 0; i < count; i++) {
		if (i)
			putc(',', fp);
		switch (items[i]->kind) {
		case RLI_ITEM_TEXT:
			fputs("{\"heading\":", fp);
			write_string(fp, items[i]->u.text->text);
			putc('}', fp);
			break;
		case RLI_ITEM_TABLE:
			write_table(fp, items[i]->u.table);
			break;
		default:
			return rli_error_set(RLI_EUSAGE, "html: an aside holds headings and tables, not item kind %d",
					     (int)items[i]->kind);
		}
	}
	putc(']', fp);
	return RLI_OK;
}

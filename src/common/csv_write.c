/* csv_write.c: writing CSV fields as pandas does (RFC 4180 quoting only where a field needs it). */
#include "csv_write.h"

#include <string.h>

void rli_csv_write_field(FILE *fp, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, fp);
		return;
	}
	putc('"', fp);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			putc('"', fp);
		putc(*p, fp);
	}
	putc('"', fp);
}

/* csv_write.h: writing CSV fields as pandas does (RFC 4180 quoting only where a field needs it). */
#ifndef RLI_COMMON_CSV_WRITE_H
#define RLI_COMMON_CSV_WRITE_H

#include <stdio.h>

/* Writes text as one field: quoted, with quotes doubled, when it holds a comma, quote or line break. */
void rli_csv_write_field(FILE *fp, const char *text);

#endif

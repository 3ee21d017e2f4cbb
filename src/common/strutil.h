/* strutil.h: allocated strings: copies, printf, joined paths. Each returns NULL when out of memory. */
#ifndef RLI_COMMON_STRUTIL_H
#define RLI_COMMON_STRUTIL_H

#include "error.h"

#include <stdarg.h>

char *rli_strdup(const char *text);
/* Allocated printf. */
char *rli_strfmt(const char *fmt, ...) RLI_PRINTF(1, 2);
char *rli_vstrfmt(const char *fmt, va_list ap);
/* Joins two path parts with one '/'. */
char *rli_path_join(const char *dir, const char *name);

#endif

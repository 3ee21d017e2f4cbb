/* strutil.c: allocated strings: copies, printf, joined paths. */
#include "strutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rli_strdup(const char *text)
{
	size_t length = strlen(text);
	char *copy = malloc(length + 1);
	if (copy)
		memcpy(copy, text, length + 1);
	return copy;
}

char *rli_vstrfmt(const char *fmt, va_list ap)
{
	va_list again;
	int length;
	char *text;
	va_copy(again, ap);
	length = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (length < 0)
		return NULL;
	text = malloc((size_t)length + 1);
	if (text)
		vsnprintf(text, (size_t)length + 1, fmt, ap);
	return text;
}

char *rli_strfmt(const char *fmt, ...)
{
	va_list ap;
	char *text;
	va_start(ap, fmt);
	text = rli_vstrfmt(fmt, ap);
	va_end(ap);
	return text;
}

char *rli_path_join(const char *dir, const char *name)
{
	size_t length = strlen(dir);
	if (length && dir[length - 1] == '/')
		return rli_strfmt("%s%s", dir, name);
	return rli_strfmt("%s/%s", dir, name);
}

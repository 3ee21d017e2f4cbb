/* error.c: the thread-local last-error message behind rli_error_last(). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Long enough for a validation report naming many files; longer ones are cut. */
#define RLI_ERROR_CAPACITY 16384

static _Thread_local char last_error[RLI_ERROR_CAPACITY];

const char *rli_error_last(void)
{
	return last_error;
}

int rli_error_set(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return code;
}

void rli_error_append(const char *fmt, ...)
{
	size_t used = strlen(last_error);
	va_list ap;
	if (used + 1 >= sizeof(last_error))
		return;
	va_start(ap, fmt);
	vsnprintf(last_error + used, sizeof(last_error) - used, fmt, ap);
	va_end(ap);
}

int rli_error_prefix(int code, const char *fmt, ...)
{
	char prefix[1024];
	size_t length, used = strlen(last_error);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	length = strlen(prefix);
	/* The message moves right in place; what no longer fits is cut at the end. */
	if (length >= sizeof(last_error))
		length = sizeof(last_error) - 1;
	if (used + length >= sizeof(last_error))
		used = sizeof(last_error) - 1 - length;
	memmove(last_error + length, last_error, used);
	memcpy(last_error, prefix, length);
	last_error[length + used] = '\0';
	return code;
}

void rli_error_clear(void)
{
	last_error[0] = '\0';
}

int rli_error_oom(void)
{
	return rli_error_set(RLI_ERROR, "out of memory");
}

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

void rli_error_clear(void)
{
	last_error[0] = '\0';
}

int rli_error_oom(void)
{
	return rli_error_set(RLI_ERROR, "out of memory");
}

/* error.h: the thread-local last-error message behind rli_error_last(). */
#ifndef RLI_COMMON_ERROR_H
#define RLI_COMMON_ERROR_H

#include "rl_insight.h"

#if defined(__GNUC__)
#define RLI_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define RLI_PRINTF(fmt, args)
#endif

/* Sets the message and returns code, so callers can write `return rli_error_set(...)`. */
int rli_error_set(int code, const char *fmt, ...) RLI_PRINTF(2, 3);
/*
 * Puts the formatted text before the current message ("file:3: " before what
 * a value's check said) and returns code.
 */
int rli_error_prefix(int code, const char *fmt, ...) RLI_PRINTF(2, 3);
/* Appends to the current message (used to collect several validation failures). */
void rli_error_append(const char *fmt, ...) RLI_PRINTF(1, 2);
void rli_error_clear(void);
/* Shorthand for the one failure every allocation shares. */
int rli_error_oom(void);

#endif

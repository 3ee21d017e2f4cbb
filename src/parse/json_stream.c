/* json_stream.c: yajl fed chunk by chunk, with nesting bounded and errors placed at line and column. */
#include "json_stream.h"
#include "parse_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* yajl's allocations, watched for the size of its largest buffer (see rli_json_feed). */
static void *watch_malloc(void *ctx, size_t size)
{
	rli_json *json = ctx;
	if (size > json->largest)
		json->largest = size;
	return malloc(size);
}

static void *watch_realloc(void *ctx, void *old, size_t size)
{
	rli_json *json = ctx;
	if (size > json->largest)
		json->largest = size;
	return realloc(old, size);
}

static void watch_free(void *ctx, void *block)
{
	(void)ctx;
	free(block);
}

int rli_json_open(rli_json *json, const yajl_callbacks *callbacks, void *ctx, uint64_t line)
{
	yajl_alloc_funcs funcs = { watch_malloc, watch_realloc, watch_free, json };
	memset(json, 0, sizeof(*json));
	json->line = line;
	json->handle = yajl_alloc(callbacks, &funcs, ctx);
	if (!json->handle)
		return rli_error_oom();
	return RLI_OK;
}

void rli_json_close(rli_json *json)
{
	if (json->handle)
		yajl_free(json->handle);
	free(json->reason);
	free(json->message);
	free(json->held);
	memset(json, 0, sizeof(*json));
}

/*
 * Counted in blocks of 255 with a byte-sized counter, a loop the compiler turns into wide
 * compares; a memchr per newline cost a call for every short line of a trace.
 */
static void advance(rli_json *json, const unsigned char *data, size_t length)
{
	uint64_t newlines = 0;
	const unsigned char *last;
	for (size_t at = 0; at < length;) {
		size_t block = length - at < 255 ? length - at : 255;
		unsigned char in_block = 0;
		for (size_t i = 0; i < block; i++)
			in_block += data[at + i] == '\n';
		newlines += in_block;
		at += block;
	}
	if (newlines == 0) {
		json->column += length;
		return;
	}
	last = data + length - 1;
	while (*last != '\n')
		last--;
	json->line += newlines;
	json->column = (uint64_t)(data + length - (last + 1));
}

/* yajl says "parse error: premature EOF\n"; keep only "premature EOF". */
static char *yajl_reason(yajl_handle handle)
{
	unsigned char *raw = yajl_get_error(handle, 0, NULL, 0);
	const char *text = raw ? (const char *)raw : "invalid JSON";
	const char *colon = strstr(text, "error: ");
	char *reason;
	size_t length;
	if (colon)
		text = colon + strlen("error: ");
	reason = rli_strdup(text);
	if (raw)
		yajl_free_error(handle, raw);
	if (!reason)
		return NULL;
	length = strlen(reason);
	while (length && (isspace((unsigned char)reason[length - 1]) || reason[length - 1] == '.'))
		reason[--length] = '\0';
	return reason;
}

/* The failure message: "<reason> at line L, column C" (no message: out of memory). Takes reason. */
static int fail_because(rli_json *json, char *reason)
{
	free(json->message);
	json->message = NULL;
	if (reason)
		json->message = rli_strfmt("%s at line %llu, column %llu", reason,
					   (unsigned long long)json->line,
					   (unsigned long long)json->column + 1);
	free(reason);
	return -1;
}

static int fail(rli_json *json, yajl_status status)
{
	char *reason;
	if (status == yajl_status_client_canceled && json->reason) {
		reason = json->reason;
		json->reason = NULL;
	} else {
		reason = yajl_reason(json->handle);
	}
	return fail_because(json, reason);
}

static int too_long(rli_json *json)
{
	free(json->message);
	json->message = rli_strfmt("a single value longer than %u MiB at line %llu, column %llu",
				   RLI_JSON_MAX_VALUE >> 20, (unsigned long long)json->line,
				   (unsigned long long)json->column + 1);
	return -1;
}

static int parse(rli_json *json, const unsigned char *data, size_t length)
{
	yajl_status status = yajl_parse(json->handle, data, length);
	if (status == yajl_status_error) {
		size_t used = yajl_get_bytes_consumed(json->handle);
		char *reason = yajl_reason(json->handle);
		/*
		 * yajl mostly counts the offending byte as consumed: point at it, not after it. Inside a
		 * string (a control character, a bad escape) it has backed up to the byte already.
		 */
		int backed_up = reason && (strstr(reason, "inside string") || strstr(reason, "inside a string"));
		if (used > 0 && !backed_up)
			used--;
		if (used > length)
			used = length;
		advance(json, data, used);
		/* A NUL byte is no text at all (a file cut short by a crash is often padded with them): say so. */
		if (reason && used < length && data[used] == '\0') {
			free(reason);
			reason = rli_strdup("a NUL byte (not JSON text)");
		}
		return fail_because(json, reason);
	}
	if (status != yajl_status_ok) {
		size_t used = yajl_get_bytes_consumed(json->handle);
		advance(json, data, used < length ? used : length);
		return fail(json, status);
	}
	advance(json, data, length);
	/* yajl buffers a value at most twice over: a larger buffer means a longer value. */
	if (json->largest > 2 * (size_t)RLI_JSON_MAX_VALUE)
		return too_long(json);
	return 0;
}

static int feed_held(rli_json *json)
{
	size_t length = json->held_used;
	json->held_used = 0;
	return length ? parse(json, json->held, length) : 0;
}

/*
 * A value that spans reads is kept by yajl and rescanned from its start on each read: fed in
 * 64 KiB reads, a 40 MB string costs 600 rescans of up to 40 MB. Once yajl's buffer is that
 * large, bytes are held back until there are at least as many as it holds, so each rescan is
 * paid for by as many new bytes and the whole read stays linear.
 */
int rli_json_feed(rli_json *json, const unsigned char *data, size_t length)
{
	if (json->largest < RLI_JSON_LONG_VALUE && json->held_used == 0)
		return parse(json, data, length);
	if (json->held_used + length > json->held_capacity) {
		size_t capacity = json->held_capacity ? json->held_capacity : RLI_JSON_LONG_VALUE;
		unsigned char *grown;
		while (capacity < json->held_used + length)
			capacity *= 2;
		if (capacity > 2 * (size_t)RLI_JSON_MAX_VALUE + length)
			return too_long(json);
		if (!(grown = realloc(json->held, capacity))) {
			free(json->message);
			json->message = NULL; /* out of memory */
			return -1;
		}
		json->held = grown;
		json->held_capacity = capacity;
	}
	memcpy(json->held + json->held_used, data, length);
	json->held_used += length;
	return json->held_used >= json->largest ? feed_held(json) : 0;
}

int rli_json_finish(rli_json *json)
{
	yajl_status status;
	if (feed_held(json) < 0)
		return -1;
	status = yajl_complete_parse(json->handle);
	if (status != yajl_status_ok)
		return fail(json, status);
	return 0;
}

int rli_json_stop(rli_json *json, const char *fmt, ...)
{
	va_list ap;
	char buffer[512];
	va_start(ap, fmt);
	vsnprintf(buffer, sizeof(buffer), fmt, ap);
	va_end(ap);
	free(json->reason);
	json->reason = rli_strdup(buffer);
	return 0;
}

/* Longer numerals than this are not timestamps; refusing them keeps the copy on the stack. */
#define RLI_NUMBER_MAX 256

/*
 * Plain decimals ("-123.456", at most 19 significant digits, no exponent) without strtod, which
 * is most of the parse time for traces with a timestamp in every event. The digits are exact in
 * a 64-bit long double mantissa and 10^k (k <= 27) is too, so the quotient is rounded once to 64
 * bits; rounding that to a double gives strtod's correctly rounded result unless the 64-bit
 * quotient sits exactly halfway between two doubles, and those (and everything else) go to strtod.
 * 1 when *out is set, 0 when strtod must decide.
 */
static int plain_decimal(double *out, const char *text, size_t length)
{
#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64
	static const long double powers_of_ten[] = {
		1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
		1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
		1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
	uint64_t digits = 0, low_bits;
	unsigned significant = 0, scale = 0;
	int negative = 0, any = 0, fraction = 0;
	long double quotient;
	size_t i = 0;

	if (text[0] == '-') {
		negative = 1;
		i = 1;
	}
	for (; i < length; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '.' && !fraction) {
			fraction = 1;
			continue;
		}
		if (c < '0' || c > '9')
			return 0;
		any = 1;
		scale += (unsigned)fraction;
		if (digits == 0 && c == '0')
			continue;
		if (++significant > 19)
			return 0;
		digits = digits * 10 + (uint64_t)(c - '0');
	}
	if (!any || scale >= sizeof(powers_of_ten) / sizeof(powers_of_ten[0]))
		return 0;
	/* An integer of up to 15 digits (byte counts, ids) is exact in a double as it is. */
	if (scale == 0 && significant <= 15) {
		*out = negative ? -(double)digits : (double)digits;
		return 1;
	}
	quotient = (long double)digits / powers_of_ten[scale];
	memcpy(&low_bits, &quotient, sizeof(low_bits)); /* the x87 format's 64-bit significand comes first */
	if ((low_bits & 0x7ff) == 0x400)
		return 0;
	*out = negative ? -(double)quotient : (double)quotient;
	return 1;
#else
	(void)out;
	(void)text;
	(void)length;
	return 0;
#endif
}

int rli_text_to_double(double *out, const char *text, size_t length)
{
	char buffer[RLI_NUMBER_MAX + 1];
	char *end;
	double value;
	/* A digit at both ends, the usual case, needs no trimming (and no locale lookup). */
	if (!length || !isdigit((unsigned char)text[0]) || !isdigit((unsigned char)text[length - 1])) {
		while (length && isspace((unsigned char)*text)) {
			text++;
			length--;
		}
		while (length && isspace((unsigned char)text[length - 1]))
			length--;
	}
	if (length == 0 || length > RLI_NUMBER_MAX)
		return -1;
	if (plain_decimal(out, text, length))
		return 0;
	for (size_t i = 0; i < length; i++) {
		char c = text[i];
		/* Decimal only: strtod would also take hex, "inf" and "nan", which no profiler writes. */
		if (!isdigit((unsigned char)c) && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
			return -1;
	}
	memcpy(buffer, text, length);
	buffer[length] = '\0';
	errno = 0;
	value = strtod(buffer, &end);
	if (end != buffer + length || !isfinite(value))
		return -1;
	*out = value;
	return 0;
}

int rli_text_to_int64_long(int64_t *out, const char *text, size_t length)
{
	char buffer[32];
	char *end;
	long long value;
	if (length == 0 || length >= sizeof(buffer))
		return -1;
	for (size_t i = 0; i < length; i++)
		if (!isdigit((unsigned char)text[i]) && !(i == 0 && text[i] == '-'))
			return -1;
	memcpy(buffer, text, length);
	buffer[length] = '\0';
	errno = 0;
	value = strtoll(buffer, &end, 10);
	if (errno == ERANGE || end != buffer + length)
		return -1;
	*out = (int64_t)value;
	return 0;
}

int rli_json_halt(rli_json *json)
{
	json->halted = 1;
	return 0;
}

static int feed_chunk(void *ctx, const unsigned char *data, size_t length)
{
	return rli_json_feed(ctx, data, length) < 0;
}

rli_read_result rli_json_read(rli_json *json, rli_bytes *source, char **failure)
{
	rli_read_result result;
	rli_bytes_set_content(source, "JSON");
	result = rli_bytes_stream(source, feed_chunk, json, failure);
	if (result == RLI_READ_OK && rli_json_finish(json) == 0)
		return RLI_READ_OK;
	if (result != RLI_READ_OK && result != RLI_READ_HALTED)
		return result;
	/* The parse stopped: on purpose, for lack of memory, or on bad JSON. */
	if (json->halted)
		return RLI_READ_HALTED;
	if (!json->message)
		return RLI_READ_OOM;
	*failure = rli_strfmt("Failed to parse JSON file %s: %s", rli_bytes_name(source), json->message);
	return *failure ? RLI_READ_FAILED : RLI_READ_OOM;
}

rli_read_result rli_json_read_file(rli_json *json, const char *path, char **failure)
{
	rli_bytes *source;
	rli_read_result result = rli_bytes_open(&source, path, failure);
	if (result != RLI_READ_OK)
		return result;
	result = rli_json_read(json, source, failure);
	rli_bytes_close(source);
	return result;
}

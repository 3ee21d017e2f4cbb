/* json_stream.c: yajl fed chunk by chunk, with nesting bounded and errors placed at line and column. */
#include "json_stream.h"
#include "parse_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int rli_json_open(rli_json *json, const yajl_callbacks *callbacks, void *ctx, uint64_t line)
{
	memset(json, 0, sizeof(*json));
	json->line = line;
	json->handle = yajl_alloc(callbacks, NULL, ctx);
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
	memset(json, 0, sizeof(*json));
}

static void advance(rli_json *json, const unsigned char *data, size_t length)
{
	const unsigned char *p = data, *end = data + length, *nl;
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		json->line++;
		json->column = 0;
		p = nl + 1;
	}
	json->column += (uint64_t)(end - p);
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

static int fail(rli_json *json, yajl_status status)
{
	char *reason = NULL;
	if (status == yajl_status_client_canceled && json->reason) {
		reason = json->reason;
		json->reason = NULL;
	} else {
		reason = yajl_reason(json->handle);
	}
	free(json->message);
	json->message = NULL;
	if (reason)
		json->message = rli_strfmt("%s at line %llu, column %llu", reason,
					   (unsigned long long)json->line,
					   (unsigned long long)json->column + 1);
	free(reason);
	return -1;
}

int rli_json_feed(rli_json *json, const unsigned char *data, size_t length)
{
	yajl_status status = yajl_parse(json->handle, data, length);
	if (status != yajl_status_ok) {
		size_t used = yajl_get_bytes_consumed(json->handle);
		/* yajl counts the offending byte as consumed; point at it, not after it. */
		if (used > 0 && status == yajl_status_error)
			used--;
		if (used > length)
			used = length;
		advance(json, data, used);
		return fail(json, status);
	}
	advance(json, data, length);
	return 0;
}

int rli_json_finish(rli_json *json)
{
	yajl_status status = yajl_complete_parse(json->handle);
	if (status != yajl_status_ok)
		return fail(json, status);
	return 0;
}

int rli_json_enter(rli_json *json)
{
	if (++json->depth > RLI_JSON_MAX_DEPTH)
		return rli_json_stop(json, "nesting deeper than %d levels", RLI_JSON_MAX_DEPTH);
	return 1;
}

void rli_json_leave(rli_json *json)
{
	json->depth--;
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

int rli_text_to_double(double *out, const char *text, size_t length)
{
	char buffer[RLI_NUMBER_MAX + 1];
	char *end;
	double value;
	while (length && isspace((unsigned char)*text)) {
		text++;
		length--;
	}
	while (length && isspace((unsigned char)text[length - 1]))
		length--;
	if (length == 0 || length > RLI_NUMBER_MAX)
		return -1;
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

int rli_text_to_int64(int64_t *out, const char *text, size_t length)
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

rli_read_result rli_json_read_file(rli_json *json, const char *path, char **failure)
{
	unsigned char *buffer = NULL;
	rli_read_result result = RLI_READ_OK;
	struct stat st;
	int fd;

	*failure = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*failure = rli_strfmt("Failed to read %s: %s", path, strerror(errno));
		return *failure ? RLI_READ_FAILED : RLI_READ_OOM;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*failure = rli_strfmt("Failed to read %s: not a regular file", path);
		result = *failure ? RLI_READ_FAILED : RLI_READ_OOM;
		goto done;
	}
	if (st.st_size == 0) {
		result = RLI_READ_EMPTY;
		goto done;
	}
	buffer = malloc(RLI_PARSE_CHUNK);
	if (!buffer) {
		result = RLI_READ_OOM;
		goto done;
	}
	for (;;) {
		ssize_t got = read(fd, buffer, RLI_PARSE_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*failure = rli_strfmt("Failed to read %s: %s", path, strerror(errno));
			result = *failure ? RLI_READ_FAILED : RLI_READ_OOM;
			goto done;
		}
		if (got == 0)
			break;
		if (rli_json_feed(json, buffer, (size_t)got) < 0)
			goto parse_failed;
	}
	if (rli_json_finish(json) < 0)
		goto parse_failed;
	goto done;
parse_failed:
	if (json->halted) {
		result = RLI_READ_HALTED;
	} else if (!json->message) {
		result = RLI_READ_OOM;
	} else {
		*failure = rli_strfmt("Failed to parse JSON file %s: %s", path, json->message);
		result = *failure ? RLI_READ_FAILED : RLI_READ_OOM;
	}
done:
	free(buffer);
	close(fd);
	return result;
}

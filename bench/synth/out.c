/* out.c: buffered streaming output to a file, a gzip file or a byte counter. */
#include "synth.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define OUT_BUFFER_SIZE (1u << 20)

static int out_init(synth_out *out)
{
	memset(out, 0, sizeof(*out));
	out->capacity = OUT_BUFFER_SIZE;
	if (!(out->buffer = malloc(out->capacity)))
		return synth_fail(SYNTH_ERROR, "out of memory");
	return SYNTH_OK;
}

int synth_out_open(synth_out *out, const char *path, int gzip)
{
	int error;

	if ((error = out_init(out)) < 0)
		return error;
	if (!(out->path = strdup(path)))
		goto oom;
	if (gzip) {
		out->gz = gzopen(path, "wb6");
		if (out->gz)
			gzbuffer(out->gz, 256 * 1024);
	} else {
		out->fp = fopen(path, "wb");
	}
	if (!out->gz && !out->fp) {
		error = synth_fail(SYNTH_EOUTPUT, "cannot create %s: %s", path, strerror(errno));
		free(out->buffer);
		free(out->path);
		memset(out, 0, sizeof(*out));
		return error;
	}
	return SYNTH_OK;
oom:
	free(out->buffer);
	return synth_fail(SYNTH_ERROR, "out of memory");
}

int synth_out_open_counter(synth_out *out)
{
	return out_init(out);
}

static void out_flush(synth_out *out)
{
	if (out->used == 0 || out->failed) {
		out->used = 0;
		return;
	}
	if (out->gz) {
		if (gzwrite(out->gz, out->buffer, (unsigned)out->used) != (int)out->used)
			out->failed = 1;
	} else if (out->fp) {
		if (fwrite(out->buffer, 1, out->used, out->fp) != out->used)
			out->failed = 1;
	}
	out->used = 0;
}

void synth_out_write(synth_out *out, const char *data, size_t length)
{
	out->written += (long long)length;
	while (length > 0) {
		size_t room = out->capacity - out->used;
		size_t take = length < room ? length : room;
		memcpy(out->buffer + out->used, data, take);
		out->used += take;
		data += take;
		length -= take;
		if (out->used == out->capacity)
			out_flush(out);
	}
}

void synth_out_puts(synth_out *out, const char *text)
{
	synth_out_write(out, text, strlen(text));
}

void synth_out_printf(synth_out *out, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int length;

	va_start(ap, fmt);
	length = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (length < 0) {
		out->failed = 1;
		return;
	}
	if ((size_t)length < sizeof(small)) {
		synth_out_write(out, small, (size_t)length);
		return;
	}
	char *big = malloc((size_t)length + 1);
	if (!big) {
		out->failed = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)length + 1, fmt, ap);
	va_end(ap);
	synth_out_write(out, big, (size_t)length);
	free(big);
}

void synth_out_json_string(synth_out *out, const char *text)
{
	synth_out_write(out, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\') {
			char escaped[2] = { '\\', (char)*p };
			synth_out_write(out, escaped, 2);
		} else if (*p < 0x20) {
			synth_out_printf(out, "\\u%04x", *p);
		} else {
			synth_out_write(out, (const char *)p, 1);
		}
	}
	synth_out_write(out, "\"", 1);
}

void synth_format_micros(char *buf, size_t size, int64_t nanos)
{
	int64_t whole = nanos / 1000, frac = nanos % 1000;
	if (frac < 0) {
		frac += 1000;
		whole -= 1;
	}
	if (frac == 0)
		snprintf(buf, size, "%lld.0", (long long)whole);
	else if (frac % 100 == 0)
		snprintf(buf, size, "%lld.%01lld", (long long)whole, (long long)(frac / 100));
	else if (frac % 10 == 0)
		snprintf(buf, size, "%lld.%02lld", (long long)whole, (long long)(frac / 10));
	else
		snprintf(buf, size, "%lld.%03lld", (long long)whole, (long long)frac);
}

void synth_out_micros(synth_out *out, int64_t nanos)
{
	char text[32];
	synth_format_micros(text, sizeof(text), nanos);
	synth_out_puts(out, text);
}

int synth_out_close(synth_out *out)
{
	int failed;

	out_flush(out);
	failed = out->failed;
	if (out->gz && gzclose(out->gz) != Z_OK)
		failed = 1;
	if (out->fp && fclose(out->fp) != 0)
		failed = 1;
	if (failed && out->path)
		synth_fail(SYNTH_EOUTPUT, "cannot write %s", out->path);
	free(out->buffer);
	free(out->path);
	memset(out, 0, sizeof(*out));
	return failed ? SYNTH_EOUTPUT : SYNTH_OK;
}

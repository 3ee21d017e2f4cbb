/* export.c: --export csv|jsonl, the parsed table with the reference's columns in its order. */
#define _GNU_SOURCE /* for sync_file_range, where Linux has it */
#include "common/output_set.h"
#include "common/error.h"
#include "common/json_write.h"
#include "common/shortest_double.h"
#include "events/events.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The reference's column order (timeline.md §2.1). */
static const char *const columns[] = {
	"name", "role", "domain", "start_time_ms", "end_time_ms", "duration_ms", "rank_id", "tid",
};
#define COLUMN_COUNT (sizeof(columns) / sizeof(columns[0]))

/*
 * Rows are formatted into one 64 KiB block and written with one fwrite per block: a million
 * rows would otherwise cost some twenty stdio calls each, more than the formatting itself.
 */
#define BLOCK_SIZE 65536
/* A string longer than this goes to the FILE directly rather than through the block. */
#define LONG_STRING 4096
/* How much is written between two hints to start the disk (see flush). */
#define WRITEBACK_STEP (8u << 20)
/* Room for a row without its strings: three numbers with the printer's scratch, an integer, 128 bytes of keys. */
#define ROW_FIXED (3 * RLI_DOUBLE_BUFSIZE + 24 + 128)

typedef struct {
	FILE *fp;
	size_t used;
	char *data;
	size_t written, written_back; /* bytes handed to fp, and those the disk was told to start on */
	int json;
	const rli_strpool *pool;
	/*
	 * Per string id, measured the first time a row uses it: its length up to the first NUL
	 * (as the stdio writers before stopped there too) and whether it is written as it is,
	 * unquoted in CSV, unescaped in JSON. Names repeat on every row; this looks once.
	 */
	uint32_t *length;
	uint8_t *state; /* 0: not measured yet, 1: written as is, 2: quoted or escaped */
} writer;

enum { UNSEEN = 0, AS_IS = 1, ESCAPED = 2 };

static void flush(writer *w)
{
	fwrite(w->data, 1, w->used, w->fp);
	w->written += w->used;
	w->used = 0;
#ifdef SYNC_FILE_RANGE_WRITE
	/*
	 * Have the disk start on what is written so far, while the rows after it are formatted:
	 * the commit's fsync then waits for the last few MB rather than for the whole file (100 MB
	 * a million CSV rows; about 0.03 s saved on the development machine). Only a hint: any
	 * error is the fsync's to report.
	 */
	if (w->written - w->written_back >= WRITEBACK_STEP && fflush(w->fp) == 0) {
		(void)sync_file_range(fileno(w->fp), (off_t)w->written_back, (off_t)(w->written - w->written_back),
				      SYNC_FILE_RANGE_WRITE);
		w->written_back = w->written;
	}
#endif
}

/* Where the next n bytes go (n <= BLOCK_SIZE). */
static char *reserve(writer *w, size_t n)
{
	if (w->used + n > BLOCK_SIZE)
		flush(w);
	return w->data + w->used;
}

static void write_bytes(writer *w, const char *text, size_t n)
{
	if (n > LONG_STRING) {
		flush(w);
		fwrite(text, 1, n, w->fp);
		w->written += n;
		return;
	}
	memcpy(reserve(w, n), text, n);
	w->used += n;
}

static char *put(char *p, const char *text, size_t n)
{
	memcpy(p, text, n);
	return p + n;
}

#define PUT_LITERAL(p, text) put((p), (text), sizeof(text) - 1)

/* The shortest digits that read back as the same double (shortest_double.h), where the
   reference writes 17; CSV keeps "nan", "inf", "-inf" as %g wrote them, JSON has null. */
static char *put_double(char *p, double value, int json)
{
	if (json && !isfinite(value))
		return PUT_LITERAL(p, "null");
	return p + rli_format_double(p, value);
}

static char *put_int(char *p, int64_t value)
{
	char digits[20], *d = digits + sizeof(digits);
	/* the magnitude as unsigned, so INT64_MIN needs no special case */
	uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
	do {
		*--d = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (value < 0)
		*p++ = '-';
	return put(p, d, (size_t)(digits + sizeof(digits) - d));
}

static void measure(writer *w, uint32_t id)
{
	const char *text = rli_strpool_get(w->pool, id);
	size_t length = strlen(text);
	int as_is;
	w->length[id] = (uint32_t)length;
	if (!w->json) {
		as_is = !strpbrk(text, ",\"\r\n");
	} else if (length > LONG_STRING) {
		as_is = 0; /* too long for the scratch below: the slow path escapes it */
	} else {
		/* escaped into the block's free space as scratch: as is when only the quotes were added */
		char *scratch = reserve(w, RLI_JSON_ESCAPED_MAX(length));
		as_is = rli_json_escape(scratch, text, RLI_JSON_PLAIN) == length + 2;
	}
	w->state[id] = as_is ? AS_IS : ESCAPED;
}

/* A string column the slow way: RFC 4180 quoting as pandas writes it, or a JSON string. */
static void write_string(writer *w, uint32_t id, int json_string)
{
	const char *text = rli_strpool_get(w->pool, id);
	size_t length = w->length[id];
	if (json_string) {
		if (length > LONG_STRING) {
			flush(w);
			rli_json_write_string(w->fp, text, RLI_JSON_PLAIN);
		} else {
			w->used += rli_json_escape(reserve(w, RLI_JSON_ESCAPED_MAX(length)), text, RLI_JSON_PLAIN);
		}
		return;
	}
	if (w->json || w->state[id] == AS_IS) { /* a JSON number tid, or a CSV field with nothing to quote */
		write_bytes(w, text, length);
		return;
	}
	write_bytes(w, "\"", 1);
	while (*text) {
		size_t run = strcspn(text, "\"");
		write_bytes(w, text, run);
		text += run;
		if (*text == '"') {
			write_bytes(w, "\"\"", 2);
			text++;
		}
	}
	write_bytes(w, "\"", 1);
}

static void write_numbers_slow(writer *w, const rli_events *events, size_t i, const char *const keys[4])
{
	char *p = reserve(w, ROW_FIXED), *start = p;
	p = put(p, keys[0], strlen(keys[0]));
	p = put_double(p, events->start_ms[i], w->json);
	p = put(p, keys[1], strlen(keys[1]));
	p = put_double(p, rli_events_end_ms(events, i), w->json);
	p = put(p, keys[2], strlen(keys[2]));
	p = put_double(p, events->duration_ms[i], w->json);
	p = put(p, keys[3], strlen(keys[3]));
	p = put_int(p, events->rank_id[i]);
	w->used += (size_t)(p - start);
}

/* One row with every string column written as is: one reservation, then plain copies. */
static void write_row_fast(writer *w, const rli_events *events, size_t i, size_t strings)
{
	const rli_strpool *pool = w->pool;
	uint32_t name = events->name[i], role = events->role[i], domain = events->domain[i], tid = events->tid[i];
	char *p = reserve(w, strings + ROW_FIXED), *start = p;
	if (w->json) {
		int quoted_tid = events->tid_is_text[i];
		p = PUT_LITERAL(p, "{\"name\": \"");
		p = put(p, rli_strpool_get(pool, name), w->length[name]);
		p = PUT_LITERAL(p, "\", \"role\": \"");
		p = put(p, rli_strpool_get(pool, role), w->length[role]);
		p = PUT_LITERAL(p, "\", \"domain\": \"");
		p = put(p, rli_strpool_get(pool, domain), w->length[domain]);
		p = PUT_LITERAL(p, "\", \"start_time_ms\": ");
		p = put_double(p, events->start_ms[i], 1);
		p = PUT_LITERAL(p, ", \"end_time_ms\": ");
		p = put_double(p, rli_events_end_ms(events, i), 1);
		p = PUT_LITERAL(p, ", \"duration_ms\": ");
		p = put_double(p, events->duration_ms[i], 1);
		p = PUT_LITERAL(p, ", \"rank_id\": ");
		p = put_int(p, events->rank_id[i]);
		/* A tid keeps its JSON type: NVTX's PID string stays a string. */
		p = PUT_LITERAL(p, ", \"tid\": \"");
		p -= !quoted_tid;
		p = put(p, rli_strpool_get(pool, tid), w->length[tid]);
		p = quoted_tid ? PUT_LITERAL(p, "\"}\n") : PUT_LITERAL(p, "}\n");
	} else {
		p = put(p, rli_strpool_get(pool, name), w->length[name]);
		*p++ = ',';
		p = put(p, rli_strpool_get(pool, role), w->length[role]);
		*p++ = ',';
		p = put(p, rli_strpool_get(pool, domain), w->length[domain]);
		*p++ = ',';
		p = put_double(p, events->start_ms[i], 0);
		*p++ = ',';
		p = put_double(p, rli_events_end_ms(events, i), 0);
		*p++ = ',';
		p = put_double(p, events->duration_ms[i], 0);
		*p++ = ',';
		p = put_int(p, events->rank_id[i]);
		*p++ = ',';
		p = put(p, rli_strpool_get(pool, tid), w->length[tid]);
		*p++ = '\n';
	}
	w->used += (size_t)(p - start);
}

/* What goes around a row's fields: CSV's commas, JSON's keys. */
typedef struct {
	const char *open, *role, *domain;
	const char *numbers[4]; /* before start, end, duration, rank */
	const char *tid, *close;
} row_keys;

static const row_keys csv_row = { "", ",", ",", { ",", ",", ",", "," }, ",", "\n" };
static const row_keys json_row = {
	"{\"name\": ", ", \"role\": ", ", \"domain\": ",
	{ ", \"start_time_ms\": ", ", \"end_time_ms\": ", ", \"duration_ms\": ", ", \"rank_id\": " },
	", \"tid\": ", "}\n",
};

static void write_text(writer *w, const char *text)
{
	write_bytes(w, text, strlen(text));
}

/* Any row: strings that need quoting or escaping, or very long ones, field by field. */
static void write_row_slow(writer *w, const rli_events *events, size_t i)
{
	const row_keys *keys = w->json ? &json_row : &csv_row;
	write_text(w, keys->open);
	write_string(w, events->name[i], w->json);
	write_text(w, keys->role);
	write_string(w, events->role[i], w->json);
	write_text(w, keys->domain);
	write_string(w, events->domain[i], w->json);
	write_numbers_slow(w, events, i, keys->numbers);
	write_text(w, keys->tid);
	/* A tid keeps its JSON type: NVTX's PID string stays a string. */
	write_string(w, events->tid[i], w->json && events->tid_is_text[i]);
	write_text(w, keys->close);
}

static void write_rows(writer *w, const rli_events *events)
{
	if (!w->json) {
		for (size_t c = 0; c < COLUMN_COUNT; c++) {
			if (c)
				write_bytes(w, ",", 1);
			write_bytes(w, columns[c], strlen(columns[c]));
		}
		write_bytes(w, "\n", 1);
	}
	for (size_t i = 0; i < events->count; i++) {
		const uint32_t ids[4] = { events->name[i], events->role[i], events->domain[i], events->tid[i] };
		size_t strings = 0;
		for (int k = 0; k < 4; k++) {
			if (w->state[ids[k]] == UNSEEN)
				measure(w, ids[k]);
			strings += w->length[ids[k]];
		}
		/* a JSON number tid is written as its text is, whatever that holds */
		int as_is = w->state[ids[0]] == AS_IS && w->state[ids[1]] == AS_IS && w->state[ids[2]] == AS_IS &&
			    (w->state[ids[3]] == AS_IS || (w->json && !events->tid_is_text[i]));
		if (as_is && strings <= BLOCK_SIZE / 2)
			write_row_fast(w, events, i, strings);
		else
			write_row_slow(w, events, i);
	}
}

int rli_events_export(const rli_events *events, rli_export_format format, const char *path,
		      rli_output_set *set)
{
	rli_atomic_file file;
	writer w = { 0 };
	size_t ids = events->strings.count ? events->strings.count : 1;
	int error;

	if (format != RLI_EXPORT_CSV && format != RLI_EXPORT_JSONL)
		return rli_error_set(RLI_EUSAGE, "unknown export format %d", (int)format);
	w.json = format == RLI_EXPORT_JSONL;
	w.pool = &events->strings;
	w.data = malloc(BLOCK_SIZE);
	w.length = malloc(ids * sizeof(*w.length));
	w.state = calloc(ids, 1);
	if (!w.data || !w.length || !w.state) {
		error = rli_error_oom();
	} else if ((error = rli_atomic_open(&file, path)) >= 0) {
		w.fp = file.fp;
		write_rows(&w, events);
		flush(&w);
		/* a failed fwrite leaves the stream's error flag set, which the commit checks */
		error = rli_output_finish(set, &file);
	}
	free(w.data);
	free(w.length);
	free(w.state);
	return error;
}

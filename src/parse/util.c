/* util.c: the small helpers the parsers share: buffered messages, paths, the rank filter, the unit list. */
/* realpath() is an XSI function. */
#define _XOPEN_SOURCE 700
#include "parse_internal.h"
#include "common/grow.h"
#include "common/utf8.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rli_path_base(const char *path)
{
	size_t end = strlen(path), start;
	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	{
		char *base = malloc(end - start + 1);
		if (!base)
			return NULL;
		memcpy(base, path + start, end - start);
		base[end - start] = '\0';
		return base;
	}
}

size_t rli_missing_keys(char *out, size_t size, const char *const *names, size_t count, uint64_t present)
{
	size_t missing = 0, used = 0;
	if (size)
		out[0] = '\0';
	for (size_t i = 0; i < count && i < 64; i++) {
		int wrote;
		if (present & ((uint64_t)1 << i))
			continue;
		wrote = used < size ? snprintf(out + used, size - used, "%s'%s'", missing ? ", " : "", names[i]) : -1;
		if (wrote >= 0 && used + (size_t)wrote < size)
			used += (size_t)wrote;
		else if (used < size)
			out[used] = '\0'; /* a name that does not fit is left out whole */
		missing++;
	}
	return missing;
}

int rli_ends_with(const char *text, const char *suffix)
{
	size_t a = strlen(text), b = strlen(suffix);
	return a >= b && memcmp(text + a - b, suffix, b) == 0;
}

rli_bytes *rli_unit_open(rli_unit *unit, const char *path)
{
	rli_bytes *source = NULL;
	char *failure = NULL;
	rli_read_result result = rli_bytes_open(&source, path, &failure);
	if (result == RLI_READ_FAILED)
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "%s", failure);
	else if (result != RLI_READ_OK)
		unit->status = RLI_ERROR;
	free(failure);
	return source;
}

void rli_unit_parse_file(rli_unit *unit, rli_events *rows, rli_parse_bytes_fn parse_bytes)
{
	rli_bytes *source = rli_unit_open(unit, unit->path);
	if (!source) {
		if (unit->failures.oom)
			unit->status = RLI_ERROR;
		return;
	}
	parse_bytes(unit, source, rows);
	rli_bytes_close(source);
}

size_t rli_csv_text(const unsigned char **data, size_t length, int *bom_checked, int *nul)
{
	const unsigned char *first_nul;
	if (!*bom_checked) {
		*bom_checked = 1;
		if (length >= 3 && memcmp(*data, "\xef\xbb\xbf", 3) == 0) {
			*data += 3;
			length -= 3;
		}
	}
	first_nul = memchr(*data, '\0', length);
	*nul = first_nul != NULL;
	return first_nul ? (size_t)(first_nul - *data) : length;
}

char *rli_path_trimmed(const char *path)
{
	char *root = rli_strdup(path);
	size_t length;
	if (!root)
		return NULL;
	length = strlen(root);
	while (length > 1 && root[length - 1] == '/')
		root[--length] = '\0';
	return root;
}

/* ---- logging ------------------------------------------------------------ */

void rli_log_vline(rli_log_fn log, void *ctx, rli_log_level level, const char *fmt, va_list ap)
{
	char line[2048];
	if (!log)
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	log(ctx, level, line);
}

void rli_log_line(rli_log_fn log, void *ctx, rli_log_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rli_log_vline(log, ctx, level, fmt, ap);
	va_end(ap);
}

void rli_log_notes(rli_log_fn log, void *ctx, const rli_notes *notes)
{
	for (size_t i = 0; log && i < notes->count; i++)
		log(ctx, notes->items[i].level, notes->items[i].text);
}

/* ---- notes ------------------------------------------------------------- */

void rli_notes_init(rli_notes *notes)
{
	memset(notes, 0, sizeof(*notes));
}

void rli_notes_dispose(rli_notes *notes)
{
	for (size_t i = 0; i < notes->count; i++)
		free(notes->items[i].text);
	free(notes->items);
	memset(notes, 0, sizeof(*notes));
}

void rli_notes_add(rli_notes *notes, rli_log_level level, const char *fmt, ...)
{
	va_list ap;
	char *text;
	if (RLI_GROW(&notes->items, &notes->capacity, notes->count + 1, 8) < 0) {
		notes->oom = 1;
		return;
	}
	va_start(ap, fmt);
	text = rli_vstrfmt(fmt, ap);
	va_end(ap);
	if (!text) {
		notes->oom = 1;
		return;
	}
	notes->items[notes->count].level = level;
	notes->items[notes->count].text = text;
	notes->count++;
}

/* ---- rank filter -------------------------------------------------------- */

static int parse_rank_number(int64_t *out, const char **cursor)
{
	const char *p = *cursor;
	int64_t value = 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		int digit = *p - '0';
		if (value > (INT64_MAX - digit) / 10)
			return -1;
		value = value * 10 + digit;
		p++;
	}
	*out = value;
	*cursor = p;
	return 0;
}

static void skip_blanks(const char **cursor)
{
	while (**cursor == ' ' || **cursor == '\t')
		(*cursor)++;
}

static int is_all(const char *text)
{
	while (*text == ' ' || *text == '\t')
		text++;
	if (strncmp(text, "all", 3) != 0 && strncmp(text, "ALL", 3) != 0)
		return 0;
	text += 3;
	while (*text == ' ' || *text == '\t')
		text++;
	return *text == '\0';
}

int rli_rank_filter_parse(rli_rank_filter *out, const char *text)
{
	const char *p = text;
	size_t capacity = 0;
	memset(out, 0, sizeof(*out));
	if (!text || is_all(text)) {
		out->all = 1;
		return RLI_OK;
	}
	for (;;) {
		rli_rank_range range;
		skip_blanks(&p);
		if (parse_rank_number(&range.lo, &p) < 0)
			goto malformed;
		range.hi = range.lo;
		skip_blanks(&p);
		if (*p == '-') {
			p++;
			skip_blanks(&p);
			if (parse_rank_number(&range.hi, &p) < 0 || range.hi < range.lo)
				goto malformed;
			skip_blanks(&p);
		}
		if (RLI_GROW(&out->ranges, &capacity, out->count + 1, 8) < 0) {
			rli_rank_filter_dispose(out);
			return RLI_ERROR;
		}
		out->ranges[out->count++] = range;
		if (*p == '\0')
			return RLI_OK;
		if (*p != ',')
			goto malformed;
		p++;
	}
malformed:
	rli_rank_filter_dispose(out);
	return rli_error_set(RLI_EUSAGE,
			     "invalid rank list '%s': expected 'all' or ranks and ranges "
			     "separated by commas, such as 0,2,4-7",
			     text);
}

int rli_rank_filter_keeps(const rli_rank_filter *filter, int64_t rank)
{
	if (filter->all)
		return 1;
	for (size_t i = 0; i < filter->count; i++)
		if (rank >= filter->ranges[i].lo && rank <= filter->ranges[i].hi)
			return 1;
	return 0;
}

void rli_rank_filter_dispose(rli_rank_filter *filter)
{
	free(filter->ranges);
	memset(filter, 0, sizeof(*filter));
}

/* ---- the unit list ------------------------------------------------------ */

void rli_discovery_init(rli_discovery *discovery)
{
	memset(discovery, 0, sizeof(*discovery));
	rli_notes_init(&discovery->structural);
	rli_notes_init(&discovery->log);
}

void rli_unit_dispose(rli_unit *unit)
{
	free(unit->path);
	free(unit->role);
	free(unit->tid);
	for (size_t i = 0; i < unit->info_count; i++)
		free(unit->info_files[i]);
	free(unit->info_files);
	rli_memory_free(unit->memory);
	rli_gmm_free(unit->gmm);
	rli_notes_dispose(&unit->log);
	rli_notes_dispose(&unit->failures);
}

void rli_discovery_dispose(rli_discovery *discovery)
{
	for (size_t i = 0; i < discovery->count; i++)
		rli_unit_dispose(&discovery->units[i]);
	free(discovery->units);
	rli_notes_dispose(&discovery->structural);
	rli_notes_dispose(&discovery->log);
	free(discovery->ranks_seen);
	memset(discovery, 0, sizeof(*discovery));
}

int rli_discovery_saw_rank(rli_discovery *discovery, int64_t rank)
{
	int error = RLI_GROW(&discovery->ranks_seen, &discovery->ranks_seen_capacity,
			     discovery->ranks_seen_count + 1, 16);
	if (error == RLI_OK)
		discovery->ranks_seen[discovery->ranks_seen_count++] = rank;
	return error;
}

int rli_discovery_group(rli_discovery *discovery)
{
	size_t n = discovery->count, groups = 0;
	size_t *next = NULL;
	rli_unit *sorted = NULL;
	for (size_t i = 0; i < n; i++)
		if (discovery->units[i].group + (size_t)1 > groups)
			groups = discovery->units[i].group + (size_t)1;
	if (n < 2 || groups < 2)
		return RLI_OK;
	next = calloc(groups + 1, sizeof(*next));
	sorted = malloc(n * sizeof(*sorted));
	if (!next || !sorted) {
		free(next);
		free(sorted);
		return rli_error_oom();
	}
	/* Counting sort: stable, so discovery order holds inside a group. */
	for (size_t i = 0; i < n; i++)
		next[discovery->units[i].group + 1]++;
	for (size_t g = 0; g < groups; g++)
		next[g + 1] += next[g];
	for (size_t i = 0; i < n; i++)
		sorted[next[discovery->units[i].group]++] = discovery->units[i];
	memcpy(discovery->units, sorted, n * sizeof(*sorted));
	free(next);
	free(sorted);
	return RLI_OK;
}

size_t rli_discovery_report(const rli_discovery *discovery)
{
	size_t count = 0;
	rli_error_set(RLI_EINVALID, "Data validation failed");
	for (size_t i = 0; i < discovery->structural.count; i++, count++)
		rli_error_append("\n  - %s", discovery->structural.items[i].text);
	for (size_t u = 0; u < discovery->count; u++)
		for (size_t i = 0; i < discovery->units[u].failures.count; i++, count++)
			rli_error_append("\n  - %s", discovery->units[u].failures.items[i].text);
	return count;
}

rli_unit *rli_discovery_add(rli_discovery *discovery)
{
	rli_unit *unit;
	if (RLI_GROW(&discovery->units, &discovery->capacity, discovery->count + 1, 16) < 0)
		return NULL;
	unit = &discovery->units[discovery->count++];
	memset(unit, 0, sizeof(*unit));
	unit->rank = -1;
	rli_notes_init(&unit->log);
	rli_notes_init(&unit->failures);
	return unit;
}

int rli_discovery_unsearched(rli_discovery *discovery, const char *dir, const char *why)
{
	rli_unit *unit = rli_discovery_add(discovery);
	if (!unit || !(unit->path = rli_strdup(dir)))
		return rli_error_oom();
	unit->unsearched = 1;
	rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Failed to read folder %s: %s", dir, why);
	return unit->failures.oom ? rli_error_oom() : RLI_OK;
}

/* The length of the well-formed UTF-8 sequence (no NUL) at text, which has left bytes; 0 if none. */
static size_t text_sequence(const unsigned char *text, size_t left)
{
	uint32_t code_point;
	return text[0] == 0 ? 0 : rli_utf8_sequence_within(text, left, &code_point);
}

size_t rli_text_clean_length(const char *text, size_t length)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t at = 0, step;
	while (at < length) {
		if (p[at] != 0 && p[at] < 0x80) {
			at++; /* ASCII, nearly every byte of a profile */
			continue;
		}
		if ((step = text_sequence(p + at, length - at)) == 0)
			break;
		at += step;
	}
	return at;
}

char *rli_text_copy(const char *text, size_t length, size_t *out_length)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t clean = rli_text_clean_length(text, length), bad = 0, at, used = 0;
	char *copy;
	/* Each byte replaced takes three: count them first, for one allocation. */
	for (at = clean; at < length;) {
		size_t step = text_sequence(p + at, length - at);
		if (step == 0) {
			bad++;
			step = 1;
		}
		at += step;
	}
	if (bad > (SIZE_MAX - length - 1) / 2 || !(copy = malloc(length + 2 * bad + 1)))
		return NULL;
	memcpy(copy, text, clean);
	used = clean;
	for (at = clean; at < length;) {
		size_t step = text_sequence(p + at, length - at);
		if (step == 0) {
			memcpy(copy + used, RLI_UTF8_REPLACEMENT, 3);
			used += 3;
			at++;
			continue;
		}
		memcpy(copy + used, text + at, step);
		used += step;
		at += step;
	}
	copy[used] = '\0';
	if (out_length)
		*out_length = used;
	return copy;
}

/* base as text (see rli_text_copy): base itself when it is already. */
static char *label_text(char *base)
{
	size_t length = strlen(base);
	char *copy;
	if (rli_text_clean_length(base, length) == length)
		return base;
	copy = rli_text_copy(base, length, NULL);
	free(base);
	return copy;
}

char *rli_dir_label(const char *path)
{
	char *base = rli_path_base(path), *real, *label;
	if (!base)
		return NULL;
	if (strcmp(base, ".") != 0 && strcmp(base, "..") != 0 && strcmp(base, "/") != 0 && base[0])
		return label_text(base);
	real = realpath(path, NULL);
	if (!real)
		return label_text(base);
	label = rli_path_base(real);
	free(real);
	if (!label)
		return label_text(base);
	free(base);
	return label_text(label);
}

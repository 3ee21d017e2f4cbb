/* csv_compare.c: compares two parsed tables in start order, rows with equal start as sets (timeline.md §13). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each row is compared by its key: the line with the three time columns (start_time_ms,
 * end_time_ms, duration_ms) respelled as %.17g of the double they read as, so the numbers are
 * compared as numbers: the generator writes 17 digits, rl-insight the shortest that read back.
 */
typedef struct {
	char *key;
	char *line;
} row;

typedef struct {
	row *lines;
	size_t count;
} table;

/* The key of a data line: fields 3-5 (0-based) respelled when they are whole numbers, quotes respected. */
static char *row_key(const char *line)
{
	size_t size = strlen(line) + 3 * 32 + 1, used = 0;
	char *key = malloc(size);
	const char *begin = line;
	int field = 0, quoted = 0;
	if (!key)
		abort();
	for (const char *p = line;; p++) {
		if (*p == '"')
			quoted = !quoted;
		if ((*p != ',' || quoted) && *p != '\0')
			continue;
		size_t length = (size_t)(p - begin);
		char text[64], *end;
		double value;
		if (field >= 3 && field <= 5 && length > 0 && length < sizeof(text)) {
			memcpy(text, begin, length);
			text[length] = '\0';
			value = strtod(text, &end);
			if (*end == '\0') {
				used += (size_t)snprintf(key + used, size - used, "%.17g", value);
				length = 0;
			}
		}
		memcpy(key + used, begin, length);
		used += length;
		if (*p == '\0')
			break;
		key[used++] = ',';
		field++;
		begin = p + 1;
	}
	key[used] = '\0';
	return key;
}

static int read_table(table *out, const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t size = 0, capacity = 0;
	ssize_t got;

	memset(out, 0, sizeof(*out));
	if (!fp) {
		fprintf(stderr, "csv_compare: cannot open %s\n", path);
		return -1;
	}
	while ((got = getline(&line, &size, fp)) >= 0) {
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = '\0';
		if (out->count == capacity) {
			capacity = capacity ? capacity * 2 : 1024;
			out->lines = realloc(out->lines, capacity * sizeof(row));
			if (!out->lines)
				abort();
		}
		out->lines[out->count].line = strdup(line);
		/* the header stays as it is */
		out->lines[out->count].key = out->count ? row_key(line) : strdup(line);
		out->count++;
	}
	free(line);
	fclose(fp);
	return 0;
}

/* The start_time_ms field: the fourth, skipping quoted commas. */
static const char *start_field(const char *line, size_t *length)
{
	int field = 0, quoted = 0;
	const char *begin = line;
	for (const char *p = line;; p++) {
		if (*p == '"')
			quoted = !quoted;
		if ((*p == ',' && !quoted) || *p == '\0') {
			if (field == 3) {
				*length = (size_t)(p - begin);
				return begin;
			}
			if (*p == '\0')
				break;
			field++;
			begin = p + 1;
		}
	}
	*length = 0;
	return "";
}

static int same_start(const char *a, const char *b)
{
	size_t la, lb;
	const char *sa = start_field(a, &la), *sb = start_field(b, &lb);
	return la == lb && memcmp(sa, sb, la) == 0;
}

static int compare_rows(const void *a, const void *b)
{
	return strcmp(((const row *)a)->key, ((const row *)b)->key);
}

int main(int argc, char **argv)
{
	table want, got;
	size_t i = 1, j = 1;
	int failures = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: csv_compare EXPECTED.csv ACTUAL.csv\n");
		return 2;
	}
	if (read_table(&want, argv[1]) < 0 || read_table(&got, argv[2]) < 0)
		return 1;
	if (want.count == 0 || got.count == 0 || strcmp(want.lines[0].key, got.lines[0].key) != 0) {
		fprintf(stderr, "csv_compare: headers differ:\n  want %s\n  got  %s\n",
			want.count ? want.lines[0].line : "", got.count ? got.lines[0].line : "");
		return 1;
	}
	if (want.count != got.count) {
		fprintf(stderr, "csv_compare: %zu rows expected, %zu written\n", want.count - 1, got.count - 1);
		failures++;
	}
	/* Walk both in order; each group of equal starts must hold the same rows. */
	while (i < want.count && j < got.count && failures < 10) {
		size_t gi = i + 1, gj = j + 1;
		while (gi < want.count && same_start(want.lines[gi].key, want.lines[i].key))
			gi++;
		while (gj < got.count && same_start(got.lines[gj].key, got.lines[j].key))
			gj++;
		qsort(want.lines + i, gi - i, sizeof(row), compare_rows);
		qsort(got.lines + j, gj - j, sizeof(row), compare_rows);
		for (size_t k = 0; k < gi - i || k < gj - j; k++) {
			const row none = { "(none)", "(none)" };
			const row *a = k < gi - i ? &want.lines[i + k] : &none;
			const row *b = k < gj - j ? &got.lines[j + k] : &none;
			if (strcmp(a->key, b->key) != 0) {
				fprintf(stderr, "csv_compare: row %zu differs:\n  want %s\n  got  %s\n", i + k, a->line,
					b->line);
				failures++;
				break;
			}
		}
		i = gi;
		j = gj;
	}
	for (size_t k = 0; k < want.count; k++) {
		free(want.lines[k].key);
		free(want.lines[k].line);
	}
	for (size_t k = 0; k < got.count; k++) {
		free(got.lines[k].key);
		free(got.lines[k].line);
	}
	free(want.lines);
	free(got.lines);
	if (!failures)
		printf("csv_compare: %s and %s hold the same rows\n", argv[1], argv[2]);
	return failures ? 1 : 0;
}

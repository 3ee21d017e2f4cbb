/* pair_facts.c: what differs between a pair's two trees, read back from the expected rows they were written with, for pair.txt. */
#include "pair.h"

#include <stdlib.h>
#include <string.h>

/* Distinct texts in order of first appearance; few (roles, or role-rank-device keys), so a list will do. */
typedef struct {
	char **texts;
	double *base_kb, *current_kb; /* growth: allocated KB at the site, per text */
	long long *current_count;
	size_t count, capacity;
} text_list;

static long find_text(const text_list *list, const char *text)
{
	for (size_t i = 0; i < list->count; i++)
		if (strcmp(list->texts[i], text) == 0)
			return (long)i;
	return -1;
}

/* The text's index, added when new; -1 when out of memory. */
static long add_text(text_list *list, const char *text)
{
	long found = find_text(list, text);
	if (found >= 0)
		return found;
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? 2 * list->capacity : 16;
		char **texts = realloc(list->texts, capacity * sizeof(*texts));
		double *base = texts ? realloc(list->base_kb, capacity * sizeof(*base)) : NULL;
		double *current = base ? realloc(list->current_kb, capacity * sizeof(*current)) : NULL;
		long long *counts = current ? realloc(list->current_count, capacity * sizeof(*counts)) : NULL;
		if (texts)
			list->texts = texts;
		if (base)
			list->base_kb = base;
		if (current)
			list->current_kb = current;
		if (!counts)
			return -1;
		list->current_count = counts;
		list->capacity = capacity;
	}
	if (!(list->texts[list->count] = strdup(text)))
		return -1;
	list->base_kb[list->count] = list->current_kb[list->count] = 0;
	list->current_count[list->count] = 0;
	return (long)list->count++;
}

static void free_texts(text_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		free(list->texts[i]);
	free(list->texts);
	free(list->base_kb);
	free(list->current_kb);
	free(list->current_count);
	memset(list, 0, sizeof(*list));
}

/* Field index of a CSV line as rows.c writes it (quoted when it holds a comma or a quote), into buf. */
static void csv_field(char *buf, size_t size, const char *line, int index)
{
	size_t used = 0;
	int field = 0, quoted = 0;
	for (const char *p = line; *p && *p != '\n' && *p != '\r'; p++) {
		if (quoted && *p == '"' && p[1] == '"') {
			p++;
		} else if (*p == '"') {
			quoted = !quoted;
			continue;
		} else if (!quoted && *p == ',') {
			if (field++ == index)
				break;
			continue;
		}
		if (field == index && used + 1 < size)
			buf[used++] = *p;
	}
	buf[used] = '\0';
}

/* A string value of the expected_memory.jsonl line, as written (escapes kept: the keys read here have none). */
static void json_text(char *buf, size_t size, const char *line, const char *key)
{
	char pattern[64];
	const char *p;
	size_t used = 0;
	snprintf(pattern, sizeof(pattern), "\"%s\": \"", key);
	if ((p = strstr(line, pattern)))
		for (p += strlen(pattern); *p && *p != '"' && used + 2 < size; p++) {
			if (*p == '\\' && p[1])
				buf[used++] = *p++;
			buf[used++] = *p;
		}
	buf[used] = '\0';
}

static double json_number(const char *line, const char *key)
{
	char pattern[64];
	const char *p;
	snprintf(pattern, sizeof(pattern), "\"%s\": ", key);
	return (p = strstr(line, pattern)) ? strtod(p + strlen(pattern), NULL) : 0;
}

/* Every line of path after the first skip lines, handed to each; SYNTH_EOUTPUT when it cannot be read. */
static int each_line(const char *path, int skip, int (*each)(void *context, const char *line), void *context)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t capacity = 0;
	int error = SYNTH_OK;
	if (!fp)
		return synth_fail(SYNTH_EOUTPUT, "cannot read %s", path);
	for (int n = 0; error >= 0 && getline(&line, &capacity, fp) >= 0; n++)
		if (n >= skip)
			error = each(context, line);
	free(line);
	fclose(fp);
	return error;
}

static int add_csv_role(void *context, const char *line)
{
	char role[512];
	csv_field(role, sizeof(role), line, 1);
	return add_text(context, role) < 0 ? synth_fail(SYNTH_ERROR, "out of memory") : SYNTH_OK;
}

static int add_memory_role(void *context, const char *line)
{
	char role[512];
	json_text(role, sizeof(role), line, "role");
	return add_text(context, role) < 0 ? synth_fail(SYNTH_ERROR, "out of memory") : SYNTH_OK;
}

/* The roles of a tree's rows: expected.csv's role column, or expected_memory.jsonl's for memory trees. */
static int read_roles(text_list *roles, const synth_options *options)
{
	int memory = options->format == SYNTH_MEMORY;
	char *path = synth_path("%s/%s", options->output_dir, memory ? "expected_memory.jsonl" : "expected.csv");
	int error;
	if (!path)
		return synth_fail(SYNTH_ERROR, "out of memory");
	error = each_line(path, memory ? 0 : 1, memory ? add_memory_role : add_csv_role, roles);
	free(path);
	return error;
}

/* The key= line of the texts of one list missing from the other. */
static void write_missing(FILE *fp, const char *key, const text_list *from, const text_list *other)
{
	int first = 1;
	fprintf(fp, "%s=", key);
	for (size_t i = 0; i < from->count; i++) {
		if (find_text(other, from->texts[i]) >= 0)
			continue;
		fprintf(fp, "%s%s", first ? "" : ",", from->texts[i]);
		first = 0;
	}
	fputc('\n', fp);
}

int synth_pair_write_roles(FILE *fp, const synth_options *baseline, const synth_options *current, int roles)
{
	text_list base_roles = { 0 }, current_roles = { 0 };
	synth_plan plan;
	int error = read_roles(&base_roles, baseline);
	if (error >= 0)
		error = read_roles(&current_roles, current);
	if (error >= 0 && (error = synth_plan_init(&plan, baseline)) >= 0) {
		write_missing(fp, "removed_roles", &base_roles, &current_roles);
		write_missing(fp, "added_roles", &current_roles, &base_roles);
		fprintf(fp, "removed_role_dir=%s\nadded_role_dir=%s\n", plan.roles[roles - 1].dir_name,
			plan.roles[roles].dir_name);
		synth_plan_free(&plan);
	}
	free_texts(&base_roles);
	free_texts(&current_roles);
	return error;
}

typedef struct {
	text_list keys;
	const char *site;
	int current; /* reading the current tree */
} growth_reader;

/* An allocation at the site adds its KB to its role-rank-device key. */
static int add_growth(void *context, const char *line)
{
	growth_reader *reader = context;
	char top[1024], role[256], device[64], key[400];
	double size_kb = json_number(line, "size_kb");
	long index;
	json_text(top, sizeof(top), line, "call_stack_top");
	if (size_kb <= 0 || strcmp(top, reader->site) != 0)
		return SYNTH_OK;
	json_text(role, sizeof(role), line, "role");
	json_text(device, sizeof(device), line, "device_type");
	snprintf(key, sizeof(key), "%s.%lld.%s", role, (long long)json_number(line, "rank_id"), device);
	if ((index = add_text(&reader->keys, key)) < 0)
		return synth_fail(SYNTH_ERROR, "out of memory");
	if (reader->current) {
		reader->keys.current_kb[index] += size_kb;
		reader->keys.current_count[index]++;
	} else {
		reader->keys.base_kb[index] += size_kb;
	}
	return SYNTH_OK;
}

int synth_pair_write_growth(FILE *fp, const char *base_dir, const char *current_dir, const char *site)
{
	growth_reader reader = { .site = site };
	char *base_path = synth_path("%s/expected_memory.jsonl", base_dir);
	char *current_path = synth_path("%s/expected_memory.jsonl", current_dir);
	double total = 0;
	long long allocations = 0;
	int error = base_path && current_path ? SYNTH_OK : synth_fail(SYNTH_ERROR, "out of memory");

	if (error >= 0)
		error = each_line(base_path, 0, add_growth, &reader);
	reader.current = 1;
	if (error >= 0)
		error = each_line(current_path, 0, add_growth, &reader);
	if (error >= 0) {
		for (size_t i = 0; i < reader.keys.count; i++) {
			total += reader.keys.current_kb[i] - reader.keys.base_kb[i];
			allocations += reader.keys.current_count[i];
		}
		fprintf(fp, "site_allocations=%lld\ngrowth_kb_total=%.17g\n", allocations, total);
		for (size_t i = 0; i < reader.keys.count; i++)
			fprintf(fp, "growth_kb.%s=%.17g\n", reader.keys.texts[i],
				reader.keys.current_kb[i] - reader.keys.base_kb[i]);
	}
	free_texts(&reader.keys);
	free(base_path);
	free(current_path);
	return error;
}

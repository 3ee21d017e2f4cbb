/* pair_check.c: a run pair's planted difference (pair.txt) is really in the expected rows of its two trees, and nothing else differs. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

/*
 * The time columns come from µs timestamps near 1.8e15 (Ascend) or 4.5e15 (Kineto), which
 * doubles keep to about 0.5 µs: two bars of one length can read back 1 µs apart.
 */
#define TIME_TOLERANCE_MS 0.002

typedef struct {
	char *name, *role;
	double start, end, duration;
	long long rank;
	char *line;
} csv_row;

typedef struct {
	csv_row *rows;
	size_t count, capacity;
	char *text; /* the file: the fields point into it */
} csv_table;

/* Room for one more of items (doubling: the tables have thousands of rows). */
static void *grow(void *items, size_t *capacity, size_t count, size_t size)
{
	if (count < *capacity)
		return items;
	*capacity = *capacity ? 2 * *capacity : 256;
	if (!(items = realloc(items, *capacity * size)))
		abort();
	return items;
}

static const char *pair_dir;
static char *facts; /* pair.txt */

/* The value of key= in pair.txt, copied into a static buffer (the next call overwrites it); NULL when absent. */
static const char *fact(const char *key)
{
	static char value[4096];
	size_t length = strlen(key);
	for (const char *line = facts; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, key, length) == 0 && line[length] == '=') {
			const char *end = strchr(line, '\n');
			size_t n = end ? (size_t)(end - line) - length - 1 : strlen(line + length + 1);
			snprintf(value, sizeof(value), "%.*s", (int)n, line + length + 1);
			return value;
		}
	}
	return NULL;
}

static double fact_number(const char *key)
{
	const char *value = fact(key);
	if (!value) {
		fprintf(stderr, "pair.txt has no %s=\n", key);
		rli_test_failures++;
		return 0;
	}
	return strtod(value, NULL);
}

static char *side_file(const char *side, const char *name, size_t *length)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s/%s", pair_dir, side, name);
	return test_read_file(path, length);
}

/* Splits a CSV line in place (quotes as rows.c writes them); returns the field count. */
static int split_csv(char *line, char **fields, int most)
{
	int count = 0, quoted = 0;
	char *out = line;
	fields[count++] = out;
	for (char *p = line; *p; p++) {
		if (*p == '"' && quoted && p[1] == '"') {
			*out++ = *p++;
		} else if (*p == '"') {
			quoted = !quoted;
		} else if (*p == ',' && !quoted && count < most) {
			*out++ = '\0';
			fields[count++] = out;
		} else {
			*out++ = *p;
		}
	}
	*out = '\0';
	return count;
}

static csv_table read_csv(const char *side)
{
	csv_table table = { NULL, 0, 0, NULL };
	char *text = side_file(side, "expected.csv", NULL), *save = NULL;
	table.text = text;
	if (!text) {
		fprintf(stderr, "cannot read %s/%s/expected.csv\n", pair_dir, side);
		exit(1);
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *fields[8], *copy;
		if (strncmp(line, "name,", 5) == 0)
			continue;
		copy = strdup(line);
		if (split_csv(line, fields, 8) != 8) {
			free(copy);
			continue;
		}
		table.rows = grow(table.rows, &table.capacity, table.count, sizeof(*table.rows));
		table.rows[table.count++] = (csv_row){ fields[0], fields[1], strtod(fields[3], NULL), strtod(fields[4], NULL),
						       strtod(fields[5], NULL), atoll(fields[6]), copy };
	}
	return table;
}

static void free_csv(csv_table *table)
{
	for (size_t i = 0; i < table->count; i++)
		free(table->rows[i].line);
	free(table->rows);
	free(table->text);
}

/* Row i's partner on the other side: the same name, role and rank, and as many of those before it. */
static long partner(const csv_table *from, size_t i, const csv_table *to)
{
	const csv_row *row = &from->rows[i];
	size_t seen = 0;
	for (size_t k = 0; k < i; k++)
		seen += strcmp(from->rows[k].name, row->name) == 0 && strcmp(from->rows[k].role, row->role) == 0 &&
			from->rows[k].rank == row->rank;
	for (size_t k = 0; k < to->count; k++)
		if (strcmp(to->rows[k].name, row->name) == 0 && strcmp(to->rows[k].role, row->role) == 0 &&
		    to->rows[k].rank == row->rank && seen-- == 0)
			return (long)k;
	return -1;
}

static void check_identical(void)
{
	double jitter = fact_number("jitter");
	if (jitter == 0) {
		/* One seed, one plan: the same bytes, rows and (memory) expected rows alike. */
		static const char *const files[] = { "expected.csv", "expected_memory.jsonl" };
		for (size_t f = 0; f < 2; f++) {
			size_t base_length, current_length;
			char *base = side_file("baseline", files[f], &base_length);
			char *current = side_file("current", files[f], &current_length);
			CHECK(!base == !current);
			if (base && current)
				CHECK(base_length == current_length && memcmp(base, current, base_length) == 0);
			free(base);
			free(current);
		}
		return;
	}
	csv_table base = read_csv("baseline"), current = read_csv("current");
	size_t moved = 0;
	CHECK_INT(current.count, base.count);
	for (size_t i = 0; i < current.count; i++) {
		long k = partner(&current, i, &base);
		CHECK(k >= 0);
		if (k < 0)
			continue;
		double ratio = current.rows[i].duration / base.rows[k].duration;
		/* Each unit's bars scale by one draw within 1 ± jitter. */
		CHECK(ratio >= 1 - jitter - 1e-6 && ratio <= 1 + jitter + 1e-6);
		moved += ratio < 1 - 1e-6 || ratio > 1 + 1e-6;
	}
	CHECK(moved > current.count / 2);
	free_csv(&base);
	free_csv(&current);
}

/*
 * In the current tree: a bar of the slowed role on the slowed rank (rank -1: on any), or one inside
 * such a bar (NVTX's inner ranges).
 */
static int slowed(const csv_table *table, const csv_row *row, const char *role, long long rank)
{
	if (rank >= 0 && row->rank != rank)
		return 0;
	for (size_t k = 0; k < table->count; k++) {
		const csv_row *phase = &table->rows[k];
		if (phase->rank == row->rank && strcmp(phase->role, role) == 0 && phase->start <= row->start &&
		    row->end <= phase->end)
			return 1;
	}
	return 0;
}

static void check_slowdown(void)
{
	csv_table base = read_csv("baseline"), current = read_csv("current");
	char role[512];
	/* rank=all: every rank of the role was slowed */
	long long rank = fact("rank") && strcmp(fact("rank"), "all") == 0 ? -1 : (long long)fact_number("rank");
	double factor = fact_number("factor");
	size_t slowed_bars = 0, slowed_rows = 0, later = 0;
	snprintf(role, sizeof(role), "%s", fact("role") ? fact("role") : "");
	CHECK(fact_number("jitter") == 0); /* this check works out exact lengths */
	CHECK_INT(current.count, base.count);
	for (size_t i = 0; i < current.count; i++) {
		const csv_row *row = &current.rows[i];
		long k = partner(&current, i, &base);
		int slow = slowed(&current, row, role, rank);
		CHECK(k >= 0);
		if (k < 0)
			continue;
		CHECK_NEAR(row->duration, (slow ? factor : 1) * base.rows[k].duration, TIME_TOLERANCE_MS);
		slowed_bars += slow && strcmp(row->role, role) == 0;
		slowed_rows += slow;
		later += row->start > base.rows[k].start + 1;
	}
	/* One bar of the role a step on that rank (on each rank for all), and it was there to slow. */
	CHECK_INT(slowed_bars, (long long)fact_number("slowed_bars"));
	CHECK(slowed_rows >= slowed_bars && slowed_bars > 0);
	/* The phases after a slowed one wait for it: later bars start later, exactly when pair.txt says so. */
	CHECK_INT(later > 0, (long long)fact_number("later_bars_shift"));
	free_csv(&base);
	free_csv(&current);
}

/* One expected_memory.jsonl row, read with yajl (not the generator's own reader). */
typedef struct {
	char name[256], role[256], top[1024], device[32];
	long long rank;
	double size_kb, start;
} memory_row;

static const char *tree_text(yajl_val tree, const char *key)
{
	const char *path[] = { key, NULL };
	yajl_val value = yajl_tree_get(tree, path, yajl_t_string);
	CHECK(value != NULL);
	return value ? YAJL_GET_STRING(value) : "";
}

static double tree_number(yajl_val tree, const char *key)
{
	const char *path[] = { key, NULL };
	yajl_val value = yajl_tree_get(tree, path, yajl_t_number);
	CHECK(value != NULL);
	return value ? YAJL_GET_DOUBLE(value) : 0;
}

static memory_row *read_memory(const char *side, size_t *count)
{
	char *text = side_file(side, "expected_memory.jsonl", NULL), *save = NULL, error[256];
	memory_row *rows = NULL;
	size_t capacity = 0;
	*count = 0;
	if (!text) {
		fprintf(stderr, "cannot read %s/%s/expected_memory.jsonl\n", pair_dir, side);
		exit(1);
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		yajl_val tree = yajl_tree_parse(line, error, sizeof(error));
		memory_row *row;
		if (!tree) {
			fprintf(stderr, "%s: %s\n", side, error);
			exit(1);
		}
		rows = grow(rows, &capacity, *count, sizeof(*rows));
		row = &rows[(*count)++];
		snprintf(row->name, sizeof(row->name), "%s", tree_text(tree, "name"));
		snprintf(row->role, sizeof(row->role), "%s", tree_text(tree, "role"));
		snprintf(row->top, sizeof(row->top), "%s", tree_text(tree, "call_stack_top"));
		snprintf(row->device, sizeof(row->device), "%s", tree_text(tree, "device_type"));
		row->rank = (long long)tree_number(tree, "rank_id");
		row->size_kb = tree_number(tree, "size_kb");
		row->start = tree_number(tree, "start_time_ms");
		yajl_tree_free(tree);
	}
	free(text);
	return rows;
}

static void check_growth(void)
{
	size_t base_count, current_count, allocations = 0;
	memory_row *base = read_memory("baseline", &base_count), *current = read_memory("current", &current_count);
	char site[1024], keys[256][400];
	double growth = fact_number("growth_kb"), total = 0, by_key[256] = { 0 };
	size_t key_count = 0;
	snprintf(site, sizeof(site), "%s", fact("site") ? fact("site") : "");
	CHECK_INT(current_count, base_count);
	for (size_t i = 0; i < current_count && i < base_count; i++) {
		const memory_row *b = &base[i], *c = &current[i];
		int grown = strcmp(b->top, site) == 0 && b->size_kb > 0;
		char key[400];
		/* Only the sizes at the site move: the rows keep their order, names, stacks and times. */
		CHECK(strcmp(b->name, c->name) == 0 && strcmp(b->role, c->role) == 0 && b->rank == c->rank);
		CHECK(strcmp(b->top, c->top) == 0 && strcmp(b->device, c->device) == 0 && b->start == c->start);
		CHECK(c->size_kb == b->size_kb + (grown ? growth : 0));
		if (!grown)
			continue;
		allocations++;
		total += c->size_kb - b->size_kb;
		snprintf(key, sizeof(key), "growth_kb.%s.%lld.%s", c->role, c->rank, c->device);
		size_t k = 0;
		while (k < key_count && strcmp(keys[k], key) != 0)
			k++;
		if (k == key_count && key_count < 256)
			snprintf(keys[key_count++], sizeof(keys[0]), "%s", key);
		if (k < 256)
			by_key[k] += c->size_kb - b->size_kb;
	}
	/* The site is one the generator uses: some allocations were there to grow. */
	CHECK(allocations > 0);
	CHECK_INT(allocations, (long long)fact_number("site_allocations"));
	CHECK_NEAR(fact_number("growth_kb_total"), growth * (double)allocations, 1e-9);
	CHECK_NEAR(total, growth * (double)allocations, 1e-9);
	for (size_t k = 0; k < key_count; k++)
		CHECK_NEAR(fact_number(keys[k]), by_key[k], 1e-9);
	free(base);
	free(current);
}

/* The distinct roles of a side's rows (expected.csv, or expected_memory.jsonl for memory trees), in first appearance. */
static size_t read_roles(const char *side, int memory, char roles[64][256])
{
	size_t count = 0;
	const char *role;
	csv_table table = { NULL, 0, 0, NULL };
	memory_row *rows = NULL;
	size_t rows_count = 0;
	if (memory)
		rows = read_memory(side, &rows_count);
	else
		table = read_csv(side);
	for (size_t i = 0; i < (memory ? rows_count : table.count); i++) {
		size_t k = 0;
		role = memory ? rows[i].role : table.rows[i].role;
		while (k < count && strcmp(roles[k], role) != 0)
			k++;
		if (k == count && count < 64)
			snprintf(roles[count++], 256, "%s", role);
	}
	free(rows);
	free_csv(&table);
	return count;
}

/* The roles of one side its other lacks equal pair.txt's comma-separated list, in any order. */
static void check_missing(const char *key, char from[64][256], size_t from_count, char other[64][256],
			  size_t other_count)
{
	char listed[4096], *save = NULL;
	size_t missing = 0, named = 0;
	snprintf(listed, sizeof(listed), "%s", fact(key) ? fact(key) : "");
	for (size_t i = 0; i < from_count; i++) {
		size_t k = 0;
		while (k < other_count && strcmp(other[k], from[i]) != 0)
			k++;
		missing += k == other_count;
	}
	for (char *name = strtok_r(listed, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int in_from = 0, in_other = 0;
		named++;
		for (size_t i = 0; i < from_count; i++)
			in_from |= strcmp(from[i], name) == 0;
		for (size_t i = 0; i < other_count; i++)
			in_other |= strcmp(other[i], name) == 0;
		CHECK(in_from && !in_other);
	}
	CHECK_INT(named, missing);
	CHECK(missing > 0);
}

static void check_roles(void)
{
	char format[64];
	int memory;
	snprintf(format, sizeof(format), "%s", fact("format") ? fact("format") : "");
	memory = strcmp(format, "memory") == 0;
	static char base[64][256], current[64][256];
	size_t base_count = read_roles("baseline", memory, base), current_count = read_roles("current", memory, current);
	check_missing("removed_roles", base, base_count, current, current_count);
	check_missing("added_roles", current, current_count, base, base_count);
	if (!memory && strcmp(format, "nvtx") != 0) {
		/* The roles both sides have keep their bars to the byte (NVTX's inner ranges share names across roles). */
		char removed[512], added[512];
		csv_table b = read_csv("baseline"), c = read_csv("current");
		size_t i = 0, k = 0;
		snprintf(removed, sizeof(removed), "%s", fact("removed_roles"));
		snprintf(added, sizeof(added), "%s", fact("added_roles"));
		for (;;) {
			while (i < b.count && strcmp(b.rows[i].role, removed) == 0)
				i++;
			while (k < c.count && strcmp(c.rows[k].role, added) == 0)
				k++;
			if (i == b.count || k == c.count)
				break;
			CHECK_STR(c.rows[k++].line, b.rows[i++].line);
		}
		CHECK(i == b.count && k == c.count);
		free_csv(&b);
		free_csv(&c);
	}
}

int main(int argc, char **argv)
{
	const char *kind;
	char path[4096];
	if (argc != 2) {
		fprintf(stderr, "usage: pair_check DIR (written by rl-insight-synth --pair)\n");
		return 2;
	}
	pair_dir = argv[1];
	snprintf(path, sizeof(path), "%s/pair.txt", pair_dir);
	if (!(facts = test_read_file(path, NULL))) {
		fprintf(stderr, "cannot read %s\n", path);
		return 1;
	}
	kind = fact("kind");
	if (kind && strcmp(kind, "identical") == 0)
		check_identical();
	else if (kind && strcmp(kind, "slowdown") == 0)
		check_slowdown();
	else if (kind && strcmp(kind, "memory-growth") == 0)
		check_growth();
	else if (kind && strcmp(kind, "roles") == 0)
		check_roles();
	else
		CHECK(!"pair.txt names a known kind=");
	free(facts);
	return rli_test_failures ? 1 : 0;
}

/* config_file.c: reads the YAML configuration files (config_path=FILE) of the Python tool. */
#include "config_file.h"
#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 8
#define MAX_KEY 256

typedef struct {
	int indent[MAX_DEPTH];
	char key[MAX_DEPTH][MAX_KEY];
	int depth;
} key_stack;

static char *trim(char *s)
{
	char *end;
	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/* Cuts a comment that is not inside quotes: YAML needs a space (or line start) before '#'. */
static void strip_comment(char *s)
{
	char quote = 0;
	for (char *p = s; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return;
		}
	}
}

/* Removes matching quotes; returns NULL when a quote is left open. */
static char *unquote(char *value)
{
	size_t len = strlen(value);
	if (len && (value[0] == '\'' || value[0] == '"')) {
		if (len < 2 || value[len - 1] != value[0])
			return NULL;
		value[len - 1] = '\0';
		return value + 1;
	}
	return value;
}

static int join_key(char *out, size_t size, const key_stack *stack, const char *leaf)
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < stack->depth; i++)
		used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s.", stack->key[i]);
	used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s", leaf);
	return used < size ? 0 : -1;
}

int config_file_read(const char *path, config_visit_fn visit, void *ctx)
{
	FILE *fp = fopen(path, "r");
	char line[4096];
	key_stack stack = { .depth = 0 };
	int number = 0, error = RLI_OK;

	if (!fp)
		return rli_error_set(RLI_EUSAGE, "Config file not found: %s", path);
	while (fgets(line, sizeof(line), fp)) {
		char *text, *colon, *value, full[MAX_KEY * 2];
		int indent = 0;
		number++;
		if (!strchr(line, '\n') && !feof(fp)) {
			error = rli_error_set(RLI_EUSAGE, "%s:%d: line too long", path, number);
			goto done;
		}
		strip_comment(line);
		while (line[indent] == ' ')
			indent++;
		if (line[indent] == '\t') {
			error = rli_error_set(RLI_EUSAGE, "%s:%d: tabs cannot indent YAML", path, number);
			goto done;
		}
		text = trim(line);
		if (!*text || strcmp(text, "---") == 0)
			continue;
		colon = strstr(text, ": ");
		if (!colon && text[strlen(text) - 1] == ':')
			colon = text + strlen(text) - 1;
		if (!colon || colon == text || strncmp(text, "- ", 2) == 0) {
			error = rli_error_set(RLI_EUSAGE, "%s:%d: expected 'key: value'", path, number);
			goto done;
		}
		*colon = '\0';
		value = trim(colon + 1);
		while (stack.depth > 0 && stack.indent[stack.depth - 1] >= indent)
			stack.depth--;
		if (!*value) { /* a mapping opens: its keys follow, indented */
			if (stack.depth == MAX_DEPTH || strlen(text) >= MAX_KEY) {
				error = rli_error_set(RLI_EUSAGE, "%s:%d: nested too deeply", path, number);
				goto done;
			}
			stack.indent[stack.depth] = indent;
			strcpy(stack.key[stack.depth++], text);
			continue;
		}
		if (!(value = unquote(value))) {
			error = rli_error_set(RLI_EUSAGE, "%s:%d: unterminated quote", path, number);
			goto done;
		}
		if (strcmp(value, "null") == 0 || strcmp(value, "~") == 0)
			continue;
		if (join_key(full, sizeof(full), &stack, text) < 0) {
			error = rli_error_set(RLI_EUSAGE, "%s:%d: key too long", path, number);
			goto done;
		}
		if ((error = visit(ctx, full, value, number)) < 0)
			goto done;
	}
	if (ferror(fp))
		error = rli_error_set(RLI_EUSAGE, "cannot read %s", path);
done:
	fclose(fp);
	return error;
}

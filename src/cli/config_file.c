/* config_file.c: reads the YAML configuration files (config_path=FILE) of the Python tool. */
#include "config_file.h"
#include "common/error.h"

#include <errno.h>
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

/* Reads one line of the file (without its newline) into line; returns its length, or -1 when too long. */
static int next_line(char *line, size_t size, const char **text, const char *end)
{
	const char *nl = memchr(*text, '\n', (size_t)(end - *text));
	size_t len = (size_t)((nl ? nl : end) - *text);
	const char *was = *text;
	*text = nl ? nl + 1 : end;
	if (len >= size)
		return -1;
	memcpy(line, was, len);
	line[len] = '\0';
	return (int)len;
}

int config_text_read(const char *path, const char *text, size_t length, config_visit_fn visit, void *ctx)
{
	const char *end = text + length;
	char line[4096];
	key_stack stack = { .depth = 0 };
	int number = 0;

	while (text < end) {
		char *content, *colon, *value, full[MAX_KEY * 2];
		int indent = 0, error, len = next_line(line, sizeof(line), &text, end);
		number++;
		if (len < 0)
			return rli_error_set(RLI_EUSAGE, "%s:%d: line too long", path, number);
		/* A NUL would cut the line short without a word: the file is not text. */
		if (strlen(line) != (size_t)len)
			return rli_error_set(RLI_EUSAGE, "%s:%d: a NUL byte: this is not a YAML text file", path,
					     number);
		strip_comment(line);
		while (line[indent] == ' ')
			indent++;
		if (line[indent] == '\t')
			return rli_error_set(RLI_EUSAGE, "%s:%d: tabs cannot indent YAML", path, number);
		content = trim(line);
		if (!*content || strcmp(content, "---") == 0)
			continue;
		colon = strstr(content, ": ");
		if (!colon && content[strlen(content) - 1] == ':')
			colon = content + strlen(content) - 1;
		if (!colon || colon == content || strncmp(content, "- ", 2) == 0)
			return rli_error_set(RLI_EUSAGE, "%s:%d: expected 'key: value'", path, number);
		*colon = '\0';
		value = trim(colon + 1);
		while (stack.depth > 0 && stack.indent[stack.depth - 1] >= indent)
			stack.depth--;
		if (!*value) { /* a mapping opens: its keys follow, indented */
			if (stack.depth == MAX_DEPTH || strlen(content) >= MAX_KEY)
				return rli_error_set(RLI_EUSAGE, "%s:%d: nested too deeply", path, number);
			stack.indent[stack.depth] = indent;
			strcpy(stack.key[stack.depth++], content);
			continue;
		}
		if (!(value = unquote(value)))
			return rli_error_set(RLI_EUSAGE, "%s:%d: unterminated quote", path, number);
		if (strcmp(value, "null") == 0 || strcmp(value, "~") == 0)
			continue;
		if (join_key(full, sizeof(full), &stack, content) < 0)
			return rli_error_set(RLI_EUSAGE, "%s:%d: key too long", path, number);
		if ((error = visit(ctx, full, value, number)) < 0)
			return error;
	}
	return RLI_OK;
}

int config_file_read(const char *path, config_visit_fn visit, void *ctx)
{
	FILE *fp = fopen(path, "rb");
	char *text = NULL;
	size_t length;
	int error = RLI_OK;

	if (!fp)
		return rli_error_set(RLI_EUSAGE, "Config file not found: %s", path);
	/* A configuration is a few hundred bytes; one past the bound says it is something else. */
	if (!(text = malloc(RLI_CONFIG_MAX_BYTES + 1))) {
		error = rli_error_oom();
		goto done;
	}
	length = fread(text, 1, RLI_CONFIG_MAX_BYTES + 1, fp);
	if (ferror(fp))
		error = rli_error_set(RLI_EUSAGE, "cannot read %s: %s", path, strerror(errno));
	else if (length > RLI_CONFIG_MAX_BYTES)
		error = rli_error_set(RLI_EUSAGE, "%s: larger than %d MiB: not a configuration file", path,
				      RLI_CONFIG_MAX_BYTES / (1024 * 1024));
	else
		error = config_text_read(path, text, length, visit, ctx);
done:
	free(text);
	fclose(fp);
	return error;
}

/* config_file.c: reads the YAML configuration files (config_path=FILE) of the Python tool, with libyaml. */
#include "config_file.h"
#include "common/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* A real configuration has a few dozen values and three levels; these bound what an input can cost. */
#define MAX_VALUES 10000
#define MAX_DEPTH 64
#define MAX_KEY 1024

enum { NODE_SCALAR, NODE_LIST, NODE_MAP, NODE_ALIAS };

typedef struct {
	int kind;
	int is_null;        /* a plain ~, null or nothing: the key is skipped, its default stands */
	int open;           /* a list or mapping whose end has not come yet */
	char *text;         /* a scalar's value, NUL-terminated */
	size_t length;      /* its bytes: a "\0" escape makes it longer than strlen says */
	int target;         /* an alias: the node its anchor names */
	int first, last, next; /* children in document order, -1 for none */
	size_t expanded;    /* the values this node stands for, aliases expanded (saturates past MAX_VALUES) */
	yaml_mark_t mark;
} cnode;

typedef struct {
	char *name;
	int node;
} anchor;

typedef struct {
	const char *path;
	const char *text;
	size_t length;
	cnode *nodes;
	size_t count, capacity;
	anchor *anchors;
	size_t anchor_count, anchor_capacity;
	int stack[MAX_DEPTH];
	int depth;
	size_t expanded; /* the whole document's values so far, aliases expanded */
	int root;
	config_visit_fn visit;
	void *ctx;
	char key[MAX_KEY];
} reader;

/* libyaml's marks count from 0; a person counts lines and columns from 1. */
#define LINE(m) ((int)(m).line + 1)
#define COLUMN(m) ((int)(m).column + 1)

static int at(const reader *rd, yaml_mark_t m, const char *what)
{
	return rli_error_set(RLI_EUSAGE, "%s:%d:%d: %s", rd->path, LINE(m), COLUMN(m), what);
}

/* The reader's errors carry a byte offset, not a mark: count the lines and characters before it. */
static void place(const reader *rd, size_t offset, int *line, int *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < offset && i < rd->length; i++) {
		unsigned char c = (unsigned char)rd->text[i];
		if (c == '\n') {
			++*line;
			*column = 1;
		} else if ((c & 0xC0) != 0x80) {
			++*column;
		}
	}
}

/* libyaml's own reason, placed; a tab in the indentation gets plainer words than "cannot start any token". */
static int syntax_error(const reader *rd, const yaml_parser_t *parser)
{
	int line, column;
	if (parser->error == YAML_MEMORY_ERROR)
		return rli_error_oom();
	if (parser->error == YAML_READER_ERROR) {
		size_t offset = parser->problem_offset;
		/* A bad trailing byte is placed by libyaml after its sequence's lead byte: name the lead. */
		if (parser->problem && strstr(parser->problem, "trailing") && offset > 0 && offset <= rd->length) {
			offset--;
			while (offset > 0 && ((unsigned char)rd->text[offset] & 0xC0) == 0x80)
				offset--;
		}
		place(rd, offset, &line, &column);
		if (parser->problem && strstr(parser->problem, "control characters"))
			return rli_error_set(RLI_EUSAGE, "%s:%d:%d: a control character (0x%02X): this is not a YAML text file",
					     rd->path, line, column, (unsigned)parser->problem_value);
		/* The byte itself: libyaml gives -1 for a sequence cut short by the end of the text. */
		return rli_error_set(RLI_EUSAGE, "%s:%d:%d: not UTF-8 text (byte 0x%02X)", rd->path, line, column,
				     offset < rd->length ? (unsigned)(unsigned char)rd->text[offset]
					     : (unsigned)parser->problem_value & 0xFFu);
	}
	{
		yaml_mark_t m = parser->problem_mark;
		size_t start = m.index < rd->length ? m.index : rd->length, i;
		while (start > 0 && rd->text[start - 1] != '\n')
			start--;
		/* The scanner stops at the tab itself, or later on the line it indents. */
		for (i = start; i < rd->length && rd->text[i] == ' '; i++)
			;
		if (i < rd->length && rd->text[i] == '\t')
			return rli_error_set(RLI_EUSAGE, "%s:%d:%d: tabs cannot indent YAML", rd->path, LINE(m),
					     (int)(i - start) + 1);
		rli_error_set(RLI_EUSAGE, "%s:%d:%d: not valid YAML: %s", rd->path, LINE(m), COLUMN(m),
			      parser->problem ? parser->problem : "a syntax error");
		if (parser->context)
			rli_error_append(" (%s from line %d)", parser->context, LINE(parser->context_mark));
		return RLI_EUSAGE;
	}
}

static int add_node(reader *rd, int kind, yaml_mark_t mark)
{
	cnode *n;
	if (rd->count == rd->capacity) {
		size_t capacity = rd->capacity ? rd->capacity * 2 : 64;
		cnode *grown = realloc(rd->nodes, capacity * sizeof(*grown));
		if (!grown)
			return rli_error_oom();
		rd->nodes = grown;
		rd->capacity = capacity;
	}
	n = &rd->nodes[rd->count];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->target = n->first = n->last = n->next = -1;
	n->expanded = 1;
	n->mark = mark;
	if (rd->depth > 0) {
		cnode *parent = &rd->nodes[rd->stack[rd->depth - 1]];
		if (parent->last >= 0)
			rd->nodes[parent->last].next = (int)rd->count;
		else
			parent->first = (int)rd->count;
		parent->last = (int)rd->count;
	} else if (rd->root < 0) {
		rd->root = (int)rd->count;
	}
	return (int)rd->count++;
}

static int add_anchor(reader *rd, const yaml_char_t *name, int node)
{
	if (!name)
		return RLI_OK;
	if (rd->anchor_count == rd->anchor_capacity) {
		size_t capacity = rd->anchor_capacity ? rd->anchor_capacity * 2 : 16;
		anchor *grown = realloc(rd->anchors, capacity * sizeof(*grown));
		if (!grown)
			return rli_error_oom();
		rd->anchors = grown;
		rd->anchor_capacity = capacity;
	}
	if (!(rd->anchors[rd->anchor_count].name = strdup((const char *)name)))
		return rli_error_oom();
	rd->anchors[rd->anchor_count++].node = node;
	return RLI_OK;
}

/* An anchor may be given again; an alias names the latest one before it. */
static int find_anchor(const reader *rd, const yaml_char_t *name)
{
	for (size_t i = rd->anchor_count; i-- > 0;)
		if (strcmp(rd->anchors[i].name, (const char *)name) == 0)
			return rd->anchors[i].node;
	return -1;
}

/* YAML's own tags (!!str, !!int...) say what the text already says; any other names a type we do not build. */
static int check_tag(const reader *rd, const yaml_char_t *tag, yaml_mark_t mark)
{
	static const char *const plain[] = { "str", "int", "float", "bool", "null", "map", "seq" };
	if (!tag || strcmp((const char *)tag, "!") == 0)
		return RLI_OK;
	if (strncmp((const char *)tag, "tag:yaml.org,2002:", 18) == 0)
		for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
			if (strcmp((const char *)tag + 18, plain[i]) == 0)
				return RLI_OK;
	/* Shown as written: libyaml has already turned !! into YAML's prefix. */
	if (strncmp((const char *)tag, "tag:yaml.org,2002:", 18) == 0)
		return rli_error_set(RLI_EUSAGE, "%s:%d:%d: the tag !!%s: a configuration's values are plain YAML",
				     rd->path, LINE(mark), COLUMN(mark), (const char *)tag + 18);
	return rli_error_set(RLI_EUSAGE, "%s:%d:%d: the tag %s: a configuration's values are plain YAML", rd->path,
			     LINE(mark), COLUMN(mark), (const char *)tag);
}

/* Counts value(s) the document now stands for: past MAX_VALUES it is an alias bomb or no configuration. */
static int count(reader *rd, size_t values, yaml_mark_t mark)
{
	rd->expanded += values;
	if (rd->expanded > MAX_VALUES)
		return rli_error_set(RLI_EUSAGE, "%s:%d:%d: more than %d values, aliases expanded: not a configuration",
				     rd->path, LINE(mark), COLUMN(mark), MAX_VALUES);
	return RLI_OK;
}

static int on_scalar(reader *rd, const yaml_event_t *ev)
{
	const char *value = (const char *)ev->data.scalar.value;
	size_t length = ev->data.scalar.length;
	const char *tag = (const char *)ev->data.scalar.tag;
	int i, error;
	cnode *n;

	if ((error = check_tag(rd, ev->data.scalar.tag, ev->start_mark)) < 0 ||
	    (error = count(rd, 1, ev->start_mark)) < 0 || (i = add_node(rd, NODE_SCALAR, ev->start_mark)) < 0)
		return error < 0 ? error : i;
	n = &rd->nodes[i];
	if (!(n->text = malloc(length + 1)))
		return rli_error_oom();
	memcpy(n->text, value, length);
	n->text[length] = '\0';
	n->length = length;
	/* As YAML 1.1 (and so OmegaConf) resolves a plain scalar: null, Null, NULL, ~ and nothing are null. */
	n->is_null = (tag && strcmp(tag, "tag:yaml.org,2002:null") == 0) ||
		     (!tag && ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		      (length == 0 || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
		       strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0));
	return add_anchor(rd, ev->data.scalar.anchor, i);
}

static int on_start(reader *rd, const yaml_event_t *ev, int kind)
{
	const yaml_char_t *tag = kind == NODE_MAP ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
	const yaml_char_t *name = kind == NODE_MAP ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	int i, error;
	if (rd->depth == MAX_DEPTH)
		return rli_error_set(RLI_EUSAGE, "%s:%d:%d: nested more than %d deep: not a configuration", rd->path,
				     LINE(ev->start_mark), COLUMN(ev->start_mark), MAX_DEPTH);
	if ((error = check_tag(rd, tag, ev->start_mark)) < 0 || (error = count(rd, 1, ev->start_mark)) < 0 ||
	    (i = add_node(rd, kind, ev->start_mark)) < 0)
		return error < 0 ? error : i;
	rd->nodes[i].open = 1;
	rd->stack[rd->depth++] = i;
	return add_anchor(rd, name, i);
}

static void on_end(reader *rd)
{
	cnode *n = &rd->nodes[rd->stack[--rd->depth]];
	n->open = 0;
	for (int c = n->first; c >= 0; c = rd->nodes[c].next) {
		n->expanded += rd->nodes[c].expanded;
		if (n->expanded > MAX_VALUES)
			n->expanded = MAX_VALUES + 1; /* saturated: the count has failed the bound already */
	}
}

static int on_alias(reader *rd, const yaml_event_t *ev)
{
	int target = find_anchor(rd, ev->data.alias.anchor), i, error;
	char what[160];
	if (target < 0 || rd->nodes[target].open) {
		snprintf(what, sizeof(what), target < 0 ? "the alias *%.100s names no anchor before it"
							: "the alias *%.100s is inside the node its anchor names",
			 (const char *)ev->data.alias.anchor);
		return at(rd, ev->start_mark, what);
	}
	if ((error = count(rd, rd->nodes[target].expanded, ev->start_mark)) < 0 ||
	    (i = add_node(rd, NODE_ALIAS, ev->start_mark)) < 0)
		return error < 0 ? error : i;
	rd->nodes[i].target = target;
	rd->nodes[i].expanded = rd->nodes[target].expanded;
	return RLI_OK;
}

/* Builds the tree of the one document, refusing a second: OmegaConf (PyYAML's load) refuses it too. */
static int build(reader *rd, yaml_parser_t *parser)
{
	yaml_event_t ev;
	int error = RLI_OK, documents = 0, done = 0;

	while (!done && error == RLI_OK) {
		if (!yaml_parser_parse(parser, &ev))
			return syntax_error(rd, parser);
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++documents > 1)
				error = at(rd, ev.start_mark, "a second YAML document: a configuration is one document");
			break;
		case YAML_SCALAR_EVENT:
			error = on_scalar(rd, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
			error = on_start(rd, &ev, NODE_LIST);
			break;
		case YAML_MAPPING_START_EVENT:
			error = on_start(rd, &ev, NODE_MAP);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			on_end(rd);
			break;
		case YAML_ALIAS_EVENT:
			error = on_alias(rd, &ev);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	return error;
}

static int resolve(const reader *rd, int i)
{
	return rd->nodes[i].kind == NODE_ALIAS ? rd->nodes[i].target : i;
}

static int walk_map(reader *rd, int map, size_t prefix);

/* A NUL from a "\0" escape would cut the value short without a word. */
static int check_text(const reader *rd, const cnode *n)
{
	if (strlen(n->text) != n->length)
		return at(rd, n->mark, "a NUL character in a value");
	return RLI_OK;
}

/* A list of values is given as the command line gives it: comma-separated. */
static int visit_list(reader *rd, int list, int line)
{
	size_t size = 1, used = 0;
	char *joined;
	int error;
	for (int c = rd->nodes[list].first; c >= 0; c = rd->nodes[c].next)
		size += rd->nodes[resolve(rd, c)].length + 1;
	if (!(joined = malloc(size)))
		return rli_error_oom();
	joined[0] = '\0';
	for (int c = rd->nodes[list].first; c >= 0; c = rd->nodes[c].next) {
		const cnode *item = &rd->nodes[resolve(rd, c)];
		if (item->kind != NODE_SCALAR || item->is_null) {
			char what[MAX_KEY + 64];
			snprintf(what, sizeof(what), "%s: a list's items are values, not %s", rd->key,
				 item->kind == NODE_LIST ? "lists" : item->kind == NODE_MAP ? "mappings" : "nulls");
			error = at(rd, rd->nodes[c].mark, what);
			goto done;
		}
		if ((error = check_text(rd, item)) < 0)
			goto done;
		if (used)
			joined[used++] = ',';
		memcpy(joined + used, item->text, item->length + 1);
		used += item->length;
	}
	error = rd->visit(rd->ctx, rd->key, joined, line, 1);
done:
	free(joined);
	return error;
}

static int walk_value(reader *rd, int value, int line, size_t key_length)
{
	const cnode *n = &rd->nodes[resolve(rd, value)];
	int error;
	if (n->kind == NODE_MAP)
		return walk_map(rd, resolve(rd, value), key_length);
	if (n->kind == NODE_LIST)
		return visit_list(rd, resolve(rd, value), line);
	if (n->is_null)
		return RLI_OK;
	if ((error = check_text(rd, n)) < 0)
		return error;
	return rd->visit(rd->ctx, rd->key, n->text, line, 0);
}

/* Visits a mapping's values under rd->key[0..prefix), each key once. */
static int walk_map(reader *rd, int map, size_t prefix)
{
	char what[MAX_KEY + 96];
	for (int k = rd->nodes[map].first; k >= 0; k = rd->nodes[rd->nodes[k].next].next) {
		const cnode *key = &rd->nodes[resolve(rd, k)];
		int value = rd->nodes[k].next, error;
		size_t length = prefix;

		if (value < 0) /* libyaml gives every key a value, an empty scalar at least */
			break;
		if (key->kind != NODE_SCALAR || key->is_null || !key->length)
			return at(rd, rd->nodes[k].mark, "a key must be a name, not a list, a mapping or nothing");
		if ((error = check_text(rd, key)) < 0)
			return error;
		if (strcmp(key->text, "<<") == 0 && rd->nodes[k].kind == NODE_SCALAR)
			return at(rd, rd->nodes[k].mark, "'<<' (a YAML 1.1 merge key) is not read here: write the keys out");
		if (prefix + 1 + key->length >= sizeof(rd->key))
			return at(rd, rd->nodes[k].mark, "key too long");
		if (prefix)
			rd->key[length++] = '.';
		memcpy(rd->key + length, key->text, key->length + 1);
		length += key->length;
		/* OmegaConf refuses a key given twice in one mapping; silently taking the last would hide a typo. */
		for (int j = rd->nodes[map].first; j != k; j = rd->nodes[rd->nodes[j].next].next)
			if (strcmp(rd->nodes[resolve(rd, j)].text, key->text) == 0) {
				snprintf(what, sizeof(what), "the key '%s' is given twice (first on line %d)", rd->key,
					 LINE(rd->nodes[j].mark));
				return at(rd, rd->nodes[k].mark, what);
			}
		if ((error = walk_value(rd, value, LINE(rd->nodes[k].mark), length)) < 0)
			return error;
		rd->key[prefix] = '\0';
	}
	return RLI_OK;
}

int config_text_read(const char *path, const char *text, size_t length, config_visit_fn visit, void *ctx)
{
	reader rd;
	yaml_parser_t parser;
	const char *nul = memchr(text, '\0', length);
	int error = RLI_OK;

	memset(&rd, 0, sizeof(rd));
	rd.path = path;
	rd.text = text;
	rd.length = length;
	rd.root = -1;
	rd.visit = visit;
	rd.ctx = ctx;
	/* libyaml would call a NUL a control character; this names the usual cause, a binary file. */
	if (nul) {
		int line, column;
		place(&rd, (size_t)(nul - text), &line, &column);
		return rli_error_set(RLI_EUSAGE, "%s:%d: a NUL byte: this is not a YAML text file", path, line);
	}
	if (!yaml_parser_initialize(&parser))
		return rli_error_oom();
	/* OmegaConf opens the file as UTF-8; libyaml would also take UTF-16 by its byte order mark. */
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
	if ((error = build(&rd, &parser)) < 0)
		goto done;
	if (rd.root < 0 || (rd.nodes[rd.root].kind == NODE_SCALAR && rd.nodes[rd.root].is_null))
		goto done; /* an empty file, or comments alone: nothing is set */
	if (rd.nodes[resolve(&rd, rd.root)].kind != NODE_MAP) {
		error = at(&rd, rd.nodes[rd.root].mark,
			   rd.nodes[resolve(&rd, rd.root)].kind == NODE_LIST
				   ? "the configuration is a list, not a mapping of keys"
				   : "the configuration is a single value, not a mapping of keys");
		goto done;
	}
	error = walk_map(&rd, resolve(&rd, rd.root), 0);
done:
	yaml_parser_delete(&parser);
	for (size_t i = 0; i < rd.count; i++)
		free(rd.nodes[i].text);
	free(rd.nodes);
	for (size_t i = 0; i < rd.anchor_count; i++)
		free(rd.anchors[i].name);
	free(rd.anchors);
	return error;
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

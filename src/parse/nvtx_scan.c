/* nvtx_scan.c: an NVTX line read by a scanner of the plain JSON exporters write; any other line is left to yajl. */
#include "nvtx_internal.h"
#include "common/grow.h"
#include "common/utf8.h"

/*
 * Nsight's exports hold one flat object per line: ASCII keys, integers, short strings. yajl
 * reads such a line through a state machine and a callback per token, and that alone took
 * longer than everything our callbacks do with it. This scanner reads the subset of JSON such
 * lines are written in and gives our callbacks the same calls in the same order, one-letter
 * escapes undone as yajl undoes them. It never decides what yajl would: a byte it does not
 * expect (a \u escape, bytes that are no UTF-8, a control character, a numeral off the JSON grammar,
 * a nesting past 64 levels, anything after the object) declines the whole line, which yajl then
 * reads alone and judges (nvtx_read.c). Whatever the scanner accepts is valid JSON that yajl
 * would read to the same tokens.
 */

/* JSON's blanks within a line, as far as the scanner goes: yajl's \v and \f decline. */
static inline const unsigned char *skip_blanks(const unsigned char *p, const unsigned char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* The one-letter escapes JSON has, each with the byte it stands for (0: none). */
static const unsigned char escaped_byte[256] = {
	['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/*
 * The end of a string whose opening quote is just before p: the closing quote, or NULL when the
 * string holds a \u escape, a control character, DEL or bytes that are no well-formed UTF-8, or
 * does not close. *escapes is set when it holds a one-letter escape.
 */
static inline const unsigned char *string_end(const unsigned char *p, const unsigned char *end, int *escapes)
{
	for (; p < end; p++) {
		unsigned char c = *p;
		if (c == '"')
			return p;
		if (c == '\\') {
			if (++p == end || !escaped_byte[*p])
				return NULL;
			*escapes = 1;
		} else if (c >= 0x80) {
			/* Well-formed UTF-8 only, which yajl's looser check also passes; any other byte declines. */
			uint32_t code_point;
			size_t length = rli_utf8_sequence_within(p, (size_t)(end - p), &code_point);
			if (length == 0)
				return NULL;
			p += length - 1;
		} else if (c < 0x20 || c == 0x7f) {
			return NULL;
		}
	}
	return NULL;
}

/*
 * The text of a string from `from` to its closing quote `to`, as yajl hands it to a callback:
 * in place, or with its escapes undone into n->unescaped. NULL when memory ran out.
 */
static const char *string_text(nvtx_ctx *n, const unsigned char *from, const unsigned char *to, int escapes,
			       size_t *length)
{
	size_t out = 0;
	if (!escapes) {
		*length = (size_t)(to - from);
		return (const char *)from;
	}
	if (RLI_GROW(&n->unescaped, &n->unescaped_capacity, (size_t)(to - from), 256) < 0)
		return NULL;
	for (const unsigned char *p = from; p < to; p++)
		n->unescaped[out++] = *p == '\\' ? (char)escaped_byte[*++p] : (char)*p;
	*length = out;
	return n->unescaped;
}

static inline int is_digit(unsigned char c)
{
	return (unsigned)(c - '0') <= 9;
}

/* The end of a numeral in JSON's grammar starting at p, or NULL. */
static const unsigned char *number_end(const unsigned char *p, const unsigned char *end)
{
	if (p < end && *p == '-')
		p++;
	if (p == end || !is_digit(*p))
		return NULL;
	if (*p++ != '0')
		while (p < end && is_digit(*p))
			p++;
	if (p < end && *p == '.') {
		if (++p == end || !is_digit(*p))
			return NULL;
		while (p < end && is_digit(*p))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || !is_digit(*p))
			return NULL;
		while (p < end && is_digit(*p))
			p++;
	}
	return p;
}

/* The end of the literal true, false or null starting at p (V_BOOL or V_NULL in *kind), or NULL. */
static const unsigned char *literal_end(const unsigned char *p, const unsigned char *end, int *kind)
{
	static const struct {
		const char *text;
		size_t length;
		int kind;
	} literals[] = {{"true", 4, V_BOOL}, {"false", 5, V_BOOL}, {"null", 4, V_NULL}};
	for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++)
		if ((size_t)(end - p) >= literals[i].length && memcmp(p, literals[i].text, literals[i].length) == 0) {
			*kind = literals[i].kind;
			return p + literals[i].length;
		}
	return NULL;
}

/* The end of a string, number or literal starting at p, or NULL. */
static const unsigned char *scalar_end(const unsigned char *p, const unsigned char *end)
{
	int kind, escapes = 0;
	if (*p == '"') {
		const unsigned char *close = string_end(p + 1, end, &escapes);
		return close ? close + 1 : NULL;
	}
	if (*p == '-' || is_digit(*p))
		return number_end(p, end);
	return literal_end(p, end, &kind);
}

/*
 * Past `"key" :` and the blanks after it, with p at the opening quote (the key's closing quote in
 * *close, whether it holds escapes in *escapes); NULL if that is not what follows.
 */
static const unsigned char *member_key(const unsigned char *p, const unsigned char *end, const unsigned char **close,
				       int *escapes)
{
	if (p == end || *p != '"' || !(p = string_end(p + 1, end, escapes)))
		return NULL;
	*close = p;
	p = skip_blanks(p + 1, end);
	if (p == end || *p != ':')
		return NULL;
	p = skip_blanks(p + 1, end);
	return p < end ? p : NULL;
}

#define MAX_NESTING 64

/*
 * Past a nested object or array starting at p, its content checked but read by nobody (a value
 * inside a line's value is nobody's, as in the callbacks), or NULL.
 */
static const unsigned char *nested_end(const unsigned char *p, const unsigned char *end)
{
	uint64_t is_object = 0; /* bit 0: the innermost open level */
	const unsigned char *close;
	int depth = 0, escapes;
	for (;;) {
		/* p is at a value. */
		if (*p == '{' || *p == '[') {
			if (depth == MAX_NESTING)
				return NULL;
			is_object = is_object << 1 | (*p == '{');
			depth++;
			p = skip_blanks(p + 1, end);
			if (p == end)
				return NULL;
			if (*p == ((is_object & 1) ? '}' : ']')) {
				/* Empty: the level ends where it began. */
				p++;
				is_object >>= 1;
				depth--;
			} else {
				if ((is_object & 1) && !(p = member_key(p, end, &close, &escapes)))
					return NULL;
				continue;
			}
		} else if (!(p = scalar_end(p, end))) {
			return NULL;
		}
		/* After a value: commas lead to the next one, closers end levels. */
		for (;;) {
			if (depth == 0)
				return p;
			p = skip_blanks(p, end);
			if (p == end)
				return NULL;
			if (*p == ',') {
				p = skip_blanks(p + 1, end);
				if (p == end || ((is_object & 1) && !(p = member_key(p, end, &close, &escapes))))
					return NULL;
				break;
			}
			if (*p != ((is_object & 1) ? '}' : ']'))
				return NULL;
			p++;
			is_object >>= 1;
			depth--;
		}
	}
}

/*
 * Reads one line (without its newline) into n's fields, as yajl's callbacks would:
 * NVTX_SCAN_OBJECT when it held one object and nothing else, NVTX_SCAN_BLANK when only blanks,
 * NVTX_SCAN_DECLINED when yajl must read it, -1 when memory ran out (n->oom).
 */
int rli_nvtx_scan_line(nvtx_ctx *n, const unsigned char *line, size_t length)
{
	const unsigned char *p = line, *end = line + length;

	p = skip_blanks(p, end);
	if (p == end)
		return NVTX_SCAN_BLANK;
	if (*p != '{')
		return NVTX_SCAN_DECLINED;
	rli_nvtx_line_reset(n);
	p = skip_blanks(p + 1, end);
	if (p < end && *p == '}') {
		p++;
	} else {
		for (;;) {
			const unsigned char *key = p + 1, *value, *close;
			const char *text;
			size_t text_length;
			int kept = 1, kind, escapes = 0;
			if (!(value = member_key(p, end, &close, &escapes)))
				return NVTX_SCAN_DECLINED;
			if (!(text = string_text(n, key, close, escapes, &text_length)))
				return -1;
			rli_nvtx_top_key(n, text, text_length);
			switch (*value) {
			case '"':
				escapes = 0;
				if (!(p = string_end(value + 1, end, &escapes)))
					return NVTX_SCAN_DECLINED;
				if (!(text = string_text(n, value + 1, p, escapes, &text_length)))
					return -1;
				kept = n->key->on_string(n, text, text_length);
				p++;
				break;
			case '{':
			case '[':
				if (!(p = nested_end(value, end)))
					return NVTX_SCAN_DECLINED;
				kept = rli_nvtx_top_other(n, *value == '{' ? V_OBJECT : V_ARRAY);
				break;
			case 't':
			case 'f':
			case 'n':
				if (!(p = literal_end(value, end, &kind)))
					return NVTX_SCAN_DECLINED;
				kept = rli_nvtx_top_other(n, kind);
				break;
			default:
				if (!(p = number_end(value, end)))
					return NVTX_SCAN_DECLINED;
				kept = n->key->on_number(n, (const char *)value, (size_t)(p - value));
				break;
			}
			if (!kept)
				return -1; /* the handlers stop only when memory ran out */
			p = skip_blanks(p, end);
			if (p == end)
				return NVTX_SCAN_DECLINED;
			if (*p == '}') {
				p++;
				break;
			}
			if (*p != ',')
				return NVTX_SCAN_DECLINED;
			p = skip_blanks(p + 1, end);
		}
	}
	return skip_blanks(p, end) == end ? NVTX_SCAN_OBJECT : NVTX_SCAN_DECLINED;
}

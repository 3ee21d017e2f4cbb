/* nvtx_scan.c: an NVTX line read by a scanner of the plain JSON exporters write; any other line is left to yajl. */
#include "nvtx_internal.h"

/*
 * Nsight's exports hold one flat object per line: ASCII keys, integers, short strings. yajl
 * reads such a line through a state machine and a callback per token, and that alone took
 * longer than everything our callbacks do with it. This scanner reads the subset of JSON such
 * lines are written in and gives our callbacks the same calls in the same order. It never
 * decides what yajl would: a byte it does not expect (an escape, a byte past ASCII, a control
 * character, a numeral off the JSON grammar, a nesting past 64 levels, anything after the object)
 * declines the whole line, which yajl then reads alone and judges (nvtx_read.c). Whatever the
 * scanner accepts is valid JSON that yajl would read to the same tokens.
 */

/* JSON's blanks within a line, as far as the scanner goes: yajl's \v and \f decline. */
static inline const unsigned char *skip_blanks(const unsigned char *p, const unsigned char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/*
 * The end of a string whose opening quote is just before p: the closing quote, or NULL when the
 * string holds an escape, a control character or a byte past ASCII, or does not close.
 */
static inline const unsigned char *string_end(const unsigned char *p, const unsigned char *end)
{
	for (; p < end; p++) {
		unsigned char c = *p;
		if (c == '"')
			return p;
		if (c < 0x20 || c >= 0x7f || c == '\\')
			return NULL;
	}
	return NULL;
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
	int kind;
	if (*p == '"') {
		const unsigned char *close = string_end(p + 1, end);
		return close ? close + 1 : NULL;
	}
	if (*p == '-' || is_digit(*p))
		return number_end(p, end);
	return literal_end(p, end, &kind);
}

/* Past `"key" :` and the blanks after it, with p at the opening quote; NULL if that is not what follows. */
static const unsigned char *member_key(const unsigned char *p, const unsigned char *end)
{
	if (p == end || *p != '"' || !(p = string_end(p + 1, end)))
		return NULL;
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
	int depth = 0;
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
				if ((is_object & 1) && !(p = member_key(p, end)))
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
				if (p == end || ((is_object & 1) && !(p = member_key(p, end))))
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
			int kept = 1, kind;
			if (!(value = member_key(p, end)))
				return NVTX_SCAN_DECLINED;
			close = memchr(key, '"', (size_t)(value - key));
			rli_nvtx_top_key(n, (const char *)key, (size_t)(close - key));
			switch (*value) {
			case '"':
				if (!(p = string_end(value + 1, end)))
					return NVTX_SCAN_DECLINED;
				kept = n->key->on_string(n, (const char *)value + 1, (size_t)(p - value - 1));
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

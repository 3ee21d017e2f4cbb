/* nvtx_internal.h: what the NVTX parser's parts share: a line's fields, the unit's state, Python's numbers. */
#ifndef RLI_PARSE_NVTX_INTERNAL_H
#define RLI_PARSE_NVTX_INTERNAL_H

#include "parse_internal.h"
#include "json_stream.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- numbers with Python's arithmetic (timeline.md §5.3) ------------------- */

/* A JSON number as Python holds it: an int when written as one, else a float. */
typedef struct {
	union {
		int64_t i;
		double d;
	};
	int is_int;
} py_number;

static inline int py_number_from_text(py_number *out, const char *text, size_t length)
{
	if (rli_text_to_int64(&out->i, text, length) == 0) {
		out->is_int = 1;
		return 0;
	}
	out->is_int = 0;
	return rli_text_to_double(&out->d, text, length);
}

static inline double py_as_double(const py_number *x)
{
	return x->is_int ? (double)x->i : x->d;
}

/* a + b (or a - b): exact when both are ints, like Python's unbounded ints. */
static inline py_number py_add(const py_number *a, const py_number *b, int subtract)
{
	py_number r;
	memset(&r, 0, sizeof(r));
	if (a->is_int && b->is_int) {
		int64_t v;
		int overflow = subtract ? __builtin_sub_overflow(a->i, b->i, &v)
					: __builtin_add_overflow(a->i, b->i, &v);
		if (!overflow) {
			r.is_int = 1;
			r.i = v;
			return r;
		}
		/* Beyond int64 no profiler goes; long double keeps it close. */
		r.d = (double)(subtract ? (long double)a->i - (long double)b->i
					: (long double)a->i + (long double)b->i);
		return r;
	}
	r.d = subtract ? py_as_double(a) - py_as_double(b) : py_as_double(a) + py_as_double(b);
	return r;
}

/* x / 1000 as Python divides: an int is divided exactly and rounded once. */
static inline double py_div1000(const py_number *x)
{
	const int64_t exact = (int64_t)1 << 53;
	if (!x->is_int)
		return x->d / 1000;
	if (x->i > -exact && x->i < exact)
		return (double)x->i / 1000; /* both operands exact, so one IEEE rounding */
	return (double)((long double)x->i / 1000.0L);
}

/* ---- parsing one .jsonl --------------------------------------------------- */

enum { F_OTHER = 0, F_TABLE, F_ID, F_VALUE, F_NAME, F_START_TIME, F_EVENT_TYPE, F_START, F_END, F_TEXT_ID, F_COUNT };
/* V_OTHER: a numeral no int64 or double holds, or a text too long to keep; the rest say what they are. */
enum { V_ABSENT = 0, V_STRING, V_NUMBER, V_NULL, V_OTHER, V_BOOL, V_OBJECT, V_ARRAY };
/* The tables a line may belong to that matter here. */
enum { T_OTHER = 0, T_STRING_IDS, T_META_DATA, T_ANALYSIS };

/* Longest text kept for table names, ids and numbers; longer ones match nothing. */
#define NVTX_SHORT_MAX 128

typedef struct {
	size_t length;
	char text[NVTX_SHORT_MAX];
} short_value;

/* A string that may be long (StringIds values, metadata names and values). */
typedef struct {
	int kind;
	char *text;
	size_t length, capacity;
} long_value;

/*
 * Ranges are kept until the file ends (rank, labels and the global start may come last), and
 * there can be millions: each waits in the very row of the table it will become, so that no
 * other copy of it is ever made. Until the file ends such a row holds, instead of its final
 * values (rli_nvtx_settle_rows):
 *   name         the textId's key in string_ids (RLI_STRPOOL_NONE if textId is no string or number)
 *   start_ms     the start as read: the bits of a range_value (an int64 or a double)
 *   duration_ms  the end as read, likewise
 *   tid_is_text  the kinds of both and which member holds each (RANGE_* below)
 * A start or end that is no number keeps, instead of its value, the line it was on, for the
 * message that names it.
 */
typedef union {
	int64_t i;
	double d;
} range_value;

#define RANGE_KIND_MASK 0x7u /* V_* */
#define RANGE_IS_INT 0x8u
#define RANGE_END_SHIFT 4 /* the start's bits are the low four, the end's the high four */

/*
 * A line's start or end. Plain digits (kernels and other tables have a start and an end too) are
 * only kept, right-aligned behind zeros, and read once the line is known to be a range; any
 * other number is read in its callback.
 */
typedef struct {
	range_value value;     /* when read: which member as is_int */
	uint8_t is_int;
	uint8_t digits_length; /* 1 to 16: not read yet, the last digits_length bytes of digits */
	char digits[16];
} time_field;

/* textIds seen lately, by their value's low bits: a capture's ranges cycle through a few labels. */
#define TEXT_ID_CACHE 64

typedef struct nvtx_ctx nvtx_ctx;
typedef int (*value_handler)(nvtx_ctx *n, const char *text, size_t length);
typedef struct field_desc field_desc;

/* A key of the line's object: its field, and what a number or a string after it does. */
struct field_desc {
	int field; /* F_* */
	value_handler on_number, on_string;
};

struct nvtx_ctx {
	rli_json json;
	rli_unit *unit;
	uint64_t line;
	const field_desc *key; /* the key whose value comes next, or where the parser is (top_level, nothing) */
	/*
	 * The line's fields as they come, each read or copied in its callback, so that the end of a
	 * line has nothing left to parse: kind[] holds each field's V_* (V_ABSENT until seen).
	 */
	uint8_t kind[F_COUNT];
	short_value id, start_time, text_id; /* as written: keys of string_ids, the global start */
	int text_id_plain;                   /* textId is plain decimal digits: text_id_number, no text */
	unsigned past_int64;                 /* bit F_ID, F_TEXT_ID: an integer numeral no int64 holds */
	size_t past_int64_length[2];         /* its length: [0] id, [1] textId */
	uint32_t text_id_number;
	int table; /* T_* */
	int event_type_is_60;
	time_field start, end;
	long_value value, name;
	/* across lines */
	int any_start_time, any_range;
	int64_t rank;
	int analysis_seen; /* an ANALYSIS_DETAILS line was read (the last one sets the global start) */
	int no_resume;     /* a part of a file (nvtx_parts.c): a line too long to hold is left to the whole file's reading */
	int have_global_start;
	short_value global_start;
	uint8_t global_start_kind;
	uint64_t global_start_line;
	rli_strpool string_ids;
	char **string_values; /* id -> value, later wins */
	size_t string_capacity;
	struct {
		uint32_t number_plus_1; /* 0: empty */
		uint32_t id;            /* in string_ids */
	} text_id_cache[TEXT_ID_CACHE];
	/*
	 * Where a range first used each textId (by its id in string_ids; 0: none yet), and the first
	 * range whose textId is no string or number: the line a "No valid role" warning names.
	 */
	uint64_t *text_id_line;
	size_t text_id_line_capacity;
	uint64_t bad_text_id_line;
	rli_events *rows;  /* the table the ranges wait in, from row first_row on */
	size_t first_row, range_count;
	int oom;
	char *unescaped; /* a scanned string with its escapes undone (nvtx_scan.c) */
	size_t unescaped_capacity;
};

/* The key string_ids knows a value by: its kind, then its text. */
static inline int key_of(char *key, int kind, const short_value *v)
{
	key[0] = kind == V_STRING ? 's' : kind == V_NUMBER ? 'n' : 'o';
	memcpy(key + 1, v->text, v->length);
	return (int)v->length + 1;
}

/* ---- nvtx_line.c: one line's JSON, field by field, and what each line leaves ---- */

extern const yajl_callbacks rli_nvtx_callbacks;
/* A new line: its fields unset, the parser at the top level. */
void rli_nvtx_line_reset(nvtx_ctx *n);
void rli_nvtx_top_level(nvtx_ctx *n);
/* The scanner's calls: a key of the line's object (its value's handlers in n->key), and a value that is no text. */
void rli_nvtx_top_key(nvtx_ctx *n, const char *key, size_t length);
int rli_nvtx_top_other(nvtx_ctx *n, int kind);
/* Everything one line contributes; 0, or -1 when the unit failed or memory ran out. */
int rli_nvtx_line_done(nvtx_ctx *n);

/* ---- nvtx_scan.c: the plain lines, read without yajl ---------------------- */

enum { NVTX_SCAN_DECLINED = 0, NVTX_SCAN_OBJECT, NVTX_SCAN_BLANK };
/*
 * One line (no newline) into n's fields, as rli_nvtx_callbacks would read it: NVTX_SCAN_OBJECT,
 * NVTX_SCAN_BLANK (blanks only), NVTX_SCAN_DECLINED (for yajl to read and judge), or -1 (oom).
 */
int rli_nvtx_scan_line(nvtx_ctx *n, const unsigned char *line, size_t length);

/* ---- nvtx_read.c: the bytes, line by line ----------------------------------- */

/*
 * Reads the source line by line: scanned where the scanner can, else by yajl; with scan 0, every
 * line by yajl alone (the reference reading, which tests compare with). 0, or -1 (failure
 * recorded or oom); *empty when it holds no byte. With n->no_resume, 1 for a line too long to hold.
 */
int rli_nvtx_read_lines(nvtx_ctx *n, rli_bytes *source, int scan, int *empty);

/* ---- nvtx.c --------------------------------------------------------------- */

/* A reading's state for the unit, its ranges waiting in rows from their current end on. */
void rli_nvtx_ctx_init(nvtx_ctx *n, rli_unit *unit, rli_events *rows);
void rli_nvtx_ctx_dispose(nvtx_ctx *n);
/*
 * After the reading (read_whole: it reached the end without failing; empty: the file has no
 * byte): the file's failures, or its rows settled; a failed unit leaves no row.
 */
void rli_nvtx_conclude(nvtx_ctx *n, int read_whole, int empty);

/* The format's parse_bytes with every line read by yajl alone: what the scanned reading must equal. */
void rli_nvtx_parse_bytes_reference(rli_unit *unit, rli_bytes *source, rli_events *rows);

/* ---- nvtx_parts.c: one large file read in parts on several threads ------------ */

/*
 * With threads to spare (unit->spare_threads) and a large plain file, its parts, cut at line
 * ends, are read on a thread each, and their rows and what their lines said merged in file
 * order: the rows, warnings and failures of reading it whole. 1 when done so (the unit then
 * holds its verdict); 0 when the file is to be read whole from source, rewound (too small, no
 * thread, gzip, or a part met a failure or a line too long to hold: the whole reading words it).
 */
int rli_nvtx_parse_parts(rli_unit *unit, rli_bytes *source, rli_events *rows);

/* ---- nvtx_table.c: string ids, and the waiting rows settled into the table ---- */

/* A StringIds line: its value under its id (later wins). 0, or -1 when memory ran out. */
int rli_nvtx_remember_string(nvtx_ctx *n);
/* Every range kept as its row, once the file has ended: labels, rank and times settled. */
void rli_nvtx_settle_rows(nvtx_ctx *n);

#endif

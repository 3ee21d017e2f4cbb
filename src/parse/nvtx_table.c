/* nvtx_table.c: the string ids of an NVTX capture, and its ranges settled into rows once the file has ended. */
#include "nvtx_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rli_nvtx_remember_string(nvtx_ctx *n)
{
	char key[NVTX_SHORT_MAX + 1];
	int key_length = key_of(key, n->kind[F_ID], &n->id);
	uint32_t id = rli_strpool_intern(&n->string_ids, key, (size_t)key_length);
	char *value;
	if (id == RLI_STRPOOL_NONE)
		return -1;
	if (id >= n->string_capacity) {
		size_t grown = n->string_capacity ? n->string_capacity * 2 : 64;
		char **p;
		while (grown <= id)
			grown *= 2;
		p = realloc(n->string_values, grown * sizeof(*p));
		if (!p)
			return -1;
		memset(p + n->string_capacity, 0, (grown - n->string_capacity) * sizeof(*p));
		n->string_values = p;
		n->string_capacity = grown;
	}
	/*
	 * A label is the string itself (a \u0000 in it as U+FFFD, not its end); a number shows as its
	 * digits; anything else as nothing.
	 */
	if (n->value.kind == V_STRING || n->value.kind == V_NUMBER)
		value = rli_text_copy(n->value.text, n->value.length, NULL);
	else
		value = rli_strdup("");
	if (!value)
		return -1;
	free(n->string_values[id]);
	n->string_values[id] = value;
	return 0;
}

/* A number kept as Python would hold it; V_OTHER for a numeral no int64 or double can hold. */
static uint8_t number_value(py_number *out, int kind, const short_value *v)
{
	if (kind != V_NUMBER)
		return (uint8_t)kind;
	return py_number_from_text(out, v->text, v->length) == 0 ? V_NUMBER : V_OTHER;
}

/* What keep_value kept: the flags, and the number (or line) from the slot. */
static py_number kept_value(const double *slot, unsigned flags)
{
	py_number x;
	range_value value;
	memcpy(&value, slot, sizeof(value));
	memset(&x, 0, sizeof(x));
	x.is_int = (flags & RANGE_IS_INT) != 0;
	if (x.is_int || (flags & RANGE_KIND_MASK) != V_NUMBER)
		x.i = value.i;
	else
		x.d = value.d;
	return x;
}

/* A range's start, end or the global start must be a number; -1 records the failure. */
static int require_number(nvtx_ctx *n, int kind, const char *what, uint64_t line)
{
	if (kind == V_NUMBER)
		return 0;
	rli_notes_add(&n->unit->failures, RLI_LOG_ERROR,
		      "Failed to parse JSON file %s: '%s' must be a number, got %s at line %llu", n->unit->path,
		      what,
		      kind == V_STRING   ? "a string"
		      : kind == V_OTHER  ? "a value that is no finite number"
		      : kind == V_BOOL   ? "a boolean"
		      : kind == V_OBJECT ? "an object"
		      : kind == V_ARRAY  ? "an array"
					 : "nothing",
		      (unsigned long long)line);
	return -1;
}

/*
 * Row i made final, any row: 1, or 0 when the unit's rows end before it (a warning or a failure
 * was recorded, or memory ran out). label_of, domain and tid are the strings settled so far.
 */
static int settle_row(nvtx_ctx *n, size_t i, const py_number *global_start, uint32_t *label_of, uint32_t *domain,
		      uint32_t *tid)
{
	rli_unit *unit = n->unit;
	rli_events *rows = n->rows;
	const uint32_t text_id = rows->name[i];
	const unsigned start_flags = rows->tid_is_text[i] & 0xfu;
	const unsigned end_flags = rows->tid_is_text[i] >> RANGE_END_SHIFT;
	const unsigned start_kind = start_flags & RANGE_KIND_MASK, end_kind = end_flags & RANGE_KIND_MASK;
	const char *label = text_id < n->string_capacity ? n->string_values[text_id] : NULL;
	py_number start, stop, sum, length;
	double start_ms, duration_ms;
	start = kept_value(&rows->start_ms[i], start_flags);
	stop = kept_value(&rows->duration_ms[i], end_flags);
	if (!label || !label[0]) {
		/*
		 * Stop at the first bad range and keep what came before, as the reference does. It is the
		 * first range with its textId, so the line noted for the textId is the range's own.
		 */
		uint64_t line = text_id == RLI_STRPOOL_NONE ? n->bad_text_id_line
				: text_id < n->text_id_line_capacity ? n->text_id_line[text_id] : 0;
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s:%llu: No valid role for Analysis (%s); the unit's later "
			      "ranges are skipped", unit->path, (unsigned long long)line,
			      text_id == RLI_STRPOOL_NONE ? "its textId is no string or number"
			      : !label ? "no StringIds line gives its textId a value"
				       : "its textId's StringIds value is empty or no string or number");
		return 0;
	}
	if (start_kind == V_NULL || end_kind == V_NULL) {
		/* A value that is no number keeps its line in its slot. */
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s:%llu: No valid timing for Analysis; the unit's later "
			      "ranges are skipped", unit->path,
			      (unsigned long long)(start_kind == V_NULL ? start.i : stop.i));
		return 0;
	}
	if (require_number(n, (int)start_kind, "start", (uint64_t)start.i) < 0 ||
	    require_number(n, (int)end_kind, "end", (uint64_t)stop.i) < 0)
		return 0;
	sum = py_add(&start, global_start, 0);
	length = py_add(&stop, &start, 1);
	start_ms = py_div1000(&sum) / 1000;
	duration_ms = py_div1000(&length) / 1000;
	if (!isfinite(start_ms) || !isfinite(duration_ms)) {
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s: No valid timing for Analysis; the unit's later ranges "
			      "are skipped", unit->path);
		return 0;
	}
	/* Strings in the order rows used to bring them: the label, then for the first row domain and tid. */
	if (label_of[text_id] == RLI_STRPOOL_NONE) {
		label_of[text_id] = rli_strpool_intern(&rows->strings, label, strlen(label));
		if (*domain == RLI_STRPOOL_NONE && label_of[text_id] != RLI_STRPOOL_NONE)
			*domain = rli_strpool_intern(&rows->strings, "default", strlen("default"));
		if (*tid == RLI_STRPOOL_NONE && *domain != RLI_STRPOOL_NONE)
			*tid = rli_strpool_intern(&rows->strings, unit->tid, strlen(unit->tid));
		if (label_of[text_id] == RLI_STRPOOL_NONE || *domain == RLI_STRPOOL_NONE || *tid == RLI_STRPOOL_NONE) {
			unit->status = RLI_ERROR;
			return 0;
		}
	}
	rows->name[i] = rows->role[i] = label_of[text_id];
	rows->domain[i] = *domain;
	rows->tid[i] = *tid;
	rows->tid_is_text[i] = 1;
	rows->rank_id[i] = n->rank;
	rows->start_ms[i] = start_ms;
	rows->duration_ms[i] = duration_ms;
	return 1;
}

/*
 * Rows from..to-1 hold the start and the length in ns, as doubles: made ms as py_div1000 and the
 * division after it do for an integer below 2^53, (double)x / 1000 / 1000, exactly. Apart from
 * the rest, as a loop of divisions alone runs them side by side (a division takes some 13 cycles
 * to come out, four a row were most of the settling).
 */
static void divide_ns(rli_events *rows, size_t from, size_t to)
{
	double *start = rows->start_ms, *duration = rows->duration_ms;
	for (size_t i = from; i < to; i++)
		start[i] = start[i] / 1000 / 1000;
	for (size_t i = from; i < to; i++)
		duration[i] = duration[i] / 1000 / 1000;
}

/*
 * The settled rows first_row..end-1 less those that start before the clock's start or end before
 * they start (decisions.md: nonsense that would mislead is a warning naming the row, and the row is
 * skipped): the rows kept close up in order. Returns the rows' new end.
 */
static size_t drop_nonsense(nvtx_ctx *n, size_t end)
{
	rli_events *rows = n->rows;
	size_t kept = n->first_row, dropped = 0, first = 0;
	double first_start = 0, first_duration = 0;
	for (size_t i = n->first_row; i < end; i++) {
		if (rows->start_ms[i] < 0 || rows->duration_ms[i] < 0) {
			if (dropped++ == 0) {
				first = i - n->first_row + 1;
				first_start = rows->start_ms[i];
				first_duration = rows->duration_ms[i];
			}
			continue;
		}
		if (kept != i)
			rli_events_move_row(rows, kept, i);
		kept++;
	}
	if (dropped)
		rli_notes_add(&n->unit->log, RLI_LOG_WARN, "%s: %zu range(s) that start before the clock's start or end "
			      "before they start skipped (the first: range %zu of the file, start %.17g ms, duration %.17g ms)",
			      n->unit->path, dropped, first, first_start, first_duration);
	return kept;
}

/*
 * The ranges' rows made final, in place, now that the file has ended: times from the global start,
 * labels, tid and rank. A range that cannot be a row ends the unit's rows there, as the
 * reference stops at it and keeps what came before.
 */
void rli_nvtx_settle_rows(nvtx_ctx *n)
{
	rli_unit *unit = n->unit;
	rli_events *rows = n->rows;
	const size_t end = n->first_row + n->range_count;
	py_number global_start;
	int global_kind;
	uint32_t *label_of = NULL; /* textId key -> the label's id in the table's strings */
	uint32_t domain = RLI_STRPOOL_NONE, tid = RLI_STRPOOL_NONE;
	const unsigned both_integers = (V_NUMBER | RANGE_IS_INT) | (V_NUMBER | RANGE_IS_INT) << RANGE_END_SHIFT;
	size_t i = n->first_row, pending = n->first_row; /* rows pending..i-1 hold ns still to divide */
	memset(&global_start, 0, sizeof(global_start));
	if (n->rank < 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Path %s: No valid rank for Analysis", unit->path);
		goto done;
	}
	if (!n->have_global_start) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Path %s: No valid global start time for Analysis",
			      unit->path);
		goto done;
	}
	global_kind = number_value(&global_start, n->global_start_kind, &n->global_start);
	if (n->range_count && require_number(n, global_kind, "startTime", n->global_start_line) < 0)
		goto done;
	if (n->string_capacity) {
		label_of = malloc(n->string_capacity * sizeof(*label_of));
		if (!label_of) {
			unit->status = RLI_ERROR;
			goto done;
		}
		for (size_t id = 0; id < n->string_capacity; id++)
			label_of[id] = RLI_STRPOOL_NONE;
	}
	for (; i < end; i++) {
		const uint32_t text_id = rows->name[i];
		/*
		 * The common row first: a label already used, and integers for start, end and the global
		 * start, well inside 2^53: py_add and py_div1000 come to exactly this.
		 */
		if (text_id < n->string_capacity && label_of[text_id] != RLI_STRPOOL_NONE &&
		    rows->tid_is_text[i] == both_integers && global_start.is_int) {
			const int64_t exact = (int64_t)1 << 53;
			int64_t first, last, sum, length;
			memcpy(&first, &rows->start_ms[i], sizeof(first));
			memcpy(&last, &rows->duration_ms[i], sizeof(last));
			if (!__builtin_add_overflow(first, global_start.i, &sum) &&
			    !__builtin_sub_overflow(last, first, &length) && sum > -exact && sum < exact &&
			    length > -exact && length < exact) {
				rows->name[i] = rows->role[i] = label_of[text_id];
				rows->domain[i] = domain;
				rows->tid[i] = tid;
				rows->tid_is_text[i] = 1;
				rows->rank_id[i] = n->rank;
				rows->start_ms[i] = (double)sum; /* divided by divide_ns, below */
				rows->duration_ms[i] = (double)length;
				continue;
			}
		}
		divide_ns(rows, pending, i);
		pending = i + 1; /* settle_row leaves its row final, or the rows end before it */
		if (!settle_row(n, i, &global_start, label_of, &domain, &tid))
			break;
	}
	if (pending < i)
		divide_ns(rows, pending, i);
	i = drop_nonsense(n, i);
done:
	rli_events_truncate(rows, i);
	free(label_of);
}


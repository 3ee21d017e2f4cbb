/* memory_unit.c: one memory capture: its operator_memory.csv, its trace_view.json, and the rows they must parse to. */
#include "memory.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The latest op of a name with a call stack, as the generator walks time forward. */
typedef struct {
	int set;
	double ts_us, dur_us;
	const char *stack, *top;
} last_op;

/* A growable byte buffer for the second thread's events, which follow the first thread's in the file. */
typedef struct {
	char *data;
	size_t length, capacity;
	int failed;
} byte_buffer;

static void buffer_printf(byte_buffer *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void buffer_printf(byte_buffer *b, const char *fmt, ...)
{
	va_list ap;
	int length;
	va_start(ap, fmt);
	length = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (length < 0 || b->failed)
		return;
	if (b->length + (size_t)length + 1 > b->capacity) {
		size_t grown = b->capacity ? b->capacity * 2 : 1 << 16;
		char *p;
		while (grown < b->length + (size_t)length + 1)
			grown *= 2;
		if (!(p = realloc(b->data, grown))) {
			b->failed = 1;
			return;
		}
		b->data = p;
		b->capacity = grown;
	}
	va_start(ap, fmt);
	vsnprintf(b->data + b->length, (size_t)length + 1, fmt, ap);
	va_end(ap);
	b->length += (size_t)length;
}

/* ---- one capture -------------------------------------------------------------- */

/* Fixed three decimals, as operator_memory.csv writes its µs. */
static void format_us3(char *buf, size_t size, int64_t nanos)
{
	snprintf(buf, size, "%lld.%03lld", (long long)(nanos / 1000), (long long)(nanos % 1000));
}

typedef struct {
	const synth_plan *plan;
	synth_memory_run *run;           /* NULL while sizing */
	const synth_unit *unit;
	size_t unit_index;
	synth_out *csv, *trace;    /* trace NULL while sizing */
	byte_buffer second;        /* thread 2's events */
	int first_event;
	uint64_t pid;
	last_op last[SYNTH_MEMORY_WORKSPACE + 1];
	int64_t resident_half_kb;  /* blocks never freed, for the totals columns */
	uint64_t position;         /* expected rows so far */
	long long rows;            /* rows written so far, the skipped ones too */
	char held[1024];           /* a row held back, so that now and then two rows swap places */
	synth_mem_row held_row;
	int holding, held_expected;
} unit_writer;

static void add_expected(unit_writer *w, const synth_mem_row *row)
{
	synth_mem_row positioned = *row;
	if (!w->run)
		return;
	positioned.position = w->position++;
	if (synth_memory_append(w->run, &positioned) < 0)
		w->csv->failed = 1;
}

/* Writes a CSV row; one in a hundred swaps places with the row before (the file is not quite in time order). */
static void emit_row(unit_writer *w, synth_rng *rng, const char *text, const synth_mem_row *row, int expected)
{
	w->rows++;
	if (w->holding && synth_rng_below(rng, 100) == 0) {
		synth_out_puts(w->csv, text);
		if (expected)
			add_expected(w, row);
		synth_out_puts(w->csv, w->held);
		if (w->held_expected)
			add_expected(w, &w->held_row);
		w->holding = 0;
		return;
	}
	if (w->holding) {
		synth_out_puts(w->csv, w->held);
		if (w->held_expected)
			add_expected(w, &w->held_row);
	}
	snprintf(w->held, sizeof(w->held), "%s", text);
	w->held_row = *row;
	w->held_expected = expected;
	w->holding = 1;
}

static void flush_row(unit_writer *w)
{
	if (w->holding) {
		synth_out_puts(w->csv, w->held);
		if (w->held_expected)
			add_expected(w, &w->held_row);
		w->holding = 0;
	}
}

/* A trace event (stack: JSON string content, or NULL): thread 1's go straight to the file, thread 2's after them. */
static void emit_event(unit_writer *w, int tid, const char *name, const char *ts, const char *dur, const char *cat,
		       const char *stack)
{
	char escaped_head[512];
	synth_out *out = w->trace;
	if (!out)
		return;
	snprintf(escaped_head, sizeof(escaped_head),
		 "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": %llu, \"tid\": %d, \"ts\": \"%s\", \"dur\": %s", name,
		 (unsigned long long)w->pid, tid, ts, dur);
	if (tid == 1) {
		synth_out_puts(out, w->first_event ? "\n" : ",\n");
		w->first_event = 0;
		synth_out_printf(out, "%s, \"cat\": \"%s\", \"args\": {\"Sequence number\": %llu", escaped_head, cat,
				 (unsigned long long)w->position);
		if (stack) {
			synth_out_puts(out, ", \"Call stack\": \"");
			synth_out_puts(out, stack);
			synth_out_puts(out, "\"");
		}
		synth_out_puts(out, "}}");
		return;
	}
	/* The second thread's events put "cat" after "args": key order is free in JSON. */
	buffer_printf(&w->second, ",\n%s, \"args\": {\"Fwd thread id\": 0", escaped_head);
	if (stack)
		buffer_printf(&w->second, ", \"Call stack\": \"%s\"", stack);
	buffer_printf(&w->second, "}, \"cat\": \"%s\"}", cat);
}

/* Half-KB units: most blocks are small, some are activations, a few are whole weight shards. */
static int64_t draw_half_kb(synth_rng *rng)
{
	uint64_t kind = synth_rng_below(rng, 100);
	if (kind < 70)
		return 1 + (int64_t)synth_rng_below(rng, 128);
	if (kind < 95)
		return 128 + (int64_t)synth_rng_below(rng, 131072);
	return 131072 + (int64_t)synth_rng_below(rng, 2097152);
}

static void format_half_kb(char *buf, size_t size, int64_t half_kb)
{
	int64_t magnitude = half_kb < 0 ? -half_kb : half_kb;
	snprintf(buf, size, "%s%lld.%d", half_kb < 0 ? "-" : "", (long long)(magnitude / 2), magnitude % 2 ? 5 : 0);
}

/* The expected stack, by the reference's rule applied while time moves forward: the op of that name that started last. */
static void match_expected(const unit_writer *w, synth_mem_row *row, int op, double alloc_us)
{
	const last_op *last = &w->last[op];
	row->stack = row->top = "";
	row->match = 0;
	row->gap_ms = 0;
	if (!last->set || !w->trace)
		return; /* no trace_view.json written: no op to take a stack from */
	row->stack = last->stack;
	row->top = last->top;
	if (alloc_us <= last->ts_us + last->dur_us) {
		row->match = 1;
	} else {
		row->match = 2;
		row->gap_ms = (alloc_us - (last->ts_us + last->dur_us)) / 1000;
	}
}

/* Registers an op the trace now holds: later allocations of its name match it (ties: the one written last). */
static void register_op(unit_writer *w, int op, const char *ts, const char *dur, const char *stack)
{
	last_op *last = &w->last[op];
	last->set = 1;
	last->ts_us = strtod(ts, NULL);
	last->dur_us = strtod(dur, NULL);
	last->stack = stack;
	/* The first frame is the op's own: the reference cuts the stack at its first ";\r\n". */
	last->top = synth_memory_leaf_frame(op);
}

/* A pair's planted growth: the allocations the op's last call site owns, when that is the site, are larger. */
static int64_t grown_half_kb(const unit_writer *w, int op, int64_t at, int64_t half_kb)
{
	const synth_options *options = w->plan->options;
	if (!options->growth_site || half_kb <= 0 || at < 0 || op >= SYNTH_MEMORY_OPS || !w->last[op].set ||
	    strcmp(w->last[op].top, options->growth_site) != 0)
		return half_kb;
	return half_kb + options->growth_half_kb;
}

/* One allocation or free row at time at (ns; < 0: no time), and what the parser must make of it. */
static void add_row(unit_writer *w, synth_rng *rng, int op, int64_t at, int64_t drawn_half_kb)
{
	/* The draws below depend on the size's sign only, which growth keeps: a pair's other rows stay the same. */
	int64_t half_kb = grown_half_kb(w, op, at, drawn_half_kb);
	const synth_unit *unit = w->unit;
	int csv10 = (w->plan->options->ascend_quirks & SYNTH_QUIRK_CSV10) != 0;
	char size[32], alloc[32] = "", release[32], active_release[32], duration[32], active_duration[32];
	char total[48], line[1024];
	synth_mem_row row;
	int released = half_kb > 0 && synth_rng_below(rng, 20) != 0; /* 1 in 20 blocks outlives the capture */
	int64_t allocated_half = (int64_t)40000000 + w->resident_half_kb + (half_kb > 0 ? half_kb : 0);
	long long reserved = (long long)(allocated_half / 2048 / 2 + 1) * 2;
	unsigned long long stream = 187650604576816ULL + (unsigned long long)unit->rank * 4096;

	format_half_kb(size, sizeof(size), half_kb);
	snprintf(total, sizeof(total), "%.15g", (double)allocated_half / 2048);
	if (at >= 0)
		format_us3(alloc, sizeof(alloc), at);
	memset(&row, 0, sizeof(row));
	row.name = synth_memory_op_name(op);
	row.role = w->plan->roles[unit->role].dir_name;
	row.rank = unit->rank;
	row.device = unit->rank % 8;
	row.unit = w->unit_index;
	row.size_kb = strtod(size, NULL);
	row.start_ms = strtod(alloc, NULL) / 1000;
	row.allocated_mb = row.active_mb = strtod(total, NULL);
	if (csv10)
		row.active_mb = 0; /* no Active column: the parser's value for a total not recorded */
	row.reserved_mb = (double)reserved;
	if (released) {
		int64_t length = (int64_t)(10000.0 * synth_rng_range(rng, 1.0, 5000.0)); /* 10 µs to 50 ms */
		int64_t active = length - (int64_t)synth_rng_below(rng, 2000);
		format_us3(release, sizeof(release), at + length);
		format_us3(active_release, sizeof(active_release), at + (active > 0 ? active : 0));
		format_us3(duration, sizeof(duration), length);
		format_us3(active_duration, sizeof(active_duration), active > 0 ? active : 0);
		if (csv10)
			snprintf(line, sizeof(line), "%s,%s,\"%s\t\",\"%s\t\",\"%s\t\",%s,%lld,%s,%lld,NPU:%d\n", row.name,
				 size, alloc, release, duration, total, reserved, total, reserved, row.device);
		else
			snprintf(line, sizeof(line),
				 "%s,%s,\"%s\t\",\"%s\t\",\"%s\t\",\"%s\t\",\"%s\t\",%s,%lld,%s,%s,%lld,%s,%llu,NPU:%d\n",
				 row.name, size, alloc, release, active_release, duration, active_duration, total, reserved,
				 total, total, reserved, total, stream, row.device);
		row.duration_ms = strtod(duration, NULL) / 1000;
		row.released = 1;
	} else {
		if (half_kb > 0)
			w->resident_half_kb += half_kb;
		if (csv10)
			snprintf(line, sizeof(line), "%s,%s,%s%s%s,,,%s,%lld,,,NPU:%d\n", row.name, size,
				 at >= 0 ? "\"" : "", alloc, at >= 0 ? "\t\"" : "", total, reserved, row.device);
		else
			snprintf(line, sizeof(line), "%s,%s,%s%s%s,,,,,%s,%lld,%s,,,,%llu,NPU:%d\n", row.name, size,
				 at >= 0 ? "\"" : "", alloc, at >= 0 ? "\t\"" : "", total, reserved, total, stream,
				 row.device);
	}
	if (at >= 0)
		match_expected(w, &row, op, strtod(alloc, NULL));
	else if (w->run)
		w->run->skipped_frees++; /* a free without a time: the parser skips it, with a warning */
	emit_row(w, rng, line, &row, at >= 0);
}

/* Writes a capture's CSV (and trace, unless sizing): rows_wanted rows over the unit's time window. */
static void write_rows(unit_writer *w, long long rows_wanted)
{
	const synth_unit *unit = w->unit;
	int64_t t0 = SYNTH_ASCEND_EPOCH_NS + unit->start;
	int64_t ops = rows_wanted * 2 / 3 + 1, step = unit->length / ops;
	synth_rng rng;

	if (step < 8000)
		step = 8000; /* 8 µs an op at least: the trace's µs doubles tell every start apart */
	synth_rng_init(&rng, w->plan->options->seed, 20, (uint64_t)unit->role, (uint64_t)unit->rank,
		       (uint64_t)unit->step);
	if (w->plan->options->ascend_quirks & SYNTH_QUIRK_CSV10) /* torch_npu of 2023: no Active columns, no Stream Ptr */
		synth_out_puts(w->csv, "Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),"
				       "Allocation Total Allocated(MB),Allocation Total Reserved(MB),"
				       "Release Total Allocated(MB),Release Total Reserved(MB),Device Type\n");
	else
		synth_out_puts(w->csv, "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),"
				       "Duration(us),Active Duration(us),Allocation Total Allocated(MB),"
				       "Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),"
				       "Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n");
	if (w->trace)
		synth_out_printf(w->trace, "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %llu, \"tid\": 0, "
				 "\"args\": {\"name\": \"Python\"}}", (unsigned long long)w->pid);
	w->first_event = 0;
	for (int64_t k = 0; w->rows < rows_wanted; k++) {
		int64_t base = t0 + k * step, next = base + step;
		int64_t op_ts = base + (int64_t)(synth_rng_unit(&rng) * 0.2 * (double)step);
		int64_t op_dur = (int64_t)(synth_rng_range(&rng, 0.1, 0.5) * (double)step);
		uint64_t pick = synth_rng_below(&rng, 100);
		int op = pick < 3 ? SYNTH_MEMORY_STACKLESS : pick < 5 ? SYNTH_MEMORY_WORKSPACE : synth_memory_draw_op(&rng);
		int variant = (int)synth_rng_below(&rng, SYNTH_MEMORY_VARIANTS), tid = synth_rng_below(&rng, 10) ? 1 : 2;
		int allocations = (int)synth_rng_below(&rng, 3);
		int64_t times[3];
		char ts[32], dur[32];

		synth_format_micros(ts, sizeof(ts), op_ts);
		synth_format_micros(dur, sizeof(dur), op_dur);
		if (op < SYNTH_MEMORY_OPS) {
			synth_memory_run *run = w->run;
			int other = (variant + 1) % SYNTH_MEMORY_VARIANTS;
			emit_event(w, tid, synth_memory_op_name(op), ts, dur, "cpu_op", run ? run->escaped[unit->role][op][variant] : "");
			register_op(w, op, ts, dur, run ? run->stacks[unit->role][op][variant] : "");
			if (synth_rng_below(&rng, 50) == 0) {
				/* The same op at the same time on another thread: the later in the file wins. */
				emit_event(w, 2, synth_memory_op_name(op), ts, dur, "cpu_op", run ? run->escaped[unit->role][op][other] : "");
				register_op(w, op, ts, dur, run ? run->stacks[unit->role][op][other] : "");
			}
			if (synth_rng_below(&rng, 30) == 0) /* Python-level events carry stacks too, and do not count */
				emit_event(w, tid, synth_memory_op_name(op), ts, dur, "python_function", "decoy.py(1): not_an_op");
		} else if (op == SYNTH_MEMORY_STACKLESS) {
			emit_event(w, tid, synth_memory_op_name(op), ts, dur, "cpu_op", NULL);
		}
		if (synth_rng_below(&rng, 2)) {
			char at[32];
			synth_format_micros(at, sizeof(at), op_ts + op_dur / 2);
			emit_event(w, 1, synth_memory_kernel(&rng), at, "3.5", "kernel", NULL);
		}
		for (int i = 0; i < allocations; i++)
			times[i] = op_ts + (int64_t)(synth_rng_unit(&rng) * (double)op_dur);
		if (allocations == 2 && times[1] < times[0]) {
			int64_t swap = times[0];
			times[0] = times[1];
			times[1] = swap;
		}
		if (allocations && synth_rng_below(&rng, 20) == 0)
			times[0] = op_ts; /* allocated the instant the op starts: still inside it */
		for (int i = 0; i < allocations; i++)
			add_row(w, &rng, op, times[i], draw_half_kb(&rng));
		if (synth_rng_below(&rng, 10) < 3) {
			/* After the op ended, at least 1 µs before the next op can start: matched to an op that ended. */
			int64_t end = op_ts + op_dur, room = next - 1000 - end - 1;
			add_row(w, &rng, op, end + 1 + (room > 0 ? (int64_t)synth_rng_below(&rng, (uint64_t)room) : 0),
				draw_half_kb(&rng));
		}
		if (synth_rng_below(&rng, 12) == 0) {
			/* A free of a block allocated before the capture; one in 25 has no time at all. */
			int64_t at = synth_rng_below(&rng, 25) ? op_ts + op_dur / 3 : -1;
			add_row(w, &rng, op, at, -draw_half_kb(&rng));
		}
	}
	flush_row(w);
	if (w->trace) {
		if (w->second.length)
			synth_out_write(w->trace, w->second.data, w->second.length);
		synth_out_puts(w->trace, "\n]");
	}
}

int synth_memory_write_unit(synth_memory_run *run, const synth_plan *plan, const synth_unit *unit, size_t unit_index,
			    synth_out *csv, synth_out *trace, long long rows)
{
	unit_writer w;
	memset(&w, 0, sizeof(w));
	w.plan = plan;
	w.run = run;
	w.unit = unit;
	w.unit_index = unit_index;
	w.csv = csv;
	w.trace = trace;
	w.pid = synth_ascend_pid(plan, unit->role, unit->rank);
	write_rows(&w, rows);
	free(w.second.data);
	return w.second.failed ? synth_fail(SYNTH_ERROR, "out of memory") : SYNTH_OK;
}

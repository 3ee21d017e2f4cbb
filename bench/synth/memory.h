/* memory.h: what the memory writer's parts share: the operators, the expected rows, one capture's writer. */
#ifndef RLI_SYNTH_MEMORY_H
#define RLI_SYNTH_MEMORY_H

#include "synth.h"

#define SYNTH_MEMORY_OPS 32                           /* operators whose cpu_ops carry call stacks */
#define SYNTH_MEMORY_STACKLESS SYNTH_MEMORY_OPS       /* its cpu_op events carry no call stack */
#define SYNTH_MEMORY_WORKSPACE (SYNTH_MEMORY_OPS + 1) /* never an op in the trace at all */
#define SYNTH_MEMORY_VARIANTS 4                       /* code paths per operator and role */

/* One row as the reference's parser must give it (memory.md §2.3), plus how its stack was found. */
typedef struct {
	const char *name, *role, *stack, *top;
	int64_t rank;
	double size_kb, start_ms, duration_ms, allocated_mb, reserved_mb, active_mb, gap_ms;
	int device, released, match; /* match: 0 none, 1 inside, 2 after the op ended */
	const char *device_kind;     /* "CUDA", "CPU"; NULL: "NPU" */
	size_t unit;                 /* the capture, for the order of ties */
	uint64_t position;           /* the row's place in its file */
	/* torch rows only (op_case not NULL): how the ops around the event were laid out, and the
	 * bytes allocated before the capture still live after the event, in MB */
	const char *op_case;
	double before_capture_mb;
} synth_mem_row;

/* rl-insight's tie rule for rows that start together: by role, rank and device text ("NPU:0"); 0 when they share all three. */
int synth_mem_row_tie(const synth_mem_row *x, const synth_mem_row *y);

/* The stacks of every role, and the expected rows of every capture. */
typedef struct {
	const synth_plan *plan;
	char *stacks[64][SYNTH_MEMORY_OPS][SYNTH_MEMORY_VARIANTS]; /* by role, op, variant; innermost frame first */
	char *escaped[64][SYNTH_MEMORY_OPS][SYNTH_MEMORY_VARIANTS]; /* as JSON string content, "\r\n" as Ascend */
	synth_mem_row *rows;
	size_t count, capacity;
	long long skipped_frees;
	char **strings;             /* owned by the run: the torch rows' call stacks */
	size_t string_count, string_capacity;
} synth_memory_run;

/* Adds a copy of row to run's rows. SYNTH_OK, or SYNTH_ERROR when out of memory. */
int synth_memory_append(synth_memory_run *run, const synth_mem_row *row);
/* Writes run's rows, in their order, as expected_memory.jsonl lines (memory.md §2.3 keys, then how matched). */
int synth_memory_write_expected(const synth_memory_run *run, const char *path);

/* ---- torch_resolve.c: the operator and stack of a torch [memory] event ------------ */

/* An X event (cpu_op or python_function) as the parser reads it back: µs as written, end = ts + dur. */
typedef struct {
	double start, end;
	const char *name; /* static */
	int thread;       /* index into the trace's memory threads */
	int python;       /* a python_function, else a cpu_op */
} synth_torch_span;

/* A memory row whose operator and stack are to be worked out: its event's thread and µs. */
typedef struct {
	size_t row;
	int thread;
	double at;
} synth_torch_query;

/* One trace's spans and queries; the interned stacks live in the run (run->strings). */
typedef struct {
	synth_torch_span *spans;
	size_t span_count, span_capacity;
	synth_torch_query *queries;
	size_t query_count, query_capacity;
	char **interned; /* open-addressing set of the run's stacks; interned_capacity a power of two */
	size_t interned_count, interned_capacity;
} synth_torch_ops;

/* The µs value a parser reads from the text the trace holds for ns. */
double synth_torch_micros(int64_t nanos);
int synth_torch_ops_span(synth_torch_ops *ops, int thread, int python, const char *name, int64_t ts, int64_t dur);
int synth_torch_ops_query(synth_torch_ops *ops, size_t row, int thread, int64_t at);
/*
 * Sets name, stack, top and match of every queried row of run by the parser's rule (the innermost
 * cpu_op of the thread containing the event, latest start then shorter; the containing
 * python_functions, latest start first, joined by ";\r\n"), then forgets the trace's spans and queries.
 */
int synth_torch_ops_resolve(synth_torch_ops *ops, synth_memory_run *run);
void synth_torch_ops_free(synth_torch_ops *ops);
/* Frees the run's owned strings. */
void synth_memory_run_strings_free(synth_memory_run *run);

/* ---- torch_ops.c: the cpu_ops and python_functions written around a [memory] event -- */

#define SYNTH_TORCH_GROUP_SPANS 16

/* One X event to write. */
typedef struct {
	const char *name;
	int thread, python;
	int64_t ts, dur;
} synth_torch_x;

/* A [memory] event and the X events around it, written together (and late together when shuffled). */
typedef struct {
	synth_torch_x x[SYNTH_TORCH_GROUP_SPANS];
	int x_count;
	int thread, type, device_id;
	int64_t at, bytes, allocated, reserved;
	uint64_t addr;
	int memory_first; /* the [memory] event before its ops in the file */
} synth_torch_group;

/* The layouts of ops around an event (op_case of the expected rows). */
typedef enum {
	SYNTH_OPS_NONE = 0,  /* --memory-ops off: only the timeline's own cpu_ops */
	SYNTH_OPS_PLAIN,     /* one cpu_op around the event */
	SYNTH_OPS_NESTED,    /* aten::linear around aten::mm around the event (half the time both start at once) */
	SYNTH_OPS_OTHER_TID, /* no op on the event's thread; one on the other thread overlapping it */
	SYNTH_OPS_BOTH_TIDS, /* an op on each thread around the event: its own thread's wins */
	SYNTH_OPS_OUTSIDE,   /* an op on the thread that ended before the event */
	SYNTH_OPS_START_EDGE,/* an op starting at the event's very ts */
	SYNTH_OPS_END_EDGE,  /* an op ending at the event's very ts (whole µs) */
	SYNTH_OPS_CASES
} synth_ops_case;

const char *synth_torch_ops_case_name(int op_case);
/* The case of the next event (SYNTH_OPS_NONE when ops are off). */
int synth_torch_ops_draw_case(synth_rng *rng);
/*
 * Fills group's X events around group->at for the case, python_function frames too when
 * with_stack, on thread group->thread (the other one is 1 - thread); radius bounds how far
 * they reach from the event. Each is also a span of ops when ops is not NULL.
 */
int synth_torch_ops_around(synth_torch_group *group, synth_torch_ops *ops, synth_rng *rng, int op_case,
			   int with_stack, const char *phase, int64_t radius);
/* Writes an X event of the group (cpu_op or python_function) on pid and the thread's tid. */
void synth_torch_write_x(synth_out *out, long long *count, const synth_torch_x *x, const char *pid,
			 const char *const tids[2], long long id);
/* The innermost python_function of the group around its event on its thread ("" when none): the row's call_stack_top. */
const char *synth_torch_group_top(const synth_torch_group *group);
/* Whether a unit's trace is taken with_stack (--memory-ops: every other unit). */
int synth_torch_with_stack(const synth_plan *plan, const synth_unit *unit);
/* The rank rl-insight must give the unit's trace: its own, or 0 where the trace says none (--torch-rank none). */
int synth_torch_rank(const synth_plan *plan, const synth_unit *unit);

/* ---- torch_memory.c: a torch trace's [memory] events ------------------------------ */

/*
 * Writes events [memory] instant events into a torch trace after *count events (count > 0):
 * allocations and frees on two CUDA devices (device and device + 1) from two threads, frees of
 * blocks from before the capture, blocks never freed, and CPU events beside them; the CUDA rows
 * the parser must give are added to run (NULL: sizing), their operators and stacks queried in
 * ops (the timeline's cpu_ops of thread 0 already there). With --memory-ops, cpu_ops and
 * python_functions around them; with --memory-shuffle, some written out of time order.
 * SYNTH_OK or SYNTH_ERROR.
 */
int synth_torch_write_memory(synth_out *out, long long *count, synth_memory_run *run, synth_torch_ops *ops,
			     const synth_plan *plan, const synth_unit *unit, size_t unit_index, int64_t t0,
			     const char *pid, const char *const tids[2], int device);

/* ---- memory_ops.c: the operators and their Python call stacks ---------------- */

/* The name of op (one of SYNTH_MEMORY_OPS, or SYNTH_MEMORY_STACKLESS / SYNTH_MEMORY_WORKSPACE). */
const char *synth_memory_op_name(int op);
/* An operator with call stacks, the common ones more often. */
int synth_memory_draw_op(synth_rng *rng);
/* The op's own frame, the first of each of its stacks. */
const char *synth_memory_leaf_frame(int op);
/* A device kernel name, for the trace's other events. */
const char *synth_memory_kernel(synth_rng *rng);
/* The role's stacks (raw and JSON-escaped), by op and variant. */
int synth_memory_build_stacks(synth_memory_run *run, int role);

/* ---- memory_unit.c: one capture ------------------------------------------------- */

/*
 * Writes one capture's operator_memory.csv (rows rows) to csv and its trace_view.json to trace,
 * adding the rows the parser must give to run. run NULL and trace NULL: only the CSV, for sizing;
 * run set and trace NULL: a capture without trace_view.json, whose rows have no call stacks.
 * SYNTH_OK, or SYNTH_ERROR when out of memory.
 */
int synth_memory_write_unit(synth_memory_run *run, const synth_plan *plan, const synth_unit *unit, size_t unit_index,
			    synth_out *csv, synth_out *trace, long long rows);

#endif

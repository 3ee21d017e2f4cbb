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
} synth_mem_row;

/* The stacks of every role, and the expected rows of every capture. */
typedef struct {
	const synth_plan *plan;
	char *stacks[64][SYNTH_MEMORY_OPS][SYNTH_MEMORY_VARIANTS]; /* by role, op, variant; innermost frame first */
	char *escaped[64][SYNTH_MEMORY_OPS][SYNTH_MEMORY_VARIANTS]; /* as JSON string content, "\r\n" as Ascend */
	synth_mem_row *rows;
	size_t count, capacity;
	long long skipped_frees;
} synth_memory_run;

/* Adds a copy of row to run's rows. SYNTH_OK, or SYNTH_ERROR when out of memory. */
int synth_memory_append(synth_memory_run *run, const synth_mem_row *row);
/* Writes run's rows, in their order, as expected_memory.jsonl lines (memory.md §2.3 keys, then how matched). */
int synth_memory_write_expected(const synth_memory_run *run, const char *path);

/* ---- torch_memory.c: a torch trace's [memory] events ------------------------------ */

/*
 * Writes events [memory] instant events into a torch trace after *count events (count > 0):
 * allocations and frees on two CUDA devices (device and device + 1) from two threads, frees of
 * blocks from before the capture, blocks never freed, and CPU events beside them; the CUDA rows
 * the parser must give are added to run (NULL: sizing). SYNTH_OK or SYNTH_ERROR.
 */
int synth_torch_write_memory(synth_out *out, long long *count, synth_memory_run *run, const synth_plan *plan,
			     const synth_unit *unit, size_t unit_index, int64_t t0, const char *pid,
			     const char *const tids[2], int device);

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
 * adding the rows the parser must give to run. run NULL and trace NULL: only the CSV, for sizing.
 * SYNTH_OK, or SYNTH_ERROR when out of memory.
 */
int synth_memory_write_unit(synth_memory_run *run, const synth_plan *plan, const synth_unit *unit, size_t unit_index,
			    synth_out *csv, synth_out *trace, long long rows);

#endif

/* synth.h: the realistic profile generator behind rl-insight-synth (MSTX, torch, NVTX trees). */
#ifndef RLI_SYNTH_H
#define RLI_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

/* Return codes, as in the library: 0 ok, negative on failure with synth_error() set. */
enum { SYNTH_OK = 0, SYNTH_ERROR = -1, SYNTH_EUSAGE = -2, SYNTH_EOUTPUT = -4 };

const char *synth_error(void);
int synth_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

typedef enum { SYNTH_MSTX = 0, SYNTH_TORCH, SYNTH_NVTX, SYNTH_MEMORY, SYNTH_GMM } synth_format;

/*
 * What real torch_npu exports lack or write otherwise, the shapes the reference refuses and
 * rl-insight reads (decisions.md); bits of synth_options.ascend_quirks (--ascend-quirks).
 */
enum {
	SYNTH_QUIRK_NO_ARGS = 1 << 0,          /* mstx: Overlap Analysis X events without "args" */
	SYNTH_QUIRK_NO_VERSIONS = 1 << 1,      /* profiler_info without torch_npu_version, cann_version */
	SYNTH_QUIRK_NO_PROFILER_INFO = 1 << 2, /* no profiler_info_N.json; the folder is ..._rank<N>_ascend_pt */
	SYNTH_QUIRK_UNRANKED = 1 << 3,         /* no profiler_info_N.json and no rank in the name (--ranks 1) */
	SYNTH_QUIRK_NO_TRACE_VIEW = 1 << 4,    /* memory: no trace_view.json, so no call stacks */
	SYNTH_QUIRK_CSV10 = 1 << 5             /* memory: the 2023 10-column operator_memory.csv */
};
/* Parses "no-args,csv10,..." into SYNTH_QUIRK_* bits; SYNTH_EUSAGE naming an unknown one. */
int synth_quirks_parse(unsigned *out, const char *list);

typedef struct {
	synth_format format;
	int ranks;
	int roles;
	int steps;
	long long events_per_unit; /* 0: from target_bytes, or the default */
	long long target_bytes;    /* 0: unused; else the total size of the trace files */
	uint64_t seed;
	const char *output_dir;
	int demo;                  /* friendlier names (one CJK range) for the README demo */
	int dense;                 /* NVTX: (nearly) every line a range, no kernel or other-domain lines */
	int nvtx_text;             /* NVTX: every range line carries its own message, escaped quotes and UTF-8 */
	int stack_depth;           /* memory: frames a call stack is padded to with module frames (0: as found) */
	long long memory_events;   /* torch: [memory] events per trace, and DIR/expected_memory.jsonl (0: none) */
	int memory_ops;            /* torch: cpu_ops around the [memory] events, Python stacks in every other trace */
	int memory_shuffle;        /* torch: some [memory] events written out of time order, a free before its allocation */
	int torch_rank;            /* torch: where a trace's rank is, SYNTH_RANK_* (0: distributedInfo) */
	int torch_device;          /* torch: the [memory] events' Device Type, 1 CUDA (0 too), 6 HIP, 20 NPU */
	int has_memory_base;       /* torch: memory_base_mib is given (else 2000 and 2500 MiB of weights and the blocks freed) */
	long long memory_base_mib; /* torch: each device's Total Allocated when the capture begins, MiB */
	/* Run pairs (pair.c): what one side of a pair plants; all zero for a plain run. */
	double jitter;             /* durations vary by up to this part, drawn from jitter_seed (0: none) */
	uint64_t jitter_seed;
	double slow_factor;        /* 0 or 1: none; else units of slow_role on slow_rank last this times as long */
	int slow_role, slow_rank;  /* slow_rank -1: every rank */
	uint64_t skip_roles;       /* bit r set: role r is planned but none of its units is written */
	const char *growth_site;   /* memory: allocations whose call_stack_top is this grow by growth_half_kb */
	long long growth_half_kb;  /* in half KB, the unit of operator_memory.csv sizes */
	unsigned ascend_quirks;    /* mstx, memory: SYNTH_QUIRK_* */
	int gmm_ops;               /* gmm: grouped-matmul dumps per (step, role, rank); three share a layer's routing */
	int gmm_experts;           /* gmm: experts, the elements of each group_list */
	int gmm_mixed;             /* gmm: every kind of file torch.save writes, by turns (dtypes, layouts, byte orders) */
} synth_options;

/* Where a torch trace's rank is: distributedInfo, its file name only, or nowhere (rank 0 then). */
enum { SYNTH_RANK_INFO = 0, SYNTH_RANK_NAME, SYNTH_RANK_NONE };

/* ---- deterministic randomness ------------------------------------------ */

typedef struct {
	uint64_t state;
} synth_rng;

/* Seeds from a base seed and up to four coordinates, so every unit draws its own stream. */
void synth_rng_init(synth_rng *rng, uint64_t seed, uint64_t a, uint64_t b, uint64_t c, uint64_t d);
uint64_t synth_rng_next(synth_rng *rng);
/* Uniform in [0, 1). */
double synth_rng_unit(synth_rng *rng);
/* Uniform in [low, high). */
double synth_rng_range(synth_rng *rng, double low, double high);
/* Uniform integer in [0, bound). */
uint64_t synth_rng_below(synth_rng *rng, uint64_t bound);

/* ---- buffered output: plain file, gzip file, or a byte counter -------- */

typedef struct {
	FILE *fp;
	gzFile gz;
	char *buffer;
	size_t used;
	size_t capacity;
	long long written;  /* bytes handed to the sink (uncompressed) */
	int failed;         /* sticky: the first write error wins */
	char *path;
} synth_out;

int synth_out_open(synth_out *out, const char *path, int gzip);
/* Counts bytes and writes nothing: used to size units before writing them. */
int synth_out_open_counter(synth_out *out);
void synth_out_write(synth_out *out, const char *data, size_t length);
void synth_out_puts(synth_out *out, const char *text);
void synth_out_printf(synth_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string literal (quotes and escapes included). */
void synth_out_json_string(synth_out *out, const char *text);
/* Fixed-point µs with 3 decimals from integer ns, trailing zeros trimmed as Python prints. */
void synth_out_micros(synth_out *out, int64_t nanos);
/* Closes; returns SYNTH_EOUTPUT (and removes nothing) if any write failed. */
int synth_out_close(synth_out *out);

/* Same text synth_out_micros writes, into buf (at least 32 bytes). */
void synth_format_micros(char *buf, size_t size, int64_t nanos);

/* ---- the rows the reference algorithm must produce -------------------- */

typedef struct {
	const char *name;  /* static or owned by the row set's string arena */
	const char *role;
	double start_ms;
	double end_ms;
	double duration_ms;
	int64_t rank_id;
	char tid[24];
	uint64_t order;    /* discovery order, the tie-break of the stable sort */
} synth_row;

typedef struct {
	synth_row *rows;
	size_t count;
	size_t capacity;
	uint64_t next_order;
} synth_rows;

int synth_rows_add(synth_rows *rows, const synth_row *row);
/* Sorts by start, ties as rl-insight orders them (rows.c), and writes the reference's CSV columns. */
int synth_rows_write_csv(synth_rows *rows, const char *path);
void synth_rows_free(synth_rows *rows);

/* Envelope of (ts, ts + dur) pairs given as the text the trace holds, parsed as a parser must. */
typedef struct {
	double min_start;
	double max_end;
	long long count;
} synth_envelope;

void synth_envelope_init(synth_envelope *env);
void synth_envelope_add(synth_envelope *env, const char *ts_text, const char *dur_text);
/* One row from an envelope in µs: start = min/1000, duration = (max - min)/1000. */
void synth_envelope_row(synth_row *row, const synth_envelope *env);

/* ---- the run plan: roles, phases, per-rank skew ----------------------- */

typedef struct {
	const char *dir_name;     /* MSTX / torch role directory, e.g. actor_update */
	const char *phase_name;   /* VeRL method, the NVTX range text, e.g. update_actor */
	int slot;                 /* position in a step; equal slots run concurrently */
	double seconds;           /* typical duration */
} synth_role;

typedef struct {
	const synth_options *options;
	synth_role roles[64];
	int role_count;
	int slot_count;
	/* phase windows, ns from the run origin: [step * slot_count + slot] */
	int64_t *slot_start;
	int64_t *slot_length;
	int64_t *rank_skew;       /* constant per-rank clock/launch offset, ns */
} synth_plan;

int synth_plan_init(synth_plan *plan, const synth_options *options);
void synth_plan_free(synth_plan *plan);

typedef struct {
	int role;
	int rank;
	int step;
	int64_t start;   /* ns from the run origin */
	int64_t length;  /* ns */
	/*
	 * The unit's time scale (1 but for pairs' slowdown and jitter): the fixed pads that reach
	 * the edges of its bars scale with it too, so each bar lasts exactly stretch times as long.
	 */
	double stretch;
} synth_unit;

/* The window a (role, rank, step) unit occupies, jittered per unit. */
void synth_plan_unit(synth_unit *unit, const synth_plan *plan, int role, int rank, int step);
/* Whether a role's units are written (pairs of kind roles plan a role that one side leaves out). */
int synth_plan_writes_role(const synth_plan *plan, int role);
/* A role's index by its folder or phase name; -1 when no role is called that. */
int synth_plan_find_role(const synth_plan *plan, const char *name);

/* ---- Ascend capture folders (MSTX and memory) ------------------------- */

/* 2026-03-12 03:24:48 UTC, the era of the reference's samples; Ascend ts are Unix-epoch µs. */
#define SYNTH_ASCEND_EPOCH_NS INT64_C(1773285888000000000)

/* The folder a role's captures go in: its own, or one shared by the odd roles (role in the metadata). */
const char *synth_ascend_role_dir(const synth_plan *plan, int role);
/* The process id in a (role, rank)'s capture folder names. */
uint64_t synth_ascend_pid(const synth_plan *plan, int role, int rank);
/*
 * <host>_<pid>_<YYYYMMDDhhmmssmmm>_ascend_pt for a unit (..._rank<N>_ascend_pt when the capture has
 * no profiler_info to say its rank), newly allocated (NULL when out of memory).
 */
char *synth_ascend_capture_name(const synth_plan *plan, const synth_unit *unit);
/*
 * profiler_info_<rank>.json (rank_id a string or a number, alternating by rank), or nothing when
 * the quirks say the capture has none.
 */
int synth_ascend_write_info(const char *path, const synth_plan *plan, const synth_unit *unit, int profile_memory);
/* profiler_metadata.json, naming the role when name_role is set. */
int synth_ascend_write_metadata(const char *path, const synth_plan *plan, const synth_unit *unit, int name_role);

/* ---- the three writers ------------------------------------------------ */

/* Each writes the whole tree for its format into options->output_dir and adds the rows. */
int synth_write_mstx(synth_rows *rows, const synth_plan *plan);
int synth_write_torch(synth_rows *rows, const synth_plan *plan);
int synth_write_nvtx(synth_rows *rows, const synth_plan *plan);
/*
 * Memory captures (memory.md §1-§3): per (role, rank, step) an ascend_pt folder with
 * operator_memory.csv (events_per_unit rows) and a trace_view.json whose cpu_ops carry call
 * stacks, and expected_memory.jsonl instead of expected.csv: the rows rl-insight must parse.
 */
int synth_write_memory(const synth_plan *plan);

/*
 * msprobe's MoE dumps (gmm.md §1): step_<s>/<role>/rank<r>/dump_tensor_data/
 * NPU.npu_grouped_matmul.<op>.forward.kwargs.group_list.pt, real .pt files (pt_write.c), and
 * expected_gmm.csv: the rows rl-insight --profiler-type gmm --export csv must write.
 */
int synth_write_gmm(const synth_plan *plan);

/* Writes the tree and expected.csv. */
int synth_run(const synth_options *options);

/* ---- run pairs (pair.c): DIR/baseline, DIR/current and DIR/pair.txt -------- */

typedef enum { SYNTH_PAIR_IDENTICAL = 0, SYNTH_PAIR_SLOWDOWN, SYNTH_PAIR_MEMORY_GROWTH, SYNTH_PAIR_ROLES } synth_pair_kind;

typedef struct {
	synth_pair_kind kind;
	double jitter;          /* identical, slowdown: the current run's durations vary by up to this part */
	const char *slow_role;  /* slowdown: folder or phase name; NULL: actor_update, or the last role */
	int slow_rank;          /* -1: every rank of the role (--slow-rank all) */
	double slow_factor;     /* 0: 1.2 */
	uint64_t jitter_seed;   /* 0: the run's seed and a fixed offset (--jitter-seed: nights of one plan) */
	double growth_kb;       /* memory-growth: KB added to each allocation of the site (0: 2048) */
} synth_pair;

/* Parses a --pair KIND name; SYNTH_EUSAGE when it names none. */
int synth_pair_kind_parse(synth_pair_kind *kind, const char *name);
/* Writes both trees of the pair, each with its expected rows, and pair.txt saying what was planted. */
int synth_run_pair(const synth_options *options, const synth_pair *pair);

/* Helpers shared by the writers. */
int synth_mkdir_p(const char *path);
char *synth_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Events per unit: the explicit count, or sized from target_bytes by writing samples to a counter. */
/* Writes one unit's trace; adds its rows to rows unless rows is NULL (sizing runs). */
typedef int (*synth_unit_writer)(synth_out *out, synth_rows *rows, const synth_plan *plan,
				 const synth_unit *unit, long long events);
long long synth_events_per_unit(const synth_plan *plan, int unit_count, long long default_events,
				synth_unit_writer writer);

#endif

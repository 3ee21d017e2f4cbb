/* rl_insight.h: public API of librl-insight, from a profiling tree to timeline pictures. */
#ifndef RL_INSIGHT_H
#define RL_INSIGHT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RLI_VERSION "0.1.0"

/*
 * Return codes. Every function that can fail returns one of these; on failure
 * rli_error_last() gives a message for the calling thread. The negated value
 * of each code is the command line's exit status, so the numbers never change.
 */
enum {
	RLI_OK = 0,
	RLI_ERROR = -1,    /* internal error: out of memory, a bug */
	RLI_EUSAGE = -2,   /* the caller asked for something impossible */
	RLI_EINVALID = -3, /* input invalid, or nothing to draw */
	RLI_EOUTPUT = -4,  /* an output could not be written */
	RLI_EPARTIAL = -5  /* some input units failed; the rest were parsed */
};

/* The message of the last failing call on this thread ("" if none). */
const char *rli_error_last(void);

/* ---- logging ---------------------------------------------------------- */

typedef enum {
	RLI_LOG_ERROR = 0,
	RLI_LOG_WARN = 1,
	RLI_LOG_NOTICE = 2, /* worth a line on an ordinary run: what was detected */
	RLI_LOG_INFO = 3,   /* details for -v */
	RLI_LOG_DEBUG = 4
} rli_log_level;

/* Receives one complete line (no trailing newline). Called from one thread at a time. */
typedef void (*rli_log_fn)(void *ctx, rli_log_level level, const char *line);

/* ---- profilers -------------------------------------------------------- */

typedef enum {
	RLI_PROFILER_AUTO = 0,
	RLI_PROFILER_MSTX,
	RLI_PROFILER_TORCH,
	RLI_PROFILER_NVTX,
	RLI_PROFILER_TABLE /* the tables --export writes (rl_events.csv|jsonl), read back */
} rli_profiler;

/* "mstx", "torch", "nvtx", "table", "auto". */
const char *rli_profiler_name(rli_profiler profiler);
/* Inverse of rli_profiler_name; RLI_EUSAGE for an unknown name. */
int rli_profiler_from_name(rli_profiler *out, const char *name);

/* ---- the event table -------------------------------------------------- */

/* One row per timeline bar, in start order (timeline.md §2.1). Opaque. */
typedef struct rli_events rli_events;

/* A row as read back; the strings live as long as the table. */
typedef struct {
	const char *name;
	const char *role;
	const char *domain;
	const char *tid;   /* as text; see tid_is_text */
	int tid_is_text;   /* 1: the profiler gave a string (NVTX), 0: a number */
	int64_t rank_id;
	double start_ms;
	double end_ms;     /* start_ms + duration_ms */
	double duration_ms;
} rli_event;

size_t rli_events_count(const rli_events *events);
/* Fills *out with row index (index < rli_events_count). */
void rli_events_get(rli_event *out, const rli_events *events, size_t index);
void rli_events_free(rli_events *events);

/* ---- parsing ---------------------------------------------------------- */

/*
 * What one analysis read of the input that the next one needs: the call stacks in the Ascend
 * traces the timeline reads, for the memory analysis that reads the same captures after it. Given
 * to both (rli_parse_options.share, rli_memory_parse_options.share), each trace_view.json is
 * read once. Opaque; any thread.
 */
typedef struct rli_trace_share rli_trace_share;

int rli_trace_share_new(rli_trace_share **out);
void rli_trace_share_free(rli_trace_share *share);

typedef struct {
	rli_profiler profiler; /* RLI_PROFILER_AUTO detects it from the tree */
	const char *rank_list; /* NULL or "all", else "0,2,4-7" */
	unsigned jobs;         /* parser threads; 0 = number of CPUs */
	rli_log_fn log;        /* warnings and progress; NULL = silent */
	void *log_ctx;
	/*
	 * A share of the input for one of shard_count workers (0: the whole input): the input
	 * units whose paths, relative to input_path, hash to shard_index (rli_shard_of). Discovery
	 * and its rules still see the whole tree. A shard that holds no rows is no failure: its
	 * table is empty, and the tables of all shards merge (RLI_PROFILER_TABLE) into the table
	 * of one run over the whole input.
	 */
	unsigned shard_index, shard_count;
	/* NULL, or where the call stacks of the Ascend captures that hold memory records are kept */
	rli_trace_share *share;
} rli_parse_options;

void rli_parse_options_init(rli_parse_options *options);

/*
 * The shard, of shard_count, that the input unit at relative_path (its path relative to the
 * input, "actor/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json") belongs to: a hash of the
 * path's bytes, the same on every machine and in every version.
 */
unsigned rli_shard_of(const char *relative_path, unsigned shard_count);

/*
 * Discovers, validates and parses the profile under input_path.
 *
 * *out receives the table on RLI_OK and on RLI_EPARTIAL (some units failed
 * and were logged; the table holds the others). *detected, if not NULL,
 * receives the profiler used. Validation failures return RLI_EINVALID with
 * every rule's message in rli_error_last(), "Data validation failed" then
 * one "\n  - <message>" per failure.
 */
int rli_parse(rli_events **out, rli_profiler *detected,
	      const char *input_path, const rli_parse_options *options);

/*
 * How many input files this process has opened to read, and how many bytes it read from them
 * (as stored: a gzip's compressed bytes), so far, over every thread: what -v reports, and what
 * tests count reads with. Either pointer may be NULL.
 */
void rli_input_totals(uint64_t *files, uint64_t *bytes);

/* ---- output sets ------------------------------------------------------ */

/*
 * The files of one run. Each output is written under a temporary name in its
 * folder; once every one has succeeded, rli_output_set_commit syncs them all
 * to disk and then renames them into place, and rli_output_set_free removes whatever was not
 * committed, so a failed run leaves no file and no partial set. Opaque.
 */
typedef struct rli_output_set rli_output_set;

int rli_output_set_new(rli_output_set **out);
/* Syncs every file, then renames each into place; on a failure the files not yet renamed are removed. */
int rli_output_set_commit(rli_output_set *set);
size_t rli_output_set_count(const rli_output_set *set);
/* The final path of file index (NULL past the end); *bytes, if not NULL, its size. */
const char *rli_output_set_path(const rli_output_set *set, size_t index, uint64_t *bytes);
/* Removes the files not committed, then frees the set. NULL is ignored. */
void rli_output_set_free(rli_output_set *set);

/* ---- export ----------------------------------------------------------- */

typedef enum { RLI_EXPORT_CSV = 0, RLI_EXPORT_JSONL } rli_export_format;

/*
 * Writes the table with the reference's columns: into `set` when given, to
 * be renamed into place with the rest of it, else atomically on its own.
 */
int rli_events_export(const rli_events *events, rli_export_format format,
		      const char *path, rli_output_set *set);

/* ---- memory ----------------------------------------------------------- */

/*
 * The memory table: one row per operator_memory.csv row of every Ascend capture
 * (memory.md §2.3), in start order (ties keep capture, then file order). Opaque.
 */
typedef struct rli_memory rli_memory;

/* How a row found its call stack: the cpu_op of the same name that started last, not after it. */
typedef enum {
	RLI_MEMORY_UNMATCHED = 0, /* no such op with a call stack in the capture's trace_view.json */
	RLI_MEMORY_INSIDE,        /* the op was running: ts <= time <= ts + dur */
	RLI_MEMORY_AFTER_END      /* the op had ended match_gap_ms before (the reference attributes it anyway) */
} rli_memory_match;

/* A row as read back; the strings live as long as the table. */
typedef struct {
	const char *name;
	const char *role;
	int64_t rank_id;
	const char *call_stack;     /* "" when unmatched */
	const char *call_stack_top; /* call_stack up to its first ";\r\n" (the first frame) */
	double size_kb;             /* > 0 an allocation, < 0 a free */
	double start_time_ms;       /* when the block was allocated (or freed) */
	double duration_ms;         /* 0 when the block was never released in the capture */
	double total_allocated_mb;  /* the device's totals at that moment, as the CSV gives them */
	double total_reserved_mb;
	double total_active_mb;
	const char *device_type;    /* e.g. "NPU:0" */
	int released;               /* 0: Duration(us) was empty, the block outlives the capture */
	rli_memory_match match;
	double match_gap_ms;        /* RLI_MEMORY_AFTER_END: from the op's end to start_time_ms; else 0 */
	double release_total_allocated_mb; /* the device's total after the release (Ascend); NaN when unknown */
	int second_pool;            /* 1: counted by the device's second allocator (Ascend: GE, no Stream Ptr) */
} rli_memory_row;

/* How the allocations (rows with size_kb > 0) found their call stacks. */
typedef struct {
	size_t allocations;
	size_t matched_inside;
	size_t matched_after_end;
	size_t unmatched;
	double max_gap_ms; /* the largest match_gap_ms among them, 0 if none */
} rli_memory_match_counts;

typedef struct {
	const char *rank_list; /* NULL or "all", else "0,2,4-7" */
	const char *role_list; /* NULL: every role; else the roles to keep, "actor_update,rollout" */
	unsigned jobs;         /* parser threads; 0 = number of CPUs */
	rli_log_fn log;        /* warnings and progress; NULL = silent */
	void *log_ctx;
	/*
	 * The memory analysis was found (auto), not asked for: a capture with no
	 * operator_memory.csv holds a timeline only, and is passed over rather than failed.
	 */
	int auto_detected;
	unsigned shard_index, shard_count; /* as in rli_parse_options */
	rli_trace_share *share;            /* NULL, or where the timeline kept the traces' call stacks */
} rli_memory_parse_options;

void rli_memory_parse_options_init(rli_memory_parse_options *options);

/*
 * Finds every *ascend_pt capture under input_path and parses its
 * ASCEND_PROFILER_OUTPUT/operator_memory.csv, each row with its call stack from the
 * capture's trace_view.json. Captures parse in parallel.
 *
 * *out receives the table on RLI_OK and on RLI_EPARTIAL (some captures failed and were
 * skipped). RLI_EINVALID when the tree breaks the rules or nothing was parsed. For both,
 * rli_error_last() holds "Data validation failed" and one "\n  - <message>" per failure,
 * each naming its file. RLI_EUSAGE for a bad rank list or no path. options may be NULL.
 */
int rli_memory_parse(rli_memory **out, const char *input_path, const rli_memory_parse_options *options);

/*
 * The devices whose memory a PyTorch trace's [memory] events give (bits): CUDA, HIP (ROCm) and
 * NPU (PrivateUse1, torch_npu) are the accelerators, the default; CPU is the host's.
 */
enum {
	RLI_MEMORY_DEVICE_CUDA = 1,
	RLI_MEMORY_DEVICE_CPU = 2,
	RLI_MEMORY_DEVICE_HIP = 4,
	RLI_MEMORY_DEVICE_NPU = 8,
	RLI_MEMORY_DEVICE_ACCELERATORS = RLI_MEMORY_DEVICE_CUDA | RLI_MEMORY_DEVICE_HIP | RLI_MEMORY_DEVICE_NPU,
	RLI_MEMORY_DEVICE_ALL = RLI_MEMORY_DEVICE_ACCELERATORS | RLI_MEMORY_DEVICE_CPU
};

typedef struct {
	rli_memory_parse_options common; /* ranks, roles, jobs, log */
	unsigned devices;                /* RLI_MEMORY_DEVICE_* bits; default the accelerators */
} rli_torch_memory_options;

void rli_torch_memory_options_init(rli_torch_memory_options *options);

/*
 * The memory table from PyTorch profiler traces (*.json.gz under input_path, found as the
 * torch timeline finds them): one row per [memory] allocation event of the chosen devices,
 * paired with its free by (Addr, device) for its duration (never freed: released 0,
 * duration 0); a free with no allocation in the capture is a row of its own with a negative
 * size. name "[memory]", role the trace's folder, rank its distributedInfo (else its file
 * name's, else 0), device_type "CUDA:<id>", "HIP:<id>", "NPU:<id>" or "CPU:<id>", no call stack.
 * Results and errors as rli_memory_parse.
 */
int rli_torch_memory_parse(rli_memory **out, const char *input_path, const rli_torch_memory_options *options);

/*
 * rli_parse, and from the same read of each PyTorch trace the memory table
 * rli_torch_memory_parse would give: one pass over every file for both.
 * *memory receives it when the format read is torch and the kept traces hold
 * at least one [memory] row of memory_options->devices (else NULL): of the
 * memory options only devices and common.role_list count; the ranks, jobs and
 * log are options'. Results and errors are rli_parse's: the memory table is
 * not validated (an input without memory events is no error).
 */
int rli_parse_with_memory(rli_events **events, rli_memory **memory, rli_profiler *detected,
			  const char *input_path, const rli_parse_options *options,
			  const rli_torch_memory_options *memory_options);

/*
 * How many *ascend_pt captures under input_path hold an
 * ASCEND_PROFILER_OUTPUT/operator_memory.csv (0 when none, or when the path
 * cannot be read); RLI_ERROR when out of memory. What auto detection asks.
 */
int rli_memory_capture_count(const char *input_path);

/*
 * The memory table from the tables --export writes: memory_events.csv or memory_events.jsonl as
 * input_path, or every one under the folder input_path (searched recursively), merged in start
 * order with the tie rule (rli_memory_sort_by_start; table.c). The export's last columns say
 * whether a block was released and how its row found its call stack; a table without them
 * reads a row with a call stack (or, for a PyTorch device, an operator) as RLI_MEMORY_INSIDE,
 * one without as RLI_MEMORY_UNMATCHED, and a duration of 0 as a block never released. Results
 * and errors as
 * rli_memory_parse; failures name the file and the line.
 */
int rli_table_memory_parse(rli_memory **out, const char *input_path, const rli_memory_parse_options *options);

/*
 * How many memory tables (memory_events.csv|jsonl) input_path is or holds, when it is read as
 * tables: profiler RLI_PROFILER_TABLE, or RLI_PROFILER_AUTO where no other format shows in it;
 * else 0. RLI_ERROR when out of memory. What auto detection asks.
 */
int rli_memory_table_count(const char *input_path, rli_profiler profiler);

size_t rli_memory_count(const rli_memory *memory);
/* Fills *out with row index; RLI_EUSAGE when index >= rli_memory_count. */
int rli_memory_get(rli_memory_row *out, const rli_memory *memory, size_t index);
void rli_memory_count_matches(rli_memory_match_counts *out, const rli_memory *memory);
void rli_memory_free(rli_memory *memory);

/*
 * Writes the table with the reference's columns in its order (name, role, rank_id,
 * call_stack, call_stack_top, size_kb, start_time_ms, duration_ms, total_allocated_mb,
 * total_reserved_mb, total_active_mb, device_type): into `set` when given, else
 * atomically on its own; the command line names the file memory_events.csv or
 * memory_events.jsonl.
 */
int rli_memory_export(const rli_memory *memory, rli_export_format format, const char *path,
		      rli_output_set *set);
/*
 * Whether the table holds a device file's reserve apart from its rows (Ascend's
 * memory_record.csv), and that reserve written as a table beside the rows (role, rank_id,
 * device_type, time_ms, total_reserved_mb; the command line names it memory_reserved.csv or
 * .jsonl), which reading the rows back takes with them. Arguments as rli_memory_export.
 */
int rli_memory_has_reserve(const rli_memory *memory);
int rli_memory_export_reserve(const rli_memory *memory, rli_export_format format, const char *path,
			      rli_output_set *set);

/* ---- MoE expert load (GMM) -------------------------------------------- */

/*
 * The expert-load table: one row per element of each msprobe dump
 * step_<n>/<role>/.../rank<r>/.../dump_tensor_data/...npu_grouped_matmul.<op>.forward.kwargs.group_list.pt
 * (gmm.md §1), element i = tokens routed to expert i. Rows in the reference's order: by step,
 * role (code-point order), rank_id, stage (the op index), expert_index, load. Opaque.
 */
typedef struct rli_gmm rli_gmm;

/* A row as read back; the role lives as long as the table. */
typedef struct {
	const char *role;
	int64_t rank_id;
	int64_t step;
	int64_t stage;
	int64_t expert_index;
	double load; /* the tensor's value exactly (not rounded to float32); NaN where it held NaN */
} rli_gmm_row;

typedef struct {
	const char *rank_list; /* input.rank_list: NULL or "all", else "0,2,4-7" */
	const char *step_list; /* heatmap.parser.step: NULL every step, else "1,2" or "1-4" */
	const char *role_list; /* heatmap.parser.role: NULL every role, else "actor_update" or a comma list */
	unsigned jobs;         /* parser threads; 0 = number of CPUs */
	rli_log_fn log;        /* warnings and progress; NULL = silent */
	void *log_ctx;
	unsigned shard_index, shard_count; /* as in rli_parse_options */
} rli_gmm_parse_options;

void rli_gmm_parse_options_init(rli_gmm_parse_options *options);

/*
 * Finds every group_list.pt dump under input_path (rank and step from the folders below it),
 * keeps those of the ranks, steps and roles asked for, and reads each with a reader of our own
 * that understands only what torch.save writes for a tensor (the zip archive through libzip, or
 * the legacy format) and refuses anything else, executing nothing. Dumps parse in parallel.
 *
 * *out receives the table on RLI_OK and on RLI_EPARTIAL (some dumps failed, each named, and
 * were skipped). RLI_EINVALID when the tree breaks the rules or gives no row, with
 * "Data validation failed" and one "\n  - <message>" per failure in rli_error_last();
 * RLI_EUSAGE for a bad rank or step list or no path. options may be NULL.
 */
int rli_gmm_parse(rli_gmm **out, const char *input_path, const rli_gmm_parse_options *options);

/*
 * The table from what --export wrote: gmm_events.csv or gmm_events.jsonl as input_path, or every
 * one under the folder input_path (shards' tables merge into the table of one run over the whole
 * input). The filters apply to the rows. Results and errors as rli_gmm_parse; a bad row fails
 * its file, named with the line.
 */
int rli_table_gmm_parse(rli_gmm **out, const char *input_path, const rli_gmm_parse_options *options);

/*
 * How many group_list.pt dumps under a dump_tensor_data folder input_path holds (0 when none or
 * unreadable), and how many GMM tables (gmm_events.csv|jsonl) it is or holds when read as
 * tables (profiler RLI_PROFILER_TABLE, or RLI_PROFILER_AUTO); RLI_ERROR when out of memory.
 * What auto detection asks.
 */
int rli_gmm_dump_count(const char *input_path);
int rli_gmm_table_count(const char *input_path, rli_profiler profiler);

size_t rli_gmm_count(const rli_gmm *gmm);
/* Fills *out with row index; RLI_EUSAGE when index >= rli_gmm_count. */
int rli_gmm_get(rli_gmm_row *out, const rli_gmm *gmm, size_t index);
void rli_gmm_free(rli_gmm *gmm);

/*
 * Writes the table with the reference's columns in its order (role, rank_id, step, stage,
 * expert_index, load): into `set` when given, else atomically on its own; the command line
 * names the file gmm_events.csv or gmm_events.jsonl. A NaN load is an empty CSV field, a JSON null.
 */
int rli_gmm_export(const rli_gmm *gmm, rli_export_format format, const char *path, rli_output_set *set);

/* ---- layout ----------------------------------------------------------- */

/*
 * A laid-out figure as a document: metadata, the stem its files are named
 * after, and pages of placed items (plot panels, legends, text). Every
 * back-end draws from it. Opaque; it lives as long as its figure.
 */
typedef struct rli_document rli_document;


/* The timeline's layout model: everything a reader sees, placed. Opaque. */
typedef struct rli_timeline rli_timeline;

/*
 * What a layout is for. A raster image stops at 32767 device pixels a side,
 * so a raster layout brings its scale down to fit the width and, past that,
 * sets taller pages' rows closer; a vector layout (PDF, HTML) has no limit.
 */
typedef enum { RLI_MEDIUM_RASTER = 0, RLI_MEDIUM_VECTOR } rli_medium;

/* The page widths every output supports, in CSS px. */
#define RLI_TIMELINE_MIN_WIDTH 300
#define RLI_TIMELINE_MAX_WIDTH 20000
#define RLI_TIMELINE_MAX_SCALE 8

/* How a timeline figure is sized and set (--style). */
typedef enum {
	RLI_STYLE_DEFAULT = 0, /* the reference PNG's geometry: `width` CSS px at `scale`, 50 px rows */
	RLI_STYLE_PAPER,       /* one journal column: 3.5 in wide, 300 dpi, text 7 pt and up, rows as tall as it */
	RLI_STYLE_PAPER_WIDE   /* the same across two columns: 7 in wide */
} rli_timeline_style;

/*
 * One device's memory pages as the run's other pages link to them (rli_run_context): its
 * segments' pages and the span of x each shows, in ms from the run's t = 0, and its peak.
 */
typedef struct {
	const char *role;
	int64_t rank;
	const char *label;          /* "actor - Rank 0", and its device type where the rank has several */
	const char *peak_page;      /* file stem of the page that shows its peak */
	double peak_mb, peak_ms;    /* the peak's value and its time from the run's t = 0 */
	size_t allocations, never_freed;
	size_t segment_count;
	const char *const *segment_pages; /* file stems, NULL for a segment without allocations */
	const double *segment_min, *segment_max;
} rli_run_device;

/*
 * What the outputs of one run know of each other (rli_timeline_options.run), so that every
 * figure and page of the run counts time from one t = 0 and the pages link to each other.
 */
typedef struct {
	/* t = 0 of every figure of the run, its first event, in the profiles' clock (ms); not finite: each its own */
	double origin_ms;
	const char *home;           /* the run's home page, a file stem ("index"); NULL: none */
	const char *timeline;       /* the timeline page's file stem ("rl_timeline"); NULL: none */
	size_t device_count;        /* the memory pages by device, for the timeline's rows to link to */
	const rli_run_device *devices;
} rli_run_context;

/*
 * Options of a figure. Always fill with rli_timeline_options_init before
 * setting fields: fields are only ever added at the end, each with a default
 * that keeps the earlier behaviour.
 */
typedef struct {
	int width;             /* page width in CSS px (timeline.visualizer.width), default 2000 */
	int scale;             /* device pixels per CSS px asked for raster output, default 2 */
	double merge_short_ms; /* > 0: chain-merge bars of at most this length (gap <= 2 ms) */
	rli_medium medium;     /* default RLI_MEDIUM_RASTER */
	rli_timeline_style style; /* default RLI_STYLE_DEFAULT; the paper styles set width and scale themselves */
	/*
	 * 1: a figure with more rows than its page shows readably (each row at
	 * least a row label tall) shows each role's occupancy over time and the
	 * outlier ranks instead (for a PNG or a PDF; the command line's default,
	 * --all-rows turns it off). 0 (default): every row, however close, as an
	 * HTML page that scrolls needs.
	 */
	int overview;
	/*
	 * 1: the run's headline finding (of the report's findings, a straggler
	 * first, else an outlier step, the longest wait, the idlest rank) as a
	 * caption under the figure; needs the statistics, so only
	 * the layouts given them show it. Default 0.
	 */
	int caption;
	/*
	 * The most threads laying out a figure's devices at once (the memory
	 * figure, the memory pages): 0 (default) one a CPU, 1 the caller's only.
	 * The layout is the same either way.
	 */
	unsigned threads;
	/*
	 * The memory figure: > 0, the most page units its curve and Gantt may take together, from the
	 * curve's top to the Gantt's bottom; the Gantt's lanes are set closer to fit (their labels
	 * thinned as they must), as a report's page needs where a device has many operators. Default
	 * 0: as tall as its lanes make it.
	 */
	double max_height;
	/*
	 * 1 (default): with statistics, their tables go beside the figure for the back-ends that show
	 * asides (the HTML); 0 leaves them out, for a layout only a PNG or a PDF will draw, which never
	 * show them (a million steps' rows of a table no one reads).
	 */
	int stats_aside;
	/*
	 * The run this figure is one output of: its t = 0 (every figure of the run the same) and the
	 * pages to link to. NULL (default): the figure's own first event is its t = 0, and it links
	 * to nothing outside its document. Must outlive the layout.
	 */
	const rli_run_context *run;
	/*
	 * 1: a vector layout wanted only to draw a PNG from (RLI_MEDIUM_VECTOR, for no PDF, page or
	 * report): when its page is sure to be too tall for a raster image (its rows alone, without a
	 * legend under them, pass the 32767-pixel limit at its scale), the layout stops before its
	 * bars and *out stays NULL (RLI_OK), and the caller lays the figure out for
	 * RLI_MEDIUM_RASTER instead: a tall figure's million bars are built once, not twice.
	 * Default 0: the layout is made whatever its height.
	 */
	int only_if_raster_fits;
} rli_timeline_options;

void rli_timeline_options_init(rli_timeline_options *options);

/*
 * The memory figure: a page per device, that is per (role, rank) in
 * ascending order: the memory curve (blocks never freed live to the end of
 * the capture) with its peak, over the allocation Gantt, and the largest
 * blocks live at the peak. Opaque. Options as the timeline's (width, scale,
 * medium). RLI_EINVALID when no row is an allocation.
 */
typedef struct rli_memory_figure rli_memory_figure;

int rli_memory_layout(rli_memory_figure **out, const rli_memory *memory, const rli_timeline_options *options);
const rli_document *rli_memory_figure_document(const rli_memory_figure *figure);
void rli_memory_figure_free(rli_memory_figure *figure);

/*
 * The interactive memory pages: per device, that is per (role, rank) in
 * ascending order, the device's time split into at most 20 segments of about
 * 5,000 allocations each, a page per segment that holds any (the memory
 * curve over the operator Gantt, in the HTML back-end a page and its data
 * file), and with several devices an index page linking them all. Files:
 * memory_timeline_NN.html and detail_data_NN.js for one device;
 * memory_timeline_<role>_rank<r>_NN.html and detail_data_<role>_rank<r>_NN.js
 * and index.html for several. The document refers to the table's strings:
 * free it before the table. RLI_EINVALID when no row is an allocation.
 */
typedef struct rli_memory_pages rli_memory_pages;

int rli_memory_pages_layout(rli_memory_pages **out, const rli_memory *memory, const rli_timeline_options *options);
const rli_document *rli_memory_pages_document(const rli_memory_pages *pages);
void rli_memory_pages_free(rli_memory_pages *pages);

/* RLI_EINVALID when no row has end > start (nothing to draw). */
int rli_timeline_layout(rli_timeline **out, const rli_events *events,
			const rli_timeline_options *options);
void rli_timeline_free(rli_timeline *timeline);

const rli_document *rli_timeline_document(const rli_timeline *timeline);

/*
 * Device pixels per CSS px a PNG of this document is drawn at: the scale
 * asked for, or less where the width would pass 32767 pixels. 0 when a page
 * is too tall for any raster (a vector layout of many rows): lay it out
 * again with RLI_MEDIUM_RASTER for the PNG.
 */
double rli_document_raster_scale(const rli_document *document);

/* ---- rendering -------------------------------------------------------- */

/* "png", "html", "pdf": the back-ends built in. */
int rli_backend_exists(const char *name);

/*
 * Renders the document with back-end `name` into the folder out_dir. The
 * document names the files: "<name>.pdf" and "<name>.html" for the whole
 * document; "<name>.png" for a one-page document, "<name>_<NN>.png" a page
 * otherwise. Into `set` when given, else each file atomically on its own.
 */
int rli_render(const rli_document *document, const char *backend_name,
	       const char *out_dir, rli_output_set *set);

/* How to render. Always fill with rli_render_options_init first. */
typedef struct {
	/*
	 * The most threads drawing a document of a file per page (the memory
	 * figure's PNGs, the memory pages) at once, 4 at most: 0 (default) one a CPU,
	 * 1 the caller's only. Files go into the set in page order either way.
	 */
	unsigned threads;
} rli_render_options;

void rli_render_options_init(rli_render_options *options);
/* rli_render with options; NULL: the defaults. */
int rli_render_with(const rli_document *document, const char *backend_name, const char *out_dir,
		    rli_output_set *set, const rli_render_options *options);

#ifdef __cplusplus
}
#endif

#endif

/* test_torch_memory_ops.c: a torch [memory] row's operator (the innermost cpu_op of its thread around it) and Python stack, on a trace worked out by hand and on every row the generator writes. */
#include "harness.h"
#include "torch_fixture.h"

#include <stdlib.h>
#include <string.h>

#define CUDA_EVENT(tid, ts, bytes, addr, total)                                                                    \
	"{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 10, "            \
	"\"tid\": " #tid ", \"ts\": " #ts ", \"args\": {\"Bytes\": " #bytes ", \"Addr\": " #addr ", "                  \
	"\"Device Type\": 1, \"Device Id\": 0, \"Total Allocated\": " #total ", \"Total Reserved\": 8388608}}"
#define SPAN(cat, name, tid, ts, dur)                                                                              \
	"{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 10, \"tid\": " #tid ", \"ts\": " #ts   \
	", \"dur\": " #dur "}"

/*
 * tid 11: aten::linear [100, 150] around aten::mm [110, 130]; aten::empty [400, 410];
 * aten::add [500, 530] and aten::mul [500, 510] (one start: the shorter is the inner);
 * Python outer [50, 650] around mid [90, 190] around inner [105, 115].
 * tid 12: aten::copy_ [200, 300], Python other [0, 1000].
 * The events, written out of time order (A's free first, ops after the events they contain):
 *   A  tid 11 at 112: 1024 KiB, freed at 420    -> aten::mm, inner;mid;outer
 *   G  tid 11 at 150: 128 KiB (linear's end)    -> aten::linear, mid;outer
 *   B  tid 11 at 250: 2048 KiB (copy_ is tid 12) -> [memory], outer
 *   E  tid 11 at 410: 64 KiB (empty's end)      -> aten::empty, outer
 *   D  tid 11 at 505: -256 KiB, from before     -> aten::mul, outer
 *   C  tid 12 at 700: 512 KiB                   -> [memory], other
 *   H  tid 11 at 800: 32 KiB                    -> [memory], no stack
 */
static const char hand_trace[] =
	"{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 1}, \"traceEvents\": [\n"
	CUDA_EVENT(11, 420, -1048576, 4096000, 2424832) ",\n"
	CUDA_EVENT(11, 112, 1048576, 4096000, 1310720) ",\n"
	CUDA_EVENT(12, 700, 524288, 8192000, 3833856) ",\n"
	CUDA_EVENT(11, 250, 2097152, 6144000, 3538944) ",\n"
	SPAN("cpu_op", "aten::mm", 11, 110, 20) ",\n"
	SPAN("cpu_op", "aten::linear", 11, 100, 50) ",\n"
	CUDA_EVENT(11, 150, 131072, 5120000, 1441792) ",\n"
	SPAN("cpu_op", "aten::copy_", 12, 200, 100) ",\n"
	SPAN("cpu_op", "aten::empty", 11, 400, 10) ",\n"
	CUDA_EVENT(11, 410, 65536, 7168000, 3604480) ",\n"
	SPAN("cpu_op", "aten::add", 11, 500, 30) ",\n"
	SPAN("cpu_op", "aten::mul", 11, 500, 10) ",\n"
	CUDA_EVENT(11, 505, -262144, 1000, 2162688) ",\n"
	SPAN("python_function", "b.py(2): mid", 11, 90, 100) ",\n"
	SPAN("python_function", "a.py(1): outer", 11, 50, 600) ",\n"
	SPAN("python_function", "c.py(3): inner", 11, 105, 10) ",\n"
	SPAN("python_function", "x.py(9): other", 12, 0, 1000) ",\n"
	CUDA_EVENT(11, 800, 32768, 9216000, 3866624) "\n]}\n";

static void check_hand_trace(const char *root)
{
	static const struct {
		double start_ms, size_kb, duration_ms;
		const char *name, *stack, *top;
	} want[] = {
		{0.112, 1024, 0.308, "aten::mm", "c.py(3): inner;\r\nb.py(2): mid;\r\na.py(1): outer", "c.py(3): inner"},
		{0.150, 128, 0, "aten::linear", "b.py(2): mid;\r\na.py(1): outer", "b.py(2): mid"},
		{0.250, 2048, 0, "[memory]", "a.py(1): outer", "a.py(1): outer"},
		{0.410, 64, 0, "aten::empty", "a.py(1): outer", "a.py(1): outer"},
		{0.505, -256, 0, "aten::mul", "a.py(1): outer", "a.py(1): outer"},
		{0.700, 512, 0, "[memory]", "x.py(9): other", "x.py(9): other"},
		{0.800, 32, 0, "[memory]", "", ""},
	};
	const size_t count = sizeof(want) / sizeof(want[0]);
	char *dir = strdup(fx_path(root, "hand"));
	rli_memory *memory;
	fx_write_gz(dir, "actor/prof_rank-0_000000.json.gz", hand_trace, 100);
	memory = tf_parse(dir, RLI_MEMORY_DEVICE_CUDA, 1);
	CHECK(memory != NULL);
	CHECK_INT(memory ? rli_memory_count(memory) : 0, count);
	for (size_t i = 0; memory && i < count && i < rli_memory_count(memory); i++) {
		rli_memory_row row = mf_get(memory, i);
		CHECK_NEAR(row.start_time_ms, want[i].start_ms, 1e-9);
		CHECK_NEAR(row.size_kb, want[i].size_kb, 0);
		CHECK_NEAR(row.duration_ms, want[i].duration_ms, 1e-9);
		CHECK_STR(row.name, want[i].name);
		CHECK_STR(row.call_stack, want[i].stack);
		CHECK_STR(row.call_stack_top, want[i].top);
		CHECK_INT(row.match, strcmp(want[i].name, "[memory]") ? RLI_MEMORY_INSIDE : RLI_MEMORY_UNMATCHED);
		CHECK_NEAR(row.match_gap_ms, 0, 0);
		CHECK_STR(row.device_type, "CUDA:0");
	}
	rli_memory_free(memory);
	free(dir);
}

/* How the rows of one layout of ops came out: how many, and how many got what the layout gives. */
typedef struct {
	const char *op_case;
	size_t rows, as_laid_out;
} case_tally;

/* What a layout gives by itself (the timeline's own cpu_ops may cover an event: rarely). */
static int as_laid_out(const char *op_case, const rli_memory_row *got)
{
	int inside = got->match == RLI_MEMORY_INSIDE;
	if (!strcmp(op_case, "nested"))
		return inside && !strcmp(got->name, "aten::mm");
	if (!strcmp(op_case, "other_tid") || !strcmp(op_case, "outside"))
		return !inside && !strcmp(got->name, "[memory]");
	if (!strcmp(op_case, "both_tids"))
		return inside && strcmp(got->name, "aten::copy_") != 0; /* the other thread's op is aten::copy_ */
	return inside && strcmp(got->name, "[memory]") != 0;      /* plain, start_edge, end_edge */
}

/* The top is the stack's first frame, whatever the generator says. */
static int top_is_first_frame(const rli_memory_row *got)
{
	const char *end = strstr(got->call_stack, ";\r\n");
	size_t length = end ? (size_t)(end - got->call_stack) : strlen(got->call_stack);
	return strlen(got->call_stack_top) == length && strncmp(got->call_stack_top, got->call_stack, length) == 0;
}

static void check_generated(const char *root, const char *name, const tf_set *set)
{
	tf_run run;
	size_t wrong = 0, with_stack = 0, inside = 0;
	case_tally tally[] = {{"nested", 0, 0},     {"other_tid", 0, 0},  {"outside", 0, 0}, {"both_tids", 0, 0},
			      {"start_edge", 0, 0}, {"end_edge", 0, 0}, {"plain", 0, 0}};

	tf_run_open(&run, root, name, set, 2);
	CHECK(run.memory != NULL);
	CHECK(run.in_start_order);
	CHECK_INT(run.got_count, run.count);
	for (size_t i = 0; i < run.count && i < run.got_count; i++) {
		const mf_expected *want = &run.expected[i];
		const rli_memory_row *got = &run.got[i];
		/* Every field of every row, the operator, stack and match included. */
		if (!mf_row_equal(want, got) && wrong++ < 3)
			fprintf(stderr, "%s row %zu (%s): got %s %.17g %s [%s] match %d\n  want %s %.17g %s [%s] match %d\n",
				name, i, want->op_case, got->role, got->start_time_ms, got->name, got->call_stack_top,
				got->match, want->row.role, want->row.start_time_ms, want->row.name, want->row.call_stack_top,
				want->row.match);
		CHECK(top_is_first_frame(got));
		with_stack += got->call_stack[0] != '\0';
		inside += got->match == RLI_MEMORY_INSIDE;
		for (size_t t = 0; t < sizeof(tally) / sizeof(tally[0]); t++) {
			if (!strcmp(want->op_case, tally[t].op_case)) {
				tally[t].rows++;
				tally[t].as_laid_out += as_laid_out(tally[t].op_case, got);
			}
		}
	}
	if (wrong)
		fprintf(stderr, "%s: %zu of %zu rows differ\n", name, wrong, run.count);
	CHECK_INT(wrong, 0);
	/* Some rows inside the timeline's own cpu_ops, whatever the options. */
	CHECK(inside > 0);
	if (set->ops) {
		/* Every layout is there, and gives what it was laid out for (the timeline's cpu_ops aside). */
		for (size_t t = 0; t < sizeof(tally) / sizeof(tally[0]); t++) {
			CHECK(tally[t].rows >= 20);
			if (tally[t].as_laid_out * 10 < tally[t].rows * 9)
				fprintf(stderr, "%s: %s: %zu of %zu as laid out\n", name, tally[t].op_case,
					tally[t].as_laid_out, tally[t].rows);
			CHECK(tally[t].as_laid_out * 10 >= tally[t].rows * 9);
		}
		/* Traces taken with_stack and traces without. */
		CHECK(with_stack > run.count / 4 && with_stack < run.count * 3 / 4);
	} else {
		CHECK_INT(with_stack, 0);
	}
	tf_run_close(&run);
}

int main(void)
{
	char *root = fx_tempdir();
	static const tf_set sets[] = {
		{.steps = 2, .memory_events = 300, .seed = 7},
		{.steps = 2, .memory_events = 300, .ops = 1, .seed = 7},
		{.steps = 2, .memory_events = 300, .shuffle = 1, .seed = 8},
		{.steps = 2, .memory_events = 300, .ops = 1, .shuffle = 1, .seed = 8},
	};
	static const char *const names[] = {"plain", "ops", "shuffled", "ops_shuffled"};

	check_hand_trace(root);
	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++)
		check_generated(root, names[s], &sets[s]);
	fx_remove(root);
	free(root);
	TEST_DONE();
}

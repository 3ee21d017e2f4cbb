/* memory.c: Ascend memory capture trees (memory.md §1): the folders, their order as the parser finds them, expected_memory.jsonl. */
#include "memory.h"

#include <stdlib.h>
#include <string.h>

/* ---- the tree and the expected rows ---------------------------------------------- */

typedef struct {
	char *dir;     /* <output>/<role dir> */
	char *pt_name; /* <host>_<pid>_<time>_ascend_pt */
	char *key;     /* the timestamp part of the name: parts[-4] + "_" + parts[-3] when split on '_' */
	synth_unit unit;
	size_t group, order; /* the (role, rank) group by first appearance; the parse position */
} memory_unit;

/* The folder walk visits role folders by name, and the captures in each by name. */
static int compare_walk(const void *a, const void *b)
{
	const memory_unit *x = a, *y = b;
	int c = strcmp(x->dir, y->dir);
	return c ? c : strcmp(x->pt_name, y->pt_name);
}

static char *timestamp_key(const char *name)
{
	const char *parts[64];
	size_t lengths[64], count = 0;
	for (const char *p = name; count < 64;) {
		const char *end = strchr(p, '_');
		parts[count] = p;
		lengths[count++] = end ? (size_t)(end - p) : strlen(p);
		if (!end)
			break;
		p = end + 1;
	}
	if (count >= 4)
		return synth_path("%.*s_%.*s", (int)lengths[count - 4], parts[count - 4], (int)lengths[count - 3],
				  parts[count - 3]);
	if (count == 3)
		return synth_path("%.*s", (int)lengths[0], parts[0]);
	return synth_path("%s", name);
}

static const memory_unit *order_units; /* for the qsort comparators below */

/* Parse order: (role, rank) groups by first appearance in the walk, by timestamp key inside, then walk order. */
static int compare_parse(const void *a, const void *b)
{
	const memory_unit *x = &order_units[*(const size_t *)a], *y = &order_units[*(const size_t *)b];
	int c;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if ((c = strcmp(x->key, y->key)) != 0)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

int synth_mem_row_tie(const synth_mem_row *x, const synth_mem_row *y)
{
	char dx[48], dy[48];
	int c;
	if ((c = strcmp(x->role, y->role)) != 0)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	snprintf(dx, sizeof(dx), "%s:%d", x->device_kind ? x->device_kind : "NPU", x->device);
	snprintf(dy, sizeof(dy), "%s:%d", y->device_kind ? y->device_kind : "NPU", y->device);
	return strcmp(dx, dy);
}

/* rl-insight's global order: by start, ties by role, rank and device (synth_mem_row_tie), then parse order and file order. */
static int compare_rows(const void *a, const void *b)
{
	const synth_mem_row *x = a, *y = b;
	size_t ux = order_units[x->unit].order, uy = order_units[y->unit].order;
	int c;
	if (x->start_ms != y->start_ms)
		return x->start_ms < y->start_ms ? -1 : 1;
	if ((c = synth_mem_row_tie(x, y)) != 0)
		return c;
	if (ux != uy)
		return ux < uy ? -1 : 1;
	return x->position < y->position ? -1 : x->position > y->position;
}

static void write_number(synth_out *out, const char *key, double value)
{
	synth_out_printf(out, ", \"%s\": %.17g", key, value);
}

int synth_memory_append(synth_memory_run *run, const synth_mem_row *row)
{
	if (run->count == run->capacity) {
		size_t grown = run->capacity ? run->capacity * 2 : 4096;
		synth_mem_row *p = realloc(run->rows, grown * sizeof(*p));
		if (!p)
			return synth_fail(SYNTH_ERROR, "out of memory");
		run->rows = p;
		run->capacity = grown;
	}
	run->rows[run->count++] = *row;
	return SYNTH_OK;
}

int synth_memory_write_expected(const synth_memory_run *run, const char *path)
{
	static const char *const matches[] = {"none", "inside", "after_end"};
	synth_out out;
	int error = synth_out_open(&out, path, 0);
	if (error < 0)
		return error;
	for (size_t i = 0; i < run->count; i++) {
		const synth_mem_row *row = &run->rows[i];
		synth_out_puts(&out, "{\"name\": ");
		synth_out_json_string(&out, row->name);
		synth_out_puts(&out, ", \"role\": ");
		synth_out_json_string(&out, row->role);
		synth_out_printf(&out, ", \"rank_id\": %lld, \"call_stack\": ", (long long)row->rank);
		synth_out_json_string(&out, row->stack);
		synth_out_puts(&out, ", \"call_stack_top\": ");
		synth_out_json_string(&out, row->top);
		write_number(&out, "size_kb", row->size_kb);
		write_number(&out, "start_time_ms", row->start_ms);
		write_number(&out, "duration_ms", row->duration_ms);
		write_number(&out, "total_allocated_mb", row->allocated_mb);
		write_number(&out, "total_reserved_mb", row->reserved_mb);
		write_number(&out, "total_active_mb", row->active_mb);
		synth_out_printf(&out, ", \"device_type\": \"%s:%d\", \"released\": %d, \"match\": \"%s\"",
				 row->device_kind ? row->device_kind : "NPU", row->device, row->released, matches[row->match]);
		write_number(&out, "match_gap_ms", row->gap_ms);
		if (row->op_case) {
			/* torch rows: the layout of the ops around the event, and the curve's offset */
			synth_out_printf(&out, ", \"op_case\": \"%s\"", row->op_case);
			write_number(&out, "before_capture_mb", row->before_capture_mb);
		}
		synth_out_puts(&out, "}\n");
	}
	return synth_out_close(&out);
}

/* The CSV of a unit written to a counter: how big a unit of so many rows is. */
static int size_unit(synth_out *out, synth_rows *rows, const synth_plan *plan, const synth_unit *unit,
		     long long events)
{
	(void)rows;
	return synth_memory_write_unit(NULL, plan, unit, 0, out, NULL, events);
}

static int write_capture(synth_memory_run *run, memory_unit *u, size_t index, long long rows)
{
	const synth_plan *plan = run->plan;
	char *pt = synth_path("%s/%s", u->dir, u->pt_name);
	char *output = synth_path("%s/ASCEND_PROFILER_OUTPUT", pt ? pt : "");
	char *csv_path = synth_path("%s/operator_memory.csv", output ? output : "");
	char *trace_path = synth_path("%s/trace_view.json", output ? output : "");
	char *info = synth_path("%s/profiler_info_%d.json", pt ? pt : "", u->unit.rank);
	char *meta = synth_path("%s/profiler_metadata.json", pt ? pt : "");
	synth_out csv, trace;
	int error = SYNTH_OK, csv_open = 0, trace_open = 0;

	if (!pt || !output || !csv_path || !trace_path || !info || !meta)
		error = synth_fail(SYNTH_ERROR, "out of memory");
	if (error >= 0)
		error = synth_mkdir_p(output);
	if (error >= 0)
		error = synth_ascend_write_info(info, plan, &u->unit, 1);
	/* The memory checker wants profiler_metadata.json in every capture; the shared folder's name their role. */
	if (error >= 0)
		error = synth_ascend_write_metadata(meta, plan, &u->unit, u->unit.role % 2);
	if (error >= 0 && (error = synth_out_open(&csv, csv_path, 0)) >= 0)
		csv_open = 1;
	/* Without trace_view.json the rows have no call stacks: synth_memory_write_unit expects none. */
	if (error >= 0 && !(plan->options->ascend_quirks & SYNTH_QUIRK_NO_TRACE_VIEW) &&
	    (error = synth_out_open(&trace, trace_path, 0)) >= 0)
		trace_open = 1;
	if (error >= 0)
		error = synth_memory_write_unit(run, plan, &u->unit, index, &csv, trace_open ? &trace : NULL, rows);
	if (csv_open && synth_out_close(&csv) < 0 && error >= 0)
		error = SYNTH_EOUTPUT;
	if (trace_open && synth_out_close(&trace) < 0 && error >= 0)
		error = SYNTH_EOUTPUT;
	free(pt);
	free(output);
	free(csv_path);
	free(trace_path);
	free(info);
	free(meta);
	return error;
}

int synth_write_memory(const synth_plan *plan)
{
	const synth_options *options = plan->options;
	size_t count = (size_t)options->ranks * (size_t)plan->role_count * (size_t)options->steps, made = 0;
	memory_unit *units = calloc(count, sizeof(*units));
	size_t *parse = calloc(count, sizeof(*parse));
	synth_memory_run *run = calloc(1, sizeof(*run));
	char *expected = synth_path("%s/expected_memory.jsonl", options->output_dir);
	long long rows;
	int error = SYNTH_OK;

	if (!units || !parse || !run || !expected) {
		error = synth_fail(SYNTH_ERROR, "out of memory");
		goto done;
	}
	run->plan = plan;
	for (int role = 0; role < plan->role_count && error >= 0; role++)
		error = synth_memory_build_stacks(run, role);
	for (int role = 0; role < plan->role_count && error >= 0; role++) {
		if (!synth_plan_writes_role(plan, role))
			continue;
		for (int rank = 0; rank < options->ranks && error >= 0; rank++) {
			for (int step = 0; step < options->steps && error >= 0; step++) {
				memory_unit *u = &units[made++];
				synth_plan_unit(&u->unit, plan, role, rank, step);
				u->dir = synth_path("%s/%s", options->output_dir, synth_ascend_role_dir(plan, role));
				u->pt_name = synth_ascend_capture_name(plan, &u->unit);
				u->key = u->pt_name ? timestamp_key(u->pt_name) : NULL;
				if (!u->dir || !u->pt_name || !u->key)
					error = synth_fail(SYNTH_ERROR, "out of memory");
			}
		}
	}
	if (error < 0)
		goto done;
	count = made;
	qsort(units, count, sizeof(*units), compare_walk);
	rows = synth_events_per_unit(plan, (int)count, 2000, size_unit);
	for (size_t i = 0; i < count && error >= 0; i++)
		error = write_capture(run, &units[i], i, rows);
	if (error < 0)
		goto done;

	/* Groups by first appearance of (role, rank) in the walk; the role of a unit is its plan role. */
	for (size_t i = 0; i < count; i++) {
		units[i].group = i;
		for (size_t j = 0; j < i; j++) {
			if (units[j].unit.role == units[i].unit.role && units[j].unit.rank == units[i].unit.rank) {
				units[i].group = units[j].group;
				break;
			}
		}
		parse[i] = i;
	}
	order_units = units;
	qsort(parse, count, sizeof(*parse), compare_parse);
	for (size_t i = 0; i < count; i++)
		units[parse[i]].order = i;
	qsort(run->rows, run->count, sizeof(*run->rows), compare_rows);
	order_units = NULL;
	error = synth_memory_write_expected(run, expected);
done:
	for (size_t i = 0; units && i < count; i++) {
		free(units[i].dir);
		free(units[i].pt_name);
		free(units[i].key);
	}
	if (run) {
		for (int role = 0; role < 64; role++)
			for (int op = 0; op < SYNTH_MEMORY_OPS; op++)
				for (int v = 0; v < SYNTH_MEMORY_VARIANTS; v++) {
					free(run->stacks[role][op][v]);
					free(run->escaped[role][op][v]);
				}
		free(run->rows);
	}
	free(run);
	free(units);
	free(parse);
	free(expected);
	return error;
}

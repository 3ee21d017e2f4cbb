/* memory_layout.c: from the memory table to the figure's devices: allocations grouped by (role, rank). */
#include "memory_figure.h"
#include "common/error.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	rli_memory_row row;
	size_t index;
} keyed_row;

/* Devices in ascending (role, rank) order, as the reference groups them; rows keep table order inside. */
static int compare_device(const void *a, const void *b)
{
	const keyed_row *x = a, *y = b;
	int c = strcmp(x->row.role ? x->row.role : "", y->row.role ? y->row.role : "");
	if (c)
		return c;
	if (x->row.rank_id != y->row.rank_id)
		return x->row.rank_id < y->row.rank_id ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static int same_device(const rli_memory_row *a, const rli_memory_row *b)
{
	return a->rank_id == b->rank_id && strcmp(a->role ? a->role : "", b->role ? b->role : "") == 0;
}

int rli_memory_layout(rli_memory_figure **out, const rli_memory *memory, const rli_timeline_options *options)
{
	size_t total = rli_memory_count(memory), kept = 0, devices = 0;
	keyed_row *rows = malloc((total ? total : 1) * sizeof(*rows));
	double *start = malloc((total ? total : 1) * sizeof(double));
	double *duration = malloc((total ? total : 1) * sizeof(double));
	double *size = malloc((total ? total : 1) * sizeof(double));
	const char **op = malloc((total ? total : 1) * sizeof(char *));
	const char **stack = malloc((total ? total : 1) * sizeof(char *));
	rli_memory_device *device = malloc((total ? total : 1) * sizeof(*device));
	int error;

	*out = NULL;
	if (!rows || !start || !duration || !size || !op || !stack || !device) {
		error = rli_error_oom();
		goto done;
	}
	/* Frees (size <= 0) are not blocks: the curve is built from allocations and their durations. */
	for (size_t i = 0; i < total; i++) {
		if ((error = rli_memory_get(&rows[kept].row, memory, i)) < 0)
			goto done;
		rows[kept].index = i;
		if (rows[kept].row.size_kb > 0)
			kept++;
	}
	qsort(rows, kept, sizeof(*rows), compare_device);
	for (size_t i = 0; i < kept; i++) {
		const rli_memory_row *r = &rows[i].row;
		if (i == 0 || !same_device(&rows[i - 1].row, r)) {
			device[devices] = (rli_memory_device){ r->role ? r->role : "unknown", r->rank_id, 0,
							       start + i, duration + i, size + i, op + i, stack + i };
			devices++;
		}
		start[i] = r->start_time_ms;
		duration[i] = r->released ? r->duration_ms : 0;
		size[i] = r->size_kb;
		op[i] = r->name;
		stack[i] = r->call_stack_top;
		device[devices - 1].count++;
	}
	error = rli_memory_figure_layout(out, device, devices, options);
done:
	free(rows);
	free(start);
	free(duration);
	free(size);
	free(op);
	free(stack);
	free(device);
	return error;
}

/* torch_resolve.c: the operator and Python stack a torch [memory] event must get, from the cpu_op and python_function events written around it. */
#include "memory.h"

#include <stdlib.h>
#include <string.h>

#define STACK_SEPARATOR ";\r\n" /* Ascend's, which the torch rows share */

double synth_torch_micros(int64_t nanos)
{
	char text[32];
	synth_format_micros(text, sizeof(text), nanos);
	return strtod(text, NULL);
}

static int grow(void **items, size_t *capacity, size_t count, size_t size)
{
	if (count < *capacity)
		return SYNTH_OK;
	size_t grown = *capacity ? *capacity * 2 : 1024;
	void *p = realloc(*items, grown * size);
	if (!p)
		return synth_fail(SYNTH_ERROR, "out of memory");
	*items = p;
	*capacity = grown;
	return SYNTH_OK;
}

int synth_torch_ops_span(synth_torch_ops *ops, int thread, int python, const char *name, int64_t ts, int64_t dur)
{
	synth_torch_span *span;
	if (grow((void **)&ops->spans, &ops->span_capacity, ops->span_count, sizeof(*ops->spans)) < 0)
		return SYNTH_ERROR;
	span = &ops->spans[ops->span_count++];
	/* As the parser must: ts and dur each read from their text, then added. */
	span->start = synth_torch_micros(ts);
	span->end = span->start + synth_torch_micros(dur);
	span->name = name;
	span->thread = thread;
	span->python = python;
	return SYNTH_OK;
}

int synth_torch_ops_query(synth_torch_ops *ops, size_t row, int thread, int64_t at)
{
	synth_torch_query *query;
	if (grow((void **)&ops->queries, &ops->query_capacity, ops->query_count, sizeof(*ops->queries)) < 0)
		return SYNTH_ERROR;
	query = &ops->queries[ops->query_count++];
	query->row = row;
	query->thread = thread;
	query->at = synth_torch_micros(at);
	return SYNTH_OK;
}

/* By thread, kind, start; at one start the longer first, so the last one started is the shorter. */
static int compare_spans(const void *a, const void *b)
{
	const synth_torch_span *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->python != y->python)
		return x->python < y->python ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return 0;
}

static int compare_queries(const void *a, const void *b)
{
	const synth_torch_query *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static uint64_t hash_text(const char *text)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (; *text; text++)
		h = (h ^ (unsigned char)*text) * UINT64_C(1099511628211);
	return h;
}

/* The run's copy of text: one per distinct stack, however many rows share it. */
static const char *intern(synth_torch_ops *ops, synth_memory_run *run, const char *text)
{
	size_t slot;
	char *copy;
	if (2 * (ops->interned_count + 1) > ops->interned_capacity) {
		size_t capacity = ops->interned_capacity ? 2 * ops->interned_capacity : 256;
		char **table = calloc(capacity, sizeof(*table));
		if (!table)
			return NULL;
		for (size_t i = 0; i < ops->interned_capacity; i++) {
			if (!ops->interned[i])
				continue;
			for (slot = hash_text(ops->interned[i]) & (capacity - 1); table[slot]; slot = (slot + 1) & (capacity - 1))
				;
			table[slot] = ops->interned[i];
		}
		free(ops->interned);
		ops->interned = table;
		ops->interned_capacity = capacity;
	}
	for (slot = hash_text(text) & (ops->interned_capacity - 1); ops->interned[slot];
	     slot = (slot + 1) & (ops->interned_capacity - 1)) {
		if (strcmp(ops->interned[slot], text) == 0)
			return ops->interned[slot];
	}
	if (grow((void **)&run->strings, &run->string_capacity, run->string_count, sizeof(*run->strings)) < 0 ||
	    !(copy = strdup(text)))
		return NULL;
	run->strings[run->string_count++] = copy;
	ops->interned[slot] = copy;
	ops->interned_count++;
	return copy;
}

/*
 * One thread's queries against its spans of one kind, in time order: the spans started by the
 * query's time are pushed in start order; those ended before it are popped off the top (they end
 * before every later query too); what is left on top is the innermost containing span. Before a
 * span is pushed, those ended before it starts are popped too, so none stays buried under it.
 */
typedef struct {
	size_t *active;
	size_t count;
} span_stack;

static void advance(span_stack *stack, const synth_torch_span *spans, size_t *next, size_t end, double at)
{
	while (*next < end && spans[*next].start <= at) {
		while (stack->count && spans[stack->active[stack->count - 1]].end < spans[*next].start)
			stack->count--;
		stack->active[stack->count++] = (*next)++;
	}
	while (stack->count && spans[stack->active[stack->count - 1]].end < at)
		stack->count--;
}

/* The frames of the python_functions containing at, innermost first, joined into buffer. */
static int join_stack(char **buffer, size_t *capacity, const span_stack *stack, const synth_torch_span *spans,
		      double at, const char **top)
{
	size_t used = 0;
	*top = "";
	(*buffer)[0] = '\0';
	for (size_t k = stack->count; k-- > 0;) {
		const synth_torch_span *span = &spans[stack->active[k]];
		size_t length = strlen(span->name);
		if (span->end < at)
			continue;
		if (used + length + sizeof(STACK_SEPARATOR) + 1 > *capacity) {
			size_t grown = 2 * (used + length + sizeof(STACK_SEPARATOR) + 1);
			char *p = realloc(*buffer, grown);
			if (!p)
				return synth_fail(SYNTH_ERROR, "out of memory");
			*buffer = p;
			*capacity = grown;
		}
		if (used) {
			memcpy(*buffer + used, STACK_SEPARATOR, sizeof(STACK_SEPARATOR) - 1);
			used += sizeof(STACK_SEPARATOR) - 1;
		} else {
			*top = span->name;
		}
		memcpy(*buffer + used, span->name, length + 1);
		used += length;
	}
	return SYNTH_OK;
}

int synth_torch_ops_resolve(synth_torch_ops *ops, synth_memory_run *run)
{
	const synth_torch_span *spans = ops->spans;
	span_stack cpu = {NULL, 0}, python = {NULL, 0};
	size_t capacity = 256, s = 0;
	char *buffer = malloc(capacity);
	int error = SYNTH_OK;

	qsort(ops->spans, ops->span_count, sizeof(*ops->spans), compare_spans);
	qsort(ops->queries, ops->query_count, sizeof(*ops->queries), compare_queries);
	cpu.active = malloc((ops->span_count + 1) * sizeof(size_t));
	python.active = malloc((ops->span_count + 1) * sizeof(size_t));
	if (!buffer || !cpu.active || !python.active) {
		error = synth_fail(SYNTH_ERROR, "out of memory");
		goto done;
	}
	for (size_t q = 0; q < ops->query_count && error >= 0;) {
		int thread = ops->queries[q].thread;
		size_t cpu_next, cpu_end, python_next, python_end;
		/* This thread's cpu_ops, then its python_functions (the sort's order). */
		while (s < ops->span_count && spans[s].thread < thread)
			s++;
		cpu_next = cpu_end = s;
		while (cpu_end < ops->span_count && spans[cpu_end].thread == thread && !spans[cpu_end].python)
			cpu_end++;
		python_next = python_end = cpu_end;
		while (python_end < ops->span_count && spans[python_end].thread == thread)
			python_end++;
		cpu.count = python.count = 0;
		for (; q < ops->query_count && ops->queries[q].thread == thread; q++) {
			const synth_torch_query *query = &ops->queries[q];
			synth_mem_row *row = &run->rows[query->row];
			const char *top, *stack;
			advance(&cpu, spans, &cpu_next, cpu_end, query->at);
			advance(&python, spans, &python_next, python_end, query->at);
			row->name = cpu.count ? spans[cpu.active[cpu.count - 1]].name : "[memory]";
			row->match = cpu.count ? 1 : 0;
			row->gap_ms = 0;
			if ((error = join_stack(&buffer, &capacity, &python, spans, query->at, &top)) < 0)
				break;
			if (!(stack = buffer[0] ? intern(ops, run, buffer) : "")) {
				error = synth_fail(SYNTH_ERROR, "out of memory");
				break;
			}
			row->stack = stack;
			row->top = top;
		}
		s = python_end;
	}
done:
	ops->span_count = ops->query_count = 0;
	free(buffer);
	free(cpu.active);
	free(python.active);
	return error;
}

void synth_torch_ops_free(synth_torch_ops *ops)
{
	free(ops->spans);
	free(ops->queries);
	free(ops->interned);
	memset(ops, 0, sizeof(*ops));
}

void synth_memory_run_strings_free(synth_memory_run *run)
{
	for (size_t i = 0; i < run->string_count; i++)
		free(run->strings[i]);
	free(run->strings);
	run->strings = NULL;
	run->string_count = run->string_capacity = 0;
}

/* torch_memory.c: the PyTorch profiler's [memory] instant events in a torch trace, and the memory rows they must give. */
#include "memory.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_BASE UINT64_C(0x7f3a00000000) /* CUDA caching-allocator addresses look like this */
#define BLOCK_STEP UINT64_C(0x100000)
#define MIB 1048576.0

typedef struct {
	uint64_t addr;
	int64_t bytes;
	size_t row; /* its expected row, SIZE_MAX when sizing */
} live_block;

/* One CUDA device's allocator as the trace shows it. */
typedef struct {
	int id;
	int64_t allocated;   /* Total Allocated after the event */
	int64_t reserved;    /* Total Reserved: the cache, whole 2 MiB segments, never shrinking here */
	live_block *live;    /* blocks allocated and not yet freed */
	size_t live_count;
	uint64_t *spare;     /* freed addresses, handed out again as the caching allocator does */
	size_t spare_count;
	uint64_t next_slot;  /* the next fresh address (the same for both devices: Addr alone pairs wrongly) */
	int64_t *before;     /* sizes of the blocks allocated before the capture and freed in it */
	size_t before_count;
} device_state;

typedef struct {
	synth_out *out;
	long long *count;
	synth_memory_run *run;
	const synth_plan *plan;
	const synth_unit *unit;
	size_t unit_index;
	const char *pid;
	uint64_t position;
} writer;

static void write_event(writer *w, const char *tid, int64_t at, int type, int id, uint64_t addr, int64_t bytes,
			int64_t allocated, int64_t reserved)
{
	synth_out_puts(w->out, (*w->count)++ ? ",\n  {\n" : "\n  {\n");
	synth_out_printf(w->out, "    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n"
				 "    \"pid\": %s, \"tid\": %s,\n    \"ts\": ", w->pid, tid);
	synth_out_micros(w->out, at);
	/* Total Reserved first: the parser must not rely on the profiler's key order. */
	synth_out_printf(w->out, ",\n    \"args\": {\n      \"Total Reserved\": %lld, \"Bytes\": %lld, \"Total Allocated\": %lld, "
				 "\"Addr\": %llu, \"Device Id\": %d, \"Device Type\": %d\n    }\n  }",
			 (long long)reserved, (long long)bytes, (long long)allocated, (unsigned long long)addr, id, type);
}

/* The time the parser reads back: the µs text the trace holds, as ms. */
static double read_ms(int64_t at)
{
	char text[32];
	synth_format_micros(text, sizeof(text), at);
	return strtod(text, NULL) / 1000;
}

static int add_row(writer *w, const device_state *d, int64_t at, int64_t bytes, size_t *index)
{
	synth_mem_row row;
	*index = SIZE_MAX;
	if (!w->run)
		return SYNTH_OK;
	memset(&row, 0, sizeof(row));
	row.name = "[memory]";
	row.role = w->plan->roles[w->unit->role].dir_name;
	row.stack = row.top = "";
	row.rank = w->unit->rank;
	row.device = d->id;
	row.device_kind = "CUDA";
	row.size_kb = (double)bytes / 1024;
	row.start_ms = read_ms(at);
	row.allocated_mb = (double)d->allocated / MIB;
	row.reserved_mb = (double)d->reserved / MIB;
	row.unit = w->unit_index;
	row.position = w->position++;
	*index = w->run->count;
	return synth_memory_append(w->run, &row);
}

static int allocate(writer *w, device_state *d, synth_rng *rng, const char *tid, int64_t at)
{
	int64_t bytes = 512 * (int64_t)(1 + synth_rng_below(rng, 16384));
	uint64_t addr;
	live_block *block;
	if (d->spare_count && synth_rng_below(rng, 2))
		addr = d->spare[--d->spare_count];
	else
		addr = BLOCK_BASE + BLOCK_STEP * d->next_slot++;
	d->allocated += bytes;
	while (d->reserved < d->allocated)
		d->reserved += 2 * (int64_t)MIB;
	write_event(w, tid, at, 1, d->id, addr, bytes, d->allocated, d->reserved);
	block = &d->live[d->live_count++];
	block->addr = addr;
	block->bytes = bytes;
	return add_row(w, d, at, bytes, &block->row);
}

static void free_block(writer *w, device_state *d, synth_rng *rng, const char *tid, int64_t at)
{
	size_t pick = (size_t)synth_rng_below(rng, d->live_count);
	live_block block = d->live[pick];
	d->live[pick] = d->live[--d->live_count];
	d->allocated -= block.bytes;
	d->spare[d->spare_count++] = block.addr;
	write_event(w, tid, at, 1, d->id, block.addr, -block.bytes, d->allocated, d->reserved);
	if (block.row != SIZE_MAX) {
		synth_mem_row *row = &w->run->rows[block.row];
		row->duration_ms = read_ms(at) - row->start_ms;
		row->released = 1;
	}
}

int synth_torch_write_memory(synth_out *out, long long *count, synth_memory_run *run, const synth_plan *plan,
			     const synth_unit *unit, size_t unit_index, int64_t t0, const char *pid,
			     const char *const tids[2], int device)
{
	const long long events = plan->options->memory_events;
	writer w = {out, count, run, plan, unit, unit_index, pid, 0};
	device_state devices[2];
	synth_rng rng;
	long long before = events / 25 + 1; /* frees of blocks from before the capture, first */
	int64_t step = unit->length / (events + 1);
	int error = SYNTH_OK;
	size_t index;

	synth_rng_init(&rng, plan->options->seed, 22, (uint64_t)unit->role, (uint64_t)unit->rank, (uint64_t)unit->step);
	memset(devices, 0, sizeof(devices));
	for (int d = 0; d < 2; d++) {
		devices[d].id = (device + d) % 8;
		devices[d].live = malloc(((size_t)events + 1) * sizeof(live_block));
		devices[d].spare = malloc(((size_t)events + 1) * sizeof(uint64_t));
		devices[d].before = malloc(((size_t)before + 1) * sizeof(int64_t));
		if (!devices[d].live || !devices[d].spare || !devices[d].before) {
			error = synth_fail(SYNTH_ERROR, "out of memory");
			goto done;
		}
		/* What the device held when the capture began: a model's weights, and the blocks freed below. */
		devices[d].allocated = (int64_t)(2000 + 500 * d) * (int64_t)MIB;
		for (long long i = d; i < before; i += 2) {
			int64_t bytes = 4096 * (int64_t)(1 + synth_rng_below(&rng, 256));
			devices[d].before[devices[d].before_count++] = bytes;
			devices[d].allocated += bytes;
		}
		devices[d].reserved = (devices[d].allocated / (2 * (int64_t)MIB) + 4) * 2 * (int64_t)MIB;
	}
	for (long long i = 0; i < events && error >= 0; i++) {
		int64_t at = t0 + step * (i + 1) + (int64_t)synth_rng_below(&rng, (uint64_t)(step / 2 + 1));
		device_state *d = &devices[synth_rng_below(&rng, 2)];
		const char *tid = tids[i % 3 == 2];
		if (i < before) {
			/* A block allocated before the capture, freed in it: a negative row of its own. */
			d = &devices[i % 2];
			int64_t bytes = d->before[--d->before_count];
			uint64_t addr = BLOCK_BASE - BLOCK_STEP * (uint64_t)(i + 1);
			d->allocated -= bytes;
			write_event(&w, tid, at, 1, d->id, addr, -bytes, d->allocated, d->reserved);
			error = add_row(&w, d, at, -bytes, &index);
		} else if (i % 7 == 6) {
			/* CPU memory (Device Type 0, Id -1) at a CUDA block's address: left out by default. */
			uint64_t addr = BLOCK_BASE + BLOCK_STEP * synth_rng_below(&rng, 4);
			write_event(&w, tid, at, 0, -1, addr, i % 2 ? -4096 : 4096, 0, 0);
		} else if (d->live_count && synth_rng_below(&rng, 100) < 45) {
			free_block(&w, d, &rng, tid, at);
		} else {
			error = allocate(&w, d, &rng, tid, at);
		}
	}
done:
	for (int d = 0; d < 2; d++) {
		free(devices[d].live);
		free(devices[d].spare);
		free(devices[d].before);
	}
	return error;
}

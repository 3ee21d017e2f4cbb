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
	int64_t at; /* when it was allocated */
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
	int64_t before_live; /* bytes allocated before the capture still live (weights and blocks not yet freed) */
} device_state;

/*
 * --memory-shuffle: some allocations (one event in 16) are written three events late, and
 * their block is freed within two events, so the file holds the free before its allocation.
 */
typedef struct {
	device_state *device;
	size_t index;  /* in the device's live blocks, kept up to date as others are freed */
	long long due; /* -1: none */
} forced_free;

typedef struct {
	synth_out *out;
	long long *count;
	synth_memory_run *run;
	synth_torch_ops *ops; /* NULL when sizing */
	const synth_plan *plan;
	const synth_unit *unit;
	size_t unit_index;
	const char *pid;
	const char *const *tids;
	uint64_t position;
	long long next_id;    /* the ops' External id / Python id */
	int op_case;          /* of the event being made */
	synth_torch_group group;    /* the event being made */
	synth_torch_group deferred; /* --memory-shuffle: a group held back, written after a later one */
	long long deferred_until;   /* the event after which it is written; -1: none held */
	forced_free forced;         /* the held-back allocation's block, to be freed before it is written */
	int device_type;            /* the accelerator's Device Type: 1 CUDA, 6 HIP, 20 NPU (--torch-device) */
	int64_t cpu_allocated;      /* the host's Total Allocated, after each CPU event */
} writer;

/* The name rl-insight gives a device of the Device Type. */
static const char *kind_of(int device_type)
{
	return device_type == 6 ? "HIP" : device_type == 20 ? "NPU" : "CUDA";
}

static void write_memory_event(writer *w, const synth_torch_group *g)
{
	synth_out_puts(w->out, (*w->count)++ ? ",\n  {\n" : "\n  {\n");
	synth_out_printf(w->out, "    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n"
				 "    \"pid\": %s, \"tid\": %s,\n    \"ts\": ", w->pid, w->tids[g->thread]);
	synth_out_micros(w->out, g->at);
	/* Total Reserved first: the parser must not rely on the profiler's key order. */
	synth_out_printf(w->out, ",\n    \"args\": {\n      \"Total Reserved\": %lld, \"Bytes\": %lld, \"Total Allocated\": %lld, "
				 "\"Addr\": %llu, \"Device Id\": %d, \"Device Type\": %d\n    }\n  }",
			 (long long)g->reserved, (long long)g->bytes, (long long)g->allocated, (unsigned long long)g->addr,
			 g->device_id, g->type);
}

/* A group as the profiler might order it: its ops (outermost first) and the [memory] event. */
static void write_group(writer *w, const synth_torch_group *g)
{
	if (g->memory_first)
		write_memory_event(w, g);
	for (int k = 0; k < g->x_count; k++)
		synth_torch_write_x(w->out, w->count, &g->x[k], w->pid, w->tids, w->next_id++);
	if (!g->memory_first)
		write_memory_event(w, g);
}

/* Fills the group's [memory] event (the thread and time are already set). */
static void set_event(writer *w, int type, int id, uint64_t addr, int64_t bytes, int64_t allocated, int64_t reserved)
{
	w->group.type = type;
	w->group.device_id = id;
	w->group.addr = addr;
	w->group.bytes = bytes;
	w->group.allocated = allocated;
	w->group.reserved = reserved;
}

/* The time the parser reads back: the µs text the trace holds, as ms. */
static double read_ms(int64_t at)
{
	return synth_torch_micros(at) / 1000;
}

/* The row of the group's event; its operator and stack are worked out once the trace is written. */
static int add_row(writer *w, const device_state *d, int64_t bytes, size_t *index)
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
	row.device_kind = kind_of(w->device_type);
	row.size_kb = (double)bytes / 1024;
	row.start_ms = read_ms(w->group.at);
	row.allocated_mb = (double)d->allocated / MIB;
	row.reserved_mb = (double)d->reserved / MIB;
	row.op_case = synth_torch_ops_case_name(w->op_case);
	row.before_capture_mb = (double)d->before_live / MIB;
	row.unit = w->unit_index;
	row.position = w->position++;
	*index = w->run->count;
	if (synth_memory_append(w->run, &row) < 0)
		return SYNTH_ERROR;
	return w->ops ? synth_torch_ops_query(w->ops, *index, w->group.thread, w->group.at) : SYNTH_OK;
}

static int allocate(writer *w, device_state *d, synth_rng *rng)
{
	int64_t bytes = 512 * (int64_t)(1 + synth_rng_below(rng, 16384));
	const char *site = w->plan->options->growth_site;
	uint64_t addr;
	live_block *block;
	/* A pair's planted growth: allocations whose innermost Python frame is the site are larger. */
	if (site && strcmp(synth_torch_group_top(&w->group), site) == 0)
		bytes += 512 * w->plan->options->growth_half_kb;
	if (d->spare_count && synth_rng_below(rng, 2))
		addr = d->spare[--d->spare_count];
	else
		addr = BLOCK_BASE + BLOCK_STEP * d->next_slot++;
	d->allocated += bytes;
	while (d->reserved < d->allocated)
		d->reserved += 2 * (int64_t)MIB;
	set_event(w, w->device_type, d->id, addr, bytes, d->allocated, d->reserved);
	block = &d->live[d->live_count++];
	block->addr = addr;
	block->bytes = bytes;
	block->at = w->group.at;
	return add_row(w, d, bytes, &block->row);
}

/* Frees the live block at pick. */
static void free_block(writer *w, device_state *d, size_t pick)
{
	live_block block = d->live[pick];
	d->live[pick] = d->live[--d->live_count];
	if (w->forced.device == d && w->forced.due >= 0) {
		if (w->forced.index == pick)
			w->forced.due = -1; /* freed already */
		else if (w->forced.index == d->live_count)
			w->forced.index = pick; /* moved into the freed place */
	}
	d->allocated -= block.bytes;
	d->spare[d->spare_count++] = block.addr;
	set_event(w, w->device_type, d->id, block.addr, -block.bytes, d->allocated, d->reserved);
	if (block.row != SIZE_MAX) {
		synth_mem_row *row = &w->run->rows[block.row];
		/* As the parser works it out: the µs read from the two events' texts, subtracted, then in ms. */
		row->duration_ms = (synth_torch_micros(w->group.at) - synth_torch_micros(block.at)) / 1000;
		row->released = 1;
	}
}

/* Writes the event just made, or holds it back; writes a held-back one whose turn has come. */
static void emit(writer *w, long long i, int hold)
{
	if (hold && w->deferred_until < 0) {
		w->deferred = w->group;
		w->deferred_until = i + 3;
		return;
	}
	write_group(w, &w->group);
	if (w->deferred_until >= 0 && i >= w->deferred_until) {
		write_group(w, &w->deferred);
		w->deferred_until = -1;
	}
}

int synth_torch_write_memory(synth_out *out, long long *count, synth_memory_run *run, synth_torch_ops *ops,
			     const synth_plan *plan, const synth_unit *unit, size_t unit_index, int64_t t0,
			     const char *pid, const char *const tids[2], int device)
{
	const synth_options *options = plan->options;
	const long long events = options->memory_events;
	const int with_stack = synth_torch_with_stack(plan, unit);
	writer w = {.out = out, .count = count, .run = run, .ops = run ? ops : NULL, .plan = plan, .unit = unit,
		    .unit_index = unit_index, .pid = pid, .tids = tids, .next_id = 1, .deferred_until = -1,
		    .forced = {NULL, 0, -1}, .device_type = options->torch_device ? options->torch_device : 1};
	const long long base_mib = options->has_memory_base ? options->memory_base_mib : -1;
	device_state devices[2];
	synth_rng rng, ops_rng;
	long long before = events / 25 + 1; /* frees of blocks from before the capture, first */
	/* With --memory-base, the blocks from before fit in it: 4 KiB at least each, on two devices. */
	if (base_mib >= 0 && before > 2 * 256 * base_mib)
		before = 2 * 256 * base_mib;
	int64_t step = unit->length / (events + 1);
	int error = SYNTH_OK;
	size_t index;

	synth_rng_init(&rng, options->seed, 22, (uint64_t)unit->role, (uint64_t)unit->rank, (uint64_t)unit->step);
	/* The ops draw from their own stream: the [memory] events are the same with --memory-ops or without. */
	synth_rng_init(&ops_rng, options->seed, 23, (uint64_t)unit->role, (uint64_t)unit->rank, (uint64_t)unit->step);
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
		devices[d].allocated = base_mib >= 0 ? 0 : (int64_t)(2000 + 500 * d) * (int64_t)MIB;
		for (long long i = d; i < before; i += 2) {
			int64_t bytes = 4096 * (int64_t)(1 + synth_rng_below(&rng, 256));
			if (base_mib >= 0) {
				/* Room left for this block and 4 KiB for each still to come: the whole stays within the base. */
				int64_t room = base_mib * (int64_t)MIB - devices[d].allocated - 4096 * ((before - 1 - i) / 2);
				bytes = bytes < room ? bytes : room / 4096 * 4096;
			}
			devices[d].before[devices[d].before_count++] = bytes;
			devices[d].allocated += bytes;
		}
		/* The weights: what the base holds beyond the blocks freed in the capture. */
		if (base_mib >= 0)
			devices[d].allocated = base_mib * (int64_t)MIB;
		devices[d].before_live = devices[d].allocated;
		devices[d].reserved = (devices[d].allocated / (2 * (int64_t)MIB) + 4) * 2 * (int64_t)MIB;
	}
	for (long long i = 0; i < events && error >= 0; i++) {
		int64_t at = t0 + step * (i + 1) + (int64_t)synth_rng_below(&rng, (uint64_t)(step / 2 + 1));
		device_state *d = &devices[synth_rng_below(&rng, 2)];
		int hold = 0;
		memset(&w.group, 0, sizeof(w.group));
		w.group.thread = i % 3 == 2;
		w.op_case = options->memory_ops ? synth_torch_ops_draw_case(&ops_rng) : SYNTH_OPS_NONE;
		if (w.op_case == SYNTH_OPS_END_EDGE)
			at -= (at % 1000 + 1000) % 1000; /* whole µs: see synth_torch_ops_around */
		w.group.at = at;
		w.group.memory_first = options->memory_shuffle && i % 2;
		/* The ops first: an allocation's planted growth depends on its stack (they draw from ops_rng only). */
		error = synth_torch_ops_around(&w.group, w.ops, &ops_rng, w.op_case, with_stack,
					       plan->roles[unit->role].phase_name, step / 4);
		if (error < 0)
			break;
		if (i < before) {
			/* A block allocated before the capture, freed in it: a negative row of its own. */
			d = &devices[i % 2];
			int64_t bytes = d->before[--d->before_count];
			uint64_t addr = BLOCK_BASE - BLOCK_STEP * (uint64_t)(i + 1);
			d->allocated -= bytes;
			d->before_live -= bytes;
			set_event(&w, w.device_type, d->id, addr, -bytes, d->allocated, d->reserved);
			error = add_row(&w, d, -bytes, &index);
		} else if (i % 7 == 6) {
			/* CPU memory (Device Type 0, Id -1) at a CUDA block's address: left out by default. The
			   host's totals are its own running sum (it reserves nothing), as the profiler's are. */
			uint64_t addr = BLOCK_BASE + BLOCK_STEP * synth_rng_below(&rng, 4);
			int64_t bytes = w.cpu_allocated > 0 ? -4096 : 4096;
			w.cpu_allocated += bytes;
			set_event(&w, 0, -1, addr, bytes, w.cpu_allocated, 0);
		} else if (w.forced.due >= 0 && i >= w.forced.due) {
			w.forced.due = -1;
			free_block(&w, w.forced.device, w.forced.index);
		} else if (d->live_count && synth_rng_below(&rng, 100) < 45) {
			free_block(&w, d, (size_t)synth_rng_below(&rng, d->live_count));
		} else {
			error = allocate(&w, d, &rng);
			if (options->memory_shuffle && i % 16 == 5 && w.forced.due < 0 && w.deferred_until < 0) {
				w.forced = (forced_free){d, d->live_count - 1, i + 2};
				hold = 1;
			}
		}
		if (error >= 0)
			emit(&w, i, hold);
	}
	if (error >= 0 && w.deferred_until >= 0)
		write_group(&w, &w.deferred);
done:
	for (int d = 0; d < 2; d++) {
		free(devices[d].live);
		free(devices[d].spare);
		free(devices[d].before);
	}
	return error;
}

/* test_torch_pairing.c: [memory] events paired alongside the read, on a spare thread, give the rows pairing them after the read gives, and fall back to it when an event comes out of time order. */
#include "harness.h"
#include "parse/torch_memory.h"
#include "memory/memory_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A trace's stream of events, made the same way for every reader: a seed and a count. */
typedef struct {
	uint64_t state;
	size_t count;
	size_t late_at; /* this event's time goes back before the one before it; SIZE_MAX: none */
} stream;


static void arg(torch_memory *tm, const char *key, long long value)
{
	char text[32];
	int length = snprintf(text, sizeof(text), "%lld", value);
	torch_memory_arg_key(tm, (const unsigned char *)key, strlen(key));
	torch_memory_arg_value(tm, text, (size_t)length, 'n');
}

/* An operator span on thread "7" around each thousandth event, for the attribution to find. */
static int span(torch_memory *tm, double ts_us, double dur_us)
{
	torch_memory_event_reset(tm);
	torch_memory_cat(tm, "cpu_op", 6);
	if (torch_memory_name(tm, "aten::empty", 11) < 0 || torch_memory_tid(tm, "7", 1) < 0)
		return -1;
	return torch_memory_event_done(tm, 1, ts_us, 1, dur_us);
}

/*
 * Feeds the stream's events to tm as the torch parser would: allocations at a pool of 5,000
 * addresses on two devices and two threads, freed later or never, frees of blocks from before
 * the capture, and allocations at an address still allocated.
 */
static int feed(torch_memory *tm, stream s, size_t stop_at)
{
	long long allocated = 0;
	for (size_t i = 0; i < s.count && i < stop_at; i++) {
		uint64_t r = rli_test_random(&s.state);
		long long addr = 0x7f0000000000ll + (long long)(r % 5000) * 512;
		long long bytes = (long long)(r >> 40) % 100000 + 1;
		double ts = 1000.0 + (double)i * 0.25;
		if (i == s.late_at)
			ts -= 10;
		if ((r >> 20) % 2)
			bytes = -bytes; /* a free: of the block at addr when it is allocated, else of one from before */
		allocated += bytes;
		if (i % 1000 == 0 && span(tm, ts - 0.1, 0.2) < 0)
			return -1;
		torch_memory_event_reset(tm);
		torch_memory_cat(tm, "cpu_instant_event", 17);
		if (torch_memory_name(tm, "[memory]", 8) < 0 || torch_memory_tid(tm, (r >> 30) % 2 ? "7" : "8", 1) < 0)
			return -1;
		arg(tm, "Device Type", 1);
		arg(tm, "Device Id", (long long)((r >> 33) % 2));
		arg(tm, "Addr", addr);
		arg(tm, "Bytes", bytes);
		arg(tm, "Total Allocated", allocated);
		arg(tm, "Total Reserved", allocated + 4096);
		if (torch_memory_event_done(tm, 1, ts, 0, 0) < 0)
			return -1;
	}
	return 0;
}

typedef struct {
	rli_memory *memory;
	uint64_t orphan_frees, reallocated, with_op, paired_alongside, events;
} result;

static result parse(stream s, unsigned spare)
{
	torch_memory tm;
	result out = { 0 };
	torch_memory_init(&tm, RLI_MEMORY_DEVICE_CUDA, "actor", spare);
	CHECK(feed(&tm, s, SIZE_MAX) == 0);
	CHECK(torch_memory_finish(&tm, 3, &out.memory) == RLI_OK);
	out.orphan_frees = tm.orphan_frees;
	out.reallocated = tm.reallocated;
	out.with_op = tm.with_op;
	out.paired_alongside = tm.paired_alongside;
	out.events = tm.event_count;
	torch_memory_dispose(&tm);
	return out;
}

static int same_rows(const rli_memory *a, const rli_memory *b)
{
	rli_memory_row x, y;
	if (!a || !b || a->count != b->count)
		return 0;
	for (size_t i = 0; i < a->count; i++) {
		if (rli_memory_get(&x, a, i) < 0 || rli_memory_get(&y, b, i) < 0)
			return 0;
		if (strcmp(x.name, y.name) || strcmp(x.role, y.role) || strcmp(x.device_type, y.device_type) ||
		    strcmp(x.call_stack, y.call_stack) || strcmp(x.call_stack_top, y.call_stack_top) ||
		    x.rank_id != y.rank_id || x.size_kb != y.size_kb || x.start_time_ms != y.start_time_ms ||
		    x.duration_ms != y.duration_ms || x.total_allocated_mb != y.total_allocated_mb ||
		    x.total_reserved_mb != y.total_reserved_mb || x.released != y.released || x.match != y.match) {
			fprintf(stderr, "row %zu differs: %s %.17g %g dur %.17g released %d / %s %.17g %g dur %.17g released %d\n",
				i, x.device_type, x.start_time_ms, x.size_kb, x.duration_ms, x.released, y.device_type,
				y.start_time_ms, y.size_kb, y.duration_ms, y.released);
			return 0;
		}
	}
	return 1;
}

/* The stream read with a spare thread and without: the same rows and notes; `alongside` whether the helper's rows were used. */
static void check(const char *what, stream s, int alongside)
{
	result after = parse(s, 0), beside = parse(s, 1);
	fprintf(stderr, "%s: %llu events, %zu rows, %llu paired alongside\n", what, (unsigned long long)beside.events,
		beside.memory ? beside.memory->count : 0, (unsigned long long)beside.paired_alongside);
	CHECK(after.memory && after.memory->count > s.count / 3);
	CHECK(same_rows(after.memory, beside.memory));
	CHECK(after.orphan_frees == beside.orphan_frees && after.orphan_frees > 0);
	CHECK(after.reallocated == beside.reallocated && after.reallocated > 0);
	CHECK(after.with_op == beside.with_op && after.with_op > 0);
	CHECK_INT(after.paired_alongside, 0);
	CHECK_INT(beside.paired_alongside, alongside ? s.count : 0);
	rli_memory_free(after.memory);
	rli_memory_free(beside.memory);
}

/* Each event's chunk, each twice the one before: every event has a place, one only, in order. */
static void check_chunks(void)
{
	const size_t S = TM_CHUNK_EVENTS;
	const size_t edges[] = {0, 1, S - 1, S, S + 1, 3 * S - 1, 3 * S, 7 * S - 1, 7 * S, 15 * S, (size_t)UINT32_MAX - 2};
	for (size_t k = 0; k < sizeof(edges) / sizeof(*edges); k++) {
		size_t i = edges[k], at, c = torch_memory_chunk_of(i, &at), first = S * (((size_t)1 << c) - 1);
		CHECK(c < TM_MAX_CHUNKS && at < S << c && first + at == i);
		if (i > 0) {
			size_t before_at, before = torch_memory_chunk_of(i - 1, &before_at);
			/* The event before is the one before in the same chunk, or the last of the chunk before. */
			CHECK((before == c && before_at + 1 == at) || (before + 1 == c && at == 0 && before_at + 1 == S << before));
		}
	}
}

int main(void)
{
	const size_t chunk = TM_CHUNK_EVENTS;
	check_chunks();
	stream s = { 0x9E3779B97F4A7C15ull, 3 * chunk + 12345, SIZE_MAX };

	/* Several chunks, the last one partly filled. */
	check("in time order", s, 1);
	/* Ending on a chunk's edge (the first two hold 3 chunk's worth) and on a hand-over's. */
	s.count = 3 * chunk;
	check("two whole chunks", s, 1);
	s.count = TM_ALONGSIDE_FROM + 2 * TM_PUBLISH_EVENTS;
	check("just past the start", s, 1);
	/* Too few events to start a helper. */
	s.count = TM_ALONGSIDE_FROM - 1;
	check("too few", s, 0);
	/* An event out of time order after the helper started, and before: paired in order after the read. */
	s.count = 2 * chunk + 999;
	s.late_at = chunk + 77;
	check("out of order, late", s, 0);
	s.late_at = 1000;
	check("out of order, early", s, 0);

	/* A read that fails half way: the helper is stopped and everything freed (ASan and LSan see to it). */
	{
		torch_memory tm;
		s.late_at = SIZE_MAX;
		torch_memory_init(&tm, RLI_MEMORY_DEVICE_CUDA, "actor", 1);
		CHECK(feed(&tm, s, chunk + 5) == 0);
		CHECK(tm.alongside != NULL);
		torch_memory_dispose(&tm);
		CHECK(tm.alongside == NULL && tm.chunk[0] == NULL);
	}
	TEST_DONE();
}

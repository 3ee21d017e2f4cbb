/* test_task.c: rli_task_each: every item once on any number of threads, and the lowest failure reported as one thread would. */
#include "common/error.h"
#include "common/task.h"
#include "harness.h"

#include <stdatomic.h>

enum { ITEMS = 1000 };

typedef struct {
	atomic_int runs[ITEMS];
	size_t fail_from; /* items from here on fail; ITEMS: none */
} counts;

static int count_item(void *arg, size_t i)
{
	counts *c = arg;
	atomic_fetch_add(&c->runs[i], 1);
	if (i >= c->fail_from)
		return rli_error_set(RLI_EINVALID, "item %zu failed", i);
	return RLI_OK;
}

static void reset(counts *c, size_t fail_from)
{
	for (size_t i = 0; i < ITEMS; i++)
		atomic_init(&c->runs[i], 0);
	c->fail_from = fail_from;
}

int main(void)
{
	static counts c;
	static const unsigned threads[] = { 0, 1, 2, 3, 16, 100 };

	for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
		size_t once = 0, more = 0;
		reset(&c, ITEMS);
		CHECK_INT(rli_task_each(ITEMS, threads[t], count_item, &c), RLI_OK);
		for (size_t i = 0; i < ITEMS; i++) {
			once += atomic_load(&c.runs[i]) == 1;
			more += atomic_load(&c.runs[i]) > 1;
		}
		CHECK_INT(once, ITEMS);
		CHECK_INT(more, 0);

		/* Items 600 and up fail: item 600's failure is the one reported, whichever thread saw it. */
		reset(&c, 600);
		CHECK_INT(rli_task_each(ITEMS, threads[t], count_item, &c), RLI_EINVALID);
		CHECK_STR(rli_error_last(), "item 600 failed");
		for (size_t i = 0; i < 600; i++)
			more += atomic_load(&c.runs[i]) != 1;
		CHECK_INT(more, 0);
	}
	/* Nothing to do is done at once. */
	reset(&c, 0);
	CHECK_INT(rli_task_each(0, 4, count_item, &c), RLI_OK);
	return rli_test_failures ? 1 : 0;
}

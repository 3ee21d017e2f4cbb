/* memory_threads.c: the memory figure's and pages' devices laid out on threads, each thread measuring text in a context of its own. */
#include "memory_parts.h"
#include "common/task.h"
#include "text/text.h"

/*
 * Why not always as many threads as asked: a device's layout holds some 90 bytes a block while it
 * runs, beside the bars it keeps. Devices laid out at once add theirs up: two devices of half a
 * million blocks each took 100 MB more at the peak, and no less time, their page faults
 * contending. Many small devices (ranks) gain a third of the time for a few MB. So threads only
 * where no device holds more than a quarter of the blocks.
 */
static unsigned device_threads(const rli_memory_device *devices, const size_t *shown, size_t count, unsigned threads)
{
	size_t total = 0, largest = 0;
	for (size_t k = 0; k < count; k++) {
		size_t n = devices[shown[k]].count;
		total += n;
		largest = n > largest ? n : largest;
	}
	return largest > total / 4 ? 1 : threads;
}

typedef struct {
	int (*lay_out)(void *arg, size_t k, PangoContext *text, unsigned inner);
	void *arg;
	unsigned inner;
} each_device;

static int lay_out_one(void *arg, size_t k)
{
	const each_device *e = arg;
	PangoContext *text = NULL;
	int error = rli_text_context_new(&text);
	if (error == RLI_OK)
		error = e->lay_out(e->arg, k, text, e->inner);
	if (text)
		g_object_unref(text);
	return error;
}

int rli_memory_lay_out_devices(const rli_memory_device *devices, const size_t *shown, size_t count, unsigned threads,
			       int (*lay_out)(void *arg, size_t k, PangoContext *text, unsigned inner), void *arg)
{
	unsigned outer = devices ? device_threads(devices, shown, count, threads) : threads;
	/* One device at a time (one thread, or one device): it may have all the threads asked for. */
	each_device e = { lay_out, arg, outer == 1 || count == 1 ? threads : 1 };
	return rli_task_each(count, outer, lay_out_one, &e);
}

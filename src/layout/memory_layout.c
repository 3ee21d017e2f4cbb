/* memory_layout.c: from the memory table to the figure: its allocations split by device, a page each. */
#include "memory_figure.h"
#include "memory/memory_devices.h"

int rli_memory_layout(rli_memory_figure **out, const rli_memory *memory, const rli_timeline_options *options)
{
	rli_memory_devices devices;
	int error;

	*out = NULL;
	if ((error = rli_memory_devices_split(&devices, memory, options ? options->threads : 0)) == RLI_OK)
		error = rli_memory_figure_layout(out, devices.devices, devices.count, options);
	rli_memory_devices_dispose(&devices);
	return error;
}

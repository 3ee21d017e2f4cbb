/* formats.c: the list of input formats: one line per format, the tables themselves live beside each parser. */
#include "format.h"

#include <stddef.h>

const rli_format *const rli_formats[] = {
	&rli_format_mstx,
	&rli_format_torch,
	&rli_format_nvtx,
	&rli_format_table,
	&rli_format_memory,
	&rli_format_table_memory,
	&rli_format_gmm,
	&rli_format_table_gmm,
	NULL,
};

const rli_format *rli_format_of(rli_profiler profiler)
{
	for (size_t i = 0; rli_formats[i]; i++)
		if (rli_formats[i]->timeline && rli_formats[i]->profiler == profiler)
			return rli_formats[i];
	return NULL;
}

/* pt_write.h: torch.save's .pt files written without torch: a 1-D tensor in the zip layout (torch 1.13's or 2.x's) or the legacy stream. */
#ifndef RLI_SYNTH_PT_WRITE_H
#define RLI_SYNTH_PT_WRITE_H

#include "synth.h"

#include <stddef.h>
#include <stdint.h>

/* The element types written (torch.<X>Storage). */
enum { SYNTH_PT_INT64 = 0, SYNTH_PT_INT32, SYNTH_PT_FLOAT32, SYNTH_PT_FLOAT64, SYNTH_PT_BFLOAT16 };

typedef struct {
	int dtype;                /* SYNTH_PT_* */
	size_t numel;
	const uint64_t *bits;     /* numel elements, each the dtype's bits in its low bytes */
	const char *archive_name; /* the zip's folder: the file's name without .pt, as torch.save(path) names it */
	int legacy;               /* _use_new_zipfile_serialization=False */
	int newer;                /* zip: torch 2.x's records too (.format_version, byteorder, serialization_id) */
	int big_endian;           /* newer zip: byteorder "big", the storage's bytes so */
} synth_pt;

size_t synth_pt_dtype_size(int dtype);
/* Writes the file. SYNTH_OK, or SYNTH_EOUTPUT / SYNTH_ERROR with synth_error() set. */
int synth_pt_write(const char *path, const synth_pt *tensor);

#endif

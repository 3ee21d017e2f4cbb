/* pt_read.h: one tensor from the bytes of a torch.save file (.pt): the zip archive or the legacy stream, read safely. */
#ifndef RLI_PARSE_PT_READ_H
#define RLI_PARSE_PT_READ_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes a .pt file may have: a group_list of a million int64 experts is 8 MiB. */
#define RLI_PT_MAX_BYTES ((size_t)64 << 20)
/* The most dimensions a tensor may have (torch allows 64). */
#define RLI_PT_MAX_DIMS 64

/* The storage types torch.save names (gmm.md §2.3), by element type. */
typedef enum {
	RLI_PT_INT64 = 0, /* torch.LongStorage */
	RLI_PT_INT32,     /* IntStorage */
	RLI_PT_INT16,     /* ShortStorage */
	RLI_PT_INT8,      /* CharStorage */
	RLI_PT_UINT8,     /* ByteStorage */
	RLI_PT_BOOL,      /* BoolStorage */
	RLI_PT_FLOAT64,   /* DoubleStorage */
	RLI_PT_FLOAT32,   /* FloatStorage */
	RLI_PT_FLOAT16,   /* HalfStorage */
	RLI_PT_BFLOAT16,  /* BFloat16Storage */
	RLI_PT_DTYPES
} rli_pt_dtype;

/* "int64", "float32", ...: for messages. */
const char *rli_pt_dtype_name(rli_pt_dtype dtype);
size_t rli_pt_dtype_size(rli_pt_dtype dtype);

/* Which container the file was. */
typedef enum { RLI_PT_ZIP = 0, RLI_PT_LEGACY } rli_pt_container;

/*
 * A tensor as read: its element type and shape, and its storage's bytes (in the file's byte order). Every index the shape reaches lies inside the storage.
 */
typedef struct {
	rli_pt_container container;
	rli_pt_dtype dtype;
	int big_endian;              /* the zip's byteorder record said "big" */
	int ndim;
	int64_t size[RLI_PT_MAX_DIMS];
	int64_t stride[RLI_PT_MAX_DIMS];
	int64_t offset;              /* storage_offset, in elements */
	size_t numel;                /* elements of the tensor: the product of its size (a 0-d tensor: 1) */
	const unsigned char *storage;
	size_t storage_numel;        /* elements the storage holds (at least what the shape reaches) */
	unsigned char *owned;        /* the storage's bytes when copied out of the archive, else NULL */
} rli_pt_tensor;

/*
 * Reads the one tensor the bytes hold. Nothing in them is executed or imported: the pickle is
 * read by our own reader of the opcodes torch.save writes for a tensor, which refuses any other
 * opcode and any global but torch's tensor rebuilders, storage types and collections.OrderedDict.
 * The zip archive is read through libzip; only stored (uncompressed) records are taken, as
 * torch.save writes them. A tensor of more than max_elements elements is refused before its
 * values are touched. *tensor may point into data, which must outlive it; free what it holds
 * with rli_pt_tensor_dispose.
 *
 * Returns 0, or -1 with why (size bytes) saying in our words what is wrong and where ("data.pkl,
 * byte 58: the pickle names the global posix.system ..."), never naming the file (the caller
 * does), or -2 when out of memory.
 */
int rli_pt_read(rli_pt_tensor *tensor, const unsigned char *data, size_t size, size_t max_elements, char *why,
		size_t why_size);

void rli_pt_tensor_dispose(rli_pt_tensor *tensor);

/*
 * The tensor's elements in logical row-major order as doubles, exactly (an int64 beyond 2^53
 * to the nearest double; bool 0 or 1; float16 and bfloat16 widened; NaN kept): numel values.
 */
void rli_pt_values(const rli_pt_tensor *tensor, double *out);

#endif

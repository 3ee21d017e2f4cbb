/* pt_write.c: one 1-D tensor as torch.save writes it: its pickle byte by byte, in a zip of stored records or the legacy stream. */
#include "pt_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A growing byte buffer; `failed` is sticky (out of memory). */
typedef struct {
	unsigned char *data;
	size_t used, capacity;
	int failed;
} buf;

static void put(buf *b, const void *bytes, size_t n)
{
	if (b->failed)
		return;
	if (b->used + n > b->capacity) {
		size_t want = b->capacity ? b->capacity : 4096;
		unsigned char *grown;
		while (want < b->used + n)
			want *= 2;
		if (!(grown = realloc(b->data, want))) {
			b->failed = 1;
			return;
		}
		b->data = grown;
		b->capacity = want;
	}
	memcpy(b->data + b->used, bytes, n);
	b->used += n;
}

static void put_byte(buf *b, int byte)
{
	unsigned char c = (unsigned char)byte;
	put(b, &c, 1);
}

static void put_le(buf *b, uint64_t value, int bytes)
{
	for (int i = 0; i < bytes; i++)
		put_byte(b, (int)(value >> (8 * i)) & 0xff);
}

/* ---- the pickle (protocol 2), as torch's pickler writes a tensor (gmm.md §2.3) ---------------- */

static void pk_text(buf *b, const char *text)
{
	put_byte(b, 'X'); /* BINUNICODE */
	put_le(b, strlen(text), 4);
	put(b, text, strlen(text));
}

static void pk_put(buf *b, int *memo)
{
	put_byte(b, 'q'); /* BINPUT */
	put_byte(b, (*memo)++);
}

static void pk_global(buf *b, const char *module, const char *name)
{
	put_byte(b, 'c');
	put(b, module, strlen(module));
	put_byte(b, '\n');
	put(b, name, strlen(name));
	put_byte(b, '\n');
}

/* The smallest integer opcode for value, as pickle chooses it. */
static void pk_int(buf *b, uint64_t value)
{
	if (value < 256) {
		put_byte(b, 'K');
		put_byte(b, (int)value);
	} else if (value < 65536) {
		put_byte(b, 'M');
		put_le(b, value, 2);
	} else if (value < 0x80000000u) {
		put_byte(b, 'J');
		put_le(b, value, 4);
	} else {
		int n = 1;
		while (n < 8 && (value >> (8 * n - 1)) != 0)
			n++; /* bytes enough for a positive two's complement */
		put_byte(b, 0x8a); /* LONG1 */
		put_byte(b, n);
		put_le(b, value, n);
	}
}

static const char *const storage_names[] = { "LongStorage", "IntStorage", "FloatStorage", "DoubleStorage",
					      "BFloat16Storage" };

/* The tensor's pickle: _rebuild_tensor_v2(storage, 0, (n,), (1,), False, OrderedDict()). */
static void write_pickle(buf *b, int dtype, const char *key, uint64_t numel, int legacy)
{
	int memo = 0;
	put_byte(b, 0x80); /* PROTO 2 */
	put_byte(b, 2);
	pk_global(b, "torch._utils", "_rebuild_tensor_v2");
	pk_put(b, &memo);
	put_byte(b, '('); /* MARK: the arguments */
	put_byte(b, '('); /* MARK: the persistent id */
	pk_text(b, "storage");
	pk_put(b, &memo);
	pk_global(b, "torch", storage_names[dtype]);
	pk_put(b, &memo);
	pk_text(b, key);
	pk_put(b, &memo);
	pk_text(b, "cpu");
	pk_put(b, &memo);
	pk_int(b, numel);
	if (legacy)
		put_byte(b, 'N'); /* the view: None */
	put_byte(b, 't'); /* TUPLE */
	pk_put(b, &memo);
	put_byte(b, 'Q'); /* BINPERSID */
	pk_int(b, 0);     /* storage_offset */
	pk_int(b, numel);
	put_byte(b, 0x85); /* TUPLE1: the size */
	pk_put(b, &memo);
	pk_int(b, 1);
	put_byte(b, 0x85); /* the stride */
	pk_put(b, &memo);
	put_byte(b, 0x89); /* NEWFALSE: requires_grad */
	pk_global(b, "collections", "OrderedDict");
	pk_put(b, &memo);
	put_byte(b, ')'); /* EMPTY_TUPLE */
	put_byte(b, 'R'); /* REDUCE: the backward hooks, {} */
	pk_put(b, &memo);
	put_byte(b, 't');
	pk_put(b, &memo);
	put_byte(b, 'R');
	pk_put(b, &memo);
	put_byte(b, '.'); /* STOP */
}

/* ---- the zip: torch's PyTorchStreamWriter layout (gmm.md §2.1) -------------------------------- */

typedef struct {
	char name[256];
	uint32_t crc, size;
	uint64_t offset;
} record;

/* One stored record: local header (no CRC or sizes: a data descriptor follows), FB padding to 64 bytes, data. */
static void zip_record(buf *b, record *r, const char *name, const void *data, size_t size)
{
	size_t name_length = strlen(name), padding;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->offset = b->used;
	r->size = (uint32_t)size;
	r->crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)size);
	/* the data starts on a 64-byte boundary: 30 + name + 4 (the extra field's head) + padding */
	padding = (64 - (b->used + 30 + name_length + 4) % 64) % 64;
	put_le(b, 0x04034b50, 4);
	put_le(b, 20, 2);     /* version needed */
	put_le(b, 0x0808, 2); /* data descriptor follows, UTF-8 names */
	put_le(b, 0, 2);      /* stored */
	put_le(b, 0, 4);      /* time and date: 0 */
	put_le(b, 0, 4);      /* CRC: in the descriptor */
	put_le(b, 0, 4);
	put_le(b, 0, 4);
	put_le(b, name_length, 2);
	put_le(b, 4 + padding, 2);
	put(b, name, name_length);
	put_le(b, 0x4246, 2); /* "FB" */
	put_le(b, padding, 2);
	for (size_t i = 0; i < padding; i++)
		put_byte(b, 'Z');
	put(b, data, size);
	put_le(b, 0x08074b50, 4);
	put_le(b, r->crc, 4);
	put_le(b, size, 4);
	put_le(b, size, 4);
}

static void zip_end(buf *b, const record *records, int count)
{
	uint64_t directory = b->used, end64;
	for (int i = 0; i < count; i++) {
		const record *r = &records[i];
		put_le(b, 0x02014b50, 4);
		put_le(b, 0x031e, 2); /* made by */
		put_le(b, 20, 2);
		put_le(b, 0x0808, 2);
		put_le(b, 0, 2);
		put_le(b, 0, 4);
		put_le(b, r->crc, 4);
		put_le(b, r->size, 4);
		put_le(b, r->size, 4);
		put_le(b, strlen(r->name), 2);
		put_le(b, 0, 2); /* no extra field here */
		put_le(b, 0, 2);
		put_le(b, 0, 2);
		put_le(b, 0, 2);
		put_le(b, 0, 4);
		put_le(b, r->offset, 4);
		put(b, r->name, strlen(r->name));
	}
	/* torch always writes the zip64 end record and its locator, then the plain one. */
	end64 = b->used;
	put_le(b, 0x06064b50, 4);
	put_le(b, 44, 8);
	put_le(b, 45, 2);
	put_le(b, 45, 2);
	put_le(b, 0, 4);
	put_le(b, 0, 4);
	put_le(b, (uint64_t)count, 8);
	put_le(b, (uint64_t)count, 8);
	put_le(b, end64 - directory, 8);
	put_le(b, directory, 8);
	put_le(b, 0x07064b50, 4);
	put_le(b, 0, 4);
	put_le(b, end64, 8);
	put_le(b, 1, 4);
	put_le(b, 0x06054b50, 4);
	put_le(b, 0, 4);
	put_le(b, (uint64_t)count, 2);
	put_le(b, (uint64_t)count, 2);
	put_le(b, end64 - directory, 4);
	put_le(b, directory, 4);
	put_le(b, 0, 2);
}

static void write_zip(buf *b, const synth_pt *t, const unsigned char *storage, size_t bytes)
{
	record records[8];
	buf pickle = { 0 };
	int count = 0;
	char name[300];
#define RECORD(tail, data, size)                                                       \
	do {                                                                           \
		snprintf(name, sizeof(name), "%s/%s", t->archive_name, tail);          \
		zip_record(b, &records[count++], name, data, size);                    \
	} while (0)

	write_pickle(&pickle, t->dtype, "0", t->numel, 0);
	b->failed |= pickle.failed;
	RECORD("data.pkl", pickle.data, pickle.used);
	if (t->newer) {
		/* what torch 2.x adds (the repository's sample has all seven records) */
		RECORD(".format_version", "1", 1);
		RECORD(".storage_alignment", "64", 2);
		RECORD("byteorder", t->big_endian ? "big" : "little", t->big_endian ? 3 : 6);
	}
	RECORD("data/0", storage, bytes);
	RECORD("version", "3\n", 2);
	if (t->newer)
		RECORD(".data/serialization_id", "1234567890123456789012345678901234567890", 40);
#undef RECORD
	zip_end(b, records, count);
	free(pickle.data);
}

/* ---- the legacy stream (gmm.md §2.2) -------------------------------------------------------- */

static void write_legacy(buf *b, const synth_pt *t, const unsigned char *storage, size_t bytes)
{
	static const unsigned char magic[] = { 0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20,
					       0x6a, 0xa8, 0x50, 0x19, 0x2e };
	static const unsigned char protocol[] = { 0x80, 0x02, 0x4d, 0xe9, 0x03, 0x2e };
	int memo = 0;
	put(b, magic, sizeof(magic));
	put(b, protocol, sizeof(protocol));
	/* {'protocol_version': 1001, 'little_endian': True, 'type_sizes': {'short': 2, 'int': 4, 'long': 4}} */
	put_byte(b, 0x80);
	put_byte(b, 2);
	put_byte(b, '}');
	pk_put(b, &memo);
	put_byte(b, '(');
	pk_text(b, "protocol_version");
	pk_put(b, &memo);
	pk_int(b, 1001);
	pk_text(b, "little_endian");
	pk_put(b, &memo);
	put_byte(b, 0x88);
	pk_text(b, "type_sizes");
	pk_put(b, &memo);
	put_byte(b, '}');
	pk_put(b, &memo);
	put_byte(b, '(');
	pk_text(b, "short");
	pk_int(b, 2);
	pk_text(b, "int");
	pk_int(b, 4);
	pk_text(b, "long");
	pk_int(b, 4);
	put_byte(b, 'u'); /* SETITEMS */
	put_byte(b, 'u');
	put_byte(b, '.');
	write_pickle(b, t->dtype, "94170134716400", t->numel, 1);
	/* the storages' keys: ['94170134716400'] */
	memo = 0;
	put_byte(b, 0x80);
	put_byte(b, 2);
	put_byte(b, ']');
	pk_put(b, &memo);
	pk_text(b, "94170134716400");
	pk_put(b, &memo);
	put_byte(b, 'a'); /* APPEND */
	put_byte(b, '.');
	put_le(b, t->numel, 8);
	put(b, storage, bytes);
}

size_t synth_pt_dtype_size(int dtype)
{
	static const size_t sizes[] = { 8, 4, 4, 8, 2 };
	return sizes[dtype];
}

int synth_pt_write(const char *path, const synth_pt *t)
{
	size_t width = synth_pt_dtype_size(t->dtype), bytes = t->numel * width;
	unsigned char *storage = malloc(bytes ? bytes : 1);
	buf b = { 0 };
	FILE *fp;
	int ok;

	if (!storage)
		return synth_fail(SYNTH_ERROR, "out of memory");
	/* The elements in the file's byte order: little-endian but where the byteorder record says big. */
	for (size_t i = 0; i < t->numel; i++)
		for (size_t k = 0; k < width; k++)
			storage[i * width + (t->big_endian ? width - 1 - k : k)] = (unsigned char)(t->bits[i] >> (8 * k));
	if (t->legacy)
		write_legacy(&b, t, storage, bytes);
	else
		write_zip(&b, t, storage, bytes);
	free(storage);
	if (b.failed) {
		free(b.data);
		return synth_fail(SYNTH_ERROR, "out of memory");
	}
	fp = fopen(path, "wb");
	ok = fp && fwrite(b.data, 1, b.used, fp) == b.used;
	ok = (fp && fclose(fp) == 0) && ok;
	free(b.data);
	return ok ? SYNTH_OK : synth_fail(SYNTH_EOUTPUT, "cannot write %s", path);
}

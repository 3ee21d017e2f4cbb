/* pt_read.c: a torch.save file's one tensor: which container, its records (libzip) or its legacy stream, its shape checked. */
#include "pt_read.h"
#include "pt_pickle.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>
#include <zlib.h>

/* A tensor's pickle is some 300 bytes; a data.pkl past this is not one. */
#define MAX_PICKLE_BYTES ((size_t)1 << 20)

/* The first bytes of the legacy stream: the magic number's pickle, then the protocol's (gmm.md §2.2). */
static const unsigned char legacy_magic[] = { 0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20,
					      0x6a, 0xa8, 0x50, 0x19, 0x2e };
static const unsigned char legacy_protocol[] = { 0x80, 0x02, 0x4d, 0xe9, 0x03, 0x2e }; /* BININT2 1001 */

static const struct {
	const char *name;
	size_t size;
} dtypes[RLI_PT_DTYPES] = {
	{ "int64", 8 }, { "int32", 4 }, { "int16", 2 }, { "int8", 1 }, { "uint8", 1 },
	{ "bool", 1 }, { "float64", 8 }, { "float32", 4 }, { "float16", 2 }, { "bfloat16", 2 },
};

const char *rli_pt_dtype_name(rli_pt_dtype dtype)
{
	return dtype < RLI_PT_DTYPES ? dtypes[dtype].name : "unknown";
}

size_t rli_pt_dtype_size(rli_pt_dtype dtype)
{
	return dtype < RLI_PT_DTYPES ? dtypes[dtype].size : 1;
}

static int say(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

void rli_pt_tensor_dispose(rli_pt_tensor *tensor)
{
	free(tensor->owned);
	tensor->owned = NULL;
	tensor->storage = NULL;
}

/* ---- the tensor the pickle describes, checked against its storage ---------------------- */

/* Copies what the pickle's tensor says into *t (storage bytes not yet found). */
static int take_tensor(rli_pt_tensor *t, const rli_pickle *p, uint32_t root, size_t max_elements, char *why,
		       size_t why_size)
{
	const rli_pk_value *v = &p->values[root], *storage, *size, *stride;
	size_t numel = 1;
	if (v->kind != RLI_PK_TENSOR)
		return say(why, why_size, "%s holds a %s, not a tensor", p->where, rli_pickle_kind_name(v));
	storage = &p->values[v->storage];
	size = &p->values[v->size];
	stride = &p->values[v->stride];
	t->dtype = (rli_pt_dtype)storage->dtype;
	t->offset = v->integer;
	t->ndim = (int)size->count;
	t->storage_numel = (size_t)storage->integer;
	for (int d = 0; d < t->ndim; d++) {
		t->size[d] = rli_pickle_item(p, size, (uint32_t)d)->integer;
		t->stride[d] = rli_pickle_item(p, stride, (uint32_t)d)->integer;
	}
	/* Any zero size makes no element; else the product, refused once past the bound. */
	for (int d = 0; d < t->ndim; d++)
		if (t->size[d] == 0)
			numel = 0;
	for (int d = 0; d < t->ndim && numel; d++) {
		if ((uint64_t)t->size[d] > max_elements || numel * (size_t)t->size[d] > max_elements)
			return say(why, why_size, "the tensor has more than %zu elements (dimension %d is %lld long): "
				   "far more experts than a group_list holds; not read", max_elements, d,
				   (long long)t->size[d]);
		numel *= (size_t)t->size[d];
	}
	t->numel = numel;
	return 0;
}

/* Every element the shape reaches lies inside a storage of storage_numel elements. */
static int check_reach(const rli_pt_tensor *t, char *why, size_t why_size)
{
	uint64_t last = (uint64_t)t->offset;
	if (t->numel == 0)
		return 0;
	for (int d = 0; d < t->ndim; d++) {
		uint64_t steps = (uint64_t)t->size[d] - 1;
		/* steps <= 2^20 and stride below the storage's 2^60 elements: no overflow past here */
		if (steps && (uint64_t)t->stride[d] >= t->storage_numel + (uint64_t)1)
			return say(why, why_size, "the tensor's stride %lld in dimension %d reaches past its storage of "
				   "%zu elements", (long long)t->stride[d], d, t->storage_numel);
		last += steps * (uint64_t)t->stride[d];
	}
	if ((uint64_t)t->offset > t->storage_numel || last >= t->storage_numel)
		return say(why, why_size, "the tensor reaches element %llu of its storage, which holds %zu",
			   (unsigned long long)last, t->storage_numel);
	return 0;
}

/* ---- the zip archive (torch.save's default since 1.6) ------------------------------------- */

/* A libzip failure in our words. */
static int zip_failed(char *why, size_t why_size, const char *what, int code)
{
	const char *words = code == ZIP_ER_NOZIP ? "its directory (the end of the archive) is missing: the file is "
						   "truncated or damaged"
			    : code == ZIP_ER_INCONS ? "its directory and its records disagree: the file is damaged"
			    : code == ZIP_ER_CRC ? "a record's checksum is wrong: the file is damaged"
			    : code == ZIP_ER_EOF || code == ZIP_ER_READ ? "it ends inside a record: the file is truncated"
			    : code == ZIP_ER_COMPNOTSUPP || code == ZIP_ER_ENCRNOTSUPP ? "a record is compressed or encrypted"
			    : "it cannot be read: the file is damaged";
	if (code == ZIP_ER_MEMORY)
		return -2;
	return say(why, why_size, "%s: %s (libzip error %d)", what, words, code);
}

typedef struct {
	zip_t *archive;
	char prefix[256]; /* the archive's folder, "name/" */
} archive;

/* The index of record name (after the archive's folder), or -1. */
static zip_int64_t locate(const archive *a, const char *name)
{
	char full[512];
	if (snprintf(full, sizeof(full), "%s%s", a->prefix, name) >= (int)sizeof(full))
		return -1;
	return zip_name_locate(a->archive, full, ZIP_FL_ENC_RAW);
}

/*
 * Record `index` into a new buffer (*out, *length): stored, unencrypted, at most max bytes, and
 * read whole so that libzip checks its CRC-32.
 */
static int read_record(const archive *a, zip_int64_t index, const char *name, size_t max, unsigned char **out,
		       size_t *length, char *why, size_t why_size)
{
	zip_stat_t st;
	zip_file_t *file;
	unsigned char *bytes;
	zip_int64_t got;
	*out = NULL;
	zip_stat_init(&st);
	if (zip_stat_index(a->archive, (zip_uint64_t)index, ZIP_FL_ENC_RAW, &st) != 0)
		return zip_failed(why, why_size, name, zip_error_code_zip(zip_get_error(a->archive)));
	if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method != ZIP_CM_STORE)
		return say(why, why_size, "record %s is compressed (method %u); torch.save stores every record as it is, "
			   "and this reader takes no other", name, (unsigned)st.comp_method);
	if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
		return say(why, why_size, "record %s is encrypted", name);
	if (!(st.valid & ZIP_STAT_SIZE) || st.size > max)
		return say(why, why_size, "record %s is %llu bytes, more than the %zu it can be", name,
			   (unsigned long long)st.size, max);
	/* One byte of room more than the record: a record shorter than the directory says is found short. */
	if (!(bytes = malloc((size_t)st.size + 1)))
		return -2;
	if (!(file = zip_fopen_index(a->archive, (zip_uint64_t)index, 0))) {
		free(bytes);
		return zip_failed(why, why_size, name, zip_error_code_zip(zip_get_error(a->archive)));
	}
	got = zip_fread(file, bytes, st.size + 1);
	if (got < 0 || (zip_uint64_t)got != st.size) {
		int code = got < 0 ? zip_error_code_zip(zip_file_get_error(file)) : ZIP_ER_INCONS;
		zip_fclose(file);
		free(bytes);
		return zip_failed(why, why_size, name, code);
	}
	zip_fclose(file);
	/* libzip 1.7 does not check a stored record's CRC-32 as it reads it: checked here, with zlib's. */
	if ((st.valid & ZIP_STAT_CRC) && crc32(crc32(0L, Z_NULL, 0), bytes, (uInt)st.size) != st.crc) {
		free(bytes);
		return zip_failed(why, why_size, name, ZIP_ER_CRC);
	}
	*out = bytes;
	*length = (size_t)st.size;
	return 0;
}

/* The byteorder record (torch >= 2.1): absent or "little" is little-endian, "big" big. */
static int read_byteorder(const archive *a, rli_pt_tensor *t, char *why, size_t why_size)
{
	zip_int64_t index = locate(a, "byteorder");
	unsigned char *text;
	size_t length;
	int error;
	t->big_endian = 0;
	if (index < 0)
		return 0;
	if ((error = read_record(a, index, "byteorder", 16, &text, &length, why, why_size)) < 0)
		return error;
	if (length == 3 && memcmp(text, "big", 3) == 0)
		t->big_endian = 1;
	else if (!(length == 6 && memcmp(text, "little", 6) == 0))
		error = say(why, why_size, "the byteorder record says '%.*s', neither little nor big", (int)length,
			    (const char *)text);
	free(text);
	return error;
}

static int read_zip(rli_pt_tensor *t, const unsigned char *data, size_t size, size_t max_elements, char *why,
		    size_t why_size)
{
	zip_error_t error_info;
	zip_source_t *source;
	archive a = { NULL, "" };
	unsigned char *pickle = NULL;
	size_t pickle_length = 0, storage_length = 0;
	const char *first, *slash;
	rli_pickle p;
	uint32_t root;
	zip_int64_t index;
	char record[128];
	int error;

	rli_pickle_init(&p, NULL, 0, "data.pkl", 0, 0, why, why_size);
	zip_error_init(&error_info);
	if (!(source = zip_source_buffer_create(data, size, 0, &error_info))) {
		zip_error_fini(&error_info);
		return -2;
	}
	if (!(a.archive = zip_open_from_source(source, ZIP_RDONLY, &error_info))) {
		error = zip_failed(why, why_size, "the zip archive", zip_error_code_zip(&error_info));
		zip_source_free(source);
		goto done;
	}
	/* torch's reader: every record is looked up under the folder of the first (gmm.md §2.1). */
	if (zip_get_num_entries(a.archive, 0) <= 0 || !(first = zip_get_name(a.archive, 0, ZIP_FL_ENC_RAW))) {
		error = say(why, why_size, "the zip archive holds no record");
		goto done;
	}
	if (!(slash = strchr(first, '/')) || (size_t)(slash - first) + 2 > sizeof(a.prefix)) {
		error = say(why, why_size, "the zip archive's first record '%.64s' is not inside the one folder torch.save "
			    "puts every record in", first);
		goto done;
	}
	memcpy(a.prefix, first, (size_t)(slash - first) + 1);
	a.prefix[slash - first + 1] = '\0';
	if (locate(&a, "constants.pkl") >= 0) {
		error = say(why, why_size, "the archive holds constants.pkl: a TorchScript module, not a tensor saved by "
			    "torch.save");
		goto done;
	}
	if ((index = locate(&a, "data.pkl")) < 0) {
		error = say(why, why_size, "the zip archive has no data.pkl record: not a file torch.save writes");
		goto done;
	}
	if ((error = read_byteorder(&a, t, why, why_size)) < 0 ||
	    (error = read_record(&a, index, "data.pkl", MAX_PICKLE_BYTES, &pickle, &pickle_length, why, why_size)) < 0)
		goto done;
	rli_pickle_init(&p, pickle, pickle_length, "data.pkl", 0, 0, why, why_size);
	if ((error = rli_pickle_load(&p, &root)) < 0 ||
	    (error = take_tensor(t, &p, root, max_elements, why, why_size)) < 0)
		goto done;
	{
		const rli_pk_value *storage = &p.values[p.values[root].storage];
		snprintf(record, sizeof(record), "data/%.*s", (int)storage->text_length,
			 (const char *)pickle + storage->text_at);
	}
	if ((index = locate(&a, record)) < 0) {
		error = say(why, why_size, "the tensor's storage is record %s, which the archive does not hold", record);
		goto done;
	}
	/* A stored record is no larger than the file: a storage that claims more is refused here. */
	if ((error = read_record(&a, index, record, size, &t->owned, &storage_length, why, why_size)) < 0)
		goto done;
	if (t->storage_numel > storage_length / rli_pt_dtype_size(t->dtype)) {
		error = say(why, why_size, "record %s holds %zu bytes, fewer than the %zu %s elements the pickle says its "
			    "storage has", record, storage_length, t->storage_numel, rli_pt_dtype_name(t->dtype));
		goto done;
	}
	t->storage = t->owned;
	t->container = RLI_PT_ZIP;
	error = check_reach(t, why, why_size);
done:
	rli_pickle_dispose(&p);
	free(pickle);
	if (a.archive)
		zip_discard(a.archive); /* read only: closing writes nothing */
	zip_error_fini(&error_info);
	return error;
}

/* ---- the legacy stream (_use_new_zipfile_serialization=False) ----------------------------- */

static int read_legacy(rli_pt_tensor *t, const unsigned char *data, size_t size, size_t max_elements, char *why,
		       size_t why_size)
{
	rli_pickle p;
	uint32_t info, root, keys;
	const rli_pk_value *list, *storage;
	size_t pos = sizeof(legacy_magic), key_at, key_length;
	int error;

	if (size < pos + sizeof(legacy_protocol) || memcmp(data + pos, legacy_protocol, sizeof(legacy_protocol)) != 0)
		return say(why, why_size, "the legacy stream, byte %zu: torch's magic number is not followed by protocol 1001, as a legacy "
			   "torch.save file's is", pos);
	pos += sizeof(legacy_protocol);
	rli_pickle_init(&p, data, size, "the legacy stream", 0, 1, why, why_size);
	p.pos = pos;
	/* The system information (byte order, type sizes), a dict; then the object; then its storages' keys. */
	if ((error = rli_pickle_load(&p, &info)) < 0)
		goto done;
	if (p.values[info].kind != RLI_PK_DICT) {
		error = say(why, why_size, "the legacy stream, byte %zu: the system information is a %s, not a dict", pos,
			    rli_pickle_kind_name(&p.values[info]));
		goto done;
	}
	if ((error = rli_pickle_load(&p, &root)) < 0 || (error = take_tensor(t, &p, root, max_elements, why, why_size)) < 0)
		goto done;
	storage = &p.values[p.values[root].storage];
	key_at = storage->text_at;
	key_length = storage->text_length;
	pos = p.pos;
	if ((error = rli_pickle_load(&p, &keys)) < 0)
		goto done;
	list = &p.values[keys];
	if (list->kind != RLI_PK_LIST || list->count != 1 || rli_pickle_item(&p, list, 0)->kind != RLI_PK_TEXT ||
	    rli_pickle_item(&p, list, 0)->text_length != key_length ||
	    memcmp(data + rli_pickle_item(&p, list, 0)->text_at, data + key_at, key_length) != 0) {
		error = say(why, why_size, "the legacy stream, byte %zu: the list of storages is not the one storage the tensor uses", pos);
		goto done;
	}
	/* The storage: its element count (8 bytes, little-endian), then its elements, always little-endian. */
	pos = p.pos;
	if (size - pos < 8) {
		error = say(why, why_size, "the legacy stream, byte %zu: the file ends before the tensor's storage (it is truncated)", pos);
		goto done;
	}
	{
		uint64_t count = 0;
		for (int i = 7; i >= 0; i--)
			count = count << 8 | data[pos + (size_t)i];
		pos += 8;
		if (count != t->storage_numel) {
			error = say(why, why_size, "the legacy stream, byte %zu: the storage holds %llu elements, not the %zu its pickle says",
				    pos - 8, (unsigned long long)count, t->storage_numel);
			goto done;
		}
		if (count > (size - pos) / rli_pt_dtype_size(t->dtype)) {
			error = say(why, why_size, "the legacy stream, byte %zu: the storage's %llu %s elements run past the end of the file "
				    "(it is truncated)", pos, (unsigned long long)count, rli_pt_dtype_name(t->dtype));
			goto done;
		}
	}
	t->storage = data + pos;
	t->big_endian = 0;
	t->container = RLI_PT_LEGACY;
	error = check_reach(t, why, why_size);
done:
	rli_pickle_dispose(&p);
	return error;
}

/* ---- the file --------------------------------------------------------------------------- */

int rli_pt_read(rli_pt_tensor *tensor, const unsigned char *data, size_t size, size_t max_elements, char *why,
		size_t why_size)
{
	int error;
	memset(tensor, 0, sizeof(*tensor));
	if (size == 0)
		return say(why, why_size, "the file is empty");
	if (size > RLI_PT_MAX_BYTES)
		return say(why, why_size, "the file is %zu bytes, more than the %zu a tensor dump this reader takes can be",
			   size, RLI_PT_MAX_BYTES);
	if (size >= 4 && memcmp(data, "PK\x03\x04", 4) == 0)
		error = read_zip(tensor, data, size, max_elements, why, why_size);
	else if (size >= sizeof(legacy_magic) && memcmp(data, legacy_magic, sizeof(legacy_magic)) == 0)
		error = read_legacy(tensor, data, size, max_elements, why, why_size);
	else if (size > 262 && memcmp(data + 257, "ustar", 5) == 0)
		error = say(why, why_size, "a tar archive (torch.save's format before 2017): not read");
	else if (data[0] == 0x80)
		error = say(why, why_size, "a pickle without torch's magic number: not a file torch.save writes");
	else
		error = say(why, why_size, "neither a zip archive nor the legacy stream torch.save writes (the file starts "
			    "with bytes %02x %02x)", data[0], size > 1 ? data[1] : 0);
	if (error < 0)
		rli_pt_tensor_dispose(tensor);
	return error;
}

/* ---- the values ---------------------------------------------------------------------------- */

static double half_to_double(uint16_t h)
{
	int exponent = (h >> 10) & 0x1f;
	double mantissa = (double)(h & 0x3ff), value;
	if (exponent == 0)
		value = mantissa * (1.0 / 16777216.0); /* subnormal: m * 2^-24 */
	else if (exponent == 31)
		value = mantissa ? (double)NAN : (double)INFINITY;
	else
		value = (1.0 + mantissa / 1024.0) * (double)((uint64_t)1 << exponent) / 32768.0;
	return h & 0x8000 ? -value : value;
}

/* Element i of the storage (bytes in the file's order) as a double. */
static double element(const rli_pt_tensor *t, size_t i)
{
	size_t width = rli_pt_dtype_size(t->dtype);
	const unsigned char *b = t->storage + i * width;
	uint64_t bits = 0;
	for (size_t k = 0; k < width; k++)
		bits |= (uint64_t)b[t->big_endian ? width - 1 - k : k] << (8 * k);
	switch (t->dtype) {
	case RLI_PT_INT64:
		return (double)(int64_t)bits;
	case RLI_PT_INT32:
		return (double)(int32_t)(uint32_t)bits;
	case RLI_PT_INT16:
		return (double)(int16_t)(uint16_t)bits;
	case RLI_PT_INT8:
		return (double)(int8_t)(uint8_t)bits;
	case RLI_PT_UINT8:
		return (double)bits;
	case RLI_PT_BOOL:
		return bits != 0;
	case RLI_PT_FLOAT64: {
		double d;
		memcpy(&d, &bits, sizeof(d));
		return d;
	}
	case RLI_PT_FLOAT32: {
		uint32_t u = (uint32_t)bits;
		float f;
		memcpy(&f, &u, sizeof(f));
		return f;
	}
	case RLI_PT_FLOAT16:
		return half_to_double((uint16_t)bits);
	case RLI_PT_BFLOAT16: {
		uint32_t u = (uint32_t)bits << 16; /* bfloat16 is a float32's top half */
		float f;
		memcpy(&f, &u, sizeof(f));
		return f;
	}
	default:
		return NAN;
	}
}

/*
 * The common case at speed: the elements back to back, little-endian, of a type read by a plain
 * copy (what msprobe dumps: contiguous int64). 1 when done.
 */
static int contiguous_values(const rli_pt_tensor *t, double *out)
{
	const unsigned char *b;
	if (t->big_endian || (t->ndim == 1 && t->stride[0] != 1) || t->ndim > 1)
		return 0;
	b = t->storage + (size_t)t->offset * rli_pt_dtype_size(t->dtype);
	switch (t->dtype) {
	case RLI_PT_INT64:
		for (size_t i = 0; i < t->numel; i++) {
			int64_t v;
			memcpy(&v, b + 8 * i, sizeof(v));
			out[i] = (double)v;
		}
		return 1;
	case RLI_PT_INT32:
		for (size_t i = 0; i < t->numel; i++) {
			int32_t v;
			memcpy(&v, b + 4 * i, sizeof(v));
			out[i] = v;
		}
		return 1;
	case RLI_PT_FLOAT32:
		for (size_t i = 0; i < t->numel; i++) {
			float v;
			memcpy(&v, b + 4 * i, sizeof(v));
			out[i] = v;
		}
		return 1;
	default:
		return 0;
	}
}

void rli_pt_values(const rli_pt_tensor *t, double *out)
{
	int64_t index[RLI_PT_MAX_DIMS] = { 0 };
	size_t at = (size_t)t->offset;
	if (t->numel == 0)
		return;
	/* The storage's bytes are little-endian in the file, as they are in memory here. */
	{
		const uint16_t probe = 1;
		unsigned char first;
		memcpy(&first, &probe, 1);
		if (first == 1 && contiguous_values(t, out))
			return;
	}
	/* Row-major over the size: the last dimension fastest, each step by its stride. */
	for (size_t n = 0; n < t->numel; n++) {
		out[n] = element(t, at);
		for (int d = t->ndim - 1; d >= 0; d--) {
			if (++index[d] < t->size[d]) {
				at += (size_t)t->stride[d];
				break;
			}
			at -= (size_t)(t->stride[d] * (t->size[d] - 1));
			index[d] = 0;
		}
	}
}

/* test_pt_read.c: the .pt reader on what torch.save writes (made here and by rl-insight-synth) and on what it must refuse. */
#include "harness.h"
#include "parse/pt_read.h"
#include "synth/pt_write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

/* ---- a pickle assembler, opcode by opcode ------------------------------------------------- */

typedef struct {
	unsigned char data[1 << 16];
	size_t used;
} bytes;

static void raw(bytes *b, const void *p, size_t n)
{
	if (b->used + n <= sizeof(b->data)) {
		memcpy(b->data + b->used, p, n);
		b->used += n;
	}
}
static void op(bytes *b, int c)
{
	unsigned char u = (unsigned char)c;
	raw(b, &u, 1);
}
static void le(bytes *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		op(b, (int)(v >> (8 * i)) & 0xff);
}
static void text(bytes *b, const char *t)
{
	op(b, 'X');
	le(b, strlen(t), 4);
	raw(b, t, strlen(t));
}
static void global(bytes *b, const char *module, const char *name)
{
	op(b, 'c');
	raw(b, module, strlen(module));
	op(b, '\n');
	raw(b, name, strlen(name));
	op(b, '\n');
}
static void integer(bytes *b, int64_t v)
{
	op(b, 0x8a);
	op(b, 8);
	le(b, (uint64_t)v, 8);
}

/* What the tensor's pickle is made of; each test changes what it must. */
typedef struct {
	const char *storage_type;
	int64_t numel, offset;
	int ndim;
	int64_t size[4], stride[4];
	int args;             /* 6, or 7 with a metadata dict, or another count to refuse */
	int hooks_with_args;  /* OrderedDict((...)) instead of OrderedDict() */
	int protocol;
} tensor_spec;

static tensor_spec spec_1d(const char *type, int64_t n)
{
	tensor_spec s = { type, n, 0, 1, { n }, { 1 }, 6, 0, 2 };
	return s;
}

static void tuple_of(bytes *b, const int64_t *v, int n)
{
	op(b, '(');
	for (int i = 0; i < n; i++)
		integer(b, v[i]);
	op(b, 't');
}

static void tensor_pickle(bytes *b, const tensor_spec *s)
{
	op(b, 0x80);
	op(b, s->protocol);
	global(b, "torch._utils", "_rebuild_tensor_v2");
	op(b, '(');
	op(b, '(');
	text(b, "storage");
	global(b, "torch", s->storage_type);
	text(b, "0");
	text(b, "cuda:0");
	integer(b, s->numel);
	op(b, 't');
	op(b, 'Q');
	integer(b, s->offset);
	tuple_of(b, s->size, s->ndim);
	tuple_of(b, s->stride, s->ndim);
	op(b, 0x89);
	global(b, "collections", "OrderedDict");
	if (s->hooks_with_args) {
		text(b, "x");
		op(b, 0x85);
	} else {
		op(b, ')');
	}
	op(b, 'R');
	if (s->args == 7)
		op(b, '}');
	if (s->args == 5)
		op(b, '0'); /* POP: refused before the count matters */
	op(b, 't');
	op(b, 'R');
	op(b, '.');
}

/* ---- a zip, through libzip, with records stored or deflated -------------------------------- */

typedef struct {
	const char *name;
	const void *data;
	size_t size;
	int deflate;
} entry;

/* The archive's bytes into out; its size. */
static size_t make_zip(unsigned char *out, size_t room, const entry *entries, int count)
{
	zip_error_t error;
	zip_source_t *source;
	zip_t *archive;
	zip_int64_t size = 0;
	zip_error_init(&error);
	source = zip_source_buffer_create(NULL, 0, 0, &error);
	archive = zip_open_from_source(source, ZIP_TRUNCATE, &error);
	zip_source_keep(source);
	for (int i = 0; i < count; i++) {
		zip_source_t *data = zip_source_buffer(archive, entries[i].data, entries[i].size, 0);
		zip_int64_t index = zip_file_add(archive, entries[i].name, data, ZIP_FL_ENC_UTF_8);
		zip_set_file_compression(archive, (zip_uint64_t)index, entries[i].deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
	}
	zip_close(archive);
	if (zip_source_open(source) == 0) {
		zip_source_seek(source, 0, SEEK_END);
		size = zip_source_tell(source);
		zip_source_seek(source, 0, SEEK_SET);
		if (size > 0 && (size_t)size <= room)
			size = zip_source_read(source, out, (zip_uint64_t)size);
		else
			size = 0;
		zip_source_close(source);
	}
	zip_source_free(source);
	zip_error_fini(&error);
	return size > 0 ? (size_t)size : 0;
}

static unsigned char archive_bytes[1 << 22];

/* A torch-like archive: x/data.pkl, x/data/0 (storage bytes), x/version, plus `extra` records. */
static size_t tensor_zip(const bytes *pickle, const void *storage, size_t storage_size, int deflate_storage,
			 const entry *extra, int extra_count)
{
	entry entries[8] = {
		{ "x/data.pkl", pickle->data, pickle->used, 0 },
		{ "x/data/0", storage, storage_size, deflate_storage },
		{ "x/version", "3\n", 2, 0 },
	};
	int count = 3;
	for (int i = 0; i < extra_count && count < 8; i++)
		entries[count++] = extra[i];
	return make_zip(archive_bytes, sizeof(archive_bytes), entries, count);
}

/* Reads size bytes copied into a buffer of exactly that size, so that a sanitizer sees any overread. */
static int read_exact(rli_pt_tensor *t, const unsigned char *data, size_t size, char *why, size_t why_size)
{
	unsigned char *copy = malloc(size ? size : 1);
	int result;
	memcpy(copy, data, size);
	result = rli_pt_read(t, copy, size, 1u << 20, why, why_size);
	if (result == 0) {
		/* the values are read while the bytes still exist (a legacy tensor points into them) */
		double *values = malloc((t->numel ? t->numel : 1) * sizeof(*values));
		rli_pt_values(t, values);
		free(values);
	}
	rli_pt_tensor_dispose(t);
	free(copy);
	return result;
}

/* The file must be refused, saying `words`. */
static void expect_refused(const unsigned char *data, size_t size, const char *words, int line)
{
	rli_pt_tensor t;
	char why[512] = "";
	int result = read_exact(&t, data, size, why, sizeof(why));
	if (result != -1 || !strstr(why, words)) {
		fprintf(stderr, "%s:%d: read gave %d (%s), want a refusal saying '%s'\n", __FILE__, line, result, why, words);
		rli_test_failures++;
	}
}
#define REFUSED(data, size, words) expect_refused(data, size, words, __LINE__)

/* Where needle first lies in haystack, or NULL. */
static unsigned char *find(unsigned char *haystack, size_t size, const void *needle, size_t length)
{
	for (size_t i = 0; i + length <= size; i++)
		if (memcmp(haystack + i, needle, length) == 0)
			return haystack + i;
	return NULL;
}

/* ---- the cases ------------------------------------------------------------------------------ */

static const int64_t little_longs[4] = { 5, 0, 1099511627777, -3 };

static void test_values_and_shapes(void)
{
	bytes p = { .used = 0 };
	rli_pt_tensor t;
	char why[512];
	double v[16];
	tensor_spec s = spec_1d("LongStorage", 4);
	size_t size;

	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	CHECK_INT(rli_pt_read(&t, archive_bytes, size, 1u << 20, why, sizeof(why)), 0);
	CHECK_INT(t.numel, 4);
	CHECK_INT(t.dtype, RLI_PT_INT64);
	rli_pt_values(&t, v);
	CHECK(v[0] == 5 && v[1] == 0 && v[2] == 1099511627777.0 && v[3] == -3);
	rli_pt_tensor_dispose(&t);

	/* a transposed 2x2 view of [5, 0, 2^40+1, -3] flattens to 5, 2^40+1, 0, -3; a 7th argument (metadata) is fine */
	p.used = 0;
	s = (tensor_spec){ "LongStorage", 4, 0, 2, { 2, 2 }, { 1, 2 }, 7, 0, 2 };
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	CHECK_INT(rli_pt_read(&t, archive_bytes, size, 1u << 20, why, sizeof(why)), 0);
	rli_pt_values(&t, v);
	CHECK(t.numel == 4 && v[0] == 5 && v[1] == 1099511627777.0 && v[2] == 0 && v[3] == -3);
	rli_pt_tensor_dispose(&t);

	/* a slice with an offset and a stride; a 0-d tensor is one element */
	p.used = 0;
	s = (tensor_spec){ "LongStorage", 4, 1, 1, { 2 }, { 2 }, 6, 0, 4 };
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	CHECK_INT(rli_pt_read(&t, archive_bytes, size, 1u << 20, why, sizeof(why)), 0);
	rli_pt_values(&t, v);
	CHECK(t.numel == 2 && v[0] == 0 && v[1] == -3);
	rli_pt_tensor_dispose(&t);
	p.used = 0;
	s = (tensor_spec){ "LongStorage", 4, 3, 0, { 0 }, { 0 }, 6, 0, 2 };
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	CHECK_INT(rli_pt_read(&t, archive_bytes, size, 1u << 20, why, sizeof(why)), 0);
	rli_pt_values(&t, v);
	CHECK(t.numel == 1 && v[0] == -3);
	rli_pt_tensor_dispose(&t);

	/* float16: 1, 2.5, -0, inf, a subnormal, NaN */
	{
		static const uint16_t halves[6] = { 0x3c00, 0x4100, 0x8000, 0x7c00, 0x0001, 0x7e00 };
		p.used = 0;
		s = spec_1d("HalfStorage", 6);
		tensor_pickle(&p, &s);
		size = tensor_zip(&p, halves, sizeof(halves), 0, NULL, 0);
		CHECK_INT(rli_pt_read(&t, archive_bytes, size, 1u << 20, why, sizeof(why)), 0);
		rli_pt_values(&t, v);
		CHECK(v[0] == 1 && v[1] == 2.5 && v[2] == 0 && signbit(v[2]) && isinf(v[3]) && v[4] == ldexp(1, -24) &&
		      isnan(v[5]));
		rli_pt_tensor_dispose(&t);
	}
	/* byteorder big: the storage's bytes are big-endian */
	{
		static const unsigned char be[8] = { 0, 0, 0, 0, 0, 0, 1, 2 };
		entry order = { "x/byteorder", "big", 3, 0 };
		p.used = 0;
		s = spec_1d("LongStorage", 1);
		tensor_pickle(&p, &s);
		size = tensor_zip(&p, be, sizeof(be), 0, &order, 1);
		CHECK_INT(rli_pt_read(&t, archive_bytes, size, 1u << 20, why, sizeof(why)), 0);
		rli_pt_values(&t, v);
		CHECK(v[0] == 258);
		rli_pt_tensor_dispose(&t);
	}
}

static void test_refused_pickles(void)
{
	bytes p = { .used = 0 };
	tensor_spec s = spec_1d("LongStorage", 4);
	size_t size;

	/* os.system, as pickle names it on Linux: refused by name, nothing called */
	op(&p, 0x80);
	op(&p, 2);
	global(&p, "posix", "system");
	text(&p, "touch /tmp/rli-test-pwned");
	op(&p, 0x85);
	op(&p, 'R');
	op(&p, '.');
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "the global posix.system");
	CHECK(access("/tmp/rli-test-pwned", F_OK) != 0);
	{
		static const char *const globals[][2] = { { "builtins", "eval" }, { "numpy.core.multiarray", "_reconstruct" },
							  { "torch._utils", "_rebuild_qtensor" }, { "torch", "ComplexFloatStorage" },
							  { "torch._tensor", "_rebuild_from_type_v2" }, { "__builtin__", "getattr" } };
		for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]); i++) {
			char words[128];
			p.used = 0;
			op(&p, 0x80);
			op(&p, 2);
			global(&p, globals[i][0], globals[i][1]);
			op(&p, '.');
			size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
			snprintf(words, sizeof(words), "the global %s.%s", globals[i][0], globals[i][1]);
			REFUSED(archive_bytes, size, words);
		}
	}
	/* opcodes that build objects or reach globals another way */
	{
		static const struct {
			int op;
			const char *name;
		} ops[] = { { 'b', "BUILD" }, { 'i', "INST" }, { 'o', "OBJ" }, { 0x93, "STACK_GLOBAL" }, { 0x81, "NEWOBJ" },
			    { 'I', "INT" }, { 'P', "PERSID" }, { 0x82, "EXT1" } };
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			p.used = 0;
			op(&p, 0x80);
			op(&p, 2);
			op(&p, ops[i].op);
			op(&p, '.');
			size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
			REFUSED(archive_bytes, size, ops[i].name);
		}
	}
	/* bounds: a memo index far out, a stack 5000 deep, a 9-byte integer, an unknown byte */
	p.used = 0;
	op(&p, 0x80);
	op(&p, 2);
	op(&p, 'N');
	op(&p, 'r');
	le(&p, 0xffffffffu, 4);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "memo index 4294967295");
	p.used = 0;
	op(&p, 0x80);
	op(&p, 2);
	for (int i = 0; i < 5000; i++)
		op(&p, '(');
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "stack grows past 4096");
	p.used = 0;
	op(&p, 0x80);
	op(&p, 2);
	op(&p, 0x8a);
	op(&p, 9);
	le(&p, 1, 8);
	op(&p, 1);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "an integer of 9 bytes");
	p.used = 0;
	op(&p, 0x80);
	op(&p, 2);
	op(&p, 0xff);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "byte 0xff");
	/* a list is no tensor; OrderedDict with arguments; five arguments; size and stride of two lengths */
	p.used = 0;
	op(&p, 0x80);
	op(&p, 2);
	op(&p, ']');
	op(&p, 'K');
	op(&p, 1);
	op(&p, 'a');
	op(&p, '.');
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "holds a list, not a tensor");
	p.used = 0;
	s.hooks_with_args = 1;
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "OrderedDict is called with arguments");
	p.used = 0;
	s = spec_1d("LongStorage", 4);
	s.args = 5;
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "POP");
	p.used = 0;
	s = (tensor_spec){ "LongStorage", 4, 0, 2, { 2, 2 }, { 1, 2 }, 6, 0, 2 };
	tensor_pickle(&p, &s);
	p.used--; /* no STOP: the pickle is cut short */
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "ends before its STOP");
}

static void test_refused_shapes_and_archives(void)
{
	bytes p = { .used = 0 };
	tensor_spec s;
	size_t size;
	static unsigned char zeros[1 << 20];

	/* a billion elements: refused before anything is allocated for them */
	s = spec_1d("LongStorage", 1000000000);
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "more than 1048576 elements");
	/* a storage that claims more than its record holds; a stride and an offset past the storage */
	p.used = 0;
	s = spec_1d("LongStorage", 1000);
	s.size[0] = 4;
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "holds 32 bytes, fewer than the 1000 int64 elements");
	p.used = 0;
	s = (tensor_spec){ "LongStorage", 4, 0, 1, { 2 }, { 100 }, 6, 0, 2 };
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "stride 100 in dimension 0 reaches past its storage");
	p.used = 0;
	s = (tensor_spec){ "LongStorage", 4, 3, 1, { 2 }, { 1 }, 6, 0, 2 };
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	REFUSED(archive_bytes, size, "reaches element 4 of its storage, which holds 4");
	/* a deflated storage (a zip bomb would be one): refused unread */
	p.used = 0;
	s = spec_1d("LongStorage", sizeof(zeros) / 8);
	tensor_pickle(&p, &s);
	size = tensor_zip(&p, zeros, sizeof(zeros), 1, NULL, 0);
	CHECK(size < sizeof(zeros) / 100);
	REFUSED(archive_bytes, size, "record data/0 is compressed");
	/* no storage record; a TorchScript archive; a first record outside a folder; a bad byteorder */
	p.used = 0;
	s = spec_1d("LongStorage", 4);
	tensor_pickle(&p, &s);
	{
		entry only[1] = { { "x/data.pkl", p.data, p.used, 0 } };
		size = make_zip(archive_bytes, sizeof(archive_bytes), only, 1);
		REFUSED(archive_bytes, size, "record data/0, which the archive does not hold");
	}
	{
		entry constants = { "x/constants.pkl", "\x80\x02N.", 4, 0 };
		size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, &constants, 1);
		REFUSED(archive_bytes, size, "TorchScript");
	}
	{
		entry top[2] = { { "data.pkl", p.data, p.used, 0 }, { "x/data/0", little_longs, sizeof(little_longs), 0 } };
		size = make_zip(archive_bytes, sizeof(archive_bytes), top, 2);
		REFUSED(archive_bytes, size, "not inside the one folder");
	}
	{
		entry order = { "x/byteorder", "middle", 6, 0 };
		size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, &order, 1);
		REFUSED(archive_bytes, size, "says 'middle', neither little nor big");
	}
	/* a damaged record: its CRC no longer holds */
	size = tensor_zip(&p, little_longs, sizeof(little_longs), 0, NULL, 0);
	{
		unsigned char *hit = find(archive_bytes, size, little_longs, sizeof(little_longs));
		CHECK(hit != NULL);
		if (hit)
			hit[0] ^= 1;
		REFUSED(archive_bytes, size, "checksum");
	}
	/* not a .pt at all */
	REFUSED((const unsigned char *)"", 0, "the file is empty");
	REFUSED((const unsigned char *)"hello, world\n", 13, "neither a zip archive nor");
	REFUSED((const unsigned char *)"\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00]\x94.", 14, "without torch's magic");
	REFUSED((const unsigned char *)"PK\x03\x04garbage", 11, "the zip archive");
}

/* rl-insight-synth's files, each cut at every length and with each byte changed: refused or read, never a crash. */
static void test_synth_files_damaged(const char *dir)
{
	static const int kinds[][4] = { { SYNTH_PT_INT64, 0, 1, 0 }, { SYNTH_PT_INT32, 0, 0, 0 }, { SYNTH_PT_FLOAT32, 1, 0, 0 },
					{ SYNTH_PT_BFLOAT16, 0, 0, 0 }, { SYNTH_PT_FLOAT64, 0, 1, 1 } };
	uint64_t bits[5] = { 1, 2, 3, 4, 5 };
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		char path[512];
		size_t size = 0, refused = 0;
		unsigned char *data;
		synth_pt t = { kinds[k][0], 5, bits, "NPU.npu_grouped_matmul.0.forward.kwargs.group_list", kinds[k][1],
			       kinds[k][2], kinds[k][3] };
		rli_pt_tensor tensor;
		char why[512];
		snprintf(path, sizeof(path), "%s/kind%zu.pt", dir, k);
		CHECK_INT(synth_pt_write(path, &t), SYNTH_OK);
		data = (unsigned char *)test_read_file(path, &size);
		CHECK(data != NULL);
		if (!data)
			continue;
		CHECK_INT(read_exact(&tensor, data, size, why, sizeof(why)), 0);
		for (size_t cut = 0; cut < size; cut++)
			refused += read_exact(&tensor, data, cut, why, sizeof(why)) == -1;
		CHECK_INT(refused, size);
		for (size_t at = 0; at < size; at++) {
			data[at] ^= 0x5a;
			(void)read_exact(&tensor, data, size, why, sizeof(why));
			data[at] ^= 0x5a;
		}
		free(data);
		unlink(path);
	}
}

int main(void)
{
	char dir[] = "/tmp/rli-pt-XXXXXX";
	test_values_and_shapes();
	test_refused_pickles();
	test_refused_shapes_and_archives();
	if (mkdtemp(dir)) {
		test_synth_files_damaged(dir);
		rmdir(dir);
	} else {
		CHECK(!"mkdtemp");
	}
	if (rli_test_failures)
		fprintf(stderr, "%d check(s) failed\n", rli_test_failures);
	return rli_test_failures ? 1 : 0;
}

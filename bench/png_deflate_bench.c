/* png_deflate_bench.c: our PNG deflate stream against zlib's fastest level (as libpng drives it) on the pixels of given PNGs: time, throughput, bytes. */
#include "png_deflate.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define RUNS 5

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static size_t counted;

static int count_ours(void *context, const unsigned char *bytes, size_t length)
{
	(void)context;
	(void)bytes;
	counted += length;
	return 0;
}

static void count_zlib(png_structp writer, png_bytep bytes, png_size_t length)
{
	(void)writer;
	(void)bytes;
	counted += length;
}

static void flush_nothing(png_structp writer)
{
	(void)writer;
}

/* Our stream over the rows: its image data only, as it would fill the IDAT chunks. */
static double encode_ours(const unsigned char *rgb, unsigned width, unsigned height)
{
	size_t row_bytes = (size_t)width * 3;
	rli_png_deflate *stream;
	double start = now_ms();

	counted = 0;
	if (rli_png_deflate_new(&stream, row_bytes, count_ours, NULL) != 0)
		return -1;
	for (unsigned y = 0; y < height; y++) {
		memcpy(rli_png_deflate_row(stream), rgb + y * row_bytes, row_bytes);
		rli_png_deflate_commit(stream);
	}
	rli_png_deflate_finish(stream);
	rli_png_deflate_free(stream);
	return now_ms() - start;
}

/* libpng with zlib at level 1 and no filter, as rl-insight wrote PNGs before its own stream (the whole file). */
static double encode_zlib(const unsigned char *rgb, unsigned width, unsigned height)
{
	png_structp writer = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = writer ? png_create_info_struct(writer) : NULL;
	double start = now_ms();

	counted = 0;
	if (!info || setjmp(png_jmpbuf(writer))) {
		png_destroy_write_struct(&writer, &info);
		return -1;
	}
	png_set_write_fn(writer, NULL, count_zlib, flush_nothing);
	png_set_IHDR(writer, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_compression_level(writer, 1);
	png_set_filter(writer, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_write_info(writer, info);
	for (unsigned y = 0; y < height; y++)
		png_write_row(writer, rgb + (size_t)y * width * 3);
	png_write_end(writer, info);
	png_destroy_write_struct(&writer, &info);
	return now_ms() - start;
}

int main(int argc, char **argv)
{
	struct rusage usage;

	if (argc < 2) {
		fprintf(stderr, "usage: png-deflate-bench FILE.png...\n"
				"  encodes each picture's pixels %d times with our stream and with zlib level 1; the fastest counts\n",
			RUNS);
		return 2;
	}
	printf("%-44s %11s %9s %9s %10s %9s %9s %10s\n", "picture", "pixels", "ours ms", "MB/s", "bytes", "zlib ms",
	       "MB/s", "bytes");
	for (int f = 1; f < argc; f++) {
		png_image image;
		unsigned char *rgb;
		double ours = 1e30, zlib = 1e30, raw_mb;
		size_t ours_bytes = 0, zlib_bytes = 0;
		const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];

		memset(&image, 0, sizeof(image));
		image.version = PNG_IMAGE_VERSION;
		if (!png_image_begin_read_from_file(&image, argv[f])) {
			fprintf(stderr, "png-deflate-bench: cannot read %s: %s\n", argv[f], image.message);
			return 1;
		}
		image.format = PNG_FORMAT_RGB;
		if (!(rgb = malloc(PNG_IMAGE_SIZE(image))) || !png_image_finish_read(&image, NULL, rgb, 0, NULL)) {
			fprintf(stderr, "png-deflate-bench: cannot decode %s\n", argv[f]);
			return 1;
		}
		for (int run = 0; run < RUNS; run++) {
			double ms = encode_ours(rgb, image.width, image.height);
			if (ms < 0)
				return 1;
			if (ms < ours)
				ours = ms;
			ours_bytes = counted;
			if ((ms = encode_zlib(rgb, image.width, image.height)) < 0)
				return 1;
			if (ms < zlib)
				zlib = ms;
			zlib_bytes = counted;
		}
		raw_mb = (double)image.width * image.height * 3 / 1e6;
		printf("%-44.44s %5ux%-5u %9.1f %9.0f %10zu %9.1f %9.0f %10zu\n", name, image.width, image.height, ours,
		       raw_mb / (ours / 1e3), ours_bytes, zlib, raw_mb / (zlib / 1e3), zlib_bytes);
		free(rgb);
	}
	getrusage(RUSAGE_SELF, &usage);
	printf("peak RSS %.0f MB (the decoded pictures included)\n", usage.ru_maxrss / 1024.0);
	return 0;
}

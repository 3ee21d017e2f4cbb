/* test_render_api.c: rli_render through the registry writes real PNG and PDF files, atomically. */
#include "harness.h"
#include "render_cases.h"
#include "common/atomic_file.h"

#include <png.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	char png_path[4096], pdf_path[4096], bad_path[4096];
	rli_events *events = case_few_rows();
	rli_timeline *timeline = NULL;
	png_image image;
	struct stat st;

	if (argc != 2 || rli_mkdir_p(argv[1]) < 0)
		return 2;
	snprintf(png_path, sizeof(png_path), "%s/%s", argv[1], rli_backend_file_name("png"));
	snprintf(pdf_path, sizeof(pdf_path), "%s/%s", argv[1], rli_backend_file_name("pdf"));
	snprintf(bad_path, sizeof(bad_path), "%s/no/such/folder/x.png", argv[1]);
	CHECK(rli_backend_exists("png"));
	CHECK(rli_backend_exists("pdf"));
	CHECK_STR(rli_backend_file_name("png"), "rl_timeline.png");
	CHECK_STR(rli_backend_file_name("pdf"), "rl_timeline.pdf");

	CHECK_INT(rli_timeline_layout(&timeline, events, NULL), RLI_OK);
	if (!timeline)
		TEST_DONE();
	remove(png_path);
	remove(pdf_path);
	CHECK_INT(rli_render(timeline, "png", png_path, NULL), RLI_OK);
	CHECK_INT(rli_render(timeline, "pdf", pdf_path, NULL), RLI_OK);

	/* The PNG is width x scale by height x scale device pixels: 4000 x 1800 by default. */
	memset(&image, 0, sizeof(image));
	image.version = PNG_IMAGE_VERSION;
	CHECK(png_image_begin_read_from_file(&image, png_path));
	CHECK_INT(image.width, 4000);
	CHECK_INT(image.height, 1800);
	png_image_free(&image);
	CHECK(stat(pdf_path, &st) == 0 && st.st_size > 1000);

	/* An output that cannot be written is RLI_EOUTPUT, and leaves nothing behind. */
	CHECK_INT(rli_render(timeline, "png", bad_path, NULL), RLI_EOUTPUT);
	CHECK(stat(bad_path, &st) != 0);
	CHECK_INT(rli_render(timeline, "gif", png_path, NULL), RLI_EUSAGE);

	remove(png_path);
	remove(pdf_path);
	rli_timeline_free(timeline);
	rli_events_free(events);
	TEST_DONE();
}

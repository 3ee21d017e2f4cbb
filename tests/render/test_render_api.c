/* test_render_api.c: rli_render through the registry writes the files the document names, atomically. */
#include "harness.h"
#include "render_cases.h"
#include "common/atomic_file.h"

#include <png.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	char png_path[4096], pdf_path[4096], bad_dir[4096];
	rli_events *events = case_few_rows();
	rli_timeline *timeline = NULL;
	const rli_document *document;
	png_image image;
	struct stat st;

	if (argc != 2 || rli_mkdir_p(argv[1]) < 0)
		return 2;
	snprintf(png_path, sizeof(png_path), "%s/rl_timeline.png", argv[1]);
	snprintf(pdf_path, sizeof(pdf_path), "%s/rl_timeline.pdf", argv[1]);
	snprintf(bad_dir, sizeof(bad_dir), "%s/no/such/folder", argv[1]);
	CHECK(rli_backend_exists("png"));
	CHECK(rli_backend_exists("pdf"));
	CHECK(!rli_backend_exists("gif"));

	CHECK_INT(rli_timeline_layout(&timeline, events, NULL), RLI_OK);
	if (!timeline)
		TEST_DONE();
	document = rli_timeline_document(timeline);
	remove(png_path);
	remove(pdf_path);
	/* The document names its files: rl_timeline.png and rl_timeline.pdf in the folder given. */
	CHECK_INT(rli_render(document, "png", argv[1], NULL), RLI_OK);
	CHECK_INT(rli_render(document, "pdf", argv[1], NULL), RLI_OK);

	/* The PNG is width x scale by height x scale device pixels: 4000 x 1800 by default. */
	memset(&image, 0, sizeof(image));
	image.version = PNG_IMAGE_VERSION;
	CHECK(png_image_begin_read_from_file(&image, png_path));
	CHECK_INT(image.width, 4000);
	CHECK_INT(image.height, 1800);
	png_image_free(&image);
	CHECK(stat(pdf_path, &st) == 0 && st.st_size > 1000);

	/* An output that cannot be written is RLI_EOUTPUT, and leaves nothing behind. */
	CHECK_INT(rli_render(document, "png", bad_dir, NULL), RLI_EOUTPUT);
	CHECK(stat(bad_dir, &st) != 0);
	CHECK_INT(rli_render(document, "gif", argv[1], NULL), RLI_EUSAGE);

	remove(png_path);
	remove(pdf_path);
	rli_timeline_free(timeline);
	rli_events_free(events);
	TEST_DONE();
}

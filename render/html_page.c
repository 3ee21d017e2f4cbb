/* html_page.c: every page's head, link home, scripts and atomic writing (html_page.h). */
#include "html_page.h"
#include "html_bytes.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/strutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The link home (rli_html_page_home_link), styled alike on every page that has one. */
static const char run_nav_style[] =
	".rli-run-nav { margin: 8px 16px 0; font: 13px/1.4 \"DejaVu Sans\", sans-serif; }\n"
	".rli-run-nav a { color: #1a4f8b; }\n"
	".rli-run-nav a:focus-visible { outline: 2px solid #1a4f8b; outline-offset: 2px; }\n";

void rli_html_page_head(FILE *fp, const char *title, const char *const *styles, size_t count)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n"
	      "<meta name=\"generator\" content=\"rl-insight " RLI_VERSION "\">\n<title>", fp);
	rli_html_escape(fp, title ? title : "");
	fputs("</title>\n<style>\n", fp);
	for (size_t i = 0; i < count; i++)
		fputs(styles[i], fp);
	fputs(run_nav_style, fp);
	fputs("</style>\n</head>\n<body>\n", fp);
}

void rli_html_page_home_link(FILE *fp, const char *home)
{
	if (!home)
		return;
	fputs("<nav class=\"rli-run-nav\" aria-label=\"This run\"><a href=\"", fp);
	rli_html_escape(fp, home);
	fputs(".html\" title=\"Every output of this run\">Run home</a></nav>\n", fp);
}

void rli_html_page_end(FILE *fp, const char *const *scripts, size_t count)
{
	fputs("<script>\n", fp);
	for (size_t i = 0; i < count; i++)
		fputs(scripts[i], fp);
	fputs("</script>\n</body>\n</html>\n", fp);
}

int rli_html_page_write(const char *out_dir, const char *name, rli_output_set *set, rli_html_page_writer write,
			const void *ctx)
{
	rli_atomic_file file = { 0 };
	char *path = rli_path_join(out_dir, name);
	int error;

	if (!path)
		return rli_error_oom();
	if ((error = rli_atomic_open(&file, path)) < 0)
		goto done;
	errno = 0;
	if ((error = write(file.fp, ctx)) < 0)
		goto done;
	/* errno is still the failed write's: say why, as a person would */
	if (fflush(file.fp) != 0 || ferror(file.fp)) {
		error = rli_error_set(RLI_EOUTPUT, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
		goto done;
	}
	error = rli_output_finish(set, &file);
done:
	if (error < 0 && file.temp_path)
		rli_atomic_abort(&file);
	free(path);
	return error;
}

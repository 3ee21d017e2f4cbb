/* read_chunks.c: a regular file read in fixed-size chunks and handed to a streaming consumer. */
#include "read_chunks.h"
#include "parse_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

rli_read_result rli_read_chunks(const char *path, rli_chunk_fn fn, void *ctx, char **failure)
{
	unsigned char *buffer = NULL;
	rli_read_result result = RLI_READ_OK;
	struct stat st;
	int fd;

	*failure = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*failure = rli_strfmt("Failed to read %s: %s", path, strerror(errno));
		return *failure ? RLI_READ_FAILED : RLI_READ_OOM;
	}
	/* A FIFO or a device would block or never end: inputs are files. */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*failure = rli_strfmt("Failed to read %s: not a regular file", path);
		result = *failure ? RLI_READ_FAILED : RLI_READ_OOM;
		goto done;
	}
	if (st.st_size == 0) {
		result = RLI_READ_EMPTY;
		goto done;
	}
	buffer = malloc(RLI_PARSE_CHUNK);
	if (!buffer) {
		result = RLI_READ_OOM;
		goto done;
	}
	for (;;) {
		ssize_t got = read(fd, buffer, RLI_PARSE_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*failure = rli_strfmt("Failed to read %s: %s", path, strerror(errno));
			result = *failure ? RLI_READ_FAILED : RLI_READ_OOM;
			goto done;
		}
		if (got == 0)
			break;
		if (fn(ctx, buffer, (size_t)got) != 0) {
			result = RLI_READ_HALTED;
			goto done;
		}
	}
done:
	free(buffer);
	close(fd);
	return result;
}

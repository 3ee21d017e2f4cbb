/* standalone_driver.c: replays fuzz inputs through a target without libFuzzer, so any compiler runs the corpus. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs the target once on the file's bytes, in a buffer of exactly their size so a sanitizer sees any overread. */
static int replay_file(const char *path, size_t size)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *data = malloc(size ? size : 1);
	int ok = fp && data && fread(data, 1, size, fp) == size;
	if (ok)
		LLVMFuzzerTestOneInput(data, size);
	else
		fprintf(stderr, "standalone_driver: cannot read %s: %s\n", path, strerror(errno));
	free(data);
	if (fp)
		fclose(fp);
	return ok ? 1 : -1;
}

/* Replays a file, or every file under a folder; returns how many inputs ran, or -1 on a read failure. */
static long replay_path(const char *path)
{
	struct stat st;
	DIR *dir;
	struct dirent *entry;
	long count = 0;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "standalone_driver: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) ? replay_file(path, (size_t)st.st_size) : 0;
	if (!(dir = opendir(path))) {
		fprintf(stderr, "standalone_driver: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (count >= 0 && (entry = readdir(dir))) {
		char child[4096];
		long n;
		if (entry->d_name[0] == '.')
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, entry->d_name);
		n = replay_path(child);
		count = n < 0 ? -1 : count + n;
	}
	closedir(dir);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0;
	for (int i = 1; i < argc; i++) {
		long n;
		if (argv[i][0] == '-') /* libFuzzer's flags (-runs=0 ...) mean nothing here */
			continue;
		if ((n = replay_path(argv[i])) < 0)
			return 1;
		total += n;
	}
	/* A replay that ran nothing proves nothing: an empty or missing corpus fails. */
	if (total == 0) {
		fprintf(stderr, "standalone_driver: no inputs to replay\n");
		return 1;
	}
	printf("replayed %ld inputs\n", total);
	return 0;
}

/* harness.h: the few assertion macros the C tests share; a failed check fails the test. */
#ifndef RLI_TEST_HARNESS_H
#define RLI_TEST_HARNESS_H

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RLI_TEST_SKIP 77

static int rli_test_failures;

/* The next of a xorshift sequence from *state (not 0): test data that is the same every run. */
static inline uint64_t rli_test_random(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#define CHECK(cond)                                                                \
	do {                                                                       \
		if (!(cond)) {                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			rli_test_failures++;                                       \
		}                                                                  \
	} while (0)

#define CHECK_INT(got, want)                                                       \
	do {                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);           \
		if (g_ != w_) {                                                    \
			fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, g_, w_); \
			rli_test_failures++;                                       \
		}                                                                  \
	} while (0)

#define CHECK_STR(got, want)                                                       \
	do {                                                                       \
		const char *g_ = (got), *w_ = (want);                              \
		if (!g_ || strcmp(g_, w_) != 0) {                                  \
			fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got, \
				g_ ? g_ : "(null)", w_);                            \
			rli_test_failures++;                                       \
		}                                                                  \
	} while (0)

/* Doubles equal within tol (absolute). */
#define CHECK_NEAR(got, want, tol)                                                 \
	do {                                                                       \
		double g_ = (got), w_ = (want);                                    \
		if (!(fabs(g_ - w_) <= (tol))) {                                   \
			fprintf(stderr, "%s:%d: %s = %.17g, want %.17g\n", __FILE__, __LINE__, #got, g_, w_); \
			rli_test_failures++;                                       \
		}                                                                  \
	} while (0)

/* The whole file, NUL-terminated (tests read small outputs); NULL if it cannot be read. */
static inline char *test_read_file(const char *path, size_t *length)
{
	FILE *fp = fopen(path, "rb");
	char *data = NULL;
	long size;
	if (length)
		*length = 0;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
	    (data = calloc(1, (size_t)size + 1)) != NULL) {
		if (fread(data, 1, (size_t)size, fp) != (size_t)size) {
			free(data);
			data = NULL;
		} else if (length) {
			*length = (size_t)size;
		}
	}
	fclose(fp);
	return data;
}

/* How many entries dir holds (hidden temporaries too: a stray one would show); -1 if it cannot be read. */
static inline int test_count_entries(const char *dir)
{
	DIR *handle = opendir(dir);
	struct dirent *entry;
	int count = 0;
	if (!handle)
		return -1;
	while ((entry = readdir(handle)) != NULL)
		if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
			count++;
	closedir(handle);
	return count;
}

/* Removes every file dir holds (hidden ones too; a folder with no sub-folders, as the tests' output folders are). */
static inline void test_empty_dir(const char *dir)
{
	DIR *handle = opendir(dir);
	struct dirent *entry;
	char path[4096];
	while (handle && (entry = readdir(handle)) != NULL)
		if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) {
			if (snprintf(path, sizeof(path), "%s/%s", dir, entry->d_name) < (int)sizeof(path))
				remove(path);
		}
	if (handle)
		closedir(handle);
}

#define TEST_DONE()                                                                \
	do {                                                                       \
		if (rli_test_failures)                                             \
			fprintf(stderr, "%d check(s) failed\n", rli_test_failures); \
		return rli_test_failures ? 1 : 0;                                  \
	} while (0)

#endif

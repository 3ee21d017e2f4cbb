/* torch_notes.c: a trace's rank from its file name, and what a run of PyTorch traces says once for all of them. */
#include "parse_internal.h"
#include "common/numfmt.h"
#include "memory/memory_table.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* At most this many files are named in a line; the rest are counted ("and 3 more"). */
#define NAMED_FILES 3

static int word_char(char c)
{
	return isalnum((unsigned char)c) != 0;
}

int rli_rank_from_file_name(const char *path, int64_t *rank)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	for (const char *at = name; *at; at++) {
		const char *digits = at + 4;
		int64_t value = 0;
		size_t n = 0;
		/* "rank" as a word of its own: bs_32_rank0, not prerank3 (the name of something else). */
		if (strncasecmp(at, "rank", 4) != 0 || (at > name && word_char(at[-1])))
			continue;
		if (*digits == '-' || *digits == '_')
			digits++;
		while (n < 10 && isdigit((unsigned char)digits[n]))
			value = value * 10 + (digits[n++] - '0');
		/* 1-9 digits, and the number ends there: rank3b or a tenth digit is not a rank. */
		if (n == 0 || n > 9 || word_char(digits[n]))
			continue;
		*rank = value;
		return 1;
	}
	return 0;
}

/* " a, b, c and 2 more" of the units whose `pick` is set: the paths, NAMED_FILES at most. */
static void name_files(char *out, size_t size, const rli_discovery *discovery,
		       int (*pick)(const rli_unit *unit, const void *arg), const void *arg)
{
	size_t named = 0, all = 0, used = 0;
	out[0] = '\0';
	for (size_t u = 0; u < discovery->count; u++) {
		const rli_unit *unit = &discovery->units[u];
		if (!pick(unit, arg))
			continue;
		if (named < NAMED_FILES && used < size) {
			int n = snprintf(out + used, size - used, "%s%s", named ? ", " : "", unit->path);
			used += n > 0 ? (size_t)n : 0;
			named++;
		}
		all++;
	}
	if (all > named && used < size)
		snprintf(out + used, size - used, " and %zu more", all - named);
}

/* A unit parsed without failing: only what it gave counts. */
static int parsed(const rli_unit *unit)
{
	return unit->failures.count == 0 && unit->status == RLI_OK && !unit->unsearched;
}

static int rank_defaulted(const rli_unit *unit, const void *arg)
{
	(void)arg;
	return parsed(unit) && unit->rank_from == RLI_RANK_DEFAULT;
}

static int rank_named(const rli_unit *unit, const void *arg)
{
	(void)arg;
	return parsed(unit) && unit->rank_from == RLI_RANK_FROM_NAME;
}

static int without_addr(const rli_unit *unit, const void *arg)
{
	(void)arg;
	return parsed(unit) && unit->memory_left.no_addr;
}

static int other_type(const rli_unit *unit, const void *arg)
{
	(void)arg;
	return parsed(unit) && unit->memory_left.other_type;
}

/* The kinds' names, as the devices are named in the table ("HIP:0"). */
static const char *const kind_names[RLI_TORCH_KINDS] = { "CPU", "CUDA", "HIP", "NPU" };

/* The rank lines: traces named by their rank at -v; traces with none at all warned, once. */
static void rank_notes(const rli_discovery *discovery, rli_log_fn log, void *log_ctx)
{
	char files[1024];
	size_t named = 0, defaulted = 0;
	for (size_t u = 0; u < discovery->count; u++) {
		named += rank_named(&discovery->units[u], NULL);
		defaulted += rank_defaulted(&discovery->units[u], NULL);
	}
	if (named) {
		name_files(files, sizeof(files), discovery, rank_named, NULL);
		rli_log_line(log, log_ctx, RLI_LOG_INFO, "no distributedInfo in %zu trace(s): the rank taken from "
			     "the file name (rank-N, rank_N or rankN): %s", named, files);
	}
	if (defaulted) {
		name_files(files, sizeof(files), discovery, rank_defaulted, NULL);
		rli_log_line(log, log_ctx, RLI_LOG_WARN, "no rank in %zu trace(s), neither a distributedInfo nor "
			     "rank-N in the file name: drawn as rank 0: %s", defaulted, files);
	}
}

static void memory_notes(const rli_discovery *discovery, unsigned devices, rli_log_fn log, void *log_ctx)
{
	uint64_t kind[RLI_TORCH_KINDS] = { 0 }, other = 0, no_addr = 0, rows = 0;
	double first_other = 0;
	char files[1024], count[32], line[512];
	size_t used = 0, kinds = 0;
	for (size_t u = 0; u < discovery->count; u++) {
		const rli_unit *unit = &discovery->units[u];
		if (!parsed(unit))
			continue;
		for (int k = 0; k < RLI_TORCH_KINDS; k++)
			kind[k] += unit->memory_left.kind[k];
		if (!other && unit->memory_left.other_type)
			first_other = unit->memory_left.first_other_type;
		other += unit->memory_left.other_type;
		no_addr += unit->memory_left.no_addr;
		rows += unit->memory ? unit->memory->count : 0;
	}
	/*
	 * Devices not chosen: the host's memory left out by default is what a user asked for, said
	 * at -v; said on an ordinary run when it is all there was, or an accelerator was left out.
	 */
	line[0] = '\0';
	for (int k = 0; k < RLI_TORCH_KINDS && used < sizeof(line); k++) {
		if (!kind[k])
			continue;
		rli_fmt_thousands(count, sizeof(count), (double)kind[k], 0);
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s%s of %s devices", kinds ? ", " : "",
					 count, kinds ? "" : " [memory] events", kind_names[k]);
		kinds++;
	}
	if (kinds)
		rli_log_line(log, log_ctx,
			     rows == 0 || (devices & RLI_MEMORY_DEVICE_ACCELERATORS) != RLI_MEMORY_DEVICE_ACCELERATORS
				     ? RLI_LOG_NOTICE : RLI_LOG_INFO,
			     "left out %s (--memory-device all keeps them)", line);
	if (other) {
		name_files(files, sizeof(files), discovery, other_type, NULL);
		rli_fmt_thousands(count, sizeof(count), (double)other, 0);
		rli_log_line(log, log_ctx, RLI_LOG_WARN, "left out %s [memory] events of a Device Type other than "
			     "CPU (0), CUDA (1), HIP (6) or NPU (20), the first of type %g: %s", count, first_other, files);
	}
	if (no_addr) {
		name_files(files, sizeof(files), discovery, without_addr, NULL);
		rli_fmt_thousands(count, sizeof(count), (double)no_addr, 0);
		rli_log_line(log, log_ctx, RLI_LOG_WARN, "left out %s [memory] events without an 'Addr' (an older "
			     "profiler's form): no free can be paired with the block it frees: %s", count, files);
	}
}

void rli_torch_run_notes(const rli_discovery *discovery, unsigned devices, rli_log_fn log, void *log_ctx)
{
	if (!log)
		return;
	rank_notes(discovery, log, log_ctx);
	if (devices)
		memory_notes(discovery, devices, log, log_ctx);
}

/* summary_internal.h: the writers summary.json's parts share: keys and values in its compact layout. */
#ifndef RLI_EXPORT_SUMMARY_INTERNAL_H
#define RLI_EXPORT_SUMMARY_INTERNAL_H

#include "common/json_write.h"
#include "compare/compare.h"
#include "stats/memory_stats.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

/* A "key": prefix; `first` is whether it opens its object. */
static inline void key(FILE *fp, const char *name, int first)
{
	fprintf(fp, "%s\"%s\":", first ? "" : ",", name);
}

static inline void text(FILE *fp, const char *name, const char *value, int first)
{
	key(fp, name, first);
	rli_json_write_string(fp, value ? value : "", RLI_JSON_PLAIN);
}

static inline void number(FILE *fp, const char *name, double value, int first)
{
	key(fp, name, first);
	rli_json_write_double(fp, value);
}

static inline void count(FILE *fp, const char *name, uint64_t value, int first)
{
	key(fp, name, first);
	fprintf(fp, "%" PRIu64, value);
}

static inline void rank(FILE *fp, const char *name, int64_t value, int first)
{
	key(fp, name, first);
	fprintf(fp, "%" PRId64, value);
}

/* Opens a list: "name":[ then one item per line. */
static inline void list_open(FILE *fp, const char *name)
{
	fprintf(fp, ",\n\"%s\":[", name);
}

static inline void item_open(FILE *fp, size_t index)
{
	fputs(index ? ",\n{" : "\n{", fp);
}

/* The "comparison" part (summary_compare.c). */
void rli_summary_write_comparison(FILE *fp, const rli_comparison *comparison);

#endif

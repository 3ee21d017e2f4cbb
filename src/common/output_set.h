/* output_set.h: the files of one run, kept under temporary names until every one is written. */
#ifndef RLI_COMMON_OUTPUT_SET_H
#define RLI_COMMON_OUTPUT_SET_H

#include "atomic_file.h"
#include "rl_insight.h"

/*
 * Takes a written file over: flushes and closes it, and keeps its temporary
 * to be synced and renamed by rli_output_set_commit. On failure the file is
 * removed and the set is unchanged. *file is left empty either way.
 */
int rli_output_set_keep(rli_output_set *set, rli_atomic_file *file);

/* Finishes `file` into `set`, or into place at once when set is NULL. */
int rli_output_finish(rli_output_set *set, rli_atomic_file *file);

#endif

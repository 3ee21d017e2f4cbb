/* gmm_internal.h: what the GMM parser's parts share: the dumps' discovery, one dump's read, the table files' rows. */
#ifndef RLI_PARSE_GMM_INTERNAL_H
#define RLI_PARSE_GMM_INTERNAL_H

#include "parse_internal.h"
#include "memory_internal.h" /* the role filter */
#include "gmm/gmm_table.h"

/* "1,2", "1-4": the step filter, in the rank list's grammar (NULL or "all": every step). RLI_EUSAGE naming it. */
int rli_step_filter_parse(rli_rank_filter *out, const char *text);

/*
 * One dump's bytes (data, size: the whole file) appended to unit->gmm (a new table when NULL): one snapshot under the
 * unit's role, rank, step and stage, or none for an empty tensor (warned). A file that is no
 * tensor torch.save wrote fails the unit: "Failed to parse <path>: <what, where>". Out of
 * memory: unit->status = RLI_ERROR.
 */
void rli_gmm_read_dump(rli_unit *unit, const unsigned char *data, size_t size);

/*
 * A gmm_events table's bytes (CSV or JSONL by the unit's path) appended to unit->gmm (a new table
 * when NULL), keeping the rows of unit->keep_ranks, keep_steps and keep_roles; a bad row fails the
 * file, naming the line, and none of its rows stays.
 */
void rli_table_parse_gmm(rli_unit *unit, rli_bytes *source);

/*
 * rli_format_gmm (format.h) discovers one unit per group_list.pt dump that lies where msprobe
 * puts it (gmm.md §1.2, rank and step from the folders below the input) and that the rank,
 * step and role filters keep, ordered by step, role, rank and stage; dumps that lie elsewhere
 * or have no op number are warned about by name and left out. rli_format_table_gmm: the
 * gmm_events tables (table.c).
 */

#endif

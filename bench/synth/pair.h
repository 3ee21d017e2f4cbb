/* pair.h: what pair.c shares with pair_facts.c: the facts of a pair worked out from the expected rows of its two trees. */
#ifndef RLI_SYNTH_PAIR_H
#define RLI_SYNTH_PAIR_H

#include "synth.h"

/*
 * The roles one tree's rows have and the other's lack, as removed_roles= and added_roles= lines
 * (comma-separated, in order of first appearance), then the plan's folder names of the role left
 * out of each side (removed_role_dir=, added_role_dir=).
 */
int synth_pair_write_roles(FILE *fp, const synth_options *baseline, const synth_options *current, int roles);
/*
 * The growth at site from the two trees' expected_memory.jsonl: site_allocations= (the current
 * tree's allocations there), growth_kb_total= and growth_kb.<role>.<rank>.<device_type>= (current
 * minus baseline allocated KB there, per role, rank and device).
 */
int synth_pair_write_growth(FILE *fp, const char *base_dir, const char *current_dir, const char *site);

#endif
